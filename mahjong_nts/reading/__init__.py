"""One reading of the table: from the recognizer's tiles to a proposed hand, for the app, batch and CLI."""
