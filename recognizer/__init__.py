"""Tile recognizer: photo in, tile codes with boxes out (ONNX Runtime on the CPU)."""

from recognizer.annotate import TileAnnotator, annotate
from recognizer.detections import Detections
from recognizer.errors import ImageError, ModelError
from recognizer.imageio import LoadedImage, load_image
from recognizer.labels import LABELS
from recognizer.pipeline import Recognizer, Settings, get_recognizer

__all__ = [
    "LABELS",
    "Detections",
    "ImageError",
    "LoadedImage",
    "ModelError",
    "Recognizer",
    "Settings",
    "TileAnnotator",
    "annotate",
    "get_recognizer",
    "load_image",
]
