"""The tiles as pictures you tap: the hand (tap a tile to change or remove it), the palette of every tile
(tap to add one, to put it in place of the chosen tile, or to declare a set), and the sets declared.

Every tap is a button callback that changes the HandEditor before the page reruns, so what is shown never
disagrees with the hand; a removal takes two taps (the tile, then "Weg"), nothing is deleted at once.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from mahjong_nts.app.i18n import t
from mahjong_nts.app.state import HandEditor, add_tile, merge_bonus, set_tile
from mahjong_nts.reading.tiles import BACK, is_bonus
from mahjong_nts.tile_art import hand_html, tile_data_uri, tile_label
from scoring import TILE_CODES, parse_tiles

PALETTE: tuple[str, ...] = (*TILE_CODES, BACK)
MELD_KINDS: tuple[str, ...] = ("tile", "chow", "pung", "kong", "concealed_kong")  # what a palette tap adds
PICKS = "tile_picks"  # session key: prefix -> (version, "tile" | "bonus", index or bonus code)
NOTES = "tile_notes"  # session key: prefix -> i18n key of a remark on the last tap (a chow that cannot be)

CSS = """<style>
[class*="st-key-tilegrid-"] button, [class*="st-key-palette-"] button {
  padding: 2px 3px; min-height: 0; line-height: 0; }
[class*="st-key-tilegrid-"] button img { height: 46px !important; max-height: 46px !important; width: auto; }
[class*="st-key-palette-"] button img { height: 42px !important; max-height: 42px !important; width: auto; }
[class*="st-key-tilegrid-"], [class*="st-key-palette-"] { gap: 4px; }
[class*="-meldkind"] div, [class*="-alt-"] div { flex-wrap: wrap; }
[class*="-alt-"] button img { height: 36px !important; max-height: 36px !important; width: auto; }
[class*="-meldkind"] button { padding-left: 0.6rem; padding-right: 0.6rem; }
div:has(> .st-key-hand-summary) { position: sticky; top: 3.75rem; z-index: 990;
  background: var(--background-color, #fff); padding: 0.25rem 0; }
</style>"""


def tile_css() -> None:
    """The look of the tile buttons (pictures, small padding) and the result that stays in view."""
    st.html(CSS)


def picture_label(code: str, lang: str) -> str:
    """A button label that is the tile's picture (markdown image; its name is the alt text)."""
    return f"![{tile_label(code, lang)}]({tile_data_uri(code)})"


def picture_choice(code: str, lang: str) -> str:
    """A choice among tiles (an uncertain tile's alternatives): its picture and its name."""
    return f"{picture_label(code, lang)} {tile_label(code, lang)}"


def tiles_row(codes: list[str], lang: str, size: int = 36) -> None:
    """A row of tile pictures, not tappable (sets, waits)."""
    if codes:
        st.markdown(hand_html(codes, size, lang), unsafe_allow_html=True)


def current_pick(editor: HandEditor, prefix: str) -> tuple[str, Any] | None:
    """The tile tapped to be changed, while the tiles are still the ones it was tapped in."""
    pick = st.session_state.get(PICKS, {}).get(prefix)
    if pick is None or pick[0] != editor.version:
        return None
    kind, which = pick[1], pick[2]
    if kind == "tile" and not 0 <= which < len(editor.tiles):
        return None
    if kind == "bonus" and which not in editor.bonus:
        return None
    return kind, which


def _set_pick(prefix: str, value: tuple[int, str, Any] | None) -> None:
    st.session_state.setdefault(PICKS, {})[prefix] = value


def _tap_tile(editor: HandEditor, prefix: str, kind: str, which: Any) -> None:
    """Callback: choose a tile of the hand (tap it again to let go)."""
    same = current_pick(editor, prefix) == (kind, which)
    _set_pick(prefix, None if same else (editor.version, kind, which))


def _remove_pick(editor: HandEditor, prefix: str) -> None:
    """Callback: take the chosen tile out of the hand."""
    pick = current_pick(editor, prefix)
    if pick is None:
        return
    kind, which = pick
    if kind == "tile":
        editor.set_tiles([tile for i, tile in enumerate(editor.tiles) if i != which])
    else:
        editor.bonus = [code for code in editor.bonus if code != which]
        editor.version += 1
    _set_pick(prefix, None)


def _cancel_pick(prefix: str) -> None:
    _set_pick(prefix, None)


def _tap_palette(editor: HandEditor, prefix: str, code: str) -> None:
    """Callback: a palette tile replaces the chosen tile, else it is added (as a tile or as a set)."""
    st.session_state.setdefault(NOTES, {})[prefix] = None
    pick = current_pick(editor, prefix)
    if pick is not None:
        kind, which = pick
        if kind == "tile":
            set_tile(editor, which, code)
        elif code != which:
            editor.bonus = merge_bonus(
                [c for c in editor.bonus if c != which], [code] if is_bonus(code) else []
            )
            if not is_bonus(code):
                add_tile(editor, code)
            else:
                editor.version += 1
        _set_pick(prefix, None)
        return
    mode_key = f"{prefix}-meldkind"
    mode = st.session_state.get(mode_key) or "tile"
    if mode == "tile":
        add_tile(editor, code)
        return
    meld = meld_of(mode, code)
    if meld is None:
        st.session_state[NOTES][prefix] = "chow_start" if mode == "chow" else "meld_tile"
        return
    editor.melds = [*editor.melds, meld]
    editor.version += 1
    st.session_state[mode_key] = "tile"  # one set per choice: the next tap adds a single tile again


def meld_of(mode: str, code: str) -> tuple[str, bool] | None:
    """The set a palette tap declares: a chow from its lowest tile, a pung or kong of the tile; None when
    the tile cannot make that set (a chow from 8 or from an honour, any set of bonus or face-down tiles)."""
    if code == BACK or is_bonus(code):
        return None
    if mode == "chow":
        if code[1] == "z" or int(code[0]) > 7:
            return None
        return "".join(f"{int(code[0]) + i}" for i in range(3)) + code[1], True
    count = 3 if mode == "pung" else 4
    return code[0] * count + code[1], mode != "concealed_kong"


def _remove_meld(editor: HandEditor, index: int) -> None:
    """Callback: a declared set taken back."""
    editor.melds = [meld for i, meld in enumerate(editor.melds) if i != index]
    editor.version += 1


def hand_tiles(editor: HandEditor, lang: str, prefix: str) -> None:
    """The hand as tile pictures: tap one to change or remove it; the chosen one is highlighted."""
    pick = current_pick(editor, prefix)
    if not editor.tiles and not editor.bonus:
        return
    st.caption(t(lang, "tile_tap_help"))
    with st.container(horizontal=True, key=f"tilegrid-{prefix}", gap=None):
        for i, tile in enumerate(editor.tiles):
            st.button(
                picture_label(tile.code, lang),
                key=f"{prefix}-tile-{i}",
                help=f"{i + 1}: {tile_label(tile.code, lang)}",
                type="primary" if pick == ("tile", i) else "secondary",
                on_click=_tap_tile,
                args=(editor, prefix, "tile", i),
            )
        for code in editor.bonus:
            st.button(
                picture_label(code, lang),
                key=f"{prefix}-bonustile-{code}",
                help=tile_label(code, lang),
                type="primary" if pick == ("bonus", code) else "secondary",
                on_click=_tap_tile,
                args=(editor, prefix, "bonus", code),
            )
    if pick is None:
        return
    kind, which = pick
    code = editor.tiles[which].code if kind == "tile" else which
    name = tile_label(code, lang)
    text = (
        t(lang, "tile_picked", n=which + 1, name=name)
        if kind == "tile"
        else t(lang, "bonus_picked", name=name)
    )
    st.info(text)
    with st.container(horizontal=True):
        st.button(
            t(lang, "remove_tile"), key=f"{prefix}-remove", on_click=_remove_pick, args=(editor, prefix)
        )
        st.button(t(lang, "cancel_pick"), key=f"{prefix}-cancel", on_click=_cancel_pick, args=(prefix,))


def palette(editor: HandEditor, lang: str, prefix: str) -> None:
    """Every tile to tap: added to the hand, put in place of the chosen tile, or declared as a set."""
    picking = current_pick(editor, prefix) is not None
    if not picking:
        st.pills(  # pills wrap at 412 px, a segmented control runs off the screen
            t(lang, "meld_kind"),
            MELD_KINDS,
            default="tile",
            required=True,
            format_func=lambda kind: t(lang, f"add_as_{kind}"),
            key=f"{prefix}-meldkind",
            width="stretch",
        )
    note = st.session_state.get(NOTES, {}).get(prefix)
    if note:
        st.warning(t(lang, note))
    with st.container(horizontal=True, key=f"palette-{prefix}", gap=None):
        for code in PALETTE:
            st.button(
                picture_label(code, lang),
                key=f"{prefix}-palette-{code}",
                help=tile_label(code, lang),
                on_click=_tap_palette,
                args=(editor, prefix, code),
            )


def declared_melds(editor: HandEditor, lang: str, prefix: str) -> None:
    """The sets declared by tapping, each with its pictures and a button to take it back."""
    if not editor.melds:
        return
    st.markdown(f"**{t(lang, 'declared')}**")
    for i, (tiles, is_open) in enumerate(editor.melds):
        with st.container(horizontal=True, vertical_alignment="center"):
            codes = parse_tiles(tiles)
            tiles_row(codes, lang, 32)
            kind = "chow" if len(set(codes)) == 3 else "pung" if len(codes) == 3 else "kong"
            state = t(lang, "open") if is_open else t(lang, "concealed")
            st.button(
                f"{t(lang, f'kind_{kind}')} ({state}) — {t(lang, 'remove_tile')}",
                key=f"{prefix}-meldremove-{i}",
                on_click=_remove_meld,
                args=(editor, i),
            )
