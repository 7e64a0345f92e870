"""What the `mahjong-nts` commands share: the one-line error, reading FILE or stdin, argparse types."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, TextIO

from scoring import InputError

PROG = "mahjong-nts"


def fail(message: str, stream: TextIO | None = None) -> int:
    """Write the one-line error of a bad input or usage and return exit code 2."""
    line = " ".join(str(message).split())
    print(f"{PROG}: error: {line}", file=stream or sys.stderr)
    return 2


def read_text(path: str) -> str:
    """The text of FILE, or of stdin for `-`; OSError and undecodable bytes become InputError."""
    try:
        if path == "-":
            return sys.stdin.read().removeprefix("\ufeff")
        with open(path, encoding="utf-8-sig") as handle:  # a byte-order mark (Windows editors) is skipped
            return handle.read()
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text ({error.reason} at byte {error.start})") from None
    except OSError as error:
        raise InputError(f"cannot read {path}: {error.strerror or error}") from None


def json_problem(error: json.JSONDecodeError, where: str = "") -> str:
    """A one-line description of a JSON syntax error, with line and column."""
    return f"bad JSON{where}: {error.msg} (line {error.lineno}, column {error.colno})"


def json_type(value: Any) -> str:
    """The JSON name of a parsed value's type, for messages ("an array", "null")."""
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "null" if value is None else type(value).__name__


def fraction(text: str) -> float:
    """argparse type: a number from 0 to 1 (confidences), or a one-line usage error."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must lie between 0 and 1, got {text}")
    return value
