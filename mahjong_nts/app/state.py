"""The hand editor: the one source of truth for a photographed hand, and the plain functions that apply a
correction to it (from the tile table, the notation box, an alternative, the bonus list)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mahjong_nts.app.photo import BACK, UNCERTAIN_BELOW, Box, PhotoReading
from scoring import InputError, format_tiles, parse_tiles

BONUS_SUITS = ("f", "y")


@dataclass(frozen=True)
class EditorTile:
    """A tile in the editor; `read_as` and `confidence` say what the recognizer saw (None: added by hand)."""

    code: str
    confidence: float | None = None
    box: Box | None = None
    alternatives: tuple[str, ...] = ()
    read_as: str | None = None
    row: int | None = None  # row on the photo

    @property
    def uncertain(self) -> bool:
        """Read by the recognizer with low confidence and not yet changed by the player."""
        return self.confidence is not None and self.confidence < UNCERTAIN_BELOW and self.code == self.read_as

    @property
    def corrected(self) -> bool:
        return self.read_as is not None and self.code != self.read_as

    @property
    def state(self) -> str:
        """How the photo marks it: "corrected", "unsure" or "sure"."""
        return "corrected" if self.corrected else "unsure" if self.uncertain else "sure"


@dataclass
class HandEditor:
    """Everything the player set for one photo; stored in st.session_state under the photo's hash.

    `version` goes up whenever the tiles change, so the widgets that show them are drawn afresh.
    """

    tiles: list[EditorTile] = field(default_factory=list)
    bonus: list[str] = field(default_factory=list)
    version: int = 0
    winning_tile: str | None = None
    self_drawn: bool = False
    flags: list[str] = field(default_factory=list)
    seat_wind: str = "E"
    prevailing_wind: str = "E"
    ruleset: str = "app"
    declared_open: dict[str, bool] = field(default_factory=dict)  # proposed set id -> open on the table
    kong_concealed: dict[str, bool] = field(default_factory=dict)  # kong tile code -> concealed kong
    hinted_kongs: list[str] = field(default_factory=list)  # kongs made from face-down tiles
    typed_open: str = ""  # open sets typed in notation, for a split the scorer did not propose

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

    def set_tiles(self, tiles: list[EditorTile]) -> None:
        """Replace the tiles; bonus codes among them move to the bonus list."""
        kept = [t for t in tiles if not is_bonus(t.code)]
        self.bonus = merge_bonus(self.bonus, [t.code for t in tiles if is_bonus(t.code)])
        self.tiles = kept
        self.version += 1


def is_bonus(code: str) -> bool:
    """Flowers (f) and seasons (y) lie beside the hand."""
    return len(code) == 2 and code[1] in BONUS_SUITS


def merge_bonus(bonus: Iterable[str], more: Iterable[str]) -> list[str]:
    """Bonus tiles, each at most once (there is one of every flower and season), sorted."""
    return sorted(set(bonus) | set(more), key=lambda c: (c[1], c[0]))


def editor_from_reading(reading: PhotoReading) -> HandEditor:
    """A fresh editor from what the recognizer read: bonus tiles go to the bonus list."""
    tiles = [
        EditorTile(t.code, t.confidence, t.box, t.alternatives, read_as=t.code, row=t.row)
        for t in reading.tiles
        if not is_bonus(t.code)
    ]
    bonus = merge_bonus([], (t.code for t in reading.tiles if is_bonus(t.code)))
    codes = [t.code for t in tiles if t.code != BACK]
    return HandEditor(tiles=tiles, bonus=bonus, winning_tile=codes[-1] if codes else None)


def replace_codes(tiles: Sequence[EditorTile], new_codes: Sequence[str]) -> list[EditorTile]:
    """The tiles after the player typed `new_codes` (face-up tiles, no bonus).

    Tiles whose code is still there keep their place and photo box; a dropped tile's place goes to the next
    new code (so one changed letter is a correction of that tile), then face-down tiles turn into new codes,
    and what is left is added at the end.
    """
    need = Counter(new_codes)
    slots: list[EditorTile | None] = []
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
    result: list[EditorTile] = []
    for i, slot in enumerate(slots):
        if slot is None:
            if extra:
                result.append(replace(tiles[i], code=extra.pop(0)))
        else:
            result.append(slot)
    for i, tile in enumerate(result):
        if tile.code == BACK and extra:
            result[i] = replace(tile, code=extra.pop(0))
    result.extend(EditorTile(code) for code in extra)
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
        raise NotationError(f"{duplicated[0]} appears twice; there is one of every flower and season")
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


def photo_rows(tiles: Sequence[EditorTile]) -> dict[int, list[str]]:
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
    editor.set_tiles([*editor.tiles, EditorTile(code)])


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
    tiles: list[EditorTile] = []
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
        tiles.append(EditorTile(code_of_label.get(row[TILE_COLUMN], row[TILE_COLUMN])))
        changed = True
    if changed:
        editor.set_tiles(tiles)
    return changed


@dataclass(frozen=True)
class KongHint:
    """Face-down tiles that look like a concealed kong of `code` (its face-up tiles flank them)."""

    code: str
    indices: tuple[int, ...]  # the face-down tiles


def kong_hints(tiles: Sequence[EditorTile]) -> list[KongHint]:
    """Runs of face-down tiles beside a tile that they complete to four: a concealed kong on the table shows
    its outer two tiles and hides the middle two."""
    counts = Counter(t.code for t in tiles)
    hints: list[KongHint] = []
    i = 0
    while i < len(tiles):
        if tiles[i].code != BACK:
            i += 1
            continue
        j = i
        while j < len(tiles) and tiles[j].code == BACK:
            j += 1
        neighbours = [tiles[k].code for k in (i - 1, j) if 0 <= k < len(tiles) and tiles[k].code != BACK]
        for code in neighbours:
            if not is_bonus(code) and counts[code] + (j - i) == 4:
                hints.append(KongHint(code, tuple(range(i, j))))
                break
        i = j
    return hints


def apply_kong_hint(editor: HandEditor, hint: KongHint) -> None:
    """Turn the face-down tiles of `hint` into its code and mark that kong concealed."""
    tiles = list(editor.tiles)
    for i in hint.indices:
        tiles[i] = replace(tiles[i], code=hint.code)
    editor.kong_concealed[hint.code] = True
    if hint.code not in editor.hinted_kongs:
        editor.hinted_kongs.append(hint.code)
    editor.set_tiles(tiles)
