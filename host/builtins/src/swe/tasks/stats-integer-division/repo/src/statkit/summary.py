"""One-call summaries."""

from typing import Dict, Iterable

from .central import mean, median
from .percentiles import quartiles
from .spread import stdev


def summary(data: Iterable[float]) -> Dict[str, float]:
    values = list(data)
    q1, _, q3 = quartiles(values)
    return {
        "count": len(values),
        "mean": mean(values),
        "median": median(values),
        "q1": q1,
        "q3": q3,
        "stdev": stdev(values) if len(values) > 1 else 0.0,
        "min": min(values),
        "max": max(values),
    }
