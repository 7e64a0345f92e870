"""Tile codes, the strict mpsz parser, aliases, canonical formatting and display names."""

from __future__ import annotations

import pytest

from scoring import TILE_CODES, InputError, TileError, format_tiles, parse_tiles, tile_name


def test_tile_codes_are_the_42_of_the_contract_in_order() -> None:
    assert len(TILE_CODES) == 42
    assert TILE_CODES[:9] == tuple(f"{n}m" for n in range(1, 10))
    assert TILE_CODES[9:18] == tuple(f"{n}p" for n in range(1, 10))
    assert TILE_CODES[18:27] == tuple(f"{n}s" for n in range(1, 10))
    assert TILE_CODES[27:34] == tuple(f"{n}z" for n in range(1, 8))
    assert TILE_CODES[34:] == ("1f", "2f", "3f", "4f", "1y", "2y", "3y", "4y")


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        ("123m 11z", ["1m", "2m", "3m", "1z", "1z"]),
        ("123m11z", ["1m", "2m", "3m", "1z", "1z"]),
        ("  5p   5p ", ["5p", "5p"]),
        ("1f4y", ["1f", "4y"]),
        ("7z", ["7z"]),
        ("", []),
        ("E S W N", ["1z", "2z", "3z", "4z"]),
        ("oost zuid west noord", ["1z", "2z", "3z", "4z"]),
        ("wit groen rood", ["5z", "6z", "7z"]),
        ("White Green Red", ["5z", "6z", "7z"]),
        ("123s rood", ["1s", "2s", "3s", "7z"]),
    ],
)
def test_parse_tiles(text: str, tiles: list[str]) -> None:
    assert parse_tiles(text) == tiles


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ("123x", "'x'"),  # unknown suit letter
        ("0m", "'0m'"),  # red-five zero of tenhou is no tile here
        ("8z", "'8z'"),
        ("5f", "'5f'"),
        ("5y", "'5y'"),
        ("123", "'123'"),  # digits without a suit
        ("12m 34", "'34'"),
        ("abc", "'abc'"),  # letters without digits, no alias
        ("1m-2m", "'-'"),
        ("123M", "'M'"),  # suit letters are lower case
    ],
)
def test_parse_errors_name_the_offending_token(text: str, named: str) -> None:
    with pytest.raises(TileError) as error:
        parse_tiles(text)
    message = str(error.value)
    assert named in message
    assert "\n" not in message
    assert isinstance(error.value, InputError) and isinstance(error.value, ValueError)


def test_parse_rejects_non_strings() -> None:
    with pytest.raises(TileError):
        parse_tiles(["1m"])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("tiles", "text"),
    [
        (["1z", "3m", "1m", "2m", "1z"], "123m11z"),
        (["4y", "1f", "9s", "1p", "5m"], "5m1p9s1f4y"),
        ([], ""),
    ],
)
def test_format_tiles_is_canonical(tiles: list[str], text: str) -> None:
    assert format_tiles(tiles) == text


def test_format_parse_round_trip_of_every_code() -> None:
    assert parse_tiles(format_tiles(TILE_CODES)) == list(TILE_CODES)


def test_format_rejects_unknown_code() -> None:
    with pytest.raises(TileError):
        format_tiles(["0m"])


@pytest.mark.parametrize(
    ("code", "dutch", "english"),
    [
        ("3s", "3 bamboe", "3 bamboo"),
        ("1s", "1 bamboe", "1 bamboo"),
        ("1m", "1 karakter", "1 character"),
        ("7m", "7 karakters", "7 characters"),
        ("1p", "1 kring", "1 circle"),
        ("9p", "9 kringen", "9 circles"),
        ("1z", "Oost", "East"),
        ("4z", "Noord", "North"),
        ("5z", "Witte draak", "White dragon"),
        ("6z", "Groene draak", "Green dragon"),
        ("7z", "Rode draak", "Red dragon"),
        ("1f", "Bloem 1 pruim", "Flower 1 plum"),
        ("4y", "Seizoen 4 winter", "Season 4 winter"),
    ],
)
def test_tile_names(code: str, dutch: str, english: str) -> None:
    assert tile_name(code) == dutch
    assert tile_name(code, "nl") == dutch
    assert tile_name(code, "en") == english


@pytest.mark.parametrize("lang", ["nl", "en"])
def test_every_tile_has_a_distinct_name(lang: str) -> None:
    names = [tile_name(code, lang) for code in TILE_CODES]
    assert all(names)
    assert len(set(names)) == 42


def test_tile_name_errors() -> None:
    with pytest.raises(TileError):
        tile_name("8z")
    with pytest.raises(ValueError):
        tile_name("1m", "fr")
