"""The 18 limit hands of SCORING section 7 as table rows: value, shape and a small predicate.

Irregular rows look at the 14 concealed counts (they must be concealed; only the winning tile may be a
discard). Regular rows look at a Reading (sets and a pair). Situation rows (heaven, earth) need any winning
shape and look at the context.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scoring.decompose import is_seven_pairs
from scoring.rules import Context, Options, Reading

IRREGULAR, REGULAR, SITUATION = "irregular", "regular", "situation"
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_WINDS = range(27, 31)
_DRAGONS = range(31, 34)


@dataclass(frozen=True)
class LimitHand:
    """One limit hand: its fixed value and when it applies (see the module docstring for `shape`)."""

    key: str
    name: str
    name_en: str
    value: int
    shape: str
    applies: Callable[..., bool]


def _suit(counts: tuple[int, ...], suit: int) -> tuple[int, ...]:
    return counts[9 * suit : 9 * suit + 9]


def _nine_gates(c: tuple[int, ...], options: Options) -> bool:
    for s in range(3):
        t = _suit(c, s)
        if sum(t) == 14 and t[0] >= 3 and t[8] >= 3 and all(t[i] >= 1 for i in range(1, 8)):
            return True
    return False


def _thirteen_orphans(c: tuple[int, ...], options: Options) -> bool:
    return all(c[k] >= 1 for k in _ORPHANS) and sum(c[k] for k in _ORPHANS) == 14 == sum(c)


def _wind_snake(c: tuple[int, ...], options: Options) -> bool:
    if sum(c) != 14 or any(c[k] for k in _DRAGONS) or not all(c[k] >= 1 for k in _WINDS):
        return False
    winds = sum(c[k] for k in _WINDS)
    return any(all(x >= 1 for x in _suit(c, s)) and sum(_suit(c, s)) + winds == 14 for s in range(3))


def _dragon_snake(c: tuple[int, ...], options: Options) -> bool:
    if sum(c) != 14 or not all(c[k] == 1 for k in _DRAGONS):
        return False
    if sorted(c[k] for k in _WINDS) != [0, 0, 0, 2]:
        return False
    return any(all(x == 1 for x in _suit(c, s)) for s in range(3))


def _court_of_peking(c: tuple[int, ...], options: Options) -> bool:
    if sum(c) != 14 or not all(c[k] == 1 for k in range(27, 34)):
        return False
    return any(_suit(c, s) == (1, 1, 1, 1, 1, 1, 1, 0, 0) for s in range(3))


def _pairs(c: tuple[int, ...], options: Options) -> bool:
    return is_seven_pairs(c, options.seven_pairs_allow_four_equal)


def _suits_in(c: tuple[int, ...]) -> int:
    return sum(1 for s in range(3) if any(_suit(c, s)))


def _honours_in(c: tuple[int, ...]) -> bool:
    return any(c[27:34])


def _honour_twins(c: tuple[int, ...], options: Options) -> bool:
    return _pairs(c, options) and _suits_in(c) == 0


def _pure_twins(c: tuple[int, ...], options: Options) -> bool:
    return _pairs(c, options) and _suits_in(c) == 1 and not _honours_in(c)


def _very_clean_twins(c: tuple[int, ...], options: Options) -> bool:
    only_majors = all(c[k] == 0 for k in range(27) if k % 9 not in (0, 8))
    return _pairs(c, options) and _suits_in(c) == 1 and only_majors


def _clean_twins(c: tuple[int, ...], options: Options) -> bool:
    return _pairs(c, options) and _suits_in(c) == 1


def _winding_snake(r: Reading) -> bool:
    summary = r.summary
    if len(summary.suits) != 1 or summary.honours or r.pair is None:
        return False
    base = 9 * next(iter(summary.suits))
    pungs = sorted(b.tile - base for b in r.blocks if b.kind in ("pung", "kong"))
    chows = sorted(b.tile - base for b in r.blocks if b.kind == "chow")
    return pungs == [0, 8] and (chows, r.pair.tile - base) in (([2, 5], 1), ([1, 5], 4), ([1, 4], 7))


def _all_terminals(r: Reading) -> bool:
    return r.summary.only_terminals_and_honours and not r.summary.honours


def _heaven(ctx: Context) -> bool:
    return "heaven" in ctx.flags


def _earth(ctx: Context) -> bool:
    return "earth" in ctx.flags


LIMIT_HANDS: tuple[LimitHand, ...] = (
    LimitHand("nine_gates", "Negen poorten", "Nine gates", 2000, IRREGULAR, _nine_gates),
    LimitHand("thirteen_orphans", "Dertien wezen", "Thirteen orphans", 2000, IRREGULAR, _thirteen_orphans),
    LimitHand("honour_twins", "Tweelingen van troefstenen", "Honour twins", 2000, IRREGULAR, _honour_twins),
    LimitHand("wind_snake", "Windenslang", "Wind snake", 1000, IRREGULAR, _wind_snake),
    LimitHand("dragon_snake", "Drakenslang", "Dragon snake", 1000, IRREGULAR, _dragon_snake),
    LimitHand("court_of_peking", "Hof van Peking", "Court of Peking", 1000, IRREGULAR, _court_of_peking),
    LimitHand("pure_twins", "Zuivere tweelingen", "Pure twins", 1000, IRREGULAR, _pure_twins),
    LimitHand(
        "very_clean_twins", "Zeer schone tweelingen", "Very clean twins", 1000, IRREGULAR, _very_clean_twins
    ),
    LimitHand("clean_twins", "Schone tweelingen", "Clean twins", 500, IRREGULAR, _clean_twins),
    LimitHand("seven_twins", "Zeven tweelingen", "Seven twins", 250, IRREGULAR, _pairs),
    LimitHand("four_winds", "Vier winden", "Four winds", 2000, REGULAR, lambda r: r.wind_pungs == 4),
    LimitHand("three_dragons", "Drie draken", "Three dragons", 2000, REGULAR, lambda r: r.dragon_pungs == 3),
    LimitHand("jade", "Jadespel", "Jade hand", 2000, REGULAR, lambda r: r.summary.only_green),
    LimitHand("heads_and_tails", "Kop en staart", "Heads and tails", 2000, REGULAR, _all_terminals),
    LimitHand(
        "four_concealed_kongs",
        "Vier verborgen kongs",
        "Four concealed kongs",
        2000,
        REGULAR,
        lambda r: r.concealed_kongs == 4,
    ),
    LimitHand("heaven", "Spel van de hemel", "Heavenly hand", 2000, SITUATION, _heaven),
    LimitHand("earth", "Spel van de aarde", "Earthly hand", 1000, SITUATION, _earth),
    LimitHand("winding_snake", "Kronkelende slang", "Winding snake", 1000, REGULAR, _winding_snake),
)


def irregular_candidates(counts: tuple[int, ...]) -> tuple[int, ...]:
    """Kinds that might complete 13 concealed tiles into an irregular limit hand (a cheap filter).

    Seven pairs can only wait on the one kind held an odd number of times; the other irregular hands hold
    tiles of at most one suit (or only terminals and honours) and at least 8 different kinds.
    Counts are at most 4, so the odd ones are the 1s and 3s.
    """
    if len(counts) - counts.count(0) >= 8:
        present = [kind for kind in range(34) if counts[kind]]
        suits = {kind // 9 for kind in present if kind < 27}
        if len(suits) <= 1 or all(kind in _ORPHANS for kind in present):
            return tuple(range(34))
    ones, threes = counts.count(1), counts.count(3)
    if ones + threes != 1:
        return ()
    return (counts.index(1 if ones else 3),)


def could_be_irregular(counts: tuple[int, ...]) -> bool:
    """A cheap necessary condition for an irregular limit hand of 14 tiles.

    Seven pairs hold only even counts (no 1s or 3s: counts are at most 4); the others hold one suit at
    most (or only terminals and honours) and at least 9 different kinds.
    """
    if not counts.count(1) and not counts.count(3):
        return True
    if len(counts) - counts.count(0) < 9:
        return False
    present = [kind for kind in range(34) if counts[kind]]
    return len({kind // 9 for kind in present if kind < 27}) <= 1 or all(kind in _ORPHANS for kind in present)


_BY_VALUE: dict[tuple[int, str], tuple[tuple[Any, ...], tuple[LimitHand, ...]]] = {}


def _by_value(limits: tuple[Any, ...], shape: str) -> tuple[LimitHand, ...]:
    """The rows of one shape, highest value first (table order on a tie), computed once per table."""
    entry = _BY_VALUE.get((id(limits), shape))
    if entry is None or entry[0] is not limits:
        rows = tuple(
            sorted((limit for limit in limits if limit.shape == shape), key=lambda limit: -limit.value)
        )
        entry = _BY_VALUE[(id(limits), shape)] = (limits, rows)
    return entry[1]


def best_irregular(limits: tuple[Any, ...], counts: tuple[int, ...], options: Options) -> LimitHand | None:
    """The highest irregular limit hand the 14 concealed counts form (first row on a tie), or None."""
    if not could_be_irregular(counts):
        return None
    for limit in _by_value(limits, IRREGULAR):
        if limit.applies(counts, options):
            return limit
    return None


def best_regular(limits: tuple[Any, ...], reading: Reading) -> LimitHand | None:
    """The highest regular limit hand this reading forms (first row on a tie), or None."""
    for limit in _by_value(limits, REGULAR):
        if limit.applies(reading):
            return limit
    return None


def best_situation(limits: tuple[Any, ...], ctx: Context) -> LimitHand | None:
    """The highest situation limit hand (heaven, earth) of a hand that has a winning shape, or None."""
    for limit in _by_value(limits, SITUATION):
        if limit.applies(ctx):
            return limit
    return None
