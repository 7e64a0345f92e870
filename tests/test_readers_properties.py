"""Property tests (issue 16) for the readers not in test_jsonread: photos from bytes and batch sidecars.
Any bytes in give a result or the reader's own one-line error, never another exception."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from mahjong_nts.batch.sidecar import ContextReader, FolderError, read_json_object, wrong_type
from recognizer import ImageError, load_image


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(np.full((8, 8, 3), 90, np.uint8)).save(buffer, format="PNG")
    return buffer.getvalue()


PNG = _png()


@given(st.binary(max_size=300) | st.binary(max_size=200).map(lambda tail: PNG[:40] + tail))
@settings(max_examples=300, deadline=None)
def test_any_bytes_give_a_photo_or_an_image_error(data: bytes) -> None:
    try:
        image = load_image(data)
    except ImageError as error:
        assert "\n" not in str(error)
    else:
        assert image.rgb.ndim == 3 and image.rgb.shape[2] == 3


VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=6), children, max_size=3)
    ),
    max_leaves=6,
)
KEYS = st.sampled_from(["role", "ruleset", "seat_wind", "self_drawn", "flags", "concealed", "melds", "x"])


@given(
    st.binary(max_size=300) | st.dictionaries(KEYS, VALUES, max_size=4).map(lambda d: json.dumps(d).encode())
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_sidecar_gives_a_context_or_that_photos_error(tmp_path: Path, data: bytes) -> None:
    folder = tmp_path / "photos"
    folder.mkdir(exist_ok=True)
    (folder / "hand1.jpg").write_bytes(PNG)
    (folder / "hand1.json").write_bytes(data)
    context = ContextReader(folder).context_for(folder / "hand1.jpg")
    if context.error is not None:
        assert context.error.startswith("sidecar hand1.json: ") and "\n" not in context.error
        assert len(context.error) < 400
    else:
        assert wrong_type(context.given) is None


@given(st.binary(max_size=300))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_defaults_json_gives_defaults_or_one_folder_error(tmp_path: Path, data: bytes) -> None:
    folder = tmp_path / "photos"
    folder.mkdir(exist_ok=True)
    (folder / "defaults.json").write_bytes(data)
    try:
        ContextReader(folder).defaults_for(folder)
    except FolderError as error:
        assert str(error).startswith("defaults.json: ") and "\n" not in str(error)


def test_read_json_object_names_the_label(tmp_path: Path) -> None:
    path = tmp_path / "x.json"
    path.write_bytes(b"[1]")
    try:
        read_json_object(path, "sidecar x.json")
    except ValueError as error:
        message: Any = str(error)
    assert message == "sidecar x.json: must hold one JSON object, not an array"
    try:
        read_json_object(tmp_path / "missing.json", "sidecar missing.json")
    except ValueError as error:
        message = str(error)
    assert message.startswith("sidecar missing.json: cannot read (")
