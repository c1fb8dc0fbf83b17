"""Seeded randomness that gives the same setup on every machine and Python version."""
from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
MAX_SEED_LEN = 64


def make_rng(seed: int | str | None) -> tuple[random.Random, str]:
    """A generator and the seed that reproduces it (a fresh one when none is given).

    Seeds are taken as text, so `--seed 42` on the command line and `?seed=42` in a URL agree; Random's
    seeding of a str (version 2, SHA-512) and its random() are stable across Python versions."""
    text = str(seed) if seed is not None else str(secrets.randbelow(10**9))
    return random.Random(text), text


def randbelow(rng: random.Random, n: int) -> int:
    """A whole number in [0, n) from rng.random() alone (randrange's algorithm is not promised to stay)."""
    return min(int(rng.random() * n), n - 1)


def shuffled(items: Sequence[T], rng: random.Random) -> list[T]:
    """A Fisher–Yates shuffle of a copy of items."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = randbelow(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def choice(items: Sequence[T], rng: random.Random) -> T:
    """One of `items`, picked through `randbelow` (the same pick on every Python version, unlike Random.choice)."""
    return items[randbelow(rng, len(items))]


def roll(rng: random.Random, dice: int, sides: int = 6) -> list[int]:
    return [1 + randbelow(rng, sides) for _ in range(dice)]
