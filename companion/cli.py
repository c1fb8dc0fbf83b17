"""The `companion` command line: `main(argv)` parses, dispatches and returns an exit code."""
from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from . import __version__, cards, games, library, network, service, settings
from .core import i18n
from .core.schema import InputError

EXIT_OK, EXIT_BAD_INPUT = 0, 2
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 128 + signal.SIGTERM  # Ctrl+C; SIGTERM (a shell's own codes for them)


class UsageError(Exception):
    """Bad arguments or input: printed as one clear message, exit 2."""


def cmd_validate(args: argparse.Namespace) -> int:
    """`companion validate`: errors and warnings on stderr, a line for each file that loads; 2 if any has errors."""
    files = args.files or [_shown(p) for p in cards.shipped_files()]
    if not files:
        raise UsageError("no card data files found")
    from .pnp.design_check import validate_file  # reportlab: fonts and text fitting

    failed = False
    for name in files:
        card_set, errors = validate_file(name, args.card_size)
        for line in errors:
            print(line, file=sys.stderr)
        if card_set:
            for line in card_set.warnings:  # worth a look, but the file prints (exit 0)
                print(line, file=sys.stderr)
            printed = sum(c.qty for c in card_set.components if c.kind != "back")
            warned = (f", {len(card_set.warnings)} warning{'s' * (len(card_set.warnings) != 1)}"
                      if card_set.warnings else "")
            print(f"{name}: ok — {len(card_set.components)} entries, {printed} printed components{warned}")
        failed |= bool(errors)
    return EXIT_BAD_INPUT if failed else EXIT_OK


def _print_json(data) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def _read_request(source: str) -> str:
    if source == "-":
        return sys.stdin.read()
    try:
        with open(source, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise UsageError(f"cannot read {source}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{source} is not UTF-8 text") from None


def _game(name: str) -> str:
    """A game's id from the command line: a known id, or a card data file's path (its game becomes known)."""
    if name.endswith((".yaml", ".yml")):
        return library.current().add(name).game
    service.card_set(name)  # an unknown game is named before any input is read
    return name


def cmd_score(args: argparse.Namespace) -> int:
    """`companion score`: the game's answer to a JSON request (a file, or - for standard input), printed as JSON."""
    _print_json(service.score(_game(args.game), service.parse_json(_read_request(args.file))))
    return EXIT_OK


def _options(pairs: list[str], flag: str = "--option", shape: str = "NAME=VALUE") -> dict[str, str]:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"{flag} takes {shape}, got {pair!r}")
        out[key] = value
    return out


def cmd_setup(args: argparse.Namespace) -> int:
    """`companion setup`: a seeded setup, printed as JSON."""
    _print_json(service.setup(_game(args.game), args.players, args.seed, _options(args.option),
                              _options(args.part_seed, "--part-seed", "PART=SEED")))
    return EXIT_OK


def cmd_simulate(args: argparse.Namespace) -> int:
    """`companion simulate`: the solo mode played --games times (1 to 1,000,000), its results printed as JSON; with
    --deals, random tables of a game with `scoring:` dealt and scored (JSON with --json, else a summary)."""
    if args.deals is None:
        if args.players is not None or args.json:
            raise UsageError("--players and --json go with --deals N (random tables of a game with scoring:)")
        if not 1 <= args.games <= 1_000_000:
            raise UsageError("--games must be from 1 to 1000000")
        _print_json(service.simulate(_game(args.game), args.games, args.seed))
        return EXIT_OK
    from .games.deals import simulate_deals

    figures = simulate_deals(service.card_set(_game(args.game)), args.deals, args.players, args.seed)
    if args.json:
        _print_json(figures)
        return EXIT_OK
    print(f"{figures['game']}: {figures['deals']} tables of {figures['players']} dealt (seed {figures['seed']}), "
          "each scored as one round")
    for rule, f in figures["rules"].items():
        share = "-" if f["share"] is None else f"{f['share']:.0%}"
        print(f"  rule {rule}: mean {_number(f['mean'])} (min {_number(f['min'])}, quartiles {_number(f['q1'])} / "
              f"{_number(f['median'])} / {_number(f['q3'])}, max {_number(f['max'])}); {share} of the winners' points")
    m = figures["margin"]
    print(f"  margin: mean {_number(m['mean'])} (min {_number(m['min'])}, median {_number(m['median'])}, max "
          f"{_number(m['max'])})")
    ranked = sorted(figures["components"].items(), key=lambda kv: -(kv[1]["lift"] or 0))
    for label, part in (("most", ranked[:3]), ("least", ranked[max(3, len(ranked) - 3):][::-1])):
        print(f"  {label} often in a winning hand: " + ", ".join(f"{c} (lift {_number(v['lift'])})" for c, v in part))
    return EXIT_OK


def cmd_playtest(args: argparse.Namespace) -> int:
    """`companion playtest FILE`: the figures of the game's finished saved sheets, per version of its card data."""
    from . import sheets

    game = _game(args.game)
    report = sheets.playtest_report(_sheet_store(), game)
    if args.json:
        _print_json(report)
        return EXIT_OK
    if not report["versions"]:
        print(f"{game}: no finished sheet yet (the figures count the sheets finished on this companion)")
        return EXIT_OK
    for line in _playtest_lines(report):
        print(line)
    return EXIT_OK


def _number(x) -> str:
    return "-" if x is None else f"{x:.3g}" if isinstance(x, float) and not x.is_integer() else f"{x:g}"


def _playtest_lines(report: dict) -> list[str]:
    """The report as a person reads it: per version, newest first, each figure on a line."""
    lines = []
    for version, figs in report["versions"].items():
        counts = ", ".join(f"{n} at {p} players" for p, n in figs["players"].items())
        lines.append(f"{report['game']} version {version}: {figs['plays']} finished game"
                     f"{'s' * (figs['plays'] != 1)} ({counts})")
        lines.append("  seats' wins: " + ", ".join(f"{i} {share:.0%}" for i, share in enumerate(figs["seats"], 1)))
        for rule, f in figs["rules"].items():
            share = "-" if f["share"] is None else f"{f['share']:.0%}"
            lines.append(f"  rule {rule}: mean {_number(f['mean'])} (min {_number(f['min'])}, quartiles "
                         f"{_number(f['q1'])} / {_number(f['median'])} / {_number(f['q3'])}, max "
                         f"{_number(f['max'])}); {share} of the winners' points")
        for what in ("rounds", "minutes", "margin"):
            f = figs[what]
            lines.append(f"  {what}: mean {_number(f['mean'])} (min {_number(f['min'])}, median "
                         f"{_number(f['median'])}, max {_number(f['max'])})")
    return lines


def cmd_build(args: argparse.Namespace) -> int:
    """`companion build`: the PDFs, a line each, warnings on stderr; with --watch, again at each change until Ctrl+C."""
    from .pnp.build import build
    from .pnp.document import BuildSettings

    settings = BuildSettings(
        paper=args.paper, bleed=args.bleed, base_url=args.base_url, lang=args.lang, card_size=args.card_size,
        crop_marks=not args.no_crop_marks, offset=(args.offset_x, args.offset_y), layout=args.layout,
        backs=not args.no_backs, qr=args.qr, ink=args.ink)
    games_wanted = args.games or list(cards.load_shipped())
    only = args.only.split(",") if args.only is not None else None
    if only is not None and args.png:
        raise UsageError("--only builds a proof of some cards; --png writes every card: use one or the other")
    if args.service:
        return _build_for_service(args, settings, games_wanted, only)
    if args.watch:  # builds, then again at each change of a game's files, until Ctrl+C (exit 0)
        from .pnp.watch import watch

        codes = (lambda: _warn_about_codes(settings.base_url)) if settings.qr != "none" else None
        watch(games_wanted, args.out, settings, png=args.png, checked=codes, only=only)
        return EXIT_OK
    warnings: list[str] = []
    for path, pages in build(games_wanted, args.out, settings, png=args.png, warn=warnings.append, only=only):
        what = f" (a proof of {args.only})" if only is not None else ""
        print(f"{_shown(path)}: {pages} pages{what}"
              + (f" (+ {_shown(path.with_suffix(''))}-png/)" if args.png else ""))
    if settings.qr != "none":
        _warn_about_codes(settings.base_url)
    for line in warnings:
        print(line, file=sys.stderr)
    return EXIT_OK


def _build_for_service(args, settings, games_wanted: list[str], only: list[str] | None) -> int:
    """`companion build --service NAME --out DIR`: a print service's files for each game, its warnings on stderr."""
    from .pnp.services import build_for_service

    if args.watch or args.png:
        raise UsageError("--service writes a print service's files; it does not go with --watch or --png")
    warnings: list[str] = []
    for path in build_for_service(games_wanted, args.out, settings, args.service, warn=warnings.append, only=only):
        print(_shown(path))
    for line in warnings:
        print(line, file=sys.stderr)
    return EXIT_OK


def cmd_address(args: argparse.Namespace) -> int:
    """The address that opens a companion served on --host (what `make run` builds the codes with): the LAN address
    for 0.0.0.0, 127.0.0.1 for a server kept to this machine."""
    if not 1 <= args.port <= 65535:
        raise UsageError("--port must be from 1 to 65535")
    address = network.lan_address() if args.host in network.EVERY_INTERFACE else None
    if args.host in network.EVERY_INTERFACE and address is None:
        print("companion address: no network found; the codes will open only on this machine", file=sys.stderr)
    print(network.served_address(args.host, args.port, address))
    return EXIT_OK


def _warn_about_codes(base_url: str) -> None:
    """No silent dead codes: say on stderr what a loopback or a LAN base address means for the printed cards."""
    message = network.code_warning(base_url)
    if message:
        print(f"companion build: {i18n._(message, 'en', base=base_url)}", file=sys.stderr)


def _terminal_qr(url: str) -> None:
    import qrcode

    code = qrcode.QRCode(border=1)
    code.add_data(url)
    code.print_ascii(invert=True)


# waitress's limits, set so that nobody on the network can lock the table out: idle or half-sent connections
# cost no thread and are closed after CHANNEL_TIMEOUT; poll() instead of select() lifts the 1,024-socket ceiling.
# A body of 21 MiB: a photo of the table at full resolution (companion.photo.MAX_REQUEST); the app itself takes
# 256 KiB elsewhere (4 MiB for imports), checked from the length before it reads.
SERVE_LIMITS = dict(threads=8, connection_limit=2000, channel_timeout=20, cleanup_interval=5, asyncore_use_poll=True,
                    max_request_header_size=32 * 1024, max_request_body_size=21 * 1024 * 1024, backlog=1024)


def _more_open_files() -> None:
    """Let the server hold its connection limit in open sockets (the soft limit is often 1,024)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        wanted = SERVE_LIMITS["connection_limit"] + 256
        if soft != resource.RLIM_INFINITY and soft < wanted:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    except (ImportError, ValueError, OSError):
        pass


def cmd_serve(args: argparse.Namespace) -> int:
    """`companion serve`: the web app until stopped, after printing where this machine and the phones open it."""
    from .web import InstanceError, check_database, create_app, serve

    if not 1 <= args.port <= 65535:
        raise UsageError("--port must be from 1 to 65535")
    on_every_interface = args.host in network.EVERY_INTERFACE
    address = network.lan_address() if on_every_interface else None
    own = network.served_address(args.host, args.port, address)
    config = {"BASE_URL": args.base_url or settings.environment()["BASE_URL"] or own}  # share links, never Host
    if args.cards:
        config["CARD_FILES"] = args.cards
    try:
        app = create_app(config)
        check_database(app)
    except InstanceError as e:
        raise UsageError(str(e)) from None
    local = network.served_address(args.host, args.port, None)  # this machine: 127.0.0.1 on every interface
    print(f"companion is at {local}  (Ctrl+C stops it)", flush=True)
    for entry in app.extensions[library.EXTENSION].added():  # --cards: each file is read again when it changes
        print(f"{_shown(entry.path)}: every card at {local}/preview/{entry.game} (drawn again when the file, its "
              "spreadsheets, art or fonts change)", flush=True)
    for line in _where_kept(app.config):
        print(line, flush=True)
    if on_every_interface:
        if address is None:
            print("No network found: only this machine can open the companion.", flush=True)
        else:
            url = f"http://{address}:{args.port}"
            print(f"Phones on this Wi-Fi: {url}  (scan this with the first phone)", flush=True)
            _terminal_qr(url)
            others = [a for a in network.interface_addresses() if a != address]
            if others:
                print("Also on: " + ", ".join(f"http://{a}:{args.port}" for a in others), flush=True)
            print("To keep it to this machine only: make run HOST=127.0.0.1 (or companion serve --host 127.0.0.1)",
                  flush=True)
    try:
        logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # busy moments are normal, not worth a line
        _more_open_files()
        serve(app, host=args.host, port=args.port, **SERVE_LIMITS)  # waitress, closing smuggling attempts
    except OSError as e:
        raise UsageError(f"cannot listen on {args.host}:{args.port}: {e.strerror or e}") from None
    return EXIT_OK


def _where_kept(config) -> list[str]:
    """Where saved sheets and the session key live; for a shared database without a shared key, what a fleet of
    servers needs (else a phone moving to another server loses its session and its form token)."""
    from .web import shown_database

    shared = not config["DATABASE_URL"].startswith("sqlite")
    where = shown_database(config["DATABASE_URL"])
    source = config.get("SECRET_KEY_FROM", "the configuration")
    lines = [f"saved sheets: {where}; session key: "
             + ("this server's own, in its instance folder" if source == "instance" else source)]
    if shared and source == "instance":
        lines.append("note: several servers on this database must share one key: give each the same "
                     "COMPANION_SECRET_KEY (or COMPANION_SECRET_KEY_FILE)")
    return lines


def cmd_site(args: argparse.Namespace) -> int:
    """`companion site`: the static site written into --out, then a line with its files, size and languages."""
    import time

    from .web import build_site

    start = time.perf_counter()
    made = build_site(args.out, args.base_url, args.companion_url, scoring=not args.no_scoring, lang=args.lang,
                      card_files=args.cards)
    print(f"{_shown(args.out)}: {made['files']} files, {made['bytes'] / 1e6:.1f} MB, "
          f"{' and '.join(made['languages'])}, in {time.perf_counter() - start:.1f} s. Upload the folder to any static "
          f"host; print with --base-url {args.base_url} so the cards' codes open it.")
    return EXIT_OK


def _sheet_store():
    """The saved-sheet store the server uses (its instance folder, or COMPANION_DATABASE_URL)."""
    from .sheets import Store
    from .web import InstanceError, check_database, create_app

    try:
        app = create_app()
        check_database(app)
    except InstanceError as e:
        raise UsageError(str(e)) from None
    return Store(app.config["DATABASE_URL"])


def cmd_sheets_export(args: argparse.Namespace) -> int:
    """`companion sheets export --all FOLDER`: every saved sheet written there as a JSON file."""
    from . import sheets

    written = sheets.export_all(_sheet_store(), args.folder)
    print(f"{len(written)} sheet{'s' if len(written) != 1 else ''} written to {_shown(args.folder)}")
    return EXIT_OK


def cmd_sheets_import(args: argparse.Namespace) -> int:
    """`companion sheets import FILE...`: the sheets restored (all of them or none), each with its edit link."""
    from . import sheets

    for path, token in sheets.import_files(_sheet_store(), args.files):
        print(f"{_shown(path)}: imported; its edit link is /s/{token}")
    return EXIT_OK


def cmd_export_tts(args: argparse.Namespace) -> int:
    """A Tabletop Simulator deck: sheets of the cards' faces, their back, and OUT/<game>.json (a saved object)."""
    from .pnp.document import BuildSettings
    from .pnp.tts import export_tts

    wanted = BuildSettings(base_url=args.base_url, lang=args.lang)
    warnings: list[str] = []
    made = export_tts(args.game, args.out, wanted, image_base_url=args.image_base_url, warn=warnings.append)
    sheets = len(made.sheets)
    print(f"{_shown(made.json)}: {made.cards} cards on {sheets} sheet{'s' * (sheets != 1)} of "
          f"{made.tile[0]} × {made.tile[1]} px a card, {len(made.backs)} back{'s' * (len(made.backs) != 1)}")
    if args.image_base_url:
        print(f"upload {', '.join(p.name for p in (*made.sheets, *made.backs))} to {args.image_base_url}")
    else:
        print("the images are files on this computer (file://): for other players, upload them and export again "
              "with --image-base-url URL")
    message = network.code_warning(wanted.base_url)
    if message:
        print(f"companion export tts: {i18n._(message, 'en', base=wanted.base_url)}", file=sys.stderr)
    for line in warnings:
        print(line, file=sys.stderr)
    return EXIT_OK


def _shown(path) -> str:
    """A path as a user would type it: relative to the current folder when it lies below it."""
    rel = os.path.relpath(path)
    return str(path) if rel.startswith("..") else rel


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion", description="Print-and-play PDFs and a phone companion for card games."
    )
    parser.add_argument("--version", action="version", version=f"companion {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in COMMANDS:  # in the order the help lists them
        add(sub)
    return parser


def _game_ids() -> str:
    return ", ".join(games.GAMES) + ", or a card data file"


def _validate_command(sub) -> None:
    """`companion validate [FILE...]`: check card data files."""
    p = sub.add_parser("validate", help="check card data files (default: every shipped file)")
    p.add_argument("files", nargs="*", metavar="FILE")
    p.add_argument("--card-size", choices=("poker", "bridge", "mini"),
                   help="also check the cards as a build at this size prints them (their codes' modules)")
    p.set_defaults(func=cmd_validate)


def _build_command(sub) -> None:
    """`companion build [GAME|FILE...]`: print-and-play PDFs, with the print's settings."""
    p = sub.add_parser("build", help="print-and-play PDFs, one OUT/<game>.pdf per game")
    p.add_argument("games", nargs="*", metavar="GAME", help="a game id or a card data file (default: every game)")
    p.add_argument("--out", default="output", help="folder for the PDFs (default: output)")
    p.add_argument("--paper", default="a4", help="a4 or letter")
    p.add_argument("--bleed", type=float, default=0.0, metavar="MM", help="0 to 3 mm of art beyond the cut")
    p.add_argument("--base-url", default="http://127.0.0.1:5000", metavar="URL",
                   help="where the cards' QR codes lead: the companion on your network (companion address prints "
                        "it), a hosted companion or a static site; the codes open URL/C/<card id>")
    p.add_argument("--lang", help="the language to print (default: each game's first, see languages: in its file)")
    p.add_argument("--card-size", help="poker, bridge or mini (default: the game's)")
    p.add_argument("--layout", default="duplex", help="duplex (backs on the following page) or gutterfold")
    p.add_argument("--offset-x", type=float, default=0.0, metavar="MM",
                   help="move the backs left as seen from the front (duplex)")
    p.add_argument("--offset-y", type=float, default=0.0, metavar="MM", help="move the backs up (duplex)")
    p.add_argument("--no-crop-marks", action="store_true")
    p.add_argument("--no-backs", action="store_true")
    p.add_argument("--qr", default="rules", metavar="rules|none",
                   help="rules: a code on every card opens its rules page (default); none: no codes")
    p.add_argument("--ink", default="normal", metavar="normal|low",
                   help="low: light backs and outlined bands, for home printers")
    p.add_argument("--png", action="store_true",
                   help="also write OUT/<game>-png/<id>.png: each card at 300 DPI with 1/8 inch bleed, "
                        "for print services")
    p.add_argument("--only", metavar="ID[,ID...]",
                   help="a proof of just these components: each face with its back, each back named, once each, a "
                        "card a page (OUT/<game>.pdf)")
    p.add_argument("--service", metavar="drivethrucards|thegamecrafter",
                   help="the files a print-on-demand service takes, one set per deck, named <game>-<deck>... in OUT")
    p.add_argument("--watch", action="store_true",
                   help="build, then build again whenever a game's data file, spreadsheet, art or fonts change (a "
                        "broken save prints its errors and keeps the last good PDF); Ctrl+C stops")
    p.set_defaults(func=cmd_build)


def _site_command(sub) -> None:
    """`companion site --base-url URL`: the static site."""
    p = sub.add_parser("site", help="a static copy of the rules and card pages for any static web host")
    p.add_argument("--out", default="site", help="the folder to write (default: site)")
    p.add_argument("--base-url", required=True, metavar="URL",
                   help="where the site will be, e.g. https://you.github.io/deck (build the PDFs with the same)")
    p.add_argument("--companion-url", metavar="URL", help="a running companion for scoring, setup and sheets")
    p.add_argument("--no-scoring", action="store_true",
                   help="the light rules-only site: no Python for the phones (by default Pyodide, fetched from the "
                        "npm registry at build time, lets the site score on the phone)")
    p.add_argument("--cards", action="append", default=[], metavar="FILE",
                   help="also carry the game of this card data file (its rules, card pages, art and fonts, and its "
                        "scoring on the phone); repeat for more")
    p.add_argument("--lang", choices=i18n.LANGS,
                   help="the language at the site's root, the other under /<lang>/ (default: the one every game's "
                        "file writes first when they agree, else es); phones open their own language's pages")
    p.set_defaults(func=cmd_site)


def _address_command(sub) -> None:
    """`companion address`: the address phones on this network open."""
    p = sub.add_parser("address", help="the address phones open for a companion served on --host (the LAN address "
                                       "of this machine for 0.0.0.0)")
    p.add_argument("--host", default="0.0.0.0", help="where the companion listens, as `serve --host` (default "
                                                     "0.0.0.0: every interface)")
    p.add_argument("--port", type=int, default=5000)
    p.set_defaults(func=cmd_address)


def _serve_command(sub) -> None:
    """`companion serve`: the companion web app."""
    p = sub.add_parser("serve", help="the companion web app (default http://127.0.0.1:5000)")
    p.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to let phones on your network join")
    p.add_argument("--port", type=int, default=5000)
    p.add_argument("--cards", action="append", default=[], metavar="FILE",
                   help="also serve the game of this card data file, as it is at each page load (repeat for more); "
                        "/preview/<game> draws every card, again whenever the file changes")
    p.add_argument("--base-url", metavar="URL", help="the address phones use, for share links (default: this "
                   "machine's LAN address with --host 0.0.0.0; behind a proxy, its https address)")
    p.set_defaults(func=cmd_serve)


def _sheets_command(sub) -> None:
    """`companion sheets export|import`: back up or restore saved score sheets."""
    p = sub.add_parser("sheets", help="back up or restore saved score sheets")
    sheets_sub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    q = sheets_sub.add_parser("export", help="write every saved sheet into FOLDER, one JSON file each")
    q.add_argument("--all", action="store_true", required=True, help="every saved sheet")
    q.add_argument("folder", metavar="FOLDER")
    q.set_defaults(func=cmd_sheets_export)
    q = sheets_sub.add_parser("import",
                              help="restore sheets from export files (all of them, or none if one is damaged)")
    q.add_argument("files", nargs="+", metavar="FILE")
    q.set_defaults(func=cmd_sheets_import)


def _export_command(sub) -> None:
    """`companion export tts GAME|FILE --out DIR`: the cards for other tools."""
    p = sub.add_parser("export", help="the cards for other tools: tts (Tabletop Simulator)")
    export_sub = p.add_subparsers(dest="format", required=True, metavar="FORMAT")
    q = export_sub.add_parser("tts", help="a Tabletop Simulator deck: DIR/<game>.json (a saved object), sheets of the "
                                          "cards' faces and their back (see docs/tabletop-simulator.md)")
    q.add_argument("game", metavar="GAME|FILE", help=", ".join(games.GAMES) + ", or a card data file")
    q.add_argument("--out", required=True, metavar="DIR",
                   help="the folder to write (TTS's Saved Objects folder, or any other); other files in it are kept")
    q.add_argument("--image-base-url", metavar="URL",
                   help="where the sheets and backs will be uploaded (https://...): the saved object names them "
                        "there, for a multiplayer game; default: their file:// paths on this computer")
    q.add_argument("--base-url", default="http://127.0.0.1:5000", metavar="URL",
                   help="where the cards' QR codes lead, as for build (default http://127.0.0.1:5000)")
    q.add_argument("--lang", help="the cards and their names in TTS in this language (default: the game's first)")
    q.set_defaults(func=cmd_export_tts, command="export tts")  # messages start "companion export tts"


def _score_command(sub) -> None:
    """`companion score GAME FILE|-`: score one JSON request."""
    p = sub.add_parser("score", help="score one JSON request (a file, or - for standard input)")
    p.add_argument("game", metavar="GAME", help=_game_ids())
    p.add_argument("file", nargs="?", default="-", metavar="FILE|-")
    p.set_defaults(func=cmd_score)


def _setup_command(sub) -> None:
    """`companion setup GAME`: a random, seeded setup."""
    p = sub.add_parser("setup", help="a random setup as JSON; the same seed gives the same setup")
    p.add_argument("game", metavar="GAME", help=_game_ids())
    p.add_argument("--players", type=int)
    p.add_argument("--seed")
    examples = [f"{o.key}={','.join(o.choices) if o.choices else 'yes'} ({g.id})" for g in games.GAMES.values()
                for o in g.options]
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a game option, e.g. " + ", ".join(examples))
    parts = sorted({name for g in games.GAMES.values() for name in g.rerolls})
    p.add_argument("--part-seed", action="append", default=[], metavar="PART=SEED",
                   help="deal one part again from a seed of its own, as the setup page's ↻ does: "
                        + ", ".join(parts) + " (the page's address shows each as seed.PART)")
    p.set_defaults(func=cmd_setup)


def _playtest_command(sub) -> None:
    """`companion playtest FILE`: the figures of the game's finished saved sheets."""
    p = sub.add_parser("playtest", help="figures of a game's finished saved sheets, per version of its card data "
                                        "(plays, seats' wins, each rule's points, rounds, minutes, margins)")
    p.add_argument("game", metavar="FILE", help="a card data file (or a game id: " + ", ".join(games.GAMES) + ")")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=cmd_playtest)


def _simulate_command(sub) -> None:
    """`companion simulate GAME`: the solo mode played many times."""
    p = sub.add_parser("simulate", help="play the solo mode many times and report the ranks reached; with --deals, "
                                        "deal random tables of a game with scoring: and score each")
    p.add_argument("game", metavar="GAME|FILE", help=", ".join(g.id for g in games.GAMES.values() if g.simulate)
                   + ", or a card data file with scoring: and setup.hand_size (with --deals)")
    p.add_argument("--games", type=int, default=10_000, help="solo games to play (default 10000)")
    p.add_argument("--deals", type=int, metavar="N", help="random tables to deal and score, as the setup deals them")
    p.add_argument("--players", type=int, metavar="P", help="players at each table (default: the fewest)")
    p.add_argument("--json", action="store_true", help="with --deals: the figures as JSON")
    p.add_argument("--seed")
    p.set_defaults(func=cmd_simulate)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the command is: every `finally` and clean-up runs as for Ctrl+C (a build removes its
    unfinished `.pdf.part` files, an output folder's staging is discarded)."""


@contextmanager
def stopped_by_sigterm(command: str) -> Iterator[None]:
    """While a command runs (in the main thread), SIGTERM raises Terminated; a second one during the clean-up is
    ignored, so the clean-up finishes. The previous handler is put back after. `serve` ends as its server does."""
    if command == "serve" or threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise Terminated

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


COMMANDS = (_validate_command, _build_command, _site_command, _address_command, _serve_command, _sheets_command,
            _export_command, _score_command, _setup_command, _simulate_command, _playtest_command)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command in `argv` (default: sys.argv): 0, or 2 for bad arguments or input (on stderr), 130 on Ctrl+C,
    143 on SIGTERM (after the command's clean-up: no partial file is left)."""
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse's own --help (0) and usage errors (2)
        return int(e.code or 0)
    # Messages start with the command, and the game for the commands that take one: "companion score <game>: ..."
    prefix = " ".join(filter(None, ("companion", args.command, getattr(args, "game", None))))
    try:
        with library.using(library.Library(eager=False)):  # the shipped games (read when asked), and
            # the files it names (a command drawing them checks their art and fonts itself: build, export)
            with stopped_by_sigterm(args.command):
                return args.func(args)
    except (UsageError, service.UnknownGame) as e:
        print(f"companion {args.command}: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except cards.DataError as e:
        for line in e.errors:
            print(line, file=sys.stderr)
        return EXIT_BAD_INPUT
    except InputError as e:
        for problem in e.problems:
            print(f"{prefix}: {problem}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt as e:
        return EXIT_TERMINATED if isinstance(e, Terminated) else EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (`companion setup … | head`): nothing more to say to it
        try:  # (and the exit's flush of what is left must not fail too)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
