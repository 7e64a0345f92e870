"""Packaged ONNX models and labels.json for the tile recognizer (loaded with importlib.resources)."""
