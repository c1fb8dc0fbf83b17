"""The rules as the static site's phone runs them: one entry point for the Web Worker that hosts Python
(Pyodide), over the same pure core as the server and the command line (`service`), JSON in and JSON out.

Nothing here is a rule: it only names the service calls the site may make and turns a refusal into the same
answer the API gives (`error`, `field`, `problems`), so the page shows the same words either way.
"""
from __future__ import annotations

import inspect
import json
from collections.abc import Callable
from functools import cache
from typing import Any

from ... import service, sheets
from ...core.schema import LANGS, InputError, Problem, Problems


def _kept(args: dict) -> tuple[dict, list[dict]]:
    """A sheet kept on this phone, as the page sends it back: checked whole, as an import is (the phone's storage
    is not trusted more than a file)."""
    kept = args.get("sheet") if isinstance(args.get("sheet"), dict) else {}
    sheet, log = sheets.import_json({"format": sheets.FORMAT, "version": 1, "log": args.get("log"),
                                     **{k: kept.get(k) for k in ("game", "title", "players") if k in kept}})
    moments = [kept.get(k) for k in ("created", "updated")]
    ok = all(isinstance(m, str) and sheets.Moment().check(m, (), Problems()) == m for m in moments)
    sheet["created"], sheet["updated"] = moments if ok else (log[0]["at"] if log else sheets.now(), sheets.now())
    return sheet, log


def _state(sheet: dict, log: list[dict]) -> dict:
    state = sheets.fold(sheet, log)
    state["entries"] = [sheets.entry_view(e) for e in state["entries"]]
    return {"sheet": sheet, "log": log, "state": state}


def sheet_new(args: dict) -> dict:
    """A new sheet kept on this phone: `{"game", "title", "players"}` checked as the server checks it."""
    sheet = sheets.new_sheet(args.get("sheet"))
    sheet["created"] = sheet["updated"] = sheets.now()
    return _state(sheet, [])


def sheet_change(args: dict) -> dict:
    """One change to a sheet kept on this phone (`action`, `target`, `data` as the API takes them), checked against
    the sheet as it is by the same rules as the server's; the sheet with its new log and state."""
    sheet, log = _kept(args)
    action, target = args.get("action"), args.get("target")
    if action not in sheets.ACTIONS:
        raise InputError([Problem(("action",), f"unknown action {action!r}; expected one of: "
                                               f"{', '.join(sheets.ACTIONS)}")])
    data = args.get("data") or {}
    if action == "add":
        data = sheets.with_round(sheet, sheets.fold(sheet, log), data)
    body, base, client_id = sheets.checked_change(sheet, action, data)
    earlier = next((r for r in log if client_id and r.get("client_id") == client_id), None)
    if earlier is not None:  # sent twice (a double tap): kept once; another change under its client_id is refused
        sheets.replayed(earlier, action, target, body)  # as on the server
        return _state(sheet, log)
    replay = sheets.Replay(sheet)
    for record in log:
        replay.apply(record)
    replay.check(action, target, base)
    record = sheets.new_record(len(log) + 1, action, sheets.now(), target, body, client_id)
    finish = replay.settle(record)  # where the game stands by its rules, as the server's store decides it
    sheet, log = {**sheet, "updated": record["at"]}, [*log, record]
    if finish:  # over by the game's rules: finished, as on the server
        log.append(sheets.new_record(len(log) + 1, "finish", record["at"]))
    return _state(sheet, log)


def _pairs(pairs: Any) -> list:
    if not isinstance(pairs, list) or not all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                                              for p in pairs):
        raise InputError([Problem(("fields",), "must be a list of [name, value] pairs of text")])
    return pairs


def score_form(args: dict) -> dict:
    """A scoring page's form as the page script sends it (`fields`: its [name, value] pairs, in order), read by
    the same form glue as the server's page; the request it makes and the score."""
    from ..games.glue import pages
    from ..play import forms

    pairs = _pairs(args.get("fields"))
    service.resolve(args.get("game", ""))  # an unknown game is named before its form is read
    fields = forms.Fields(pairs)
    request = pages(args["game"]).prepare(forms.request_from_form(fields), fields)
    return {"request": request, "result": service.score(args["game"], request)}


def _number(x: Any) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and abs(x) < 1e6


def photo_fill(args: dict) -> dict:
    """A scoring page's form (`fields`, with `_to`: the part its photo fills) filled with the cards the page read
    in a photo (`cards`: [{"id", "corners"}], ids as the printed codes name them, in the order found; `size`: the
    photo's [width, height]) by the same code as the server's photo page: the same answer (`cards` with `added`,
    `size`, `query`, `said`). Codes of another game's cards or of a back are left out, as there."""
    from ..games import glue
    from ..photos import fill as photo_fill

    game = args.get("game", "")
    _, card_set = service.resolve(game)
    pages = glue.taking_photos(game)
    if pages is None:
        raise InputError([Problem(("game",), f"the scoring page of {game!r} takes no photo")])
    pairs, cards, size = _pairs(args.get("fields")), args.get("cards"), args.get("size")
    if not isinstance(cards, list) or len(cards) > 500 or not all(
            isinstance(c, dict) and isinstance(c.get("id"), str) and isinstance(c.get("corners"), list)
            and len(c["corners"]) == 4 and all(isinstance(p, list) and len(p) == 2 and all(map(_number, p))
                                               for p in c["corners"]) for c in cards):
        raise InputError([Problem(("cards",), "must be a list of cards found, each {id, corners: four [x, y]}")])
    if not isinstance(size, list) or len(size) != 2 or not all(map(_number, size)):
        raise InputError([Problem(("size",), "must be the photo's [width, height]")])
    found = [(card, [[round(x), round(y)] for x, y in c["corners"]]) for c in cards
             if (card := photo_fill.card_of(card_set, c["id"])) is not None]
    lang = args.get("lang") if args.get("lang") in LANGS else LANGS[0]
    return {**photo_fill.filled(pages, pairs, found, lang), "size": [round(v) for v in size]}


SITE = "web/site.json"  # beside this package in the static site's zip: each language's addresses (made at build)


@cache
def _renderer(lang: str):
    from ...core.resources import PACKAGE_DIR
    from ..shell.render import PhoneRenderer

    site = json.loads((PACKAGE_DIR / SITE).read_text(encoding="utf-8"))
    if lang not in site["urls"]:
        raise InputError([Problem(("lang",), f"unknown language {lang!r}; expected one of: {', '.join(site['urls'])}")])
    return PhoneRenderer(lang, site["urls"][lang], site)


def page(args: dict) -> dict:
    """A computing page (scoring, setup, a game's pages of its own) for its form's [name, value] pairs, rendered in
    the page's language by the same view and templates as the server's: `{"html", "status", "title"}`. The page
    script shows its <main>."""
    from urllib.parse import urlencode

    from ..games import glue
    from ..play import forms, views

    endpoint, values = args.get("endpoint"), args.get("values") or {}
    if endpoint not in glue.VIEWS or not isinstance(values, dict) or not all(
            isinstance(v, str) for v in values.values()):
        raise InputError([Problem(("endpoint",), f"no such page {endpoint!r}; expected one of: "
                                                 f"{', '.join(glue.VIEWS)}")])
    fields = forms.Fields(_pairs(args.get("fields")))
    renderer = _renderer(args.get("lang", ""))
    view = glue.VIEWS[endpoint]
    refused = InputError([Problem(("values",), f"no such page: {endpoint} {values}")])
    try:
        inspect.signature(view).bind(fields, renderer.lang, **values)
    except TypeError:  # values the page does not take
        raise refused from None
    try:
        template, context, status = view(fields, renderer.lang, **values)
    except views.NotFound:
        raise refused from None
    here = renderer.url_for(endpoint, **values)
    views.with_links(context, here, renderer.site["origin"] + here)
    if endpoint == "scoring.score" and (sheet_id := fields.get("_sheet")):
        context["phone_save"] = _phone_save(renderer, sheet_id, context, _names(args.get("sheet_players")),
                                            sheets.correcting_of(fields))
    query = urlencode(list(fields.items(multi=True)))
    return {"html": renderer.render(template, here, query, **context), "status": status}


def _names(given: Any) -> list[str]:
    """The kept sheet's players as the page sends them (a list of names), else none."""
    return [n for n in given if isinstance(n, str)][:sheets.MAX_PLAYERS] if isinstance(given, list) else []


def _phone_save(renderer, sheet_id: str, context: dict, players: list[str], correcting: dict | None) -> dict:
    """What a scoring page opened from a sheet kept on this phone (`_sheet`: its id; `players`: its players) shows
    to save its answer there: the request scored (once the form gives one), who sat in each seat (chosen as on the
    server's save box), the entry it corrects (`correcting`, `sheets.correcting_of`: the save edits it, from its
    revision) and the sheet's page to go back to."""
    from urllib.parse import quote

    from ..play import views

    box = {"id": sheet_id, "request": None, "seats": [], "players": players,
           "after": f"{renderer.url_for(views.PHONE_SHEETS)}?id={quote(sheet_id)}"}
    if correcting:
        box.update(edit=correcting["edit"], base=correcting["base"])
    if context.get("result") is not None:  # (saved without its earlier rounds: the sheet scores each in order)
        box["request"] = {k: v for k, v in (context.get("request_made") or {}).items() if k != "earlier"}
        if players:
            box.update(sheets.seat_choices(context["card_set"].game, context["result"], players,
                                           correcting and correcting["seats"]))
    return box


def _calculator(renderer, kept: dict, correcting: dict | None = None) -> str | None:
    """The scoring page of a sheet kept on this phone, for its players and its next round (a game of rounds) with
    the rounds before it, or opened again on an entry scored with it (`correcting`: that round's request in its
    form, `glue.as_fields`), as the server's sheet opens it (`sheets.calculator_fields`), saving back to the sheet;
    None for a game without a scoring page."""
    from urllib.parse import urlencode

    from ..games import glue
    from ..play import views

    sheet, state = kept["sheet"], kept["state"]
    if not views.has_score_page(sheet["game"]):
        return None
    query = [("_from", "sheet"), ("_sheet", kept["id"]),
             *sheets.calculator_fields(sheet["game"], state["entries"], sheet["players"], sheets.next_round(state),
                                       correcting, glue.as_fields(sheet["game"]))]
    return f"{renderer.url_for('scoring.score', game=sheet['game'])}?{urlencode(query)}"


def _corrections(renderer, kept: dict) -> dict[int, str]:
    """Each counting entry of an open sheet kept on this phone that was scored with the calculator: its calculator
    opened to correct it (by entry number), as the server's edit page offers it."""
    if kept["state"]["finished"]:
        return {}
    return {e["seq"]: url for e in kept["state"]["entries"] if e.get("request") and e["active"]
            and (url := _calculator(renderer, kept, e)) is not None}


def phone_sheets(args: dict) -> dict:
    """The page of sheets kept on this phone (`kept`: [{id, sheet, log}] from its storage), each re-checked as an
    import is; `open` names the sheet shown whole, `problems` what the last change was refused for. A kept sheet
    that no longer reads (storage edited by hand) is listed with its problem, not dropped."""
    from ..play import forms, views

    renderer = _renderer(args.get("lang", ""))
    kept = args.get("kept") if isinstance(args.get("kept"), list) else []
    shown = []
    for item in kept[:200]:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            continue
        try:
            shown.append({"id": item["id"], **_state(*_kept(item))})
        except InputError as e:
            shown.append({"id": item["id"], "damaged": str(e)})
    shown.sort(key=lambda k: k.get("sheet", {}).get("updated", ""), reverse=True)
    opened = next((k for k in shown if k["id"] == args.get("open") and "state" in k), None)
    if opened is not None:
        opened = {**opened, "calculator": _calculator(renderer, opened), "corrections": _corrections(renderer, opened)}
    problems = [str(p) for p in args.get("problems", []) if isinstance(p, str)] \
        if isinstance(args.get("problems"), list) else []
    here = renderer.url_for(views.PHONE_SHEETS)
    context = {"kept": shown, "opened": opened, "problems_text": problems, "form": forms.Fields([]),
               **views.sheet_choices()}
    return {"html": renderer.render("sheets/phone.html", here, **context), "status": 400 if problems else 200}


def warm() -> None:
    """Load every module a call may need (the static site's zip is made from what is loaded after this)."""
    # (loaded for the zip; glue: every game's web glue; face_svg: the setup page's card art)
    from ..games import glue  # noqa: F401
    from ..photos import fill  # noqa: F401
    from ..play import face_svg, views  # noqa: F401
    from ..shell import render  # noqa: F401


CALLS: dict[str, Callable[[dict], Any]] = {
    "score_form": score_form,
    "page": page,
    "photo_fill": photo_fill,
    "sheet_new": sheet_new,
    "sheet_change": sheet_change,
    "sheet_export": lambda a: sheets.export_json(*_kept(a)),
    "sheet_import": lambda a: _state(*sheets.import_json(
        service.parse_json(a["text"]) if isinstance(a.get("text"), str) else a.get("export"))),
    "phone_sheets": phone_sheets,
    "score": lambda a: service.score(a["game"], a.get("request")),
    "setup": lambda a: service.setup(a["game"], a.get("players"), a.get("seed"), a.get("options") or {}),
    "solo_turn": lambda a: service.solo_turn(a["game"], a.get("request")),
    "catalogue": lambda a: [{"game": s.game, "title": dict(s.title), "players": list(s.players)}
                            for s in service.catalogue()],
}


def _said(problems: list[Problem], args: Any) -> list[str]:
    """Problems as a page shows them, in the language the call's arguments name (`lang`), else as the API says
    them (also when the arguments could not be read)."""
    from ...games import GAMES
    from ..games.glue import pages
    from ..play import plain

    lang = args.get("lang") if isinstance(args, dict) else None
    if lang not in LANGS:
        return [str(p) for p in problems]
    game = args.get("game")
    words = pages(game).words if isinstance(game, str) and game in GAMES else plain.Words()
    return [str(s) for s in plain.said_all(problems, lang, words=words)]


def call(name: str, arguments: str) -> str:
    """Run one call with JSON `arguments` (e.g. `{"game": "<game>", "request": {...}}`); JSON of `{"result": ...}`,
    or of `{"error", "field", "problems"}` (a 400 on the server) for bad input or an unknown game."""
    args = None
    try:
        if name not in CALLS:
            raise InputError([Problem((), f"unknown call {name!r}; expected one of: {', '.join(CALLS)}")])
        args = service.parse_json(arguments)
        if not isinstance(args, dict) or not isinstance(args.get("game", ""), str):
            raise InputError([Problem((), "the arguments must be a JSON object naming a game")])
        return json.dumps({"result": CALLS[name](args)}, ensure_ascii=False)
    except InputError as e:
        return json.dumps({"error": str(e), "field": e.field, "problems": _said(e.problems, args)},
                          ensure_ascii=False)
    except sheets.Conflict as e:
        return json.dumps({"error": str(e), "field": e.field, "conflict": e.kind}, ensure_ascii=False)
    except sheets.NotFound as e:
        return json.dumps({"error": str(e), "field": "target", "problems": [str(e)]}, ensure_ascii=False)
    except service.UnknownGame as e:
        return json.dumps({"error": str(e), "field": "game", "problems": [str(e)]}, ensure_ascii=False)
