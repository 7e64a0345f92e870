"""The proposed hand: the table's reading plus what was given (a batch sidecar, the app's switches) as the
`score` input object (docs/CONTRACT.md), and the list of everything assumed rather than given or read.

A key given replaces what the reading proposes: `concealed` (then the tiles read are not used for the
hand's tiles), `melds`, `bonus`, `winning_tile`; context keys not given take the stated defaults.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mahjong_nts.reading.table import GUESS, HAND_SIZE, SURE, Assumption, TableReading, read_table
from mahjong_nts.reading.tiles import BACK, TileRead, is_bonus
from scoring import InputError, format_tiles, hand_from_dict, hand_to_dict, parse_tiles
from scoring.rulesets import DEFAULT_RULESET

CONTEXT_KEYS = ("role", "ruleset", "seat_wind", "prevailing_wind", "self_drawn", "flags")
TILE_KEYS = ("concealed", "melds", "bonus", "winning_tile")
HAND_KEYS = CONTEXT_KEYS + TILE_KEYS
STATED_DEFAULTS: dict[str, Any] = {
    "ruleset": DEFAULT_RULESET,
    "role": "winner",
    "seat_wind": "E",
    "prevailing_wind": "E",
    "self_drawn": False,
    "flags": [],
}

Meld = tuple[list[str], bool]
"""A meld's tiles and whether it lies open."""


class NoHand(InputError):
    """The tiles and what was given make no hand to score; str() says why in one line."""


@dataclass(frozen=True)
class ProposedHand:
    """A `score` input object, the reading it came from and what was assumed (with how sure)."""

    hand: dict[str, Any]
    reading: TableReading
    assumed: tuple[Assumption, ...]

    @property
    def assumed_text(self) -> tuple[str, ...]:
        return tuple(a.what for a in self.assumed)


def propose_hand(tiles: Sequence[TileRead], given: Mapping[str, Any]) -> ProposedHand:
    """The hand for the tiles read (reading order) and `given` (defaults and sidecar, or the app's
    context); NoHand (an InputError) when they make none, malformed given keys as InputError."""
    assumed: list[Assumption] = []
    hand: dict[str, Any] = {}
    for key in CONTEXT_KEYS:
        if key in given:
            hand[key] = given[key]
        elif key != "self_drawn" or hand["role"] == "winner":  # role comes first; a loser drew nothing
            hand[key] = STATED_DEFAULTS[key]
            assumed.append(Assumption(f"{key} {show_value(STATED_DEFAULTS[key])}", SURE, key))
    role = hand["role"] if hand["role"] in HAND_SIZE else "winner"
    given_concealed = tile_list(given["concealed"], "concealed") if "concealed" in given else None
    # with the concealed tiles given, every tile read counts (no row is left out) for melds and bonus
    reading = read_table(tiles if given_concealed is None else _one_row(tiles), role)
    codes = reading.hand_codes
    hand["bonus"] = format_tiles(tile_list(given["bonus"], "bonus") if "bonus" in given else reading.bonus)

    read_melds = [(list(m.tiles), m.open) for m in reading.melds]
    if "melds" in given:
        melds, keep = given_melds(given["melds"]), {"rows", "face_down"}
    elif given_concealed is not None:  # only the kongs shown with face-down tiles: the rest was given
        melds, keep = [(t, o) for t, o in read_melds if not o], {"melds"}
    else:
        melds, keep = read_melds, {"rows", "melds", "face_down"}
    if given_concealed is not None:
        concealed = given_concealed
    elif "melds" in given:
        concealed = remaining_tiles(codes, melds)
    else:
        if reading.face_down_left:
            raise NoHand(f"{reading.face_down_left} face-down tile(s) are not part of a concealed kong")
        concealed = list(reading.concealed)
        if not concealed and not melds:
            raise NoHand("no tiles read in the photo; give the hand in a sidecar")
    hand["concealed"] = format_tiles(concealed)
    hand["melds"] = [{"tiles": format_tiles(tiles), "open": is_open} for tiles, is_open in melds]
    assumed.extend(a for a in reading.assumed if a.about in keep)
    if not melds and concealed and given_concealed is None:
        assumed.append(Assumption(f"all {len(concealed)} tiles concealed (no melds declared)", SURE, "melds"))

    if "winning_tile" in given:
        hand["winning_tile"] = given["winning_tile"]
    elif role == "winner" and concealed:
        if reading.winning_tile in concealed:
            hand["winning_tile"] = reading.winning_tile
            assumed.extend(a for a in reading.assumed if a.about == "winning_tile")
        else:
            hand["winning_tile"] = _last_read(codes, concealed)
            assumed.append(
                Assumption(f"winning_tile {hand['winning_tile']} (last tile read)", GUESS, "winning_tile")
            )
    return ProposedHand(hand, reading, tuple(assumed))


def hand_json(tiles: Sequence[TileRead], given: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The JSON of `recognize --hand` for one photo: {"hand": the `score` input (validated, as `score` reads
    it) or null, "assumed": [{"what", "sure"}], "reason": why there is no hand, or null}."""
    try:
        proposed = propose_hand(tiles, given or {})
        hand = hand_to_dict(hand_from_dict(proposed.hand))
    except InputError as problem:
        return {"hand": None, "assumed": [], "reason": " ".join(str(problem).split())}
    return {"hand": hand, "assumed": [a.to_dict() for a in proposed.assumed], "reason": None}


def _one_row(tiles: Sequence[TileRead]) -> list[TileRead]:
    """The tiles as one row, so that no row is left out."""
    return [TileRead(t.code, t.confidence, t.box, t.alternatives, 0, t.read_as) for t in tiles]


def _last_read(codes: Sequence[str], concealed: Sequence[str]) -> str:
    """The last tile in reading order that is among the concealed tiles (else the last concealed tile)."""
    held = set(concealed)
    return next((code for code in reversed(codes) if code in held), concealed[-1])


def show_value(value: Any) -> str:
    """A context value as written in JSON: true/false, [last_tile], E."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + ", ".join(map(str, value)) + "]"
    return str(value)


def tile_list(value: Any, key: str) -> list[str]:
    """A tile field given: a tile string (CONTRACT) or a list of tile strings."""
    if isinstance(value, str):
        return parse_tiles(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return parse_tiles(" ".join(value))
    raise InputError(f"'{key}' must be a tile string such as \"123m11z\"")


def given_melds(value: Any) -> list[Meld]:
    """The `melds` given: a list of {"tiles": ..., "open": ...} objects."""
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
        melds.append((tile_list(meld["tiles"], "melds"), is_open))
    return melds


def remaining_tiles(codes: Sequence[str], melds: Sequence[Meld]) -> list[str]:
    """The hand's tiles read minus the melds' tiles, in reading order (the last copies kept: the winning
    tile is usually read last); a face-down tile stands in for a tile of a concealed kong."""
    face_up = [code for code in codes if code != BACK and not is_bonus(code)]
    backs = list(codes).count(BACK)
    pool = Counter(face_up)
    for tiles, is_open in melds:
        for tile in tiles:
            if not is_open and backs > 0:  # a concealed kong takes the face-down tiles first
                backs -= 1
            elif pool[tile] > 0:
                pool[tile] -= 1
            else:
                raise InputError(
                    f"meld {format_tiles(tiles)}: {tile} is not among the tiles read; give 'concealed' too"
                )
    if backs > 0:
        raise NoHand(f"{backs} face-down tile(s) are not part of a declared concealed kong")
    remaining: list[str] = []
    for tile in reversed(face_up):
        if pool[tile] > 0:
            pool[tile] -= 1
            remaining.append(tile)
    return remaining[::-1]
