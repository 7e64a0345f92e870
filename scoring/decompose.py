"""The hand divider: every split of concealed tiles (counts per kind) into sets and one pair.

Counts are 34-tuples indexed like tiles.TILE_CODES[:34]. Each group (a suit, the honours) is split on its
own, cached on its counts: there are few distinct group shapes, so distinct hands share them. Then the
groups are combined (not cached: whole hands rarely repeat). part_status only says whether a group splits.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import chain, product
from typing import NamedTuple

Piece = tuple[str, int]  # ("chow" | "pung" | "pair", kind index of its lowest tile)
Decomposition = tuple[Piece, ...]

_GROUPS = ((0, 9, False), (9, 18, False), (18, 27, False), (27, 34, True))


class Block(NamedTuple):
    """A set as scored: kind chow/pung/kong/pair, its lowest tile, open or not, declared meld or not."""

    kind: str
    tile: int
    open: bool = False
    declared: bool = False


# one shared tuple per piece, so that cached splits hold no copies
_PIECES = {name: tuple((name, kind) for kind in range(34)) for name in ("chow", "pung", "pair")}


def _group_splits(work: list[int], lo: int, honours: bool, with_pair: bool) -> list[tuple[Piece, ...]]:
    """Every split of one group's counts into chows, pungs and (with_pair) exactly one pair.

    Pieces carry whole-hand kind indices (`lo` is the group's first). Each multiset of pieces is produced
    once: the pieces that start at the lowest remaining tile are chosen together (0/1 pair, 0/1 pung,
    k chows). `work` is restored before returning.
    """
    found: list[tuple[Piece, ...]] = []
    _split(work, 0, lo, honours, with_pair, [], found)
    return found


def _split(
    work: list[int],
    i: int,
    lo: int,
    honours: bool,
    need_pair: bool,
    pieces: list[Piece],
    found: list[tuple[Piece, ...]],
) -> None:
    """_group_splits from index `i` on, with `pieces` chosen so far (a plain function: no closure cycles)."""
    size = len(work)
    while i < size and work[i] == 0:
        i += 1
    if i == size:
        if not need_pair:
            found.append(tuple(pieces))
        return
    n = work[i]
    for pair in (0, 1) if need_pair else (0,):
        for pung in (0, 1):
            chows = n - 2 * pair - 3 * pung
            if chows < 0:
                continue
            if chows and (honours or i > size - 3 or work[i + 1] < chows or work[i + 2] < chows):
                continue
            kind = lo + i
            start = len(pieces)
            if pair:
                pieces.append(_PIECES["pair"][kind])
            if pung:
                pieces.append(_PIECES["pung"][kind])
            if chows:
                pieces.extend([_PIECES["chow"][kind]] * chows)
                work[i + 1] -= chows
                work[i + 2] -= chows
            work[i] = 0
            _split(work, i + 1, lo, honours, need_pair and not pair, pieces, found)
            work[i] = n
            if chows:
                work[i + 1] += chows
                work[i + 2] += chows
            del pieces[start:]


def regular_decompositions(counts: tuple[int, ...]) -> tuple[Decomposition, ...]:
    """Every split of the concealed counts into sets (chows, pungs) and exactly one pair.

    Not cached itself: each group's splits are (a bounded number of suit shapes, shared by distinct hands).

    >>> from scoring.tiles import counts_of, parse_tiles
    >>> for split in regular_decompositions(tuple(counts_of(parse_tiles("111222333m55p")))):
    ...     print(split)
    (('chow', 0), ('chow', 0), ('chow', 0), ('pair', 13))
    (('pung', 0), ('pung', 1), ('pung', 2), ('pair', 13))
    """
    options = []
    pair_groups = 0
    several = False
    for group, (lo, hi, _) in enumerate(_GROUPS):
        with_pair, splits = _group_pieces(counts[lo:hi], group)
        if not splits:
            return ()
        pair_groups += with_pair
        several = several or len(splits) > 1
        options.append(splits)
    if pair_groups != 1:
        return ()
    if not several:  # the usual case: one way to read each group
        m, p, s, z = options
        return ((*m[0], *p[0], *s[0], *z[0]),)
    return tuple(tuple(chain.from_iterable(combo)) for combo in product(*options))


@lru_cache(maxsize=1 << 12)
def _group_pieces(part: tuple[int, ...], group: int) -> tuple[bool, tuple[tuple[Piece, ...], ...]]:
    """Whether one group holds the pair (its size is 2 mod 3), and its splits in whole-hand kind indices.

    No splits for a size 1 mod 3; one empty split for an empty group.
    """
    lo, _, honours = _GROUPS[group]
    rest = sum(part) % 3
    if rest == 1:
        return False, ()
    with_pair = rest == 2
    return with_pair, tuple(_group_splits(list(part), lo, honours, with_pair))


def sets_only(work: list[int], honours: bool) -> bool:
    """Whether the counts split into pungs and chows only (consumes `work`).

    At the lowest tile a pung is taken when possible and the rest must start chows: three chows from one
    tile are the same tiles as three pungs, so this greedy choice never misses a split.
    """
    size = len(work)
    for i in range(size):
        n = work[i]
        if n >= 3:
            n -= 3
        if n:
            if honours or i > size - 3 or work[i + 1] < n or work[i + 2] < n:
                return False
            work[i + 1] -= n
            work[i + 2] -= n
    return True


@lru_cache(maxsize=1 << 13)
def part_status(part: tuple[int, ...], honours: bool) -> int:
    """What one group's counts can be: 1 sets only, 2 sets and the pair, 0 neither.

    Sets only counts when the group's size is a multiple of 3, sets + pair when it is 2 more. Sets only
    need weight_of(part) = 0 (mod 3); a pair at position p leaves the rest a multiple of 3 only when
    2p = weight (mod 3), so only those pair positions are tried.
    """
    rest = sum(part) % 3
    if rest == 1:
        return 0
    weight = weight_of(part) % 3
    if rest == 0:
        return 1 if weight == 0 and sets_only(list(part), honours) else 0
    for i in range(2 * weight % 3, len(part), 3):
        if part[i] >= 2:
            work = list(part)
            work[i] -= 2
            if sets_only(work, honours):
                return 2
    return 0


def weight_of(part: tuple[int, ...] | list[int]) -> int:
    """sum(i * count): every set's positions (i, i, i or i, i+1, i+2) add up to 0 mod 3."""
    return sum(i * n for i, n in enumerate(part) if n)


def group_parts(counts: tuple[int, ...]) -> list[tuple[tuple[int, ...], bool]]:
    """The four groups (m, p, s, honours) of a 34-count tuple, with their honours flag."""
    return [(counts[lo:hi], honours) for lo, hi, honours in _GROUPS]


def has_regular_shape(counts: tuple[int, ...]) -> bool:
    """Whether the counts split into sets and exactly one pair (faster than listing the splits)."""
    statuses = [part_status(part, honours) for part, honours in group_parts(counts)]
    return 0 not in statuses and statuses.count(2) == 1


GROUP_START: tuple[int, ...] = (0, 9, 18, 27)


def is_seven_pairs(counts: tuple[int, ...], allow_four_equal: bool = True) -> bool:
    """Seven pairs in 14 concealed tiles; four equal tiles count as two pairs when allowed."""
    if sum(counts) != 14:
        return False
    if allow_four_equal:
        return all(c in (0, 2, 4) for c in counts)
    return all(c in (0, 2) for c in counts)


def seven_pairs_blocks(counts: tuple[int, ...]) -> tuple[int, ...]:
    """The pairs of a seven-pairs hand as kind indices (a kind held 4 times appears twice)."""
    return tuple(kind for kind, c in enumerate(counts) for _ in range(c // 2))
