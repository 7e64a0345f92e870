"""Read the table: which tiles are the hand, and how they lie (bonus tiles, kongs, open sets, winning tile).

The rules, in the order they are applied (docs/READING.md says the same for players):

1. **Rows.** With several rows of tiles on the photo (another player's tiles, the wall behind the hand),
   the hand is the row of the largest tiles among the rows holding a hand's count (winner 14-18, loser
   13-17, bonus tiles not counted), else two neighbouring rows that do together (sets laid in front of the
   rack), else every tile. Rows of only flowers and seasons stay with the hand.
2. **Bonus.** Flowers and seasons are bonus tiles.
3. **Groups.** A row splits into groups where the gap between two neighbouring tiles is wider than half a
   tile; each row of a hand of several rows is a group of its own.
4. **Concealed kongs.** Four neighbouring tiles of one row with two face-down tiles and two equal face-up
   ones (NTS lays them `back X X back` or `X back back X`), or one face-down and three equal, are a
   concealed kong.
5. **Open sets.** When the hand lies in more than one group, the largest is the rack; a group apart from it
   that is made of sets (chows, pungs, kongs of four equal face-up tiles) is proposed as open sets, and a
   single tile apart is the winning tile.
6. **Kongs by count.** A winner holds 14 tiles plus one per kong (a loser 13): when more are left, four
   equal face-up tiles are an open kong, those laid together first, then in reading order.
7. **Winning tile.** The tile set apart, else the last tile read that is among the concealed ones.

Each decision is an `Assumption` with how sure it is; `problem` says why the tiles make no hand.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from mahjong_nts.reading.tiles import BACK, TileRead, is_bonus
from scoring.tiles import format_tiles

HAND_SIZE = {"winner": 14, "loser": 13}
"""Tiles of a hand without kongs; each kong adds one."""

EXTRA_ROOM = 4
"""A hand of four kongs holds four tiles more."""

GAP = 0.5
"""A gap wider than this share of the row's median tile width separates two groups."""

SURE, LIKELY, GUESS = 0.9, 0.7, 0.4
"""How sure a decision is: the table shows it plainly, it fits the usual way of laying tiles, a default."""


@dataclass(frozen=True)
class Assumption:
    """One decision about the table that the photo does not prove, in words, and how sure it is (0-1)."""

    what: str
    sure: float
    about: str = ""  # "rows", "melds", "winning_tile", "face_down" or a context key

    def to_dict(self) -> dict[str, object]:
        return {"what": self.what, "sure": self.sure}


@dataclass(frozen=True)
class ProposedMeld:
    """A set the table shows declared: its tiles, open or concealed, and the places of its tiles."""

    tiles: tuple[str, ...]
    open: bool
    places: tuple[int, ...]  # indices into TableReading.tiles (face-down tiles included)
    shown_by: str = "face_down"  # "face_down" (a concealed kong), "laid_apart" or "count" (an open kong)

    @property
    def text(self) -> str:
        return format_tiles(self.tiles)


@dataclass(frozen=True)
class TableReading:
    """The hand the tiles propose: bonus tiles, declared melds, concealed tiles and the winning tile."""

    tiles: tuple[TileRead, ...]
    role: str
    hand: tuple[int, ...] = ()  # places of the hand's tiles (bonus tiles included), reading order
    bonus: tuple[str, ...] = ()
    melds: tuple[ProposedMeld, ...] = ()
    concealed: tuple[str, ...] = ()  # reading order
    winning_tile: str | None = None
    assumed: tuple[Assumption, ...] = ()
    face_down_left: int = 0  # face-down tiles that are part of no concealed kong
    too_many_fours: bool = False  # more four-of-a-kinds than the count allows kongs: one was chosen

    @property
    def hand_codes(self) -> tuple[str, ...]:
        """The hand's playing tiles as read (no bonus tiles), face-down ones as "back"."""
        return tuple(self.tiles[i].code for i in self.hand if not is_bonus(self.tiles[i].code))


def read_table(tiles: Sequence[TileRead], role: str = "winner") -> TableReading:
    """Propose the hand of the tiles read (reading order): see the module docstring for the rules."""
    tiles = tuple(tiles)
    role = role if role in HAND_SIZE else "winner"
    assumed: list[Assumption] = []
    hand = _hand_places(tiles, role, assumed)
    bonus = tuple(dict.fromkeys(tiles[i].code for i in hand if is_bonus(tiles[i].code)))
    playing = [i for i in hand if not is_bonus(tiles[i].code)]
    groups = _groups(tiles, playing)
    melds = _concealed_kongs(tiles, list(_by_row(tiles, playing).values()), assumed)
    used = {place for meld in melds for place in meld.places}
    apart = _laid_apart(tiles, groups, used, melds, assumed)
    used |= {place for meld in melds for place in meld.places}
    free = [i for group in groups for i in group if i not in used]
    backs = sum(1 for i in free if tiles[i].code == BACK)
    free = [i for i in free if tiles[i].code != BACK]
    too_many = _kongs_by_count(tiles, free, melds, role, assumed)
    used = {place for meld in melds for place in meld.places}
    concealed = tuple(tiles[i].code for i in free if i not in used)
    winning = None
    if role == "winner" and concealed:
        winning = _winning_tile(tiles, apart, concealed, assumed)
    if backs:
        assumed.append(
            Assumption(f"{backs} face-down tile(s) are part of no concealed kong", GUESS, "face_down")
        )
    return TableReading(
        tiles=tiles,
        role=role,
        hand=tuple(hand),
        bonus=bonus,
        melds=tuple(melds),
        concealed=concealed,
        winning_tile=winning,
        assumed=tuple(assumed),
        face_down_left=backs,
        too_many_fours=too_many,
    )


def _hand_places(tiles: Sequence[TileRead], role: str, assumed: list[Assumption]) -> list[int]:
    """The places of the hand's tiles: the row(s) that hold a hand when the photo shows several."""
    by_row: dict[int | None, list[int]] = {}
    for i, tile in enumerate(tiles):
        by_row.setdefault(tile.row, []).append(i)
    counts = {row: sum(not is_bonus(tiles[i].code) for i in places) for row, places in by_row.items()}
    every = list(range(len(tiles)))
    if sum(1 for row, count in counts.items() if count and row is not None) <= 1:
        return every
    low, high = HAND_SIZE[role], HAND_SIZE[role] + EXTRA_ROOM
    size = {row: statistics.median(tiles[i].size for i in places) for row, places in by_row.items()}
    rows = [row for row in by_row if row is not None]
    singles = [(row,) for row in rows if low <= counts[row] <= high]
    pairs = [
        (row, row + 1) for row in rows if row + 1 in counts and low <= counts[row] + counts[row + 1] <= high
    ]
    candidates: Sequence[tuple[int, ...]] = singles or pairs
    sure = (SURE if len(singles) == 1 else LIKELY) if singles else LIKELY
    if not candidates:
        return every
    chosen: set[int | None] = set(max(candidates, key=lambda rs: min(size[r] for r in rs)))
    chosen |= {row for row, count in counts.items() if count == 0 or row is None}  # flowers, added tiles
    left_out = [row for row in by_row if row not in chosen]
    shown = " / ".join(" ".join(tiles[i].code for i in by_row[row]) for row in left_out)
    kept = ", ".join(str(row + 1) for row in sorted(r for r in chosen if r is not None))
    assumed.append(
        Assumption(f"hand in row {kept} of {len(rows)} (largest tiles); left out: {shown}", sure, "rows")
    )
    return [i for i in every if tiles[i].row in chosen]


def _by_row(tiles: Sequence[TileRead], places: Sequence[int]) -> dict[int | None, list[int]]:
    """The places per row of the photo, in reading order."""
    by_row: dict[int | None, list[int]] = {}
    for i in places:
        by_row.setdefault(tiles[i].row, []).append(i)
    return by_row


def _groups(tiles: Sequence[TileRead], places: Sequence[int]) -> list[list[int]]:
    """The places split into groups: by row, then where two neighbours lie more than half a tile apart."""
    groups: list[list[int]] = []
    for line in _by_row(tiles, places).values():
        widths = [b[2] - b[0] for b in (tiles[i].box for i in line) if b is not None]
        width = statistics.median(widths) if widths else 0.0
        group: list[int] = []
        for i in line:
            before, box = (tiles[group[-1]].box if group else None), tiles[i].box
            if (
                group
                and before is not None
                and box is not None
                and width > 0
                and box[0] - before[2] > GAP * width
            ):
                groups.append(group)
                group = []
            group.append(i)
        groups.append(group)
    return [group for group in groups if group]


def _concealed_kongs(
    tiles: Sequence[TileRead], groups: Sequence[Sequence[int]], assumed: list[Assumption]
) -> list[ProposedMeld]:
    """Windows of four neighbours in a row: two (then one) face-down tiles, the rest equal face-up (gaps
    do not matter: the face-down tiles say enough, and boxes of face-down tiles are often drawn smaller)."""
    melds: list[ProposedMeld] = []
    for group in groups:
        used = [False] * len(group)
        for backs_wanted in (2, 1):
            start = 0
            while start + 4 <= len(group):
                window = [tiles[i].code for i in group[start : start + 4]]
                faces = [code for code in window if code != BACK]
                if (
                    not any(used[start : start + 4])
                    and 4 - len(faces) == backs_wanted
                    and len(set(faces)) == 1
                ):
                    code = faces[0]
                    melds.append(ProposedMeld((code,) * 4, False, tuple(group[start : start + 4])))
                    layout = " ".join(window)
                    sure = SURE if backs_wanted == 2 else LIKELY
                    assumed.append(
                        Assumption(f"concealed kong {format_tiles((code,) * 4)} ({layout})", sure, "melds")
                    )
                    used[start : start + 4] = [True] * 4
                    start += 4
                else:
                    start += 1
    return melds


def _laid_apart(
    tiles: Sequence[TileRead],
    groups: Sequence[Sequence[int]],
    used: set[int],
    melds: list[ProposedMeld],
    assumed: list[Assumption],
) -> list[int]:
    """Open sets from the groups apart from the rack (added to `melds`); the single tiles set apart."""
    rest = [[i for i in group if i not in used] for group in groups]
    rest = [group for group in rest if group]
    if len(rest) < 2:
        return []
    rack = max(
        range(len(rest)), key=lambda g: (len(rest[g]), statistics.median(tiles[i].size for i in rest[g]))
    )
    apart: list[int] = []
    for g, group in enumerate(rest):
        if g == rack:
            continue
        if len(group) == 1 and tiles[group[0]].code != BACK:
            apart.append(group[0])
            continue
        sets = _split_sets(tiles, group)
        for places in sets:
            codes = tuple(tiles[i].code for i in places)
            melds.append(ProposedMeld(codes, True, places, "laid_apart"))
            assumed.append(
                Assumption(f"open set {format_tiles(codes)} (laid apart from the rack)", LIKELY, "melds")
            )
    return apart


def _split_sets(tiles: Sequence[TileRead], group: Sequence[int]) -> list[tuple[int, ...]]:
    """The group read left to right as sets (four equal, or a chow or pung of three); [] if it is not."""
    sets: list[tuple[int, ...]] = []
    start = 0
    while start < len(group):
        four = [tiles[i].code for i in group[start : start + 4]]
        three = four[:3]
        if len(four) == 4 and len(set(four)) == 1 and four[0] != BACK:
            sets.append(tuple(group[start : start + 4]))
            start += 4
        elif len(three) == 3 and _is_set(three):
            sets.append(tuple(group[start : start + 3]))
            start += 3
        else:
            return []
    return sets


def _is_set(codes: Sequence[str]) -> bool:
    """Three codes that make a pung or a chow (in any order)."""
    if BACK in codes or any(is_bonus(code) for code in codes):
        return False
    if len(set(codes)) == 1:
        return True
    suits = {code[1] for code in codes}
    numbers = sorted(int(code[0]) for code in codes)
    return len(suits) == 1 and suits != {"z"} and numbers == list(range(numbers[0], numbers[0] + 3))


def _kongs_by_count(
    tiles: Sequence[TileRead],
    free: Sequence[int],
    melds: list[ProposedMeld],
    role: str,
    assumed: list[Assumption],
) -> bool:
    """Open kongs of four equal face-up tiles when the count needs them; True when there was a choice."""
    extra = len(free) - (HAND_SIZE[role] - 3 * len(melds))
    where: dict[str, list[int]] = {}
    for i in free:
        where.setdefault(tiles[i].code, []).append(i)
    fours = [code for code, places in where.items() if len(places) == 4]
    if extra <= 0 or len(fours) < extra:
        return False  # nothing to explain, or more tiles than kongs explain: the scorer names the count
    together = [code for code in fours if _laid_together(where[code], free)]
    order = sorted(fours, key=lambda code: (code not in together, fours.index(code)))
    chosen, choice = order[:extra], len(fours) > extra
    count = f"{len(free)} tiles read"
    for code in chosen:
        meld = ProposedMeld((code,) * 4, True, tuple(where[code]), "count")
        melds.append(meld)
        if choice:
            others = ", ".join(c for c in fours if c not in chosen)
            why = "laid together" if code in together else "read first"
            assumed.append(
                Assumption(f"open kong {meld.text} ({count}; {why}; not {others})", GUESS, "melds")
            )
        else:
            assumed.append(
                Assumption(f"open kong {meld.text} (four face-up {code}, {count})", LIKELY, "melds")
            )
    return choice


def _laid_together(places: Sequence[int], free: Sequence[int]) -> bool:
    """The four places follow each other among the free tiles (laid as one set)."""
    order = [free.index(i) for i in places]
    return max(order) - min(order) == 3


def _winning_tile(
    tiles: Sequence[TileRead], apart: Sequence[int], concealed: Sequence[str], assumed: list[Assumption]
) -> str:
    """The tile set apart from the rest, else the last tile read among the concealed tiles."""
    held = set(concealed)
    apart_codes = [tiles[i].code for i in apart if tiles[i].code in held]
    if apart_codes:
        code = apart_codes[-1]
        sure = LIKELY if len(apart_codes) == 1 else GUESS
        assumed.append(Assumption(f"winning_tile {code} (set apart)", sure, "winning_tile"))
        return code
    code = concealed[-1]
    assumed.append(Assumption(f"winning_tile {code} (last tile read)", GUESS, "winning_tile"))
    return code
