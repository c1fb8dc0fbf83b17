"""Playtest figures: what the finished saved sheets of one game say about it, per version of its card data (each
sheet records the version it started with): how many games at each player count, each seat's share of the wins,
each rule's points per player and game and its share of the winners' totals, the rounds, minutes and winning margin
of a game. `companion playtest` prints them, `/playtest/<game>` draws them. Pure: the sheets are read by the
caller (`from_store`) and folded here."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from .. import service
from ..core.schema import InputError
from ..core.stats import four as spread
from ..core.stats import six as five
from .model import fold

UNKNOWN = "unknown"  # the version of a sheet started before sheets recorded it


@dataclass(frozen=True)
class Played:
    """One finished game, as its sheet holds it."""

    version: str
    players: tuple[str, ...]  # in seat order (the sheet's player order)
    totals: Mapping[str, int]
    winners: tuple[str, ...]
    rounds: int  # entries that count
    minutes: float  # from the first entry to the last
    fewest_wins: bool = False
    rules: Mapping[str, Mapping[str, int]] = field(default_factory=dict)  # player → rule → points, whole game
    order: int = 0  # the sheet's number: later sheets are newer


def played(sheet: Mapping, log: Iterable[Mapping], order: int = 0) -> Played | None:
    """A finished sheet as a game played (None for one that is not finished, or holds no entry that counts)."""
    log = list(log)
    state = fold(sheet, log)
    counting = [e for e in state["entries"] if e["active"]]
    if not state["finished"] or not counting:
        return None
    players = tuple(state["players"])
    adds = [_moment(r["at"]) for r in log if r["action"] == "add"]
    rules: dict[str, dict[str, int]] = {}
    for entry in counting:
        for name, points in _entry_rules(state["game"], entry["body"]).items():
            mine = rules.setdefault(name, {})
            for rule, value in points.items():
                mine[rule] = mine.get(rule, 0) + value
    end = state.get("end") or {}
    return Played(version=sheet.get("card_version") or UNKNOWN, players=players, totals=dict(state["totals"]),
                  winners=tuple(state["winners"]), rounds=len(counting),
                  minutes=(max(adds) - min(adds)).total_seconds() / 60 if adds else 0.0,
                  fewest_wins=bool(end.get("fewest_wins")), rules=rules, order=order)


def _moment(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ")


def _entry_rules(game: str, body: Mapping) -> Mapping[str, Mapping[str, int]]:
    """An entry's points rule by rule for each player: as kept when it was scored, else (an entry saved before they
    were kept) its request scored again by the game's rules; nothing for points typed in."""
    if isinstance(body.get("rules"), Mapping):
        return body["rules"]
    if "request" not in body:
        return {}
    try:
        result = service.score(game, body["request"])
    except (InputError, service.UnknownGame):
        return {}
    scored = result.get("players")
    seats = body.get("seats") or []
    if not isinstance(scored, list) or len(scored) != len(seats):
        return {}
    return {name: p["rules"] for name, p in zip(seats, scored, strict=True)
            if isinstance(p, Mapping) and isinstance(p.get("rules"), Mapping)}


def margin(game: Played) -> float | None:
    """The winner's total minus the runner-up's (a game of fewest points: the runner-up's minus the winner's), 0
    for a shared win; None for a game of one player."""
    totals = sorted(game.totals.values(), reverse=not game.fewest_wins)
    if len(totals) < 2:
        return None
    return abs(totals[0] - totals[1])


def seats(games: list[Played]) -> list[float]:
    """Each seat's share of the games it sat in that it won (a win shared by k players counts 1/k to each)."""
    most = max((len(g.players) for g in games), default=0)
    out = []
    for seat in range(most):
        sat = [g for g in games if len(g.players) > seat]
        won = sum(1 / len(g.winners) for g in sat if g.winners and g.players[seat] in g.winners)
        out.append(won / len(sat) if sat else 0.0)
    return out


def rules(games: list[Played]) -> dict:
    """For each rule, its points per player per game (the six numbers of `five`) and `share`: its points in the
    winners' totals over all those games, against those totals (None when they add up to nothing)."""
    names = list(dict.fromkeys(rule for g in games for points in g.rules.values() for rule in points))
    out = {}
    for rule in names:
        samples = [points.get(rule, 0) for g in games for name, points in g.rules.items() if name in g.players]
        won = sum(g.rules.get(w, {}).get(rule, 0) for g in games for w in g.winners)
        totals = sum(g.totals.get(w, 0) for g in games for w in g.winners if w in g.rules)
        out[rule] = {**five(samples), "share": won / totals if totals else None}
    return out


def figures(games: list[Played]) -> dict:
    """The figures of some games (one version's, or those of one player count)."""
    counts = Counter(len(g.players) for g in games)
    margins = [m for m in map(margin, games) if m is not None]
    return {"plays": len(games), "players": {str(n): counts[n] for n in sorted(counts)}, "seats": seats(games),
            "rules": rules(games), "rounds": spread([g.rounds for g in games]),
            "minutes": spread([g.minutes for g in games]), "margin": spread(margins)}


def report(game: str, games: Iterable[Played]) -> dict:
    """`{"game", "versions": {version: figures, …}}`, the newest version first (the one of the latest sheet); each
    version's figures also `by_players`: the same figures for each player count alone."""
    by_version: dict[str, list[Played]] = {}
    for g in sorted(games, key=lambda g: -g.order):
        by_version.setdefault(g.version, []).append(g)
    versions = {}
    for version, mine in by_version.items():
        counts = sorted({len(g.players) for g in mine})
        versions[version] = {**figures(mine), "by_players": {
            str(n): figures([g for g in mine if len(g.players) == n]) for n in counts}}
    return {"game": game, "versions": versions}


def from_store(store, game: str) -> dict:
    """The report of a game's finished sheets in a store (`report`)."""
    games = []
    for sheet_id in store.sheet_ids(game=game, finished=True):
        one = played(*store.load(sheet_id), order=sheet_id)
        if one is not None:
            games.append(one)
    return report(game, games)


CSV_HEAD = ("version", "players", "figure", "part", "mean", "min", "q1", "median", "q3", "max", "share", "plays")


def csv_rows(data: Mapping) -> list[list]:
    """The report as the rows of a spreadsheet (a head row first): one row per figure, per version and player count
    (`all` for every count)."""
    rows: list[list] = [list(CSV_HEAD)]
    for version, figs in data["versions"].items():
        for count, shown in [("all", figs), *figs["by_players"].items()]:
            rows.append([version, count, "plays", "", "", "", "", "", "", "", "", shown["plays"]])
            for n, share in enumerate(shown["seats"], start=1):
                rows.append([version, count, "seat wins", n, "", "", "", "", "", "", share, ""])
            for rule, numbers in shown["rules"].items():
                rows.append([version, count, "rule points", rule, *(numbers[k] for k in CSV_HEAD[4:10]),
                             numbers["share"], ""])
            for what in ("rounds", "minutes", "margin"):
                numbers = shown[what]
                rows.append([version, count, what, "", numbers["mean"], numbers["min"], "", numbers["median"], "",
                             numbers["max"], "", ""])
    return rows
