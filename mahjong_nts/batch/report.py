"""report.html of a batch: one self-contained, print-friendly page (a handout for a rules workshop).

Summary first, then one section per photo (a new printed page each): the annotated image, the tiles read
and used, what was assumed, the scoring breakdown and warnings for tiles read with low confidence. CSS is
inline; images are relative files in the output folder, or embedded as base64 with `embed_images`. Every
text that comes from a file, a sidecar or a result is HTML-escaped.
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from mahjong_nts.batch.outputs import confidence_stats, hand_text, outcome_counts, reading_text
from mahjong_nts.batch.suggest import suggestion_text
from mahjong_nts.reading.hand import STATED_DEFAULTS, show_value
from scoring.jsonread import show_path

CSS = """
body { font: 11pt/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 1.5em auto;
       max-width: 60em; padding: 0 1em; color: #111; }
h1 { font-size: 1.5em; margin-bottom: .2em; } h2 { font-size: 1.2em; border-bottom: 2px solid #444; }
table { border-collapse: collapse; margin: .5em 0; } th, td { border: 1px solid #999; padding: .15em .5em;
       text-align: left; vertical-align: top; } th { background: #eee; } td.num { text-align: right; }
tfoot td { font-weight: bold; } .muted { color: #555; font-size: .9em; }
.error { color: #a00; font-weight: bold; } .invalid { color: #a60; font-weight: bold; }
.warn { background: #fff4d6; border-left: 4px solid #e0a000; padding: .3em .6em; }
.tiles span { display: inline-block; border: 1px solid #888; border-radius: 3px; padding: 0 .3em;
              margin: .1em; font-family: ui-monospace, monospace; } .tiles span.low { background: #fde2a0; }
figure { margin: .5em 0; } figure img { max-width: 100%; max-height: 70vh; border: 1px solid #ccc; }
dl { display: grid; grid-template-columns: max-content auto; gap: .1em 1em; } dt { font-weight: bold; }
@media print {
  body { margin: 0; max-width: none; font-size: 10pt; } a { color: inherit; text-decoration: none; }
  section.photo { break-before: page; page-break-before: always; }
  figure img { max-height: 11cm; } table, figure, .warn { break-inside: avoid; page-break-inside: avoid; }
  th { background: #eee !important; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


def _e(value: object) -> str:
    return html.escape("" if value is None else show_path(str(value)), quote=True)


def render_report(
    records: Sequence[Mapping[str, Any]],
    out_dir: Path,
    title: str,
    low_confidence: float,
    embed_images: bool = False,
    note: str | None = None,
) -> str:
    """The whole report page as a string."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>",
        f"<header><h1>{_e(title)}</h1>",
    ]
    if note:
        parts.append(f'<p class="warn">{_e(note)}</p>')
    parts.append("</header>")
    parts.append(_summary(records, low_confidence))
    for number, record in enumerate(records, start=1):
        parts.append(_photo_section(number, record, out_dir, low_confidence, embed_images))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _summary(records: Sequence[Mapping[str, Any]], low_confidence: float) -> str:
    counts = outcome_counts(records)
    defaults = ", ".join(f"{key} {show_value(value)}" for key, value in STATED_DEFAULTS.items())
    rows = []
    for number, record in enumerate(records, start=1):
        result = record.get("result") or {}
        if record.get("error"):
            status = f'<span class="error">error: {_e(record["error"])}</span>'
        elif result.get("valid"):
            status = "mahjong"
        else:
            status = f'<span class="invalid">no mahjong: {_e(result.get("reason"))}</span>'
            hint = suggestion_text(record.get("suggestion"))
            if hint:
                status += f'<br><span class="muted">{_e(hint)}</span>'
        _, low = confidence_stats(record.get("tiles") or [])
        low_text = "" if low is None else f"{low:.2f}"
        rows.append(
            f'<tr><td class="num">{number}</td><td><a href="#photo-{number}">{_e(record["file"])}</a></td>'
            f"<td>{_e(reading_text(record.get('tiles') or []))}</td>"
            f'<td class="num">{_e(result.get("total", ""))}</td><td>{status}</td>'
            f'<td class="num">{_e(low_text)}</td></tr>'
        )
    return (
        '<section class="summary"><h2>Summary</h2>'
        f"<p>{len(records)} photos: {counts['valid']} scored as mahjong, {counts['not_mahjong']} read "
        f"but no legal mahjong, {counts['errors']} with an error.</p>"
        f'<p class="muted">Where neither defaults.json nor a sidecar gave them: {_e(defaults)}; all tiles '
        "concealed; the winning tile is the last tile read. Each photo lists what was assumed. Tiles read "
        f"with confidence below {low_confidence:.2f} are marked.</p>"
        '<table class="overview"><thead><tr><th>#</th><th>Photo</th><th>Tiles read</th><th>Total</th>'
        "<th>Result</th><th>Lowest confidence</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table></section>"
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
    number: int, record: Mapping[str, Any], out_dir: Path, low_confidence: float, embed: bool
) -> str:
    parts = [f'<section class="photo" id="photo-{number}"><h2>{number}. {_e(record["file"])}</h2>']
    src = image_src(record, out_dir, embed)
    if src:
        parts.append(f'<figure><img src="{_e(src)}" alt="{_e(record["file"])} with the tiles read"></figure>')
    if record.get("error"):
        parts.append(f'<p class="error">Error: {_e(record["error"])}</p>')
    parts.append(_facts(record))
    parts.append(_tiles(record, low_confidence))
    parts.append(_warnings(record, low_confidence))
    result = record.get("result")
    if result:
        parts.append(_breakdown(result, record.get("suggestion")))
    parts.append("</section>")
    return "\n".join(part for part in parts if part)


def _facts(record: Mapping[str, Any]) -> str:
    hand = record.get("hand") or {}
    facts: list[tuple[str, str]] = [("Tiles read", reading_text(record.get("tiles") or []) or "none")]
    if hand:
        facts.append(("Tiles used", hand_text(hand)))
        context = ", ".join(
            f"{label} {show_value(hand[key])}"
            for key, label in (
                ("seat_wind", "seat"),
                ("prevailing_wind", "prevailing"),
                ("role", "role"),
                ("ruleset", "ruleset"),
                ("winning_tile", "winning tile"),
                ("self_drawn", "self-drawn"),
                ("flags", "flags"),
            )
            if key in hand
        )
        facts.append(("Context", context))
    if record.get("sidecar"):
        facts.append(("Sidecar", str(record["sidecar"])))
    if record.get("assumed"):
        facts.append(("Assumed", "; ".join(record["assumed"])))
    items = "".join(f"<dt>{_e(label)}</dt><dd>{_e(value)}</dd>" for label, value in facts)
    return f"<dl>{items}</dl>"


def _tiles(record: Mapping[str, Any], low_confidence: float) -> str:
    tiles = record.get("tiles") or []
    if not tiles:
        return ""
    chips = []
    for index, tile in enumerate(tiles, start=1):
        marked = ' class="low"' if float(tile["confidence"]) < low_confidence else ""
        percent = round(100 * float(tile["confidence"]))
        chips.append(f'<span{marked} title="tile {index}">{_e(tile["code"])} {percent}%</span>')
    return f'<p class="tiles">{"".join(chips)}</p>'


def low_confidence_tiles(record: Mapping[str, Any], threshold: float) -> list[tuple[int, Mapping[str, Any]]]:
    """(1-based position in reading order, tile) for every tile read with confidence below `threshold`."""
    return [
        (index, tile)
        for index, tile in enumerate(record.get("tiles") or [], start=1)
        if float(tile["confidence"]) < threshold
    ]


def _warnings(record: Mapping[str, Any], threshold: float) -> str:
    low = low_confidence_tiles(record, threshold)
    if not low:
        return ""
    lines = []
    for index, tile in low:
        alternatives = ", ".join(
            f"{alt['code']} ({float(alt['confidence']):.2f})"
            for alt in tile.get("alternatives") or []
            if alt["code"] != tile["code"]
        )
        text = f"tile {index} read as {tile['code']} ({float(tile['confidence']):.2f})"
        lines.append(_e(text + (f"; or perhaps {alternatives}" if alternatives else "")))
    return (
        '<div class="warn"><strong>Check these tiles (low confidence):</strong><br>'
        + "<br>".join(lines)
        + '<br>A sidecar NAME.json with the right "concealed" tiles corrects a misread tile.</div>'
    )


def _breakdown(result: Mapping[str, Any], suggestion: Mapping[str, Any] | None = None) -> str:
    rows = []
    for item in result.get("items") or []:
        points = item.get("points", "")
        doublings = item.get("doublings", "")
        english = item.get("name_en")
        label = _e(item.get("name")) + (f' <span class="muted">({_e(english)})</span>' if english else "")
        rows.append(
            f'<tr><td>{label}</td><td class="num">{_e(points)}</td><td class="num">{_e(doublings)}</td></tr>'
        )
    sets = ", ".join(
        f"{s.get('kind')} {s.get('tiles')}"
        + ("" if s.get("kind") == "pair" else (" open" if s.get("open") else ""))
        for s in result.get("sets") or []
    )
    limit = result.get("limit_hand")
    verdict = (
        "Mahjong"
        if result.get("valid")
        else f'<span class="invalid">No mahjong: {_e(result.get("reason_nl") or result.get("reason"))}</span>'
    )
    hint = suggestion_text(suggestion)
    if hint:
        verdict += f' <span class="muted">(perhaps a misread tile: {_e(hint)})</span>'
    limit_text = f"<p>Limit hand: {_e(limit['name'])} ({_e(limit['value'])})</p>" if limit else ""
    return (
        f"<p>{verdict}</p>{limit_text}"
        '<table class="breakdown"><thead><tr><th>Item</th><th>Points</th><th>Doublings</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody><tfoot><tr><td>Base points {_e(result.get('base_points'))}, "
        f'{_e(result.get("doublings"))} doubling(s)</td><td colspan="2" class="num">total '
        f"{_e(result.get('total'))}</td></tr></tfoot></table>"
        + (f'<p class="muted">Sets: {_e(sets)}</p>' if sets else "")
    )
