"""User-facing error text shared by the app and the batch command."""


def one_line(problem: BaseException) -> str:
    """An exception as one readable line (no traceback): its message with whitespace folded, else its type."""
    return " ".join(str(problem).split()) or type(problem).__name__
