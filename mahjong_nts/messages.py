"""User-facing error text shared by the app and the batch command."""

MAX_MESSAGE = 300
"""Longest message shown (a row's error cell, a line on stderr); a longer one is cut with "..."."""


def one_line(problem: BaseException | str, limit: int = MAX_MESSAGE) -> str:
    """An exception (or text) as one readable line, no traceback: whitespace folded, at most `limit`
    characters, else the exception's type."""
    text = " ".join(str(problem).split()) or type(problem).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."
