"""Tile recognizer: photo in, tile codes with boxes out (ONNX Runtime on the CPU)."""

from recognizer.annotate import TileAnnotator, annotate
from recognizer.detections import Detections
from recognizer.errors import ImageError, ModelError, ProfileError
from recognizer.imageio import LoadedImage, load_image
from recognizer.labels import LABELS
from recognizer.pipeline import Recognizer, Settings, get_recognizer
from recognizer.set_profile import SetProfile, read_profile, write_profile

__all__ = [
    "LABELS",
    "Detections",
    "ImageError",
    "LoadedImage",
    "ModelError",
    "ProfileError",
    "Recognizer",
    "SetProfile",
    "Settings",
    "TileAnnotator",
    "annotate",
    "get_recognizer",
    "load_image",
    "read_profile",
    "write_profile",
]
