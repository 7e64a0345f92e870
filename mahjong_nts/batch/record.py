"""The durable record of a batch run: results.jsonl, appended one fsynced line per finished photo.

A photo counts as done for `--resume` when its line's fingerprint matches: the photo's path, size and
modification time, and the context the folder gives it (defaults.json files and sidecar). Editing a sidecar
or replacing a photo therefore redoes that photo. A SIGKILL loses at most the photos in flight; a torn last
line (power loss) is ignored when the record is read back.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from mahjong_nts.batch.outputs import fsync_folder, json_line, write_jsonl
from mahjong_nts.batch.sidecar import PhotoContext

RECORD_VERSION = 1  # bump when a record's meaning changes: older records are then redone


def fingerprint(rel: str, path: Path, context: PhotoContext) -> str:
    """What decides a photo's result, hashed: path, size, mtime, the given context or its error."""
    stat = path.stat()
    key = [RECORD_VERSION, rel, stat.st_size, stat.st_mtime_ns, context.given, context.error]
    text = json.dumps(key, sort_keys=True, ensure_ascii=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def read_records(path: Path) -> dict[str, dict[str, Any]]:
    """The last complete record per file in results.jsonl; unreadable lines (a torn tail) are skipped."""
    records: dict[str, dict[str, Any]] = {}
    try:
        lines = path.read_bytes().split(b"\n")
    except FileNotFoundError:
        return records
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("file"), str):
            records[record["file"]] = record
    return records


def is_done(record: Mapping[str, Any] | None, fingerprint_now: str, out_dir: Path) -> bool:
    """Whether a recorded photo can be kept: same fingerprint, not a transient failure, image still there."""
    if not record or record.get("fingerprint") != fingerprint_now or record.get("retry"):
        return False
    annotated = record.get("annotated")
    return annotated is None or (out_dir / annotated).is_file()


class Journal:
    """Appends records to results.jsonl, one write and one fsync per photo."""

    def __init__(self, path: Path, kept: Iterable[Mapping[str, Any]]) -> None:
        """Start the record with the `kept` records (rewritten atomically, dropping a torn tail)."""
        self.path = path
        write_jsonl(path, kept)
        self._handle = os.open(path, os.O_WRONLY | os.O_APPEND)

    def append(self, record: Mapping[str, Any]) -> None:
        data = json_line(record).encode("utf-8")
        written = os.write(self._handle, data)
        if written != len(data):  # a regular file takes the whole line; anything else is a full disk
            raise OSError(f"short write to {self.path.name} (disk full?)")
        os.fsync(self._handle)

    def close(self) -> None:
        if self._handle >= 0:
            os.close(self._handle)
            self._handle = -1
            fsync_folder(self.path.parent)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
