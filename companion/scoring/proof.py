"""What `validate` promises of a file's scoring, proved: every legal table scores (any player count the file allows,
any counter value in its range, any hands up to the copies printed, any round).

Three steps, each over the file's own domains:

1. The analysis (`bounds.py`) finds every place where a formula may fail on some table. Where it finds none, the
   proof closes for that formula.
2. A finding becomes an error when a legal table shows it: tables are tried from the domains' corners outwards (each
   player count, the first and last rounds, each counter at its ends and beside every number the formulas name, the
   hands from nothing to every copy dealt), and the first that fails is named in the error (`… divides by zero when
   players is 3`). A formula that reads only table-wide numbers (players, round, its counters) is tried on every one
   of them when they are few: then no failure closes the proof. What stays open is a warning.
3. A table's work (the step budget that stops a request at run time) is bounded by computing every formula with
   every branch taken on the largest table (every player holding every component): steps are then what no legal
   table exceeds. Past the budget, the tables that may need it are tried, and one that does is an error.

A few sample tables are always computed too, as a net under the proof."""
from __future__ import annotations

import ast
import itertools
import random
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from ..core.schema import Problem
from . import bounds, deal
from .formula import MAX_STEPS, FormulaError, compile_formula, lenient
from .model import GAME_STEPS, Env, Scoring, StepsError, Table, rule_points, whole

MAX_EXHAUSTIVE = 20_000  # tables tried one by one to close a formula that reads only table-wide numbers
MAX_TRIALS = 600  # tables tried for one formula's findings
SECONDS = 4.0  # the search's time for one file, at most (the proof itself is not bounded by it)

Hands = list[list[tuple[Mapping, int]]]


@dataclass(frozen=True)
class Trial:
    """A legal table: its player count, round, each player's counters and hand, and how to say each part."""

    players: int
    round: int
    counters: tuple[Mapping[str, int], ...]
    hands: tuple
    said: Mapping[str, str]  # "players", "round", "hand", "counter:<name>" → its words

    def told(self, reads: set[str]) -> str:
        """The table in the words of what the failing formula reads: "when players is 3 and chips is 0"."""
        scalars = [self.said["players"]] if reads & {"players", "table", "hand"} else []
        scalars += [self.said["round"]] if "round" in reads else []
        scalars += [said for k, said in sorted(self.said.items()) if k.startswith("counter:") and k[8:] in reads]
        scalars = scalars or [self.said["players"]]
        hand = f", {self.said['hand']}" if reads & {"hand", "table"} else ""
        return "when " + " and ".join(scalars) + hand


def prove(scoring: Scoring, components: Sequence[tuple[Mapping, int]],
          players: tuple[int, int]) -> tuple[list[Problem], list[Problem]]:
    """The errors (each with a table that shows it) and the warnings (what the proof does not close) of a compiled
    scoring over its file's domains."""
    dealt = [deal.dealt(scoring.dealt, n, r) for n in range(players[0], players[1] + 1)
             for r in range(1, scoring.rounds + 1)] if scoring.dealt is not None else [0]
    domain = bounds.Domain(players=bounds.Span(*players), rounds=bounds.Span(1, scoring.rounds),
                           target_game=scoring.target is not None,
                           counters={c.key: bounds.Span(c.low, c.high) for c in scoring.counters},
                           components=list(components), choices=scoring.choices,
                           dealt=bounds.Span(min(dealt), max(dealt)))
    analysis = bounds.analyse(scoring, domain)
    search = _Search(scoring, domain, analysis)
    errors: dict[tuple, Problem] = {}
    for path, run in _formulas(scoring):
        if path == ("scoring", "rules") and any(p[:2] == ("scoring", "rules") for p in errors):
            continue  # (the sum of the rules fails where a rule does: said once, at the rule)
        reads = search.reads(path)
        failed = search.first_failure(run, search.samples(), reads)
        if failed is None and path in analysis.findings:
            failed = search.first_failure(run, search.trials(path), reads)
        if failed is not None:
            errors[path] = Problem(path, failed)
    warnings = [Problem(path, f"warning: {f.says}; no legal table was found where it does, but the proof does not "
                               f"close: check it, or guard it ('… if … else …')")
                for path, found in analysis.findings.items() if path not in errors and path not in search.closed
                for f in found[:1] if not _covered(path, errors)]
    if not errors:
        steps = _cost(scoring, domain)
        if steps > MAX_STEPS:
            failed = search.over_budget()
            if failed is not None:
                errors[("scoring",)] = Problem(("scoring",), failed)
            else:
                warnings.append(Problem(("scoring",), f"warning: a table may need more than {MAX_STEPS:,} steps to "
                                                      f"score (the largest table does with every branch taken); no "
                                                      f"legal table was found that does, but the proof does not "
                                                      f"close: nest fewer each()"))
        elif scoring.rounds > 1 and steps * scoring.rounds > GAME_STEPS:
            warnings.append(Problem(("scoring",), f"warning: a whole game of {scoring.rounds} rounds may need "
                                                  f"{steps * scoring.rounds:,} steps to score in one request (the "
                                                  f"largest table {steps:,} a round), more than the {GAME_STEPS:,} "
                                                  f"one request may spend: a request with its earlier rounds may "
                                                  f"be refused; give the game fewer rounds (rounds: {{target: …, "
                                                  f"max: N}}) or lighter formulas"))
    return list(errors.values()), warnings


def _covered(path: tuple, errors: Mapping[tuple, Problem]) -> bool:
    """A finding of the rules' sum is said by a rule's own error already."""
    return path == ("scoring", "rules") and any(p[:2] == ("scoring", "rules") for p in errors)


Run = Callable[[Table, int], object]


def _formulas(scoring: Scoring) -> Iterator[tuple[tuple, Run]]:
    """Each formula's path and how one player's value of it is computed on a table."""
    for name, formula in scoring.values.items():
        yield ("scoring", "values", name), lambda t, p, f=formula: f.run(Env(t, p, ()))
    for i, rule in enumerate(scoring.rules):
        yield ("scoring", "rules", i, "points"), lambda t, p, r=rule: rule_points(r, Env(t, p, ()))
    yield ("scoring", "rules"), lambda t, p: scoring.player_points(t, p)["points"]
    if scoring.target is not None:
        yield ("scoring", "rounds", "target"), lambda t, p: whole(scoring.target, Env(t, p, ()))
    for i, tie in enumerate(scoring.ties):
        yield ("scoring", "ties", i), lambda t, p, f=tie: whole(f, Env(t, p, ()))
    for i, check in enumerate(scoring.checks):
        yield ("scoring", "checks", i, "test"), lambda t, p, f=check.test: f.run(Env(t, 0, ()))


class _Search:
    """The legal tables of a file, tried in order from the domains' corners outwards."""

    def __init__(self, scoring: Scoring, domain: bounds.Domain, analysis: bounds.Analysis):
        self.scoring, self.domain, self.analysis = scoring, domain, analysis
        self.closed: set[tuple] = set()
        self.deadline = time.monotonic() + SECONDS
        self.numbers = _numbers(scoring)

    def reads(self, path: tuple) -> set[str]:
        if path == ("scoring", "rules"):
            return set().union(*(v for p, v in self.analysis.reads.items() if p[:2] == ("scoring", "rules")))
        return self.analysis.reads.get(path, set())

    def first_failure(self, run: Run, trials: Iterator[Trial], reads: set[str]) -> str | None:
        """The first trial on which `run` fails for some player, said with the table; None if none does."""
        for trial in trials:
            table = self.table(trial)
            for player in range(trial.players):
                try:
                    run(table, player)
                except StepsError as e:
                    return f"{e.what} {trial.told(reads | {'players'})}: {e.advice}"
                except FormulaError as e:
                    return f"{e} {trial.told(reads)}"
                except (RecursionError, MemoryError):
                    return f"cannot be computed: too deep or too large {trial.told(reads)}"
        return None

    def table(self, trial: Trial) -> Table:
        """The trial's table; in a game whose formulas read the game so far, after earlier rounds of the same hands
        (a legal game: each of them a legal table)."""
        hands, counters = [list(h) for h in trial.hands], list(trial.counters)
        history = None
        if self.scoring.remembered and trial.round > 1:
            names = [f"P{i + 1}" for i in range(trial.players)]
            try:
                played = self.scoring.play([(hands, counters, k, names) for k in range(1, trial.round)])
                history = [played[-1]["history"][n] for n in names]
            except FormulaError:
                history = None  # (an earlier round fails: its own trial names it)
        return self.scoring.table(hands, counters, trial.round, history)

    # -- the tables

    def samples(self) -> Iterator[Trial]:
        """The net under the proof: nothing held, one copy of each, every copy dealt; counters at their ends; the
        fewest and most players; the first and last rounds."""
        d = self.domain
        for hand, ends, players, round_ in itertools.product(
                ("nothing", "one of each", "dealt"), ("low", "high"), sorted({d.players.lo, d.players.hi}),
                sorted({1, d.rounds.hi if not d.target_game else 2})):
            counters = {k: (s.lo if ends == "low" else s.hi) for k, s in d.counters.items()}
            yield self.trial(players, round_, counters, hand)

    def trials(self, path: tuple) -> Iterator[Trial]:
        """The tables that may show a formula's findings: every one of its table-wide numbers when it reads only
        those and they are few (then none failing closes the proof), else the corners, one dimension at a time,
        then random legal tables, within MAX_TRIALS and the file's time."""
        reads = self.reads(path)
        grid = self._grid(reads)
        if grid is not None:
            yield from self._timed(grid)
            if time.monotonic() < self.deadline:
                self.closed.add(path)
            return
        yield from itertools.islice(self._timed(self._corners(reads)), MAX_TRIALS)

    def _timed(self, trials: Iterator[Trial]) -> Iterator[Trial]:
        for trial in trials:
            if time.monotonic() > self.deadline:
                return
            yield trial

    def _grid(self, reads: set[str]) -> Iterator[Trial] | None:
        """Every table-wide number a formula reads (players, round, its counters; hands empty), if it reads no hand
        and they are at most MAX_EXHAUSTIVE tables; None otherwise."""
        if not bounds.table_wide(reads):
            return None
        d = self.domain
        counters = sorted(k for k in reads if k in d.counters)
        ranges = [range(d.players.lo, d.players.hi + 1) if "players" in reads else (d.players.lo,),
                  range(1, d.rounds.hi + 1) if "round" in reads else (1,),
                  *(range(d.counters[k].lo, d.counters[k].hi + 1) for k in counters)]
        size = 1
        for r in ranges:
            size *= len(r)
        if size > MAX_EXHAUSTIVE:
            return None
        defaults = self._defaults()
        return (self.trial(players, round_, {**defaults, **dict(zip(counters, values, strict=True))}, "nothing")
                for players, round_, *values in itertools.product(*ranges))

    def _corners(self, reads: set[str]) -> Iterator[Trial]:
        d = self.domain
        players = range(d.players.lo, d.players.hi + 1)
        rounds = sorted({1, 2, d.rounds.hi - 1, d.rounds.hi, *(n for n in self.numbers if d.rounds.has(n))}
                        & set(range(1, d.rounds.hi + 1))) if "round" in reads else [1]
        defaults = self._defaults()
        settings = [defaults] + [{**defaults, k: v} for k in sorted(reads & set(d.counters))
                                 for v in self._candidates(k) if v != defaults[k]]
        hands = self._hands() if reads & {"hand", "table"} else ["nothing"]
        for hand in hands:
            for counters in settings:
                for n in players:
                    for round_ in rounds:
                        yield self.trial(n, round_, counters, hand)
        rng = random.Random(20261202)
        while True:  # random legal tables, every dimension at once
            n = rng.choice(players)
            counters = {k: rng.choice(self._candidates(k)) for k in d.counters}
            yield self.trial(n, rng.choice(rounds), counters, ("random", rng.random()))

    def over_budget(self) -> str | None:
        """The first legal table (the most players, each holding what the deck lets them) whose scoring needs
        more than the step budget, said with the table; None if none of those tried does. Each counter setting is
        tried first on the last round with a copy of every component in each hand, the likeliest to cost most."""
        d = self.domain
        defaults = self._defaults()
        settings = [defaults] + [{**defaults, k: v} for k in sorted(d.counters) for v in self._candidates(k)
                                 if v != defaults[k]]
        tried = [(c, d.rounds.hi, "every one") for c in settings]
        tried += [(c, r, h) for c in settings for r, h in itertools.product(sorted({1, d.rounds.hi}), ("every one",
                  "dealt")) if (r, h) != (d.rounds.hi, "every one")]
        everything = set().union(*self.analysis.reads.values())
        for counters, round_, hand in tried:
            if time.monotonic() > self.deadline + SECONDS:
                return None
            trial = self.trial(d.players.hi, round_, counters, hand)
            table = self.table(trial)
            try:
                for player in range(trial.players):
                    self.scoring.player_points(table, player)
            except FormulaError:
                if table.steps <= MAX_STEPS:
                    continue  # (another failure: the formulas' own errors are said at their places)
                reads = {"players", "hand", *(k for k in counters if counters[k] != defaults[k])}
                reads |= {"round"} & everything
                return (f"needs more than {MAX_STEPS:,} steps to compute a table {trial.told(reads)}: nest "
                        f"fewer each() or name a part as a value")
        return None

    def _defaults(self) -> dict[str, int]:
        return {c.key: c.default for c in self.scoring.counters}

    def _candidates(self, key: str) -> list[int]:
        """A counter's values worth trying: its ends, its default, and beside every number the formulas name."""
        span = self.domain.counters[key]
        default = next(c.default for c in self.scoring.counters if c.key == key)
        near = {m for n in self.numbers for m in (n - 1, n, n + 1)}
        return sorted({span.lo, span.hi, default, *(n for n in near if span.has(n))})

    def _hands(self) -> list:
        """The hands worth trying, from nothing to every copy: each component alone, each choice of a field."""
        out: list = ["nothing", "one of each", "dealt", "every one", "all to one", "all but one"]
        for card, _ in self.domain.components:
            out.append(("only", card["id"]))
        for field, choices in self.domain.choices.items():
            if choices and field not in ("type", "set"):
                out.extend(("choice", field, c) for c in choices)
        return out

    def trial(self, players: int, round_: int, counters: Mapping[str, int], hand) -> Trial:
        hands, said = self._deal(players, hand)
        parts = {"players": f"players is {players}", "round": f"the round is {round_}", "hand": said,
                 **{f"counter:{k}": f"{k} is {v}" for k, v in counters.items()}}
        return Trial(players, round_, tuple(MappingProxyType(dict(counters)) for _ in range(players)),
                     tuple(tuple(h) for h in hands), MappingProxyType(parts))

    def _deal(self, players: int, hand) -> tuple[Hands, str]:
        """Legal hands (no component named more often than printed across the table) and how to say them."""
        cards = self.domain.components
        hands: Hands = [[] for _ in range(players)]
        if hand == "nothing":
            return hands, "with nothing held"
        if hand == "one of each":
            hands[0] = [(c, 1) for c, _ in cards]
            return hands, "one player holding one copy of each component"
        if hand in ("all to one", "all but one"):
            seats = [0] if hand == "all to one" else list(range(1, players)) or [0]
            _share(hands, seats, cards)
            return hands, ("one player holding every copy" if hand == "all to one"
                           else "every copy dealt to all but one player")
        if hand == "dealt":
            _share(hands, list(range(players)), cards)
            return hands, "every copy dealt among the players"
        if hand == "every one":  # each player a copy of every component the deck has enough of
            for c, q in cards:
                for p in range(min(q, players)):
                    hands[p].append((c, 1))
            return hands, "each player holding a copy of every component"
        if hand[0] == "only":
            hands[0] = [(c, q) for c, q in cards if c["id"] == hand[1]]
            return hands, f"one player holding every copy of {hand[1]}"
        if hand[0] == "choice":
            _, field, choice = hand
            _share(hands, [0], [(c, q) for c, q in cards if c.get(field) == choice])
            return hands, f"one player holding every {field} {choice} component"
        rng = random.Random(hand[1])  # a random legal deal
        for c, q in cards:
            left = q
            for p in rng.sample(range(players), players):
                n = rng.randint(0, left)
                if n:
                    hands[p].append((c, n))
                    left -= n
        return hands, "with these hands: " + "; ".join(
            f"player {p + 1}: " + (", ".join(f"{n} × {c['id']}" for c, n in h) or "nothing")
            for p, h in enumerate(hands))


def _share(hands: Hands, seats: list[int], cards: Sequence[tuple[Mapping, int]]) -> None:
    """Every copy of `cards` dealt among `seats`, as evenly as the copies go."""
    for c, q in cards:
        for i, seat in enumerate(seats):
            n = q // len(seats) + (1 if i < q % len(seats) else 0)
            if n:
                hands[seat].append((c, n))


def _numbers(scoring: Scoring) -> set[int]:
    """Every whole number the formulas name (beside which a counter or a round may make them fail)."""
    texts = [*(f.text for f in scoring.values.values()), *(r.points.text for r in scoring.rules),
             *(t.text for t in scoring.ties), *([scoring.target.text] if scoring.target is not None else [])]
    found = set()
    for text in texts:
        for n in ast.walk(ast.parse(text.strip(), mode="eval")):
            if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool):
                found.update((n.value, -n.value))
    return found


# --- the cost of a table --------------------------------------------------------------------------------------------

def _cost(scoring: Scoring, domain: bounds.Domain) -> int:
    """The most steps any of a request's tables (the round's points, the target, the tie-breakers) may take: every
    formula computed with every branch taken, nothing failing, on the largest table (every player holding every
    component). MAX_STEPS + 1 once it is past the budget (the count stops there)."""
    def explored(f):
        return compile_formula(f.text, f.names, explore=True)

    wide = replace(scoring, rules=tuple(replace(r, points=explored(r.points)) for r in scoring.rules),
                   values=MappingProxyType({k: explored(v) for k, v in scoring.values.items()}),
                   target=explored(scoring.target) if scoring.target is not None else None,
                   ties=tuple(explored(t) for t in scoring.ties))
    players = domain.players.hi
    hands = [list(domain.components) for _ in range(players)]
    counters = [{c.key: c.default for c in scoring.counters} for _ in range(players)]
    most = 0
    tables = [lambda t, p: wide.player_points(t, p)]
    if wide.target is not None:
        tables.append(lambda t, p: whole(wide.target, Env(t, p, ())))
    if wide.ties:
        tables.append(lambda t, p: [whole(f, Env(t, p, ())) for f in wide.ties])
    for run in tables:
        table = Table(wide, hands, counters, domain.rounds.hi, True)
        try:
            with lenient():
                for p in range(players):
                    run(table, p)
        except FormulaError:  # (only the step budget raises here: past it)
            return MAX_STEPS + 1
        except (RecursionError, MemoryError):
            return MAX_STEPS + 1
        most = max(most, table.steps)
    return most
