"""The page: language switch, then the tabs Hand, Afrekenen and Avond. All UI sits under main(deps).

The tabs track which one is open (a keyed st.tabs), so a button in Afrekenen or Avond leaves the player
where they were; every tab is still drawn on every run, so nothing typed in a hidden tab is lost."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import Any

import streamlit as st

from mahjong_nts.app.access import pin_gate
from mahjong_nts.app.deps import AppDeps
from mahjong_nts.app.i18n import LANGUAGES, t
from mahjong_nts.app.panels import HandOutcome, set_game
from mahjong_nts.app.recording import editor_key
from mahjong_nts.app.scoreboard import Evening
from mahjong_nts.app.settle import names_by_seat
from mahjong_nts.app.views.evening import NEW_EVENING, render_evening_tab
from mahjong_nts.app.views.hand import render_hand_tab
from mahjong_nts.app.views.settle import render_settle_tab
from mahjong_nts.messages import one_line
from scoring import InputError
from scoring.rulesets import DEFAULT_RULESET

log = logging.getLogger("mahjong_nts.app")
LANGUAGE_NAMES = {"nl": "Nederlands", "en": "English"}


def init_state(deps: AppDeps) -> None:
    """Defaults of the page-wide state: language, the game's winds and ruleset, the open evening (newest)."""
    st.session_state.setdefault("lang", "nl")
    st.session_state.setdefault("game", {"prevailing_wind": "E", "ruleset": DEFAULT_RULESET})
    if "evening_choice" not in st.session_state:
        try:
            evenings = deps.store.evenings()
        except (OSError, sqlite3.Error):  # reported where the evening is opened; the hand still scores
            evenings = []
        st.session_state["evening_choice"] = evenings[0].id if evenings else NEW_EVENING


def open_evening(deps: AppDeps) -> Evening | None:
    """The evening chosen in the Avond tab; its ruleset (and the prevailing wind, where the ruleset's
    schedule fixes it) rules the game."""
    choice = st.session_state.get("evening_choice", NEW_EVENING)
    evening = deps.store.evening(choice) if choice != NEW_EVENING else None
    if evening is None:
        return None
    try:
        fixed = evening.fixed_prevailing_wind()
    except InputError:  # a session with a fixed schedule is complete
        fixed = None
    set_game(ruleset=evening.ruleset, prevailing_wind=fixed)
    return evening


VIEWS: tuple[str, ...] = ("hand", "settle", "evening")
VIEW = "view"  # session key: the open tab, by its name above (labels change with the language)


def show_flash() -> None:
    """The message a callback left for this run (a game recorded, undone, or an error): in the page and as a
    toast, which shows wherever the player has scrolled to."""
    flash = st.session_state.pop("flash", None)
    if flash:
        kind, key, params = flash
        text = t(st.session_state["lang"], key, **params)
        getattr(st, kind)(text)
        st.toast(text)


def view_tabs(lang: str) -> dict[str, Any]:
    """The three tabs, the one the player had open still open (kept across reruns and a language switch)."""
    labels = {view: t(lang, f"tab_{view}") for view in VIEWS}
    current = st.session_state.get(VIEW, VIEWS[0])
    key = f"{VIEW}-{lang}"  # the labels' language in the key: another language opens the same view
    if key not in st.session_state and current in labels:
        st.session_state[key] = labels[current]
    tabs = st.tabs(list(labels.values()), key=key, on_change="rerun")
    opened = [view for view, tab in zip(VIEWS, tabs, strict=True) if tab.open]
    st.session_state[VIEW] = opened[0] if opened else current
    return dict(zip(VIEWS, tabs, strict=True))


def guarded(lang: str, render: Callable[[], object]) -> object:
    """Run one tab; an unexpected error becomes one line in the page (details in the log), no traceback."""
    try:
        return render()
    except Exception as exc:
        log.exception("app error")
        st.error(t(lang, "unexpected_error", message=one_line(exc)))
        return None


def main(deps: AppDeps) -> None:
    """The whole app."""
    st.set_page_config(page_title="Mahjong-score (NTS)", page_icon="🀄", layout="wide")
    if not pin_gate():  # served on the local network: nothing is shown or changed before the PIN
        return
    init_state(deps)
    title, language = st.columns([5, 1])
    with language:
        st.radio(
            t(st.session_state["lang"], "language"),
            LANGUAGES,
            format_func=LANGUAGE_NAMES.__getitem__,
            horizontal=True,
            key="lang",
            label_visibility="collapsed",
        )
    lang = st.session_state["lang"]
    with title:
        st.title(t(lang, "title"))
        st.caption(t(lang, "subtitle"))
    try:
        evening = open_evening(deps)
    except Exception as exc:  # the SQLite file is unreadable: the hand still scores
        st.error(t(lang, "store_error", message=one_line(exc)))
        evening = None
    with st.container():  # always there, so the tabs below keep their place in the page
        show_flash()
    tabs = view_tabs(lang)
    hand_tab, settle_tab, evening_tab = tabs["hand"], tabs["settle"], tabs["evening"]
    seats = names_by_seat(evening.next_seats()) if evening is not None else {}
    with hand_tab:
        outcome = guarded(
            lang, lambda: render_hand_tab(deps, lang, seats, locked_ruleset=evening is not None)
        )
    with settle_tab:
        if isinstance(outcome, HandOutcome):
            guarded(lang, lambda: render_settle_tab(deps, lang, evening, outcome))
    hand = editor_key(outcome.editor) if isinstance(outcome, HandOutcome) else None
    with evening_tab:
        guarded(lang, lambda: render_evening_tab(deps, lang, evening, hand))
