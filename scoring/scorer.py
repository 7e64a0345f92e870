"""score_hand: the winner's best interpretation or the loser's best partition (SCORING sections 2-8, 12).

Winner: every decomposition of the concealed tiles x every set the winning tile could have completed (a
discard makes that set open), plus the pe-ling reading; each reading is tallied by the ruleset's tables and
the best total wins. Limit hands score their value unless the capped regular count is higher.
Loser: pungs of every kind held 3 or 4 times, the best scoring pair, the rest shown as chows, pairs and loose
tiles; half an irregular limit hand the 13 tiles wait on, if higher.
"""

from __future__ import annotations

from functools import lru_cache

from scoring.decompose import Block, Decomposition, Piece, is_seven_pairs, regular_decompositions
from scoring.hand import Hand, Meld
from scoring.limits import LimitHand, best_irregular, best_regular, best_situation, irregular_candidates
from scoring.result import LimitScore, ScoredSet, ScoreItem, ScoreResult
from scoring.rules import (
    Context,
    Reading,
    Ruleset,
    Tally,
    TileSummary,
    block_tiles,
    set_items,
    summarize,
    tally,
)
from scoring.rulesets import get_ruleset
from scoring.tiles import INDEX, KINDS, SEAT_NUMBER, WIND_INDEX, code_of, counts_of, format_tiles
from scoring.validate import validate_hand
from scoring.waits import wait_kinds

ONE_CIRCLE, ONE_BAMBOO = INDEX["1p"], INDEX["1s"]
# a piece of a split as a concealed block, made once per piece
_CLOSED: dict[Piece, Block] = {
    (name, kind): Block(name, kind) for name in ("chow", "pung", "pair") for kind in range(KINDS)
}


def score_hand(hand: Hand) -> ScoreResult:
    """Score one hand; InputError for malformed input, otherwise always a result (maybe not valid).

    >>> from scoring.io import hand_from_dict
    >>> hand = hand_from_dict({"seat_wind": "E", "prevailing_wind": "S", "concealed": "234m567p777z88s",
    ...     "melds": [{"tiles": "111z"}], "winning_tile": "4m", "self_drawn": True})
    >>> score_hand(hand).total
    136
    """
    validate_hand(hand)
    ruleset = get_ruleset(hand.ruleset)
    if "dead_hand" in hand.flags:
        return ScoreResult(False, 0, 0, 0, hand.ruleset, hand.role, reason_code="dead_hand")
    if hand.is_winner:
        return _score_winner(hand, ruleset)
    return _score_loser(hand, ruleset)


def _meld_blocks(hand: Hand) -> tuple[tuple[Block, ...], list[int]]:
    """Declared melds as blocks, and the kind index of every tile in them."""
    blocks = []
    kinds: list[int] = []
    for meld in hand.melds:
        block, meld_kinds = _meld_block(tuple(meld.tiles), meld.open)  # a list given in Python too
        blocks.append(block)
        kinds += meld_kinds
    return tuple(blocks), kinds


@lru_cache(maxsize=1024)
def _meld_block(tiles: tuple[str, ...], is_open: bool) -> tuple[Block, tuple[int, ...]]:
    """A (validated) declared meld as a block, and its tiles' kind indices."""
    kinds = tuple(sorted(INDEX[code] for code in tiles))
    return Block(Meld(tiles, is_open).kind, kinds[0], is_open, True), kinds


def _held(concealed: list[int], meld_kinds: list[int]) -> list[int]:
    """Counts of the concealed tiles plus the declared melds."""
    held = concealed.copy()
    for kind in meld_kinds:
        held[kind] += 1
    return held


def _context(hand: Hand, melds: tuple[Block, ...], winning: int, unique_wait: bool) -> Context:
    return Context(  # positional: a NamedTuple is made twice as fast without keywords
        hand.is_winner,  # winner
        WIND_INDEX[hand.seat_wind],  # seat
        WIND_INDEX[hand.prevailing_wind],  # prevailing
        SEAT_NUMBER[hand.seat_wind],  # seat_number
        hand.self_drawn,  # self_drawn
        hand.flags,  # flags
        winning,  # winning_tile
        unique_wait,  # unique_wait
        any(block.open for block in melds),  # has_open_meld
    )


def _winner_readings(
    split: Decomposition,
    winning: int,
    melds: tuple[Block, ...],
    ctx: Context,
    pe_ling: bool,
    summary: TileSummary,
) -> list[Reading]:
    """One reading per distinct set of `split` that the winning tile could have completed."""
    readings = []
    seen: list[Piece] = []
    closed: list[Block] | None = None
    for i, piece in enumerate(split):
        name, tile = piece
        if not (tile <= winning <= tile + 2 if name == "chow" else tile == winning):
            continue
        if (pe_ling and name != "pair") or piece in seen:
            continue
        seen.append(piece)
        if closed is None:
            closed = [*melds, *map(_CLOSED.__getitem__, split)]
        blocks = closed
        if not ctx.self_drawn and name != "pair":  # a discard completed this set: it is open
            blocks = closed.copy()
            blocks[len(melds) + i] = Block(name, tile, True)
        readings.append(Reading(tuple(blocks), ctx, summary, len(melds) + i, pe_ling))
    return readings


class _Scored:
    """A reading with its tally and capped total."""

    __slots__ = ("reading", "tally", "total", "valid")

    def __init__(self, reading: Reading, tally_: Tally, ruleset: Ruleset) -> None:
        options = ruleset.options
        self.reading = reading
        self.tally = tally_
        self.total = min(tally_.base_points << tally_.doublings, options.limit)
        counted = tally_.doublings
        if not options.bonus_doublings_count_toward_minimum:
            counted -= tally_.bonus_doublings
        self.valid = counted >= options.min_doublings

    def key(self) -> tuple[int, int, int]:
        return (self.total, self.tally.doublings, self.tally.base_points)


def _score_winner(hand: Hand, ruleset: Ruleset) -> ScoreResult:
    melds, meld_kinds = _meld_blocks(hand)
    concealed = counts_of(hand.concealed)
    held = _held(concealed, meld_kinds)
    winning = INDEX[hand.winning_tile]  # type: ignore[index]
    concealed_counts = tuple(concealed)
    splits = regular_decompositions(concealed_counts)
    cake_splits: tuple[Decomposition, ...] = ()
    cake_held = held
    if ruleset.options.pe_ling_eet_cake and winning == ONE_CIRCLE and held[ONE_BAMBOO] < 4:  # 1p read as 1s
        cake = concealed.copy()
        cake[ONE_CIRCLE] -= 1
        cake[ONE_BAMBOO] += 1
        cake_held = held.copy()
        cake_held[ONE_CIRCLE] -= 1
        cake_held[ONE_BAMBOO] += 1
        cake_splits = regular_decompositions(tuple(cake))
    irregular = None if melds else best_irregular(ruleset.limit_hands, concealed_counts, ruleset.options)
    if not splits and not cake_splits and irregular is None:
        return ScoreResult(False, 0, 0, 0, hand.ruleset, hand.role, reason_code="no_winning_shape")

    before = concealed.copy()
    before[winning] -= 1
    before_held = held.copy()
    before_held[winning] -= 1
    unique = len(wait_kinds(tuple(before), tuple(before_held), not melds, ruleset.name, 2)) == 1
    ctx = _context(hand, melds, winning, unique)
    readings: list[Reading] = []
    if splits:
        summary = summarize(held)
        for split in splits:
            readings.extend(_winner_readings(split, winning, melds, ctx, False, summary))
    if cake_splits:
        cake_summary = summarize(cake_held)
        for split in cake_splits:
            readings.extend(_winner_readings(split, ONE_BAMBOO, melds, ctx, True, cake_summary))
    if not readings and irregular is None:  # the cake read as 1s did not complete a pair of 1s
        return ScoreResult(False, 0, 0, 0, hand.ruleset, hand.role, reason_code="no_winning_shape")
    scored = [_Scored(r, tally(ruleset, r, hand.bonus), ruleset) for r in readings]
    if len(scored) == 1:  # the usual case: one reading
        best_valid = scored[0] if scored[0].valid else None
    else:
        best_valid = max((s for s in scored if s.valid), key=_Scored.key, default=None)

    limit, limit_reading = _best_limit(ruleset, irregular, ctx, readings)
    if limit is not None and (best_valid is None or limit.value >= best_valid.total):
        shown = limit_reading or _best_shown(scored)
        sets = _sets(shown) if shown else _irregular_sets(hand, ruleset)
        return _limit_result(hand, limit, limit.value, sets)
    if best_valid is not None:
        return _regular_result(hand, best_valid)
    most = scored[0] if len(scored) == 1 else max(scored, key=lambda s: (s.tally.doublings, s.total))
    return ScoreResult(
        False,
        0,
        most.tally.base_points,
        most.tally.doublings,
        hand.ruleset,
        hand.role,
        reason_code="too_few_doublings",
        items=most.tally.items,
        sets=_sets(most.reading),
    )


def _best_shown(scored: list[_Scored]) -> Reading | None:
    best = max(scored, key=_Scored.key, default=None)
    return best.reading if best else None


def _best_limit(
    ruleset: Ruleset, irregular: LimitHand | None, ctx: Context, readings: list[Reading]
) -> tuple[LimitHand | None, Reading | None]:
    """The highest limit hand of any shape, with the reading that forms it (None for irregular shapes)."""
    limits = ruleset.limit_hands
    best = irregular
    best_reading: Reading | None = None
    for reading in readings:
        regular = best_regular(limits, reading)
        if regular is not None and (best is None or regular.value > best.value):
            best, best_reading = regular, reading
    situation = best_situation(limits, ctx)  # the caller made sure the hand has a winning shape
    if situation is not None and (best is None or situation.value > best.value):
        best, best_reading = situation, None
    return best, best_reading


def _limit_result(hand: Hand, limit: LimitHand, value: int, sets: tuple[ScoredSet, ...]) -> ScoreResult:
    item = ScoreItem(limit.name, limit.name_en, "points", value)
    return ScoreResult(
        True,
        value,
        value,
        0,
        hand.ruleset,
        hand.role,
        limit_hand=LimitScore(limit.name, limit.name_en, value, limit.value),
        items=(item,),
        sets=sets,
    )


def _regular_result(hand: Hand, scored: _Scored) -> ScoreResult:
    return ScoreResult(
        True,
        scored.total,
        scored.tally.base_points,
        scored.tally.doublings,
        hand.ruleset,
        hand.role,
        items=scored.tally.items,
        sets=_sets(scored.reading),
    )


# every set the winning tile did not complete, as shown: made once, shared by all results
_SHOWN: dict[tuple[str, int, bool], ScoredSet] = {
    (kind, tile, is_open): ScoredSet(kind, block_tiles(Block(kind, tile)), is_open, False)
    for kind in ("chow", "pung", "kong", "pair")
    for tile in range(KINDS)
    if kind != "chow" or (tile < 27 and tile % 9 <= 6)  # a chow starts at 1-7 of a suit
    for is_open in (False, True)
}


def _sets(reading: Reading) -> tuple[ScoredSet, ...]:
    """Declared melds, then concealed sets, then pairs, then loose tiles; the winning set marked."""
    melds: list[ScoredSet] = []
    sets: list[ScoredSet] = []
    pairs: list[ScoredSet] = []
    loose: list[str] = []
    for i, block in enumerate((*reading.blocks, *reading.extra)):
        kind = block.kind
        if kind == "loose":
            loose.append(code_of(block.tile))
            continue
        if i == reading.winning:
            tiles = "1p1s" if reading.pe_ling else block_tiles(block)
            shown = ScoredSet(kind, tiles, block.open, True)
        else:
            shown = _SHOWN[kind, block.tile, block.open]
        (melds if block.declared else pairs if kind == "pair" else sets).append(shown)
    if loose:
        pairs.append(ScoredSet("loose", format_tiles(loose), False))
    return (*melds, *sets, *pairs)


def _irregular_sets(hand: Hand, ruleset: Ruleset) -> tuple[ScoredSet, ...]:
    counts = tuple(counts_of(hand.concealed))
    kind = "seven_pairs" if is_seven_pairs(counts, ruleset.options.seven_pairs_allow_four_equal) else "loose"
    return (ScoredSet(kind, format_tiles(hand.concealed), False, False),)


@lru_cache(maxsize=4096)
def _cover(counts: tuple[int, ...], honours: bool) -> tuple[tuple[str, int], ...]:
    """A display split of a loser's left-over tiles (after pungs): most tiles in chows and pairs."""
    i = next((k for k, c in enumerate(counts) if c), None)
    if i is None:
        return ()
    options: list[tuple[tuple[str, int], ...]] = []
    work = list(counts)
    if not honours and i <= len(counts) - 3 and counts[i + 1] and counts[i + 2]:
        work[i] -= 1
        work[i + 1] -= 1
        work[i + 2] -= 1
        options.append((("chow", i), *_cover(tuple(work), honours)))
        work = list(counts)
    if counts[i] >= 2:
        work[i] -= 2
        options.append((("pair", i), *_cover(tuple(work), honours)))
        work = list(counts)
    work[i] -= 1
    options.append((("loose", i), *_cover(tuple(work), honours)))
    return min(options, key=lambda pieces: sum(1 for name, _ in pieces if name == "loose"))


def _score_loser(hand: Hand, ruleset: Ruleset) -> ScoreResult:
    melds, meld_kinds = _meld_blocks(hand)
    concealed = counts_of(hand.concealed)
    held = _held(concealed, meld_kinds)
    ctx = _context(hand, melds, -1, False)
    blocks = list(melds)
    rest = list(concealed)
    for kind, n in enumerate(concealed):
        if n >= 3:
            blocks.append(Block("pung", kind, False, False))
            rest[kind] -= 3
    pair = _best_pair(ruleset, ctx, rest)
    if pair is not None:
        blocks.append(pair)
        rest[pair.tile] -= 2
    extra: list[Block] = []
    for lo, hi in ((0, 9), (9, 18), (18, 27), (27, 34)):
        for name, tile in _cover(tuple(rest[lo:hi]), lo == 27):
            extra.append(Block(name, tile + lo, False, False))
    reading = Reading(tuple(blocks), ctx, summarize(held), extra=tuple(extra))
    scored = _Scored(reading, tally(ruleset, reading, hand.bonus), ruleset)
    if not melds:
        half = _half_limit(ruleset, concealed)
        if half is not None and half[1] >= scored.total:
            limit, value = half
            sets = (ScoredSet("loose", format_tiles(hand.concealed), False),)
            return _limit_result(hand, limit, value, sets)
    return _regular_result(hand, scored)


def _best_pair(ruleset: Ruleset, ctx: Context, rest: list[int]) -> Block | None:
    """The pair worth most points by the ruleset's pair rows (first kind on a tie); None if none held."""
    best: Block | None = None
    best_value = (-1, -1)
    for kind, n in enumerate(rest):
        if n != 2:
            continue
        wind = 27 <= kind <= 30
        points, doublings = set_items(
            ruleset, "pair", kind, False, ctx.seat if wind else -1, ctx.prevailing if wind else -1, ctx.winner
        )
        value = (sum(item.value for item in points), sum(item.value for item in doublings))
        if value > best_value:
            best, best_value = Block("pair", kind, False, False), value
    return best


def _half_limit(ruleset: Ruleset, concealed: list[int]) -> tuple[LimitHand, int] | None:
    """Half the highest irregular limit hand the 13 concealed tiles wait on, or None."""
    best: LimitHand | None = None
    work = list(concealed)
    for kind in irregular_candidates(tuple(concealed)):
        if work[kind] >= 4:
            continue
        work[kind] += 1
        limit = best_irregular(ruleset.limit_hands, tuple(work), ruleset.options)
        work[kind] -= 1
        if limit is not None and (best is None or limit.value > best.value):
            best = limit
    return (best, best.value // 2) if best else None
