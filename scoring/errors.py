"""Exceptions for malformed input; an illegal but well-formed hand is a result, never an exception.

An error made with `InputError.of(code, ...)` carries a stable `code` (a key of `scoring.messages.MESSAGES`)
and its `params`, so that `scoring.wording.describe` can word it in Dutch; `str(error)` stays the English
one-liner the command line prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from scoring.messages import MESSAGES


class InputError(ValueError):
    """Malformed input (bad tiles, wrong tile count, contradictory flags); str(e) is one line naming it.

    `code` and `params` say the problem for machines (None and {} for an error made from plain text);
    `where` names the field it is in ("concealed", "melds[0]"), shown before the message.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        params: Mapping[str, Any] | None = None,
        where: str | None = None,
    ) -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.message = message
        self.code = code
        self.params: dict[str, Any] = dict(params or {})
        self.where = where

    @classmethod
    def of(cls, code: str, /, *, where: str | None = None, **params: Any) -> Self:
        """The error `code` with its parameters, its English text from the catalogue (a tuple: "a or b")."""
        shown = {key: " or ".join(map(str, v)) if isinstance(v, tuple) else v for key, v in params.items()}
        return cls(MESSAGES[code]["en"].format(**shown), code=code, params=params, where=where)

    def located(self, where: str) -> Self:
        """The same error found in field `where` (an outer field goes first: "melds[0]: meld: ...")."""
        inner = f"{where}: {self.where}" if self.where else where
        return type(self)(self.message, code=self.code, params=self.params, where=inner)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle with code, params and where (batch workers send errors between processes)."""
        return (_rebuild, (type(self), self.message, self.code, self.params, self.where))


def _rebuild(
    kind: type[InputError], message: str, code: str | None, params: dict[str, Any], where: str | None
) -> InputError:
    return kind(message, code=code, params=params, where=where)


class TileError(InputError):
    """A tile token that is no tile; the message names the token."""
