"""datasets/faces.py and its faces_* modules: codes of every source map to the 42 tiles, the split covers
every code on both sides, faces are cut and cached as promised (a tiny bank from the CC0 FluffyStuff SVGs)."""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets import faces
from datasets.faces import (
    ARTWORKS,
    FLUFFY_DIR,
    FONTS,
    RENDERERS,
    TILE_CODES,
    UNICODE_CODES,
    UNICODE_FIRST,
    artworks_of,
    cached_faces,
    glyph_interior,
    hide_element,
    kmahjongg_elements,
    load_faces,
    missing_codes,
)
from datasets.faces_common import Rendered
from datasets.faces_drawn import chinese_numeral, render_drawn_bonus
from datasets.faces_sheets import SHEETS, key_out
from datasets.faces_western import WESTERN_BASES, add_index, index_for, swap_inks
from recognizer.labels import BONUS

NUMBERS = ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE")
SUIT_NAMES = {"CHARACTERS": "m", "CIRCLES": "p", "BAMBOOS": "s"}
NAMED = {
    "EAST WIND": "1z",
    "SOUTH WIND": "2z",
    "WEST WIND": "3z",
    "NORTH WIND": "4z",
    "WHITE DRAGON": "5z",
    "GREEN DRAGON": "6z",
    "RED DRAGON": "7z",
    "PLUM": "1f",
    "ORCHID": "2f",
    "CHRYSANTHEMUM": "3f",
    "BAMBOO": "4f",
    "SPRING": "1y",
    "SUMMER": "2y",
    "AUTUMN": "3y",
    "WINTER": "4y",
}


def code_from_unicode_name(name: str) -> str:
    """'MAHJONG TILE THREE OF CIRCLES' -> '3p', from the Unicode name alone."""
    rest = name.removeprefix("MAHJONG TILE ")
    if " OF " in rest:
        number, suit = rest.split(" OF ")
        return f"{NUMBERS.index(number) + 1}{SUIT_NAMES[suit]}"
    return NAMED[rest]


def test_unicode_block_order_matches_the_character_names() -> None:
    got = [
        code_from_unicode_name(unicodedata.name(chr(UNICODE_FIRST + i))) for i in range(len(UNICODE_CODES))
    ]
    assert list(UNICODE_CODES) == got
    assert sorted(UNICODE_CODES) == sorted(TILE_CODES)


def test_kmahjongg_elements_cover_every_code_and_classic_swaps_its_flowers() -> None:
    for tileset in ("default", "traditional", "classic"):
        assert sorted(kmahjongg_elements(tileset).values()) == sorted(TILE_CODES)
    assert kmahjongg_elements("default")["FLOWER_1"] == "1f"
    assert kmahjongg_elements("classic")["FLOWER_1"] == "2f"
    assert kmahjongg_elements("classic")["FLOWER_2"] == "1f"
    assert kmahjongg_elements()["WIND_3"] == "1z"


def test_every_artwork_has_a_side_and_a_renderer_and_both_sides_exist() -> None:
    assert set(ARTWORKS.values()) == {"train", "heldout"}
    assert set(RENDERERS) == set(ARTWORKS)
    train, heldout = artworks_of("train"), artworks_of("heldout")
    assert not set(train) & set(heldout)
    assert sorted(artworks_of("all")) == sorted(train + heldout)
    # one drawing never sits on both sides
    assert ARTWORKS["fluffystuff-regular"] == ARTWORKS["fluffystuff-black"]
    with pytest.raises(ValueError):
        artworks_of("valid")


def test_hide_element_sets_display_none_on_that_element_only() -> None:
    svg = '<svg><g id="A" style="fill:red;display:inline"><rect/></g><g id="AB"><rect/></g></svg>'
    hidden = hide_element(svg, "A")
    assert hidden is not None
    assert 'id="A" style="fill:red;display:inline;display:none"' in hidden
    assert '<g id="AB">' in hidden  # same prefix, untouched
    assert hide_element(svg, "AB") == svg.replace('id="AB"', 'id="AB" style="display:none"')
    assert hide_element(svg, "C") is None


def test_glyph_interior_removes_the_tile_outline_and_keeps_the_design() -> None:
    mask = np.zeros((200, 160), np.uint8)
    mask[10:190, 10:150] = 255
    mask[14:186, 14:146] = 0  # an outline 4 px thick
    mask[80:120, 60:100] = 255  # the design
    design = glyph_interior(mask)
    assert design is not None
    h, w = design.shape
    assert 160 < h < 180 and 120 < w < 140  # the inside of the outline
    assert (design > 0).sum() == 40 * 40  # the design whole, nothing of the outline
    assert glyph_interior(np.zeros((50, 50), np.uint8)) is None


def test_an_empty_split_name_is_refused_and_missing_codes_are_listed() -> None:
    with pytest.raises(ValueError):
        load_faces("test", cache=None)
    assert missing_codes({}) == list(TILE_CODES)


@pytest.mark.skipif(
    not (FLUFFY_DIR / "Regular").is_dir(), reason="../shared/artwork (FluffyStuff SVGs) absent"
)
def test_tiny_fluffystuff_bank_is_split_cached_and_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("cairosvg", reason="cairosvg (train extra) renders the SVGs")
    monkeypatch.setattr(faces, "ARTWORKS", {"fluffystuff-regular": "train", "fluffystuff-black": "heldout"})
    train = load_faces("train", height=48, cache=tmp_path)
    riichi = [c for c in TILE_CODES if c[-1] in "mpsz"]
    assert sorted(train) == sorted(riichi)  # 34 codes, no flowers or seasons
    assert missing_codes(train) == [c for c in TILE_CODES if c[-1] in "fy"]
    assert len(train["5m"]) == 2 and len(train["1m"]) == 1  # the red five kept as a second five
    for code, fs in train.items():
        for face in fs:
            assert face.code == code and face.artwork == "fluffystuff-regular"
            assert face.rgba.dtype == np.uint8 and face.rgba.shape[0] == 48 and face.rgba.shape[2] == 4
            assert 0.6 < face.rgba.shape[1] / 48 < 0.85  # portrait
    assert not train["5z"][0].rgba[:, :, 3].any()  # haku is a blank face
    assert train["1m"][0].rgba[:, :, 3].mean() > 20  # ink on a transparent ground
    heldout = load_faces("heldout", height=48, cache=tmp_path)
    assert {f.artwork for fs in heldout.values() for f in fs} == {"fluffystuff-black"}
    assert (heldout["1m"][0].rgba[:, :, 3] == 255).mean() > 0.9  # black: on its own dark face
    assert (tmp_path / "fluffystuff-regular" / "5m_1.png").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fluffystuff-black", "fluffystuff-regular"]
    with pytest.raises(ValueError):
        train["1m"][0].rgba[0, 0, 0] = 1  # shared by every scene: read-only

    def no_render(height: int) -> list:
        raise AssertionError("rendered again instead of reading the cache")

    monkeypatch.setattr(faces, "RENDERERS", dict.fromkeys(RENDERERS, no_render))
    again = load_faces("train", height=48, cache=tmp_path)
    assert sorted(again) == sorted(train)
    assert np.array_equal(again["9p"][0].rgba, train["9p"][0].rgba)
    with pytest.raises(AssertionError, match="rendered again"):
        cached_faces("fluffystuff-regular", 40, tmp_path)  # another height is rendered anew
    monkeypatch.setattr(faces, "installed_sources", list)  # a machine with less artwork: the cache is kept
    assert len(cached_faces("fluffystuff-regular", 48, tmp_path)) == sum(len(fs) for fs in train.values())
    monkeypatch.setattr(faces, "installed_sources", lambda: ["/usr/share/a-package-installed-since"])
    with pytest.raises(AssertionError, match="rendered again"):
        cached_faces("fluffystuff-regular", 48, tmp_path)  # a source installed since: rendered anew


@pytest.mark.parametrize("artwork", ["font-noto", "font-freeserif"])
def test_font_faces_cover_all_42_codes_in_colour(artwork: str) -> None:
    if not FONTS[artwork].is_file():
        pytest.skip(f"{FONTS[artwork]} absent (Debian fonts-noto-core / fonts-freefont-ttf)")
    rendered = RENDERERS[artwork](40)
    assert sorted({code for code, _ in rendered}) == sorted(TILE_CODES)
    by_code = {code: rgba for code, rgba in rendered}
    five = by_code["5m"]
    ink = five[:, :, 3] > 128
    lower = five[five.shape[0] // 2 :][ink[five.shape[0] // 2 :]]
    assert (lower[:, 0].astype(int) - lower[:, 2] > 80).mean() > 0.8  # 萬 printed red
    # the outline is gone: no ink along the face's border
    assert not (by_code["1z"][:, :, 3][[0, -1]] > 128).any()


@pytest.mark.skipif(not FONTS["font-unifont"].is_file(), reason="fonts-unifont absent")
def test_unifont_faces_are_its_bitmaps_drawn_large() -> None:
    rendered = RENDERERS["font-unifont"](48)
    assert sorted({code for code, _ in rendered}) == sorted(TILE_CODES)
    by_code = {code: rgba for code, rgba in rendered}
    alpha = by_code["9s"][:, :, 3]
    # a 16-pixel glyph drawn 48 high: ink comes in blocks, so nearly every pixel matches its right
    # neighbour (0.75 for the outline fonts)
    inked = alpha > 128
    assert (inked[:, 1:] == inked[:, :-1]).mean() > 0.85 and inked.mean() > 0.1
    assert not (by_code["1z"][:, :, 3][[0, -1]] > 128).any()  # the glyph's tile outline is cut away


def test_every_sheet_layout_fits_its_grid_and_names_each_code_at_most_once() -> None:
    for name, sheet in SHEETS.items():
        assert name in ARTWORKS
        assert len(sheet.codes) <= sheet.columns * sheet.rows
        named = [c for c in sheet.codes if c is not None]
        assert set(named) <= set(TILE_CODES), name
        assert len(named) == len(set(named)), name
    # as the sheets write them: dorothys' bonus order, real's winds 北 南 東 西
    assert SHEETS["xmahjongg-dorothys"].codes[33:42] == ("1y", "2y", "3y", "4y", "5z", "4f", "2f", "1f", "3f")
    assert SHEETS["xmahjongg-real"].codes[31:35] == ("4z", "2z", "1z", "3z")


def test_key_out_gives_back_the_face_over_its_ground() -> None:
    ground = np.full((4, 4, 3), (240.0, 235.0, 220.0))
    rgb = ground.copy()
    rgb[1, 1] = (200, 30, 30)  # full ink
    rgb[2, 2] = (220, 132, 125)  # a half-covered edge pixel
    rgba = key_out(rgb, ground, (20, 120))
    assert rgba[0, 0, 3] == 0 and rgba[1, 1, 3] == 255 and 0 < rgba[2, 2, 3] < 255
    a = rgba[:, :, 3:] / 255
    back = rgba[:, :, :3] * a + ground * (1 - a)
    assert np.abs(back - rgb).max() < 1.5


def test_procedural_faces_are_made_from_train_artwork_only() -> None:
    assert ARTWORKS["procedural-western"] == ARTWORKS["procedural-flowers"] == "train"
    assert all(ARTWORKS[base] == "train" for base in WESTERN_BASES)


def test_corner_indices_name_the_tile_in_english_or_dutch() -> None:
    rng = np.random.default_rng(0)
    assert index_for("7m", rng) == "7" and index_for("3y", rng) == "3"
    east = {index_for("1z", np.random.default_rng(seed)) for seed in range(40)}
    south = {index_for("2z", np.random.default_rng(seed)) for seed in range(40)}
    assert east == {"E", "O"} and south == {"S", "Z"}
    assert {index_for("7z", np.random.default_rng(seed)) for seed in range(40)} == {"C", None}


def test_add_index_prints_the_index_in_a_top_corner_and_keeps_the_design() -> None:
    face = np.zeros((120, 90, 4), np.uint8)
    face[10:110, 10:80] = (30, 60, 160, 255)  # a design filling the face
    out = add_index(face, "5", (190, 30, 35), np.random.default_rng(1))
    assert out.shape == face.shape
    red = (out[:, :, 0] > 150) & (out[:, :, 2] < 90) & (out[:, :, 3] > 128)
    ys, _ = np.nonzero(red)
    assert len(ys) > 20 and ys.max() < 0.3 * 120  # the index, at the top
    blue = (out[:, :, 2] > 120) & (out[:, :, 3] > 128)
    assert blue.sum() > 0.5 * (face[:, :, 3] > 0).sum()  # the design, shrunk, still there


def test_swap_inks_prints_blue_as_black_and_leaves_red() -> None:
    face = np.zeros((10, 10, 4), np.uint8)
    face[:5] = (25, 60, 165, 255)
    face[5:] = (190, 30, 35, 255)
    out = swap_inks(face, {"blue": "black"})
    assert out[:5, :, :3].max() < 60
    assert np.array_equal(out[5:], face[5:])


def test_chinese_numerals_have_their_strokes() -> None:
    for n in (1, 2, 3):
        count, _ = cv2.connectedComponents((chinese_numeral(n, 40) > 128).astype(np.uint8))
        assert count - 1 == n  # 一 二 三: n separate strokes
    assert (chinese_numeral(4, 40) > 128).mean() > (chinese_numeral(1, 40) > 128).mean()


def test_drawn_flowers_and_seasons_cover_the_eight_bonus_codes() -> None:
    rendered = render_drawn_bonus(96, per_code=2)
    assert sorted(code for code, _ in rendered) == sorted([c for c in TILE_CODES if c[-1] in "fy"] * 2)
    for _, rgba in rendered:
        assert rgba.shape == (96, 72, 4)
        assert 0.02 < (rgba[:, :, 3] > 128).mean() < 0.6  # a picture on a transparent ground
        assert (rgba[:19, :, 3] > 100).any()  # the numeral, at the top


def assert_procedural_artwork(
    artwork: str, render: Callable[[], Rendered], per_code: int, clear_border: float, min_ink: float
) -> Rendered:
    """A procedural train artwork's 64 px faces (`render()`): every code `per_code` times, RGBA at 3:4,
    at least `clear_border` of the top and bottom rows transparent, between `min_ink` and 0.7 inked, the
    same faces when rendered again (seeds fixed). Returns them; skips without a CJK font."""
    from datasets.faces_printed import fonts_for

    if not fonts_for("萬"):
        pytest.skip("no CJK font installed (fonts-arphic-*, fonts-noto-cjk, fonts-wqy-zenhei, ...)")
    rendered = render()
    assert sorted(code for code, _ in rendered) == sorted(list(TILE_CODES) * per_code)
    assert ARTWORKS[artwork] == "train" and artwork in RENDERERS
    for code, rgba in rendered:
        h, w = rgba.shape[:2]
        assert rgba.dtype == np.uint8 and rgba.shape[2] == 4 and h == 64 and abs(w / h - 0.75) < 0.05, code
        alpha = rgba[:, :, 3]
        assert (alpha[[0, -1]] == 0).mean() > clear_border, code  # a transparent ground at the border
        assert min_ink < (alpha > 128).mean() < 0.7, code  # some ink, not a filled face
    again = render()
    assert all(np.array_equal(a, b) for (_, a), (_, b) in zip(rendered, again, strict=True))  # seeds fixed
    return rendered


def test_printed_faces_cover_every_code_on_a_transparent_ground() -> None:
    from datasets.faces_printed import render_printed

    rendered = assert_procedural_artwork(
        "procedural-printed", lambda: render_printed(64, per_code=2), 2, clear_border=0.9, min_ink=0.02
    )
    red = rendered[[c for c, _ in rendered].index("5m")][1]
    lower = red[40:][red[40:, :, 3] > 128].astype(int)
    assert (lower[:, 0] - lower[:, 2] > 80).mean() > 0.6  # 萬 printed red below the numeral


def test_varied_faces_cover_every_code_in_many_styles() -> None:
    from datasets.faces_varied import render_varied

    rendered = assert_procedural_artwork(
        "procedural-varied",
        lambda: render_varied(64, per_code=4, bonus_per_code=4),
        4,
        clear_border=0.8,
        min_ink=0.01,
    )
    for code in ("2s", "5s", "3p", "5z"):  # one code, four different drawings: ink coverage differs
        inked = [(rgba[:, :, 3] > 128).mean() for c, rgba in rendered if c == code]
        assert max(inked) > 1.3 * min(inked), code


def test_varied_bonus_faces_come_more_often_than_the_others() -> None:
    from datasets.faces_varied import render_varied

    rendered = render_varied(48, per_code=1, bonus_per_code=6)
    if not rendered:
        pytest.skip("no Pillow or no CJK font installed")
    counts = Counter(code for code, _ in rendered)
    assert {code: n for code, n in counts.items() if n != 1} == dict.fromkeys(BONUS, 6)
    for code in ("1f", "4y"):  # six drawings of one flower or season, no two alike
        faces = [rgba for c, rgba in rendered if c == code]
        assert len({rgba.tobytes() for rgba in faces}) == 6, code


def test_a_long_word_is_printed_whole() -> None:
    from datasets.faces_western import text_mask

    for seed in range(8):  # both the DejaVu and the Hershey path
        mask = text_mask("CHRYSANTHEMUM", 40, np.random.default_rng(seed))
        assert mask.shape[1] > 6 * mask.shape[0], seed  # thirteen letters, none cut off at the canvas edge


def test_every_bonus_face_prints_a_cue_and_each_cue_can_stand_alone() -> None:
    from datasets.faces_varied import bonus_cues

    draws = [bonus_cues(np.random.default_rng(seed)) for seed in range(400)]
    assert all(any(cues) for cues in draws)
    for k in range(3):  # numeral alone, character alone, name alone: none may be the only one learnt
        assert any(cues[k] and sum(cues) == 1 for cues in draws), k


def test_a_named_honour_leaves_its_bands_to_the_name() -> None:
    pytest.importorskip("PIL")
    from datasets.faces_printed import Printer
    from datasets.faces_varied import shrink_to_middle

    p = Printer(64, 0, np.random.default_rng(0))
    p.canvas[:] = (20, 20, 20)  # ink everywhere
    shrink_to_middle(p)
    h = p.canvas.shape[0]
    ground = p.canvas[0, 0].copy()
    assert (p.canvas[: round(h * 0.18)] == ground).all() and (p.canvas[round(h * 0.82) :] == ground).all()
    assert (p.canvas[h // 2, p.canvas.shape[1] // 2] == (20, 20, 20)).all()
