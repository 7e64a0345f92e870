"""Rulesets by name: each is one file exposing `RULESET`; a new ruleset is one new file.

The files are the modules of this package (`app.py`, `nts.py`) plus any `*.py` in the folders listed in
`$MAHJONG_NTS_RULESETS` (a club's own rules, kept outside the package). Everything that lists or checks
rulesets (app, scoreboard, command line, session, batch) asks this registry.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from scoring.errors import InputError

if TYPE_CHECKING:
    from scoring.rules import Ruleset

RULESETS_ENV = "MAHJONG_NTS_RULESETS"
"""Extra folders of ruleset files, separated by the path separator (`:` on Linux)."""

DEFAULT_RULESET = "app"
_HELPERS = {"common"}


def _extra_files(folders: str) -> dict[str, Path]:
    """name -> file for every `*.py` (not starting with `_`) in the extra folders, first folder first."""
    found: dict[str, Path] = {}
    for folder in filter(None, folders.split(os.pathsep)):
        for path in sorted(Path(folder).glob("*.py")):
            if not path.name.startswith("_"):
                found.setdefault(path.stem, path)
    return found


@cache
def _own() -> tuple[str, ...]:
    """The rulesets of this package's own modules. They come before any extra folder's file of the same
    name, so asking for one of them needs no look at the environment (a batch asks three times a hand)."""
    return tuple(m.name for m in pkgutil.iter_modules(__path__) if m.name not in _HELPERS)


@cache
def _files(folders: str) -> Mapping[str, Path | None]:
    """name -> file of every ruleset (None: a module of this package); the default first, then by name."""
    names: dict[str, Path | None] = dict.fromkeys(_own())
    for name, path in _extra_files(folders).items():
        names.setdefault(name, path)
    return {name: names[name] for name in sorted(names, key=lambda n: (n != DEFAULT_RULESET, n))}


def ruleset_names() -> tuple[str, ...]:
    """Every ruleset's name, the default (`app`) first.

    >>> ruleset_names()[:2]
    ('app', 'nts')
    """
    return tuple(_files(os.environ.get(RULESETS_ENV, "")))


def is_ruleset(name: object) -> bool:
    """Whether `name` is one of ruleset_names()."""
    return isinstance(name, str) and (name in _own() or name in _files(os.environ.get(RULESETS_ENV, "")))


def get_ruleset(name: object) -> Ruleset:
    """The ruleset called `name` ('app', 'nts', ...); InputError naming the known ones otherwise."""
    if isinstance(name, str):
        if name in _own():
            return _load(name, None)
        path = _files(os.environ.get(RULESETS_ENV, "")).get(name)
        if path is not None:
            return _load(name, path)
    raise InputError(f"unknown ruleset {name!r} (use {' or '.join(ruleset_names())})")


@cache
def _load(name: str, path: Path | None) -> Ruleset:
    """Import the ruleset's file (None: this package's module) once and check that its RULESET carries its
    file's name."""
    if path is None:
        module = importlib.import_module(f"scoring.rulesets.{name}")
    else:
        spec = importlib.util.spec_from_file_location(f"mahjong_nts_ruleset_{name}", path)
        if spec is None or spec.loader is None:
            raise InputError(f"ruleset file {path} cannot be loaded")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    ruleset: Ruleset = module.RULESET
    if ruleset.name != name:
        raise InputError(f"ruleset file {name}.py names its ruleset {ruleset.name!r}")
    return ruleset


def ruleset_title(name: str, lang: str = "nl") -> str:
    """The ruleset's title in Dutch (`nl`) or English (`en`), for menus and help."""
    ruleset = get_ruleset(name)
    return ruleset.title_en if lang == "en" else ruleset.title_nl
