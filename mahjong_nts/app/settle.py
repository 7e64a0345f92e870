"""Settle one game between the four seats (SCORING section 9) as the page shows it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring import (
    WINDS,  # the four seats are named by their winds
    InputError,
    settle,
)


@dataclass(frozen=True)
class SeatScore:
    """One seat's line in: player name, the score of their hand, whether it was a dead hand."""

    seat: str
    name: str
    score: int
    dead: bool = False


@dataclass(frozen=True)
class Settlement:
    """Per seat: the score that counted and the change; `balance` is the sum of the changes (always 0)."""

    seats: tuple[SeatScore, ...]
    winner: str | None
    changes: dict[str, int]

    @property
    def balance(self) -> int:
        return sum(self.changes.values())

    def rows(self) -> list[dict[str, object]]:
        """One row per seat for the settlement table, E first."""
        return [
            {
                "seat": s.seat,
                "name": s.name,
                "score": s.score,
                "winner": s.seat == self.winner,
                "dead": s.dead,
                "change": self.changes[s.seat],
            }
            for s in self.seats
        ]


def settle_game(seats: Sequence[SeatScore], winner: str | None) -> Settlement:
    """Apply dead hands (they score 0 and still pay), then settle; InputError (one line) on bad input."""
    by_seat = {s.seat: s for s in seats}
    if sorted(by_seat) != sorted(WINDS) or len(seats) != len(WINDS):
        raise InputError("a game has exactly the four seats E, S, W, N", code="settle_seats")
    if winner is not None and by_seat[winner].dead:
        raise InputError(
            "the winner cannot have a dead hand; choose another winner or a draw", code="settle_dead_winner"
        )
    counted = tuple(
        SeatScore(s.seat, s.name, 0 if s.dead or winner is None else s.score, s.dead)
        for s in (by_seat[seat] for seat in WINDS)
    )
    changes = settle({s.seat: s.score for s in counted}, winner)
    return Settlement(counted, winner, changes)


def names_by_seat(seats: Mapping[str, str]) -> dict[str, str]:
    """Seat wind -> player from a session's player -> seat wind."""
    return {wind: player for player, wind in seats.items()}
