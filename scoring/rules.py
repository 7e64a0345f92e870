"""Rules as data: one table row per scoring rule, and the machinery that applies a ruleset to a reading.

A *reading* is one interpretation of a hand: its sets (declared melds plus the concealed split), the pair,
which set the winning tile completed, and the context (seat, flags, ...). Rows are of three shapes:
SetRule (once per matching set or pair), BonusRule (once per matching flower/season) and HandRule (once per
hand; within a family only the highest applies). Limit hands live in scoring.limits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import NamedTuple

from scoring.decompose import Block
from scoring.result import ScoreItem
from scoring.tiles import EAST, WHITE, code_of, format_tiles


@dataclass(frozen=True)
class Options:
    """House-rule switches of a ruleset (SCORING sections 3, 7 and 12)."""

    bonus_tiles: bool = False  # flowers and seasons are played
    min_doublings: int = 2  # a winner needs at least this many doublings (limit hands exempt)
    limit: int = 2000  # cap for every player
    bonus_doublings_count_toward_minimum: bool = True  # own flower/season doublings count toward the minimum
    seven_pairs_allow_four_equal: bool = True  # four equal tiles may be two of the seven pairs
    pe_ling_eet_cake: bool = False  # a winning 1p may be read as the 1s completing a pair of 1s


class Context(NamedTuple):
    """Everything about a hand a rule may look at besides its sets."""

    winner: bool
    seat: int  # kind index of the seat wind (27..30)
    prevailing: int  # kind index of the prevailing wind
    seat_number: int  # 1 East .. 4 North: own flower/season number
    self_drawn: bool
    flags: frozenset[str]
    winning_tile: int  # the physical winning tile's kind index; -1 for a loser
    unique_wait: bool  # the 13 tiles before the win waited on exactly one kind
    has_open_meld: bool


class TileSummary(NamedTuple):
    """Facts about all tiles of a hand (sets, pair, loose tiles; bonus tiles excluded)."""

    suits: frozenset[int]  # 0 characters, 1 circles, 2 bamboo
    honours: bool
    only_terminals_and_honours: bool
    only_simples: bool
    only_green: bool


# the suits present, by (characters, circles, bamboo) present: one shared frozenset per combination
_SUITS: dict[tuple[bool, bool, bool], frozenset[int]] = {
    (m, p, s): frozenset(suit for suit, present in enumerate((m, p, s)) if present)
    for m in (False, True)
    for p in (False, True)
    for s in (False, True)
}


def summarize(counts: Sequence[int]) -> TileSummary:
    """TileSummary of 34 counts (declared melds included, kongs as 4); not cached: hands rarely repeat."""
    total = sum(counts)
    honours = sum(counts[27:34])
    terminals = counts[0] + counts[8] + counts[9] + counts[17] + counts[18] + counts[26]
    green = counts[19] + counts[20] + counts[21] + counts[23] + counts[25] + counts[32]  # 2 3 4 6 8 s, 6z
    return TileSummary(  # positional: a NamedTuple is made twice as fast without keywords
        _SUITS[any(counts[0:9]), any(counts[9:18]), any(counts[18:27])],  # suits
        honours > 0,  # honours
        terminals + honours == total,  # only_terminals_and_honours
        terminals + honours == 0,  # only_simples
        green == total,  # only_green
    )


class Reading:
    """One interpretation of a hand: the scoring sets (pair included), context and derived counts."""

    __slots__ = (
        "blocks",
        "chows",
        "concealed_kongs",
        "concealed_pungs",
        "ctx",
        "dragon_pungs",
        "extra",
        "kongs",
        "pair",
        "pe_ling",
        "pungs",
        "summary",
        "wind_pungs",
        "winning",
        "winning_block",
    )

    def __init__(
        self,
        blocks: tuple[Block, ...],
        ctx: Context,
        summary: TileSummary,
        winning: int = -1,
        pe_ling: bool = False,
        extra: tuple[Block, ...] = (),
    ) -> None:
        self.blocks = blocks  # sets and the scoring pair
        self.ctx = ctx
        self.summary = summary
        self.winning = winning  # index in blocks of the set the winning tile completed; -1 none
        self.pe_ling = pe_ling  # the winning 1p is read as 1s completing the pair
        self.extra = extra  # shown but not scored: a loser's other pairs, chows and loose tiles
        self.winning_block = blocks[winning] if winning >= 0 else None
        chows = pungs = kongs = concealed_pungs = concealed_kongs = dragon_pungs = wind_pungs = 0
        pair = None
        for block in blocks:
            kind = block.kind
            if kind == "chow":
                chows += 1
            elif kind == "pair":
                pair = block
            else:
                pungs += 1
                if kind == "kong":
                    kongs += 1
                    if not block.open:
                        concealed_kongs += 1
                if not block.open:
                    concealed_pungs += 1
                if block.tile >= WHITE:  # dragons
                    dragon_pungs += 1
                elif block.tile >= EAST:  # winds
                    wind_pungs += 1
        self.chows, self.pungs, self.kongs, self.pair = chows, pungs, kongs, pair
        self.concealed_pungs, self.concealed_kongs = concealed_pungs, concealed_kongs
        self.dragon_pungs, self.wind_pungs = dragon_pungs, wind_pungs


@dataclass(frozen=True)
class SetRule:
    """Applies once per matching set or pair: base points or doublings for that set.

    `applies(block, seat, prevailing)` sees only the set and the two winds (kind indices; -1 unless the set
    is of winds), so its outcome is cached per set and seat.
    """

    key: str
    name: str
    name_en: str
    kind: str  # "points" | "doublings"
    value: int
    applies: Callable[[Block, int, int], bool]
    winner_only: bool = False


@dataclass(frozen=True)
class BonusRule:
    """Applies once per matching flower or season (`app`)."""

    key: str
    name: str
    name_en: str
    kind: str
    value: int
    applies: Callable[[str, Context], bool]
    winner_only: bool = False


@dataclass(frozen=True)
class HandRule:
    """Applies once per hand; within a family only the highest-valued applying row counts."""

    key: str
    name: str
    name_en: str
    kind: str
    value: int
    applies: Callable[[Reading], bool]
    family: str | None = None
    winner_only: bool = False

    @cached_property
    def item(self) -> ScoreItem:
        return ScoreItem(self.name, self.name_en, self.kind, self.value)


@dataclass(frozen=True, eq=False)
class Ruleset:
    """A complete scoring ruleset: names, options, the rule tables, the limit hands and the session's
    prevailing wind (thrown with dice per game, or `games_per_wind` games in each of E, S, W, N)."""

    name: str
    options: Options
    set_rules: tuple[SetRule, ...]
    bonus_rules: tuple[BonusRule, ...]
    hand_rules: tuple[HandRule, ...]
    limit_hands: tuple[object, ...]  # tuple[scoring.limits.LimitHand, ...]
    title_nl: str = ""
    title_en: str = ""
    games_per_wind: int | None = None  # None: the prevailing wind is thrown with dice before each game


class Tally(NamedTuple):
    """Base points and doublings of one reading, with the items behind them."""

    base_points: int
    doublings: int
    bonus_doublings: int  # the part of `doublings` that came from flowers and seasons
    items: tuple[ScoreItem, ...]


def block_tiles(block: Block) -> str:
    """The tiles of a block in mpsz, e.g. Block("chow", 0) -> "123m"."""
    return _piece_tiles(block.kind, block.tile)


@lru_cache(maxsize=512)
def _piece_tiles(kind: str, tile: int) -> str:
    code = code_of(tile)
    if kind == "chow":
        return format_tiles((code, code_of(tile + 1), code_of(tile + 2)))
    size = {"pair": 2, "pung": 3, "kong": 4}.get(kind, 1)
    return format_tiles([code] * size)


def tally(ruleset: Ruleset, reading: Reading, bonus: tuple[str, ...]) -> Tally:
    """Apply every rule of `ruleset` to one reading (winner-only rows only for the winner).

    Items come points first (hand, sets, bonus tiles), then doublings (sets, bonus tiles, hand).
    """
    ctx = reading.ctx
    winner = ctx.winner
    points: list[ScoreItem] = []
    hand_doublings: list[ScoreItem] = []
    base_points = doubling_count = 0
    for rule in _best_per_family(_hand_rules(ruleset, winner), reading):
        if rule.kind == "points":
            points.append(rule.item)
            base_points += rule.value
        else:
            hand_doublings.append(rule.item)
            doubling_count += rule.value
    doublings: list[ScoreItem] = []
    for block in reading.blocks:
        kind, tile = block.kind, block.tile
        if kind == "chow":
            continue
        if 27 <= tile <= 30:  # only a wind set looks at the seat and prevailing winds
            set_points, set_doublings = set_items(
                ruleset, kind, tile, block.open, ctx.seat, ctx.prevailing, winner
            )
        else:
            set_points, set_doublings = set_items(ruleset, kind, tile, block.open, -1, -1, winner)
        for item in set_points:
            points.append(item)
            base_points += item.value
        for item in set_doublings:
            doublings.append(item)
            doubling_count += item.value
    bonus_doublings = 0
    for bonus_tile in bonus:
        for bonus_rule in ruleset.bonus_rules:
            if (winner or not bonus_rule.winner_only) and bonus_rule.applies(bonus_tile, ctx):
                item = ScoreItem(
                    bonus_rule.name, bonus_rule.name_en, bonus_rule.kind, bonus_rule.value, bonus_tile
                )
                if bonus_rule.kind == "points":
                    points.append(item)
                    base_points += item.value
                else:
                    doublings.append(item)
                    doubling_count += item.value
                    bonus_doublings += item.value
    return Tally(base_points, doubling_count, bonus_doublings, (*points, *doublings, *hand_doublings))


_HandRow = tuple[Callable[[Reading], bool], "str | None", HandRule]  # (applies, family, rule)


@lru_cache(maxsize=64)
def _hand_rules(ruleset: Ruleset, winner: bool) -> tuple[_HandRow, ...]:
    """The ruleset's hand rows for this role, as (applies, family, rule) for the loop of _best_per_family."""
    return tuple(
        (rule.applies, rule.family, rule) for rule in ruleset.hand_rules if winner or not rule.winner_only
    )


@lru_cache(maxsize=1 << 14)
def set_items(
    ruleset: Ruleset, kind: str, tile: int, is_open: bool, seat: int, prevailing: int, winner: bool
) -> tuple[tuple[ScoreItem, ...], tuple[ScoreItem, ...]]:
    """Items the set rows give one set (points, doublings), cached per set, seat and role."""
    block = Block(kind, tile, is_open)
    tiles = _piece_tiles(kind, tile)
    points: list[ScoreItem] = []
    doublings: list[ScoreItem] = []
    for rule in ruleset.set_rules:
        if (winner or not rule.winner_only) and rule.applies(block, seat, prevailing):
            item = ScoreItem(rule.name, rule.name_en, rule.kind, rule.value, tiles)
            (points if rule.kind == "points" else doublings).append(item)
    return tuple(points), tuple(doublings)


def _best_per_family(rows: tuple[_HandRow, ...], reading: Reading) -> list[HandRule]:
    """Applying hand rules, keeping only the highest row of each family (the first on a tie)."""
    chosen: list[HandRule] = []
    best: dict[str, int] = {}
    for applies, family, rule in rows:
        if not applies(reading):
            continue
        if family is None:
            chosen.append(rule)
            continue
        at = best.get(family)
        if at is None:
            best[family] = len(chosen)
            chosen.append(rule)
        elif rule.value > chosen[at].value:
            chosen[at] = rule
    return chosen
