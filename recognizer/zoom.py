"""Tiles read at the size the detector knows. A photo whose tiles come out small in the detector's input (a
hand filling a fifth of a 12 MP frame, a row seen from across the table) is read again in square windows
around the tiles, each zoomed so a tile is about as large as the detector was trained on. Where the first
pass's tiles are near that size already (the doubt band), the photo is read at twice the zoom at least, as
tiles half that size come out in boxes of two or are missed; the zoomed reading is kept only where it
splits the first pass's boxes or finds clearly more tiles (judged on boxes' places and counts, not on
their sizes, which depend on how a detector scales its boxes). A close-up whose
tiles come out big (a tile a third of the frame) is read again at a smaller input; a photo where the first
pass finds almost nothing is first searched in windows of half the photo's short side (photos large enough
that such a window is at least the detector's input), and a photo too small for that is read whole at its own
pixels (`closer_look`: a 640 px photo of a few small tiles shrunk to the input loses them).

The windows overlap by more than two tiles, and each keeps only the boxes whose centre lies in its own core
(the window less half the overlap), so a tile cut by one window's edge is taken whole from its neighbour.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from recognizer.detector import TileBoxes, nms
from recognizer.unstretch import SLIVER

Window = tuple[int, int, int, int]
"""x0, y0, x1, y1 in image pixels."""

SMALL_TILE = 16.0
"""A first pass whose tiles' short side (`small_side`) is under this many input pixels is read again zoomed.
The training photos' tiles are 14-40 input pixels on their short side (640 px photos read at S = 384)."""

ZOOM_TARGET = 24.0
"""The short side, in input pixels, that a zoomed window gives the median tile."""

FEW = 3
"""A first pass with fewer sure boxes than this is searched in windows (before the squeezed retry)."""

SURE = 0.5
"""Detector score of a box that counts when judging a pass (as `unstretch.CONFIDENT`)."""

BIG_TILE = 44.0
"""A first pass whose tiles' short side is over this many input pixels is read again at a smaller input
(the detector finds parts of tiles that big: world scenes' close-ups, tile F1 0.25 at S against 0.70 at
S / 2)."""

BIG_FEW = 2
"""Big tiles are judged on at least this many sure boxes; a photo where nothing else finds this many is
read at half the input side as a last look (a close-up of two or three big tiles)."""

MIN_SIDE = 128
"""The smallest input side a photo is read at when its tiles are big."""

MIN_GAIN = 1.5
"""Zoom only where a window is at most the photo's long side over this (else there are no pixels to gain)."""

CLOSER = 2.0
"""`closer_look` reads a photo at its own long side, at most this many times the input side."""

SEEN_TILE = 1.5 * ZOOM_TARGET
"""A first pass whose boxes' short side is at least this many input pixels saw its tiles at a size the
detector knows (zoom_out's target): no closer look (a lone tile filling a tenth of the frame)."""

MAX_WINDOWS = 6
"""At most this many zoomed windows; a wider spread of tiles is read at less zoom."""

SPLIT_COVER = 0.6
"""A first-pass box is split by the zoomed reading when two or more zoomed sure boxes centred in it cover at
least this share of it (two tiles boxed as one; not two guesses at one tile's middle)."""

APART = 0.3
"""Zoomed boxes overlapping more than this (IoU) are one tile seen twice, not two tiles."""

DOUBT_MORE = 1.2
"""A zoomed reading of a first pass in the doubt band (SMALL_TILE to ZOOM_TARGET) is also kept when it finds
this many times the first pass's sure tiles, and at least DOUBT_MORE_AT_LEAST more (a first pass that
missed most of the small tiles: 5 of 24 found)."""

DOUBT_MORE_AT_LEAST = 2
"""See DOUBT_MORE: one more tile is as likely a tile seen twice."""


def sure_boxes(boxes: TileBoxes) -> TileBoxes:
    """The boxes scored at least SURE."""
    return boxes.select(np.nonzero(boxes.score >= SURE)[0])


def small_side(boxes: TileBoxes) -> float:
    """The lower quartile of the boxes' shorter sides, in image pixels (0 for no boxes): a failing pass
    gives some boxes spanning several small tiles, so the median overstates the tiles."""
    if len(boxes) == 0:
        return 0.0
    wh = boxes.xyxy[:, 2:] - boxes.xyxy[:, :2]
    return float(np.percentile(wh.min(axis=1), 25))


def cover(region: Window, shape: tuple[int, ...], side: int, overlap: int) -> list[Window]:
    """Square windows of `side` pixels (inside the image) covering `region`, neighbours overlapping by
    `overlap` pixels."""
    h, w = shape[:2]
    side = max(1, min(side, w, h))

    def starts(lo: int, hi: int, limit: int) -> list[int]:
        lo, hi = max(0, lo), min(limit, hi)
        if hi - lo <= side:
            centre = (lo + hi) // 2
            return [min(max(centre - side // 2, 0), limit - side)]
        step = max(side - overlap, 1)
        count = int(np.ceil((hi - lo - side) / step)) + 1
        span = hi - lo - side
        return [min(max(lo + round(k * span / max(count - 1, 1)), 0), limit - side) for k in range(count)]

    x0, y0, x1, y1 = region
    return [(x, y, x + side, y + side) for y in starts(y0, y1, h) for x in starts(x0, x1, w)]


def core(window: Window, shape: tuple[int, ...], overlap: int) -> Window:
    """The part of a window whose boxes it keeps: less half the overlap on each side facing another window
    (a side on the photo's edge keeps all)."""
    h, w = shape[:2]
    x0, y0, x1, y1 = window
    half = overlap // 2
    return (
        x0 + half if x0 > 0 else 0,
        y0 + half if y0 > 0 else 0,
        x1 - half if x1 < w else w,
        y1 - half if y1 < h else h,
    )


def read_windows(
    rgb: np.ndarray, windows: list[Window], overlap: int, read: Callable[[np.ndarray], TileBoxes], iou: float
) -> TileBoxes:
    """Every window read by `read` (boxes in the crop's pixels), its core's boxes moved to image pixels,
    all merged (NMS at `iou` for tiles two windows both hold)."""
    xyxy, score, back = [], [], []
    for window in windows:
        x0, y0, x1, y1 = window
        found = read(np.ascontiguousarray(rgb[y0:y1, x0:x1]))
        if len(found) == 0:
            continue
        boxes = found.xyxy + np.array([x0, y0, x0, y0], np.float32)
        cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
        kx0, ky0, kx1, ky1 = core(window, rgb.shape, overlap)
        keep = (cx >= kx0) & (cx < kx1) & (cy >= ky0) & (cy < ky1)
        xyxy.append(boxes[keep])
        score.append(found.score[keep])
        back.append(found.back[keep])
    if not xyxy:
        return TileBoxes(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, bool))
    merged = TileBoxes(np.concatenate(xyxy), np.concatenate(score), np.concatenate(back))
    return merged.select(nms(merged.xyxy, merged.score, iou))


def searches(first: TileBoxes, shape: tuple[int, ...], input_side: int) -> bool:
    """Whether `zoom_in` searches the photo in windows: its first pass found fewer than FEW sure boxes and
    a window of half its short side is at least the input (a smaller window would only be enlarged)."""
    return len(sure_boxes(first)) < FEW and min(shape[:2]) // 2 >= input_side


def zoom_in(
    rgb: np.ndarray,
    first: TileBoxes,
    input_side: int,
    read_plain: Callable[[np.ndarray], TileBoxes],
    read_full: Callable[[np.ndarray], TileBoxes],
    iou: float,
) -> TileBoxes | None:
    """The photo read again in zoomed windows when its tiles are small in the first pass (read at
    `input_side` over the photo's long side), or when the first pass finds fewer than FEW sure tiles and
    a search in windows of half the short side finds more; None when the first pass stands.
    `read_plain` reads a crop once (the search, and the doubt band's check), `read_full` as the first pass
    does (the zoomed windows kept)."""
    h, w = rgb.shape[:2]
    coarse, searched = sure_boxes(first), None
    if len(coarse) < FEW:
        if not searches(first, rgb.shape, input_side):
            return None
        side = min(h, w) // 2
        overlap = side // 4
        searched = read_windows(rgb, cover((0, 0, w, h), rgb.shape, side, overlap), overlap, read_plain, iou)
        coarse = sure_boxes(searched)
        if len(coarse) < FEW:
            return None
    tile = small_side(coarse)
    side = max(round(tile * input_side / ZOOM_TARGET), 32)
    in_input = tile * input_side / max(h, w)
    room = max(h, w) // 2 >= input_side  # a window of half the photo still has the input's pixels
    doubt = room and SMALL_TILE <= in_input < ZOOM_TARGET  # small or not: the zoomed reading tells
    if room and in_input < ZOOM_TARGET:
        side = min(side, max(h, w) // 2)  # boxes of tiles this small may hold two: zoom at least twice
    if not doubt and (in_input >= SMALL_TILE or side * MIN_GAIN > max(h, w)):
        return searched  # big enough, or a photo with too few pixels to gain by zooming
    overlap = round(2.5 * tile)
    lo = coarse.xyxy[:, :2].min(axis=0) - 2 * tile
    hi = coarse.xyxy[:, 2:].max(axis=0) + 2 * tile
    region = (int(lo[0]), int(lo[1]), int(hi[0]) + 1, int(hi[1]) + 1)
    windows = cover(region, rgb.shape, side, overlap)
    while len(windows) > MAX_WINDOWS and side < min(h, w):
        side = round(side * 1.25)
        windows = cover(region, rgb.shape, side, overlap)
    zoomed = read_windows(rgb, windows, overlap, read_plain if doubt else read_full, iou)
    sure = sure_boxes(zoomed)
    if len(sure) < len(coarse):  # zoomed in, the tiles should be clearer, not fewer
        return searched
    if not doubt:
        return zoomed
    if not finds_more(first if searched is None else searched, zoomed) and not splits(coarse, sure):
        return searched  # the first pass found the tiles there are, each in its own box: it stands
    return read_windows(rgb, windows, overlap, read_full, iou)  # kept: read as the first pass reads


def finds_more(before: TileBoxes, zoomed: TileBoxes) -> bool:
    """Whether `zoomed` finds clearly more sure tiles than `before`: DOUBT_MORE times and
    DOUBT_MORE_AT_LEAST more, a tile seen twice counted once, and no fewer boxes in all."""
    had, found = len(sure_boxes(before)), sure_boxes(zoomed)
    tiles = len(nms(found.xyxy, found.score, APART))
    wanted = max(DOUBT_MORE * had, had + DOUBT_MORE_AT_LEAST)
    return tiles >= wanted and len(zoomed) >= len(before)


def splits(first: TileBoxes, zoomed: TileBoxes) -> int:
    """How many of `first`'s boxes the `zoomed` boxes split: two or more zoomed boxes centred in one, apart
    (tiles do not overlap) and together covering SPLIT_COVER of it, were tiles the first pass boxed as one."""
    count = 0
    cx = (zoomed.xyxy[:, 0] + zoomed.xyxy[:, 2]) / 2
    cy = (zoomed.xyxy[:, 1] + zoomed.xyxy[:, 3]) / 2
    grid = (np.arange(16) + 0.5) / 16
    for x0, y0, x1, y1 in first.xyxy:
        inside = zoomed.xyxy[(cx >= x0) & (cx < x1) & (cy >= y0) & (cy < y1)]
        apart = inside[nms(inside, np.ones(len(inside), np.float32), APART)]
        if len(apart) < 2:
            continue
        gx, gy = np.meshgrid(x0 + grid * (x1 - x0), y0 + grid * (y1 - y0))
        covered = np.zeros(gx.shape, bool)
        for bx0, by0, bx1, by1 in apart:
            covered |= (gx >= bx0) & (gx < bx1) & (gy >= by0) & (gy < by1)
        count += covered.mean() >= SPLIT_COVER
    return count


def zoom_out(
    first: TileBoxes, input_side: int, photo_side: int, read_at: Callable[[int], TileBoxes]
) -> TileBoxes | None:
    """The photo read again at a smaller input when its tiles are big in the first pass (read at
    `input_side` over the photo's long side `photo_side`), so a tile becomes about ZOOM_TARGET * 1.5
    pixels; None when the first pass stands. `read_at(side)` reads the whole photo at `side`."""
    coarse = sure_boxes(first)
    if len(coarse) < BIG_FEW:
        return None
    tile = small_side(coarse) * input_side / photo_side
    if tile <= BIG_TILE:
        return None
    side = max(MIN_SIDE, round(input_side * ZOOM_TARGET * 1.5 / tile / 32) * 32)
    smaller = read_at(side)
    return smaller if len(sure_boxes(smaller)) >= len(coarse) else None


def closer_look(
    first: TileBoxes, input_side: int, photo_side: int, read_at: Callable[[int], TileBoxes]
) -> TileBoxes | None:
    """When the first pass (read at `input_side` over the photo's long side `photo_side`) found fewer than
    FEW sure tiles and its boxes are small (under SEEN_TILE input pixels), the whole photo read at its own
    long side (at most CLOSER x the input side): small tiles shrunk below what the detector knows are seen
    at their own pixels. Kept when it finds at least FEW
    sure tiles and more than the first pass; None otherwise, and when the photo has no pixels to gain
    (its long side under MIN_GAIN x the input side)."""
    had = len(sure_boxes(first))
    if had >= FEW or len(first) == 0 or small_side(first) * input_side / photo_side >= SEEN_TILE:
        return None  # enough found, nothing tile-like seen, or tiles seen at a size the detector knows
    side = int(min(photo_side, CLOSER * input_side)) // 32 * 32
    if side < MIN_GAIN * input_side:
        return None
    closer = read_at(side)
    return closer if len(sure_boxes(closer)) >= max(FEW, had + 1) else None


def last_look(found: TileBoxes, input_side: int, read_at: Callable[[int], TileBoxes]) -> TileBoxes | None:
    """When every other reading found fewer than BIG_FEW sure tiles, the photo read at half the input
    side (a close-up of two or three big tiles the detector sees only in parts); None when that finds
    fewer too, unless it is a lone tile: nothing sure and at most one box before, exactly one box at half
    the side (a single tile filling a third of the photo is found only there)."""
    sure_found = len(sure_boxes(found))
    if sure_found >= BIG_FEW:
        return None
    smaller = read_at(max(MIN_SIDE, input_side // 2 // 32 * 32))
    if len(sure_boxes(smaller)) >= BIG_FEW:
        return smaller
    lone = sure_found == 0 and len(found) <= 1 and len(smaller) == 1
    return smaller if lone else None


PARTS_FEW = 16
"""A photo whose reading holds at most this many boxes may be a close-up read in parts (`whole_tiles`)."""
PART_SMALLER = 4.0
"""The boxes holding parts must be at least this many times their parts' area (two neighbouring tiles
boxed as one are only twice)."""


def whole_tiles(
    found: TileBoxes, input_side: int, photo_side: int, read_at: Callable[[int], TileBoxes]
) -> TileBoxes | None:
    """A close-up whose big tiles the detector found only in parts (the sticks of a bamboo tile, the rings
    of a big circle, each boxed as a sliver): the photo read at half the input side, kept when most boxes
    of `found` have their centres in its boxes that each hold two or more of them, PART_SMALLER times
    larger. None otherwise, and without a look when `found` holds more than PARTS_FEW boxes, boxes of a
    tile's shape (their median long side under SLIVER times the short one), or boxes whose long side is
    under SEEN_TILE input pixels (`photo_side`: the photo's long side; small tiles far off, which a coarser
    reading lumps together)."""
    if len(found) < 2 or len(found) > PARTS_FEW:
        return None
    sides = found.xyxy[:, 2:] - found.xyxy[:, :2]
    long_side, short_side = sides.max(axis=1), np.maximum(sides.min(axis=1), 1e-6)
    if float(np.median(long_side / short_side)) < SLIVER:
        return None  # tile-shaped boxes: tiles, not the sticks of one (and no extra pass for most photos)
    if float(np.median(long_side)) * input_side / photo_side < SEEN_TILE:
        return None
    smaller = read_at(max(MIN_SIDE, input_side // 2 // 32 * 32))
    if len(smaller) == 0:
        return None
    area = sides.prod(axis=1)
    coarse_area = (smaller.xyxy[:, 2:] - smaller.xyxy[:, :2]).prod(axis=1)
    centre = (found.xyxy[:, :2] + found.xyxy[:, 2:]) / 2
    inside = (  # (found, smaller): the centre of a box of `found` lies in a box of `smaller`
        (centre[:, None, :] >= smaller.xyxy[None, :, :2]) & (centre[:, None, :] <= smaller.xyxy[None, :, 2:])
    ).all(axis=2)
    holders = inside.sum(axis=0) >= 2
    parts = inside[:, holders].any(axis=1)
    if parts.mean() < 0.5:
        return None
    larger = float(np.median(coarse_area[holders])) >= PART_SMALLER * float(np.median(area[parts]))
    return smaller if larger else None
