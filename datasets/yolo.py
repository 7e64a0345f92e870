"""Read the YOLO-format "Chinese Mahjong Detection" folders into boxes with the project's tile codes."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_DATA_DIR = PROJECT_ROOT.parent / "shared" / "datasets" / "chinese-mahjong-detection"
DATA_ENV = "MAHJONG_NTS_DATA"

# Label order shared with the runtime: the 42 tile codes, then "back" (face-down tile).
LABELS: tuple[str, ...] = (
    *(f"{n}m" for n in range(1, 10)),
    *(f"{n}p" for n in range(1, 10)),
    *(f"{n}s" for n in range(1, 10)),
    *(f"{n}z" for n in range(1, 8)),
    *(f"{n}f" for n in range(1, 5)),
    *(f"{n}y" for n in range(1, 5)),
    "back",
)
BACK = LABELS.index("back")

# data.yaml `names`, in the dataset's (interleaved) class-index order.
DATASET_NAMES: tuple[str, ...] = (
    "bs1",
    "sc1",
    "sd1",
    "sb1",
    "hwe",
    "bs2",
    "sc2",
    "sd2",
    "sb2",
    "hws",
    "bs3",
    "sc3",
    "sd3",
    "sb3",
    "hww",
    "bs4",
    "sc4",
    "sd4",
    "sb4",
    "hwn",
    "bf1",
    "sc5",
    "sd5",
    "sb5",
    "hdw",
    "bf2",
    "sc6",
    "sd6",
    "sb6",
    "hdg",
    "bf3",
    "sc7",
    "sd7",
    "sb7",
    "hdr",
    "bf4",
    "sc8",
    "sd8",
    "sb8",
    "sc9",
    "sd9",
    "sb9",
)

_SUIT = {"sc": "m", "sd": "p", "sb": "s", "bf": "f", "bs": "y"}
_HONOURS = {"hwe": "1z", "hws": "2z", "hww": "3z", "hwn": "4z", "hdw": "5z", "hdg": "6z", "hdr": "7z"}


def dataset_name_to_code(name: str) -> str:
    """Map a dataset class name such as 'sc3' or 'hdr' to the tile code ('3m', '7z')."""
    if name in _HONOURS:
        return _HONOURS[name]
    return f"{name[2]}{_SUIT[name[:2]]}"


CLASS_TO_LABEL: np.ndarray = np.array([LABELS.index(dataset_name_to_code(n)) for n in DATASET_NAMES])


@dataclass(frozen=True)
class Sample:
    """One photo with its boxes (xyxy, image pixels) and label indices into LABELS."""

    image: Path
    boxes: np.ndarray  # (n, 4) float32 xyxy in pixels
    labels: np.ndarray  # (n,) int64 indices into LABELS
    width: int
    height: int


def data_dir(override: str | Path | None = None) -> Path:
    """The dataset folder: explicit override, else $MAHJONG_NTS_DATA, else ../shared/datasets/..."""
    if override:
        return Path(override)
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else DEFAULT_DATA_DIR


def require_data_dir(override: str | Path | None = None) -> Path:
    """Return the dataset folder or exit with a one-line message when it is absent."""
    root = data_dir(override)
    if not (root / "train" / "labels").is_dir():
        print(f"skipping: dataset not found at {root} (set {DATA_ENV} or pass --data)", file=sys.stderr)
        raise SystemExit(2)
    return root


def _is_class(tok: str) -> bool:
    return tok.isdigit() and (tok == "0" or not tok.startswith("0")) and int(tok) < len(LABELS)


def _splits(tok: str) -> list[tuple[float, int, float]]:
    """Ways a token can be a coordinate glued to the next record's class: (value, class, score)."""
    out = []
    for k in (1, 2):
        head, tail = tok[:-k], tok[-k:]
        if not head or not _is_class(tail):
            continue
        try:
            value = float(head)
        except ValueError:
            continue
        if not 0.0 <= value <= 1.0001:
            continue
        digits = len(head.replace("0.", "", 1).lstrip("0")) if "." in head else 0
        if digits > 17:
            continue
        on_grid = abs(value * 640 - round(value * 640)) < 1e-6
        # non-positive tie-breaks: fewer splits win; a value on the 1/640 grid is the likelier split
        out.append((value, int(tail), (0.0 if on_grid else -0.1) - (0.05 if k == 2 else 0.0)))
    return out


def _record_box(coords: list[float]) -> list[float] | None:
    """Coordinates of one record -> normalised cx, cy, w, h (a box, or a closed polygon's bounds)."""
    if len(coords) == 4:
        cx, cy, w, h = coords
        inside = min(cx - w / 2, cy - h / 2) > -0.01 and max(cx + w / 2, cy + h / 2) < 1.01
        return coords if inside and w > 0 and h > 0 else None
    if len(coords) >= 6 and len(coords) % 2 == 0:
        xs, ys = coords[0::2], coords[1::2]
        x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
        return [(x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0]
    return None


def parse_label_line(line: str) -> list[tuple[int, list[float]]]:
    """Parse one label line; some lines of this export hold several records whose newline was lost
    (the last coordinate glued to the next class id) or polygons. Returns (class, [cx, cy, w, h])."""
    toks = line.split()
    if not toks or not _is_class(toks[0]):
        return []
    best: tuple[float, list[tuple[int, list[float]]]] | None = None

    def walk(i: int, cls: int, score: float, acc: list[tuple[int, list[float]]]) -> None:
        nonlocal best
        coords: list[float] = []
        j = i
        while j < len(toks):
            tok = toks[j]
            # try: this token ends the record glued to the next class
            for value, nxt, sc in _splits(tok):
                full = [*coords, value]
                rec = _record_box(full)
                if rec is not None:
                    closed = len(full) == 4 or full[:2] == full[-2:]
                    walk(j + 1, nxt, score + sc + (0.0 if closed else -5.0), [*acc, (cls, rec)])
            if "." not in tok and not tok.isdigit():
                return
            try:
                coords.append(float(tok))
            except ValueError:
                return
            j += 1
        rec = _record_box(coords)
        if rec is not None:
            # closed polygons and plain boxes are the expected shapes
            shape = 0.0 if len(coords) == 4 or coords[:2] == coords[-2:] else -5.0
            total = score + shape
            if best is None or total > best[0]:
                best = (total, [*acc, (cls, rec)])

    walk(1, int(toks[0]), 0.0, [])
    return best[1] if best else []


def read_split(root: Path, split: str) -> list[Sample]:
    """Read every image of a dataset split ('train'/'valid') with labels mapped to LABELS indices."""
    return read_folder(root / split, CLASS_TO_LABEL)


def read_folder(folder: Path, class_map: np.ndarray | None = None) -> list[Sample]:
    """Read folder/{images,labels}; `class_map` maps file class ids to LABELS indices (None: identity,
    as written by datasets.synthetic)."""
    from PIL import Image

    samples: list[Sample] = []
    for img in sorted((folder / "images").glob("*.jpg")):
        with Image.open(img) as im:
            w, h = im.size
        txt = folder / "labels" / (img.stem + ".txt")
        rows: list[list[float]] = []
        if txt.is_file():
            for line in txt.read_text().splitlines():
                rows.extend([float(c), *r] for c, r in parse_label_line(line))
        arr = np.array(rows, dtype=np.float32).reshape(-1, 5)
        cls = arr[:, 0].astype(np.int64)
        cx, cy, bw, bh = arr[:, 1] * w, arr[:, 2] * h, arr[:, 3] * w, arr[:, 4] * h
        boxes = np.stack([cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2], axis=1).astype(np.float32)
        boxes = np.clip(boxes, 0, [w, h, w, h]).astype(np.float32)
        labels = class_map[cls] if class_map is not None else cls
        samples.append(Sample(img, boxes, labels.astype(np.int64), w, h))
    return samples


def write_sample(
    out: Path, name: str, rgb: np.ndarray, boxes: list[tuple[int, float, float, float, float]], quality: int
) -> None:
    """One synthetic photo into out/images/NAME.jpg (JPEG `quality`) and its boxes (label index, xyxy
    pixels) into out/labels/NAME.txt as YOLO lines, the format read_folder reads back."""
    import cv2

    cv2.imwrite(
        str(out / "images" / f"{name}.jpg"),
        cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR),
        [cv2.IMWRITE_JPEG_QUALITY, quality],
    )
    h, w = rgb.shape[:2]
    lines = [
        f"{lab} {(x0 + x1) / 2 / w:.6f} {(y0 + y1) / 2 / h:.6f} {(x1 - x0) / w:.6f} {(y1 - y0) / h:.6f}"
        for lab, x0, y0, x1, y1 in boxes
    ]
    (out / "labels" / f"{name}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))


def write_data_yaml(out: Path, comment: str) -> None:
    """out/data.yaml naming the classes of a synthetic folder: LABELS, in index order."""
    names = ", ".join(f"'{n}'" for n in LABELS)
    (out / "data.yaml").write_text(f"# {comment}\nnc: {len(LABELS)}\nnames: [{names}]\n")


def placeholder_labelled(sample: Sample, min_boxes: int = 8, share: float = 0.8) -> bool:
    """True for a photo whose boxes nearly all carry one label although a hand or tray shows mixed tiles:
    7 valid photos (IMG_2778..IMG_2788) label every tile '1p' (sd1), a placeholder, not the truth."""
    n = len(sample.labels)
    return n >= min_boxes and int(np.bincount(sample.labels).max()) >= share * n
