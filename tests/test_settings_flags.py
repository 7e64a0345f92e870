"""--set NAME=VALUE of the measuring tools: Settings fields read by their type, bad ones refused clearly."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

import pytest

from datasets.settings_flags import add_set_flag, apply_sets
from recognizer.pipeline import Settings


def test_values_are_read_by_the_fields_type() -> None:
    s = apply_sets(
        Settings(),
        ["unstretch=false", "first_pass_scales=1.0,0.5", "threshold=0.45", "turns=landscape",
         "top_k=2", "crop_pad=none", "detector_stretch=inf"],
    )  # fmt: skip
    assert s.unstretch is False and s.first_pass_scales == (1.0, 0.5) and s.threshold == 0.45
    assert s.turns == "landscape" and s.top_k == 2 and s.crop_pad is None
    assert s.detector_stretch is not None and math.isinf(s.detector_stretch)
    assert apply_sets(Settings(), []) == Settings()
    assert apply_sets(Settings(), ["mirror_test=off"]).mirror_test is False


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("nonsense=1", "NAME one of"),
        ("unstretch", "NAME=VALUE"),
        ("unstretch=maybe", "unstretch must be true or false"),
        ("threshold=high", "threshold must be a number"),
        ("top_k=2.5", "top_k must be a whole number"),
        ("turns=sideways", "turns must be one of none, landscape, all"),
    ],
)
def test_a_wrong_name_or_value_is_a_clear_error(item: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        apply_sets(Settings(), [item])


def test_the_flag_repeats() -> None:
    parser = argparse.ArgumentParser()
    add_set_flag(parser)
    assert parser.parse_args(["--set", "a=1", "--set", "b=2"]).set == ["a=1", "b=2"]
    assert parser.parse_args([]).set == []


def test_a_tool_reports_a_bad_set_and_exits_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from datasets import evaluate_world

    (tmp_path / "kinds.json").write_text("{}")
    assert evaluate_world.main([str(tmp_path), "--set", "unstretch=maybe"]) == 2
    assert "unstretch must be true or false" in capsys.readouterr().err
