"""report.html of a batch: one self-contained, print-friendly page (a handout for a rules workshop).

Summary first, then one section per photo (a new printed page each): the annotated image, the tiles read
and used drawn as tile pictures, what was assumed, the scoring breakdown with its sets drawn, and warnings
for tiles read with low confidence. In Dutch (`lang="nl"`, the default) or English. CSS and the tile
pictures are inline (each picture once, `tile_art.tile_sprite`); photos are relative files in the output
folder, or embedded as base64 with `embed_images`. Every text that comes from a file, a sidecar or a
result is HTML-escaped.
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mahjong_nts.batch.outputs import confidence_stats, outcome_counts, reading_text
from mahjong_nts.messages import in_dutch
from mahjong_nts.reading.hand import STATED_DEFAULTS, show_value
from mahjong_nts.reading.tiles import looks_unfamiliar, tiles_from_records
from mahjong_nts.reading.wording import assumption_text
from mahjong_nts.tile_art import BACK, CODES, sprite_tile, tile_label, tile_sprite
from scoring import parse_tiles, tile_name
from scoring.jsonread import show_path
from scoring.messages import FIELD_NAMES, FLAG_NAMES, ROLE_NAMES
from scoring.tiles import WIND_CODES

LANGUAGES = ("nl", "en")
TILE_HEIGHT = 40  # CSS pixels of a drawn tile; about 1 cm printed

# The handout's words; `{name}` fields are filled in by _w.
WORDS: dict[str, dict[str, str]] = {
    "nl": {
        "title": "Mahjonghanden: {folder}",
        "interrupted": "Onderbroken: {done} van {photos} foto's klaar. Start opnieuw met --resume om af te "
        "maken.",
        "summary": "Overzicht",
        "counts": "{photos} foto's: {valid} geteld als mahjong, {not_mahjong} gelezen maar geen geldige "
        "mahjong, {errors} met een fout.",
        "unfamiliar": "Op {count} van de {photos} foto's was het programma van veel stenen onzeker: het kent "
        "deze set waarschijnlijk nog niet. Leer het de set eerst (mahjong-nts learn-set) en lees de map "
        "daarna opnieuw met --set-profile.",
        "defaults": "Waar defaults.json en het zijbestand niets zeiden: {defaults}; alle stenen dicht; de "
        "winnende steen is de laatst gelezen steen. Bij elke foto staat wat is aangenomen. Stenen gelezen "
        "met een zekerheid onder {threshold} zijn gemarkeerd.",
        "col_photo": "Foto",
        "col_read": "Gelezen stenen",
        "col_total": "Totaal",
        "col_result": "Uitslag",
        "col_lowest": "Laagste zekerheid",
        "error": "fout: {error}",
        "error_line": "Fout: {error}",
        "mahjong": "mahjong",
        "no_mahjong": "geen mahjong: {reason}",
        "Mahjong": "Mahjong",
        "No_mahjong": "Geen mahjong: {reason}",
        "photo_alt": "{file} met de gelezen stenen",
        "read": "Gelezen stenen",
        "used": "Gebruikte stenen",
        "none": "geen",
        "context": "Spelsituatie",
        "sidecar": "Zijbestand",
        "assumed": "Aangenomen",
        "tile_n": "steen {n}: {name} ({code}), zeker {percent}%",
        "concealed_tiles": "in de hand",
        "open": "open",
        "concealed": "dicht",
        "bonus": "bloemen en seizoenen",
        "check": "Controleer deze stenen (lage zekerheid):",
        "low_tile": "steen {n} gelezen als {code} {name} ({confidence}){others}",
        "or_perhaps": "; of misschien {alternatives}",
        "sidecar_hint": 'Een zijbestand NAAM.json met de juiste "concealed" stenen verbetert een verkeerd '
        "gelezen steen.",
        "suggestion": "misschien verkeerd gelezen: steen {n} als {read} gelezen; als {instead}: mahjong, "
        "{total}",
        "limit": "Limietspel: {name} ({value})",
        "col_item": "Onderdeel",
        "col_points": "Punten",
        "col_doublings": "Verdubbelingen",
        "footer": "{base} basispunten, {doublings} verdubbeling(en)",
        "footer_total": "totaal {total}",
        "sets": "Zo is de hand geteld",
        "yes": "ja",
        "no": "nee",
        "kind_chow": "chow",
        "kind_pung": "pong",
        "kind_kong": "kong",
        "kind_pair": "paar",
        "kind_seven_pairs": "zeven paren",
        "kind_loose": "los",
    },
    "en": {
        "title": "Mahjong hands: {folder}",
        "interrupted": "Interrupted: {done} of {photos} photos done. Run again with --resume to finish.",
        "summary": "Summary",
        "counts": "{photos} photos: {valid} scored as mahjong, {not_mahjong} read but no legal mahjong, "
        "{errors} with an error.",
        "unfamiliar": "On {count} of the {photos} photos the program was unsure of many tiles: it probably "
        "does not know this set yet. Teach it the set first (mahjong-nts learn-set), then read the folder "
        "again with --set-profile.",
        "defaults": "Where neither defaults.json nor a sidecar gave them: {defaults}; all tiles concealed; "
        "the winning tile is the last tile read. Each photo lists what was assumed. Tiles read with "
        "confidence below {threshold} are marked.",
        "col_photo": "Photo",
        "col_read": "Tiles read",
        "col_total": "Total",
        "col_result": "Result",
        "col_lowest": "Lowest confidence",
        "error": "error: {error}",
        "error_line": "Error: {error}",
        "mahjong": "mahjong",
        "no_mahjong": "no mahjong: {reason}",
        "Mahjong": "Mahjong",
        "No_mahjong": "No mahjong: {reason}",
        "photo_alt": "{file} with the tiles read",
        "read": "Tiles read",
        "used": "Tiles used",
        "none": "none",
        "context": "Context",
        "sidecar": "Sidecar",
        "assumed": "Assumed",
        "tile_n": "tile {n}: {name} ({code}), {percent}% sure",
        "concealed_tiles": "in hand",
        "open": "open",
        "concealed": "concealed",
        "bonus": "flowers and seasons",
        "check": "Check these tiles (low confidence):",
        "low_tile": "tile {n} read as {code} {name} ({confidence}){others}",
        "or_perhaps": "; or perhaps {alternatives}",
        "sidecar_hint": 'A sidecar NAME.json with the right "concealed" tiles corrects a misread tile.',
        "suggestion": "perhaps a misread tile: tile {n} read as {read}; as {instead}: mahjong, {total}",
        "limit": "Limit hand: {name} ({value})",
        "col_item": "Item",
        "col_points": "Points",
        "col_doublings": "Doublings",
        "footer": "Base points {base}, {doublings} doubling(s)",
        "footer_total": "total {total}",
        "sets": "How the hand was counted",
        "yes": "yes",
        "no": "no",
        "kind_chow": "chow",
        "kind_pung": "pung",
        "kind_kong": "kong",
        "kind_pair": "pair",
        "kind_seven_pairs": "seven pairs",
        "kind_loose": "loose",
    },
}

CSS = """
body { font: 11pt/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5em auto;
       max-width: 60em; padding: 0 1em; color: #111; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.2em; border-bottom: 2px solid #444; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #999; padding: .15em .5em;
       text-align: left; vertical-align: top; } th { background: #eee; } td.num { text-align: right; }
tfoot td { font-weight: bold; } .muted { color: #555; font-size: .9em; }
.error { color: #a00; font-weight: bold; } .invalid { color: #a60; font-weight: bold; }
.warn { background: #fff4d6; border-left: 4px solid #e0a000; padding: .3em .6em; }
.tiles { display: flex; flex-wrap: wrap; gap: .15em; align-items: flex-end; margin: .1em 0; }
.read { display: inline-flex; flex-direction: column; align-items: center; font-size: .75em; color: #555; }
.read.low { background: #fde2a0; border-radius: 3px; } .read.low small { color: #a00; font-weight: bold; }
.group { display: inline-flex; flex-direction: column; margin-right: .6em; }
.group > span.muted { font-size: .75em; } .group .set { display: inline-flex; gap: 1px; }
figure { margin: .5em 0; } figure img { max-width: 100%; max-height: 70vh; border: 1px solid #ccc; }
dl { display: grid; grid-template-columns: max-content auto; gap: .1em 1em; } dt { font-weight: bold; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; } a { color: inherit; text-decoration: none; }
  section.photo { break-before: page; page-break-before: always; }
  figure img { max-height: 11cm; }
  table, figure, .warn, .tiles { break-inside: avoid; page-break-inside: avoid; }
  th, .read.low { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


def _e(value: object) -> str:
    return html.escape("" if value is None else show_path(str(value)), quote=True)


def _w(lang: str, key: str, **fields: Any) -> str:
    """The handout's word `key` in `lang`, fields filled in (not escaped: callers escape what they show)."""
    text = WORDS[lang][key]
    return text.format(**fields) if fields else text


def _decimal(value: float, lang: str) -> str:
    """0.31, written 0,31 in Dutch."""
    text = f"{value:.2f}"
    return text.replace(".", ",") if lang == "nl" else text


def report_title(folder: str, lang: str = "nl") -> str:
    """The page's title for the photos of `folder`."""
    return _w(lang, "title", folder=folder)


def interrupted_note(done: int, photos: int, lang: str = "nl") -> str:
    """The note at the top of a report written when the run was interrupted."""
    return _w(lang, "interrupted", done=done, photos=photos)


def render_report(
    records: Sequence[Mapping[str, Any]],
    out_dir: Path,
    title: str,
    low_confidence: float,
    embed_images: bool = False,
    note: str | None = None,
    lang: str = "nl",
) -> str:
    """The whole report page as a string, in `lang` ("nl" or "en")."""
    if lang not in LANGUAGES:
        raise ValueError(f"language must be 'nl' or 'en', not {lang!r}")
    parts = [
        "<!DOCTYPE html>",
        f'<html lang="{lang}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>",
        tile_sprite(sorted(_codes_shown(records), key=CODES.index)),
        f"<header><h1>{_e(title)}</h1>",
    ]
    if note:
        parts.append(f'<p class="warn">{_e(note)}</p>')
    parts.append("</header>")
    parts.append(_summary(records, low_confidence, lang))
    for number, record in enumerate(records, start=1):
        parts.append(_photo_section(number, record, out_dir, low_confidence, embed_images, lang))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _codes_shown(records: Iterable[Mapping[str, Any]]) -> set[str]:
    """Every tile code the page draws: tiles read, tiles used, the sets counted."""
    codes: set[str] = set()
    for record in records:
        codes.update(str(tile["code"]) for tile in record.get("tiles") or [])
        for _, tiles, _ in _hand_groups(record.get("hand") or {}):
            codes.update(tiles)
        for found in (record.get("result") or {}).get("sets") or []:
            codes.update(_tiles_of(found.get("tiles")))
    return codes & set(CODES)


def _tiles_of(text: Any) -> list[str]:
    """The codes of a tile string from a record ("123m11z"); nothing for what is not one."""
    try:
        return parse_tiles(text) if isinstance(text, str) else []
    except ValueError:
        return []


def _drawn(codes: Iterable[str], lang: str) -> str:
    """Tiles drawn in a row, each titled with its name."""
    return "".join(sprite_tile(code, TILE_HEIGHT, lang=lang) for code in codes if code in CODES)


def _value_text(key: str, value: Any, lang: str) -> str:
    """A context value as the handout shows it: Oost, winnaar, ja, geen, 4 karakters."""
    if lang == "en":
        return show_value(value)
    if key in ("seat_wind", "prevailing_wind") and value in WIND_CODES:
        return tile_name(WIND_CODES[value], "nl")
    if key == "role" and value in ROLE_NAMES:
        return ROLE_NAMES[value]["nl"]
    if key == "winning_tile" and isinstance(value, str) and value in CODES and value != BACK:
        return f"{tile_name(value, 'nl')} ({value})"
    if isinstance(value, bool):
        return _w(lang, "yes" if value else "no")
    if isinstance(value, list):
        names = [FLAG_NAMES.get(str(flag), {}).get("nl", str(flag)) for flag in value]
        return ", ".join(names) if names else _w(lang, "none")
    return str(value)


def _field(key: str, lang: str) -> str:
    """A context key as the handout names it: eigen wind, heersende wind, ... (English: the JSON key)."""
    if lang == "en":
        return {"seat_wind": "seat", "prevailing_wind": "prevailing", "winning_tile": "winning tile"}.get(
            key, key.replace("_", "-")
        )
    return FIELD_NAMES.get(key, {}).get("nl") or {"ruleset": "regels", "role": "rol"}.get(key, key)


def _summary(records: Sequence[Mapping[str, Any]], low_confidence: float, lang: str) -> str:
    counts = outcome_counts(records)
    defaults = ", ".join(
        f"{_field(key, lang)} {_value_text(key, value, lang)}" for key, value in STATED_DEFAULTS.items()
    )
    rows = []
    for number, record in enumerate(records, start=1):
        result = record.get("result") or {}
        if record.get("error"):
            status = f'<span class="error">{_e(_w(lang, "error", error=_error(record, lang)))}</span>'
        elif result.get("valid"):
            status = _w(lang, "mahjong")
        else:
            status = (
                f'<span class="invalid">{_e(_w(lang, "no_mahjong", reason=_reason(result, lang)))}</span>'
            )
            hint = _suggestion(record.get("suggestion"), lang)
            if hint:
                status += f'<br><span class="muted">{_e(hint)}</span>'
        _, low = confidence_stats(record.get("tiles") or [])
        low_text = "" if low is None else _decimal(low, lang)
        rows.append(
            f'<tr><td class="num">{number}</td><td><a href="#photo-{number}">{_e(record["file"])}</a></td>'
            f"<td>{_e(reading_text(record.get('tiles') or []))}</td>"
            f'<td class="num">{_e(result.get("total", ""))}</td><td>{status}</td>'
            f'<td class="num">{_e(low_text)}</td></tr>'
        )
    threshold = _decimal(low_confidence, lang)
    unfamiliar = sum(looks_unfamiliar(tiles_from_records(r.get("tiles") or [])) for r in records)
    hint = (
        f'<p class="invalid">{_e(_w(lang, "unfamiliar", count=unfamiliar, photos=len(records)))}</p>'
        if unfamiliar
        else ""
    )
    header = "".join(
        f"<th>{_e(text)}</th>"
        for text in (
            "#",
            *(_w(lang, key) for key in ("col_photo", "col_read", "col_total", "col_result", "col_lowest")),
        )
    )
    return (
        f'<section class="summary"><h2>{_e(_w(lang, "summary"))}</h2>'
        f"<p>{_e(_w(lang, 'counts', photos=len(records), **counts))}</p>"
        f'<p class="muted">{_e(_w(lang, "defaults", defaults=defaults, threshold=threshold))}</p>{hint}'
        f'<table class="overview"><thead><tr>{header}</tr></thead><tbody>'
        + "".join(rows)
        + "</tbody></table></section>"
    )


def _reason(result: Mapping[str, Any], lang: str) -> str:
    """Why a hand is no mahjong, in the handout's language."""
    return str((result.get("reason_nl") if lang == "nl" else None) or result.get("reason") or "")


def _suggestion(suggestion: Mapping[str, Any] | None, lang: str) -> str:
    """The one-tile change that would make it mahjong (`batch.suggest`), as one line; empty for none."""
    if not suggestion:
        return ""
    return _w(
        lang,
        "suggestion",
        n=suggestion["tile"],
        read=suggestion["read"],
        instead=suggestion["as"],
        total=suggestion["total"],
    )


def image_src(record: Mapping[str, Any], out_dir: Path, embed: bool) -> str | None:
    """The <img src> of a photo's annotated image: a relative URL, or a data: URL when embedding."""
    annotated = record.get("annotated")
    if not annotated:
        return None
    if embed:
        try:
            data = (out_dir / annotated).read_bytes()
        except OSError:
            return None
        return "data:image/jpeg;base64," + base64.b64encode(data).decode("ascii")
    return quote(os.fsencode(annotated))  # the bytes of a name that was not UTF-8, percent-encoded


def _photo_section(
    number: int, record: Mapping[str, Any], out_dir: Path, low_confidence: float, embed: bool, lang: str
) -> str:
    parts = [f'<section class="photo" id="photo-{number}"><h2>{number}. {_e(record["file"])}</h2>']
    src = image_src(record, out_dir, embed)
    if src:
        alt = _w(lang, "photo_alt", file=record["file"])
        parts.append(f'<figure><img src="{_e(src)}" alt="{_e(alt)}"></figure>')
    if record.get("error"):
        parts.append(f'<p class="error">{_e(_w(lang, "error_line", error=_error(record, lang)))}</p>')
    parts.append(_facts(record, low_confidence, lang))
    parts.append(_warnings(record, low_confidence, lang))
    result = record.get("result")
    if result:
        parts.append(_breakdown(result, record.get("suggestion"), lang))
    parts.append("</section>")
    return "\n".join(part for part in parts if part)


def _hand_groups(hand: Mapping[str, Any]) -> list[tuple[str, list[str], bool | None]]:
    """The hand as scored, in groups: (kind, codes, open): concealed tiles, each meld, the bonus tiles."""
    groups: list[tuple[str, list[str], bool | None]] = []
    if hand.get("concealed"):
        groups.append(("concealed_tiles", _tiles_of(hand["concealed"]), None))
    for meld in hand.get("melds") or []:
        if isinstance(meld, Mapping):
            groups.append(("meld", _tiles_of(meld.get("tiles")), bool(meld.get("open", True))))
    if hand.get("bonus"):
        groups.append(("bonus", _tiles_of(hand["bonus"]), None))
    return groups


def _group(label: str, codes: Iterable[str], lang: str) -> str:
    """A labelled group of drawn tiles: "open" over a set, "in de hand" over the concealed tiles."""
    tiles = f'<span class="set">{_drawn(codes, lang)}</span>'
    return f'<span class="group"><span class="muted">{_e(label)}</span>{tiles}</span>'


def _facts(record: Mapping[str, Any], low_confidence: float, lang: str) -> str:
    hand = record.get("hand") or {}
    facts: list[tuple[str, str]] = [
        (_w(lang, "read"), _tiles_read(record, low_confidence, lang) or _e(_w(lang, "none")))
    ]
    if hand:
        groups = []
        for kind, codes, is_open in _hand_groups(hand):
            label = _w(lang, kind if kind != "meld" else "open" if is_open else "concealed")
            groups.append(_group(label, codes, lang))
        facts.append((_w(lang, "used"), f'<div class="tiles">{"".join(groups)}</div>'))
        context = ", ".join(
            f"{_field(key, lang)} {_value_text(key, hand[key], lang)}"
            for key in (
                "seat_wind",
                "prevailing_wind",
                "role",
                "ruleset",
                "winning_tile",
                "self_drawn",
                "flags",
            )
            if key in hand
        )
        facts.append((_w(lang, "context"), _e(context)))
    if record.get("sidecar"):
        facts.append((_w(lang, "sidecar"), _e(record["sidecar"])))
    if record.get("assumed"):
        assumed = "; ".join(_assumption(str(line), lang) for line in record["assumed"])
        facts.append((_w(lang, "assumed"), _e(assumed)))
    items = "".join(f"<dt>{_e(label)}</dt><dd>{value}</dd>" for label, value in facts)
    return f"<dl>{items}</dl>"


_STATED = {f"{key} {show_value(value)}": key for key, value in STATED_DEFAULTS.items()}
"""The assumption a record names for each stated default ("seat_wind E", as `reading.hand` writes it)."""


def _assumption(line: str, lang: str) -> str:
    """A line of what was assumed, in the page's words: a stated default, or how the table was read."""
    key = _STATED.get(line)
    if key is None:
        return assumption_text(line, lang)
    return f"{_field(key, lang)} {_value_text(key, STATED_DEFAULTS[key], lang)}"


def _error(record: Mapping[str, Any], lang: str) -> str:
    """The photo's error in the page's language (a record of an older run has no `error_nl`)."""
    error = str(record["error"])
    if lang != "nl":
        return error
    return str(record.get("error_nl") or in_dutch(error))


def _tiles_read(record: Mapping[str, Any], low_confidence: float, lang: str) -> str:
    """Every tile read, drawn in reading order with how sure; the unsure ones marked."""
    tiles = record.get("tiles") or []
    if not tiles:
        return ""
    chips = []
    for index, tile in enumerate(tiles, start=1):
        code = str(tile["code"])
        confidence = float(tile["confidence"])
        marked = " low" if confidence < low_confidence else ""
        percent = round(100 * confidence)
        name = tile_label(code, lang) if code in CODES else code
        label = _w(lang, "tile_n", n=index, name=name, code=code, percent=percent)
        picture = sprite_tile(code, TILE_HEIGHT, label) if code in CODES else _e(code)
        chips.append(f'<span class="read{marked}">{picture}<small>{percent}%</small></span>')
    return f'<div class="tiles">{"".join(chips)}</div>'


def low_confidence_tiles(record: Mapping[str, Any], threshold: float) -> list[tuple[int, Mapping[str, Any]]]:
    """(1-based position in reading order, tile) for every tile read with confidence below `threshold`."""
    return [
        (index, tile)
        for index, tile in enumerate(record.get("tiles") or [], start=1)
        if float(tile["confidence"]) < threshold
    ]


def _warnings(record: Mapping[str, Any], threshold: float, lang: str) -> str:
    low = low_confidence_tiles(record, threshold)
    if not low:
        return ""
    lines = []
    for index, tile in low:
        alternatives = ", ".join(
            f"{alt['code']} ({_decimal(float(alt['confidence']), lang)})"
            for alt in tile.get("alternatives") or []
            if alt["code"] != tile["code"]
        )
        code = str(tile["code"])
        text = _w(
            lang,
            "low_tile",
            n=index,
            code=code,
            name=tile_label(code, lang) if code in CODES else "",
            confidence=_decimal(float(tile["confidence"]), lang),
            others=_w(lang, "or_perhaps", alternatives=alternatives) if alternatives else "",
        )
        lines.append(_e(text))
    return (
        f'<div class="warn"><strong>{_e(_w(lang, "check"))}</strong><br>'
        + "<br>".join(lines)
        + f"<br>{_e(_w(lang, 'sidecar_hint'))}</div>"
    )


def _breakdown(result: Mapping[str, Any], suggestion: Mapping[str, Any] | None, lang: str) -> str:
    rows = []
    for item in result.get("items") or []:
        name = item.get("name_en") if lang == "en" and item.get("name_en") else item.get("name")
        rows.append(
            f'<tr><td>{_e(name)}</td><td class="num">{_e(item.get("points", ""))}</td>'
            f'<td class="num">{_e(item.get("doublings", ""))}</td></tr>'
        )
    groups = []
    for found in result.get("sets") or []:
        kind = str(found.get("kind"))
        label = WORDS[lang].get(f"kind_{kind}", kind)
        if kind not in ("pair", "loose", "seven_pairs"):
            label += f" ({_w(lang, 'open' if found.get('open') else 'concealed')})"
        groups.append(_group(label, _tiles_of(found.get("tiles")), lang))
    limit = result.get("limit_hand")
    if result.get("valid"):
        verdict = _e(_w(lang, "Mahjong"))
    else:
        verdict = f'<span class="invalid">{_e(_w(lang, "No_mahjong", reason=_reason(result, lang)))}</span>'
    hint = _suggestion(suggestion, lang)
    if hint:
        verdict += f' <span class="muted">({_e(hint)})</span>'
    limit_text = f"<p>{_e(_w(lang, 'limit', name=limit['name'], value=limit['value']))}</p>" if limit else ""
    header = "".join(f"<th>{_e(_w(lang, key))}</th>" for key in ("col_item", "col_points", "col_doublings"))
    footer = _w(lang, "footer", base=result.get("base_points"), doublings=result.get("doublings"))
    total = _w(lang, "footer_total", total=result.get("total"))
    return (
        f"<p>{verdict}</p>{limit_text}"
        f'<table class="breakdown"><thead><tr>{header}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody><tfoot><tr><td>{_e(footer)}</td>"
        f'<td colspan="2" class="num">{_e(total)}</td></tr></tfoot></table>'
        + (
            f'<p class="muted">{_e(_w(lang, "sets"))}</p><div class="tiles">{"".join(groups)}</div>'
            if groups
            else ""
        )
    )
