"""The hand editor: the player's changes on top of what the photo proposes (tiles corrected, added or left
out and bonus tiles as `Corrections`, the situation, the switches of sets and kongs; never a copy of the
tiles read), and the plain functions that apply a correction to it (from the tile table, the notation box,
an alternative, the bonus list). The hand itself is always the reading of these tiles
(`mahjong_nts.reading`) with the switches applied."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from mahjong_nts.app.photo import PhotoReading
from mahjong_nts.reading.tiles import BACK, TileRead, is_bonus
from scoring import InputError, format_tiles, parse_tiles
from scoring.rulesets import DEFAULT_RULESET


@dataclass(frozen=True)
class Corrections:
    """The player's changes to the tiles a photo read, and only those: tiles changed (by their place among
    the reading's playing tiles), tiles left out, tiles added (after the reading's), and the bonus tiles
    when the player changed them. Applied on top of the reading every run (`apply`), so an unchanged tile
    is always the reading's and a new reading starts with no changes."""

    changed: tuple[tuple[int, str], ...] = ()  # (place in the reading, code the player chose)
    removed: frozenset[int] = frozenset()  # places in the reading left out
    added: tuple[TileRead, ...] = ()  # tiles that are no tile of the reading (typed, tapped in)
    bonus: tuple[str, ...] | None = None  # the bonus tiles where the player changed them; None: the reading's

    @property
    def empty(self) -> bool:
        return not (self.changed or self.removed or self.added) and self.bonus is None

    def apply(self, read: Sequence[TileRead]) -> list[TileRead]:
        """The tiles: the reading's playing tiles (`read_tiles`) with these changes."""
        codes = dict(self.changed)
        tiles = [
            replace(tile, code=codes[i]) if i in codes else tile
            for i, tile in enumerate(read)
            if i not in self.removed
        ]
        return [*tiles, *self.added]


def read_tiles(tiles: Sequence[TileRead]) -> tuple[TileRead, ...]:
    """The playing tiles of a reading (bonus tiles apart), each with what it was read as."""
    return tuple(t if t.read_as else replace(t, read_as=t.code) for t in tiles if not is_bonus(t.code))


def read_bonus(tiles: Sequence[TileRead]) -> list[str]:
    """The bonus tiles of a reading."""
    return merge_bonus([], (t.code for t in tiles if is_bonus(t.code)))


def corrections_for(
    read: Sequence[TileRead], tiles: Sequence[TileRead], bonus: tuple[str, ...] | None
) -> Corrections:
    """The changes that turn the reading's tiles `read` into `tiles` (`apply` gives `tiles` back): a tile
    that is a tile of the reading (all but its code the same, in reading order) is that tile, maybe changed;
    every other tile is added."""
    changed: list[tuple[int, str]] = []
    removed: set[int] = set()
    added: list[TileRead] = []
    j = 0
    for tile in tiles:
        if tile.read_as is not None and not added:
            k = j
            while k < len(read) and replace(tile, code=read[k].code) != read[k]:
                k += 1
            if k < len(read):
                removed.update(range(j, k))
                if tile.code != read[k].code:
                    changed.append((k, tile.code))
                j = k + 1
                continue
        added.append(tile)
    removed.update(range(j, len(read)))
    return Corrections(tuple(changed), frozenset(removed), tuple(added), bonus)


@dataclass(init=False)
class HandEditor:
    """Everything the player set for one photo; stored in st.session_state under the photo's hash.

    Of the tiles it keeps only the player's changes (`changes`); `tiles` and `bonus` are the reading of
    the photo it is bound to (`bind`, every run, from the photo's cached reading: not part of its state)
    with those changes applied. `version` goes up whenever the tiles change, so the widgets that show them
    are drawn afresh.
    """

    changes: Corrections
    reading_key: str | None  # the photo whose reading the changes are on; None: tiles typed, no photo
    version: int
    winning_tile: str | None  # the player's choice; None: the reading's (the tile set apart, ...)
    self_drawn: bool
    flags: list[str]
    seat_wind: str
    prevailing_wind: str
    ruleset: str
    declared_open: dict[str, bool]  # set id -> open, where the player switched
    kong_concealed: dict[str, bool]  # kong tile code -> concealed kong
    typed_open: str  # open sets typed in notation, for a split the scorer did not propose
    melds: list[tuple[str, bool]]  # sets tapped in: (tiles, open); taken
    # from the tiles above when all are there, else on their own beside them
    bad_notation: tuple[int, str] | None  # (version, text) typed that is no hand: no score meanwhile

    def __init__(
        self,
        tiles: Sequence[TileRead] = (),
        bonus: Iterable[str] | None = None,
        *,
        changes: Corrections | None = None,
        reading_key: str | None = None,
        version: int = 0,
        winning_tile: str | None = None,
        self_drawn: bool = False,
        flags: list[str] | None = None,
        seat_wind: str = "E",
        prevailing_wind: str = "E",
        ruleset: str = DEFAULT_RULESET,
        declared_open: dict[str, bool] | None = None,
        kong_concealed: dict[str, bool] | None = None,
        typed_open: str = "",
        melds: list[tuple[str, bool]] | None = None,
        bad_notation: tuple[int, str] | None = None,
    ) -> None:
        self._read: tuple[TileRead, ...] = ()
        self._read_bonus: tuple[str, ...] = ()
        self.changes = changes if changes is not None else Corrections()
        self.reading_key = reading_key
        self.version = version
        self.winning_tile = winning_tile
        self.self_drawn = self_drawn
        self.flags = list(flags or [])
        self.seat_wind = seat_wind
        self.prevailing_wind = prevailing_wind
        self.ruleset = ruleset
        self.declared_open = dict(declared_open or {})
        self.kong_concealed = dict(kong_concealed or {})
        self.typed_open = typed_open
        self.melds = list(melds or [])
        self.bad_notation = bad_notation
        if tiles:
            self.tiles = list(tiles)
        if bonus is not None:
            self.bonus = list(bonus)

    def bind(self, reading: PhotoReading | None) -> HandEditor:
        """Put the changes on top of this reading (each run: the photo's reading is cached, not stored here).
        A reading of another photo gives no tiles of a photo; no reading (photo taken away) keeps the last."""
        if reading is None:
            return self
        if reading.key == self.reading_key:
            self._read = read_tiles(reading.tiles)
            self._read_bonus = tuple(read_bonus(reading.tiles))
        else:
            self._read, self._read_bonus = (), ()
        return self

    def copy(self, tiles: Sequence[TileRead] | None = None) -> HandEditor:
        """A copy on the same reading (for a trial), with other tiles where given."""
        other = replace(self)
        other._read, other._read_bonus = self._read, self._read_bonus
        if tiles is not None:
            other.tiles = list(tiles)
        return other

    @property
    def tiles(self) -> list[TileRead]:
        """The face-up and face-down tiles in hand and in sets: the reading's, with the player's changes."""
        return self.changes.apply(self._read)

    @tiles.setter
    def tiles(self, tiles: Sequence[TileRead]) -> None:
        self.changes = corrections_for(self._read, tiles, self.changes.bonus)

    @property
    def bonus(self) -> list[str]:
        """The bonus tiles: the reading's, or the player's where changed."""
        return list(self._read_bonus if self.changes.bonus is None else self.changes.bonus)

    @bonus.setter
    def bonus(self, codes: Iterable[str]) -> None:
        chosen = tuple(codes)
        self.changes = replace(self.changes, bonus=None if chosen == self._read_bonus else chosen)

    @property
    def codes(self) -> list[str]:
        """Face-up tiles in hand and in sets, in reading order (no bonus tiles, no face-down ones)."""
        return [t.code for t in self.tiles if t.code != BACK]

    @property
    def face_down(self) -> int:
        return sum(1 for t in self.tiles if t.code == BACK)

    @property
    def notation(self) -> str:
        """The hand in CONTRACT notation, bonus tiles included (face-down tiles have no notation)."""
        return format_tiles([*self.codes, *self.bonus])

    def set_tiles(self, tiles: list[TileRead]) -> None:
        """Replace the tiles; bonus codes among them move to the bonus list."""
        kept = [t for t in tiles if not is_bonus(t.code)]
        self.bonus = merge_bonus(self.bonus, [t.code for t in tiles if is_bonus(t.code)])
        self.tiles = kept
        self.version += 1


def merge_bonus(bonus: Iterable[str], more: Iterable[str]) -> list[str]:
    """Bonus tiles, each at most once (there is one of every flower and season), sorted."""
    return sorted(set(bonus) | set(more), key=lambda c: (c[1], c[0]))


def editor_from_reading(reading: PhotoReading) -> HandEditor:
    """A fresh editor on what the recognizer read: no changes yet (bonus tiles are the bonus list)."""
    return HandEditor(reading_key=reading.key).bind(reading)


def replace_codes(tiles: Sequence[TileRead], new_codes: Sequence[str]) -> list[TileRead]:
    """The tiles after the player typed `new_codes` (face-up tiles, no bonus).

    Tiles whose code is still there keep their place and photo box; a dropped tile's place goes to the next
    new code (so one changed letter is a correction of that tile), then face-down tiles turn into new codes,
    and what is left is added at the end.
    """
    need = Counter(new_codes)
    slots: list[TileRead | None] = []
    for tile in tiles:
        if tile.code == BACK:
            slots.append(tile)
        elif need[tile.code] > 0:
            need[tile.code] -= 1
            slots.append(tile)
        else:
            slots.append(None)
    extra: list[str] = []
    for code in new_codes:
        if need[code] > 0:
            need[code] -= 1
            extra.append(code)
    result: list[TileRead] = []
    for i, slot in enumerate(slots):
        if slot is None:
            if extra:
                result.append(replace(tiles[i], code=extra.pop(0)))
        else:
            result.append(slot)
    for i, tile in enumerate(result):
        if tile.code == BACK and extra:
            result[i] = replace(tile, code=extra.pop(0))
    result.extend(TileRead(code) for code in extra)
    return result


class NotationError(InputError):
    """The notation box holds something that is not a hand; str() is one line."""


def apply_notation(editor: HandEditor, text: str) -> bool:
    """Apply the notation box; True when the hand changed. Raises NotationError/TileError (one line).

    The typed text is the whole hand: face-down tiles it does not name are dropped.
    """
    codes = parse_tiles(text)
    bonus = [c for c in codes if is_bonus(c)]
    duplicated = sorted(c for c, n in Counter(bonus).items() if n > 1)
    if duplicated:
        raise NotationError(
            f"{duplicated[0]} appears twice; there is one of every flower and season",
            code="bonus_twice",
            params={"count": Counter(bonus)[duplicated[0]], "tile": duplicated[0]},
        )
    playing = [c for c in codes if not is_bonus(c)]
    if Counter(playing) == Counter(editor.codes) and sorted(bonus) == sorted(editor.bonus):
        return False
    editor.tiles = [t for t in replace_codes(editor.tiles, playing) if t.code != BACK]
    editor.bonus = merge_bonus([], bonus)
    editor.version += 1
    return True


def set_tile(editor: HandEditor, index: int, code: str) -> bool:
    """Change one tile (e.g. to an alternative); a bonus code moves it to the bonus list."""
    if not 0 <= index < len(editor.tiles) or editor.tiles[index].code == code:
        return False
    tiles = list(editor.tiles)
    tiles[index] = replace(tiles[index], code=code)
    editor.set_tiles(tiles)
    return True


def photo_rows(tiles: Sequence[TileRead]) -> dict[int, list[str]]:
    """Codes per row of the photo, top row first; empty when the tiles lie in one row."""
    rows: dict[int, list[str]] = {}
    for tile in tiles:
        if tile.row is not None:
            rows.setdefault(tile.row, []).append(tile.code)
    return dict(sorted(rows.items())) if len(rows) > 1 else {}


def drop_row(editor: HandEditor, row: int) -> None:
    """Leave out every tile of one row of the photo (tiles lying on the table, not in the hand)."""
    editor.set_tiles([t for t in editor.tiles if t.row != row])


def add_tile(editor: HandEditor, code: str) -> None:
    editor.set_tiles([*editor.tiles, TileRead(code)])


# Column names of the tile table (the same in every language; the labels are translated in the UI).
TILE_COLUMN = "tile"
REMOVE_COLUMN = "remove"


def apply_table_edits(editor: HandEditor, edits: Mapping[str, Any], code_of_label: Mapping[str, str]) -> bool:
    """Apply st.data_editor's edit state (edited_rows, added_rows, deleted_rows); True when tiles changed.

    Rows ticked "remove" are dropped; an added row without a tile yet is left alone (not applied) so the
    player can still choose it.
    """
    edited: Mapping[Any, Mapping[str, Any]] = edits.get("edited_rows", {}) or {}
    added: Sequence[Mapping[str, Any]] = edits.get("added_rows", []) or []
    deleted = {int(i) for i in edits.get("deleted_rows", []) or []}
    if any(not row.get(TILE_COLUMN) for row in added):
        return False
    tiles: list[TileRead] = []
    changed = bool(deleted)
    for i, tile in enumerate(editor.tiles):
        change = edited.get(i, edited.get(str(i), {}))  # type: ignore[call-overload]
        if i in deleted or change.get(REMOVE_COLUMN):
            changed = True
            continue
        label = change.get(TILE_COLUMN)
        if label is not None and code_of_label.get(label, tile.code) != tile.code:
            tile = replace(tile, code=code_of_label[label])
            changed = True
        tiles.append(tile)
    for row in added:
        if row.get(REMOVE_COLUMN):
            continue
        tiles.append(TileRead(code_of_label.get(row[TILE_COLUMN], row[TILE_COLUMN])))
        changed = True
    if changed:
        editor.set_tiles(tiles)
    return changed
