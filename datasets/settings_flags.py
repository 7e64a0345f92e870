"""`--set NAME=VALUE` for the measuring tools: any field of recognizer.pipeline.Settings changed from the
command line (`--set unstretch=false --set first_pass_scales=1.0,0.75`), so that an ablation is one flag,
not a throwaway script. Values are read by the field's type; a bad name or value is a clear error.
"""

from __future__ import annotations

import argparse
import math
import types
import typing
from dataclasses import fields, replace
from typing import Any

from recognizer.pipeline import Settings

TRUE, FALSE = ("true", "yes", "on", "1"), ("false", "no", "off", "0")


def add_set_flag(parser: argparse.ArgumentParser) -> None:
    """Add the repeatable --set NAME=VALUE flag."""
    parser.add_argument(
        "--set", dest="set", action="append", default=[], metavar="NAME=VALUE",
        help="change one recognizer.pipeline.Settings field for this run (repeatable), e.g. unstretch=false",
    )  # fmt: skip


def _value(text: str, kind: Any) -> Any:
    """`text` read as a value of type `kind` (bool, int, float, str, a Literal, a tuple of floats, or
    any of these or None); ValueError when it is none of them."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin in (typing.Union, types.UnionType):
        if text.lower() == "none" and type(None) in args:
            return None
        errors = []
        for member in (a for a in args if a is not type(None)):
            try:
                return _value(text, member)
            except ValueError as exc:
                errors.append(str(exc))
        raise ValueError("; ".join(errors))
    if origin is typing.Literal:
        if text not in args:
            raise ValueError(f"one of {', '.join(map(str, args))}")
        return text
    if origin is tuple:
        return tuple(float(part) for part in text.split(",") if part.strip())
    if kind is bool:
        if text.lower() in TRUE:
            return True
        if text.lower() in FALSE:
            return False
        raise ValueError("true or false")
    if kind is int:
        try:
            return int(text)
        except ValueError:
            raise ValueError("a whole number") from None
    if kind is float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if math.isnan(value):
            raise ValueError("a number")
        return value
    return text


def apply_sets(settings: Settings, assignments: list[str]) -> Settings:
    """`settings` with each NAME=VALUE of `assignments` applied; ValueError naming the bad one."""
    hints = typing.get_type_hints(Settings)
    names = {f.name for f in fields(Settings)}
    changes: dict[str, Any] = {}
    for item in assignments:
        name, sep, text = item.partition("=")
        name = name.strip()
        if not sep or name not in names:
            raise ValueError(
                f"--set {item!r}: expected NAME=VALUE with NAME one of {', '.join(sorted(names))}"
            )
        try:
            changes[name] = _value(text.strip(), hints[name])
        except ValueError as exc:
            raise ValueError(f"--set {item!r}: {name} must be {exc}") from None
    return replace(settings, **changes)
