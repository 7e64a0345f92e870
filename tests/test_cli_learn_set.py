"""`mahjong-nts learn-set` and `recognize --set-profile`, on the fake world of tests/fake_models.py: a set
whose 5m is drawn in a green the fake classifier cannot place is read right once its tiles are named."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from fake_models import tile_grid, write_fake_models
from PIL import Image

from datasets.onnx_features import add_features
from mahjong_nts.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
ODD = 0.24
"""A green level nearly halfway between two of the fake classifier's: it reads such a tile as 1m, barely
surer than 2m, 4m or 5m."""


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = write_fake_models(tmp_path_factory.mktemp("fake_models"))
    add_features(folder / "classifier.onnx")
    return folder


def photo(path: Path, tiles: list[tuple[float, float]]) -> Path:
    """A fake photo of tiles (green top, green bottom), four to a row, saved as PNG."""
    Image.fromarray(tile_grid(tiles)).save(path)
    return path


LEARN = [
    (ODD + d, ODD + d) if top == ODD else (top + 0.02 * k, bottom + 0.02 * k)
    for k, d in enumerate((0.0, 0.005, -0.005))
    for top, bottom in ((ODD, ODD), (0.0, 0.0), (0.0, 0.5), (0.5, 0.0))
]
"""Three of each tile, each a little unlike the others (the same tile twice is learnt once)."""
LEARN_CODES = "5m 1m 2m 4m " * 3


def codes_read(capsys: pytest.CaptureFixture[str], *args: str) -> list[str]:
    assert main(["recognize", "--json", *args]) == 0
    return [t["code"] for t in json.loads(capsys.readouterr().out.splitlines()[0])["tiles"]]


def test_named_tiles_teach_the_set(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    learn = photo(tmp_path / "our set.png", LEARN)
    read = photo(tmp_path / "hand.png", [(0.0, 0.0), (ODD, ODD)])
    profile = tmp_path / "club.json"
    before = codes_read(capsys, str(read), "--models", str(model_dir))
    assert before == ["1m", "1m"]

    code = main(["learn-set", str(learn), "--tiles", LEARN_CODES, "--set-profile", str(profile),
                 "--models", str(model_dir)])  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0
    assert "12 tiles learnt (3 had been misread)" in out and "read with its examples" in out
    data = json.loads(profile.read_text())
    assert data["name"] == "club" and len(data["examples"]) == 12
    # each example keeps the classifier's reading as it reads a photo, not knowing the code: the odd
    # green tiles were read as 1m, and the profile weighs its examples against that misreading
    labels = json.loads((model_dir / "labels.json").read_text())["labels"]
    odd = [e for e in data["examples"] if e["code"] == "5m"]
    assert len(odd) == 3 and all(labels[int(np.argmax(e["probs"]))] == "1m" for e in odd)

    after = codes_read(capsys, str(read), "--models", str(model_dir), "--set-profile", str(profile))
    assert after == ["1m", "5m"]


def test_a_profile_grows_and_keeps_its_name(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    few = photo(tmp_path / "few.png", [(0.0, 0.0), (1.0, 1.0)])
    more = photo(tmp_path / "more.png", [(0.1, 0.1), (0.9, 0.9)])
    profile = tmp_path / "p.json"
    args = ["--set-profile", str(profile), "--models", str(model_dir)]
    assert main(["learn-set", str(few), "--tiles", "1m 9m", "--name", "De Vier Winden", *args]) == 0
    out = capsys.readouterr().out
    assert "2 tiles learnt" in out and "name more tiles" in out
    assert main(["learn-set", str(few), "--tiles", "19m", *args]) == 0
    assert "0 tiles learnt (0 had been misread, 2 known already)" in capsys.readouterr().out
    assert main(["learn-set", str(more), "--tiles", "19m", *args]) == 0
    data = json.loads(profile.read_text())
    assert data["name"] == "De Vier Winden" and [e["code"] for e in data["examples"]] == ["1m", "9m"] * 2


@pytest.mark.parametrize(
    ("tiles", "message"),
    [
        ("1m", "2 tiles found (19m) but 1 code given"),
        ("1m 10m", "--tiles: "),
        ("", "--tiles names no tiles"),
    ],
)
def test_bad_tiles_write_nothing(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], tiles: str, message: str
) -> None:
    few = photo(tmp_path / "few.png", [(0.0, 0.0), (1.0, 1.0)])
    profile = tmp_path / "p.json"
    code = main(
        ["learn-set", str(few), "--tiles", tiles, "--set-profile", str(profile), "--models", str(model_dir)]
    )
    assert code == 2
    assert message in capsys.readouterr().err
    assert not profile.exists()


def test_a_short_row_is_named(model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A layout photo in which fewer tiles are found than named says which row came out short, so the
    player knows where to look before taking the photo again."""
    seven = photo(tmp_path / "rows.png", [(0.0, 0.0)] * 4 + [(1.0, 1.0)] * 3)
    profile = tmp_path / "p.json"
    args = ["--set-profile", str(profile), "--models", str(model_dir)]
    assert main(["learn-set", str(seven), "--tiles", "1111m 9999m", *args]) == 2
    err = capsys.readouterr().err
    assert "7 tiles found (1111999m) but 8 codes given; rows found: 4, 3 tiles" in err
    assert "(row 2 has 3 found for 4 named)" in err
    assert main(["learn-set", str(seven), "--tiles", "11119999m", *args]) == 2
    err = capsys.readouterr().err
    assert "rows found: 4, 3 tiles;" in err and "row 2" not in err
    assert not profile.exists()


def test_bad_photo_and_profile(model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "notes.jpg"
    text.write_text("123m")
    profile = tmp_path / "p.json"
    args = ["--set-profile", str(profile), "--models", str(model_dir)]
    assert main(["learn-set", str(text), "--tiles", "1m", *args]) == 1
    assert "not an image" in capsys.readouterr().err
    other = {
        "format": "mahjong-nts set profile",
        "version": 1,
        "name": "x",
        "classifier": "other",
        "examples": [],
    }
    profile.write_text(json.dumps(other))
    few = photo(tmp_path / "few.png", [(0.0, 0.0)])
    assert main(["learn-set", str(few), "--tiles", "1m", *args]) == 2
    assert "made with another classifier" in capsys.readouterr().err
    assert main(["recognize", str(few), "--models", str(model_dir), "--set-profile", str(profile)]) == 2
    assert "made with another classifier" in capsys.readouterr().err


def test_a_classifier_without_features_refuses_profiles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = write_fake_models(tmp_path / "plain")
    few = photo(tmp_path / "few.png", [(0.0, 0.0)])
    code = main(
        [
            "learn-set",
            str(few),
            "--tiles",
            "1m",
            "--set-profile",
            str(tmp_path / "p.json"),
            "--models",
            str(plain),
        ]
    )
    assert code == 2
    assert "no features output" in capsys.readouterr().err


TRAINED = (ROOT / "models" / "classifier.onnx").exists()


@pytest.mark.skipif(not TRAINED, reason="trained models not present")
def test_a_set_the_models_know_reads_as_before(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Sample photos of the training dataset's own set, named as the models read them: the profile
    checks itself, finds the classifier as good alone, and the next photos read exactly as before."""
    profile = tmp_path / "known.json"
    for name in ("hand1", "hand2", "hand4"):
        photo = str(ROOT / "samples" / f"{name}.jpg")
        codes = " ".join(codes_read(capsys, photo))
        assert main(["learn-set", photo, "--tiles", codes, "--set-profile", str(profile)]) == 0
        out = capsys.readouterr().out
        assert "0 had been misread" in out
    assert "reads these tiles as well without it" in out
    for name in ("hand5", "hand6"):
        photo = str(ROOT / "samples" / f"{name}.jpg")
        assert codes_read(capsys, photo, "--set-profile", str(profile)) == codes_read(capsys, photo)


def test_examples_keep_the_reading_a_photo_gets(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tile named what it looks like turned over (the classifier reads 2m upright, 4m upside down) keeps
    the reading the runtime gives it, 2m, not the view that favours the name: the profile's own check
    must judge the classifier as it reads photos, or it trusts the classifier too much."""
    one = photo(tmp_path / "one.png", [(0.0, 0.5)])
    profile = tmp_path / "p.json"
    assert codes_read(capsys, str(one), "--models", str(model_dir)) == ["2m"]
    assert main(["learn-set", str(one), "--tiles", "4m", "--set-profile", str(profile),
                 "--models", str(model_dir)]) == 0  # fmt: skip
    labels = json.loads((model_dir / "labels.json").read_text())["labels"]
    (example,) = json.loads(profile.read_text())["examples"]
    assert example["code"] == "4m" and labels[int(np.argmax(example["probs"]))] == "2m"


def test_a_set_the_classifier_does_not_know_is_told_so(
    model_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A profile that the last named tile makes complete, most of whose tiles the classifier misread,
    reads with its examples at once, and the message says why."""
    from recognizer.labels import LABELS
    from recognizer.pipeline import Recognizer
    from recognizer.set_profile import write_profile

    recognizer = Recognizer(model_dir)
    faces = [c for c in LABELS if c != "back"][:-1]  # every face but the last (4y)
    rng = np.random.default_rng(5)
    features = rng.normal(size=(len(faces), recognizer.classifier.feature_width)).astype(np.float32)
    probs = np.full((len(faces), len(LABELS)), 0.01, np.float32)
    probs[:, LABELS.index("1m")] = 1.0  # the classifier read every one of them as 1m
    profile = tmp_path / "p.json"
    write_profile(recognizer.new_profile("club").learnt(faces, features, probs), profile)
    one = photo(tmp_path / "one.png", [(0.0, 0.0)])
    assert main(["learn-set", str(one), "--tiles", "4y", "--set-profile", str(profile),
                 "--models", str(model_dir)]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert "42 tiles of 42 codes in all" in out
    assert "which count most: the recognizer alone misread 41 of its 42 tiles, a set it does not know" in out
