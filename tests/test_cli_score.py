"""`mahjong-nts score` and `mahjong-nts settle` (CONTRACT.md), driven through the dispatcher."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from mahjong_nts.cli.main import main

ROOT = Path(__file__).resolve().parents[1]

# SCORING section 11, seed 000: East, prevailing South, open pung of East, 4m self-drawn: 136 in both.
SEED_000 = {
    "seat_wind": "E",
    "prevailing_wind": "S",
    "concealed": "234m567p777z88s",
    "melds": [{"tiles": "111z", "open": True}],
    "winning_tile": "4m",
    "self_drawn": True,
}
# Seed 002: South, prevailing East, open pung of red dragons, 8m self-drawn: nts 128, app 120.
SEED_002 = {
    "ruleset": "nts",
    "seat_wind": "S",
    "prevailing_wind": "E",
    "concealed": "222m345m678m22z",
    "melds": [{"tiles": "777z", "open": True}],
    "winning_tile": "8m",
    "self_drawn": True,
}
SEED_002_APP = {**SEED_002, "ruleset": "app"}


def run_cli(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    stdin: str | None = None,
) -> tuple[int, str, str]:
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def write(tmp_path: Path, text: str, name: str = "hands.json") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("mahjong-nts: error: ")
    assert "Traceback" not in err
    return lines[0]


# --- score --json ---------------------------------------------------------------------------------------


def test_one_hand_object_gives_one_result_object(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(capsys, monkeypatch, ["score", "--json", write(tmp_path, json.dumps(SEED_000))])
    assert code == 0, err
    result = json.loads(out)
    assert result["valid"] is True
    assert (result["total"], result["base_points"], result["doublings"]) == (136, 34, 2)
    assert result["reason"] is None and result["limit_hand"] is None
    assert {"name": "Mahjong", "points": 20} in [
        {key: item[key] for key in ("name", "points") if key in item} for item in result["items"]
    ]


def test_stdin_dash_and_compact(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run_cli(capsys, monkeypatch, ["score", "--json", "-", "--compact"], json.dumps(SEED_002))
    assert code == 0
    assert len(out.splitlines()) == 1
    assert json.loads(out)["total"] == 128


def test_array_gives_one_line_per_hand_in_order(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = [SEED_002, SEED_000, SEED_002_APP]
    code, out, _ = run_cli(capsys, monkeypatch, ["score", "--json", "-"], json.dumps(hands, indent=2))
    assert code == 0
    assert [json.loads(line)["total"] for line in out.splitlines()] == [128, 136, 120]


def test_single_element_array_is_still_a_batch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run_cli(capsys, monkeypatch, ["score", "--json", "-"], json.dumps([SEED_000]))
    assert code == 0
    assert len(out.splitlines()) == 1 and json.loads(out)["total"] == 136


def test_json_lines_with_malformed_lines_keep_going_and_exit_1(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        json.dumps(SEED_000),
        '{"seat_wind": "E", oops}',  # bad JSON on this line only
        json.dumps({**SEED_000, "concealed": "234m567p777z88z"}),  # 8z is no tile
        "",
        json.dumps(SEED_002),
        "[1, 2]",  # not a hand object
    ]
    code, out, err = run_cli(capsys, monkeypatch, ["score", "--json", "-"], "\n".join(lines) + "\n")
    assert code == 1
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 5
    assert rows[0]["total"] == 136 and rows[3]["total"] == 128
    assert "bad JSON" in rows[1]["error"] and "hand 2" in rows[1]["error"]
    assert "8z" in rows[2]["error"]
    assert "JSON object" in rows[4]["error"]
    assert "3 of 5 hands failed" in err and "Traceback" not in err


def test_array_with_one_malformed_hand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    hands = [SEED_000, {**SEED_000, "colour": "red"}]
    code, out, _ = run_cli(capsys, monkeypatch, ["score", "--json", "-"], json.dumps(hands))
    assert code == 1
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["total"] == 136
    assert set(second) == {"error"} and "colour" in second["error"]


def test_bad_json_document_is_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = json.dumps(SEED_000, indent=2).replace('"S",', '"S"')  # a missing comma in a pretty object
    code, out, err = run_cli(capsys, monkeypatch, ["score", "--json", write(tmp_path, text)])
    assert code == 2 and out == ""
    assert "bad JSON" in one_error_line(err)


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"concealed": "234m567p777z88z"}, "8z"),
        ({"concealed": "234m567p777z880s"}, "0s"),
        ({"bonus": "5f"}, "5f"),
        ({"colour": "red"}, "colour"),
        ({"seat_wind": "X"}, "seat_wind"),
        ({"concealed": "234m567p777z8s"}, ""),  # wrong tile count: the message is checked to be one line
    ],
)
def test_single_malformed_hand_is_exit_2_naming_the_problem(
    change: dict[str, Any], named: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(
        capsys, monkeypatch, ["score", "--json", "-"], json.dumps({**SEED_000, **change})
    )
    assert code == 2 and out == ""
    assert named in one_error_line(err)


@pytest.mark.parametrize("document", ["[1, 2", "", "42", '"hand"'])
def test_documents_that_are_no_hands(
    document: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run_cli(capsys, monkeypatch, ["score", "--json", "-"], document)
    assert code == 2
    one_error_line(err)


def test_byte_order_mark_is_skipped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "windows.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(SEED_000).encode())
    code, out, _ = run_cli(capsys, monkeypatch, ["score", "--json", str(path)])
    assert code == 0 and json.loads(out)["total"] == 136


def test_missing_file_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run_cli(capsys, monkeypatch, ["score", "--json", str(tmp_path / "nope.json")])
    assert code == 2
    assert "nope.json" in one_error_line(err)


def test_binary_file_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "photo.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\xff\xfe")
    code, _, err = run_cli(capsys, monkeypatch, ["score", "--json", str(path)])
    assert code == 2
    assert "UTF-8" in one_error_line(err)


# --- score, the human form --------------------------------------------------------------------------------


HUMAN_SEED_000 = ["score", "234m567p777z88s", "--meld", "111z", "--win", "4m", "--self-drawn"]
HUMAN_SEED_000 += ["--seat", "E", "--prevailing", "S"]


def test_human_form_prints_an_aligned_dutch_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(capsys, monkeypatch, HUMAN_SEED_000)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["Onderdeel", "Punten", "Verdubbelingen", "Stenen"]
    total = next(line for line in lines if line.startswith("Totaal"))
    assert total.split()[-1] == "136"
    assert next(line for line in lines if line.startswith("Basispunten")).split()[-1] == "34"
    assert next(line for line in lines if line.startswith("Geldig")).split()[-1] == "ja"
    mahjong = next(line for line in lines if line.startswith("Mahjong"))
    # Points sit in one column: the right edge of "20" lines up with the right edge of "Punten".
    assert mahjong.rstrip().endswith("20")
    assert len(mahjong.rstrip()) == lines[0].index("Punten") + len("Punten")


def test_human_form_in_english(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run_cli(capsys, monkeypatch, [*HUMAN_SEED_000, "--lang", "en"])
    assert code == 0
    assert out.splitlines()[0].split() == ["Item", "Points", "Doublings", "Tiles"]
    assert next(line for line in out.splitlines() if line.startswith("Total")).split()[-1] == "136"


def test_human_form_json_out_equals_the_json_route(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, human, _ = run_cli(capsys, monkeypatch, [*HUMAN_SEED_000, "--json-out"])
    _, machine, _ = run_cli(capsys, monkeypatch, ["score", "--json", "-"], json.dumps(SEED_000))
    assert json.loads(human) == json.loads(machine)


def test_human_form_concealed_kong_both_spellings(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = ["score", "234m567p777z88s", "--win", "4m", "--self-drawn", "--seat", "E", "--prevailing", "S"]
    _, by_option, _ = run_cli(capsys, monkeypatch, [*base, "--concealed-kong", "1111z", "--json-out"])
    _, by_suffix, _ = run_cli(capsys, monkeypatch, [*base, "--meld", "1111z:closed", "--json-out"])
    _, as_open, _ = run_cli(capsys, monkeypatch, [*base, "--meld", "1111z", "--json-out"])
    concealed = json.loads(by_option)
    assert concealed == json.loads(by_suffix)
    assert {"kind": "kong", "tiles": "1111z", "open": False} in concealed["sets"]
    # A concealed kong of honours scores 32, an open one 16.
    assert concealed["base_points"] - json.loads(as_open)["base_points"] == 16


def test_human_form_nts_and_invalid_hand_reason(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A plain hand on a discard with no doublings: a winning shape, but not a legal mahjong.
    argv = [
        "score",
        "234m567p345s678s99m",
        "--win",
        "9m",
        "--seat",
        "S",
        "--prevailing",
        "E",
        "--ruleset",
        "nts",
    ]
    code, out, _ = run_cli(capsys, monkeypatch, argv)
    assert code == 0
    valid = next(line for line in out.splitlines() if line.startswith("Geldig"))
    assert "nee" in valid
    assert next(line for line in out.splitlines() if line.startswith("Totaal")).split()[-1] == "0"


def test_human_form_loser(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv = [
        "score",
        "777z123m45p99s",
        "--meld",
        "222s",
        "--loser",
        "--seat",
        "W",
        "--prevailing",
        "E",
        "--json-out",
    ]
    code, out, err = run_cli(capsys, monkeypatch, argv)
    assert code == 0, err
    result = json.loads(out)
    # Open pung of simples 2 + concealed pung of dragons 8 = 10, one doubling for the dragons.
    assert (result["base_points"], result["total"], result["role"]) == (10, 20, "loser")


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--meld", "111z:sideways"], "closed"),
        (["--win", "9z"], "9z"),
        (["--flag", "unicorn"], "unicorn"),
    ],
)
def test_human_form_bad_input_is_exit_2(
    extra: list[str], named: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(capsys, monkeypatch, [*HUMAN_SEED_000, *extra])
    assert code == 2 and out == ""
    assert named in one_error_line(err)


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["score", "234m567p777z88x"], "88x"),
        (["score", "234m567p777z88s", "--win", "0m"], "--win: steen '0m'"),
        (["score", "234m567p88s", "--meld", "11q:open"], "--meld: steen '11q'"),
        (["score", "234m567p88s", "--concealed-kong", "1111"], "--concealed-kong"),
    ],
)
def test_a_mistyped_tile_is_named_before_any_missing_option(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat, prevailing wind and winning tile are all missing; the typo is what the player hears first."""
    code, out, err = run_cli(capsys, monkeypatch, argv)
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert named in line and "required" not in line


@pytest.mark.parametrize(
    ("argv", "dutch", "english"),
    [
        (["score", "234m567p777z88s"], "--seat ontbreekt", "--seat is required"),
        (["score", "234m567p777z88s", "--seat", "E"], "--prevailing ontbreekt", "--prevailing is required"),
        (
            ["score", "234m567p777z88s", "--seat", "E", "--prevailing", "S"],
            "--win STEEN ontbreekt",
            "--win TILE",
        ),
        (["score", "234m567p777z88x"], "onbekende letter 'x'", "unknown suit letter 'x'"),
        (
            ["score", "23m", "--seat", "E", "--prevailing", "S", "--meld", "1z:zij"],
            "schrijf na ':'",
            "after ':'",
        ),
    ],
)
def test_the_dutch_table_says_what_is_wrong_in_dutch(
    argv: list[str],
    dutch: str,
    english: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The table is Dutch by default, and so is its error line; `--lang en` and `--json-out` keep English."""
    assert dutch in one_error_line(run_cli(capsys, monkeypatch, argv)[2])
    for extra in (["--lang", "en"], ["--json-out"]):
        assert english in one_error_line(run_cli(capsys, monkeypatch, [*argv, *extra])[2])


@pytest.mark.parametrize(
    ("argv", "named"),
    [
        (["score", "234m567p777z88s", "--meld", "111z", "--seat", "E", "--prevailing", "S"], "--win"),
        (["score", "234m567p777z88s", "--win", "4m", "--prevailing", "S"], "--seat"),
        (["score"], "TILES"),
        (["score", "11z", "--json", "-"], "not both"),
        (["score", "--lang", "fr", "11z"], "fr"),
    ],
)
def test_usage_errors(
    argv: list[str], named: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    try:
        code = main(argv)
    except SystemExit as exit_:  # argparse's own usage errors exit through the dispatcher's parser
        code = int(exit_.code or 0)
    err = capsys.readouterr().err
    assert code == 2
    assert named in one_error_line(err)


# --- settle ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (
            {"scores": {"E": 0, "S": 128, "W": 0, "N": 0}, "winner": "S"},
            {"E": -256, "S": 512, "W": -128, "N": -128},
        ),
        (
            {"scores": {"E": 80, "S": 84, "W": 208, "N": 416}, "winner": "S"},
            {"E": -1096, "S": 336, "W": -36, "N": 796},
        ),
        ({"scores": {"E": 8, "S": 12, "W": 0, "N": 4}, "winner": None}, {"E": 0, "S": 0, "W": 0, "N": 0}),
    ],
)
def test_settle_examples(
    document: dict[str, Any],
    expected: dict[str, int],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, _ = run_cli(capsys, monkeypatch, ["settle", "--json", write(tmp_path, json.dumps(document))])
    assert code == 0
    assert json.loads(out) == expected
    assert list(json.loads(out)) == ["E", "S", "W", "N"]


@pytest.mark.parametrize(
    ("text", "named"),
    [
        ('{"scores": {"E": 0, "S": 128, "W": 0, "N": 0}}', "winner"),
        ('{"scores": {"E": 0, "S": 128, "W": 0}, "winner": "S"}', "'N'"),
        ('{"scores": {"E": 0, "S": 128, "W": 0, "N": 0}, "winner": "S", "round": 2}', "round"),
        ('{"scores": {"E": 0, "S": -1, "W": 0, "N": 0}, "winner": "S"}', "negative"),
        ('{"scores": {"E": 0, "S": 128, "W": 0, "N": 0}, "winner": "X"}', "winner"),
        ('{"scores": {"E": 0, "S": 128, "W": 0, "N": 0}, "winner": "S"', "bad JSON"),
        ("[]", "JSON object"),
    ],
)
def test_settle_bad_input_is_exit_2(
    text: str, named: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(capsys, monkeypatch, ["settle", "--json", "-"], text)
    assert code == 2 and out == ""
    assert named in one_error_line(err)


# --- the installed console script ------------------------------------------------------------------------


def test_console_script_and_module_run_as_processes(tmp_path: Path) -> None:
    # PYTHONPATH: an editable install made before scoring/ had its __init__.py maps it as a namespace package.
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    script = Path(sys.executable).with_name("mahjong-nts")
    commands = [[sys.executable, "-m", "mahjong_nts"]]
    if script.exists():
        commands.append([str(script)])
    batch = "\n".join(json.dumps(hand) for hand in (SEED_000, SEED_002, SEED_002_APP)) + "\n"
    for command in commands:
        done = subprocess.run(
            [*command, "score", "--json", "-"],
            input=batch,
            capture_output=True,
            text=True,
            cwd=ROOT,
            env=env,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert [json.loads(line)["total"] for line in done.stdout.splitlines()] == [136, 128, 120]
    bad = subprocess.run(
        [*commands[-1], "score", "--json", "-"],
        input="{nope",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert "bad JSON" in one_error_line(bad.stderr)
