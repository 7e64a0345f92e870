"""The "Hand" tab: photo in, what was read, corrections, sets and situation, and the score.

The pieces (notation box, tile table, set switches, score view) are reused for a loser's hand in "Afrekenen".
Every change to the tiles goes into the HandEditor and reruns the page, so the widgets never disagree.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from mahjong_nts.app.deps import AppDeps
from mahjong_nts.app.hand import (
    WIN_FLAGS,
    Evaluation,
    completing_swaps,
)
from mahjong_nts.app.i18n import t, wind_name
from mahjong_nts.app.panels import (
    HandOutcome,
    notation_box,
    reading_notes,
    score_summary,
    score_view,
    set_switches,
    tile_label,
    timed_evaluate,
)
from mahjong_nts.app.photo import PhotoReading, draw_tiles, photo_message, typed_over_photo
from mahjong_nts.app.recording import keep_photo, photo_widget_key
from mahjong_nts.app.state import (
    REMOVE_COLUMN,
    TILE_COLUMN,
    HandEditor,
    add_tile,
    apply_table_edits,
    drop_row,
    editor_from_reading,
    merge_bonus,
    photo_rows,
    set_tile,
)
from mahjong_nts.app.tile_set_panel import tile_set_panel
from mahjong_nts.app.tiles_view import declared_melds, hand_tiles, palette, picture_choice, tile_css
from mahjong_nts.app.widgets import choice, choices, labels_token, streamlit_words_css
from mahjong_nts.reading.table import read_table
from mahjong_nts.reading.tiles import BACK, is_bonus, looks_unfamiliar
from scoring import (
    TILE_CODES,
    WINDS,
    get_ruleset,
    ruleset_names,
    ruleset_title,
    tile_name,
)

PLAYING_CODES: tuple[str, ...] = tuple(c for c in TILE_CODES if c[1] in "mpsz")
BONUS_CODES: tuple[str, ...] = tuple(c for c in TILE_CODES if c[1] in "fy")
MAX_ALTERNATIVE_PICKERS = 8
NO_TILE = "none"  # the choice, for an uncertain tile, that it is no tile at all
MAX_UPLOAD_MB = 40  # a 12 MP phone photo is 3-8 MB
SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
WAITING_FOR_INPUT = frozenset({"no_tiles", "no_winning_tile", "face_down_left"})  # not errors, just not done


# --- photo ----------------------------------------------------------------------------------------


def choose_photo(deps: AppDeps, lang: str) -> bytes | None:
    """The photo to read: the camera's, else an upload, else the chosen sample (said in a caption)."""
    uploaded = st.file_uploader(
        t(lang, "upload"),
        key=photo_widget_key("photo_upload"),
        max_upload_size=MAX_UPLOAD_MB,
        help=t(lang, "upload_help"),
    )
    camera = None
    if st.toggle(t(lang, "use_camera"), key="use_camera", help=t(lang, "camera_help")):
        # without a resolution the picture is as wide as the widget: a few hundred pixels on a phone
        camera = st.camera_input(t(lang, "camera"), key=photo_widget_key("photo_camera"), resolution="1080p")
    if camera is not None:
        return camera.getvalue()
    if uploaded is not None:
        return uploaded.getvalue()
    if not deps.samples:
        return None
    names = [p.name for p in deps.samples]
    name = st.selectbox(t(lang, "sample"), names, key="sample_choice")
    st.caption(t(lang, "sample_caption"))
    return deps.samples[names.index(name)].read_bytes()


def editor_for(reading: PhotoReading | None) -> HandEditor:
    """The editor of this photo from session state (the player's changes only; made the first time), on top
    of this run's reading of the photo."""
    editors: dict[str, HandEditor] = st.session_state.setdefault("editors", {})
    key = reading.key if reading is not None else "typed"
    if key not in editors:
        editors[key] = editor_from_reading(reading) if reading is not None else HandEditor()
    return editors[key].bind(reading)


def show_reading(reading: PhotoReading, editor: HandEditor, lang: str, can_teach: bool = False) -> None:
    """The photo with numbered boxes in the colour of their state, and what went wrong, if anything; with
    `can_teach` (the tile-set panel is on the page), a hint to teach the set when it reads as unfamiliar."""
    if reading.error:
        st.error(t(lang, "photo_unreadable", message=photo_message(reading.error, lang)))
        return
    if reading.warning:
        st.warning(t(lang, "recognition_unavailable", message=photo_message(reading.warning, lang)))
    typed = typed_over_photo(editor.tiles)
    if reading.image is not None:
        st.image(draw_tiles(reading, () if typed else editor.tiles), width="stretch")
    if not reading.tiles and not reading.warning:
        st.warning(t(lang, "no_tiles_found"))
    elif typed:
        st.caption(t(lang, "typed_not_photo"))
    elif reading.tiles:
        unsure = sum(1 for tile in editor.tiles if tile.uncertain)
        read_bonus = {tile.code for tile in reading.tiles if is_bonus(tile.code)}
        left = sum(1 for tile in editor.tiles if tile.box is not None)
        left += sum(1 for code in editor.bonus if code in read_bonus)
        summary = t(lang, "read_summary", count=left, unsure=unsure)
        if left < len(reading.tiles):
            summary = f"{summary} {t(lang, 'read_left_out', count=len(reading.tiles) - left)}"
        st.caption(f"{summary} {t(lang, 'legend')}")
        if can_teach and looks_unfamiliar(reading.tiles):
            st.info(t(lang, "set_unfamiliar_hint"))


# --- tile corrections -----------------------------------------------------------------------------


def row_droppers(editor: HandEditor, lang: str, prefix: str) -> None:
    """When the photo shows several rows, buttons to leave out the rows beside the hand's (tiles lying on
    the table), one by one or all at once; the hand's rows are the reading's (`reading.read_table`)."""
    rows = photo_rows(editor.tiles)
    if not rows:
        return
    hand = read_table(editor.tiles).hand
    kept = [row for row in rows if any(editor.tiles[i].row == row for i in hand)]
    if not kept or len(kept) == len(rows):  # the reading keeps every row: offer all but the largest
        kept = [max(rows, key=lambda r: len(rows[r]))]
    largest = kept[0]
    others = [r for r in rows if r not in kept]
    st.caption(t(lang, "rows_help", count=len(rows)))
    for row in others:
        shown = " ".join("▮" if c == BACK else c for c in rows[row])
        if st.button(
            t(lang, "drop_row", row=row + 1, tiles=shown), key=f"{prefix}-droprow-{editor.version}-{row}"
        ):
            drop_row(editor, row)
            st.rerun()
    if len(others) > 1 and st.button(
        t(lang, "keep_row", row=largest + 1), key=f"{prefix}-keeprow-{editor.version}", type="primary"
    ):
        for row in others:
            drop_row(editor, row)
        st.rerun()


def alternative_pickers(editor: HandEditor, lang: str, prefix: str) -> None:
    """One row of choices per uncertain tile: what was read and the recognizer's alternatives."""
    unsure = [(i, tile) for i, tile in enumerate(editor.tiles) if tile.uncertain]
    if not unsure:
        return
    st.markdown(f"**{t(lang, 'uncertain_tiles')}**")
    for i, tile in unsure[:MAX_ALTERNATIVE_PICKERS]:
        options = [*dict.fromkeys([tile.code, *tile.alternatives]), NO_TILE]
        confidence = f" ({tile.confidence:.0%})" if tile.confidence is not None else ""
        picked = st.pills(
            t(lang, "tile_n", n=i + 1) + confidence,
            options,
            default=tile.code,
            format_func=lambda c: t(lang, "no_tile") if c == NO_TILE else picture_choice(c, lang),
            key=f"{prefix}-alt-{lang}-{editor.version}-{i}",
        )
        if picked == NO_TILE:  # what was taken for a tile was none (a shadow, a coin): left out
            editor.set_tiles([kept for j, kept in enumerate(editor.tiles) if j != i])
            st.rerun()
        if picked is not None and picked != tile.code:
            set_tile(editor, i, picked)
            st.rerun()


def tile_table(editor: HandEditor, lang: str, prefix: str) -> None:
    """Every tile in a table: change it to any of the 42 kinds or face down, tick remove, or add a row."""
    codes = [*PLAYING_CODES, *BONUS_CODES, BACK]
    labels = [tile_label(c, lang) for c in codes]
    code_of_label = dict(zip(labels, codes, strict=True))
    frame = pd.DataFrame(
        {  # explicit dtypes: an empty hand must still give a checkbox column of booleans
            "n": pd.Series([i + 1 for i in range(len(editor.tiles))], dtype="int64"),
            TILE_COLUMN: pd.Series([tile_label(tile.code, lang) for tile in editor.tiles], dtype="object"),
            "confidence": pd.Series([tile.confidence for tile in editor.tiles], dtype="float64"),
            "alternatives": pd.Series(
                [", ".join(tile_label(c, lang) for c in tile.alternatives) for tile in editor.tiles],
                dtype="object",
            ),
            REMOVE_COLUMN: pd.Series([False] * len(editor.tiles), dtype="boolean"),  # nullable: an added row
            # starts empty (a plain bool column is upcast to object then, which pandas deprecates)
        }
    )
    key = f"{prefix}-tiles-{lang}-{editor.version}"
    st.data_editor(
        frame,
        key=key,
        num_rows="dynamic",
        hide_index=True,
        disabled=["n", "confidence", "alternatives"],
        column_config={
            "n": st.column_config.NumberColumn(t(lang, "col_n"), width="small"),
            TILE_COLUMN: st.column_config.SelectboxColumn(t(lang, "col_tile"), options=labels, required=True),
            "confidence": st.column_config.ProgressColumn(
                t(lang, "col_confidence"), min_value=0.0, max_value=1.0, format="percent"
            ),
            "alternatives": st.column_config.TextColumn(t(lang, "col_alternatives")),
            REMOVE_COLUMN: st.column_config.CheckboxColumn(t(lang, "col_remove"), default=False),
        },
    )
    edits = st.session_state.get(key) or {}
    if apply_table_edits(editor, edits, code_of_label):
        st.rerun()


def add_tile_picker(editor: HandEditor, lang: str, prefix: str) -> None:
    """One tap adds a tile (bonus tiles go to the bonus list)."""
    code = st.selectbox(
        t(lang, "add_tile"),
        [*PLAYING_CODES, *BONUS_CODES],
        index=None,
        placeholder=t(lang, "add_tile_placeholder"),
        format_func=lambda c: tile_label(c, lang),
        key=f"{prefix}-add-{lang}-{editor.version}",
    )
    if code is not None:
        add_tile(editor, code)
        st.rerun()


def bonus_picker(editor: HandEditor, lang: str, prefix: str) -> None:
    """Flowers and seasons beside the hand."""
    chosen = st.multiselect(
        t(lang, "bonus"),
        BONUS_CODES,
        default=editor.bonus,
        format_func=lambda c: tile_name(c, lang),
        placeholder=t(lang, "choose"),
        key=f"{prefix}-bonus-{lang}-{editor.version}",
        select_all=False,  # Streamlit's own "Select all" is English
    )
    if sorted(chosen) != sorted(editor.bonus):
        editor.bonus = merge_bonus([], chosen)
        editor.version += 1
        st.rerun()


def tile_corrections(editor: HandEditor, lang: str, prefix: str) -> None:
    """All the ways to correct the tiles, in the order a player reaches for them: type the hand, tap its
    tiles, leave out rows, pick among the alternatives, tap the palette (tiles and declared sets); the
    table of codes stays as the advanced way."""
    notation_box(editor, lang, prefix)
    hand_tiles(editor, lang, prefix)
    row_droppers(editor, lang, prefix)
    alternative_pickers(editor, lang, prefix)
    palette(editor, lang, prefix)
    declared_melds(editor, lang, prefix)
    bonus_picker(editor, lang, prefix)
    with st.expander(t(lang, "tile_table")):
        tile_table(editor, lang, prefix)
        add_tile_picker(editor, lang, prefix)


# --- situation, sets, score -----------------------------------------------------------------------


def game_context(editor: HandEditor, lang: str, locked_ruleset: bool) -> None:
    """The game's prevailing wind and ruleset: one per game, not per photo (st.session_state["game"])."""
    game = st.session_state["game"]
    labels = labels_token(lang)
    editor.prevailing_wind = choice(
        st.radio,
        t(lang, "prevailing_wind"),
        WINDS,
        state=game,
        field="prevailing_wind",
        key="prevailing",
        labels=labels,
        format_func=lambda w: wind_name(lang, w),
        horizontal=True,
        disabled=locked_ruleset and get_ruleset(game["ruleset"]).games_per_wind is not None,
    )
    editor.ruleset = choice(
        st.radio,
        t(lang, "ruleset"),
        ruleset_names(),
        state=game,
        field="ruleset",
        key="ruleset",
        labels=labels,
        format_func=lambda r: ruleset_title(r, lang),
        horizontal=True,
        disabled=locked_ruleset,
    )


def winner_context(editor: HandEditor, lang: str, prefix: str, seat_names: dict[str, str]) -> None:
    """Seat wind, winning tile, self-drawn or discard, special moments; kept in the editor."""
    state = vars(editor)
    choice(
        st.radio,
        t(lang, "seat_wind"),
        WINDS,
        state=state,
        field="seat_wind",
        key=f"{prefix}-seat",
        labels=labels_token(lang, sorted(seat_names.items())),
        format_func=lambda w: wind_label(w, lang, seat_names),
        horizontal=True,
    )
    tiles = sorted(set(editor.codes), key=TILE_CODES.index)  # in tile order, not photo order
    if tiles:
        proposed = read_table(editor.tiles, "winner").winning_tile or editor.codes[-1]
        shown = {"winning_tile": editor.winning_tile if editor.winning_tile in tiles else proposed}
        picked = choice(
            st.selectbox,
            t(lang, "winning_tile"),
            tiles,
            state=shown,
            field="winning_tile",
            key=f"{prefix}-win-{editor.version}",
            labels=labels_token(lang),
            format_func=lambda c: tile_label(c, lang),
        )
        editor.winning_tile = None if picked == proposed else picked  # only the player's change is kept
    how = {"how": "self_drawn" if editor.self_drawn else "discard"}
    choice(
        st.radio,
        t(lang, "how_won"),
        ("discard", "self_drawn"),
        state=how,
        field="how",
        key=f"{prefix}-how",
        labels=labels_token(lang),
        format_func=lambda h: t(lang, h),
        horizontal=True,
    )
    editor.self_drawn = how["how"] == "self_drawn"
    choices(
        t(lang, "flags"),
        WIN_FLAGS,
        state=state,
        field="flags",
        key=f"{prefix}-flags",
        labels=labels_token(lang),
        format_func=lambda f: t(lang, f"flag_{f}"),
        placeholder=t(lang, "choose"),
    )


def wind_label(wind: str, lang: str, seat_names: dict[str, str]) -> str:
    """ "Oost" or, during an evening, "Oost (Anna)"."""
    name = seat_names.get(wind)
    return f"{wind_name(lang, wind)} ({name})" if name else wind_name(lang, wind)


def structure_and_score(editor: HandEditor, lang: str, prefix: str, role: str) -> Evaluation:
    """Score, show the set switches, rescore when a switch moved, then show the score."""
    evaluation, ms = timed_evaluate(editor, role)
    st.subheader(t(lang, "structure"))
    if set_switches(editor, evaluation, lang, prefix):
        evaluation, ms = timed_evaluate(editor, role)
    reading_notes(evaluation, lang)
    st.subheader(t(lang, "score"))
    score_view(evaluation, lang, prefix, role, summary_shown=True)
    swap_suggestions(editor, evaluation, lang, prefix, role)
    st.caption(t(lang, "scoring_time", ms=ms))
    return evaluation


def swap_suggestions(editor: HandEditor, evaluation: Evaluation, lang: str, prefix: str, role: str) -> None:
    """A hand without a mahjong shape: offer the one-tile changes among the recognizer's alternatives
    that complete it (app_hand.completing_swaps); the player picks one or none."""
    result = evaluation.result
    if result is None or result.valid or result.reason_code != "no_winning_shape":
        return
    swaps = completing_swaps(editor, role)
    if not swaps:
        return
    st.info(t(lang, "swap_hint"))
    for swap in swaps:
        label = t(lang, "swap_apply", n=swap.index + 1, read=tile_label(swap.read, lang),
                  to=tile_label(swap.to, lang))  # fmt: skip
        if st.button(label, key=f"{prefix}-swap-{editor.version}-{swap.index}-{swap.to}"):
            set_tile(editor, swap.index, swap.to)
            st.rerun()


def render_hand_tab(
    deps: AppDeps, lang: str, seat_names: dict[str, str], locked_ruleset: bool = False
) -> HandOutcome:
    """The whole Hand tab; returns the editor and evaluation for the settle tab.

    During an evening the ruleset is the evening's (`locked_ruleset`) and seats show the players' names.
    """
    tile_css()
    words = streamlit_words_css(lang)
    if words:
        st.html(words)
    summary = st.container(key="hand-summary")  # filled once the hand is scored: the result stays on top
    photo_column, edit_column = st.columns([5, 6])
    with photo_column:
        st.subheader(t(lang, "photo"))
        data = choose_photo(deps, lang)
        reading = deps.read_photo(data) if data is not None else None
        if data is not None and reading is not None and not reading.error:
            keep_photo(reading.key, data, reading.tiles)  # what a saved winning hand teaches the set
        editor = editor_for(reading)
        if reading is not None:
            show_reading(reading, editor, lang, can_teach=deps.tile_set is not None)
        tiles_read = reading.tiles if reading is not None and not reading.error else ()
        tile_set_panel(deps.tile_set, data, tiles_read, editor.tiles, editor.bonus, lang, "hand")
    prefix = f"hand-{reading.key if reading is not None else 'typed'}"
    with edit_column:
        st.subheader(t(lang, "tiles"))
        tile_corrections(editor, lang, prefix)
        st.subheader(t(lang, "context"))
        game_context(editor, lang, locked_ruleset)
        winner_context(editor, lang, prefix, seat_names)
        evaluation = structure_and_score(editor, lang, prefix, "winner")
    with summary:
        score_summary(evaluation, lang)
    return HandOutcome(editor, evaluation)
