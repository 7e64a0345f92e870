"""`mahjong-nts score ... --waits`: for a hand one tile short, the tiles that complete it, each scored.

The hand is given as for `score` but without its winning tile (TILES without --win, or JSON hands without
`winning_tile`): 13 tiles plus 1 per kong. Each wait (`scoring.waits`) is scored as that hand won on it,
on a discard unless --self-drawn (or `"self_drawn": true`). The `score` command (cli/score.py) reads the
hands and prints; this module says what the waits are. docs/WAITS.md shows the output.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any

from scoring import Hand, InputError, format_tiles, hand_from_dict, score_hand, tile_name, waits
from scoring.jsonread import json_type

WAIT_KEYS = ("valid", "total", "reason", "reason_nl", "reason_code", "limit_hand")
"""The keys of a wait's score, from the CONTRACT result object, beside its `tile`."""

WORDS: dict[str, dict[str, str]] = {
    "nl": {
        "waits": "Wacht op",
        "total": "Totaal",
        "valid": "Geldig",
        "yes": "ja",
        "no": "nee",
        "none": "Deze hand wacht op geen enkele steen: er is geen steen die haar afmaakt.",
    },
    "en": {
        "waits": "Waits on",
        "total": "Total",
        "valid": "Valid",
        "yes": "yes",
        "no": "no",
        "none": "This hand waits on no tile: no tile completes it.",
    },
}


def short_hand(obj: Any) -> Hand:
    """The hand object one tile short, checked like any hand (tiles, melds, at most 4 of a tile, bonus)."""
    if not isinstance(obj, Mapping):
        raise InputError(f"a hand must be a JSON object, not {json_type(obj)}")
    if obj.get("role", "winner") != "winner":
        raise InputError("waits are for the hand before it wins: leave out role 'loser' (--loser)")
    if "winning_tile" in obj:
        raise InputError("waits take the hand one tile short: leave out winning_tile (--win)")
    # checked as a dead hand: the tile count is then left to waits(), which names the count it needs
    checked = {key: value for key, value in obj.items() if key not in ("self_drawn", "flags")}
    return hand_from_dict({**checked, "role": "loser", "flags": ["dead_hand"]})


def waits_object(obj: Any) -> dict[str, Any]:
    """`{"waits": [{"tile": "4m", "valid": true, "total": 136, ...}]}`: each wait, scored, tile order."""
    hand = short_hand(obj)
    found = []
    for code in waits(hand.concealed, hand.melds, hand.ruleset):
        won = {**obj, "concealed": format_tiles([*hand.concealed, code]), "winning_tile": code}
        result = score_hand(hand_from_dict(won)).to_dict()
        found.append({"tile": code, **{key: result.get(key) for key in WAIT_KEYS}})
    return {"waits": found}


def add_waits_option(parser: argparse.ArgumentParser) -> None:
    """Register --waits with the `score` command."""
    parser.add_argument(
        "--waits",
        action="store_true",
        help="for a hand one tile short (TILES without --win, JSON without winning_tile): the tiles "
        "that complete it, each with its score",
    )


def waits_table(found: Mapping[str, Any], lang: str = "nl") -> str:
    """The waits as an aligned table: tile code and name, total, valid (or why not)."""
    words = WORDS[lang]
    entries = found.get("waits") or []
    if not entries:
        return words["none"]
    rows = []
    for entry in entries:
        if entry.get("valid"):
            verdict = words["yes"]
        else:
            reason = entry.get("reason_nl") if lang == "nl" else entry.get("reason")
            verdict = f"{words['no']}: {reason or entry.get('reason_code')}"
        rows.append((f"{entry['tile']}  {tile_name(entry['tile'], lang)}", str(entry.get("total")), verdict))
    header = (words["waits"], words["total"], words["valid"])
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(2)]
    lines = [f"{a:<{widths[0]}}  {b:>{widths[1]}}  {c}".rstrip() for a, b, c in [header, *rows]]
    lines.insert(1, "-" * max(len(line) for line in lines))
    return "\n".join(lines)
