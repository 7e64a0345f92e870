"""`mahjong-nts learn-set PHOTO --tiles CODES --set-profile FILE`: teach the recognizer a club's own tile set.

The photo is read as `recognize` reads it; the player gives the right code of every tile found, in the
order `recognize` lists them (rows top to bottom, left to right). Their looks are added to the set profile
FILE (made when missing), which `recognize --set-profile FILE` and `batch --set-profile FILE` then read with.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mahjong_nts.cli.common import fail
from mahjong_nts.messages import one_line
from mahjong_nts.reading.tiles import grouped_codes
from scoring.errors import InputError
from scoring.jsonread import show_path
from scoring.tiles import BACK, TILE_CODES, parse_tiles

WHOLE_SET = grouped_codes(TILE_CODES)
"""--tiles for a photo of one tile of every kind laid out in rows, in the order of the tile codes
("123456789m 123456789p 123456789s 1234567z 1234f 1234y")."""


def add_parser(subparsers: Any) -> None:
    """Register the `learn-set` subcommand on the dispatcher's subparsers."""
    parser = subparsers.add_parser(
        "learn-set",
        help="teach the recognizer your own tile set from a photo whose tiles you name",
        description=(
            "Read PHOTO, pair the tiles found (in reading order) with the codes of --tiles, and add their "
            "looks to the set profile FILE. Quickest: lay out one tile of every kind in five rows (1-9 "
            "characters, 1-9 circles, 1-9 bamboos, winds E S W N and dragons white green red, flowers 1-4 "
            "and seasons 1-4), photograph it and give --tiles "
            f'"{WHOLE_SET}" (a face-down tile after the seasons, with "back" added at the end, teaches the '
            "set's back too: useful when its white dragon is blank). A profile reads with its examples "
            "once it holds one tile of every kind, or 8 tiles whose code it has seen twice (two or three "
            "named photos of hands)."
        ),
    )
    parser.add_argument(
        "photo", metavar="PHOTO", help="a photo of tiles of the set (JPEG, PNG, WebP, HEIC or AVIF)"
    )
    parser.add_argument(
        "--tiles",
        required=True,
        metavar="CODES",
        help='the right code of every tile found, in reading order: "1m 2m 3m 5z" or "123m5z"; '
        '"back" for a face-down tile',
    )
    parser.add_argument(
        "--set-profile",
        dest="profile",
        required=True,
        metavar="FILE",
        type=Path,
        help="the set profile (JSON)",
    )
    parser.add_argument("--name", help="the set's name, for a new profile (default: the file's name)")
    parser.add_argument(
        "--models", metavar="DIR", type=Path, help="model folder (default: the packaged models)"
    )
    parser.set_defaults(run=run)


def codes_of(text: str) -> list[str]:
    """The codes of --tiles: mpsz groups and single codes, and "back" for a face-down tile."""
    codes: list[str] = []
    for word in text.replace(",", " ").split():
        codes.extend([BACK] if word.lower() == BACK else parse_tiles(word))
    return codes


def group_sizes(text: str) -> list[int]:
    """How many codes each word of --tiles names (a row of the layout, when the player wrote it so)."""
    return [len(codes_of(word)) for word in text.replace(",", " ").split()]


def short_rows(found_rows: list[int], named: list[int]) -> str:
    """Where the tiles found and the tiles named part ways, row by row: the rows found (top to bottom) and,
    when --tiles names as many groups as rows were found, which rows differ. Empty for a single row."""
    if len(found_rows) < 2:
        return ""
    text = f"; rows found: {', '.join(map(str, found_rows))} tiles"
    if len(named) != len(found_rows):
        return text
    odd = [
        f"row {k} has {f} found for {n} named"
        for k, (f, n) in enumerate(zip(found_rows, named, strict=True), start=1)
        if f != n
    ]
    return text + (f" ({'; '.join(odd)})" if odd else "")


def run(args: argparse.Namespace) -> int:
    """Learn the photo's tiles into the profile; exit 2 on bad input (nothing written), 1 when the photo
    cannot be read."""
    from recognizer.errors import ImageError, ModelError, ProfileError
    from recognizer.imageio import load_image
    from recognizer.pipeline import Recognizer, get_recognizer
    from recognizer.set_profile import MIN_CHECKS, read_profile, write_profile

    try:
        codes = codes_of(args.tiles)
    except InputError as exc:
        return fail(f"--tiles: {exc}")
    if not codes:
        return fail("--tiles names no tiles")
    try:
        recognizer = Recognizer(args.models) if args.models else get_recognizer()
        profile = (
            read_profile(args.profile)
            if args.profile.exists()
            else recognizer.new_profile(args.name or args.profile.stem)
        )
        image = load_image(args.photo)
    except (ModelError, ProfileError) as exc:
        return fail(str(exc))
    except ImageError as exc:
        print(f"mahjong-nts learn-set: {one_line(exc)}", file=sys.stderr)
        return 1
    found = recognizer.recognize(image)
    if len(found) != len(codes):
        seen = grouped_codes(found.codes) or "none"
        given = f"{len(codes)} code{'s' * (len(codes) != 1)}"
        rows = [int((found.row == k).sum()) for k in range(int(found.row.max()) + 1)] if len(found) else []
        return fail(
            f"{show_path(args.photo)}: {len(found)} tile{'s' * (len(found) != 1)} found ({seen}) "
            f"but {given} given{short_rows(rows, group_sizes(args.tiles))}; "
            "name every tile found, in this order, or take the photo again with the tiles a little apart "
            "and evenly lit"
        )
    try:
        learnt = recognizer.learn(profile, image, found.xyxy, codes)
        write_profile(learnt, args.profile)
    except ProfileError as exc:
        return fail(str(exc))
    misread = sum(a != b for a, b in zip(found.codes, codes, strict=True))
    new = profile.added_in(learnt)
    total, kinds = len(learnt.examples), len(learnt.codes)
    known = f", {len(codes) - new} known already" if new < len(codes) else ""
    if learnt.unfamiliar:
        state = (
            f"tiles are now read with its examples, which count most: the recognizer alone misread "
            f"{learnt.misread} of its {total} tiles, a set it does not know"
        )
    elif learnt.temperature is not None:
        state = "tiles are now read with its examples"
    elif learnt.judged:
        state = "the recognizer reads these tiles as well without it (kept: more photos may change that)"
    else:
        state = (
            f"name more tiles: it is used from one tile of every kind, or {MIN_CHECKS} tiles whose code "
            "it has seen twice"
        )
    print(
        f"{show_path(str(args.profile))}: {new} tile{'s' * (new != 1)} learnt ({misread} had been "
        f"misread{known}); {total} tile{'s' * (total != 1)} of {kinds} code{'s' * (kinds != 1)} in all; "
        f"{state}"
    )
    return 0
