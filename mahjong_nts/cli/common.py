"""What the `mahjong-nts` commands share: the one-line error, reading FILE or stdin, argparse types."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from mahjong_nts.messages import one_line
from scoring.jsonread import read_bytes, show_path

PROG = "mahjong-nts"


def fail(message: str, stream: TextIO | None = None) -> int:
    """Write the one-line error of a bad input or usage and return exit code 2."""
    print(f"{PROG}: error: {one_line(message)}", file=stream or sys.stderr)
    return 2


def input_name(path: str) -> str:
    """FILE as messages name it: "stdin" for `-`, bytes that are not UTF-8 shown as \\xNN."""
    return "stdin" if path == "-" else show_path(path)


def read_input(path: str) -> bytes:
    """The bytes of FILE, or of stdin for `-` (size-limited); JsonError (an InputError) names the problem.

    Bytes, not text: invalid UTF-8 is then reported by `scoring.jsonread.decode` alike for stdin and files.
    """
    if path == "-" and getattr(sys.stdin, "buffer", None) is None:  # a text stream stands in (tests)
        return sys.stdin.read().encode("utf-8", "surrogateescape")
    return read_bytes(path)


def fraction(text: str) -> float:
    """argparse type: a number from 0 to 1 (confidences), or a one-line usage error."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must lie between 0 and 1, got {text}")
    return value
