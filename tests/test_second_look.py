"""The second look of the first pass (mirrored view, other input sides) read only when the plain reading
has a peak near a channel's threshold (Settings.second_look_band, detector.unsure_peaks)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from fake_models import draw_tile, write_fake_models

from recognizer import Recognizer, Settings
from recognizer.detector import SQUARE, Reading, TileDetector, unsure_peaks

THRESHOLDS = (0.4, 0.3)  # face-up, face-down
BAND = (0.7, 1.2)  # unsure: a peak in 0.28-0.48 face-up, 0.21-0.36 face-down


def _heatmap(peaks: dict[tuple[int, int, int], float]) -> np.ndarray:
    heat = np.zeros((2, 16, 16), np.float32)
    for (channel, row, col), value in peaks.items():
        heat[channel, row, col] = value
    return heat


def test_clear_peaks_need_no_second_look() -> None:
    reading = Reading(threshold=THRESHOLDS)
    sure = _heatmap({(0, 2, 2): 0.9, (0, 8, 8): 0.6, (0, 12, 3): 0.1, (1, 5, 5): 0.8})
    assert not unsure_peaks(sure, reading, BAND)


@pytest.mark.parametrize("channel, value", [(0, 0.3), (0, 0.45), (1, 0.25)])
def test_a_peak_near_its_channels_threshold_asks_for_one(channel: int, value: float) -> None:
    reading = Reading(threshold=THRESHOLDS)
    assert unsure_peaks(_heatmap({(0, 2, 2): 0.9, (channel, 9, 9): value}), reading, BAND)


def test_the_face_down_channel_is_judged_at_its_own_threshold() -> None:
    """0.45 is unsure beside the face-up threshold 0.4, sure beside the face-down 0.3 (band up to 0.36)."""
    reading = Reading(threshold=THRESHOLDS)
    tiles = {(0, 2, 2): 0.9, (0, 2, 8): 0.9}
    assert not unsure_peaks(_heatmap({**tiles, (1, 4, 4): 0.45}), reading, BAND)
    assert unsure_peaks(_heatmap({**tiles, (0, 4, 4): 0.45}), reading, BAND)


def test_a_photo_with_almost_nothing_found_always_gets_the_second_look() -> None:
    """A lone tile may peak below the band at one size and above the threshold at another."""
    reading = Reading(threshold=THRESHOLDS)
    assert unsure_peaks(_heatmap({(0, 2, 2): 0.9, (1, 8, 8): 0.9}), reading, BAND)
    assert unsure_peaks(_heatmap({}), reading, BAND)
    assert not unsure_peaks(_heatmap({(0, 2, 2): 0.9, (1, 8, 8): 0.9, (0, 12, 12): 0.7}), reading, BAND)


class CountingSession:
    """An ONNX session that counts the images it is given."""

    def __init__(self, session: object) -> None:
        self.session = session
        self.images = 0

    def run(self, names: list[str], feeds: dict[str, np.ndarray]) -> list[np.ndarray]:
        self.images += sum(len(batch) for batch in feeds.values())
        return self.session.run(names, feeds)  # type: ignore[attr-defined]


def _counting(detector: TileDetector) -> CountingSession:
    counter = CountingSession(detector.session)
    detector.session = counter  # type: ignore[assignment]
    return counter


def _photo() -> np.ndarray:
    rgb = np.zeros((192, 256, 3), np.uint8)
    for x, y in ((16, 16), (112, 64), (176, 120)):
        draw_tile(rgb, (x, y, x + 40, y + 56), 1.0, 0.5, False)
    return rgb


def test_a_sure_photo_is_read_once_and_an_unsure_one_in_full(tmp_path: Path) -> None:
    """The fake detector's peaks are clear: with the band the mirrored view and the smaller side are
    skipped (one image through the model instead of four); a band that takes every peak for unsure
    reads all four views and gives what the reading without a band gives."""
    models = write_fake_models(tmp_path / "flexible", flexible=True)
    detector = Recognizer(models, threads=1).detector
    counter = _counting(detector)
    rgb = _photo()
    full = Reading(threshold=THRESHOLDS, stretch=SQUARE, mirror=True, scales=(1.0, 0.75))

    everything = detector.raw_outputs(rgb, full)
    assert counter.images == 4
    counter.images = 0
    once = detector.raw_outputs(rgb, Reading(threshold=THRESHOLDS, stretch=SQUARE))
    counter.images = 0
    gated = detector.raw_outputs(rgb, Reading(**{**full.__dict__, "unsure": BAND}))
    assert counter.images == 1
    np.testing.assert_array_equal(gated[0], once[0])

    counter.images = 0
    always = detector.raw_outputs(rgb, Reading(**{**full.__dict__, "unsure": (0.0, 1e9)}))
    assert counter.images == 4
    for got, want in zip(always[:3], everything[:3], strict=True):
        np.testing.assert_allclose(got, want, atol=1e-5)


def test_the_setting_reaches_the_reading(tmp_path: Path) -> None:
    models = write_fake_models(tmp_path / "fixed")
    assert Recognizer(models, settings=Settings(second_look_band=(0.7, 1.2))).reading().unsure == (0.7, 1.2)
    assert Recognizer(models, settings=Settings(second_look_band=None)).reading().unsure is None
