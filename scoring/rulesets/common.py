"""The NTS point card as table rows, shared by the `app` and `nts` rulesets (SCORING sections 4-6).

Each row: key, Dutch name (point-card words), English name, points or doublings, and a small predicate.
"""

from __future__ import annotations

from collections.abc import Callable

from scoring.decompose import Block
from scoring.rules import BonusRule, Context, HandRule, Reading, SetRule
from scoring.tiles import INDEX, is_dragon, is_honour, is_terminal

PUNGS = ("pung", "kong")
DUTCH_KIND = {"pung": "Pong", "kong": "Kong"}  # the club's point card says Pong
_ONE_CIRCLE = INDEX["1p"]
_FIVE_CIRCLES = INDEX["5p"]


def _major(tile: int) -> bool:
    """Terminal or honour: they score alike in the point table."""
    return is_terminal(tile) or is_honour(tile)


def _set_points(kind: str, major: bool, is_open: bool, value: int) -> SetRule:
    group = ("1/9 of wind/draak", "of terminals or honours") if major else ("eenvoudige steen", "of simples")
    state = ("open", "open") if is_open else ("gesloten", "concealed")
    return SetRule(
        key=f"{kind}_{'major' if major else 'simple'}_{state[1]}",
        name=f"{DUTCH_KIND[kind]} {group[0]} ({state[0]})",
        name_en=f"{kind.capitalize()} {group[1]} ({state[1]})",
        kind="points",
        value=value,
        applies=lambda b, seat, prevailing: b.kind == kind and b.open == is_open and _major(b.tile) == major,
    )


SET_POINTS: tuple[SetRule, ...] = (
    _set_points("pung", False, True, 2),
    _set_points("pung", False, False, 4),
    _set_points("pung", True, True, 4),
    _set_points("pung", True, False, 8),
    _set_points("kong", False, True, 8),
    _set_points("kong", False, False, 16),
    _set_points("kong", True, True, 16),
    _set_points("kong", True, False, 32),
)


def _is_pair(b: Block) -> bool:
    return b.kind == "pair"


PAIR_OF_DRAGONS = SetRule(
    "pair_dragons",
    "Paar van draken",
    "Pair of dragons",
    "points",
    2,
    lambda b, seat, prevailing: _is_pair(b) and is_dragon(b.tile),
)
PAIR_OF_SEAT_WIND = SetRule(
    "pair_seat_wind",
    "Paar van eigen wind",
    "Pair of own wind",
    "points",
    2,
    lambda b, seat, prevailing: _is_pair(b) and b.tile == seat,
)
PAIR_OF_PREVAILING_WIND = SetRule(
    "pair_prevailing_wind",
    "Paar van heersende wind",
    "Pair of prevailing wind",
    "points",
    2,
    lambda b, seat, prevailing: _is_pair(b) and b.tile == prevailing,
)

HONOUR_PUNG_DOUBLINGS: tuple[SetRule, ...] = (
    SetRule(
        "pung_dragons",
        "Pong/kong van draken",
        "Pung/kong of dragons",
        "doublings",
        1,
        lambda b, seat, prevailing: b.kind in PUNGS and is_dragon(b.tile),
    ),
    SetRule(
        "pung_seat_wind",
        "Pong/kong van eigen wind",
        "Pung/kong of own wind",
        "doublings",
        1,
        lambda b, seat, prevailing: b.kind in PUNGS and b.tile == seat,
    ),
    SetRule(
        "pung_prevailing_wind",
        "Pong/kong van heersende wind",
        "Pung/kong of prevailing wind",
        "doublings",
        1,
        lambda b, seat, prevailing: b.kind in PUNGS and b.tile == prevailing,
    ),
)


def _own_bonus(suit: str) -> Callable[[str, Context], bool]:
    def applies(tile: str, ctx: Context) -> bool:
        return tile[1] == suit and int(tile[0]) == ctx.seat_number

    return applies


BONUS_TILES: tuple[BonusRule, ...] = (
    BonusRule("flower", "Bloem", "Flower", "points", 4, lambda t, ctx: t[1] == "f"),
    BonusRule("season", "Seizoen", "Season", "points", 4, lambda t, ctx: t[1] == "y"),
    BonusRule("own_flower", "Eigen bloem", "Own flower", "doublings", 1, _own_bonus("f")),
    BonusRule("own_season", "Eigen seizoen", "Own season", "doublings", 1, _own_bonus("y")),
)


def _winning_kind(r: Reading) -> str | None:
    block = r.winning_block
    return block.kind if block else None


_REPLACEMENT_FLAGS = frozenset({"kong_replacement", "kong_on_kong"})


def _replacement(r: Reading) -> bool:
    return not r.ctx.flags.isdisjoint(_REPLACEMENT_FLAGS)


def _purity_clean(r: Reading) -> bool:
    s = r.summary
    return (len(s.suits) == 1 and s.honours) or (len(s.suits) >= 2 and s.only_terminals_and_honours)


def _purity_very_clean(r: Reading) -> bool:
    s = r.summary
    return len(s.suits) == 1 and s.honours and s.only_terminals_and_honours


def _purity_pure(r: Reading) -> bool:
    s = r.summary
    return (len(s.suits) == 1 and not s.honours) or (not s.suits and s.honours)


WINNER_POINTS: tuple[HandRule, ...] = (
    HandRule("mahjong", "Mahjong", "Mahjong", "points", 20, lambda r: True, winner_only=True),
    HandRule(
        "self_drawn",
        "Zelf gepakte steen",
        "Self-drawn winning tile",
        "points",
        2,
        lambda r: r.ctx.self_drawn,
        winner_only=True,
    ),
    HandRule(
        "only_possible_tile",
        "Enig mogelijke steen",
        "Only possible tile",
        "points",
        2,
        lambda r: r.ctx.unique_wait,
        winner_only=True,
    ),
    HandRule(
        "completing_pair",
        "Volmaken van het paar",
        "Completing the pair",
        "points",
        2,
        lambda r: _winning_kind(r) == "pair",
        winner_only=True,
    ),
    HandRule(
        "bird_eats_cake",
        "Pe-ling eet cake",
        "Bird eats cake",
        "points",
        10,
        lambda r: r.pe_ling,
        winner_only=True,
    ),
)

EVERY_PLAYER_DOUBLINGS: tuple[HandRule, ...] = (
    HandRule(
        "three_concealed_pungs",
        "Drie pungs dicht",
        "Three concealed pungs",
        "doublings",
        1,
        lambda r: r.concealed_pungs >= 3,
        family="concealed",
    ),
    HandRule(
        "four_concealed_pungs",
        "Vier pungs dicht",
        "Four concealed pungs",
        "doublings",
        2,
        lambda r: r.concealed_pungs >= 4,
        family="concealed",
    ),
    HandRule(
        "three_concealed_kongs",
        "Drie kongs dicht",
        "Three concealed kongs",
        "doublings",
        2,
        lambda r: r.concealed_kongs >= 3,
        family="concealed",
    ),
    HandRule(
        "four_kongs", "Vier kongs", "Four kongs", "doublings", 3, lambda r: r.kongs == 4, family="concealed"
    ),
    HandRule("clean", "Schoon spel", "Clean hand", "doublings", 1, _purity_clean, family="purity"),
    HandRule(
        "very_clean", "Zeer schoon", "Very clean hand", "doublings", 2, _purity_very_clean, family="purity"
    ),
    HandRule("pure", "Zuiver", "Pure hand", "doublings", 3, _purity_pure, family="purity"),
)

WINNER_DOUBLINGS: tuple[HandRule, ...] = (
    HandRule(
        "four_chows", "Vier chows", "Four chows", "doublings", 1, lambda r: r.chows == 4, winner_only=True
    ),
    HandRule(
        "four_pungs", "Vier pungs", "Four pungs", "doublings", 1, lambda r: r.pungs == 4, winner_only=True
    ),
    HandRule(
        "all_simples",
        "Pure eenvoud",
        "All simples",
        "doublings",
        1,
        lambda r: r.summary.only_simples,
        winner_only=True,
    ),
    HandRule(
        "little_four_winds",
        "Kleine vier winden",
        "Little four winds",
        "doublings",
        1,
        lambda r: r.wind_pungs == 3 and r.pair is not None and 27 <= r.pair.tile <= 30,
        winner_only=True,
    ),
    HandRule(
        "little_three_dragons",
        "Kleine drie draken",
        "Little three dragons",
        "doublings",
        1,
        lambda r: r.dragon_pungs == 2 and r.pair is not None and r.pair.tile >= 31,
        winner_only=True,
    ),
    HandRule(
        "fully_concealed",
        "Volledig gesloten hand",
        "Fully concealed hand",
        "doublings",
        2,
        lambda r: r.ctx.self_drawn and not r.ctx.has_open_meld,
        winner_only=True,
    ),
    HandRule(
        "last_tile",
        "Laatste steen van de muur",
        "Last tile of the wall",
        "doublings",
        1,
        lambda r: "last_tile" in r.ctx.flags,
        family="wall",
        winner_only=True,
    ),
    HandRule(
        "moon_from_the_sea",
        "Maan van de bodem van de zee",
        "Moon from the bottom of the sea",
        "doublings",
        3,
        lambda r: "last_tile" in r.ctx.flags and r.ctx.winning_tile == _ONE_CIRCLE,
        family="wall",
        winner_only=True,
    ),
    HandRule(
        "kong_replacement",
        "Kong met bloeiende bloemen",
        "Win on a kong replacement tile",
        "doublings",
        1,
        _replacement,
        family="kong",
        winner_only=True,
    ),
    HandRule(
        "plum_blossom",
        "Pruimenbloesem",
        "Plum blossom from the roof",
        "doublings",
        3,
        lambda r: _replacement(r) and r.ctx.winning_tile == _FIVE_CIRCLES,
        family="kong",
        winner_only=True,
    ),
    HandRule(
        "kong_on_kong",
        "Kong op kong",
        "Kong upon kong",
        "doublings",
        2,
        lambda r: "kong_on_kong" in r.ctx.flags,
        family="kong",
        winner_only=True,
    ),
    HandRule(
        "robbing_kong",
        "Kongroof",
        "Robbing the kong",
        "doublings",
        1,
        lambda r: "robbing_kong" in r.ctx.flags,
        winner_only=True,
    ),
)
