"""The "Avond" tab: start an evening, see the standing and the games in order, throw the prevailing wind,
record a draw, undo the last game, export to CSV (plain, and for Dutch Excel). Everything lives in the
SQLite store. A draw and an undo each ask first."""

from __future__ import annotations

import sqlite3
from typing import Any

import pandas as pd
import streamlit as st

from mahjong_nts.app.deps import AppDeps
from mahjong_nts.app.i18n import t, wind_name
from mahjong_nts.app.panels import confirm_buttons, set_game
from mahjong_nts.app.recording import ask, asked, error_text, fresh_game, game_tag, save_game, withdraw
from mahjong_nts.app.scoreboard import Evening, evening_csv, evening_csv_nl
from mahjong_nts.app.widgets import choice, labels_token
from mahjong_nts.messages import one_line
from scoring import WINDS, InputError, get_ruleset, ruleset_names, ruleset_title
from scoring.rulesets import DEFAULT_RULESET
from scoring.session import wind_for_dice

NEW_EVENING = 0
TABLE_NAMES = "table_names"  # seat -> name typed in Afrekenen before an evening was started


def create_evening(deps: AppDeps, lang: str) -> None:
    """Callback of the new-evening form: seats in the order typed, or shared out by the dice."""
    names = [str(st.session_state.get(f"new-player-{n}", "")).strip() for n in range(4)]
    if st.session_state.get("new-draw-seats"):
        deps.rng.shuffle(names)
    try:
        evening = deps.store.create_evening(
            str(st.session_state.get("new-name", "")),
            dict(zip(names, WINDS, strict=True)),
            str(st.session_state.get(f"new-ruleset-{lang}", DEFAULT_RULESET)),
        )
    except (InputError, OSError) as exc:
        message = error_text(lang, exc)
        st.session_state["flash"] = ("error", "evening_error", {"message": message})
        return
    st.session_state["evening_choice"] = evening.id


def throw_dice(deps: AppDeps, number: int) -> None:
    """Callback: two dice, counted from East round the table, give the prevailing wind of the next game."""
    a, b = deps.rng.randint(1, 6), deps.rng.randint(1, 6)
    wind = wind_for_dice(a + b)
    set_game(prevailing_wind=wind)
    st.session_state["last_throw"] = (number, a, b, wind)


def undo_last(deps: AppDeps, evening_id: int, number: int | None = None) -> None:
    """Callback: remove the last game (only if it is still game `number`, the one the button named); the
    inputs typed meanwhile for the next game, at seats that no longer hold, go with it."""
    withdraw()
    game = deps.store.undo_last_game(evening_id, number)
    if game is not None:
        st.session_state["flash"] = ("info", "undone", {"number": game.number})
        fresh_game(None)


def new_evening_form(deps: AppDeps, lang: str) -> None:
    """Names of the four players (first = Oost), the ruleset, and whether the dice share out the winds."""
    typed: dict[str, str] = st.session_state.get(TABLE_NAMES, {})
    for n, seat in enumerate(WINDS):  # names typed in Afrekenen are not asked again
        if typed.get(seat) and not st.session_state.get(f"new-player-{n}"):
            st.session_state[f"new-player-{n}"] = typed[seat]
    with st.form("new-evening"):
        st.text_input(t(lang, "evening_name"), key="new-name")
        st.caption(t(lang, "players_in_order"))
        if any(typed.get(seat) for seat in WINDS):
            st.caption(t(lang, "names_from_settle"))
        columns = st.columns(4)
        for n, (column, seat) in enumerate(zip(columns, WINDS, strict=True)):
            with column:
                st.text_input(
                    f"{t(lang, 'player_n', n=n + 1)} ({wind_name(lang, seat)})", key=f"new-player-{n}"
                )
        st.checkbox(t(lang, "draw_seats"), key="new-draw-seats")
        st.radio(
            t(lang, "ruleset"),
            ruleset_names(),
            format_func=lambda r: ruleset_title(r, lang),
            horizontal=True,
            key=f"new-ruleset-{lang}",
        )
        st.form_submit_button(
            t(lang, "start_evening"), type="primary", on_click=create_evening, args=(deps, lang)
        )


def games_frame(evening: Evening, lang: str) -> pd.DataFrame:
    """One row per game: number, prevailing wind, winner, and per player their wind, change and total."""
    rows = []
    for game, totals in zip(evening.games, evening.totals(), strict=True):
        row: dict[str, object] = {
            t(lang, "col_game"): game.number,
            t(lang, "col_prevailing"): wind_name(lang, game.prevailing_wind),
            t(lang, "col_winner"): game.winner if game.winner else t(lang, "draw"),
        }
        for player in evening.players:
            dead = f" ({t(lang, 'dead_mark')})" if player in game.dead else ""  # words: no symbol font needed
            change = game.changes[player]
            row[player] = f"{wind_name(lang, game.seats[player])}{dead}: {change:+d} → {totals[player]}"
        rows.append(row)
    return pd.DataFrame(rows)


def next_game_panel(deps: AppDeps, lang: str, evening: Evening, hand: str | None = None) -> None:
    """Who sits where in the next game, its prevailing wind (thrown, or fixed by the ruleset's schedule), a
    draw (asked first; `hand` is the Hand tab's editor key, emptied with the saved game)."""
    number = len(evening.games) + 1
    seats = evening.next_seats()
    by_seat = sorted(seats, key=lambda p: WINDS.index(seats[p]))
    st.markdown(
        t(
            lang,
            "next_game",
            number=number,
            seats=", ".join(f"{wind_name(lang, seats[p])} {p}" for p in by_seat),
        )
    )
    per_wind = get_ruleset(evening.ruleset).games_per_wind
    try:
        fixed = evening.fixed_prevailing_wind()
    except InputError:
        st.success(t(lang, "session_complete", games=(per_wind or 0) * len(WINDS)))
        return
    prevailing = st.session_state["game"]["prevailing_wind"]
    if fixed is not None:
        schedule = t(lang, "wind_fixed", games=per_wind)
        st.markdown(f"{t(lang, 'next_prevailing', wind=wind_name(lang, fixed))} {schedule}")
        prevailing = fixed
    else:
        st.markdown(t(lang, "next_prevailing", wind=wind_name(lang, prevailing)))
        st.button(t(lang, "throw_dice"), key="throw_dice", on_click=throw_dice, args=(deps, number))
        thrown = st.session_state.get("last_throw")
        if thrown and thrown[0] == number:
            _n, a, b, wind = thrown
            st.caption(t(lang, "thrown", a=a, b=b, total=a + b, wind=wind_name(lang, wind)))
    tag = game_tag(evening)
    st.button(t(lang, "record_draw"), key="record_draw", on_click=ask, args=("draw", tag))
    if asked("draw", tag):
        args: tuple[Any, ...] = (deps, evening.id, prevailing, None, {}, [], number, hand)
        question, yes = t(lang, "draw_ask", number=number), t(lang, "draw_yes", number=number)
        confirm_buttons(lang, question, yes, "record_draw", save_game, args)


def undo_panel(deps: AppDeps, lang: str, evening: Evening) -> None:
    """Undo in two steps, so a stray tap removes nothing."""
    if not evening.games:
        return
    tag = game_tag(evening)
    number = evening.games[-1].number
    st.button(t(lang, "undo"), key="undo", on_click=ask, args=("undo", tag))
    if asked("undo", tag):
        question, yes = t(lang, "undo_ask", number=number), t(lang, "undo_confirm", number=number)
        confirm_buttons(lang, question, yes, "undo", undo_last, (deps, evening.id, number))


def render_evening_tab(deps: AppDeps, lang: str, evening: Evening | None, hand: str | None = None) -> None:
    """The whole Avond tab; `hand` is the Hand tab's editor key (a draw saved here empties that hand)."""
    try:
        evenings = {e.id: e for e in deps.store.evenings()}
    except (OSError, sqlite3.Error) as exc:
        st.error(t(lang, "store_error", message=f"{deps.store.path}: {one_line(exc)}"))
        return
    before = st.session_state.get("evening_choice")
    picked = choice(
        st.selectbox,
        t(lang, "choose_evening"),
        [*evenings, NEW_EVENING],
        state=st.session_state,
        field="evening_choice",
        key="evening-picker",
        labels=labels_token(lang),
        format_func=lambda i: evening_label(lang, evenings[i]) if i in evenings else t(lang, "new_evening"),
    )
    if picked != before:
        st.rerun()  # the page above was drawn for the evening open before this pick: draw it for this one
    if evening is None:
        new_evening_form(deps, lang)
    else:
        st.subheader(t(lang, "standing"))
        standing = evening.standing()
        for column, player in zip(st.columns(4), evening.players, strict=True):
            column.metric(player, standing[player])
        next_game_panel(deps, lang, evening, hand)
        st.subheader(t(lang, "games"))
        if evening.games:
            st.table(games_frame(evening, lang), hide_index=True)
        else:
            st.caption(t(lang, "no_games"))
        undo_panel(deps, lang, evening)
        plain, excel = st.columns(2)
        plain.download_button(
            t(lang, "export_csv"),
            evening_csv(evening),
            file_name=f"mahjong-{evening.name}.csv".replace(" ", "-"),
            mime="text/csv",
            key="export_csv",
        )
        excel.download_button(
            t(lang, "export_csv_nl"),
            evening_csv_nl(evening),
            file_name=f"mahjong-{evening.name}-excel.csv".replace(" ", "-"),
            mime="text/csv",
            key="export_csv_nl",
        )
    st.caption(t(lang, "stored_in", path=deps.store.path))


def evening_label(lang: str, evening: Evening) -> str:
    """ "Vrijdag — 2026-11-30": stable while games are added (a changing label would lose the choice)."""
    return t(lang, "evening_label", name=evening.name, date=evening.created_at[:10])
