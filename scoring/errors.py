"""Exceptions for malformed input; an illegal but well-formed hand is a result, never an exception."""

from __future__ import annotations


class InputError(ValueError):
    """Malformed input (bad tiles, wrong tile count, contradictory flags); str(e) is one line naming it."""


class TileError(InputError):
    """A tile token that is no tile; the message names the token."""
