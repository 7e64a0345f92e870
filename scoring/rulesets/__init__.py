"""Rulesets by name: each is one module here exposing RULESET; a new ruleset is one new file."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import TYPE_CHECKING

from scoring.errors import InputError

if TYPE_CHECKING:
    from scoring.rules import Ruleset

_HELPERS = {"common"}
RULESET_NAMES: tuple[str, ...] = tuple(
    sorted(
        (m.name for m in pkgutil.iter_modules(__path__) if m.name not in _HELPERS),
        key=lambda name: (name != "app", name),
    )
)


@cache
def get_ruleset(name: str) -> Ruleset:
    """The ruleset called `name` ('app', 'nts', ...); InputError for an unknown name."""
    if name not in RULESET_NAMES:
        raise InputError(f"unknown ruleset {name!r} (use {' or '.join(RULESET_NAMES)})")
    ruleset: Ruleset = importlib.import_module(f"scoring.rulesets.{name}").RULESET
    return ruleset
