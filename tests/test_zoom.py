"""Small tiles read as close-ups (recognizer/zoom.py): the window geometry, and real photos of hands shrunk
to a fifth, and to a third or more, of a 12 MP frame read as their labels say."""

from __future__ import annotations

import io
import itertools
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from recognizer import load_image
from recognizer.detector import TileBoxes
from recognizer.models import DETECTOR_FILE, model_folder
from recognizer.pipeline import Recognizer, Settings
from recognizer.zoom import core, cover, finds_more, read_windows, small_side, splits, zoom_in
from tests.test_recognizer_samples import NOTHING_ELSE, truth

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
HAS_MODELS = model_folder().joinpath(DETECTOR_FILE).is_file()


def boxes(*xyxy: tuple[float, float, float, float], score: float = 0.9) -> TileBoxes:
    arr = np.array(xyxy, np.float32).reshape(-1, 4)
    return TileBoxes(arr, np.full(len(arr), score, np.float32), np.zeros(len(arr), bool))


def test_cover_spans_the_region_with_overlapping_square_windows() -> None:
    windows = cover((100, 50, 900, 250), (1000, 1200, 3), 300, 60)
    assert all(x1 - x0 == 300 and y1 - y0 == 300 for x0, y0, x1, y1 in windows)
    assert min(w[0] for w in windows) <= 100 and max(w[2] for w in windows) >= 900
    xs = sorted({w[0] for w in windows})
    assert all(b - a <= 300 - 60 for a, b in itertools.pairwise(xs))  # neighbours overlap enough
    assert all(x0 >= 0 and x1 <= 1200 and y0 >= 0 and y1 <= 1000 for x0, y0, x1, y1 in windows)


def test_core_keeps_the_photo_edges_and_halves_inner_overlaps() -> None:
    assert core((0, 0, 300, 300), (600, 600, 3), 60) == (0, 0, 270, 270)
    assert core((300, 300, 600, 600), (600, 600, 3), 60) == (330, 330, 600, 600)


def test_a_tile_cut_by_two_windows_is_taken_once_whole() -> None:
    rgb = np.zeros((400, 800, 3), np.uint8)
    tile = (380.0, 100.0, 420.0, 160.0)  # straddles the seam of the two windows below
    windows = [(0, 0, 500, 400), (300, 0, 800, 400)]
    seen: list[tuple[int, int]] = []

    def reader(crop: np.ndarray) -> TileBoxes:
        seen.append(crop.shape[:2])
        offset = 0 if len(seen) == 1 else 300
        return boxes((tile[0] - offset, tile[1], tile[2] - offset, tile[3]))

    merged = read_windows(rgb, windows, 200, reader, 0.5)
    assert len(merged) == 1
    np.testing.assert_allclose(merged.xyxy[0], tile)


def test_small_side_ignores_the_few_boxes_that_span_several_tiles() -> None:
    found = boxes(*[(x, 0, x + 10, 14) for x in range(0, 100, 12)], (0, 0, 60, 60), (0, 0, 70, 70))
    assert small_side(found) == pytest.approx(10)


def test_big_tiles_leave_the_first_pass_alone() -> None:
    rgb = np.zeros((640, 640, 3), np.uint8)
    first = boxes(*[(x, 100, x + 60, 180) for x in range(0, 600, 62)])

    def never(_: np.ndarray) -> TileBoxes:
        raise AssertionError("no window should be read")

    assert zoom_in(rgb, first, 384, never, never, 0.5) is None


def white_tiles(crop: np.ndarray) -> TileBoxes:
    """A stand-in detector: every white blob of the crop is a tile."""
    count, _, stats, _ = cv2.connectedComponentsWithStats((crop[:, :, 0] > 128).astype(np.uint8))
    return boxes(*[(x, y, x + w, y + h) for x, y, w, h, _ in stats[1:count]])


def row_photo(tile: int, count: int = 14) -> tuple[np.ndarray, list[tuple[int, int, int, int]]]:
    """A 2016x1512 photo with a row of `count` white tiles `tile` px wide, and their boxes."""
    rgb = np.zeros((1512, 2016, 3), np.uint8)
    placed = []
    for k in range(count):
        x0, y0 = 1000 + (tile + 3) * k, 700
        rgb[y0 : y0 + round(tile * 1.4), x0 : x0 + tile] = 255
        placed.append((x0, y0, x0 + tile, y0 + round(tile * 1.4)))
    return rgb, placed


def test_small_tiles_are_read_again_zoomed_around_them() -> None:
    rgb, placed = row_photo(20)  # 20 px of 2016: under 4 pixels of the 384 px input
    read: list[tuple[int, ...]] = []

    def full(crop: np.ndarray) -> TileBoxes:
        read.append(crop.shape)
        return white_tiles(crop)

    zoomed = zoom_in(rgb, white_tiles(rgb), 384, full, full, 0.5)
    assert zoomed is not None and read
    assert all(shape[0] == shape[1] and shape[0] < 2016 / 1.5 for shape in read)  # square, zoomed in
    assert sorted(map(tuple, zoomed.xyxy.round().astype(int).tolist())) == placed


def test_a_first_pass_whose_boxes_each_hold_two_tiles_is_read_zoomed_twice() -> None:
    """Tiles of ~12 input pixels come out of the detector as boxes of two, which alone would say they are
    big enough (17 px on their short side); the photo is read at twice the zoom, the zoomed reading splits
    the boxes, and the small tiles found are taken."""
    rgb, placed = row_photo(64)  # 64 px of 2016: 12 pixels of the 384 px input
    blurred = boxes(*[(x - 2, 697, x + 133, 793) for x in range(1000, 1938, 134)])  # 90 px: 17 input px
    read: list[tuple[int, ...]] = []

    def full(crop: np.ndarray) -> TileBoxes:
        read.append(crop.shape)
        return white_tiles(crop)

    zoomed = zoom_in(rgb, blurred, 384, full, full, 0.5)
    assert read and all(shape[0] <= 2016 // 2 for shape in read)
    assert zoomed is not None
    assert sorted(map(tuple, zoomed.xyxy.round().astype(int).tolist())) == placed


def test_a_first_pass_whose_tiles_are_the_size_it_says_stands() -> None:
    """Tiles really 19 input pixels wide: read at twice the zoom they come out the same size and no more
    of them, so the first pass stands."""
    rgb, _ = row_photo(100, count=8)
    first = white_tiles(rgb)
    zoomed = zoom_in(rgb, first, 384, white_tiles, white_tiles, 0.5)
    assert zoomed is None


def test_a_box_is_split_only_by_tiles_apart_that_fill_it() -> None:
    first = boxes((0, 0, 100, 60))
    assert splits(first, boxes((2, 2, 48, 58), (52, 2, 98, 58))) == 1  # two tiles side by side
    assert splits(first, boxes((10, 10, 40, 50), (14, 16, 44, 56))) == 0  # one tile's middle, seen twice
    assert splits(first, boxes((2, 2, 30, 30), (70, 30, 98, 58))) == 0  # two specks: not what it held
    assert splits(first, boxes((2, 2, 98, 58))) == 0  # one tile


def test_clearly_more_is_a_fifth_more_and_two_tiles_apart_without_a_box_lost() -> None:
    row = [(x, 0, x + 10, 14) for x in range(0, 120, 12)]  # ten tiles side by side
    before = boxes(*row[:5])
    assert finds_more(before, boxes(*row[:7]))
    assert not finds_more(before, boxes(*row[:6]))  # one more: as likely a tile seen twice
    assert not finds_more(before, boxes(*row[:5], (1, 1, 11, 15), (13, 1, 23, 15)))  # two seen twice
    unsure = TileBoxes(np.array(row, np.float32), np.full(10, 0.4, np.float32), np.zeros(10, bool))
    assert not finds_more(unsure, boxes(*row[:7]))  # the first pass held all ten, unsure


def test_nothing_found_is_searched_in_windows_then_zoomed() -> None:
    rgb, placed = row_photo(20)
    calls = {"plain": 0, "full": 0}

    def plain(crop: np.ndarray) -> TileBoxes:
        calls["plain"] += 1
        return white_tiles(crop)

    def full(crop: np.ndarray) -> TileBoxes:
        calls["full"] += 1
        return white_tiles(crop)

    zoomed = zoom_in(rgb, boxes(), 384, plain, full, 0.5)
    assert zoomed is not None and len(zoomed) == len(placed)
    assert calls["plain"] > 1 and calls["full"] >= 1


def _shrunk_onto_12mp(name: str, fraction: float) -> bytes:
    """samples/<name>.jpg shrunk to `fraction` of a 4032x3024 frame of plain felt, as JPEG bytes."""
    photo = Image.open(SAMPLES / f"{name}.jpg").convert("RGB")
    width = round(4032 * fraction)
    small = photo.resize((width, round(photo.height * width / photo.width)), Image.Resampling.LANCZOS)
    rng = np.random.default_rng(0)
    felt = np.clip(np.array([40, 110, 60]) + rng.normal(0, 6, (3024, 4032, 3)), 0, 255).astype(np.uint8)
    frame = Image.fromarray(felt)
    frame.paste(small, (1500, 1300))
    out = io.BytesIO()
    frame.save(out, "JPEG", quality=92)
    return out.getvalue()


@pytest.mark.skipif(not HAS_MODELS, reason=f"{DETECTOR_FILE} absent in {model_folder()}")
@pytest.mark.parametrize("name", ["hand1", "hand2", "hand3", "hand5", "hand6"])
def test_a_hand_filling_a_fifth_of_a_12mp_photo_reads_as_its_labels(name: str) -> None:
    """Real photos (valid split, never trained on) shrunk so the hand is a fifth of the frame: every
    labelled tile is read with its code, and nothing else where the photo shows nothing else (hand5 also
    shows discards the labels leave out); without the zoomed reading hardly anything is found."""
    _, codes = truth(name)
    image = load_image(_shrunk_onto_12mp(name, 0.2))
    found = Recognizer().recognize(image)
    assert not Counter(codes) - Counter(found.codes)
    if name in NOTHING_ELSE:
        assert Counter(found.codes) == Counter(codes)
    assert len(Recognizer(settings=Settings(zoom_small_tiles=False)).recognize(image)) < len(codes) // 2


@pytest.mark.skipif(not HAS_MODELS, reason=f"{DETECTOR_FILE} absent in {model_folder()}")
@pytest.mark.parametrize("fraction", [0.3, 0.35, 0.4])
@pytest.mark.parametrize("name", ["hand1", "hand3", "hand6"])
def test_a_hand_filling_a_third_of_a_12mp_photo_reads_as_its_labels(name: str, fraction: float) -> None:
    """Between a fifth and a half of the frame the first pass sees tiles of 10-20 input pixels, in boxes
    that may hold two, or missed: the zoomed reading finds every tile (hand6, 36 tiles in three rows, lost 4
    of them at 0.4 and 28 at 0.35 when the first pass's size was believed; v10 still missed one at 0.35)."""
    _, codes = truth(name)
    found = Recognizer().recognize(load_image(_shrunk_onto_12mp(name, fraction)))
    missed = sum((Counter(codes) - Counter(found.codes)).values())
    assert missed == 0
    if name in NOTHING_ELSE:
        assert not Counter(found.codes) - Counter(codes)  # and nothing else read


ROW = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "5z", "5z"]


def _row_scene_12mp(codes: list[str], fraction: float) -> bytes:
    """A 4032x3024 JPEG of felt with `codes` laid in one row filling `fraction` of its width, drawn from
    the app's tile pictures (CC0 artwork the models never trained on as pictures)."""
    from mahjong_nts.tile_art import tile_png

    rng = np.random.default_rng(0)
    felt = np.clip(np.array([35, 100, 60]) + rng.normal(0, 5, (3024, 4032, 3)), 0, 255).astype(np.uint8)
    frame = Image.fromarray(felt)
    width = round(4032 * fraction / len(codes) / 1.04)
    x = 1400
    for code in codes:
        tile = Image.open(io.BytesIO(tile_png(code, "96x128"))).convert("RGBA")
        tile = tile.resize((width, round(width * tile.height / tile.width)), Image.Resampling.LANCZOS)
        frame.paste(tile, (x, 1500), tile)
        x += round(width * 1.04)
    out = io.BytesIO()
    frame.save(out, "JPEG", quality=90)
    return out.getvalue()


@pytest.mark.skipif(not HAS_MODELS, reason=f"{DETECTOR_FILE} absent in {model_folder()}")
def test_a_rendered_14_tile_row_filling_a_fifth_of_a_12mp_photo_reads_fully_right() -> None:
    image = load_image(_row_scene_12mp(ROW, 0.2))
    found = Recognizer().recognize(image)
    assert found.codes == ROW  # every tile, in the row's order
    assert len(Recognizer(settings=Settings(zoom_small_tiles=False)).recognize(image)) < len(ROW) // 2


def test_a_small_photo_with_nothing_found_is_not_searched() -> None:
    """At 640 px a window of half the short side would only be enlarged: on a shelf of book spines the
    search found spines, not tiles (riichi-rows photos), so a small photo keeps its first pass."""

    def never(_: np.ndarray) -> TileBoxes:
        raise AssertionError("no window should be read")

    assert zoom_in(np.zeros((640, 640, 3), np.uint8), boxes(), 384, never, never, 0.5) is None
    assert zoom_in(np.zeros((640, 1138, 3), np.uint8), boxes(), 384, never, never, 0.5) is None


def test_big_tiles_are_read_again_at_a_smaller_input() -> None:
    from recognizer.zoom import BIG_TILE, zoom_out

    first = boxes((0, 0, 200, 270), (210, 0, 410, 270))  # 200 px of a 640 px photo: 120 input px at 384
    assert BIG_TILE < 200 * 384 / 640
    asked: list[int] = []

    def read_at(side: int) -> TileBoxes:
        asked.append(side)
        return boxes((0, 0, 200, 270), (210, 0, 410, 270), (420, 0, 620, 270))

    smaller = zoom_out(first, 384, 640, read_at)
    assert smaller is not None and len(smaller) == 3
    assert asked and asked[0] < 384 and asked[0] % 32 == 0


def test_tiles_of_ordinary_size_are_not_read_smaller() -> None:
    from recognizer.zoom import zoom_out

    def never(_: int) -> TileBoxes:
        raise AssertionError("no smaller reading expected")

    first = boxes(*[(x, 100, x + 40, 156) for x in range(0, 600, 42)])  # 24 input px
    assert zoom_out(first, 384, 640, never) is None


def test_a_last_look_at_half_size_when_nothing_else_found_two_tiles() -> None:
    from recognizer.zoom import last_look

    asked: list[int] = []

    def read_at(side: int) -> TileBoxes:
        asked.append(side)
        return boxes((0, 0, 300, 400), (320, 0, 620, 400))

    assert last_look(boxes(), 384, read_at) is not None and asked == [192]
    assert last_look(boxes((0, 0, 50, 70), (60, 0, 110, 70)), 384, read_at) is None  # two found: no look
    asked.clear()
    assert last_look(boxes(), 384, lambda side: boxes()) is None


def test_a_last_look_takes_one_tile_only_where_nothing_was_found() -> None:
    """A lone tile filling a third of the photo: nothing (or one weak box) at S, one box at half the side."""
    from recognizer.zoom import last_look

    one = boxes((100, 100, 300, 360), score=0.48)
    assert last_look(boxes(), 384, lambda side: one) is one
    assert last_look(boxes((90, 80, 320, 380), score=0.42), 384, lambda side: one) is one
    # a sure tile found already, or several weak boxes, stand: one box at half the side is no better
    assert last_look(boxes((0, 0, 50, 70), score=0.8), 384, lambda side: one) is None
    weak = boxes((0, 0, 50, 70), (60, 0, 110, 70), score=0.45)
    assert last_look(weak, 384, lambda side: one) is None
    two_at_half = boxes((0, 0, 20, 30), (25, 0, 45, 30), score=0.45)
    assert last_look(boxes(), 384, lambda side: two_at_half) is None  # two weak boxes are no lone tile


def test_a_small_photo_with_almost_nothing_found_is_read_closer_at_its_own_pixels() -> None:
    """A 640 px photo of a few small tiles: shrunk to the input they are missed; read whole at 640 they are
    found, and that reading is kept only when it finds at least FEW sure tiles, more than before."""
    from recognizer.zoom import FEW, closer_look

    asked: list[int] = []
    nine = boxes(*[(x, 100, x + 40, 152) for x in range(40, 440, 45)])

    def read_at(side: int) -> TileBoxes:
        asked.append(side)
        return nine

    assert closer_look(boxes((40, 100, 80, 152), score=0.42), 384, 640, read_at) is nine
    assert asked == [640]
    small_in_12mp = boxes((0, 0, 100, 130), score=0.45)
    assert closer_look(small_in_12mp, 384, 4032, read_at) is nine and asked[-1] == 768  # at most 2x the input
    two = boxes((40, 100, 80, 152), (90, 100, 130, 152))
    weak = boxes((40, 100, 80, 152), score=0.42)
    assert closer_look(weak, 384, 640, lambda side: two) is None  # fewer than FEW sure: not kept
    assert len(two) < FEW

    def never(_: int) -> TileBoxes:
        raise AssertionError("no closer reading expected")

    assert closer_look(boxes(*[(x, 0, x + 40, 52) for x in (0, 50, 100)]), 384, 640, never) is None  # found
    assert closer_look(boxes((40, 100, 80, 152), score=0.42), 384, 480, never) is None  # no pixels to gain
    assert closer_look(boxes(), 384, 640, never) is None  # nothing tile-like seen at all
    assert closer_look(boxes((100, 100, 260, 320), score=0.42), 384, 640, never) is None  # a big lone tile


@pytest.mark.skipif(not HAS_MODELS, reason=f"{DETECTOR_FILE} absent in {model_folder()}")
def test_only_a_phone_photo_with_almost_nothing_found_takes_the_closer_look(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A square photo may be a stretched export (the unstretch retry is its way); a 16:9 photo of table
    with a few small tiles far off is read again at its own pixels when the first pass finds almost none."""
    import recognizer.pipeline as pipeline

    looked: list[tuple[int, int]] = []
    real = pipeline.closer_look

    def spy(first: TileBoxes, input_side: int, photo_side: int, read_at):  # type: ignore[no-untyped-def]
        looked.append((input_side, photo_side))
        return real(first, input_side, photo_side, read_at)

    monkeypatch.setattr(pipeline, "closer_look", spy)
    table = np.full((360, 640, 3), (40, 120, 130), np.uint8)
    hand = cv2.imread(str(SAMPLES / "hand1.jpg"))
    assert hand is not None
    tile = cv2.resize(hand, (32, 24))
    table[200:224, 300:332] = tile[:, :, ::-1]
    square = np.full((640, 640, 3), (40, 120, 130), np.uint8)
    reader = Recognizer()
    reader.recognize(load_image(cv2.imencode(".png", square)[1].tobytes()))
    assert not looked  # a square photo never takes it
    reader.recognize(load_image(cv2.imencode(".png", table)[1].tobytes()))
    assert looked == [(reader.detector.size, 640)]  # the 16:9 one is judged, at its own long side
    looked.clear()
    plain = Recognizer(settings=Settings(look_closer=False))
    plain.recognize(load_image(cv2.imencode(".png", table)[1].tobytes()))
    assert not looked


def test_a_close_up_read_in_parts_is_read_whole_at_half_the_side() -> None:
    """Two big tiles: the detector found the sticks of one (six slivers); at half the side it boxes both
    tiles whole, and those boxes, each many times a stick, hold the sticks' centres: the whole tiles win."""
    from recognizer.zoom import PARTS_FEW, whole_tiles

    sticks = boxes(*[(300 + 30 * k, 120, 320 + 30 * k, 220) for k in range(3)], (300, 250, 320, 350),
                   (330, 250, 350, 350), (360, 250, 380, 350), score=0.5)  # fmt: skip
    tiles = boxes((20, 90, 280, 430), (280, 100, 500, 400), score=0.6)
    asked: list[int] = []

    def read_at(side: int) -> TileBoxes:
        asked.append(side)
        return tiles

    assert whole_tiles(sticks, 384, 640, read_at) is tiles and asked == [192]
    many = boxes(*[(10 * k, 0, 10 * k + 8, 12) for k in range(PARTS_FEW + 1)])
    asked.clear()
    assert whole_tiles(many, 384, 640, read_at) is None and asked == []  # a hand's row is no close-up
    assert whole_tiles(boxes((300, 120, 320, 220)), 384, 640, read_at) is None  # one box is no parts
    # the same boxes in a 4032 px photo are small tiles far off, which the coarser reading lumps together
    assert whole_tiles(sticks, 384, 4032, read_at) is None and asked == []


def test_tiles_read_whole_stand_against_a_coarser_reading() -> None:
    """Boxes of a tile's shape are not looked at again; slivers the half-side reading boxes two by two
    (twice their area, not parts), slivers no coarser box holds, or a coarser reading that finds nothing:
    the reading stands."""
    from recognizer.zoom import whole_tiles

    asked: list[int] = []

    def nothing(side: int) -> TileBoxes:
        asked.append(side)
        return boxes()

    row = boxes(*[(40 * k, 0, 40 * k + 36, 50) for k in range(6)])
    assert whole_tiles(row, 384, 384, nothing) is None and asked == []  # tiles: no extra pass
    slivers = boxes(*[(14 * k, 0, 14 * k + 12, 50) for k in range(6)])
    pairs = boxes(*[(28 * k, 0, 28 * k + 26, 50) for k in range(3)])
    assert whole_tiles(slivers, 384, 384, lambda side: pairs) is None
    elsewhere = boxes((500, 300, 700, 500))
    assert whole_tiles(slivers, 384, 384, lambda side: elsewhere) is None
    assert whole_tiles(slivers, 384, 384, nothing) is None and asked == [192]
