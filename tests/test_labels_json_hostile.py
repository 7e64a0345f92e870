"""A hostile labels.json (MAHJONG_NTS_MODELS): wrong types give one clear ModelError line, no TypeError."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from recognizer import ModelError
from recognizer.labels import FALLBACK_LABELS
from recognizer.models import ModelConfig, load_model_files

ROOT = Path(__file__).resolve().parents[1]
GOOD: dict[str, Any] = {
    "labels": list(FALLBACK_LABELS),
    "detector_size": 128,
    "crop_size": [64, 48],
    "pad": 0.1,
}


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"detector_size": None}, "detector_size must be a positive whole number up to 4096, got None"),
        ({"detector_size": "384"}, "detector_size must be a positive whole number up to 4096, got '384'"),
        ({"detector_size": -384}, "detector_size must be a positive whole number"),
        ({"detector_size": 384.5}, "detector_size"),
        ({"detector_size": True}, "detector_size"),
        ({"detector_size": 10**400}, "a number of 401 digits"),
        ({"crop_size": [None, 48]}, "crop_size height"),
        ({"crop_size": "64x48"}, "crop_size must be"),
        ({"pad": None}, "pad must lie between"),
        ({"detector_threshold": "0.4"}, "detector_threshold"),
        ({"detector_input": ["square"]}, "detector_input"),
        ({"labels": None}, "labels"),
        ({"profiles_from": "f44482691e87232b"}, "profiles_from must list classifier fingerprints"),
        ({"profiles_from": ["F44482691E87232B"]}, "profiles_from"),
        ({"profiles_from": ["f4448269"]}, "profiles_from"),
        ({"profiles_from": [None]}, "profiles_from"),
    ],
)
def test_wrong_types_are_named(change: dict[str, Any], named: str) -> None:
    with pytest.raises(ModelError) as caught:
        ModelConfig.from_dict(GOOD | change)
    assert named in str(caught.value) and "\n" not in str(caught.value)


@given(
    st.dictionaries(
        st.sampled_from([*GOOD, "detector_threshold", "detector_input", "profiles_from"]),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10),
            lambda children: st.lists(children, max_size=3),
            max_leaves=5,
        ),
    )
)
@settings(max_examples=300, deadline=None)
def test_any_values_give_a_config_or_a_model_error(change: dict[str, Any]) -> None:
    try:
        ModelConfig.from_dict(GOOD | change)
    except ModelError as error:
        assert "\n" not in str(error)


def test_an_old_bonus_reader_key_is_ignored_as_any_unknown_key() -> None:
    # labels.json of an export with the bonus reader (never shipped, removed): read as without it
    old = {"bonus_reader": ["1f", "2f", "3f", "4f", "1y", "2y", "3y", "4y"], "some_future_key": [None]}
    assert ModelConfig.from_dict(GOOD | old) == ModelConfig.from_dict(GOOD)


@pytest.mark.parametrize("text", ["[" * 5000, '{"labels": ' + "1" * 5000 + "}", "\xff", "[]"])
def test_an_unreadable_labels_json_is_a_model_error(tmp_path: Path, text: str) -> None:
    for name in ("detector.onnx", "classifier.onnx"):
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "labels.json").write_bytes(text.encode("latin-1"))
    with pytest.raises(ModelError, match=r"labels\.json") as caught:
        load_model_files(tmp_path)
    assert "\n" not in str(caught.value)


def test_recognize_with_a_null_detector_size_is_one_line_exit_2(tmp_path: Path) -> None:
    from tests.fake_models import write_fake_models

    folder = write_fake_models(tmp_path / "models")
    (folder / "labels.json").write_text(json.dumps(GOOD | {"detector_size": None}))
    photo = tmp_path / "photo.png"
    photo.write_bytes((ROOT / "samples").glob("*.jpg").__next__().read_bytes())
    env = {**os.environ, "MAHJONG_NTS_MODELS": str(folder), "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "mahjong_nts", "recognize", str(photo), "--json"],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "detector_size must be a positive whole number up to 4096, got None" in done.stderr
