"""Waits of a 13-tile hand (SCORING section 12): every kind that would make any winning shape.

A winning shape is a regular hand with the declared melds, seven pairs, or an irregular limit hand; its
doublings do not matter. A kind of which the hand already holds all four is no wait, and the 1p of
pe-ling eet cake is no extra wait beside 1s.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from scoring.decompose import GROUP_START, part_status, sets_only, weight_of
from scoring.errors import InputError
from scoring.hand import Meld, meld_kind
from scoring.limits import best_irregular, irregular_candidates
from scoring.rulesets import get_ruleset
from scoring.tiles import INDEX, KINDS, code_of, format_tiles


@lru_cache(maxsize=1 << 13)
def _group_waits(part: tuple[int, ...], honours: bool, needed: int) -> tuple[int, ...]:
    """Indices of one group where one more tile gives the group status `needed` (1 sets, 2 sets + pair).

    Sets and the pair: the pair is two held tiles (the rest then waits for sets only, a smaller question
    with its own cache entry), or the new tile and a held one (the rest is then sets only already).
    """
    if (sum(part) + 1) % 3 != (0 if needed == 1 else 2):
        return ()
    if needed == 1:
        return _set_waits(part, honours)
    found: set[int] = set()
    weight = weight_of(part)
    work = list(part)
    for i, n in enumerate(part):
        if n >= 2:  # a held pair
            work[i] -= 2
            found.update(_group_waits(tuple(work), honours, 1))
            work[i] += 2
        if n and (weight - i) % 3 == 0:  # the new tile pairs with this one: the rest must be sets only
            work[i] -= 1
            if sets_only(work.copy(), honours):
                found.add(i)
            work[i] += 1
    return tuple(sorted(i for i in found if part[i] < 4))


def _set_waits(part: tuple[int, ...], honours: bool) -> tuple[int, ...]:
    """Indices where one more tile lets the group split into sets only (its size is 2 mod 3).

    Only indices where a tile can join a set are tried: held ones, and for suits those within two of a
    held one; the weight sum(i * count) must become 0 mod 3 (see decompose.part_status).
    """
    weight = weight_of(part)
    last = len(part) - 1
    out = []
    work = list(part)
    for i, n in enumerate(part):
        if n >= 4 or (weight + i) % 3:
            continue
        if not n and (honours or not any(part[max(0, i - 2) : min(last, i + 2) + 1])):
            continue
        work[i] += 1
        if sets_only(work.copy(), honours):
            out.append(i)
        work[i] -= 1
    return tuple(out)


def wait_kinds(
    counts: tuple[int, ...], held: tuple[int, ...], concealed_only: bool, ruleset: str, stop: int = 0
) -> tuple[int, ...]:
    """Kind indices (ascending) that complete `counts` (the concealed tiles) into a winning shape.

    `held` counts the concealed tiles plus the declared melds (to skip kinds held four times);
    irregular shapes count only when `concealed_only` (no declared melds). With `stop` > 0 the search ends
    once that many waits are found (enough to tell a single wait from several). Not cached itself: the
    groups' statuses and waits are.
    """
    parts = (counts[0:9], counts[9:18], counts[18:27], counts[27:34])
    status = [
        part_status(parts[0], False),
        part_status(parts[1], False),
        part_status(parts[2], False),
        part_status(parts[3], True),
    ]
    zeros, pairs = status.count(0), status.count(2)
    # one added tile changes one group: every other group must already split
    groups = range(4) if zeros == 0 else (status.index(0),) if zeros == 1 else ()
    found: list[int] = []
    for group in groups:
        other_pairs = pairs - (status[group] == 2)
        if other_pairs > 1:
            continue
        start = GROUP_START[group]
        for i in _group_waits(parts[group], group == 3, 2 if other_pairs == 0 else 1):
            if held[start + i] < 4:  # there is no fifth tile
                found.append(start + i)
                if len(found) == stop:
                    return tuple(sorted(found))
    if concealed_only:
        rules = get_ruleset(ruleset)
        work = list(counts)
        for kind in irregular_candidates(counts):
            if kind in found or held[kind] >= 4:
                continue
            work[kind] += 1
            if best_irregular(rules.limit_hands, tuple(work), rules.options) is not None:
                found.append(kind)
                if len(found) == stop:
                    break
            work[kind] -= 1
    return tuple(sorted(found))


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
            raise InputError.of("waits_bad_tile", where="waits", token=code)
    for meld in melds:
        if meld_kind(meld.tiles) is None:
            raise InputError.of("meld_no_set", where="waits", tiles=format_tiles(meld.tiles))
    if len(codes) + 3 * len(melds) != 13:
        raise InputError.of("waits_tile_count", concealed=len(codes), melds=len(melds))
    counts = [0] * KINDS
    for code in codes:
        counts[INDEX[code]] += 1
    held = list(counts)
    for meld in melds:
        for code in meld.tiles:
            held[INDEX[code]] += 1
    for kind, n in enumerate(held):
        if n > 4:
            raise InputError.of("too_many_of_tile", where="waits", count=n, tile=code_of(kind))
    get_ruleset(ruleset)
    kinds = wait_kinds(tuple(counts), tuple(held), not melds, ruleset)
    return [code_of(kind) for kind in kinds]  # kinds come in canonical order
