"""`mahjong-nts batch` end to end: a folder of real sample photos and bad files, real worker processes and
real scoring, with a fake tile reader (the hands of samples/README.md) so results do not depend on models.
"""

from __future__ import annotations

import csv
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import numpy as np
import pytest

from mahjong_nts.batch.photo import PhotoRead, PhotoUnreadable
from mahjong_nts.cli import batch
from mahjong_nts.cli.main import build_parser
from scoring import parse_tiles

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"

# What the fake reader "sees" in each photo, by file stem; "?" marks a misread, low-confidence tile.
FAKE_TILES = {
    "hand1": "11z123p444p777z444z 4f",
    "hand2": "123m678m678m555m5z ?6z 2f",  # the last 5z misread as 6z
    "hand3": "123s345s789s789s44s 2y",
    "hand4": "678s666s55s777z222z 2y",
    "hand5": "789p456p333p444p22p",
    "hand6": "123456789m123456789p123456789s1234567z11z",  # 36 tiles in rows: not a hand
}


class FakeReader:
    """Decodes the file with Pillow (so bad files fail for real) and returns the tiles of FAKE_TILES.

    Test hooks by environment (they reach the worker processes): BATCH_FAKE_DELAY seconds per photo,
    BATCH_FAKE_LOG file that gets one line per photo read, BATCH_FAKE_CRASH stem whose worker dies.
    """

    def __init__(self, threads: int) -> None:
        self.threads = threads

    def read(self, path: Path) -> PhotoRead:
        from PIL import Image

        log = os.environ.get("BATCH_FAKE_LOG")
        if log:
            with open(log, "a", encoding="utf-8") as file:
                file.write(path.name + "\n")
        if path.stem == os.environ.get("BATCH_FAKE_CRASH"):
            os._exit(3)  # a native crash or the OOM killer, as the parent sees it
        time.sleep(float(os.environ.get("BATCH_FAKE_DELAY", "0")))
        try:
            with Image.open(path) as image:
                rgb = np.asarray(image.convert("RGB"))
        except (OSError, ValueError) as problem:
            raise PhotoUnreadable(f"cannot decode {path.name}: {problem}") from None
        stem = path.stem.replace("-", " ").split()[-1]  # "odd <name> & hand5", "03-hand3" -> a sample
        tiles: list[dict[str, Any]] = []
        for index, token in enumerate(FAKE_TILES.get(stem, "").split()):
            low = token.startswith("?")
            for code in parse_tiles(token.lstrip("?")):
                x = 10.0 + 20 * len(tiles)
                confidence = 0.31 if low else 0.97
                alternatives = [{"code": code, "confidence": confidence}]
                if low:
                    alternatives.append({"code": "5z", "confidence": 0.28})
                tiles.append(
                    {
                        "code": code,
                        "confidence": confidence,
                        "box": [x, 10.0, x + 18, 40.0],
                        "row": index // 9,
                        "alternatives": alternatives,
                    }
                )
        return PhotoRead(width=rgb.shape[1], height=rgb.shape[0], tiles=tiles, annotated=rgb)


class BrokenReader:
    """A reader whose models cannot be loaded."""

    def __init__(self, threads: int) -> None:
        raise FileNotFoundError("models/detector.onnx not found")


def run_batch_cli(argv: list[str], reader=FakeReader) -> int:
    args = build_parser().parse_args(["batch", *argv])
    return batch.run(args, reader_factory=reader)


def make_folder(folder: Path) -> Path:
    """Real sample photos, a sidecar with corrections, defaults.json and the bad files of the issue."""
    folder.mkdir()
    for n in range(1, 7):
        shutil.copy(SAMPLES / f"hand{n}.jpg", folder / f"hand{n}.jpg")
    from PIL import Image

    with Image.open(SAMPLES / "hand3.jpg") as image:
        image.save(folder / "hand3.webp", format="WEBP")
        image.save(folder / "odd <name> & hand5.png", format="PNG")
    Image.new("RGB", (64, 48), "white").save(folder / "blank.png")  # a real image without tiles
    (folder / "hand2.json").write_text(
        json.dumps({"concealed": "123m678m678m555m55z", "seat_wind": "S", "self_drawn": True})
    )
    (folder / "defaults.json").write_text(json.dumps({"prevailing_wind": "S"}))
    good = (SAMPLES / "hand1.jpg").read_bytes()
    (folder / "corrupt.jpg").write_bytes(good[:4] + bytes(range(256)) * 20)  # JPEG magic, garbage inside
    (folder / "notes.jpg").write_text("Tafel 3, ronde 2: Oost wint met een pung groene draken.\n")
    (folder / "empty.jpg").write_bytes(b"")
    (folder / "readme.txt").write_text("not a photo and not named like one")
    return folder


EXPECTED_FILES = [
    "blank.png",
    "corrupt.jpg",
    "empty.jpg",
    "hand1.jpg",
    "hand2.jpg",
    "hand3.jpg",
    "hand3.webp",
    "hand4.jpg",
    "hand5.jpg",
    "hand6.jpg",
    "notes.jpg",
    "odd <name> & hand5.png",
]
EXPECTED_ERRORS = {"blank.png", "corrupt.jpg", "empty.jpg", "hand6.jpg", "notes.jpg"}


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


class StrictHTML(HTMLParser):
    """Checks that every non-void element is closed in order and collects <img src>."""

    VOID = frozenset({"meta", "img", "br", "hr", "link", "input", "col", "area", "base", "source", "wbr"})

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.images: list[str] = []
        self.problems: list[str] = []
        self.text: list[str] = []
        self.doctype = False

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl.lower() == "doctype html"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.images.append(dict(attrs)["src"] or "")
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse_report(path: Path) -> StrictHTML:
    parser = StrictHTML()
    parser.feed(path.read_text(encoding="utf-8"))
    parser.close()
    assert parser.doctype, "no <!DOCTYPE html>"
    assert not parser.problems, parser.problems
    assert parser.stack == [], f"unclosed: {parser.stack}"
    return parser


def test_folder_with_bad_files_gives_a_row_per_photo_and_exit_1(tmp_path: Path, capsys) -> None:
    folder = make_folder(tmp_path / "photos")
    out = tmp_path / "out"

    code = run_batch_cli([str(folder), "--out", str(out), "--progress", "lines"])

    captured = capsys.readouterr()
    assert code == 1
    summary = json.loads(captured.out)
    assert summary["photos"] == len(EXPECTED_FILES) and summary["errors"] == len(EXPECTED_ERRORS)
    assert "Traceback" not in captured.err
    assert captured.err.count("batch: [") == len(EXPECTED_FILES)  # the plain line-per-photo progress

    rows = read_csv(out / "results.csv")
    assert [row["file"] for row in rows] == EXPECTED_FILES
    assert {row["file"] for row in rows if row["error"]} == EXPECTED_ERRORS
    by_file = {row["file"]: row for row in rows}
    assert by_file["corrupt.jpg"]["error"].startswith("unreadable image:")
    assert by_file["notes.jpg"]["error"].startswith("unreadable image:")
    assert by_file["empty.jpg"]["error"].startswith("unreadable image:")
    assert by_file["blank.png"]["error"] == "hand: no tiles read in the photo; give the hand in a sidecar"
    assert by_file["hand6.jpg"]["error"].startswith("hand: ")
    assert "\n" not in "".join(row["error"] for row in rows)

    records = {record["file"]: record for record in read_jsonl(out / "results.jsonl")}
    assert list(records) == EXPECTED_FILES
    for name in set(EXPECTED_FILES) - EXPECTED_ERRORS:
        record = records[name]
        assert record["result"]["total"] == int(by_file[name]["total"])
        assert record["hand"]["prevailing_wind"] == "S"  # from defaults.json
        assert not any(note.startswith("prevailing_wind") for note in record["assumed"])
        assert by_file[name]["confidence_min"]
    # the sidecar's corrected tiles are used, its context too; the misread 6z is only in "tiles read"
    hand2 = records["hand2.jpg"]
    assert sorted(parse_tiles(hand2["hand"]["concealed"])) == sorted(parse_tiles("123m678m678m555m55z"))
    assert hand2["hand"]["seat_wind"] == "S" and hand2["hand"]["self_drawn"] is True
    assert "6z" in by_file["hand2.jpg"]["tiles_read"] and "6z" not in by_file["hand2.jpg"]["tiles_used"]
    assert hand2["sidecar"] == "hand2.json"
    hand1 = records["hand1.jpg"]
    assert "seat_wind E" in hand1["assumed"] and hand1["hand"]["bonus"] == "4f"
    assert by_file["hand1.jpg"]["valid"] == "true"

    # the HTML is well formed and every annotated image it references exists
    report = parse_report(out / "report.html")
    annotated = {record["annotated"] for record in records.values() if record["annotated"]}
    assert len(annotated) == len(EXPECTED_FILES) - 3  # all but the three unreadable files
    assert {unquote(src) for src in report.images} == annotated
    for src in report.images:
        assert (out / unquote(src)).is_file()
    html_text = (out / "report.html").read_text(encoding="utf-8")
    assert "odd &lt;name&gt; &amp; hand5.png" in html_text and "<name>" not in html_text
    assert "@media print" in html_text and "<script" not in html_text
    text = " ".join(report.text)
    assert (
        "Controleer deze stenen (lage zekerheid)" in text
        and "steen 14 gelezen als 6z Groene draak (0,31); of misschien 5z (0,28)" in text
    )


def test_two_workers_give_the_same_rows(tmp_path: Path) -> None:
    folder = make_folder(tmp_path / "photos")
    assert run_batch_cli([str(folder), "--out", str(tmp_path / "one"), "-q"]) == 1
    assert run_batch_cli([str(folder), "--out", str(tmp_path / "two"), "-q", "--workers", "2"]) == 1
    assert (tmp_path / "one" / "results.csv").read_text() == (tmp_path / "two" / "results.csv").read_text()


def test_embed_images_puts_the_images_in_the_page(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(SAMPLES / "hand1.jpg", folder)
    out = tmp_path / "out"
    assert run_batch_cli([str(folder), "--out", str(out), "-q", "--embed-images"]) == 0
    report = parse_report(out / "report.html")
    assert len(report.images) == 1 and report.images[0].startswith("data:image/jpeg;base64,")


def test_default_out_is_inside_folder_and_never_read_back(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "photos"
    (folder / "round2").mkdir(parents=True)
    shutil.copy(SAMPLES / "hand1.jpg", folder)
    shutil.copy(SAMPLES / "hand4.jpg", folder / "round2" / "hand4.jpg")
    (folder / "round2" / "defaults.json").write_text('{"prevailing_wind": "W", "seat_wind": "N"}')
    (folder / "defaults.json").write_text('{"prevailing_wind": "S"}')
    for _ in range(2):  # the second run must not pick up the first run's annotated images
        assert run_batch_cli([str(folder), "--recursive", "-q"]) == 0
    records = read_jsonl(folder / batch.DEFAULT_OUT_NAME / "results.jsonl")
    assert [record["file"] for record in records] == ["hand1.jpg", "round2/hand4.jpg"]
    assert records[0]["hand"]["prevailing_wind"] == "S" and records[0]["hand"]["seat_wind"] == "E"
    assert records[1]["hand"]["prevailing_wind"] == "W" and records[1]["hand"]["seat_wind"] == "N"
    assert records[1]["given_by"] == {
        "prevailing_wind": "round2/defaults.json",
        "seat_wind": "round2/defaults.json",
    }


@pytest.mark.parametrize(
    ("sidecar", "error"),
    [
        ("{not json", "sidecar hand1.json: bad JSON"),
        ('{"seat": "S"}', "sidecar hand1.json: unknown key 'seat'"),
        ('["S"]', "sidecar hand1.json: must hold one JSON object"),
        ('{"seat_wind": "X"}', "hand: "),
        ('{"concealed": "123m1x"}', "hand: "),
    ],
)
def test_bad_sidecar_is_that_photos_error_only(tmp_path: Path, sidecar: str, error: str) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    for name in ("hand1.jpg", "hand3.jpg"):
        shutil.copy(SAMPLES / name, folder)
    (folder / "hand1.json").write_text(sidecar)
    out = tmp_path / "out"
    assert run_batch_cli([str(folder), "--out", str(out), "-q"]) == 1
    rows = read_csv(out / "results.csv")
    assert rows[0]["file"] == "hand1.jpg" and rows[0]["error"].startswith(error)
    assert rows[0]["tiles_read"]  # the photo was still read and annotated
    assert rows[1]["file"] == "hand3.jpg" and rows[1]["error"] == "" and rows[1]["total"]


@pytest.mark.parametrize(
    ("defaults", "message"),
    [
        ('{"seat": "S"}', "defaults.json: unknown key 'seat'"),
        ('{"concealed": "123m"}', "defaults.json: 'concealed' differs per photo"),
        ("[", "defaults.json: bad JSON"),
    ],
)
def test_broken_defaults_json_stops_with_exit_2(tmp_path: Path, capsys, defaults: str, message: str) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(SAMPLES / "hand1.jpg", folder)
    (folder / "defaults.json").write_text(defaults)
    assert run_batch_cli([str(folder), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mahjong-nts batch: {message}") and err.count("\n") == 1


def test_usage_errors_exit_2_with_one_line(tmp_path: Path, capsys) -> None:
    assert run_batch_cli([str(tmp_path / "missing")]) == 2
    assert capsys.readouterr().err.strip() == f"mahjong-nts batch: no such folder: {tmp_path / 'missing'}"
    (tmp_path / "empty").mkdir()
    assert run_batch_cli([str(tmp_path / "empty")]) == 2
    assert "no JPEG, PNG, WebP, HEIC or AVIF photos" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stop:
        build_parser().parse_args(["batch", str(tmp_path), "--workers", "two"])
    assert stop.value.code == 2


def test_reader_that_cannot_start_exits_2(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(SAMPLES / "hand1.jpg", folder)
    assert run_batch_cli([str(folder), "--out", str(tmp_path / "out")], reader=BrokenReader) == 2
    err = capsys.readouterr().err
    assert "cannot start the tile recognizer: FileNotFoundError: models/detector.onnx not found" in err
    assert "Traceback" not in err


def test_resume_keeps_done_photos_and_redoes_changed_ones(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    for n in (1, 3, 4, 5):
        shutil.copy(SAMPLES / f"hand{n}.jpg", folder)
    out, log = tmp_path / "out", tmp_path / "reads.log"
    monkeypatch.setenv("BATCH_FAKE_LOG", str(log))
    assert run_batch_cli([str(folder), "--out", str(out), "-q"]) == 0
    first = read_jsonl(out / "results.jsonl")
    log.unlink()

    (folder / "hand3.json").write_text('{"seat_wind": "W"}')  # a new sidecar: hand3 must be redone
    (out / first[2]["annotated"]).unlink()  # a lost annotated image: hand4 must be redone
    assert run_batch_cli([str(folder), "--out", str(out), "-q", "--resume"]) == 0
    assert sorted(log.read_text().split()) == ["hand3.jpg", "hand4.jpg"]
    second = read_jsonl(out / "results.jsonl")
    assert [r["file"] for r in second] == ["hand1.jpg", "hand3.jpg", "hand4.jpg", "hand5.jpg"]
    assert second[0] == first[0] and second[3] == first[3]
    assert second[1]["hand"]["seat_wind"] == "W"

    log.unlink()
    assert run_batch_cli([str(folder), "--out", str(out), "-q", "--resume"]) == 0
    assert not log.exists()  # nothing left to do
    assert run_batch_cli([str(folder), "--out", str(out), "-q"]) == 0  # without --resume: all again
    assert len(log.read_text().split()) == 4


def test_dead_worker_fails_only_its_photo_and_resume_retries_it(tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    for n in (1, 3, 4, 5):
        shutil.copy(SAMPLES / f"hand{n}.jpg", folder)
    out = tmp_path / "out"
    monkeypatch.setenv("BATCH_FAKE_CRASH", "hand4")
    assert run_batch_cli([str(folder), "--out", str(out), "-q", "--workers", "2"]) == 1
    rows = read_csv(out / "results.csv")
    assert [row["file"] for row in rows if row["error"]] == ["hand4.jpg"]
    assert "worker process died" in rows[2]["error"]
    assert all(row["total"] for row in rows if row["file"] != "hand4.jpg")

    monkeypatch.delenv("BATCH_FAKE_CRASH")
    assert run_batch_cli([str(folder), "--out", str(out), "-q", "--resume"]) == 0
    assert all(row["error"] == "" for row in read_csv(out / "results.csv"))


KILLABLE = """
import sys
sys.path.insert(0, {tests!r})
import test_batch
sys.exit(test_batch.run_batch_cli(sys.argv[1:]))
"""


def start_batch(folder: Path, out: Path, *extra: str, env: dict[str, str]) -> subprocess.Popen[bytes]:
    script = KILLABLE.format(tests=str(Path(__file__).parent))
    return subprocess.Popen(
        [sys.executable, "-c", script, str(folder), "--out", str(out), "--progress", "lines", *extra],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def child_pids(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True, check=False)
    return [int(line) for line in found.stdout.split()]


def is_running(pid: int) -> bool:
    """Alive and not a zombie (a zombie holds no memory; its reaper is not ours to be)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def wait_for_lines(path: Path, count: int, process: subprocess.Popen[bytes], limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and len(path.read_bytes().splitlines()) >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{path.name} never reached {count} lines (exit {process.poll()})")


@pytest.mark.slow
@pytest.mark.parametrize("workers", ["1", "2"])
def test_killed_run_resumes_without_redoing_or_losing_rows(tmp_path: Path, workers: str) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    names = [f"{n:02d}-hand{n % 5 + 1}.jpg" for n in range(1, 13)]
    for name in names:
        shutil.copy(SAMPLES / name[3:], folder / name)
    out, log = tmp_path / "out", tmp_path / "reads.log"
    env = {"BATCH_FAKE_LOG": str(log), "BATCH_FAKE_DELAY": "0.3"}

    process = start_batch(folder, out, "--workers", workers, env=env)
    wait_for_lines(out / "results.jsonl", 4, process)
    children = child_pids(process.pid)
    assert len(children) >= int(workers)
    try:
        os.kill(process.pid, signal.SIGKILL)  # the parent only, mid-run, as the OOM killer would
        assert process.wait(timeout=30) == -signal.SIGKILL
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and any(map(is_running, children)):
            time.sleep(0.1)
        assert not any(map(is_running, children)), "orphaned workers kept running"
    finally:
        for pid in filter(is_running, children):
            os.kill(pid, signal.SIGKILL)
        process.communicate(timeout=30)
    before = {record["file"] for record in read_jsonl(out / "results.jsonl")}  # every line is whole
    assert 4 <= len(before) < len(names)
    assert not (out / "results.csv").exists()  # written only at the end, never half

    reads_before = log.read_text().split()
    log.unlink()
    resumed = start_batch(folder, out, "--resume", "--workers", workers, env={"BATCH_FAKE_LOG": str(log)})
    stdout, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr.decode()
    redone = log.read_text().split()
    assert set(redone) == set(names) - before  # nothing recorded was read again
    assert len(redone) == len(set(redone))
    assert len(set(reads_before) - before) <= int(workers)  # at most the photos in flight were lost
    records = read_jsonl(out / "results.jsonl")
    assert [record["file"] for record in records] == names  # no duplicates, none lost, sorted
    assert [row["file"] for row in read_csv(out / "results.csv")] == names
    assert json.loads(stdout)["reused"] == len(before)
    parse_report(out / "report.html")


@pytest.mark.slow
def test_sigterm_stops_cleanly_with_partial_outputs(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    for n in range(1, 9):
        shutil.copy(SAMPLES / f"hand{n % 5 + 1}.jpg", folder / f"{n}-hand{n % 5 + 1}.jpg")
    out = tmp_path / "out"
    process = start_batch(folder, out, env={"BATCH_FAKE_DELAY": "0.3"})
    wait_for_lines(out / "results.jsonl", 2, process)
    process.send_signal(signal.SIGTERM)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr.decode()
    assert "Traceback" not in stderr.decode()
    summary = json.loads(stdout)
    assert summary["interrupted"] and 2 <= summary["done"] < 8
    assert len(read_csv(out / "results.csv")) == summary["done"]
    assert "Start opnieuw met --resume" in (out / "report.html").read_text(encoding="utf-8")


def test_progress_bar_on_stderr_and_json_summary_on_stdout(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    for n in (1, 3):
        shutil.copy(SAMPLES / f"hand{n}.jpg", folder)
    assert run_batch_cli([str(folder), "--out", str(tmp_path / "out"), "--progress", "bar"]) == 0
    captured = capsys.readouterr()
    assert "2/2" in captured.err and "photo" in captured.err  # tqdm's bar
    assert json.loads(captured.out) == {
        "photos": 2,
        "done": 2,
        "reused": 0,
        "valid": 2,
        "not_mahjong": 0,
        "errors": 0,
        "interrupted": False,
        "out": str(tmp_path / "out"),
        "report": str(tmp_path / "out" / "report.html"),
        "csv": str(tmp_path / "out" / "results.csv"),
        "jsonl": str(tmp_path / "out" / "results.jsonl"),
    }


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_unwritable_output_folder_exits_2_with_one_line(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(SAMPLES / "hand1.jpg", folder)
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o500)
    try:
        assert run_batch_cli([str(folder), "--out", str(out), "-q"]) == 2
    finally:
        out.chmod(0o700)
    err = capsys.readouterr().err
    assert err.startswith("mahjong-nts batch: cannot write") and err.count("\n") == 1


def test_full_disk_on_the_record_exits_2_with_one_line(tmp_path: Path, capsys, monkeypatch) -> None:
    from mahjong_nts.batch import record as batch_record

    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(SAMPLES / "hand1.jpg", folder)

    def full(self, record) -> None:
        raise OSError(28, "No space left on device", str(tmp_path / "out" / "results.jsonl"))

    monkeypatch.setattr(batch_record.Journal, "append", full)
    assert run_batch_cli([str(folder), "--out", str(tmp_path / "out"), "-q"]) == 2
    err = capsys.readouterr().err
    assert (
        err
        == f"mahjong-nts batch: cannot write {tmp_path / 'out' / 'results.jsonl'}: No space left on device\n"
    )


def test_photos_differing_only_in_extension_get_their_own_annotated_image(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    for name in ("hand1.jpg", "hand1.JPG", "hand1.png"):
        shutil.copy(SAMPLES / "hand1.jpg", folder / name)
    out = tmp_path / "out"
    assert run_batch_cli([str(folder), "--out", str(out), "-q"]) == 0
    records = read_jsonl(out / "results.jsonl")
    assert [record["file"] for record in records] == ["hand1.JPG", "hand1.jpg", "hand1.png"]
    annotated = [record["annotated"] for record in records]
    assert len(set(annotated)) == 3 and all((out / path).is_file() for path in annotated)


def test_a_hand_error_is_kept_in_dutch_for_the_handout(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    shutil.copy(SAMPLES / "hand1.jpg", folder)
    (folder / "hand1.json").write_text('{"concealed": "11111m22z"}')
    out = tmp_path / "out"
    assert run_batch_cli([str(folder), "--out", str(out), "-q"]) == 1
    record = read_jsonl(out / "results.jsonl")[0]
    assert record["error"] == "hand: 5 of '1m'; only 4 of each tile exist"
    assert record["error_nl"] == "hand: 5 × 1 karakter; er zijn maar 4 van elke steen"
    page = (out / "report.html").read_text(encoding="utf-8")
    assert "Fout: hand: 5 × 1 karakter; er zijn maar 4 van elke steen" in page and "only 4" not in page
