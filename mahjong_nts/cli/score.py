"""`mahjong-nts score`: score hands given as JSON or on the command line (docs/CONTRACT.md).

`score --json FILE|-` scores one hand object, a JSON array of them, or JSON Lines; `score TILES --win ...`
scores one hand given on the command line and prints its breakdown as a table. Bad input: one line on
stderr, exit 2.
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any, TextIO

from mahjong_nts.cli.common import PROG, fail, input_name, read_input
from mahjong_nts.cli.waits import add_waits_option, waits_object, waits_table
from mahjong_nts.messages import in_dutch, one_line
from scoring import (
    Hand,
    InputError,
    ScoreResult,
    describe,
    hand_from_dict,
    parse_tiles,
    ruleset_names,
    ruleset_title,
    score_hand,
)
from scoring.jsonread import Record, json_type, parse_hands
from scoring.rulesets import DEFAULT_RULESET

# Words of the table the players read; item and limit-hand names come from the engine in both languages.
LABELS: dict[str, dict[str, str]] = {
    "nl": {
        "item": "Onderdeel",
        "points": "Punten",
        "doublings": "Verdubbelingen",
        "tiles": "Stenen",
        "sets": "Combinaties",
        "base": "Basispunten",
        "limit": "Limietspel",
        "total": "Totaal",
        "valid": "Geldig",
        "yes": "ja",
        "no": "nee",
        "none": "geen",
        "open": "open",
        "concealed": "dicht",
        "chow": "chow",
        "pung": "pung",
        "kong": "kong",
        "pair": "paar",
        "seven_pairs": "zeven paren",
        "loose": "los",
    },
    "en": {
        "item": "Item",
        "points": "Points",
        "doublings": "Doublings",
        "tiles": "Tiles",
        "sets": "Sets",
        "base": "Base points",
        "limit": "Limit hand",
        "total": "Total",
        "valid": "Valid",
        "yes": "yes",
        "no": "no",
        "none": "none",
        "open": "open",
        "concealed": "concealed",
        "chow": "chow",
        "pung": "pung",
        "kong": "kong",
        "pair": "pair",
        "seven_pairs": "seven pairs",
        "loose": "loose",
    },
}


def read_hand(obj: Any) -> Hand:
    """The validated Hand of one parsed hand object; InputError when it is malformed."""
    if not isinstance(obj, dict):
        raise InputError(f"a hand must be a JSON object, not {json_type(obj)}")
    return hand_from_dict(obj)


def score_object(obj: Any) -> dict[str, Any]:
    """The CONTRACT result object for one parsed hand object; InputError when it is malformed."""
    return score_hand(read_hand(obj)).to_dict()


Step = Callable[[Any], Any]
SCORE_STEPS: tuple[Step, ...] = (read_hand, score_hand, ScoreResult.to_dict)
"""`score --json`: each hand read, scored, turned into its result object."""

SCORE_LINE_STEPS: tuple[Step, ...] = (read_hand, score_hand, ScoreResult.to_json)
"""The same for a batch, the result object written as its compact JSON line straight away (the same text,
in half the time)."""

CHUNK = 1024
"""Hands taken through the steps together: each step runs over the whole chunk before the next, which does
the same work a sixth faster than one hand at a time (each step's code stays hot in the CPU's caches)."""

compact_json: Callable[[Any], str] = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
"""One compact JSON line of a JSON value: a line of a batch."""


def score_json(
    path: str,
    out: TextIO,
    compact: bool = False,
    steps: Sequence[Step] = SCORE_STEPS,
    line_steps: Sequence[Step] = SCORE_LINE_STEPS,
) -> int:
    """`score --json FILE`: one result object, or one compact result line per hand of a batch; `steps`
    make each hand's object from its parsed JSON (its score, or with --waits its waits), `line_steps` the
    line of a batch's hand."""
    with collector_paused():
        return _score_document(path, out, compact, steps, line_steps)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while a document is read and scored: its thousands of hands and result
    dicts hold no cycles, and collecting passes over them took an eighth of the time of a 4,000-hand run."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def _score_document(
    path: str, out: TextIO, compact: bool, steps: Sequence[Step], line_steps: Sequence[Step]
) -> int:
    try:
        hands = parse_hands(read_input(path), input_name(path))
    except InputError as error:
        return fail(str(error))
    if hands.single:
        result: Any = hands.records[0].value
        try:
            for step in steps:
                result = step(result)
        except InputError as error:
            return fail(str(error))
        out.write(json.dumps(result, ensure_ascii=False, indent=None if compact else 2) + "\n")
        return 0
    return _score_batch(hands.records, out, line_steps)


def _score_batch(records: Sequence[Record], out: TextIO, steps: Sequence[Step] = SCORE_LINE_STEPS) -> int:
    """Score every hand in order, `steps` giving its line; a malformed one gives an error line in its
    place and exit 1 at the end."""
    failed = 0
    for start in range(0, len(records), CHUNK):
        chunk = records[start : start + CHUNK]
        lines = []
        for record, answer in zip(chunk, _answers(chunk, steps), strict=True):
            if not isinstance(answer, Exception):
                lines.append(answer)
                continue
            failed += 1
            if isinstance(answer, InputError):
                problem = str(answer)
            else:  # an engine bug must not stop the batch nor show a traceback
                problem = f"internal error: {type(answer).__name__}: {one_line(answer)}"
            lines.append(compact_json({"error": f"hand {record.number}: {problem}"}))
        out.write("\n".join(lines) + "\n")
    if failed:
        print(f"{PROG}: {failed} of {len(records)} hands failed", file=sys.stderr)
    return 1 if failed else 0


def _answers(records: Sequence[Record], steps: Sequence[Step]) -> list[Any]:
    """Each record taken through the steps, one step over all records at a time: its answer, or the
    exception that stopped it (every one: that hand's line reports it; a record that failed to parse
    starts as its InputError)."""
    values: list[Any] = [InputError(r.error) if r.error is not None else r.value for r in records]
    for step in steps:
        for index, value in enumerate(values):
            if not isinstance(value, Exception):
                try:
                    values[index] = step(value)
                except Exception as error:
                    values[index] = error
    return values


def parse_meld_option(text: str) -> dict[str, Any]:
    """`111z` (open), `111z:open` or `2222s:closed` (a concealed kong) → a CONTRACT meld object."""
    tiles, _, state = text.partition(":")
    state = state.strip().lower()
    if state in ("", "open"):
        return {"tiles": tiles.strip(), "open": True}
    if state in ("closed", "concealed", "dicht"):
        return {"tiles": tiles.strip(), "open": False}
    raise InputError(f"--meld {text!r}: after ':' write 'open' or 'closed', not {state!r}")


def hand_object_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """The CONTRACT input object for the hand given as command-line options (no winning tile for --waits).
    The tiles typed are checked first, so a mistyped tile is named before any missing option."""
    typed = [("", args.tiles or ""), ("--win", args.win or "")]
    typed += [("--meld", meld.partition(":")[0]) for meld in args.meld]
    typed += [("--concealed-kong", kong) for kong in args.concealed_kong]
    for option, text in typed:
        try:
            parse_tiles(text)
        except InputError as error:  # kept whole (its code), so the table's reader gets it in Dutch
            raise (error.located(option) if option else error) from None
    missing = [
        option for option, value in (("--seat", args.seat), ("--prevailing", args.prevailing)) if not value
    ]
    if missing:
        raise InputError(f"{missing[0]} is required when scoring tiles from the command line")
    role = "loser" if args.loser else "winner"
    obj: dict[str, Any] = {
        "ruleset": args.ruleset or DEFAULT_RULESET,
        "role": role,
        "seat_wind": args.seat.upper(),
        "prevailing_wind": args.prevailing.upper(),
        "concealed": args.tiles,
        "melds": [parse_meld_option(meld) for meld in args.meld]
        + [{"tiles": kong, "open": False} for kong in args.concealed_kong],
        "bonus": " ".join(args.bonus),
        "flags": list(args.flag),
    }
    if role == "winner":
        if not args.win and not getattr(args, "waits", False):
            raise InputError("--win TILE is required for a winner (or give --loser)")
        if args.win:
            obj["winning_tile"] = args.win
        obj["self_drawn"] = bool(args.self_drawn)
    elif args.win or args.self_drawn:
        raise InputError("--win and --self-drawn are for the winner, not with --loser")
    return obj


def _number(value: Any) -> str:
    return "" if value is None else str(value)


def breakdown_table(result: Mapping[str, Any], lang: str = "nl") -> str:
    """The result as an aligned table: items with points or doublings, then the totals and verdict."""
    words = LABELS[lang]

    def name_of(entry: Mapping[str, Any]) -> str:
        if lang == "en":
            return str(entry.get("name_en") or entry.get("name", ""))
        return str(entry.get("name", ""))

    header = (words["item"], words["points"], words["doublings"], words["tiles"])
    rows = [
        (
            name_of(item),
            _number(item.get("points")),
            _number(item.get("doublings")),
            str(item.get("tiles") or ""),
        )
        for item in result.get("items", [])
    ]
    widths = [max(len(row[column]) for row in [header, *rows]) for column in range(4)]
    widths[0] = max(widths[0], *(len(words[key]) for key in ("base", "limit", "total", "valid", "sets")))

    def line(name: str, points: str = "", doublings: str = "", tiles: str = "") -> str:
        return (
            f"{name:<{widths[0]}}  {points:>{widths[1]}}  {doublings:>{widths[2]}}  {tiles:<{widths[3]}}"
        ).rstrip()

    def label(name: str, text: str) -> str:
        return f"{name:<{widths[0]}}  {text}"

    lines = [line(*header)]
    rule = "-" * len(lines[0])
    lines.append(rule)
    lines.extend(line(*row) for row in rows)
    lines.append(rule)
    base, doublings, total = result.get("base_points"), result.get("doublings"), result.get("total")
    lines.append(line(words["base"], _number(base)))
    lines.append(line(words["doublings"], "", _number(doublings)))
    limit = result.get("limit_hand")
    lines.append(
        label(words["limit"], f"{name_of(limit)} ({limit.get('value')})" if limit else words["none"])
    )
    lines.append(line(words["total"], _number(total)))
    if result.get("valid"):
        verdict = words["yes"]
    else:
        reason = result.get("reason_nl") if lang == "nl" else result.get("reason")
        verdict = f"{words['no']}: {reason or result.get('reason') or result.get('reason_code')}"
    lines.append(label(words["valid"], verdict))
    sets = result.get("sets") or []
    if sets:
        described = [
            f"{words.get(str(s.get('kind')), s.get('kind'))} {s.get('tiles')}"
            + (f" ({words['open']})" if s.get("open") else "")
            for s in sets
        ]
        lines.append(label(words["sets"], ", ".join(described)))
    return "\n".join(lines)


HAND_OPTIONS = (
    ("--meld", "meld"),
    ("--concealed-kong", "concealed_kong"),
    ("--win", "win"),
    ("--self-drawn", "self_drawn"),
    ("--seat", "seat"),
    ("--prevailing", "prevailing"),
    ("--bonus", "bonus"),
    ("--flag", "flag"),
    ("--ruleset", "ruleset"),
    ("--loser", "loser"),
    ("--lang", "lang"),
)
"""Options that describe the hand given as TILES (or its table); a JSON hand carries its own."""


def run_score(args: argparse.Namespace) -> int:
    """Entry of `mahjong-nts score`."""
    if args.json is not None:
        if args.tiles:
            return fail("give either TILES or --json FILE, not both")
        given = [option for option, name in HAND_OPTIONS if getattr(args, name) not in (None, False, [])]
        if given:
            return fail(
                f"{given[0]} is for TILES on the command line; with --json each hand gives it in its JSON"
            )
        if args.waits:
            return score_json(
                args.json, sys.stdout, args.compact, (waits_object,), (waits_object, compact_json)
            )
        return score_json(args.json, sys.stdout, compact=args.compact)
    if not args.tiles:
        return fail("give the concealed TILES (e.g. 234m567p777z88s) or --json FILE")
    lang = args.lang or "nl"
    try:
        obj = hand_object_from_args(args)
        result = waits_object(obj) if args.waits else score_object(obj)
    except InputError as error:  # the table's reader gets it in the table's language; JSON keeps English
        if args.json_out or lang == "en":
            return fail(str(error))
        return fail(describe(error, lang) if error.code else in_dutch(str(error)))
    if args.json_out:
        print(json.dumps(result, ensure_ascii=False, indent=None if args.compact else 2))
    else:
        print(waits_table(result, lang) if args.waits else breakdown_table(result, lang))
    return 0


def add_parser(subparsers: Any) -> None:
    """Register `score` with the `mahjong-nts` dispatcher."""
    parser = subparsers.add_parser(
        "score",
        help="score a hand (NTS rules)",
        description="Score one hand from the command line, or hands as JSON (one object, an array, or JSON "
        "Lines) with --json FILE|-.",
        epilog='Example: mahjong-nts score "234m567p777z88s" --meld 111z --win 4m --self-drawn --seat E '
        "--prevailing S",
    )
    parser.add_argument("tiles", nargs="?", metavar="TILES", help="concealed tiles, incl. the winning tile")
    parser.add_argument("--json", metavar="FILE", help="score hands from a JSON file, or - for stdin")
    parser.add_argument(
        "--meld",
        action="append",
        default=[],
        metavar="TILES[:closed]",
        help="a declared set, open unless ':closed' (a concealed kong); repeat for more",
    )
    parser.add_argument(
        "--concealed-kong",
        action="append",
        default=[],
        metavar="TILES",
        help="a declared concealed kong, e.g. 2222s",
    )
    parser.add_argument("--win", metavar="TILE", help="the winning tile (one of TILES)")
    parser.add_argument("--self-drawn", action="store_true", help="the winning tile came from the wall")
    parser.add_argument("--seat", metavar="WIND", help="seat wind: E, S, W or N")
    parser.add_argument("--prevailing", metavar="WIND", help="prevailing wind: E, S, W or N")
    parser.add_argument(
        "--bonus",
        action="append",
        default=[],
        metavar="TILES",
        help="flowers and seasons, e.g. 1f2y (ruleset app)",
    )
    parser.add_argument(
        "--flag",
        action="append",
        default=[],
        metavar="FLAG",
        help="last_tile, kong_replacement, kong_on_kong, robbing_kong, heaven, earth, dead_hand",
    )
    names = ruleset_names()
    parser.add_argument(
        "--ruleset",
        choices=names,
        default=None,
        help="; ".join(f"{name}: {ruleset_title(name, 'en')}" for name in names)
        + f" (default {DEFAULT_RULESET})",
    )
    parser.add_argument("--loser", action="store_true", help="score a losing hand")
    parser.add_argument("--lang", choices=("nl", "en"), help="language of the table (default nl)")
    add_waits_option(parser)
    parser.add_argument("--json-out", action="store_true", help="print the JSON result instead of the table")
    parser.add_argument("--compact", action="store_true", help="one-line JSON for a single result")
    parser.set_defaults(run=run_score)
