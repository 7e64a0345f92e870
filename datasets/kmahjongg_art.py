"""Tile faces from the KMahjongg tilesets of Debian's `kdegames-mahjongg-data-kf5` (GPL-2+ artwork, used at
training time only, never committed): they add flowers, seasons and Western corner indices, which the CC0
riichi artwork lacks.

    apt-get install kdegames-mahjongg-data-kf5 librsvg2-bin    # tilesets in /usr/share/kmahjongglib

Each face is an SVG element (CHARACTER_5, ROD_3, BAMBOO_9, WIND_1, DRAGON_2, FLOWER_4, SEASON_1, ...) rendered
on its own with `rsvg-convert --export-id`. Elements built from clones or odd transforms render wrongly that
way (empty, or a speck in a large frame); `face_of` drops those, so each tileset gives what it can.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import cv2
import numpy as np

TILESET_DIR = Path("/usr/share/kmahjongglib/tilesets")
TILESETS = ("default", "traditional", "classic")
"""Tilesets whose faces are drawn like real tiles (jade and egypt render empty this way; alphabet uses
letters instead of tile faces)."""
_SUITS = {"CHARACTER": "m", "ROD": "p", "BAMBOO": "s"}
_HONOURS = {
    "WIND_1": "4z",  # north
    "WIND_2": "2z",  # south
    "WIND_3": "1z",  # east
    "WIND_4": "3z",  # west
    "DRAGON_1": "5z",  # white
    "DRAGON_2": "6z",  # green
    "DRAGON_3": "7z",  # red
}


def element_codes() -> dict[str, str]:
    """SVG element id -> tile code, for all 42 faces."""
    codes = {f"{name}_{n}": f"{n}{suit}" for name, suit in _SUITS.items() for n in range(1, 10)}
    codes |= _HONOURS
    codes |= {f"FLOWER_{n}": f"{n}f" for n in range(1, 5)}
    codes |= {f"SEASON_{n}": f"{n}y" for n in range(1, 5)}
    return codes


FACE_ASPECT = 69 / 89
"""Face width / height of the tilesets (TileFaceWidth / TileFaceHeight in their .desktop files)."""


def face_of(rgba: np.ndarray) -> np.ndarray | None:
    """The drawn face cut out of an element's render (its box holds empty space): the ink's bounding box
    grown to the face's shape, centred. None for a render gone wrong: no ink, or a speck (an element built
    from clones renders a small part in a large frame)."""
    h = rgba.shape[0]
    ys, xs = np.nonzero(rgba[:, :, 3] > 64)
    if len(xs) < 50:
        return None
    x0, x1, y0, y1 = int(xs.min()), int(xs.max()) + 1, int(ys.min()), int(ys.max()) + 1
    if y1 - y0 < 0.2 * h or y1 - y0 < 20:
        return None
    bw, bh = x1 - x0, y1 - y0
    fw, fh = max(bw, round(bh * FACE_ASPECT)), max(bh, round(bw / FACE_ASPECT))
    fw, fh = round(fw * 1.06), round(fh * 1.06)  # a little room around the ink
    out = np.zeros((fh, fw, 4), np.uint8)
    ox, oy = (fw - bw) // 2, (fh - bh) // 2
    out[oy : oy + bh, ox : ox + bw] = rgba[y0:y1, x0:x1]
    return out


def render_element(svg: Path, element: str, height: int) -> np.ndarray | None:
    """One element of a tileset as RGBA (None when rsvg-convert cannot render it)."""
    try:
        done = subprocess.run(
            ["rsvg-convert", "--export-id", element, "--height", str(height), str(svg)],
            capture_output=True,
            check=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    decoded = cv2.imdecode(np.frombuffer(done.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if decoded is None or decoded.ndim != 3 or decoded.shape[2] != 4:
        return None
    return cv2.cvtColor(decoded, cv2.COLOR_BGRA2RGBA)


def render_kmahjongg_faces(
    folder: Path = TILESET_DIR, tilesets: tuple[str, ...] = TILESETS, height: int = 160
) -> dict[str, list[np.ndarray]]:
    """code -> RGBA faces, one per tileset that draws it right; empty when the package is not installed."""
    faces: dict[str, list[np.ndarray]] = {}
    for name in tilesets:
        svg = folder / f"{name}.svgz"
        if not svg.is_file():
            continue
        for element, code in element_codes().items():
            rgba = render_element(svg, element, height)
            face = None if rgba is None else face_of(rgba)
            if face is not None:
                faces.setdefault(code, []).append(face)
    return faces
