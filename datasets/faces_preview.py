"""Contact sheet of a face bank, to check every label by eye: one band per artwork, one column per tile code
(code printed above each column), a face's variants stacked down the column, faces on ivory.

Example: .venv/bin/python -m datasets.faces_preview runs/faces_preview.png [--split heldout] [--artwork NAME]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

from datasets.faces import ARTWORKS, TILE_CODES, Face, load_faces

IVORY = (245, 240, 225)


def on_ivory(face: Face, width: int, height: int) -> np.ndarray:
    """A face composited on an ivory cell of the given size (centred, scaled to fit) -> RGB."""
    cell = np.full((height, width, 3), IVORY, np.float32)
    rgba = face.rgba
    scale = min(width / rgba.shape[1], height / rgba.shape[0])
    w, h = max(1, round(rgba.shape[1] * scale)), max(1, round(rgba.shape[0] * scale))
    small = cv2.resize(rgba, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    x0, y0 = (width - w) // 2, (height - h) // 2
    alpha = small[:, :, 3:] / 255
    region = cell[y0 : y0 + h, x0 : x0 + w]
    cell[y0 : y0 + h, x0 : x0 + w] = region * (1 - alpha) + small[:, :, :3] * alpha
    return cell.astype(np.uint8)


def contact_sheet(
    bank: dict[str, list[Face]], cell: int = 64, codes: tuple[str, ...] = TILE_CODES
) -> np.ndarray:
    """RGB image: for each artwork in the bank, a titled band of columns by code."""
    cw, ch = cell, round(cell * 4 / 3)
    pad, title = 4, 22
    artworks = [a for a in ARTWORKS if any(f.artwork == a for fs in bank.values() for f in fs)]
    bands = []
    for artwork in artworks:
        columns = {code: [f for f in bank.get(code, []) if f.artwork == artwork] for code in codes}
        depth = max(1, max(len(fs) for fs in columns.values()))
        band = np.full((title + 14 + depth * (ch + pad), len(codes) * (cw + pad) + pad, 3), 90, np.uint8)
        label = f"{artwork} ({ARTWORKS[artwork]})"
        cv2.putText(band, label, (pad, 16), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1, cv2.LINE_AA)
        for i, code in enumerate(codes):
            x = pad + i * (cw + pad)
            cv2.putText(band, code, (x + 2, title + 10), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 0), 1)
            for j, face in enumerate(columns[code]):
                y = title + 14 + j * (ch + pad)
                band[y : y + ch, x : x + cw] = on_ivory(face, cw, ch)
        bands.append(band)
    if not bands:
        return np.full((ch, cw, 3), 90, np.uint8)
    return np.vstack(bands)


def main(argv: list[str] | None = None) -> int:
    """Write the contact sheet of a split (optionally of some artworks only)."""
    parser = argparse.ArgumentParser(description="contact sheet of the face bank")
    parser.add_argument("out", type=Path)
    parser.add_argument("--split", default="all")
    parser.add_argument("--artwork", action="append", help="only these artworks (repeatable)")
    parser.add_argument("--height", type=int, default=128)
    parser.add_argument("--cell", type=int, default=64)
    parser.add_argument("--cache", type=Path, default=Path("runs/faces"))
    args = parser.parse_args(argv)
    bank = load_faces(args.split, args.height, args.cache)
    if args.artwork:
        bank = {c: [f for f in fs if f.artwork in args.artwork] for c, fs in bank.items()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), cv2.cvtColor(contact_sheet(bank, args.cell), cv2.COLOR_RGB2BGR))
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
