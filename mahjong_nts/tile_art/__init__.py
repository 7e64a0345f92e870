"""Pictures of the tiles (the 42 codes and `back`, a face-down tile) for the app and the batch handout.

PNG files in two sizes, `48x64/` and `96x128/` (width x height), drawn by `scripts/make_tile_art.py`
from CC0 artwork (README.md here); read as package data.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Iterable
from functools import cache
from importlib import resources

from scoring import TILE_CODES, TileError, tile_name
from scoring.tiles import BACK

CODES: tuple[str, ...] = (*TILE_CODES, BACK)
SIZES: dict[str, tuple[int, int]] = {"48x64": (48, 64), "96x128": (96, 128)}  # folder -> (width, height)
_BACK_NAMES = {"nl": "omgekeerde steen", "en": "face-down tile"}


def tile_label(code: str, lang: str = "nl") -> str:
    """What a picture shows, for its alt text: tile_name, or "omgekeerde steen" for `back`."""
    if code == BACK:
        if lang not in _BACK_NAMES:
            raise ValueError(f"language must be 'nl' or 'en', not {lang!r}")
        return _BACK_NAMES[lang]
    return tile_name(code, lang)


def _check_size(size: str) -> tuple[int, int]:
    """(width, height) of a picture size; ValueError naming the sizes there are."""
    if size not in SIZES:
        raise ValueError(f"tile pictures come in {', '.join(SIZES)}, not {size!r}")
    return SIZES[size]


@cache
def tile_png(code: str, size: str = "48x64") -> bytes:
    """The PNG of a tile (`code` one of CODES) in `size` (a key of SIZES)."""
    if code not in CODES:
        raise TileError.of("unknown_tile", token=code)
    _check_size(size)
    return resources.files(__name__).joinpath(size, f"{code}.png").read_bytes()


@cache
def tile_data_uri(code: str, size: str = "48x64") -> str:
    """The tile's PNG as a `data:` URI, to inline in HTML or CSS."""
    return "data:image/png;base64," + base64.b64encode(tile_png(code, size)).decode("ascii")


def tile_img(code: str, height: int = 48, lang: str = "nl") -> str:
    """One `<img>` of a tile, `height` CSS pixels high; the sharper large picture above 64."""
    width = round(height * 3 / 4)
    label = html.escape(tile_label(code, lang), quote=True)
    source = tile_data_uri(code, "96x128" if height > 64 else "48x64")
    return (
        f'<img class="tile" src="{source}" width="{width}" height="{height}" alt="{label}" '
        f'title="{label}" data-code="{code}">'
    )


def hand_html(codes: Iterable[str], size: int = 48, lang: str = "nl") -> str:
    """A row of tile pictures, `size` CSS pixels high, inline (no files needed); empty codes give ''."""
    if isinstance(size, bool) or not isinstance(size, int) or not 8 <= size <= 256:
        raise ValueError(f"size is the height in pixels, 8 to 256, not {size!r}")
    images = "".join(tile_img(code, size, lang) for code in codes)
    if not images:
        return ""
    return f'<span class="tiles" style="display:inline-flex;gap:{max(size // 16, 1)}px">{images}</span>'


def tile_sprite(codes: Iterable[str], size: str = "96x128") -> str:
    """A hidden `<svg>` holding each distinct code's picture once (`<symbol id="tile-CODE">`), for pages that
    show many tiles: `sprite_tile` draws one by reference, so a long page carries every picture once."""
    width, height = _check_size(size)
    symbols = "".join(
        f'<symbol id="tile-{code}" viewBox="0 0 {width} {height}">'
        f'<image href="{tile_data_uri(code, size)}" width="{width}" height="{height}"></image></symbol>'
        for code in dict.fromkeys(codes)
    )
    return f'<svg width="0" height="0" style="position:absolute" aria-hidden="true">{symbols}</svg>'


def sprite_tile(code: str, height: int = 40, label: str | None = None, lang: str = "nl") -> str:
    """One tile drawn from the page's `tile_sprite`, `height` CSS pixels high, titled `label` (its name)."""
    if code not in CODES:
        raise TileError.of("unknown_tile", token=code)
    text = html.escape(label if label is not None else tile_label(code, lang), quote=True)
    return (
        f'<svg class="tile" width="{round(height * 3 / 4)}" height="{height}" viewBox="0 0 3 4" role="img" '
        f'aria-label="{text}"><title>{text}</title><use href="#tile-{code}" width="3" height="4"></use></svg>'
    )
