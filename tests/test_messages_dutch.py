"""One-line errors in Dutch for the app and the batch handout (mahjong_nts.messages.in_dutch)."""

from __future__ import annotations

import pytest

from mahjong_nts.messages import STARTS_NL, in_dutch
from recognizer import ImageError, load_image


@pytest.mark.parametrize(
    ("english", "dutch"),
    [
        ("unreadable image: empty file (0 bytes)", "onleesbare foto: leeg bestand (0 bytes)"),
        ("image too large to decode (9000x9000 RGB = 309 MiB of pixels, limit 160 MiB); save it as a JPEG",
         "foto te groot om te openen (9000x9000 RGB = 309 MiB of pixels, limit 160 MiB); save it as a JPEG"),
        ("recognizer failed: RuntimeError: boom", "herkennen mislukt: RuntimeError: boom"),
        ("hand: 3 face-down tile(s) are not part of a concealed kong",
         "hand: 3 omgekeerde steen/stenen horen bij geen gesloten kong (hun voorkant is niet te raden)"),
        ("hand: no tiles read in the photo; give the hand in a sidecar",
         "hand: geen stenen gelezen op de foto; geef de hand in een zijbestand (NAAM.json)"),
        ("sidecar r2/hand1.json: unknown key 'seat' (allowed: role, seat_wind)",
         "zijbestand r2/hand1.json: onbekende sleutel 'seat' (toegestaan: role, seat_wind)"),
        ("sidecar hand1.json: bad JSON: Expecting value (column 2)",
         "zijbestand hand1.json: geen geldige JSON: Expecting value (column 2)"),
        ("sidecar hand1.json: self_drawn must be true or false, not 'yes'",
         "zijbestand hand1.json: self_drawn moet true of false zijn, niet 'yes'"),
        ("two sidecars for HAND1.JPG: HAND1.JSON, HAND1.json",
         "twee zijbestanden voor HAND1.JPG: HAND1.JSON, HAND1.json"),
        ("something nobody wrote down", "something nobody wrote down"),
    ],
)  # fmt: skip
def test_known_lines_are_dutch_and_details_kept(english: str, dutch: str) -> None:
    assert in_dutch(english) == dutch


def test_longer_starts_come_first() -> None:
    """A start that begins another one must come after it, or the longer would never be taken."""
    starts = [english for english, _ in STARTS_NL]
    for i, early in enumerate(starts):
        for later in starts[i + 1 :]:
            assert not later.startswith(early), (early, later)


@pytest.mark.parametrize(
    "content",
    [b"", b"hand: 123m\n", b"\x00\x01garbage" * 8, b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic"],
)
def test_every_photo_refusal_reads_dutch(content: bytes) -> None:
    """What the photo loader says about a file it refuses is known to the Dutch page."""
    with pytest.raises(ImageError) as caught:
        load_image(content)
    reason = str(caught.value).removeprefix("<bytes>: ")
    assert in_dutch(reason) != reason
