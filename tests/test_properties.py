"""Properties that hold for every input: parser round trips, scoring never crashes, settlement is balanced."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring import (
    TILE_CODES,
    WINDS,
    InputError,
    format_tiles,
    hand_from_dict,
    parse_tiles,
    score_hand,
    settle,
)

PLAYING = TILE_CODES[:34]
BONUS = TILE_CODES[34:]
SUITED = [code for code in PLAYING if code[1] in "mps"]
FLAGS = ("last_tile", "kong_replacement", "kong_on_kong", "robbing_kong", "heaven", "earth", "dead_hand")
CANONICAL = re.compile(r"(?:[1-9]+m)?(?:[1-9]+p)?(?:[1-9]+s)?(?:[1-7]+z)?(?:[1-4]+f)?(?:[1-4]+y)?")
FAST = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# --- the tile parser --------------------------------------------------------------------------------------


@st.composite
def tile_texts(draw: st.DrawFn) -> tuple[str, list[str]]:
    """Tiles written in random order and grouping, with spaces: (text, the tiles it names)."""
    tiles = draw(st.lists(st.sampled_from(TILE_CODES), max_size=20))
    groups: list[str] = []
    for code in tiles:
        if groups and groups[-1][-1] == code[1] and draw(st.booleans()):
            groups[-1] = groups[-1][:-1] + code  # join to the previous group of the same suit: "12m"
        else:
            groups.append(code)
    separator = draw(st.sampled_from(["", " ", "  ", ", "]))
    return separator.join(groups), tiles


@FAST
@given(tile_texts())
def test_parser_round_trips_through_the_canonical_form(case: tuple[str, list[str]]) -> None:
    text, tiles = case
    parsed = parse_tiles(text)
    assert Counter(parsed) == Counter(tiles)
    canonical = format_tiles(parsed)
    assert CANONICAL.fullmatch(canonical)
    assert all(list(digits) == sorted(digits) for digits in re.findall(r"([0-9]+)[a-z]", canonical))
    assert Counter(parse_tiles(canonical)) == Counter(tiles)
    assert format_tiles(parse_tiles(canonical)) == canonical


@FAST
@given(st.text(alphabet="0123456789mpszfyxq ,", max_size=12))
def test_parser_accepts_or_names_the_problem(text: str) -> None:
    try:
        tiles = parse_tiles(text)
    except InputError as error:
        assert "\n" not in str(error) and str(error)
    else:
        assert all(code in TILE_CODES for code in tiles)


# --- any hand: a result or an InputError -----------------------------------------------------------------


@st.composite
def near_winning_groups(draw: st.DrawFn) -> list[list[str]]:
    """Four random sets (chow, pung, sometimes kong) and a pair, at most four of a kind."""
    counts: Counter[str] = Counter()
    groups: list[list[str]] = []
    for _ in range(12):  # retry a set that would make five of a kind
        if len(groups) == 4:
            break
        shape = draw(st.sampled_from(["chow", "chow", "pung", "pung", "kong"]))
        if shape == "chow":
            start = draw(st.sampled_from([c for c in SUITED if int(c[0]) <= 7]))
            group = [f"{int(start[0]) + i}{start[1]}" for i in range(3)]
        else:
            group = [draw(st.sampled_from(PLAYING))] * (3 if shape == "pung" else 4)
        if all(counts[c] + group.count(c) <= 4 for c in group):
            counts.update(group)
            groups.append(group)
    pair = [draw(st.sampled_from([code for code in PLAYING if counts[code] <= 2]))] * 2
    return [*groups, pair]


@st.composite
def hand_objects(draw: st.DrawFn) -> dict[str, Any]:
    """A CONTRACT input object from random parts: mostly well formed and near winning, sometimes not."""
    melds: list[dict[str, Any]] = []
    if draw(st.integers(0, 4)):
        tiles: list[str] = []
        for group in draw(near_winning_groups()):
            if len(group) == 4 or (len(group) == 3 and draw(st.integers(0, 3)) == 0):
                melds.append({"tiles": "".join(group), "open": len(group) == 3 or draw(st.booleans())})
            else:
                tiles.extend(group)
        for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):  # perturb: swap a tile or two
            if tiles:
                tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.sampled_from(PLAYING))
    else:
        tiles = draw(st.lists(st.sampled_from(PLAYING), max_size=16))
    role = draw(st.sampled_from(["winner", "winner", "loser"]))
    if role == "loser" and tiles and draw(st.integers(0, 5)):
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))  # a loser holds one tile less
    ruleset = draw(st.sampled_from(["app", "nts"]))
    bonus = draw(st.lists(st.sampled_from(BONUS), max_size=3, unique=True))
    if ruleset == "nts" and draw(st.integers(0, 9)):
        bonus = []
    flags = (
        draw(st.lists(st.sampled_from(FLAGS), max_size=2, unique=True))
        if draw(st.integers(0, 2)) == 0
        else []
    )
    obj: dict[str, Any] = {
        "ruleset": ruleset,
        "role": role,
        "seat_wind": draw(st.sampled_from(WINDS)),
        "prevailing_wind": draw(st.sampled_from(WINDS)),
        "concealed": format_tiles(tiles) if tiles else "",
        "melds": melds,
        "bonus": "".join(bonus),
        "flags": flags,
    }
    if role == "winner":
        obj["winning_tile"] = draw(st.sampled_from(tiles)) if tiles else "1m"
        obj["self_drawn"] = draw(st.booleans())
    return obj


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hand_objects())
def test_any_hand_gives_a_result_or_an_input_error(obj: dict[str, Any]) -> None:
    try:
        result = score_hand(hand_from_dict(obj)).to_dict()
    except InputError as error:
        assert str(error) and "\n" not in str(error)
        event("input error")
        return
    event(f"{obj['role']} {'valid' if result['valid'] else result['reason_code']}")
    assert 0 <= result["total"] <= 2000
    assert isinstance(result["valid"], bool)
    if not result["valid"]:
        assert result["total"] == 0
        assert result["reason_code"] in ("no_winning_shape", "too_few_doublings", "dead_hand")
    elif result["limit_hand"] is None and obj["role"] == "winner":
        assert result["total"] == min(2000, result["base_points"] * 2 ** result["doublings"])
    if obj["role"] == "loser" and "dead_hand" not in obj["flags"]:
        assert result["valid"] is True


# --- settlement -------------------------------------------------------------------------------------------

scores = st.fixed_dictionaries({seat: st.integers(0, 2000) for seat in WINDS})
winners = st.sampled_from([*WINDS, None])


def undoubled_change_of_east(points: dict[str, int], winner: str) -> int:
    """East's change if no payment were doubled: from/to the winner, and the differences with other losers."""
    if winner == "E":
        return 3 * points["E"]
    others = [seat for seat in WINDS if seat not in ("E", winner)]
    return -points[winner] + sum(points["E"] - points[seat] for seat in others)


@settings(max_examples=1000, deadline=None)
@given(scores, winners)
def test_settlement_sums_to_zero_and_draws_move_nothing(points: dict[str, int], winner: str | None) -> None:
    change = settle(points, winner)
    assert sum(change.values()) == 0
    if winner is None:
        assert set(change.values()) == {0}
    else:
        assert change[winner] >= 0  # the winner never loses, whatever the losers score among themselves


@settings(max_examples=1000, deadline=None)
@given(scores, st.sampled_from(WINDS))
def test_every_payment_involving_east_is_exactly_doubled(points: dict[str, int], winner: str) -> None:
    """East's change is exactly twice East's change with no doubling at all, since every payment East takes
    part in (to or from the winner, or a difference with another loser) is doubled, and East takes part in
    no other payment."""
    assert settle(points, winner)["E"] == 2 * undoubled_change_of_east(points, winner)


@settings(max_examples=500, deadline=None)
@given(st.integers(0, 2000), st.sampled_from(WINDS[1:]))
def test_east_pays_a_non_east_winner_exactly_double_what_another_loser_pays(score: int, winner: str) -> None:
    """With the losers all at 0 they only pay the winner: East pays 2 × score, each other loser 1 × score."""
    points = dict.fromkeys(WINDS, 0) | {winner: score}
    change = settle(points, winner)
    for seat in WINDS:
        if seat not in ("E", winner):
            assert change[seat] == -score
            assert change["E"] == 2 * change[seat]
    assert change[winner] == 4 * score


@settings(max_examples=500, deadline=None)
@given(scores)
def test_losers_settle_their_difference_undoubled_without_east(points: dict[str, int]) -> None:
    """East wins: each loser pays East 2 × East's score; between non-East losers the difference moves once."""
    change = settle(points, "E")
    for seat in WINDS[1:]:
        expected = -2 * points["E"] + sum(
            points[seat] - points[other] for other in WINDS[1:] if other != seat
        )
        assert change[seat] == expected
