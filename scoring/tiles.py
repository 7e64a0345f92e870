"""Tile codes (CONTRACT.md), the strict mpsz parser with readable aliases, and display names.

The 34 playing kinds have indices 0..33 (1m..9m, 1p..9p, 1s..9s, 1z..7z); hands are counted per kind.
Bonus tiles (1f..4f flowers, 1y..4y seasons) never enter the counts.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from scoring.errors import TileError

SUITS = "mpsz"
BONUS_SUITS = "fy"
SUIT_ORDER = "mpszfy"
TILE_CODES: tuple[str, ...] = (
    *(f"{n}m" for n in range(1, 10)),
    *(f"{n}p" for n in range(1, 10)),
    *(f"{n}s" for n in range(1, 10)),
    *(f"{n}z" for n in range(1, 8)),
    *(f"{n}f" for n in range(1, 5)),
    *(f"{n}y" for n in range(1, 5)),
)
KINDS = 34  # playing tile kinds; TILE_CODES[:34]
INDEX: dict[str, int] = {code: i for i, code in enumerate(TILE_CODES)}
_MAX_DIGIT = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 4, "y": 4}

EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30
WHITE, GREEN, RED = 31, 32, 33
WIND_CODES = {"E": "1z", "S": "2z", "W": "3z", "N": "4z"}  # the wind tile of each wind (scoring.hand.WINDS)
BACK = "back"
"""The code of a face-down tile wherever a photo is read (CONTRACT): no playing tile, never scored."""
WIND_INDEX = {"E": EAST, "S": SOUTH, "W": WEST, "N": NORTH}
SEAT_NUMBER = {"E": 1, "S": 2, "W": 3, "N": 4}


def is_honour(kind: int) -> bool:
    """Winds and dragons (troefstenen)."""
    return kind >= 27


def is_terminal(kind: int) -> bool:
    """1 or 9 of a suit (hoekstenen)."""
    return kind < 27 and kind % 9 in (0, 8)


def is_wind(kind: int) -> bool:
    return 27 <= kind <= 30


def is_dragon(kind: int) -> bool:
    return kind >= 31


# Suit names after a number: (one, more) per language; "1 kring", "3 kringen", "1 circle", "3 circles".
_SUIT_NAMES_NL = {"m": ("karakter", "karakters"), "p": ("kring", "kringen"), "s": ("bamboe", "bamboe")}
_SUIT_NAMES_EN = {"m": ("character", "characters"), "p": ("circle", "circles"), "s": ("bamboo", "bamboo")}
_HONOURS_NL = ("Oost", "Zuid", "West", "Noord", "Witte draak", "Groene draak", "Rode draak")
_HONOURS_EN = ("East", "South", "West", "North", "White dragon", "Green dragon", "Red dragon")
_FLOWERS_NL = ("Bloem 1 pruim", "Bloem 2 orchidee", "Bloem 3 chrysant", "Bloem 4 bamboe")
_FLOWERS_EN = ("Flower 1 plum", "Flower 2 orchid", "Flower 3 chrysanthemum", "Flower 4 bamboo")
_SEASONS_NL = ("Seizoen 1 lente", "Seizoen 2 zomer", "Seizoen 3 herfst", "Seizoen 4 winter")
_SEASONS_EN = ("Season 1 spring", "Season 2 summer", "Season 3 autumn", "Season 4 winter")


def tile_name(code: str, lang: str = "nl") -> str:
    """Display name of a tile: tile_name("3p") == "3 kringen", tile_name("1p", "en") == "1 circle".

    >>> tile_name("7z")
    'Rode draak'
    >>> tile_name("5p", "en")
    '5 circles'
    """
    if code not in INDEX:
        raise TileError.of("unknown_tile", token=code)
    if lang not in ("nl", "en"):
        raise ValueError(f"language must be 'nl' or 'en', not {lang!r}")
    number, suit = int(code[0]), code[1]
    dutch = lang == "nl"
    if suit in "mps":
        one, more = (_SUIT_NAMES_NL if dutch else _SUIT_NAMES_EN)[suit]
        return f"{number} {one if number == 1 else more}"
    if suit == "z":
        return (_HONOURS_NL if dutch else _HONOURS_EN)[number - 1]
    if suit == "f":
        return (_FLOWERS_NL if dutch else _FLOWERS_EN)[number - 1]
    return (_SEASONS_NL if dutch else _SEASONS_EN)[number - 1]


# Readable one-word aliases, case-insensitive, each a whole whitespace-separated token.
ALIASES: dict[str, str] = {
    **{word: "1z" for word in ("e", "east", "oost", "oostwind")},
    **{word: "2z" for word in ("s", "south", "zuid", "zuidwind")},
    **{word: "3z" for word in ("w", "west", "westwind")},
    **{word: "4z" for word in ("n", "north", "noord", "noordwind")},
    **{word: "5z" for word in ("wit", "witte", "white", "wd")},
    **{word: "6z" for word in ("groen", "groene", "green", "gd")},
    **{word: "7z" for word in ("rood", "rode", "red", "rd")},
}

_GROUP = re.compile(r"([0-9]+)([a-zA-Z]?)")


_VALID_TOKEN = re.compile(r"(?:[1-9]+[mps]|[1-7]+z|[1-4]+[fy])+")
_VALID_GROUP = re.compile(r"([0-9]+)([a-z])")


def _parse_token(token: str) -> list[str]:
    """One whitespace-free token: an alias word or one or more mpsz groups."""
    if _VALID_TOKEN.fullmatch(token):
        return [digit + suit for digits, suit in _VALID_GROUP.findall(token) for digit in digits]
    alias = ALIASES.get(token.lower())
    if alias is not None:
        return [alias]
    raise _token_error(token)


def _token_error(token: str) -> TileError:
    """The error for a token that is neither mpsz nor an alias, naming the offending part."""
    position = 0
    while position < len(token):
        match = _GROUP.match(token, position)
        if match is None:
            bad = token[position:]
            if bad[0].isalpha():
                return TileError.of("tile_letters_without_digits", token=token, letters=bad)
            return TileError.of("tile_unexpected_character", token=token, character=bad[0])
        digits, suit = match.groups()
        if not suit:
            return TileError.of("tile_digits_without_suit", token=token, digits=digits)
        if suit not in SUIT_ORDER:
            return TileError.of("tile_unknown_suit", token=digits + suit, suit=suit)
        for digit in digits:
            if not 1 <= int(digit) <= _MAX_DIGIT[suit]:
                return TileError.of(
                    "tile_does_not_exist", token=digit + suit, suit=suit, top=_MAX_DIGIT[suit]
                )
        position = match.end()
    return TileError(f"tile {token!r} is not valid")  # pragma: no cover - every invalid token fails above


def parse_tiles(text: str) -> list[str]:
    """Strict mpsz parse; spaces between groups and one-word aliases allowed.

    >>> parse_tiles("123m 11z")
    ['1m', '2m', '3m', '1z', '1z']
    >>> parse_tiles("E oost rood 5p")
    ['1z', '1z', '7z', '5p']
    """
    if not isinstance(text, str):
        raise TileError.of("tiles_not_a_string", type=type(text).__name__)
    tiles: list[str] = []
    for token in text.replace(",", " ").split():
        tiles.extend(_parse_token(token))
    return tiles


def format_tiles(tiles: Iterable[str]) -> str:
    """Canonical grouped mpsz, sorted: format_tiles(["1z", "3m", "1m", "2m"]) == "123m1z".

    >>> format_tiles(["1z", "3m", "1m", "2m", "1z"])
    '123m11z'
    """
    tiles = list(tiles)
    for code in tiles:
        if code not in INDEX:
            raise TileError.of("unknown_tile", token=code)
    ordered = sorted(tiles, key=INDEX.__getitem__)
    out: list[str] = []
    for i, code in enumerate(ordered):
        out.append(code[0])
        if i + 1 == len(ordered) or ordered[i + 1][1] != code[1]:
            out.append(code[1])
    return "".join(out)


def counts_of(tiles: Iterable[str]) -> list[int]:
    """Counts per playing kind (34 entries); bonus tiles must not be passed."""
    counts = [0] * KINDS
    for code in tiles:
        counts[INDEX[code]] += 1
    return counts


def code_of(kind: int) -> str:
    return TILE_CODES[kind]
