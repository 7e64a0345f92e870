"""Hostile input to `score` and `settle` (issue 16): exit 0/1/2, one line on stderr, never a traceback,
and a bad hand among many costs only its own line."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mahjong_nts.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
HAND: dict[str, Any] = {
    "seat_wind": "E",
    "prevailing_wind": "S",
    "concealed": "234m567p777z88s",
    "melds": [{"tiles": "111z", "open": True}],
    "winning_tile": "4m",
    "self_drawn": True,
}
GOOD = json.dumps(HAND)
DEEP = "[" * 1000 + "]" * 1000
HUGE_INT = "1" * 5000


def run(argv: list[str], stdin: bytes, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> tuple[int, str, str]:
    """The dispatcher with `stdin` as raw bytes (as a shell pipes them)."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out, captured.err


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err[:500]
    return lines[0]


# item 1: deep nesting
@pytest.mark.parametrize("command", ["score", "settle"])
def test_deep_nesting_is_one_clean_line(command: str, monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    code, out, err = run([command, "--json", "-"], DEEP.encode(), monkeypatch, capsys)
    assert code == 2 and out == ""
    assert "nested deeper" in one_line(err)


def test_deep_line_in_json_lines_costs_only_that_line(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    text = "\n".join([GOOD, DEEP, GOOD]) + "\n"
    code, out, _ = run(["score", "--json", "-"], text.encode(), monkeypatch, capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(rows) == 3
    assert rows[0]["total"] == rows[2]["total"] == 136
    assert "hand 2" in rows[1]["error"] and "nested deeper" in rows[1]["error"]


# item 2: integers of over 4300 digits
def test_huge_integer_anywhere(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    text = "\n".join([GOOD, '{"seat_wind": ' + HUGE_INT + "}", GOOD]) + "\n"
    code, out, _ = run(["score", "--json", "-"], text.encode(), monkeypatch, capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and [("error" in row) for row in rows] == [False, True, False]
    assert "4300 digits" in rows[1]["error"]
    settle_text = '{"scores": {"E": ' + HUGE_INT + ', "S": 0, "W": 0, "N": 0}, "winner": "S"}'
    code, _, err = run(["settle", "--json", "-"], settle_text.encode(), monkeypatch, capsys)
    assert code == 2 and "4300 digits" in one_line(err)


# item 6: a malformed first line of JSON Lines
@pytest.mark.parametrize("first", ['{"seat_wind": "E", oops}', GOOD + " trailing", "[1, 2]", '"a hand"'])
def test_malformed_first_line_is_one_error_line(
    first: str, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    text = "\n".join([first, GOOD, GOOD]) + "\n"
    code, out, err = run(["score", "--json", "-"], text.encode(), monkeypatch, capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(rows) == 3
    assert "hand 1" in rows[0]["error"] and rows[1]["total"] == rows[2]["total"] == 136
    assert "1 of 3 hands failed" in err


# item 7: U+2028 / U+2029 / U+0085 inside a string
@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
def test_line_separators_inside_a_string_do_not_split_a_record(
    separator: str, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    odd = json.dumps({**HAND, "concealed": f"234m567p{separator}777z88s"}, ensure_ascii=False)
    assert separator in odd  # raw, not escaped: str.splitlines() would cut the record here
    text = "\n".join([GOOD, odd, GOOD]) + "\n"
    code, out, _ = run(["score", "--json", "-"], text.encode(), monkeypatch, capsys)
    assert code == 0 and [json.loads(line)["total"] for line in out.splitlines()] == [136, 136, 136]


# item 8: options that --json would ignore
@pytest.mark.parametrize(
    "option",
    [
        ["--ruleset", "nts"],
        ["--loser"],
        ["--meld", "111z"],
        ["--seat", "S"],
        ["--prevailing", "E"],
        ["--win", "4m"],
        ["--bonus", "1f"],
        ["--flag", "last_tile"],
        ["--self-drawn"],
        ["--concealed-kong", "2222s"],
        ["--lang", "en"],
    ],
)
def test_score_json_refuses_the_hand_options(
    option: list[str], monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    code, out, err = run(["score", "--json", "-", *option], GOOD.encode(), monkeypatch, capsys)
    assert code == 2 and out == ""
    assert option[0] in one_line(err)


# item 13: messages quote a short prefix
def test_a_megabyte_value_gives_a_short_message(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    big = json.dumps({**HAND, "seat_wind": "x" * 2**20})
    code, _, err = run(["score", "--json", "-"], big.encode(), monkeypatch, capsys)
    assert code == 2 and len(one_line(err)) < 200
    code, out, _ = run(["score", "--json", "-"], (big + "\n" + GOOD + "\n").encode(), monkeypatch, capsys)
    assert code == 1 and len(out.splitlines()[0]) < 300


# item 14: settle above the cap; invalid UTF-8 alike on stdin and from a file; no command
def test_settle_refuses_scores_above_the_cap(monkeypatch: pytest.MonkeyPatch, capsys: Any) -> None:
    text = '{"scores": {"E": 0, "S": ' + "1" + "0" * 4000 + ', "W": 0, "N": 0}, "winner": "S"}'
    code, out, err = run(["settle", "--json", "-"], text.encode(), monkeypatch, capsys)
    assert code == 2 and out == "" and "above the limit of 2000" in one_line(err)
    assert len(err) < 200


@pytest.mark.parametrize("command", ["score", "settle"])
def test_invalid_utf8_reads_the_same_from_stdin_and_a_file(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    data = b'{"seat_wind": "\xff"}'
    path = tmp_path / "bad.json"
    path.write_bytes(data)
    _, _, from_stdin = run([command, "--json", "-"], data, monkeypatch, capsys)
    _, _, from_file = run([command, "--json", str(path)], b"", monkeypatch, capsys)
    assert "not UTF-8 text (byte 0xff at offset 15)" in one_line(from_stdin)
    assert one_line(from_stdin).replace("stdin", str(path)) == one_line(from_file)


def test_no_command_prints_a_short_usage() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mahjong_nts"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) <= 3 and "score" in done.stderr and "batch" in done.stderr


def test_the_real_process_on_hostile_stdin_never_tracebacks() -> None:
    for data in (DEEP.encode(), b"\xff\xfe", ('{"a": ' + HUGE_INT + "}").encode(), b"[" * 200_000):
        for command in ("score", "settle"):
            done = subprocess.run(
                [sys.executable, "-m", "mahjong_nts", command, "--json", "-"],
                input=data,
                capture_output=True,
                cwd=ROOT,
                timeout=60,
            )
            assert done.returncode == 2, done.stderr
            assert b"Traceback" not in done.stderr and len(done.stderr.splitlines()) == 1
