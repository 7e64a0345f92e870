"""The reading's assumptions in Dutch: `reading.hand` and `reading.table` write them in English (the JSON's
words); the app and the batch handout show them to Dutch players through `assumption_text`."""

from __future__ import annotations

import re

from scoring import tile_name
from scoring.tiles import BACK

FACE_DOWN_NL = "omgekeerd"
"""A face-down tile in a kong's layout ("1m back back 1m" -> "1m omgekeerd omgekeerd 1m")."""

# pattern of the English line -> its Dutch; {tile} is shown by name, {rest} with its face-down tiles named
ASSUMPTIONS_NL: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), dutch)
    for pattern, dutch in (
        (
            r"all (?P<n>\d+) tiles concealed \(no melds declared\)",
            "alle {n} stenen gesloten (geen sets gemeld)",
        ),
        (r"winning_tile (?P<tile>\w+) \(last tile read\)", "winnende steen {tile} (laatst gelezen)"),
        (r"winning_tile (?P<tile>\w+) \(set apart\)", "winnende steen {tile} (apart gelegd)"),
        (r"open set (?P<set>\w+) \(laid apart from the rack\)", "open set {set} (apart van het rek)"),
        (
            r"hand in row (?P<row>\d+) of (?P<rows>\d+) \(largest tiles\); left out: (?P<rest>.*)",
            "hand in rij {row} van {rows} (grootste stenen); weggelaten: {rest}",
        ),
        (
            r"(?P<n>\d+) face-down tile\(s\) are part of no concealed kong",
            "{n} omgekeerde stenen horen bij geen gesloten kong",
        ),
        (r"concealed kong (?P<set>\w+) \((?P<rest>.*)\)", "gesloten kong {set} ({rest})"),
        (r"open kong (?P<set>\w+) \((?P<rest>.*)\)", "open kong {set} ({rest})"),
    )
)


def assumption_text(what: str, lang: str) -> str:
    """One assumption of the reading in `lang` ("nl" or "en"); a line not known here stays as written."""
    if lang != "nl":
        return what
    for pattern, dutch in ASSUMPTIONS_NL:
        found = pattern.fullmatch(what)
        if found:
            fields = found.groupdict()
            if "tile" in fields:
                fields["tile"] = tile_name(fields["tile"], lang)
            if "rest" in fields:  # a kong's layout: "1m back back 1m"
                fields["rest"] = re.sub(rf"\b{BACK}\b", FACE_DOWN_NL, fields["rest"])
            return dutch.format(**fields)
    return what
