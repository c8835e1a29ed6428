"""Small statistics shared by the benchmarks: percentiles and millisecond summaries."""

from __future__ import annotations

import statistics
from collections.abc import Sequence


def pct(values: Sequence[float], p: float) -> float:
    """The p-th percentile (nearest rank) of `values`; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def ms(seconds: Sequence[float]) -> dict[str, float]:
    """Median and p99 of durations given in seconds, in milliseconds."""
    return {"median_ms": round(statistics.median(seconds) * 1000, 4) if seconds else 0.0,
            "p99_ms": round(pct(seconds, 99) * 1000, 4)}


def ms_full(seconds: Sequence[float]) -> dict[str, float]:
    """`ms` plus the count, p50 (same as median) and the maximum."""
    out = ms(seconds)
    return {"n": len(seconds), "p50_ms": out["median_ms"], "p99_ms": out["p99_ms"],
            "max_ms": round(max(seconds) * 1000, 4) if seconds else 0.0}
