"""Settlement between the four seats (SCORING section 9)."""

from __future__ import annotations

import pytest

from scoring import WINDS
from scoring.errors import InputError
from scoring.settlement import settle


@pytest.mark.parametrize(
    ("scores", "winner", "expected"),
    [
        # Seed 002: South wins 128, the others score nothing.
        ({"E": 0, "S": 128, "W": 0, "N": 0}, "S", {"E": -256, "S": 512, "W": -128, "N": -128}),
        # BMJA: South wins 84 with East losing.
        ({"E": 80, "S": 84, "W": 208, "N": 416}, "S", {"E": -1096, "S": 336, "W": -36, "N": 796}),
        # East wins: every loser pays double.
        ({"E": 100, "S": 0, "W": 0, "N": 0}, "E", {"E": 600, "S": -200, "W": -200, "N": -200}),
        # East wins, losers settle among themselves undoubled: S pays W 10, W pays N... (N highest).
        (
            {"E": 50, "S": 10, "W": 20, "N": 40},
            "E",
            {"E": 300, "S": -100 - 10 - 30, "W": -100 + 10 - 20, "N": -100 + 30 + 20},
        ),
        # The winner scoring less than a loser still collects from everyone; losers settle the rest.
        (
            {"E": 0, "S": 0, "W": 40, "N": 500},
            "W",
            {"E": -80 - 1000, "S": -40 - 500, "W": 80 + 40 + 40, "N": -40 + 1000 + 500},
        ),
    ],
)
def test_published_and_hand_worked_examples(
    scores: dict[str, int], winner: str, expected: dict[str, int]
) -> None:
    assert settle(scores, winner) == expected


def test_draw_moves_nothing_whatever_the_scores() -> None:
    assert settle({"E": 10, "S": 200, "W": 0, "N": 8}, None) == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_result_keys_are_the_seats_in_order() -> None:
    assert tuple(settle({"N": 4, "W": 3, "S": 2, "E": 1}, "N")) == WINDS


@pytest.mark.parametrize(
    ("scores", "winner", "message"),
    [
        ({"E": 0, "S": 1, "W": 0}, "S", "missing seat 'N'"),
        ({"E": 0, "S": 1, "W": 0, "N": 0, "X": 3}, "S", "unknown seat 'X'"),
        ({"E": 0, "S": -1, "W": 0, "N": 0}, "S", "S must not be negative"),
        ({"E": 0, "S": 1.5, "W": 0, "N": 0}, "S", "S must be a whole number"),
        ({"E": 0, "S": "8", "W": 0, "N": 0}, "S", "S must be a whole number"),
        ({"E": True, "S": 8, "W": 0, "N": 0}, "S", "E must be a whole number"),
        ({"E": 0, "S": 8, "W": 0, "N": 0}, "Z", "winner must be one of E, S, W, N"),
        ({"E": 0, "S": 8, "W": 0, "N": 0}, "", "winner must be one of E, S, W, N"),
        ([0, 8, 0, 0], "S", "scores must be an object"),
    ],
)
def test_bad_input_is_one_line_input_error(scores: object, winner: str, message: str) -> None:
    with pytest.raises(InputError) as caught:
        settle(scores, winner)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
