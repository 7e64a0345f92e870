"""waits (work in progress)."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.hand import Meld


def waits(concealed: Sequence[str], melds: Sequence[Meld] = (), ruleset: str = "app") -> list[str]:
    raise NotImplementedError("waits is being written")
