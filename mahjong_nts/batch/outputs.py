"""Files of a batch run: atomic writers, results.csv and results.jsonl from the per-photo records.

Every output is written to a temporary file in the same folder, flushed to disk and then renamed over the
old one (`os.replace`), so a reader (or an interrupted run) never sees a half-written file.
"""

from __future__ import annotations

import csv
import hashlib
import io
import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from mahjong_nts.batch.suggest import suggestion_text
from scoring.jsonread import dumps, show_path

CSV_COLUMNS = (
    "file",
    "tiles_read",
    "tiles_used",
    "valid",
    "reason",
    "suggestion",
    "base_points",
    "doublings",
    "limit_hand",
    "total",
    "confidence_mean",
    "confidence_min",
    "error",
    "assumed",
    "annotated",
)


NAME_MAX = 255
"""The longest file name, in bytes, that common file systems take (ext4, APFS, NTFS in UTF-16 units)."""
_TEMPORARY = len(".." + "0" * 12 + ".tmp")  # what a temporary file's name adds to the name it stands for


def short_name(name: str, limit: int = NAME_MAX) -> str:
    """`name` when it fits in `limit` bytes (as the file system gets it), else its start, "~", a short hash of
    the whole name (so two long names that start alike stay two files) and its extension.

    >>> short_name("hand1-jpg.jpg")
    'hand1-jpg.jpg'
    >>> short_name("x" * 300 + ".jpg", 40)
    'xxxxxxxxxxxxxxxxxxxxxxxxx~aac810c56a.jpg'
    """
    raw = os.fsencode(name)
    if len(raw) <= limit:
        return name
    digest = hashlib.sha256(raw).hexdigest()[:10]
    stem, dot, extension = name.rpartition(".")
    suffix = dot + extension if dot and len(os.fsencode(dot + extension)) <= 16 else ""
    room = limit - len(os.fsencode(suffix)) - len(digest) - 1
    start, used = [], 0
    for char in stem if suffix else name:  # whole characters only: a cut never splits one
        used += len(os.fsencode(char))
        if used > room:
            break
        start.append(char)
    return f"{''.join(start)}~{digest}{suffix}"


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write `data` to `path` via a temporary file, fsync and os.replace (permissions as the umask says)."""
    temporary = path.parent / f".{short_name(path.name, NAME_MAX - _TEMPORARY)}.{secrets.token_hex(6)}.tmp"
    handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    fsync_folder(path.parent)


def atomic_write_text(path: Path, text: str) -> None:
    """Write UTF-8 text atomically."""
    atomic_write_bytes(path, text.encode("utf-8"))


def fsync_folder(folder: Path) -> None:
    """Make a rename or a new file in `folder` durable (no-op where folders cannot be opened)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def json_line(record: Mapping[str, Any]) -> str:
    """One record as one line of JSON: UTF-8 kept readable, a file name that is not UTF-8 kept exact."""
    return dumps(record, compact=True) + "\n"


def write_jsonl(path: Path, records: Iterable[Mapping[str, Any]]) -> None:
    """results.jsonl: one full record per photo, in the order given."""
    atomic_write_text(path, "".join(json_line(record) for record in records))


def write_csv(path: Path, records: Iterable[Mapping[str, Any]]) -> None:
    """results.csv: one row per photo with the columns of CSV_COLUMNS."""
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for record in records:
        writer.writerow({key: spreadsheet_text(value) for key, value in csv_row(record).items()})
    atomic_write_text(path, buffer.getvalue())


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet takes as the start of a formula (CSV injection, OWASP)."""


def spreadsheet_text(value: Any) -> Any:
    """A CSV cell as a spreadsheet should show it: text starting like a formula gets a leading apostrophe
    (shown as text, not run); a file name that is not UTF-8 is shown with \\xNN. Numbers stay numbers."""
    if not isinstance(value, str):
        return value
    text = show_path(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_row(record: Mapping[str, Any]) -> dict[str, Any]:
    """The CSV cells of one record; empty cells where a photo has no result."""
    result = record.get("result") or {}
    mean, low = confidence_stats(record.get("tiles") or [])
    limit = result.get("limit_hand")
    return {
        "file": record["file"],
        "tiles_read": reading_text(record.get("tiles") or []),
        "tiles_used": hand_text(record.get("hand")),
        "valid": "" if not result else str(bool(result.get("valid"))).lower(),
        "reason": result.get("reason") or "",
        "suggestion": suggestion_text(record.get("suggestion")),
        "base_points": result.get("base_points", ""),
        "doublings": result.get("doublings", ""),
        "limit_hand": f"{limit['name']} ({limit['value']})" if limit else "",
        "total": result.get("total", ""),
        "confidence_mean": "" if mean is None else f"{mean:.3f}",
        "confidence_min": "" if low is None else f"{low:.3f}",
        "error": record.get("error") or "",
        "assumed": "; ".join(record.get("assumed") or []),
        "annotated": record.get("annotated") or "",
    }


def outcome_counts(records: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """How many photos were scored as mahjong, read but no legal mahjong, or failed."""
    errors = sum(1 for record in records if record.get("error"))
    valid = sum(
        1 for record in records if not record.get("error") and (record.get("result") or {}).get("valid")
    )
    return {"valid": valid, "not_mahjong": len(records) - errors - valid, "errors": errors}


def confidence_stats(tiles: Sequence[Mapping[str, Any]]) -> tuple[float | None, float | None]:
    """Mean and minimum tile confidence; (None, None) without tiles."""
    values = [float(tile["confidence"]) for tile in tiles]
    if not values:
        return None, None
    return sum(values) / len(values), min(values)


def reading_text(tiles: Sequence[Mapping[str, Any]]) -> str:
    """Tiles as read, row by row ("11z 123p / 4f"); runs of one suit grouped; face-down tiles as "back"."""
    rows: dict[int, list[str]] = {}
    for tile in tiles:
        rows.setdefault(int(tile.get("row", 0)), []).append(str(tile["code"]))
    from mahjong_nts.reading.tiles import grouped_codes  # here: the reading loads the recognizer's vocabulary

    return " / ".join(grouped_codes(codes) for codes in rows.values())


def hand_text(hand: Mapping[str, Any] | None) -> str:
    """The hand as scored: "123p11z444p | open 111z | concealed 5555m | bonus 4f"."""
    if not hand:
        return ""
    parts = [str(hand.get("concealed") or "")]
    for meld in hand.get("melds") or []:
        parts.append(f"{'open' if meld.get('open', True) else 'concealed'} {meld['tiles']}")
    if hand.get("bonus"):
        parts.append(f"bonus {hand['bonus']}")
    return " | ".join(parts)
