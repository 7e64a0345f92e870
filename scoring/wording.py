"""An InputError worded for the players: `describe(error, "nl")` in Dutch, `"en"` as `str(error)`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from scoring.errors import InputError
from scoring.messages import FIELD_NAMES, FLAG_NAMES, MESSAGES, ROLE_NAMES
from scoring.tiles import INDEX, WIND_CODES, tile_name

LANGUAGES = ("nl", "en")
_MELD_FIELD = re.compile(r"melds\[(\d+)\]")
_CHARACTERS = re.compile(r"\((\d+) characters\)$")


def describe(error: BaseException, lang: str = "nl") -> str:
    """One line saying what is wrong, in `lang`; an error without a known code keeps its own (English) text.

    >>> from scoring import parse_tiles
    >>> try:
    ...     parse_tiles("8z")
    ... except InputError as error:
    ...     print(describe(error, "nl"))
    steen '8z' bestaat niet (z gaat van 1 tot 7)
    """
    if lang not in LANGUAGES:
        raise ValueError(f"language must be 'nl' or 'en', not {lang!r}")
    code = getattr(error, "code", None)
    if lang == "en" or not isinstance(error, InputError) or code not in MESSAGES:
        return " ".join(str(error).split())
    text = MESSAGES[code]["nl"].format(**dutch_params(error.params))
    return f"{field_name(error.where, 'nl')}: {text}" if error.where else text


def dutch_params(params: Mapping[str, Any]) -> dict[str, Any]:
    """The parameters as the Dutch messages show them: tiles, flags, roles, seats and fields by name,
    a tuple of choices as "a of b"."""
    out = dict(params)
    for key, value in params.items():
        if key == "tile" and value in INDEX:
            out[key] = tile_name(value, "nl")
        elif key in ("flag", "other") and value in FLAG_NAMES:
            out[key] = f"'{FLAG_NAMES[value]['nl']}'"
        elif key == "role" and value in ROLE_NAMES:
            out[key] = ROLE_NAMES[value]["nl"]
        elif key == "seat" and value in WIND_CODES:
            out[key] = tile_name(WIND_CODES[value], "nl")
        elif key == "field":
            out[key] = field_name(str(value), "nl")
        elif key == "value" and isinstance(value, str):  # jsonread.quote cut it: "'abc'... (400 characters)"
            out[key] = _CHARACTERS.sub(r"(\1 tekens)", value)
        elif key == "known" and isinstance(value, str):  # the JSON keys there are, quoted as typed
            out[key] = ", ".join(f"'{name}'" for name in value.split(", "))
        elif isinstance(value, tuple):
            out[key] = " of ".join(map(str, value))
    return out


def field_name(where: str | None, lang: str = "nl") -> str:
    """A field as the players call it: "concealed" -> "stenen in de hand", "melds[0]" -> "set 1"."""
    if not where:
        return ""
    if lang == "en":
        return where
    parts = []
    for part in where.split(": "):
        meld = _MELD_FIELD.fullmatch(part)
        if meld:
            parts.append(f"set {int(meld.group(1)) + 1}")
        else:
            parts.append(FIELD_NAMES.get(part, {}).get("nl", part))
    return ": ".join(parts)
