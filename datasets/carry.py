"""A compact copy of what a training round reads, for a machine that has neither the dataset nor the
artwork packages (a rented GPU machine, say): the real train photos as WebP, a few valid photos (for the
run's own log only; rounds are judged at home on the whole valid split) and the train artworks' cached
faces (PNG, as cached). `unpack` writes them back as the dataset folder and the face cache.

    .venv/bin/python -m datasets.carry pack .carry        # here: about 43 MB
    python3 -m datasets.carry unpack .carry runs          # there: runs/data (the dataset), runs/faces
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tarfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2

from datasets.faces import ARTWORKS
from datasets.yolo import require_data_dir

PHOTO_QUALITY = 65
"""WebP quality of the carried photos: the train split fits the transfer limit; the crops are degraded
by JPEG-like noise in training anyway."""
VALID_PHOTOS = 8
ARCHIVE = "carry.tar.gz"


def _convert(job: tuple[Path, Path, list[int]]) -> None:
    """Read one image and write it again in the format (and with the encoder options) of its target."""
    src, dst, params = job
    image = cv2.imread(str(src), cv2.IMREAD_UNCHANGED)
    if image is None:
        raise SystemExit(f"unreadable: {src}")
    cv2.imwrite(str(dst), image, params)


def pack(dest: Path, data: Path, faces: Path) -> list[tuple[Path, Path, list[int]]]:
    """The conversions that make `dest` (labels and manifests are copied here, images by the caller)."""
    jobs: list[tuple[Path, Path, list[int]]] = []
    webp = [cv2.IMWRITE_WEBP_QUALITY, PHOTO_QUALITY]
    for split, limit in (("train", None), ("valid", VALID_PHOTOS)):
        (dest / "data" / split / "images").mkdir(parents=True, exist_ok=True)
        (dest / "data" / split / "labels").mkdir(parents=True, exist_ok=True)
        for image in sorted((data / split / "images").glob("*.jpg"))[:limit]:
            label = data / split / "labels" / f"{image.stem}.txt"
            if label.exists():
                shutil.copy(label, dest / "data" / split / "labels" / label.name)
            jobs.append((image, dest / "data" / split / "images" / f"{image.stem}.webp", webp))
    shutil.copy(data / "data.yaml", dest / "data" / "data.yaml")
    for artwork, side in ARTWORKS.items():
        folder = faces / artwork
        if side != "train" or not (folder / "manifest.json").exists():
            continue
        (dest / "faces" / artwork).mkdir(parents=True, exist_ok=True)
        shutil.copy(folder / "manifest.json", dest / "faces" / artwork / "manifest.json")
        for png in sorted(folder.glob("*.png")):  # as they are: lossless WebP drops hidden colours
            shutil.copy(png, dest / "faces" / artwork / png.name)
    return jobs


def unpack(folder: Path, out: Path) -> list[tuple[Path, Path, list[int]]]:
    """The conversions that restore out/data (the dataset) and out/faces (the face cache)."""
    src = out / "carried"
    with tarfile.open(folder / ARCHIVE) as tar:
        tar.extractall(src, filter="data")
    jobs: list[tuple[Path, Path, list[int]]] = []
    for path in sorted(src.rglob("*")):
        rel = path.relative_to(src)
        target = out / rel
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif path.suffix == ".webp":
            jobs.append((path, target.with_suffix(".jpg"), [cv2.IMWRITE_JPEG_QUALITY, 95]))
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)
    return jobs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("action", choices=("pack", "unpack"))
    ap.add_argument("folder", type=Path, help="the compact copy")
    ap.add_argument(
        "out", type=Path, nargs="?", default=Path("runs"), help="unpack: where data/ and faces/ go"
    )
    ap.add_argument(
        "--data", help="pack: dataset folder (default ../shared/datasets/chinese-mahjong-detection)"
    )
    ap.add_argument("--faces", type=Path, default=Path("runs/faces"), help="pack: the face cache")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    if args.action == "pack":
        if not (args.faces / "procedural-varied" / "manifest.json").exists():
            print(
                f"error: no face cache at {args.faces}: run `python -m datasets.faces` first", file=sys.stderr
            )
            return 2
        jobs = pack(args.folder, require_data_dir(args.data), args.faces)
    else:
        if not (args.folder / ARCHIVE).is_file():
            print(f"error: no {ARCHIVE} in {args.folder}", file=sys.stderr)
            return 2
        jobs = unpack(args.folder, args.out)
    with ProcessPoolExecutor(args.jobs) as pool:
        list(pool.map(_convert, jobs, chunksize=32))
    if args.action == "pack":  # one file: thousands of small ones cost a disk block each
        with tarfile.open(args.folder / ARCHIVE, "w:gz") as tar:
            for part in ("data", "faces"):
                tar.add(args.folder / part, arcname=part)
                shutil.rmtree(args.folder / part)
    size = sum(p.stat().st_size for p in args.folder.rglob("*") if p.is_file())
    print(f"{args.action}: {len(jobs)} images; {args.folder} holds {size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
