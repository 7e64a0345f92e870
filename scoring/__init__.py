"""NTS scoring engine: pure Python, no dependencies.

Public API (docs/ARCHITECTURE.md): tiles, the Hand model, JSON conversion, scoring, waits; settlement and
session helpers are re-exported lazily from their own modules.
"""

from __future__ import annotations

from typing import Any

from scoring.errors import InputError, TileError
from scoring.hand import WINDS, Hand, Meld
from scoring.io import hand_from_dict, hand_to_dict
from scoring.result import ScoredSet, ScoreItem, ScoreResult
from scoring.rulesets import get_ruleset, ruleset_names, ruleset_title
from scoring.scorer import score_hand
from scoring.tiles import TILE_CODES, format_tiles, parse_tiles, tile_name
from scoring.waits import waits
from scoring.wording import describe

__all__ = [
    "TILE_CODES",
    "WINDS",
    "Hand",
    "InputError",
    "Meld",
    "ScoreItem",
    "ScoreResult",
    "ScoredSet",
    "TileError",
    "describe",
    "format_tiles",
    "get_ruleset",
    "hand_from_dict",
    "hand_to_dict",
    "next_seat_winds",
    "parse_tiles",
    "prevailing_wind_for_game",
    "ruleset_names",
    "ruleset_title",
    "score_hand",
    "settle",
    "tile_name",
    "waits",
]

_LAZY = {
    "settle": "scoring.settlement",
    "next_seat_winds": "scoring.session",
    "prevailing_wind_for_game": "scoring.session",
}


def __getattr__(name: str) -> Any:
    """Settlement and session helpers, imported on first use (they import this package's errors)."""
    module_name = _LAZY.get(name)
    if module_name is None:
        raise AttributeError(f"module 'scoring' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(module_name), name)
    globals()[name] = value
    return value
