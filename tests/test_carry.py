"""datasets.carry: the compact copy of a training round's inputs unpacks to a dataset folder and a face
cache that read as the originals (labels and faces exactly, photos within WebP's loss)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from datasets.carry import ARCHIVE, main


def write_dataset(root: Path, rng: np.random.Generator) -> None:
    for split, count in (("train", 3), ("valid", 2)):
        (root / split / "images").mkdir(parents=True)
        (root / split / "labels").mkdir(parents=True)
        for k in range(count):
            photo = cv2.GaussianBlur(rng.integers(0, 256, (64, 80, 3), dtype=np.uint8), (9, 9), 0)
            cv2.imwrite(str(root / split / "images" / f"p{k}.jpg"), photo)
            (root / split / "labels" / f"p{k}.txt").write_text(f"{k} 0.5 0.5 0.2 0.3\n")
    (root / "data.yaml").write_text("names: []\n")


def write_faces(cache: Path, rng: np.random.Generator) -> dict[str, np.ndarray]:
    faces = {}
    for artwork in ("procedural-varied", "font-noto"):  # a train and a held-out artwork
        (cache / artwork).mkdir(parents=True)
        face = rng.integers(0, 256, (16, 12, 4), dtype=np.uint8)
        face[0, :, 3] = 0  # hidden colours under a transparent row must survive too
        cv2.imwrite(str(cache / artwork / "1m_0.png"), face)
        (cache / artwork / "manifest.json").write_text(json.dumps({"files": ["1m_0.png"]}))
        faces[artwork] = face
    return faces


def test_pack_then_unpack_gives_the_dataset_and_the_train_faces(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    data, cache, carry, out = tmp_path / "data", tmp_path / "faces", tmp_path / "carry", tmp_path / "out"
    write_dataset(data, rng)
    faces = write_faces(cache, rng)
    assert main(["pack", str(carry), "--data", str(data), "--faces", str(cache), "--jobs", "1"]) == 0
    assert [p.name for p in carry.iterdir()] == [ARCHIVE]  # one file travels
    assert main(["unpack", str(carry), str(out), "--jobs", "1"]) == 0

    for split, count in (("train", 3), ("valid", 2)):
        for k in range(count):
            label = out / "data" / split / "labels" / f"p{k}.txt"
            assert label.read_text() == (data / split / "labels" / f"p{k}.txt").read_text()
            photo = cv2.imread(str(out / "data" / split / "images" / f"p{k}.jpg"))
            original = cv2.imread(str(data / split / "images" / f"p{k}.jpg"))
            assert photo is not None and original is not None
            assert photo.shape == original.shape
            assert np.abs(photo.astype(int) - original).mean() < 6
    assert (out / "data" / "data.yaml").is_file()
    unpacked = cv2.imread(str(out / "faces" / "procedural-varied" / "1m_0.png"), cv2.IMREAD_UNCHANGED)
    assert unpacked is not None
    assert np.array_equal(unpacked, faces["procedural-varied"])
    assert not (out / "faces" / "font-noto").exists()  # held-out artworks never travel to training


def test_pack_without_a_face_cache_and_unpack_without_an_archive_say_so(tmp_path: Path, capsys) -> None:
    data = tmp_path / "data"
    write_dataset(data, np.random.default_rng(1))
    assert main(["pack", str(tmp_path / "c"), "--data", str(data), "--faces", str(tmp_path / "none")]) == 2
    assert "no face cache" in capsys.readouterr().err
    assert main(["unpack", str(tmp_path)]) == 2
    assert f"no {ARCHIVE}" in capsys.readouterr().err
