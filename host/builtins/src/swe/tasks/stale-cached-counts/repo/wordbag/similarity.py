"""Vector similarity on sparse dict vectors."""

import math
from typing import Mapping


def cosine(a: Mapping[str, float], b: Mapping[str, float]) -> float:
    dot = sum(v * b.get(k, 0.0) for k, v in a.items())
    norm_a = math.sqrt(sum(v * v for v in a.values()))
    norm_b = math.sqrt(sum(v * v for v in b.values()))
    if not norm_a or not norm_b:
        return 0.0
    return dot / (norm_a * norm_b)
