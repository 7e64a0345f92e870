"""Set profiles (recognizer/set_profile.py): how named examples change a reading, when a profile acts, its
file format and the clear errors for bad files."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from recognizer import set_profile as sp
from recognizer.errors import ProfileError
from recognizer.labels import LABELS
from recognizer.set_profile import SetProfile, profile_from_json, read_profile, write_profile

DIM = 8


def look(code: str, rng: np.random.Generator, noise: float = 0.05) -> np.ndarray:
    """A feature vector for `code` in a made-up set: one direction per code, a little noise."""
    base = np.zeros(DIM, np.float32)
    base[LABELS.index(code) % DIM] = 1.0
    base[(LABELS.index(code) // DIM) % DIM] += 0.5
    return base + rng.normal(0, noise, DIM).astype(np.float32)


def unsure(*codes: str) -> np.ndarray:
    """Classifier probabilities spread evenly over `codes` (the classifier cannot tell them apart)."""
    p = np.full(len(LABELS), 1e-4, np.float32)
    for c in codes:
        p[LABELS.index(c)] = 1.0
    return p / p.sum()


def profile_of(named: list[tuple[str, np.ndarray, np.ndarray]]) -> SetProfile:
    empty = SetProfile("club", "abc")
    return empty.learnt(
        [c for c, _, _ in named], np.stack([f for _, f, _ in named]), np.stack([p for _, _, p in named])
    )


def unfamiliar_set(rng: np.random.Generator) -> SetProfile:
    """A set whose 1m, 2m and 3m the classifier cannot tell apart; each named three times."""
    return profile_of(
        [(c, look(c, rng), unsure("1m", "2m", "3m")) for c in ("1m", "2m", "3m") for _ in range(3)]
    )


def test_examples_decide_what_the_classifier_cannot_tell_apart() -> None:
    rng = np.random.default_rng(1)
    profile = unfamiliar_set(rng)
    assert profile.ready and profile.temperature is not None
    tiles = np.stack([look(c, rng) for c in ("3m", "1m", "2m")])
    probs = np.stack([unsure("1m", "2m", "3m")] * 3)
    read = profile.adjust(probs, tiles)
    assert [LABELS[i] for i in read.argmax(axis=1)] == ["3m", "1m", "2m"]
    np.testing.assert_allclose(read.sum(axis=1), 1.0, rtol=1e-5)


def test_a_set_the_classifier_reads_well_keeps_its_reading() -> None:
    rng = np.random.default_rng(2)
    named = [(c, look(c, rng), unsure(c)) for c in ("1m", "2m", "3m", "4m") for _ in range(3)]
    profile = profile_of(named)
    assert profile.ready and profile.temperature is None  # every example read right by the classifier
    probs = np.stack([unsure("4m"), unsure("1m", "2m")])
    np.testing.assert_array_equal(profile.adjust(probs, np.stack([look("1m", rng)] * 2)), probs)


def test_too_few_examples_change_nothing() -> None:
    rng = np.random.default_rng(3)
    profile = profile_of([(c, look(c, rng), unsure("1m", "2m")) for c in ("1m", "2m", "3m", "4m", "5m")])
    assert profile.checks == 0 and not profile.ready and profile.temperature is sp.FALLBACK_TEMPERATURE
    probs = np.stack([unsure("1m", "2m")])
    np.testing.assert_array_equal(profile.adjust(probs, np.stack([look("2m", rng)])), probs)


def test_one_tile_of_every_kind_is_enough() -> None:
    """A photo of the whole set laid out once (every face, no code twice) cannot check itself, yet it
    reads with its examples when the classifier misread some of them, and leans on them harder when it
    misread a sixth or more; read right throughout, or one face short, it keeps the classifier's reading."""
    rng = np.random.default_rng(7)
    faces = [c for c in LABELS if c != "back"]
    whole = profile_of([(c, look(c, rng), unsure(c, "1m")) for c in faces])  # every face but 1m misread
    assert whole.complete and whole.checks == 0 and not whole.ready and whole.misread == len(faces) - 1
    assert whole.unfamiliar and whole.temperature == sp.UNFAMILIAR_TEMPERATURE is not None
    few = 6  # under a sixth of the 42 faces
    some = profile_of(
        [(c, look(c, rng), unsure(c, "1m") if k <= few else unsure(c)) for k, c in enumerate(faces)]
    )
    assert (
        some.misread == few
        and not some.unfamiliar
        and some.temperature == sp.COMPLETE_TEMPERATURE is not None
    )
    seven = profile_of(
        [(c, look(c, rng), unsure(c, "1m") if k <= few + 1 else unsure(c)) for k, c in enumerate(faces)]
    )
    assert seven.misread == few + 1 and seven.unfamiliar and seven.temperature == sp.UNFAMILIAR_TEMPERATURE
    assert not SetProfile("empty", "abc").unfamiliar
    assert sp.UNFAMILIAR_TEMPERATURE < sp.COMPLETE_TEMPERATURE
    probs = np.stack([unsure("1m", "2m")])
    read = whole.adjust(probs, np.stack([look("2m", rng)]))
    assert LABELS[int(read.argmax())] == "2m"
    known = profile_of([(c, look(c, rng), unsure(c)) for c in faces])  # the classifier read each right
    assert known.complete and known.misread == 0 and known.temperature is sp.FALLBACK_TEMPERATURE
    short = profile_of([(c, look(c, rng), unsure(c, "1m")) for c in faces[1:]])
    assert not short.complete and short.temperature is sp.FALLBACK_TEMPERATURE
    np.testing.assert_array_equal(short.adjust(probs, np.stack([look("2m", rng)])), probs)


def test_codes_without_examples_are_not_pushed_aside() -> None:
    """A tile whose true code the profile has never seen keeps the classifier's reading of it."""
    rng = np.random.default_rng(4)
    profile = unfamiliar_set(rng)
    probs = np.stack([unsure("9p")])  # the classifier is sure; 9p has no example
    read = profile.adjust(probs, np.stack([look("9p", rng)]))
    assert LABELS[int(read.argmax())] == "9p"


def test_the_not_a_tile_column_is_kept() -> None:
    rng = np.random.default_rng(5)
    profile = unfamiliar_set(rng)
    tiles = unsure("1m", "2m", "3m") * 0.6
    probs = np.concatenate([tiles, [0.4]])[None].astype(np.float32)
    read = profile.adjust(probs, np.stack([look("2m", rng)]))
    assert read[0, -1] == pytest.approx(0.4)
    assert read[0, :-1].sum() == pytest.approx(0.6, rel=1e-5)
    assert LABELS[int(read[0, :-1].argmax())] == "2m"


def test_newest_examples_are_kept_per_code() -> None:
    rng = np.random.default_rng(6)
    first = profile_of([("1m", look("1m", rng), unsure("1m")) for _ in range(sp.MAX_PER_CODE)])
    newest = look("1m", rng, noise=0.5)
    grown = first.learnt(
        ["1m", "2m"], np.stack([newest, look("2m", rng)]), np.stack([unsure("1m"), unsure("2m")])
    )
    assert [e.code for e in grown.examples].count("1m") == sp.MAX_PER_CODE
    assert grown.codes == ["1m", "2m"]
    np.testing.assert_allclose(grown.examples[-2].features, sp.unit(newest[None])[0])
    oldest = first.examples[0].features
    assert not any(np.array_equal(e.features, oldest) for e in grown.examples)  # the oldest 1m went


def test_file_round_trip(tmp_path: Path) -> None:
    profile = unfamiliar_set(np.random.default_rng(7))
    path = tmp_path / "club set.json"
    write_profile(profile, path)
    again = read_profile(path)
    assert (again.name, again.classifier, [e.code for e in again.examples]) == (
        profile.name,
        profile.classifier,
        [e.code for e in profile.examples],
    )
    for a, b in zip(again.examples, profile.examples, strict=True):
        np.testing.assert_allclose(a.features, b.features, atol=1e-4)
        np.testing.assert_allclose(a.probs, b.probs, atol=1e-5)
    assert again.temperature == profile.temperature
    assert not list(tmp_path.glob(".*.tmp"))


def good_json() -> dict:
    return unfamiliar_set(np.random.default_rng(8)).to_json()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "not a mahjong-nts set profile"),
        (lambda d: d.update(version=9), "version 9"),
        (lambda d: d.update(examples="many"), "list of examples"),
        (lambda d: d["examples"][0].update(code="10m"), "example 1: code must be one of the tile codes"),
        (lambda d: d["examples"][1].update(features=[1.0, 2.0]), "example 2: features must be a list of 8"),
        (lambda d: d["examples"][0].update(features=[float("nan")] * 8), "finite numbers"),
        (lambda d: d["examples"][0].update(probs=[True] * len(LABELS)), "probs must be a list"),
    ],
)
def test_bad_profiles_are_named(change, message: str) -> None:  # type: ignore[no-untyped-def]
    data = good_json()
    change(data)
    with pytest.raises(ProfileError, match=message):
        profile_from_json(data, "club.json")


def test_bad_files_give_one_line_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ProfileError, match="no such set profile"):
        read_profile(tmp_path / "missing.json")
    (tmp_path / "notes.json").write_bytes(b"\xff\xfe not json")
    with pytest.raises(ProfileError, match="cannot read the set profile"):
        read_profile(tmp_path / "notes.json")
    (tmp_path / "big.json").write_text(json.dumps(good_json()))
    monkeypatch.setattr(sp, "MAX_FILE_BYTES", 100)
    with pytest.raises(ProfileError, match="too large"):
        read_profile(tmp_path / "big.json")
    with pytest.raises(ProfileError, match="cannot write"):
        write_profile(unfamiliar_set(np.random.default_rng(9)), tmp_path / "no such folder" / "p.json")


def test_the_same_tile_is_learnt_once() -> None:
    rng = np.random.default_rng(10)
    named = [(c, look(c, rng), unsure(c)) for c in ("1m", "2m")]
    once = profile_of(named)
    twice = once.learnt(
        [c for c, _, _ in named], np.stack([f for _, f, _ in named]), np.stack([p for _, _, p in named])
    )
    assert len(twice.examples) == 2  # the same photo named again adds nothing
    other = twice.learnt(["1m"], np.stack([look("1m", rng)]), np.stack([unsure("1m")]))
    assert len(other.examples) == 3  # another tile of the same code does


def test_a_profile_that_names_the_sets_back_knows_its_backs() -> None:
    rng = np.random.default_rng(11)
    faces = profile_of([(c, look(c, rng), unsure(c)) for c in ("1m", "5z")])
    assert not faces.knows_backs  # a blank white dragon named, the back not: colour still decides
    backs = profile_of([(c, look(c, rng), unsure(c)) for c in ("1m", "5z", "back")])
    assert backs.knows_backs
