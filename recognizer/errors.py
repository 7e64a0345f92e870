"""Errors the recognizer raises; each message is one line that names the problem."""

from __future__ import annotations


class ImageError(ValueError):
    """A photo that cannot be used: missing, empty, corrupt, not an image, or too large."""


class ModelError(RuntimeError):
    """The model files are missing or do not match the ONNX model contract."""


class ProfileError(ValueError):
    """A set profile that cannot be used: missing, malformed, or made with another classifier."""
