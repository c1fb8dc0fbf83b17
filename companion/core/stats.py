"""The numbers a distribution is summed up by, for the playtest figures and the random deals: one method
everywhere, so the same points give the same figures in both."""
from __future__ import annotations

import statistics
from collections.abc import Sequence

SIX = ("mean", "min", "q1", "median", "q3", "max")


def six(values: Sequence[float]) -> dict:
    """mean, min, q1, median, q3 and max of some numbers: the quartiles as `statistics.quantiles` gives them with
    the inclusive method (the linear interpolation of spreadsheets' QUARTILE); None for each of no numbers."""
    if not values:
        return dict.fromkeys(SIX)
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else [values[0]] * 3
    return {"mean": statistics.fmean(values), "min": min(values), "q1": q1, "median": median, "q3": q3,
            "max": max(values)}


def four(values: Sequence[float]) -> dict:
    """mean, min, median and max of some numbers (rounds, minutes, margins)."""
    shown = six(values)
    return {key: shown[key] for key in ("mean", "min", "median", "max")}
