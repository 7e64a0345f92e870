"""Turn the tiles read from one photo plus the given context (defaults.json, sidecar) into a `score` input.

The rules (also in docs/BATCH.md and `mahjong-nts batch --help`):

- the hand's tiles: with several rows on the photo (other players' tiles, the wall), the row of the largest
  tiles among the rows holding a hand's count (winner 14-18, loser 13-17, bonus tiles not counted), else two
  neighbouring rows that do together (melds in front of the rack), else every tile; rows holding only
  flowers and seasons stay; the rows left out are listed as assumed;
- context keys not given take the stated defaults: seat and prevailing wind E, ruleset app, role winner,
  self_drawn false, no flags; each one taken is listed as assumed;
- `bonus`: given, else the flowers and seasons read;
- `melds`: given, else the kongs seen in the photo: 4 tiles in a row with 1 or 2 face-down tiles among 3 or 2
  equal face-up ones are a concealed kong (NTS lays one or two tiles of a concealed kong face down); four
  equal face-up tiles are an open kong only when the count says so (a winner holds 14 tiles plus 1 per kong,
  a loser 13 plus 1 per kong; with 14 tiles, four equal tiles are a pung plus one tile elsewhere);
- `concealed`: given, else the face-up tiles read minus the bonus tiles and the melds' tiles (a face-down tile
  stands in for a tile of a concealed kong);
- `winning_tile` (winner only): given, else the last tile in reading order that is among the concealed tiles.
"""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring import InputError, format_tiles, parse_tiles

BACK = "back"
CONTEXT_KEYS = ("role", "ruleset", "seat_wind", "prevailing_wind", "self_drawn", "flags")
TILE_KEYS = ("concealed", "melds", "bonus", "winning_tile")
HAND_KEYS = CONTEXT_KEYS + TILE_KEYS
STATED_DEFAULTS: dict[str, Any] = {
    "ruleset": "app",
    "role": "winner",
    "seat_wind": "E",
    "prevailing_wind": "E",
    "self_drawn": False,
    "flags": [],
}
HAND_SIZE = {"winner": 14, "loser": 13}


@dataclass(frozen=True)
class ReadTile:
    """A tile as the hand planner needs it: code (or "back"), photo row, size (longer box side, pixels)."""

    code: str
    row: int = 0
    size: float = 0.0


@dataclass(frozen=True)
class PlannedHand:
    """A `score` input object and the list of what was assumed rather than given or read."""

    hand: dict[str, Any]
    assumed: tuple[str, ...]


def is_bonus(code: str) -> bool:
    """Flowers (f) and seasons (y) lie beside the hand and go to `bonus`."""
    return code.endswith(("f", "y"))


def plan_hand(tiles: Sequence[ReadTile], given: Mapping[str, Any]) -> PlannedHand:
    """Build the hand for one photo: `tiles` read in reading order, `given` merged defaults + sidecar."""
    assumed: list[str] = []
    hand: dict[str, Any] = {}
    for key in CONTEXT_KEYS:
        if key in given:
            hand[key] = given[key]
        elif key != "self_drawn" or hand["role"] == "winner":  # role comes first; a loser drew nothing
            hand[key] = STATED_DEFAULTS[key]
            assumed.append(f"{key} {show_value(STATED_DEFAULTS[key])}")
    role = hand["role"] if hand["role"] in HAND_SIZE else "winner"
    if "concealed" not in given:
        tiles = _hand_rows(tiles, role, assumed)
    codes = [tile.code for tile in tiles]
    rows = [tile.row for tile in tiles]

    read_bonus = [code for code in codes if is_bonus(code)]
    hand["bonus"] = format_tiles(_tiles(given["bonus"], "bonus") if "bonus" in given else read_bonus)

    face_up = [code for code in codes if code != BACK and not is_bonus(code)]
    given_concealed = _tiles(given["concealed"], "concealed") if "concealed" in given else None
    if "melds" in given:
        melds = _given_melds(given["melds"])
    else:
        melds = _kongs_in_photo(codes, rows, given_concealed is None, role, assumed)
    if given_concealed is not None:
        concealed = given_concealed
    else:
        concealed = _remaining_tiles(face_up, codes.count(BACK), melds, strict=True)
        if not concealed and not melds:
            raise InputError("no tiles read in the photo; give the hand in a sidecar")
        if not melds:
            assumed.append(f"all {len(concealed)} tiles concealed (no melds declared)")
    hand["concealed"] = format_tiles(concealed)
    hand["melds"] = [{"tiles": format_tiles(tiles), "open": is_open} for tiles, is_open in melds]

    if "winning_tile" in given:
        hand["winning_tile"] = given["winning_tile"]
    elif role == "winner" and concealed:
        hand["winning_tile"] = _last_read(face_up, concealed)
        assumed.append(f"winning_tile {hand['winning_tile']} (last tile read)")
    return PlannedHand(hand, tuple(assumed))


def _hand_rows(tiles: Sequence[ReadTile], role: str, assumed: list[str]) -> Sequence[ReadTile]:
    """The tiles of the hand's row(s) when the photo shows several rows (see the module docstring)."""
    by_row: dict[int, list[ReadTile]] = {}
    for tile in tiles:
        by_row.setdefault(tile.row, []).append(tile)
    counts = {row: sum(not is_bonus(tile.code) for tile in line) for row, line in by_row.items()}
    if sum(1 for count in counts.values() if count) <= 1:
        return tiles
    low, high = HAND_SIZE[role], HAND_SIZE[role] + 4
    size = {row: statistics.median(tile.size for tile in line) for row, line in by_row.items()}
    singles = [(row,) for row, count in counts.items() if low <= count <= high]
    pairs = [
        (row, row + 1) for row in counts if row + 1 in counts and low <= counts[row] + counts[row + 1] <= high
    ]
    for candidates in (singles, pairs):
        if candidates:
            chosen = set(max(candidates, key=lambda rows: min(size[row] for row in rows)))
            break
    else:
        return tiles
    chosen |= {row for row, count in counts.items() if count == 0}  # a row of flowers beside the hand
    left_out = [row for row in by_row if row not in chosen]
    shown = " / ".join(" ".join(tile.code for tile in by_row[row]) for row in left_out)
    kept = ", ".join(str(row + 1) for row in sorted(chosen))
    assumed.append(f"hand in row {kept} of {len(by_row)} (largest tiles); left out: {shown}")
    return [tile for tile in tiles if tile.row in chosen]


def show_value(value: Any) -> str:
    """A context value as written in JSON: true/false, [last_tile], E."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def _tiles(value: Any, key: str) -> list[str]:
    """A tile field of the sidecar: a tile string (CONTRACT) or a list of tile strings."""
    if isinstance(value, str):
        return parse_tiles(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return parse_tiles(" ".join(value))
    raise InputError(f"'{key}' must be a tile string such as \"123m11z\"")


def _given_melds(value: Any) -> list[tuple[list[str], bool]]:
    if not isinstance(value, list):
        raise InputError('\'melds\' must be a list of {"tiles": ..., "open": ...} objects')
    melds = []
    for meld in value:
        if not isinstance(meld, Mapping) or "tiles" not in meld:
            raise InputError("each meld must be an object with 'tiles' (and 'open')")
        unknown = sorted(set(meld) - {"tiles", "open"})
        if unknown:
            raise InputError(f"unknown key '{unknown[0]}' in a meld (allowed: tiles, open)")
        is_open = meld.get("open", True)
        if not isinstance(is_open, bool):
            raise InputError("a meld's 'open' must be true or false")
        melds.append((_tiles(meld["tiles"], "melds"), is_open))
    return melds


def _kongs_in_photo(
    codes: Sequence[str], rows: Sequence[int], count_kongs: bool, role: str, assumed: list[str]
) -> list[tuple[list[str], bool]]:
    """Concealed kongs shown with face-down tiles; open kongs of four face-up tiles if the count says so."""
    melds: list[tuple[list[str], bool]] = [([code] * 4, False) for code in _concealed_kongs(codes, rows)]
    assumed.extend(f"concealed kong {format_tiles(tiles)} (face-down tiles)" for tiles, _ in melds)
    if not count_kongs:
        return melds
    face_up = [code for code in codes if code != BACK and not is_bonus(code)]
    free = _remaining_tiles(face_up, codes.count(BACK), melds, strict=False)
    extra = len(free) - (HAND_SIZE[role] - 3 * len(melds))
    fours = sorted(code for code, n in Counter(free).items() if n == 4)
    if extra <= 0 or len(fours) < extra:
        return melds  # nothing to explain, or too many tiles that no kong explains: the scorer says so
    if len(fours) > extra:
        raise InputError(
            f"{len(free)} tiles read, so {extra} kong(s) among {', '.join(fours)}: "
            "declare the melds in a sidecar"
        )
    for code in fours:
        melds.append(([code] * 4, True))
        assumed.append(f"open kong {format_tiles([code] * 4)} (four face-up {code}, {len(free)} tiles read)")
    return melds


def _concealed_kongs(codes: Sequence[str], rows: Sequence[int]) -> list[str]:
    """Windows of 4 adjacent tiles in a row: 2 (then 1) face-down tiles and the rest equal face-up tiles."""
    by_row: dict[int, list[str]] = {}
    for code, row in zip(codes, rows, strict=True):
        if not is_bonus(code):
            by_row.setdefault(row, []).append(code)
    kongs: list[str] = []
    for line in by_row.values():
        used = [False] * len(line)
        for backs_wanted in (2, 1):
            start = 0
            while start + 4 <= len(line):
                window = line[start : start + 4]
                faces = [code for code in window if code != BACK]
                if (
                    not any(used[start : start + 4])
                    and 4 - len(faces) == backs_wanted
                    and len(set(faces)) == 1
                ):
                    kongs.append(faces[0])
                    used[start : start + 4] = [True] * 4
                    start += 4
                else:
                    start += 1
    return kongs


def _remaining_tiles(
    face_up: Sequence[str], backs: int, melds: Sequence[tuple[list[str], bool]], strict: bool
) -> list[str]:
    """Face-up tiles read minus the melds' tiles, in reading order; a face-down tile fills a closed kong."""
    pool = Counter(face_up)
    for tiles, is_open in melds:
        for tile in tiles:
            if not is_open and backs > 0:  # a concealed kong takes the face-down tiles first
                backs -= 1
            elif pool[tile] > 0:
                pool[tile] -= 1
            elif strict:
                raise InputError(
                    f"meld {format_tiles(tiles)}: {tile} is not among "
                    "the tiles read; give 'concealed' in the sidecar too"
                )
    if strict and backs > 0:
        raise InputError(f"{backs} face-down tile(s) are not part of a declared concealed kong")
    remaining: list[str] = []
    for tile in reversed(face_up):  # keep the last copies: the winning tile is usually read last
        if pool[tile] > 0:
            pool[tile] -= 1
            remaining.append(tile)
    return remaining[::-1]


def _last_read(face_up: Sequence[str], concealed: Sequence[str]) -> str:
    """The last tile in reading order that is among the concealed tiles (else the last concealed tile)."""
    held = set(concealed)
    for tile in reversed(face_up):
        if tile in held:
            return tile
    return concealed[-1]
