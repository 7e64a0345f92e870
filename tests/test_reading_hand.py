"""How tiles read from a photo plus what was given (defaults, sidecar) become the proposed `score` input."""

from __future__ import annotations

import pytest

from mahjong_nts.reading.hand import STATED_DEFAULTS, propose_hand
from mahjong_nts.reading.tiles import TileRead
from scoring import InputError, hand_from_dict, parse_tiles, score_hand


def read(text: str) -> list[str]:
    """Tiles in reading order; "B" is a face-down tile."""
    codes: list[str] = []
    for token in text.split():
        codes.extend(["back"] if token == "B" else parse_tiles(token))
    return codes


class Planned:
    """propose_hand's answer with the assumptions as text, as the batch records them."""

    def __init__(self, tiles: list[TileRead], given: dict) -> None:
        proposed = propose_hand(tiles, given)
        self.hand, self.assumed = proposed.hand, proposed.assumed_text


def plan(text: str, given: dict | None = None, rows: list[int] | None = None) -> Planned:
    codes = read(text)
    tiles = [TileRead(code, 0.9, row=row) for code, row in zip(codes, rows or [0] * len(codes), strict=True)]
    return Planned(tiles, given or {})


def plan_hand(tiles: list[TileRead], given: dict) -> Planned:
    return Planned(tiles, given)


def photo(*rows: tuple[str, float]) -> list[TileRead]:
    """Rows of tiles (text, tile height in pixels), top row first, each tile touching the next."""
    tiles = []
    for index, (text, size) in enumerate(rows):
        for n, code in enumerate(read(text)):
            x = n * 0.75 * size
            tiles.append(
                TileRead(code, 0.9, (x, index * 100.0, x + 0.75 * size, index * 100.0 + size), row=index)
            )
    return tiles


def test_no_sidecar_uses_the_stated_defaults_and_says_so() -> None:
    planned = plan("11z123p444p777z444z 4f")
    for key, value in STATED_DEFAULTS.items():
        assert planned.hand[key] == value
    assert planned.hand["bonus"] == "4f"
    assert planned.hand["melds"] == []
    assert sorted(parse_tiles(planned.hand["concealed"])) == sorted(parse_tiles("11z123p444p777z444z"))
    assert planned.hand["winning_tile"] == "4z"  # the last tile read that is not a bonus tile
    assert "seat_wind E" in planned.assumed
    assert "winning_tile 4z (last tile read)" in planned.assumed
    assert "all 14 tiles concealed (no melds declared)" in planned.assumed
    assert score_hand(hand_from_dict(planned.hand)).valid


def test_given_context_is_not_listed_as_assumed() -> None:
    planned = plan("11z123p444p777z444z", {"seat_wind": "S", "self_drawn": True, "winning_tile": "2p"})
    assert planned.hand["seat_wind"] == "S" and planned.hand["self_drawn"] is True
    assert planned.hand["winning_tile"] == "2p"
    assert not any(note.startswith(("seat_wind", "self_drawn", "winning_tile")) for note in planned.assumed)
    assert "prevailing_wind E" in planned.assumed


@pytest.mark.parametrize(
    "tiles",
    ["789p567p333p22p B 4p 4p B", "789p567p333p22p 4p B B 4p", "789p567p333p22p B 4p 4p 4p"],
    ids=["outer-down", "inner-down", "one-down"],
)
def test_face_down_tiles_with_equal_neighbours_are_a_concealed_kong(tiles: str) -> None:
    planned = plan(tiles)
    assert planned.hand["melds"] == [{"tiles": "4444p", "open": False}]
    assert sorted(parse_tiles(planned.hand["concealed"])) == sorted(parse_tiles("789p567p333p22p"))
    assert any(note.startswith("concealed kong 4444p") for note in planned.assumed)
    result = score_hand(hand_from_dict(planned.hand)).to_dict()
    assert any("Kong" in item["name"] and "gesloten" in item["name"] for item in result["items"])


def test_kong_only_within_one_row() -> None:
    rows = [0] * 12 + [1] * 3  # the kong's last three tiles lie in the next row
    with pytest.raises(InputError, match="face-down"):
        plan("789p567p333p22p B 4p 4p B", rows=rows)


def test_stray_face_down_tiles_are_an_error() -> None:
    with pytest.raises(InputError, match="2 face-down tile"):
        plan("789p567p333p22p B 4p B")


def test_fifteen_tiles_with_four_equal_face_up_make_an_open_kong() -> None:
    planned = plan("789p567p333p4444p22p")
    assert planned.hand["melds"] == [{"tiles": "4444p", "open": True}]
    assert any(note.startswith("open kong 4444p") for note in planned.assumed)
    assert score_hand(hand_from_dict(planned.hand)).valid


def test_fourteen_tiles_with_four_equal_stay_concealed() -> None:
    planned = plan("1111m23m567p789s99s")  # pung 111m and chow 123m: four 1m, no kong
    assert planned.hand["melds"] == []
    assert len(parse_tiles(planned.hand["concealed"])) == 14


def test_more_candidate_kongs_than_extra_tiles_takes_the_first_and_says_it_guessed() -> None:
    planned = propose_hand([TileRead(c, 0.9, row=0) for c in read("1111m2222m3333m44m5m")], {})
    # 15 tiles: one kong, and three four-of-a-kinds could be it
    assert planned.hand["melds"] == [{"tiles": "1111m", "open": True}]
    guesses = [a for a in planned.assumed if a.what.startswith("open kong")]
    assert [a.what for a in guesses] == ["open kong 1111m (15 tiles read; laid together; not 2m, 3m)"]
    assert guesses[0].sure < 0.5


def test_given_melds_are_taken_out_of_the_tiles_read() -> None:
    planned = plan("111z 789p567p333p22p", {"melds": [{"tiles": "111z", "open": True}]})
    assert planned.hand["melds"] == [{"tiles": "111z", "open": True}]
    assert sorted(parse_tiles(planned.hand["concealed"])) == sorted(parse_tiles("789p567p333p22p"))


def test_given_meld_that_was_not_read_is_an_error() -> None:
    with pytest.raises(InputError, match="meld 777z: 7z is not among the tiles read"):
        plan("111z 789p567p333p22p", {"melds": [{"tiles": "777z", "open": True}]})


def test_given_concealed_replaces_the_tiles_read() -> None:
    planned = plan("11z123p444p776z444z 4f", {"concealed": "11z123p444p777z444z"})  # 6z misread
    assert planned.hand["concealed"] == "123444p11444777z"
    assert planned.hand["bonus"] == "4f"  # not given: still the bonus tiles read
    assert planned.hand["winning_tile"] == "4z"


def test_given_bonus_replaces_the_bonus_read() -> None:
    assert plan("11z123p444p777z444z 4f", {"bonus": "1f 2y"}).hand["bonus"] == "1f2y"


def test_loser_gets_no_winning_tile_and_no_self_drawn() -> None:
    planned = plan("789p567p333p444p2p", {"role": "loser"})
    assert "winning_tile" not in planned.hand and "self_drawn" not in planned.hand
    assert hand_from_dict(planned.hand).role == "loser"


def test_no_tiles_and_no_sidecar_is_an_error() -> None:
    with pytest.raises(InputError, match="no tiles read"):
        plan("")


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"concealed": 123}, "'concealed' must be a tile string"),
        ({"concealed": "12x"}, "x"),
        ({"melds": "111z"}, "'melds' must be a list"),
        ({"melds": [{"open": True}]}, "each meld must be an object with 'tiles'"),
        ({"melds": [{"tiles": "111z", "open": "yes"}]}, "'open' must be true or false"),
        ({"melds": [{"tiles": "111z", "kind": "pung"}]}, "unknown key 'kind' in a meld"),
    ],
)
def test_malformed_tile_fields_name_the_problem(given: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        plan("111z 789p567p333p22p", given)


def test_hand_is_the_row_of_largest_tiles_that_can_be_a_hand() -> None:
    tiles = photo(
        ("7z6p5z1f7p7s6z9p8s1m3m1s7m3m5z2s5z5z", 49),  # 17 small tiles further away: another player's
        ("2y 123s345s789s789s44s", 68),  # the hand, nearest the camera
        ("1s2m", 70),  # two stray tiles, large but too few for a hand
    )
    planned = plan_hand(tiles, {})
    assert sorted(parse_tiles(planned.hand["concealed"])) == sorted(parse_tiles("123s345s789s789s44s"))
    assert planned.hand["bonus"] == "2y"
    note = next(note for note in planned.assumed if note.startswith("hand in row"))
    assert note.startswith("hand in row 2 of 3 (largest tiles); left out: 7z 6p 5z 1f")
    assert note.endswith(" / 1s 2m")


def test_melds_in_front_of_the_rack_join_their_neighbouring_row() -> None:
    tiles = photo(("1m9m", 40), ("789p567p22p", 60), ("B 4p 4p B 333p", 66))  # no single row holds a hand
    planned = plan_hand(tiles, {})
    # the row in front of the rack: a concealed kong (face-down tiles) and a pung laid down, so open
    assert planned.hand["melds"] == [{"tiles": "4444p", "open": False}, {"tiles": "333p", "open": True}]
    assert sorted(parse_tiles(planned.hand["concealed"])) == sorted(parse_tiles("789p567p22p"))
    assert any(note.startswith("hand in row 2, 3 of 3") for note in planned.assumed)


def test_a_row_of_only_flowers_stays_with_the_hand() -> None:
    tiles = photo(("1f 3y", 55), ("789p567p333p444p22p", 60), ("5s5s6s", 30))
    planned = plan_hand(tiles, {})
    assert planned.hand["bonus"] == "1f3y"
    assert any(note.endswith("left out: 5s 5s 6s") for note in planned.assumed)


def test_no_row_that_fits_keeps_every_tile_and_the_scorer_names_the_count() -> None:
    # hand6.jpg: 43 tiles in rows of 12, 10, 9 and 12: no row and no two neighbouring rows hold a hand
    tiles = photo(("123456789m123p", 90), ("456789p1234s", 86), ("56789s1234z", 91), ("567z123456789m", 88))
    planned = plan_hand(tiles, {})
    assert len(parse_tiles(planned.hand["concealed"])) == 43
    assert not any(note.startswith("hand in row") for note in planned.assumed)
    with pytest.raises(InputError, match="43 tiles"):
        hand_from_dict(planned.hand)


def test_given_concealed_skips_the_row_choice() -> None:
    tiles = photo(("123456789m11z", 40), ("789p567p333p444p22p", 60))
    planned = plan_hand(tiles, {"concealed": "123456789m111z22z"})
    assert planned.hand["concealed"] == "123456789m11122z"
    assert not any(note.startswith("hand in row") for note in planned.assumed)
