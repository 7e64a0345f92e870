"""Game constraints on a photo's labels: a set holds 4 of each tile and 1 of each flower and season."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from recognizer.labels import tile_limit


def limits_for(labels: Sequence[str]) -> np.ndarray:
    """Per label index, how many a photo may hold (a very large number for "back")."""
    return np.array([tile_limit(code) or 1_000_000 for code in labels], dtype=np.int64)


def apply_tile_limits(
    probs: np.ndarray,
    choice: np.ndarray,
    labels: Sequence[str],
    top_k: int = 3,
    locked: np.ndarray | None = None,
) -> np.ndarray:
    """Resolve over-subscribed tile kinds: move the tiles that lose least to their next-best label.

    `probs` is (n, classes), `choice` the current label per tile. A tile may only move to one of its
    `top_k` labels that still has room; tiles in `locked` never move. Each move removes one excess tile,
    so the loop ends; kinds that cannot be resolved keep their excess."""
    choice = np.asarray(choice, dtype=np.int64).copy()
    n = len(choice)
    if n == 0:
        return choice
    limit = limits_for(labels)
    frozen = np.zeros(n, bool) if locked is None else np.asarray(locked, bool)
    log_p = np.log(np.clip(probs, 1e-12, 1.0))
    ranked = np.argsort(-probs, axis=1, kind="stable")[:, :top_k]
    counts = np.bincount(choice, minlength=len(labels))
    while True:
        over = counts > limit
        if not over.any():
            return choice
        best: tuple[float, int, int] | None = None
        for i in np.nonzero(over[choice] & ~frozen)[0]:
            for alt in ranked[i]:
                if alt != choice[i] and counts[alt] < limit[alt]:
                    cost = float(log_p[i, choice[i]] - log_p[i, alt])
                    if best is None or cost < best[0]:
                        best = (cost, int(i), int(alt))
                    break
        if best is None:
            return choice
        _, tile, alt = best
        counts[choice[tile]] -= 1
        counts[alt] += 1
        choice[tile] = alt
