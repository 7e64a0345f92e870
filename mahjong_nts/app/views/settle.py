"""The "Afrekenen" tab: four seats, the winner's score from the Hand tab, each loser's score typed in or
counted from their own hand, and the settlement that sums to zero; recorded into the evening on request.

Every input here is keyed by the game it is for (`recording.game_tag`): a saved game leaves nothing behind
for the player who sits at that seat next. Saving a winner with 0 points or a draw asks first."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from mahjong_nts.app.deps import AppDeps
from mahjong_nts.app.i18n import reason_text, t, wind_name
from mahjong_nts.app.panels import (
    HandOutcome,
    confirm_buttons,
    notation_box,
    problem_text,
    reading_notes,
    score_view,
    set_switches,
    timed_evaluate,
)
from mahjong_nts.app.photo import PhotoReading
from mahjong_nts.app.recording import (
    LOSER_PREFIX,
    SETTLE_PREFIX,
    CountedPhotos,
    ask,
    asked,
    editor_key,
    error_text,
    game_tag,
    is_untouched_sample,
    keep_loser_photos,
    save_game,
)
from mahjong_nts.app.scoreboard import Evening
from mahjong_nts.app.settle import SeatScore, Settlement, names_by_seat, settle_game
from mahjong_nts.app.state import HandEditor, editor_from_reading
from mahjong_nts.app.widgets import choice, labels_token
from scoring import WINDS, InputError

DRAW = "draw"
NAMES = "table_names"  # session key: seat -> name typed here without an evening (the Avond form takes them)


def seat_names(lang: str, evening: Evening | None) -> dict[str, str]:
    """Seat -> name: the evening's seating for its next game, else names typed here (default: the wind),
    kept for the Avond tab's new-evening form so they are typed once."""
    if evening is not None:
        return names_by_seat(evening.next_seats())
    kept: dict[str, str] = st.session_state.setdefault(NAMES, {})
    names = {}
    columns = st.columns(4)
    for column, seat in zip(columns, WINDS, strict=True):
        key = f"{SETTLE_PREFIX}name-{seat}"
        if key not in st.session_state and kept.get(seat):
            st.session_state[key] = kept[seat]  # the widget was not drawn for a while: its text comes back
        with column:
            typed = st.text_input(t(lang, "player_name", wind=wind_name(lang, seat)), key=key)
        kept[seat] = typed.strip()
        names[seat] = typed.strip() or wind_name(lang, seat)
    return names


def settle_state(tag: str) -> dict[str, Any]:
    """The settle tab's choices (winner, score sources) for game `tag`, kept apart from the widgets that show
    them; another game starts with none."""
    state: dict[str, Any] = st.session_state.setdefault("settle", {})
    if state.get("game") != tag:
        state.clear()
        state["game"] = tag
    return state


def seat_title(lang: str, seat: str, name: str) -> str:
    """ "Anna (Oost)", or just "Oost" while no name was typed."""
    wind = wind_name(lang, seat)
    return wind if name == wind else t(lang, "name_wind", name=name, wind=wind)


def loser_editor(tag: str, seat: str, reading: PhotoReading | None) -> HandEditor:
    """A loser's editor in game `tag`: made afresh from a new photo, else kept (typed hands are not lost on a
    rerun)."""
    editors: dict[tuple[str, str], tuple[str | None, HandEditor]] = st.session_state.setdefault(
        "loser_editors", {}
    )
    key = reading.key if reading is not None else None
    stored = editors.get((tag, seat))
    if stored is None or (key is not None and stored[0] != key):
        editor = editor_from_reading(reading) if reading is not None else HandEditor()
        editors[(tag, seat)] = (key, editor)
        return editor
    return stored[1].bind(reading)


def loser_from_hand(
    deps: AppDeps, lang: str, tag: str, seat: str, name: str, outcome: HandOutcome, counted: CountedPhotos
) -> int:
    """Count a loser's hand (photo or notation, loser rules) and return its score (0 when it cannot); a hand
    counted from its photo goes into `counted` (what saving the game may teach the club's set)."""
    upload = st.file_uploader(t(lang, "loser_photo"), key=f"{SETTLE_PREFIX}{tag}-photo-{seat}")
    reading = deps.read_photo(upload.getvalue()) if upload is not None else None
    if reading is not None and reading.error:
        st.error(t(lang, "photo_unreadable", message=reading.error))
        reading = None
    editor = loser_editor(tag, seat, reading)
    editor.seat_wind = seat
    editor.prevailing_wind = outcome.editor.prevailing_wind
    editor.ruleset = outcome.editor.ruleset
    prefix = f"{LOSER_PREFIX}{tag}-{seat}-{reading.key if reading is not None else 'typed'}"
    notation_box(editor, lang, prefix, label=t(lang, "loser_notation", name=name))
    evaluation, _ms = timed_evaluate(editor, "loser")
    if set_switches(editor, evaluation, lang, prefix):
        evaluation, _ms = timed_evaluate(editor, "loser")
    reading_notes(evaluation, lang)
    score_view(evaluation, lang, prefix, role="loser")
    if upload is not None and reading is not None and evaluation.result is not None:
        counted[seat] = (upload.getvalue(), reading.tiles, editor)
    return evaluation.result.total if evaluation.result is not None else 0


def winner_score(deps: AppDeps, lang: str, tag: str, winner: str, outcome: HandOutcome) -> tuple[int, bool]:
    """The winner's score: from the Hand tab (0 and a warning when that is no valid mahjong) or typed; and
    whether it may be saved (not while it is the untouched sample photo's hand, unless chosen so)."""
    result = outcome.evaluation.result
    from_hand = result.total if result is not None and result.valid else 0
    source = choice(
        st.radio,
        t(lang, "winner_score"),
        ("hand", "typed"),
        state=settle_state(tag),
        field="source",
        key=f"{SETTLE_PREFIX}{tag}-source",
        labels=labels_token(lang, from_hand),
        format_func=lambda s: t(lang, "from_hand", total=from_hand) if s == "hand" else t(lang, "typed"),
        horizontal=True,
    )
    if source == "typed":
        typed = st.number_input(
            t(lang, "winner_score"), min_value=0, step=2, key=f"{SETTLE_PREFIX}{tag}-typed-score"
        )
        return int(typed), True
    if is_untouched_sample(deps, outcome.editor):
        st.warning(t(lang, "sample_hand"))
        if not st.checkbox(t(lang, "sample_hand_use"), key=f"{SETTLE_PREFIX}{tag}-sample-ok"):
            return from_hand, False
    if result is None or not result.valid:
        problem = outcome.evaluation.problem
        if result is not None:
            reason = reason_text(lang, result)
        else:
            reason = problem_text(problem, lang) if problem is not None else ""
        st.warning(t(lang, "winner_hand_invalid", reason=reason))
    elif outcome.editor.seat_wind != winner:
        st.info(
            t(
                lang,
                "hand_seat_differs",
                hand=wind_name(lang, outcome.editor.seat_wind),
                winner=wind_name(lang, winner),
            )
        )
    return from_hand, True


def loser_score(
    deps: AppDeps, lang: str, tag: str, seat: str, name: str, outcome: HandOutcome, counted: CountedPhotos
) -> tuple[int, bool]:
    """One loser's box: the dead-hand switch, then the score typed or counted from their hand. A dead hand
    counts 0, so its score is shown but cannot be changed (what was entered stays for when it is unticked)."""
    with st.container(border=True):
        st.markdown(f"**{seat_title(lang, seat, name)}**")
        dead = st.checkbox(t(lang, "dead_hand"), key=f"{SETTLE_PREFIX}{tag}-dead-{seat}")
        mode = choice(
            st.radio,
            t(lang, "loser_score"),
            ("typed", "hand"),
            state=settle_state(tag),
            field=f"mode-{seat}",
            key=f"{SETTLE_PREFIX}{tag}-mode-{seat}",
            labels=labels_token(lang),
            format_func=lambda m: t(lang, "typed") if m == "typed" else t(lang, "scored_from_hand"),
            horizontal=True,
            disabled=dead,
        )
        if mode == "typed":
            score = int(
                st.number_input(
                    t(lang, "loser_score"),
                    min_value=0,
                    step=2,
                    key=f"{SETTLE_PREFIX}{tag}-score-{seat}",
                    disabled=dead,
                )
            )
        elif dead:
            score = 0  # the hand typed for this seat is kept in its editor until the box is unticked
        else:
            score = loser_from_hand(deps, lang, tag, seat, name, outcome, counted)
        if dead:
            st.caption(t(lang, "dead_counts_zero"))
    return (0 if dead else score), dead


def settlement_frame(settlement: Settlement, lang: str) -> pd.DataFrame:
    """The settlement table: wind, player, score, change (+ receives, − pays)."""
    rows = settlement.rows()
    return pd.DataFrame(
        {
            t(lang, "col_seat"): [
                wind_name(lang, str(r["seat"])) + (f" ({t(lang, 'winner').lower()})" if r["winner"] else "")
                for r in rows
            ],
            t(lang, "col_name"): [r["name"] for r in rows],
            t(lang, "col_score"): [r["score"] for r in rows],
            t(lang, "col_change"): [r["change"] for r in rows],
        }
    )


def record_buttons(
    deps: AppDeps,
    lang: str,
    evening: Evening,
    outcome: HandOutcome,
    settlement: Settlement,
    names: dict[str, str],
    usable: bool,
) -> None:
    """Save the game; a draw or a winner with 0 points is asked first ("Ja" saves, "Nee" changes nothing)."""
    tag = game_tag(evening)
    number = len(evening.games) + 1
    winner = settlement.winner
    args = (
        deps,
        evening.id,
        outcome.editor.prevailing_wind,
        None if winner is None else names[winner],
        {s.name: s.score for s in settlement.seats},
        [s.name for s in settlement.seats if s.dead],
        number,
        editor_key(outcome.editor),
        winner is not None
        and settle_state(tag).get("source", "hand") == "hand"
        and outcome.evaluation.result is not None
        and outcome.evaluation.result.valid,
    )
    if winner is None:
        what, question, yes = "draw", "draw_ask", "draw_yes"
        label = t(lang, "record_draw_game", number=number)
    else:
        what, question, yes = "record", "record_invalid_ask", "record_invalid_yes"
        label = t(lang, "record_game", number=number)
    needs_yes = winner is None or not any(s.seat == winner and s.score > 0 for s in settlement.seats)
    if not needs_yes:
        st.button(
            label, type="primary", key="record_game", on_click=save_game, args=args, disabled=not usable
        )
        return
    st.button(label, type="primary", key="record_game", on_click=ask, args=(what, tag), disabled=not usable)
    if asked(what, tag) and usable:
        confirm_buttons(
            lang, t(lang, question, number=number), t(lang, yes, number=number), "record", save_game, args
        )


def render_settle_tab(deps: AppDeps, lang: str, evening: Evening | None, outcome: HandOutcome) -> None:
    """The whole Afrekenen tab."""
    st.caption(t(lang, "settle_intro"))
    if evening is not None:
        st.markdown(t(lang, "settle_evening", name=evening.name, number=len(evening.games) + 1))
    tag = game_tag(evening)
    names = seat_names(lang, evening)
    state = settle_state(tag)
    if state.get("hand_seat") != outcome.editor.seat_wind:  # the winner follows the Hand tab's seat wind
        state["hand_seat"] = state["winner"] = outcome.editor.seat_wind
    winner_choice = choice(
        st.radio,
        t(lang, "winner"),
        (*WINDS, DRAW),
        state=state,
        field="winner",
        key=f"{SETTLE_PREFIX}{tag}-winner",
        labels=labels_token(lang, sorted(names.items())),
        format_func=lambda s: t(lang, "draw") if s == DRAW else seat_title(lang, s, names[s]),
        horizontal=True,
    )
    winner = None if winner_choice == DRAW else winner_choice
    seats: list[SeatScore] = []
    counted: CountedPhotos = {}  # losers' hands counted from photos: what saving the game teaches the set
    usable = True
    if winner is None:
        st.info(t(lang, "draw_nothing"))
        seats = [SeatScore(seat, names[seat], 0) for seat in WINDS]
    else:
        score, usable = winner_score(deps, lang, tag, winner, outcome)
        seats.append(SeatScore(winner, names[winner], score))
        for seat in WINDS:
            if seat != winner:
                score, dead = loser_score(deps, lang, tag, seat, names[seat], outcome, counted)
                seats.append(SeatScore(seat, names[seat], score, dead))
    keep_loser_photos(tag, counted)
    st.subheader(t(lang, "settlement"))
    try:
        settlement = settle_game(seats, winner)
    except InputError as exc:
        st.error(t(lang, "settle_error", message=error_text(lang, exc)))
        return
    st.table(settlement_frame(settlement, lang), hide_index=True)
    if settlement.balance == 0:
        st.success(t(lang, "balance_ok", balance=settlement.balance))
    else:
        st.error(t(lang, "balance_bad", balance=settlement.balance))
    if evening is None:
        st.caption(t(lang, "no_evening_to_record"))
        return
    record_buttons(deps, lang, evening, outcome, settlement, names, usable)
