"""`mahjong-nts score ... --waits` (docs/WAITS.md): the tiles that complete a hand one tile short, scored."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mahjong_nts.cli.main import main
from mahjong_nts.cli.waits import waits_object, waits_table

# SCORING section 11, seed 000 one tile short: it waited on 1m and 4m; 4m self-drawn scored 136.
SEED_000_SHORT: dict[str, Any] = {
    "seat_wind": "E",
    "prevailing_wind": "S",
    "concealed": "23m567p777z88s",
    "melds": [{"tiles": "111z", "open": True}],
    "self_drawn": True,
}
SEED_000_ARGS = [
    "score",
    "23m567p777z88s",
    "--meld",
    "111z",
    "--seat",
    "E",
    "--prevailing",
    "S",
    "--self-drawn",
]
# Seed 002 one tile short (nts): the seed names the waits 5m and 8m; 8m self-drawn scored 128.
SEED_002_SHORT: dict[str, Any] = {
    "ruleset": "nts",
    "seat_wind": "S",
    "prevailing_wind": "E",
    "concealed": "222m34567m22z",
    "melds": [{"tiles": "777z", "open": True}],
    "self_drawn": True,
}
# Chows only, no honours, won on a discard: a winning shape with too few doublings.
CHEAP: dict[str, Any] = {"seat_wind": "E", "prevailing_wind": "S", "concealed": "23m567p789s88s123p"}


def run(
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


def tiles_and_totals(found: dict[str, Any]) -> list[tuple[str, int, bool]]:
    return [(entry["tile"], entry["total"], entry["valid"]) for entry in found["waits"]]


def test_the_seed_hands_wait_on_the_tiles_the_rules_name() -> None:
    assert tiles_and_totals(waits_object(SEED_000_SHORT)) == [("1m", 136, True), ("4m", 136, True)]
    seed_002 = waits_object(SEED_002_SHORT)
    # besides the seed's 5m and 8m: 2m (222m 234m 567m + 22z) and 2z (22m 234m 567m + 222z)
    assert [entry["tile"] for entry in seed_002["waits"]] == ["2m", "5m", "8m", "2z"]
    assert tiles_and_totals(seed_002)[2] == ("8m", 128, True)


def test_a_wait_with_too_few_doublings_is_listed_as_not_valid() -> None:
    entries = waits_object(CHEAP)["waits"]
    assert [entry["tile"] for entry in entries] == ["1m", "4m"]
    assert all(e["valid"] is False and e["total"] == 0 for e in entries)
    assert {e["reason_code"] for e in entries} == {"too_few_doublings"}


def test_self_drawn_changes_what_a_wait_scores() -> None:
    on_discard = waits_object({**SEED_000_SHORT, "self_drawn": False})
    assert [entry["tile"] for entry in on_discard["waits"]] == ["1m", "4m"]
    assert tiles_and_totals(on_discard) != tiles_and_totals(waits_object(SEED_000_SHORT))


def test_table_in_dutch_and_english(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, monkeypatch, [*SEED_000_ARGS, "--waits"])
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].split() == ["Wacht", "op", "Totaal", "Geldig"]
    assert lines[2].split() == ["1m", "1", "karakter", "136", "ja"]
    assert lines[3].split() == ["4m", "4", "karakters", "136", "ja"]
    code, out, _ = run(capsys, monkeypatch, [*SEED_000_ARGS, "--waits", "--lang", "en"])
    assert out.splitlines()[2].split() == ["1m", "1", "character", "136", "yes"]
    assert "nee: te weinig verdubbelingen" in waits_table(waits_object(CHEAP))


def test_a_hand_that_waits_on_nothing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["score", "1357m2468p1357s9s", "--seat", "E", "--prevailing", "S", "--waits"]
    code, out, _ = run(capsys, monkeypatch, argv)
    assert code == 0 and "wacht op geen enkele steen" in out
    code, out, _ = run(capsys, monkeypatch, [*argv, "--json-out", "--compact"])
    assert json.loads(out) == {"waits": []}


def test_json_out_and_json_input_give_the_same_object(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(capsys, monkeypatch, [*SEED_000_ARGS, "--waits", "--json-out"])
    assert code == 0
    assert json.loads(out) == waits_object(SEED_000_SHORT)
    code, out, _ = run(
        capsys, monkeypatch, ["score", "--json", "-", "--waits"], stdin=json.dumps(SEED_000_SHORT)
    )
    assert code == 0 and json.loads(out) == waits_object(SEED_000_SHORT)


def test_json_batch_keeps_going_past_a_bad_hand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "hands.json"
    path.write_text(json.dumps([SEED_000_SHORT, {**SEED_000_SHORT, "winning_tile": "4m"}, SEED_002_SHORT]))
    code, out, err = run(capsys, monkeypatch, ["score", "--json", str(path), "--waits"])
    lines = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(lines) == 3
    assert lines[0] == waits_object(SEED_000_SHORT) and lines[2] == waits_object(SEED_002_SHORT)
    assert lines[1]["error"].startswith("hand 2: ") and "winning_tile" in lines[1]["error"]
    assert "1 of 3 hands failed" in err


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--win", "4m"], "--win"),
        (["--loser"], "--loser"),
        (["--meld", "123p"], "13"),
    ],
)
def test_bad_input_is_exit_2_with_one_line(
    extra: list[str], named: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = [*SEED_000_ARGS, "--waits", "--lang", "en", *extra]
    if "--loser" in extra:
        argv.remove("--self-drawn")
    code, out, err = run(capsys, monkeypatch, argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and named in err and "Traceback" not in err


def test_the_tables_error_is_dutch(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(capsys, monkeypatch, [*SEED_000_ARGS, "--waits", "--meld", "123p"])
    assert code == 2
    assert "wachten vraagt 13 stenen (plus 1 per kong): 10 in de hand en 2 sets gegeven" in err
    code, _, err = run(capsys, monkeypatch, [*SEED_000_ARGS, "--waits", "--meld", "123p", "--json-out"])
    assert "waits needs 13 tiles (plus 1 per kong): got 10 concealed and 2 melds" in err
