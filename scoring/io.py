"""The CONTRACT `score` input object <-> Hand, with full validation (InputError, one line)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from scoring.errors import InputError
from scoring.hand import WINDS, Hand, Meld
from scoring.jsonread import quote
from scoring.tiles import ALIASES, INDEX, format_tiles, parse_tiles
from scoring.validate import validate_hand

KEYS = (
    "ruleset",
    "role",
    "seat_wind",
    "prevailing_wind",
    "concealed",
    "melds",
    "bonus",
    "winning_tile",
    "self_drawn",
    "flags",
)
_KNOWN_KEYS = frozenset(KEYS)
MELD_KEYS = ("tiles", "open")
_MELD_KEY_SET = frozenset(MELD_KEYS)
MAX_TEXT = 300
"""Longest text accepted for one value (18 tiles by their longest Dutch names fit); longer is refused here, so
no message further on echoes a megabyte of it."""
_WIND_OF_CODE = {"1z": "E", "2z": "S", "3z": "W", "4z": "N"}


def _wind(obj: Mapping[str, Any], key: str) -> str:
    value = obj[key]
    if not isinstance(value, str):
        raise InputError.of("wind_not_one_of", field=key, value=quote(value))
    if value in WINDS:
        return value
    wind = _WIND_OF_CODE.get(ALIASES.get(value.strip().lower(), value.strip().lower()))
    if wind is None:
        raise InputError.of("wind_not_one_of", field=key, value=quote(value))
    return wind


def _tiles(value: Any, where: str) -> tuple[str, ...]:
    """A tile string ("123m 11z") or a list of tile strings, sorted canonically."""
    if isinstance(value, str):
        return _parse(_short_text(value, where), where)
    if not isinstance(value, list):
        raise InputError.of("tiles_not_text", where=where, type=type(value).__name__)
    tiles: list[str] = []
    for part in value:
        if not isinstance(part, str):
            raise InputError.of("tile_part_not_text", where=where, value=quote(part))
        tiles.extend(_parse(_short_text(part, where), where))
    return tuple(sorted(tiles, key=INDEX.__getitem__))


def _short_text(text: str, where: str) -> str:
    """`text` when it is at most MAX_TEXT characters long; InputError quoting its start otherwise."""
    if len(text) > MAX_TEXT:
        raise InputError.of("text_too_long", where=where, value=quote(text), limit=MAX_TEXT)
    return text


def _parse(text: str, where: str) -> tuple[str, ...]:
    """The tiles of `text`, sorted; a bad tile's error located in `where`."""
    try:
        return _sorted_tiles(text)
    except InputError as bad:
        raise bad.located(where) from None


@lru_cache(maxsize=4096)
def _sorted_tiles(text: str) -> tuple[str, ...]:
    """parse_tiles, sorted, remembered per text: a batch repeats its melds, winning tiles and bonus."""
    return tuple(sorted(parse_tiles(text), key=INDEX.__getitem__))


def _meld(value: Any, number: int) -> Meld:
    """One declared set: a tile string (open) or {"tiles": ..., "open": ...}."""
    if type(value) is dict and _MELD_KEY_SET.issuperset(value):  # the usual form, remembered per set
        tiles, is_open = value.get("tiles"), value.get("open", True)
        if type(tiles) is str and type(is_open) is bool and len(tiles) <= MAX_TEXT:
            try:
                return _known_meld(tiles, is_open)
            except InputError as bad:
                raise bad.located(f"melds[{number}]") from None
    where = f"melds[{number}]"
    if isinstance(value, str):
        return Meld(_tiles(value, where), True)
    if not isinstance(value, Mapping):
        raise InputError.of("meld_not_object", where=where)
    for key in value:
        if key not in MELD_KEYS:
            raise InputError.of("meld_unknown_key", where=where, key=quote(key))
    if "tiles" not in value:
        raise InputError.of("meld_tiles_missing", where=where)
    is_open = value.get("open", True)
    if not isinstance(is_open, bool):
        raise InputError.of("meld_open_value", where=where, value=quote(is_open))
    return Meld(_tiles(value["tiles"], where), is_open)


@lru_cache(maxsize=1024)
def _known_meld(tiles: str, is_open: bool) -> Meld:
    """The Meld of a tile string, made once: a batch declares the same few sets over and over."""
    return Meld(_sorted_tiles(tiles), is_open)


def hand_from_dict(obj: Mapping[str, Any]) -> Hand:
    """Build and validate a Hand from a CONTRACT input object; InputError names the first problem.

    >>> hand = hand_from_dict({"seat_wind": "E", "prevailing_wind": "S", "concealed": "123m456p789s111z22z",
    ...                        "winning_tile": "2z"})
    >>> hand.concealed[:3], hand.role, hand.ruleset
    (('1m', '2m', '3m'), 'winner', 'app')
    """
    if type(obj) is not dict and not isinstance(obj, Mapping):
        raise InputError.of("hand_not_object", type=type(obj).__name__)
    if not _KNOWN_KEYS.issuperset(obj):
        unknown = next(key for key in obj if key not in _KNOWN_KEYS)
        raise InputError.of("hand_unknown_key", key=quote(unknown), known=", ".join(KEYS))
    role = obj.get("role", "winner")
    required = ["seat_wind", "prevailing_wind", "concealed"] + (["winning_tile"] if role == "winner" else [])
    for key in required:
        if key not in obj:
            raise InputError.of("hand_key_missing", key=quote(key))
    for key in ("ruleset", "role"):
        if key in obj and not isinstance(obj[key], str):
            raise InputError.of("key_not_text", field=key, value=quote(obj[key]))
        if key in obj:
            _short_text(obj[key], key)
    melds = obj.get("melds", [])
    if not isinstance(melds, list):
        raise InputError.of("melds_not_list")
    winning = obj.get("winning_tile")
    winning_tile: str | None = None
    if winning is not None:
        tiles = _tiles(winning, "winning_tile")
        if len(tiles) != 1:
            raise InputError.of("winning_tile_not_one", value=quote(winning))
        winning_tile = tiles[0]
    self_drawn = obj.get("self_drawn", False)
    if not isinstance(self_drawn, bool):
        raise InputError.of("self_drawn_value", value=quote(self_drawn))
    flags = obj.get("flags", [])
    if not isinstance(flags, list) or not all(isinstance(flag, str) for flag in flags):
        raise InputError.of("flags_not_list", value=quote(flags))
    for flag in flags:
        _short_text(flag, "flags")
    bonus = obj.get("bonus", "")
    hand = Hand(
        seat_wind=_wind(obj, "seat_wind"),
        prevailing_wind=_wind(obj, "prevailing_wind"),
        concealed=_tiles(obj["concealed"], "concealed"),
        melds=tuple(_meld(meld, i) for i, meld in enumerate(melds)),
        bonus=_tiles(bonus if bonus is not None else "", "bonus"),
        winning_tile=winning_tile,
        self_drawn=self_drawn,
        flags=frozenset(flags),
        ruleset=obj.get("ruleset", "app"),
        role=role,
    )
    validate_hand(hand)
    return hand


def hand_to_dict(hand: Hand) -> dict[str, Any]:
    """The CONTRACT input object for a hand; hand_from_dict(hand_to_dict(h)) == h for a canonical hand."""
    out: dict[str, Any] = {
        "ruleset": hand.ruleset,
        "role": hand.role,
        "seat_wind": hand.seat_wind,
        "prevailing_wind": hand.prevailing_wind,
        "concealed": format_tiles(hand.concealed),
        "melds": [{"tiles": format_tiles(m.tiles), "open": m.open} for m in hand.melds],
        "bonus": format_tiles(hand.bonus),
        "self_drawn": hand.self_drawn,
        "flags": sorted(hand.flags),
    }
    if hand.winning_tile is not None:
        out["winning_tile"] = hand.winning_tile
    return out
