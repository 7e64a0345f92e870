"""The hand as given: declared melds, concealed tiles, bonus tiles and the context of the win."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from scoring.errors import InputError
from scoring.tiles import INDEX, KINDS, format_tiles

WINDS = ("E", "S", "W", "N")
ROLES = ("winner", "loser")
FLAGS = ("last_tile", "kong_replacement", "kong_on_kong", "robbing_kong", "heaven", "earth", "dead_hand")


def meld_kind(tiles: Iterable[str]) -> str | None:
    """'chow', 'pung', 'kong' for a legal declared set of playing tiles, else None."""
    kinds = sorted(INDEX.get(code, -1) for code in tiles)
    if not kinds or kinds[0] < 0 or kinds[-1] >= KINDS:
        return None
    if len(kinds) in (3, 4) and kinds[0] == kinds[-1]:
        return "pung" if len(kinds) == 3 else "kong"
    first = kinds[0]
    if len(kinds) == 3 and first < 27 and first % 9 <= 6 and kinds[1] == first + 1 and kinds[2] == first + 2:
        return "chow"
    return None


@dataclass(frozen=True)
class Meld:
    """A declared set on the table: open chow/pung/kong, or a concealed kong (open=False)."""

    tiles: tuple[str, ...]
    open: bool = True

    @property
    def kind(self) -> str:
        """'chow', 'pung' or 'kong'; InputError for tiles that are none of these."""
        kind = meld_kind(self.tiles)
        if kind is None:
            raise InputError.of("meld_no_set", tiles=format_tiles(t for t in self.tiles if t in INDEX))
        return kind


@dataclass(frozen=True)
class Hand:
    """One player's hand at the end of a game; see CONTRACT.md for the meaning of every field."""

    seat_wind: str
    prevailing_wind: str
    concealed: tuple[str, ...]
    melds: tuple[Meld, ...] = ()
    bonus: tuple[str, ...] = ()
    winning_tile: str | None = None
    self_drawn: bool = False
    flags: frozenset[str] = field(default_factory=frozenset)
    ruleset: str = "app"
    role: str = "winner"

    @property
    def is_winner(self) -> bool:
        return self.role == "winner"
