"""One JSON reading layer for the command line, batch sidecars and defaults.json: hostile input in, a value or
one clean `JsonError` out, never a traceback.

Every reader goes through `decode` (bytes or text; invalid UTF-8 reported the same way for stdin and files;
a byte-order mark skipped) and `parse` (size, nesting depth and over-long integers checked, NaN refused).
`parse_hands` reads what `score --json` accepts: one value, a JSON array, or JSON Lines, where each line is
its own record with its own value or error (split on "\\n" only, so U+2028 inside a string stays inside).
`quote` shows a value in a message without echoing a megabyte of it; `show_path` and `dumps` keep file names
that are not UTF-8 (surrogate escapes) readable in messages and exact in JSON written back out.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, BinaryIO, NamedTuple

from scoring.errors import InputError

MAX_BYTES = 64 * 2**20
"""Largest JSON input read (64 MiB: about 250,000 hands); larger is refused before it is parsed."""

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted; a hand needs 4 (array > hand > melds > meld)."""

MAX_DIGITS = 4300
"""Python's limit on converting long digit strings to int (sys.get_int_max_str_digits default)."""

QUOTE_CHARS = 40
"""How much of a string value a message shows."""

_JSON_BLANK = " \t\r"  # JSON's whitespace besides "\n"; str.strip() would also eat U+2028, \x1c, ...
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)  # a JSON string (linear: its branches never overlap)
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class JsonError(InputError):
    """Input that is not the JSON asked for; str(e) is one line naming where and what."""


class Record(NamedTuple):
    """One value of an array or one line of JSON Lines: the parsed `value`, or the `error` of that record."""

    number: int  # 1-based position among the records
    value: Any = None
    error: str | None = None


@dataclass(frozen=True)
class Hands:
    """What `score --json` read: `single` for one bare value (no array, no JSON Lines), and its records."""

    single: bool
    records: tuple[Record, ...]


def read_bytes(path: str, stdin: BinaryIO | None = None, max_bytes: int = MAX_BYTES) -> bytes:
    """The bytes of FILE, or of stdin for `-`, at most `max_bytes`; JsonError when unreadable or too large."""
    try:
        if path == "-":
            data = (stdin or sys.stdin.buffer).read(max_bytes + 1)
        else:
            with open(path, "rb") as handle:
                data = handle.read(max_bytes + 1)
    except OSError as error:
        raise JsonError(f"cannot read {show_path(path)}: {error.strerror or error}") from None
    if len(data) > max_bytes:
        raise JsonError(f"{show_path(path)}: larger than {max_bytes // 2**20} MiB")
    return data


def decode(data: bytes | str, where: str = "input") -> str:
    """UTF-8 text of `data` without a leading byte-order mark; JsonError naming the first bad byte."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    try:
        return data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as error:
        bad = data[error.start : error.start + 1].hex()
        raise JsonError(f"{where}: not UTF-8 text (byte 0x{bad} at offset {error.start})") from None


def parse(data: bytes | str, where: str = "input", max_bytes: int = MAX_BYTES) -> Any:
    """One JSON value from `data`; JsonError (one line, naming `where`) for anything else."""
    if len(data) > max_bytes:
        raise JsonError(f"{where}: larger than {max_bytes // 2**20} MiB")
    value, problem = _checked(decode(data, where))
    if problem is not None:
        raise JsonError(f"{where}: {problem}")
    return value


def parse_object(data: bytes | str, where: str = "input") -> dict[str, Any]:
    """One JSON object from `data` (a sidecar, defaults.json, labels.json); JsonError otherwise."""
    value = parse(data, where)
    if not isinstance(value, dict):
        raise JsonError(f"{where}: must hold one JSON object, not {json_type(value)}")
    return value


def parse_hands(data: bytes | str, where: str = "input", max_bytes: int = MAX_BYTES) -> Hands:
    """One value, an array of values, or JSON Lines (CONTRACT `score --json`), as records in input order.

    A whole document that does not parse is JSON Lines when it has several non-blank lines and at least
    half of them look like objects on their own; then every line is a record, the first one like the rest.
    Otherwise the document's problem is raised as JsonError. Blank lines are no records.
    """
    if len(data) > max_bytes:
        raise JsonError(f"{where}: larger than {max_bytes // 2**20} MiB")
    text = decode(data, where)
    value, problem = _checked(text)
    if problem is None:
        if isinstance(value, list):
            return Hands(False, tuple(Record(number, item) for number, item in enumerate(value, start=1)))
        return Hands(True, (Record(1, value),))
    lines = [line for line in text.split("\n") if line.strip(_JSON_BLANK)]
    if not _looks_like_json_lines(lines):
        raise JsonError(f"{where}: {problem}")
    return Hands(False, tuple(_line_records(lines)))


def _line_records(lines: list[str]) -> Iterator[Record]:
    """Each line parsed on its own: its value, or its problem."""
    loads = _DECODER.decode
    for number, line in enumerate(lines, start=1):
        try:  # the fast path: a plain small line
            if line.count("[") + line.count("{") <= MAX_DEPTH:
                yield Record(number, loads(line))
                continue
        except (ValueError, RecursionError):
            pass
        value, problem = _checked(line)
        yield Record(number, value, problem)


def _looks_like_json_lines(lines: list[str]) -> bool:
    """Several lines, at least half of them `{...}` on their own (a pretty object's lines are not)."""
    if len(lines) < 2:
        return False
    objects = sum(
        1 for line in lines if line.strip(_JSON_BLANK)[:1] == "{" and line.rstrip(_JSON_BLANK)[-1:] == "}"
    )
    return 2 * objects >= len(lines)


def _no_constant(name: str) -> Any:
    """NaN, Infinity and -Infinity are Python's extensions, not JSON: refused."""
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_no_constant)
_loads = _DECODER.decode


def _checked(text: str) -> tuple[Any, str | None]:
    """(value, None) for one acceptable JSON value, else (None, why not) in one line."""
    if not text.strip(_JSON_BLANK + "\n"):
        return None, "bad JSON: empty input"
    try:
        value = _loads(text)
    except json.JSONDecodeError as error:
        where = f"line {error.lineno}, column {error.colno}" if error.lineno > 1 else f"column {error.colno}"
        return None, f"bad JSON: {error.msg} ({where})"
    except RecursionError:  # the C scanner stops at the interpreter's recursion limit, cleanly
        return None, f"bad JSON: nested deeper than {MAX_DEPTH} levels"
    except ValueError as error:  # a number of over 4300 digits, or NaN / Infinity
        if "is not JSON" in str(error):
            return None, f"bad JSON: {error}"
        return None, f"bad JSON: a number with more than {MAX_DIGITS} digits"
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        return None, f"bad JSON: nested deeper than {MAX_DEPTH} levels"
    return value, None


def _depth(valid_json: str) -> int:
    """Deepest bracket nesting of valid JSON text (strings removed first), without recursion."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", valid_json))
    return max(accumulate(_DEPTH_STEP[char] for char in brackets), default=0)


def json_type(value: Any) -> str:
    """What kind of JSON value this is, for messages: 'an array', 'a string', 'a number', 'null', ..."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    return "null" if value is None else type(value).__name__


def quote(value: Any, limit: int = QUOTE_CHARS) -> str:
    """A short readable form of `value` for a message: at most `limit` characters of a string, the size of
    anything bigger, never the whole of a megabyte value nor a repr that recursion or int limits break.

    >>> quote("E"), quote("x" * 1000)[-17:], quote({"role": ["winner"]}), quote(10**5000)
    ("'E'", '(1000 characters)', "{'role': ['winner']}", 'a number of 5001 digits')
    """
    shown = _short(value, limit, level=0)
    if shown is not None:
        return shown
    if isinstance(value, str):
        return f"{value[:limit]!r}... ({len(value)} characters)"
    if isinstance(value, int):
        return f"a number of {_digits(value)} digits"
    if isinstance(value, list | tuple | dict):
        kind = "a tuple" if isinstance(value, tuple) else json_type(value)
        return f"{kind} of {len(value)} item{'' if len(value) == 1 else 's'}"
    text = " ".join(str(value).split())
    return text if len(text) <= limit else f"{text[:limit]}..."


def _short(value: Any, limit: int, level: int) -> str | None:
    """repr of a small value (short strings, numbers, containers two levels deep), else None."""
    if isinstance(value, str):
        return repr(value) if len(value) <= limit else None
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return repr(value)
    if isinstance(value, int):
        return repr(value) if _digits(value) <= limit else None
    if not isinstance(value, list | tuple | dict) or level >= 2 or len(value) > 8:
        return None
    pairs = value.items() if isinstance(value, dict) else ((None, item) for item in value)
    parts: list[str] = []
    for key, item in pairs:
        shown = _short(item, limit, level + 1)
        key_shown = "" if key is None else _short(key, limit, level + 1)
        if shown is None or key_shown is None:
            return None
        parts.append(f"{key_shown}: {shown}" if isinstance(value, dict) else shown)
    opening, closing = "{}" if isinstance(value, dict) else "()" if isinstance(value, tuple) else "[]"
    text = (
        opening + ", ".join(parts) + ("," if isinstance(value, tuple) and len(parts) == 1 else "") + closing
    )
    return text if len(text) <= 2 * limit else None


def _digits(number: int) -> int:
    """Decimal digits of an int, exact without converting huge ones to text."""
    number = abs(number)
    if number.bit_length() < 10_000:
        return len(str(number))
    estimate = int(number.bit_length() * 0.30102999566398)  # log10(2); exact up to the boundary below
    return estimate + int(number >= pow(10, estimate))


def show_path(path: str) -> str:
    """A file name as readable text: bytes that were not UTF-8 (surrogate escapes) shown as \\xNN."""
    try:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone surrogate that no byte gave
        return path.encode("utf-8", "backslashreplace").decode("utf-8")


def dumps(value: Any, compact: bool = False) -> str:
    """JSON text of `value` that always encodes as UTF-8: readable (ensure_ascii off) unless a string holds a
    lone surrogate (a file name that was not UTF-8), then escaped as \\udcff, which reads back exactly."""
    separators = (",", ":") if compact else None
    text = json.dumps(value, ensure_ascii=False, separators=separators)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(value, ensure_ascii=True, separators=separators)
    return text
