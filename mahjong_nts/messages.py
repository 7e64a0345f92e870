"""User-facing error text shared by the app and the batch command: one readable line, and its Dutch.

Errors are made in English (the words of the JSON and the command line); `in_dutch` gives the Dutch page
(the app's, the batch handout's) the same line in Dutch where its words are known here."""

from __future__ import annotations

import re

MAX_MESSAGE = 300
"""Longest message shown (a row's error cell, a line on stderr); a longer one is cut with "..."."""


def one_line(problem: BaseException | str, limit: int = MAX_MESSAGE) -> str:
    """An exception (or text) as one readable line, no traceback: whitespace folded, at most `limit`
    characters, else the exception's type."""
    text = " ".join(str(problem).split()) or type(problem).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


# (English, Dutch): a line that starts with the English is shown with the Dutch in its place. Where the
# English ends in ": " what follows is itself a message and is put in Dutch in turn; else it is a detail
# (a size, a library's own words) kept as it is. The first that fits is taken: longer starts first.
STARTS_NL: tuple[tuple[str, str], ...] = (
    # what the photo loader says (recognizer.imageio)
    ("not an image (looks like a text file)", "geen afbeelding (het lijkt een tekstbestand)"),
    (
        "not an image in a supported format (JPEG, PNG, WebP, HEIC or AVIF)",
        "geen afbeelding in een bruikbaar formaat (JPEG, PNG, WebP, HEIC of AVIF)",
    ),
    (
        "HEIC/HEIF photos need the pi-heif package (pip install pi-heif); or export the photo as JPEG",
        "voor HEIC/HEIF-foto's is het pakket pi-heif nodig (pip install pi-heif); of bewaar de foto als JPEG",
    ),
    (
        "corrupt HEIC/HEIF photo (no picture found in it)",
        "beschadigde HEIC/HEIF-foto (er staat geen beeld in)",
    ),
    ("empty file (0 bytes)", "leeg bestand (0 bytes)"),
    ("image too large to decode", "foto te groot om te openen"),
    ("image too large", "foto te groot"),
    ("corrupt or truncated image", "beschadigde of onvolledige foto"),
    ("invalid image size", "ongeldige fotomaat"),
    ("not a readable image", "geen leesbare afbeelding"),
    ("no such file", "bestand bestaat niet"),
    ("not a file", "geen bestand"),
    ("cannot read", "kan niet lezen"),
    # what a batch row says before the photo's own reason (mahjong_nts.batch)
    ("unreadable image: ", "onleesbare foto: "),
    ("recognizer failed: ", "herkennen mislukt: "),
    ("recognition failed: ", "herkennen mislukt: "),
    ("cannot write the annotated image: ", "kan de foto met vakjes niet opslaan: "),
    ("cannot start the tile recognizer: ", "de steenherkenning start niet: "),
    ("scoring failed: ", "tellen mislukt: "),
    ("hand: ", "hand: "),
    ("not a photo: a symbolic link loop", "geen foto: een kring van symbolische koppelingen"),
    ("not a photo: a symbolic link to nothing (dangling)", "geen foto: een symbolische koppeling naar niets"),
    ("not a photo: a named pipe (FIFO)", "geen foto: een named pipe (FIFO)"),
    ("not a photo: a folder", "geen foto: een map"),
    (
        "not a photo: a device or socket, not a regular file",
        "geen foto: een apparaat of socket, geen bestand",
    ),
    (
        "the worker process died reading this photo (crash or out of memory); --resume tries it again",
        "het werkproces stopte bij deze foto (vastgelopen of geheugen op); --resume probeert hem opnieuw",
    ),
    # why a photo's tiles make no hand (mahjong_nts.reading.hand)
    (
        "no tiles read in the photo; give the hand in a sidecar",
        "geen stenen gelezen op de foto; geef de hand in een zijbestand (NAAM.json)",
    ),
)

# (pattern, Dutch): whole lines with a part that varies (a number, a file name, a value), kept as it is; a
# part named `rest` is a message of its own, put in Dutch in turn.
PATTERNS_NL: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), dutch)
    for pattern, dutch in (
        # why a photo's tiles make no hand (mahjong_nts.reading.hand)
        (
            r"(?P<n>\d+) face-down tile\(s\) are not part of a concealed kong",
            "{n} omgekeerde steen/stenen horen bij geen gesloten kong (hun voorkant is niet te raden)",
        ),
        (
            r"(?P<n>\d+) face-down tile\(s\) are not part of a declared concealed kong",
            "{n} omgekeerde steen/stenen horen bij geen opgegeven gesloten kong",
        ),
        # what is wrong with a sidecar or defaults.json (mahjong_nts.batch.sidecar, scoring.jsonread)
        (r"sidecar (?P<file>.+?): (?P<rest>.+)", "zijbestand {file}: {rest}"),
        (r"two sidecars for (?P<photo>.+?): (?P<files>.+)", "twee zijbestanden voor {photo}: {files}"),
        (
            r"unknown key (?P<key>'.*') \(allowed: (?P<keys>.*)\)",
            "onbekende sleutel {key} (toegestaan: {keys})",
        ),
        (r"bad JSON: (?P<why>.*)", "geen geldige JSON: {why}"),
        (r"must hold one JSON object, not (?P<what>.*)", "moet één JSON-object bevatten, niet {what}"),
        (r"larger than (?P<n>\d+) MiB", "groter dan {n} MiB"),
        (r"(?P<key>\w+) must be a string, not (?P<value>.*)", "{key} moet tekst zijn, niet {value}"),
        (
            r"self_drawn must be true or false, not (?P<value>.*)",
            "self_drawn moet true of false zijn, niet {value}",
        ),
        (
            r"flags must be a list of flag names, not (?P<value>.*)",
            "flags moet een lijst met namen van bijzonderheden zijn, niet {value}",
        ),
        (
            r"(?P<key>\w+) must be a tile string like '123m11z', not (?P<value>.*)",
            "{key} moet stenen als tekst geven, zoals '123m11z', niet {value}",
        ),
        (
            r"melds must be a list like (?P<like>\[.*\]), not (?P<value>.*)",
            "melds moet een lijst zijn zoals {like}, niet {value}",
        ),
        # what `score` says of its options when it prints a Dutch table (mahjong_nts.cli.score)
        (
            r"(?P<option>--seat|--prevailing) is required when scoring tiles from the command line",
            "{option} ontbreekt: geef de wind (E, S, W of N) bij een hand op de opdrachtregel",
        ),
        (
            r"--win TILE is required for a winner \(or give --loser\)",
            "--win STEEN ontbreekt: de winnende steen van de winnaar (of geef --loser)",
        ),
        (
            r"--win and --self-drawn are for the winner, not with --loser",
            "--win en --self-drawn horen bij de winnaar, niet bij --loser",
        ),
        (
            r"--meld (?P<meld>.+): after ':' write 'open' or 'closed', not (?P<state>.+)",
            "--meld {meld}: schrijf na ':' 'open' of 'closed', niet {state}",
        ),
    )
)


def in_dutch(message: str) -> str:
    """`message` (one line, as made in English) in Dutch where its words are known; the rest as it is."""
    for pattern, dutch in PATTERNS_NL:
        found = pattern.fullmatch(message)
        if found:
            fields = found.groupdict()
            if "rest" in fields:
                fields["rest"] = in_dutch(fields["rest"])
            return dutch.format(**fields)
    for english, dutch in STARTS_NL:
        if message.startswith(english):
            rest = message[len(english) :]
            return dutch + (in_dutch(rest) if english.endswith(": ") else rest)
    return message
