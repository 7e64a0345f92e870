"""`mahjong-nts settle --json FILE|-`: four scores and a winner -> each seat's change (docs/CONTRACT.md)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from mahjong_nts.cli.common import fail, input_name, read_input
from scoring import InputError
from scoring.jsonread import json_type, parse, quote
from scoring.settlement import settle


def run_settle(args: argparse.Namespace) -> int:
    """Entry of `mahjong-nts settle --json FILE`: {"scores": {...}, "winner": "S"} → each seat's change."""
    try:
        document = parse(read_input(args.json), input_name(args.json))
        print(json.dumps(settle_object(document)))
    except InputError as error:
        return fail(str(error))
    return 0


def settle_object(document: Any) -> dict[str, int]:
    """Settle a CONTRACT `settle` input object; InputError names what is wrong."""
    if not isinstance(document, dict):
        raise InputError(f"settle input must be a JSON object, not {json_type(document)}")
    unknown = sorted(set(document) - {"scores", "winner"})
    if unknown:
        raise InputError(f"unknown key {quote(unknown[0])} (expected 'scores' and 'winner')")
    if "scores" not in document:
        raise InputError("missing key 'scores'")
    if "winner" not in document:
        raise InputError("missing key 'winner' (null for a draw)")
    return settle(document["scores"], document["winner"])


def add_parser(subparsers: Any) -> None:
    """Register `settle` with the `mahjong-nts` dispatcher."""
    parser = subparsers.add_parser(
        "settle",
        help="settle one game: each seat's change from four scores and the winner",
        description='Input {"scores": {"E": 0, "S": 128, "W": 0, "N": 0}, "winner": "S"} (winner null for '
        "a draw); output each seat's change, summing to 0.",
    )
    parser.add_argument("--json", metavar="FILE", required=True, help="JSON input file, or - for stdin")
    parser.set_defaults(run=run_settle)
