"""Waits of a 13-tile hand (SCORING section 12): every kind that would make any winning shape.

A winning shape is a regular hand with the declared melds, seven pairs, or an irregular limit hand; its
doublings do not matter. A kind of which the hand already holds all four is no wait, and the 1p of
pe-ling eet cake is no extra wait beside 1s.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from scoring.decompose import GROUP_OF, combine_status, group_status
from scoring.errors import InputError
from scoring.hand import Meld, meld_kind
from scoring.limits import best_irregular, irregular_candidates
from scoring.rulesets import get_ruleset
from scoring.tiles import INDEX, KINDS, code_of, format_tiles, sort_key


def _near_kinds(counts: tuple[int, ...]) -> set[int]:
    """Kinds that touch a held tile: the only ones that can join a set or pair of a regular hand."""
    near: set[int] = set()
    for kind, n in enumerate(counts):
        if not n:
            continue
        if kind >= 27:
            near.add(kind)
            continue
        low = kind - kind % 9
        near.update(range(max(low, kind - 2), min(low + 8, kind + 2) + 1))
    return near


@lru_cache(maxsize=1 << 14)
def wait_kinds(
    counts: tuple[int, ...], held: tuple[int, ...], concealed_only: bool, ruleset: str
) -> tuple[int, ...]:
    """Kind indices that complete `counts` (the concealed tiles) into a winning shape.

    `held` counts the concealed tiles plus the declared melds (to skip kinds held four times);
    irregular shapes count only when `concealed_only` (no declared melds).
    """
    rules = get_ruleset(ruleset)
    irregular = irregular_candidates(counts) if concealed_only else ()
    near = _near_kinds(counts)
    status = [group_status(counts, g) for g in range(4)]
    work = list(counts)
    found: list[int] = []
    for kind in sorted(near.union(irregular)):
        if held[kind] >= 4:
            continue
        work[kind] += 1
        after = tuple(work)
        work[kind] -= 1
        if kind in near:
            group = GROUP_OF[kind]
            trial = list(status)
            trial[group] = group_status(after, group)
            if combine_status(trial):
                found.append(kind)
                continue
        if kind in irregular and best_irregular(rules.limit_hands, after, rules.options) is not None:
            found.append(kind)
    return tuple(found)


def waits(concealed: Sequence[str], melds: Sequence[Meld] = (), ruleset: str = "app") -> list[str]:
    """Tile codes that would complete 13 tiles (concealed plus declared melds) into a winning shape.

    >>> waits(["1m", "1m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "9m", "9m"])
    ['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
    >>> waits(["2m", "3m", "4m", "5m", "6m", "7m", "2p", "2p", "2p", "4s", "4s", "5z", "5z"])
    ['4s', '5z']
    """
    codes = list(concealed)
    for code in codes:
        if code not in INDEX or INDEX[code] >= KINDS:
            raise InputError(f"waits: unknown or bonus tile {code!r} in concealed")
    for meld in melds:
        if meld_kind(meld.tiles) is None:
            raise InputError(f"waits: meld {format_tiles(meld.tiles)!r} is no chow, pung or kong")
    if len(codes) + 3 * len(melds) != 13:
        raise InputError(
            f"waits needs 13 tiles (plus 1 per kong): got {len(codes)} concealed and {len(melds)} melds"
        )
    counts = [0] * KINDS
    for code in codes:
        counts[INDEX[code]] += 1
    held = list(counts)
    for meld in melds:
        for code in meld.tiles:
            held[INDEX[code]] += 1
    for kind, n in enumerate(held):
        if n > 4:
            raise InputError(f"waits: {n} of {code_of(kind)!r}; only 4 of each tile exist")
    get_ruleset(ruleset)
    kinds = wait_kinds(tuple(counts), tuple(held), not melds, ruleset)
    return sorted((code_of(kind) for kind in kinds), key=sort_key)
