"""The tile pictures (mahjong_nts/tile_art): one per code and size, decodable, distinct, inlined in HTML."""

from __future__ import annotations

import base64
import fnmatch
import importlib.util
import io
import re
import subprocess
import sys
import tomllib
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from mahjong_nts.tile_art import (
    CODES,
    SIZES,
    hand_html,
    sprite_tile,
    tile_data_uri,
    tile_label,
    tile_png,
    tile_sprite,
)
from scoring import TILE_CODES, TileError

ROOT = Path(__file__).resolve().parents[1]
ART = ROOT / "mahjong_nts" / "tile_art"
ARTWORK = ROOT.parent / "shared" / "artwork" / "fluffystuff-riichi-tiles"


def picture(code: str, size: str = "48x64") -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(tile_png(code, size))).convert("RGBA"))


def test_every_code_and_the_back_have_a_picture() -> None:
    assert len(CODES) == 43 and (*TILE_CODES, "back") == CODES
    for folder in SIZES:
        assert sorted(path.stem for path in (ART / folder).glob("*.png")) == sorted(CODES)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_pictures_decode_at_their_size_with_rounded_corners(size: str) -> None:
    width, height = SIZES[size]
    for code in CODES:
        pixels = picture(code, size)
        assert pixels.shape == (height, width, 4), code
        assert pixels[0, 0, 3] == 0 and pixels[height // 2, width // 2, 3] >= 240, code


@pytest.mark.parametrize("size", sorted(SIZES))
def test_no_two_tiles_look_alike(size: str) -> None:
    pictures = {code: picture(code, size).astype(np.int16) for code in CODES}
    for a, b in combinations(CODES, 2):
        assert np.abs(pictures[a] - pictures[b]).mean() > 1.0, (a, b)


def test_flowers_and_seasons_each_have_their_own_colour() -> None:
    def ink(code: str) -> np.ndarray:
        rgb = picture(code, "96x128")[..., :3].astype(float)
        saturated = rgb.max(axis=2) - rgb.min(axis=2) > 80  # the motif, not the ivory body or the rim
        return rgb[saturated].mean(axis=0)

    bonus = [code for code in TILE_CODES if code[1] in "fy"]
    colours = {code: ink(code) for code in bonus}
    for a, b in combinations(bonus, 2):
        assert np.linalg.norm(colours[a] - colours[b]) > 30, (a, b)


def test_the_set_is_small() -> None:
    assert sum(path.stat().st_size for path in ART.glob("*/*.png")) < 300_000


def test_pictures_are_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["mahjong_nts.tile_art"]
    for path in ART.glob("*/*.png"):
        relative = path.relative_to(ART).as_posix()
        assert any(fnmatch.fnmatch(relative, pattern) for pattern in patterns), relative


def test_data_uri_holds_the_png() -> None:
    uri = tile_data_uri("7z")
    assert uri.startswith("data:image/png;base64,")
    assert base64.b64decode(uri.split(",", 1)[1]) == tile_png("7z")


def test_hand_html_shows_each_tile_with_its_name() -> None:
    markup = hand_html(["1p", "5z", "back", "3p"], 40)
    images = re.findall(r"<img [^>]*>", markup)
    assert [re.search(r'data-code="([^"]+)"', img).group(1) for img in images] == ["1p", "5z", "back", "3p"]  # type: ignore[union-attr]
    assert re.findall(r'alt="([^"]+)"', markup) == ["1 kring", "Witte draak", "omgekeerde steen", "3 kringen"]
    assert all('height="40"' in img and 'width="30"' in img for img in images)
    assert 'alt="1 circle"' in hand_html(["1p"], 40, lang="en")
    assert hand_html([], 40) == ""


def test_hand_html_uses_the_sharp_picture_when_large() -> None:
    large = re.search(r'src="data:image/png;base64,([^"]+)"', hand_html(["2s"], 96))
    assert large is not None
    assert Image.open(io.BytesIO(base64.b64decode(large.group(1)))).size == (96, 128)


def test_bad_codes_and_sizes_are_refused() -> None:
    with pytest.raises(TileError, match="unknown tile '8z'"):
        tile_png("8z")
    with pytest.raises(ValueError, match="48x64"):
        tile_png("1m", "10x10")
    with pytest.raises(ValueError, match="height"):
        hand_html(["1m"], 0)
    with pytest.raises(ValueError, match="language"):
        tile_label("back", "fr")


@pytest.mark.skipif(
    importlib.util.find_spec("cairosvg") is None or not ARTWORK.is_dir(),
    reason="needs cairosvg and ../shared/artwork",
)
def test_the_script_draws_the_same_pictures(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_tile_art.py"), "--out", str(tmp_path)],
        check=True,
        capture_output=True,
    )
    for path in ART.glob("*/*.png"):
        assert (tmp_path / path.relative_to(ART)).read_bytes() == path.read_bytes(), path.name


def test_a_sprite_holds_each_picture_once_and_tiles_draw_from_it() -> None:
    sprite = tile_sprite(["1m", "5z", "1m", "back"])
    assert re.findall(r'<symbol id="tile-([^"]+)"', sprite) == ["1m", "5z", "back"]
    assert sprite.count(tile_data_uri("1m", "96x128")) == 1
    drawn = sprite_tile("5z", 40)
    assert '<use href="#tile-5z"' in drawn and 'width="30" height="40"' in drawn
    assert "<title>Witte draak</title>" in drawn
    assert "<title>tile 3: &lt;6z&gt;</title>" in sprite_tile("6z", 40, label="tile 3: <6z>")
    with pytest.raises(TileError):
        sprite_tile("9z")
    with pytest.raises(ValueError, match="48x64"):
        tile_sprite(["1m"], "1x1")
