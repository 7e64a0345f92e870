"""Pieces of the page that more than one tab draws: a hand's notation box, its set switches, what the
reading assumed and the score; the game's rules; recording a game. The tabs (`views/`) use these and never
each other.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from mahjong_nts.app.deps import AppDeps
from mahjong_nts.app.hand import Evaluation, HandProblem, ProposedSet, evaluate
from mahjong_nts.app.i18n import item_name, reason_text, t
from mahjong_nts.app.recording import withdraw
from mahjong_nts.app.state import HandEditor, apply_notation
from mahjong_nts.reading.tiles import BACK
from mahjong_nts.reading.wording import assumption_text
from mahjong_nts.tile_art import hand_html
from mahjong_nts.tile_art import tile_label as picture_name
from scoring import (
    InputError,
    ScoredSet,
    ScoreItem,
    describe,
    format_tiles,
    hand_to_dict,
    parse_tiles,
    tile_name,
)

SUPERSCRIPTS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
# not errors, just not done yet
WAITING_FOR_INPUT = frozenset({"no_tiles", "no_winning_tile", "face_down_left", "one_short", "no_concealed"})
SETTLE_PREFIX = "settle-"


@dataclass(frozen=True)
class HandOutcome:
    """What the Hand tab gives the other tabs: the editor and its evaluation."""

    editor: HandEditor
    evaluation: Evaluation


def tile_label(code: str, lang: str) -> str:
    """How a tile is named in pickers: "7z · Rode draak"; a face-down tile is "▮ · omgekeerde steen"."""
    if code == BACK:
        return f"▮ · {picture_name(BACK, lang)}"
    return f"{code} · {tile_name(code, lang)}"


def tiles_text(tiles: Sequence[str], lang: str) -> str:
    """A set for reading: "444p (4 kring)"."""
    names = dict.fromkeys(tile_name(c, lang) for c in tiles)
    return f"{format_tiles(tiles)} ({', '.join(names)})"


def problem_text(problem: InputError, lang: str) -> str:
    """A problem in the player's language: the app's own words, else the engine's code worded by
    `scoring.describe` (an error the engine gives no code keeps its one line)."""
    if isinstance(problem, HandProblem):
        params = {k: describe(v, lang) if isinstance(v, InputError) else v for k, v in problem.params.items()}
        return t(lang, problem.key, **params)
    return t(lang, "input_error", message=describe(problem, lang))


def show_problem(problem: InputError, lang: str) -> None:
    """A problem as one message in the page: a hint while the hand is unfinished, else an error."""
    waiting = isinstance(problem, HandProblem) and problem.key in WAITING_FOR_INPUT
    (st.info if waiting else st.error)(problem_text(problem, lang))


def notation_box(editor: HandEditor, lang: str, prefix: str, label: str | None = None) -> None:
    """The hand in CONTRACT notation; a valid change replaces the tiles, a bad one says why (text kept)."""
    text = st.text_input(
        label or t(lang, "notation"),
        value=editor.notation,
        key=f"{prefix}-notation-{editor.version}",
        help=t(lang, "notation_help"),
    )
    if text == editor.notation:
        editor.bad_notation = None
        return
    try:
        changed = apply_notation(editor, text)
    except InputError as exc:
        editor.bad_notation = (editor.version, text)  # no score while the box holds no hand
        st.error(t(lang, "notation_error", message=describe(exc, lang)))
        return
    editor.bad_notation = None
    if changed:
        st.rerun()


def reading_notes(evaluation: Evaluation, lang: str) -> None:
    """What the reading of the table assumed (rows, kongs, sets laid apart, winning tile) and how sure."""
    table = [a for a in evaluation.assumed if a.about in ("rows", "melds", "winning_tile", "face_down")]
    if not table:
        return
    lines = [f"- {t(lang, 'assumed_sure', what=assumption_text(a.what, lang), sure=a.sure)}" for a in table]
    st.caption("\n".join([t(lang, "assumed"), *lines]))


def set_game(ruleset: str | None = None, prevailing_wind: str | None = None) -> None:
    """Change the game's ruleset or prevailing wind from code (the dice, the evening's rules)."""
    game = st.session_state["game"]
    if ruleset is not None:
        game["ruleset"] = ruleset
    if prevailing_wind is not None:
        game["prevailing_wind"] = prevailing_wind


def set_switches(editor: HandEditor, evaluation: Evaluation, lang: str, prefix: str) -> bool:
    """An open switch per proposed chow/pung, a concealed switch per kong, and a box for other open sets;
    True when one changed."""
    changed = typed_open_sets(editor, lang, prefix)
    for proposed in evaluation.laid:  # laid apart from the rack: open unless the player says otherwise
        changed = open_switch(editor, proposed, lang, f"{prefix}-laid", "laid_set", True) or changed
    if not evaluation.sets and not evaluation.kongs:
        if evaluation.result is not None:
            st.caption(t(lang, "no_sets"))
        return changed
    st.caption(t(lang, "structure_help"))
    for code in evaluation.kongs:
        tiles_picture([code] * 4, lang)
        concealed = st.toggle(
            t(lang, "concealed_kong", tiles=tiles_text([code] * 4, lang)),
            value=editor.kong_concealed.get(code, False),
            key=f"{prefix}-kong-{code}",
        )
        if concealed != editor.kong_concealed.get(code, False):
            editor.kong_concealed[code] = concealed
            changed = True
    for proposed in evaluation.sets:  # found in the hand: concealed unless the player says it lay open
        changed = open_switch(editor, proposed, lang, f"{prefix}-open", "open_set", False) or changed
    return changed


def open_switch(
    editor: HandEditor, proposed: ProposedSet, lang: str, key: str, text: str, default: bool
) -> bool:
    """A proposed set's pictures and its "open" switch (`default` until the player flips it, then kept in
    the editor); True when it was flipped in this run."""
    tiles_picture(proposed.tiles, lang)
    was = editor.declared_open.get(proposed.id, default)
    label = t(lang, text, kind=t(lang, f"kind_{proposed.kind}"), tiles=tiles_text(proposed.tiles, lang))
    is_open = st.toggle(label, value=was, key=f"{key}-{proposed.id}")
    if is_open == was:
        return False
    editor.declared_open[proposed.id] = is_open
    return True


def confirm_buttons(
    lang: str, question: str, yes: str, key: str, on_yes: Callable[..., None], args: tuple[Any, ...]
) -> None:
    """A save that waits for a yes: the question, "yes" (`key`_confirm, calls `on_yes(*args)`) and "Nee"
    (`key`_no, withdraws the question, nothing saved)."""
    st.warning(question)
    yes_column, no_column = st.columns(2)
    yes_column.button(yes, type="primary", key=f"{key}_confirm", on_click=on_yes, args=args)
    no_column.button(t(lang, "answer_no"), key=f"{key}_no", on_click=withdraw)


def tiles_picture(tiles: Sequence[str], lang: str) -> None:
    """A set's tiles as pictures (inline, the names as alt text)."""
    st.markdown(hand_html(tiles, 32, lang), unsafe_allow_html=True)


def typed_open_sets(editor: HandEditor, lang: str, prefix: str) -> bool:
    """Open sets in notation: taken from the hand's tiles where they lie there, else counted on their own
    beside them (hand.evaluate); True when the text changed."""
    with st.expander(t(lang, "typed_open"), expanded=bool(editor.typed_open)):
        typed = st.text_input(
            t(lang, "typed_open"),
            value=editor.typed_open,
            key=f"{prefix}-typedopen",
            help=t(lang, "typed_open_help"),
        )
    if typed == editor.typed_open:
        return False
    editor.typed_open = typed
    return True


def score_summary(evaluation: Evaluation, lang: str) -> None:
    """The compact result: valid and the total, or why not (or what the hand still waits on)."""
    if evaluation.problem is not None:
        show_problem(evaluation.problem, lang)
        waits_view(evaluation, lang)
        return
    result = evaluation.result
    if result is None:
        return
    with st.container(horizontal=True, vertical_alignment="center"):
        if not result.valid:
            st.error(t(lang, "invalid", reason=reason_text(lang, result)))
        else:
            st.success(t(lang, "valid", total=result.total))
        st.metric(t(lang, "total"), result.total, width="content")


def waits_view(evaluation: Evaluation, lang: str) -> None:
    """A hand one tile short: each tile that completes it, as a picture, with what it would score."""
    if not evaluation.problem or getattr(evaluation.problem, "key", None) != "one_short":
        return
    if not evaluation.waits:
        st.caption(t(lang, "one_short_none"))
        return
    lines = []
    for wait in evaluation.waits:
        name = f"{hand_html([wait['tile']], 32, lang)} {tile_name(wait['tile'], lang)}"
        if wait.get("valid"):
            lines.append(t(lang, "wait_valid", tile=name, total=wait.get("total")))
        else:
            reason = wait.get("reason_nl") if lang == "nl" else wait.get("reason")
            lines.append(t(lang, "wait_invalid", tile=name, reason=reason or wait.get("reason_code")))
    st.markdown("<br>".join(lines), unsafe_allow_html=True)


def score_view(
    evaluation: Evaluation, lang: str, prefix: str, role: str = "winner", summary_shown: bool = False
) -> None:
    """Valid or not and why, the total, the breakdown with the point card's names, and the sets as counted.

    `summary_shown`: the verdict and total are in the compact result (score_summary) already."""
    for note in evaluation.notes:
        st.info(t(lang, note))
    if evaluation.problem is not None:
        problem = evaluation.problem
        # a notation that is no hand is said under its box (notation_box), not a second time here
        under_the_box = isinstance(problem, HandProblem) and problem.key == "notation_error"
        if not summary_shown and not under_the_box:
            show_problem(problem, lang)
        return
    result = evaluation.result
    if result is None:
        return
    total = result.total
    if not summary_shown:
        if role == "winner" and not result.valid:
            st.error(t(lang, "invalid", reason=reason_text(lang, result)))
        elif role == "winner":
            st.success(t(lang, "valid", total=total))
        st.metric(t(lang, "total"), total)
    limit = result.limit_hand
    if limit:
        st.markdown(t(lang, "limit_hand", name=item_name(lang, limit), value=limit.value))
    if result.items:
        st.table(breakdown_frame(result.items, lang), hide_index=True)
    if not limit and (result.valid or role != "winner"):  # no "32 × 2⁰ = 0" under an invalid hand
        base, doublings = result.base_points, result.doublings
        power = str(doublings).translate(SUPERSCRIPTS)
        formula = t(lang, "formula", base=base, doublings=doublings, power=power, total=total)
        if result.valid and base * 2**doublings > total:
            formula = f"{formula} {t(lang, 'capped')}"
        st.caption(formula)
    if result.sets:
        with st.expander(t(lang, "sets_read")):
            st.table(sets_frame(result.sets, lang), hide_index=True)
    if evaluation.hand is not None:  # the JSON edge: what `score --json` would be given
        with st.expander(t(lang, "score_input")):
            st.json(hand_to_dict(evaluation.hand), expanded=True)


def breakdown_frame(items: Sequence[ScoreItem], lang: str) -> pd.DataFrame:
    """The breakdown table: item (the point card's Dutch name), its tiles, points, doublings."""
    return pd.DataFrame(
        {
            t(lang, "col_item"): [item_name(lang, item) for item in items],
            t(lang, "col_tiles"): [item.tiles or "" for item in items],
            t(lang, "col_points"): [str(item.value) if item.kind == "points" else "" for item in items],
            t(lang, "col_doublings"): [str(item.value) if item.kind == "doublings" else "" for item in items],
        }
    )


def sets_frame(sets: Sequence[ScoredSet], lang: str) -> pd.DataFrame:
    """The sets as the scorer counted them."""
    return pd.DataFrame(
        {
            t(lang, "col_kind"): [t(lang, f"kind_{s.kind}") for s in sets],
            t(lang, "col_set"): [tiles_text(parse_tiles(s.tiles), lang) for s in sets],
            t(lang, "col_open"): [t(lang, "open") if s.open else t(lang, "concealed") for s in sets],
        }
    )


def timed_evaluate(editor: HandEditor, role: str) -> tuple[Evaluation, float]:
    """The scoring step and how long it took in milliseconds."""
    start = time.perf_counter()
    evaluation = evaluate(editor, role)
    return evaluation, (time.perf_counter() - start) * 1000


def record_game(
    deps: AppDeps,
    evening_id: int,
    prevailing: str,
    winner: str | None,
    scores: Mapping[str, int],
    dead: list[str],
    number: int | None = None,
) -> None:
    """Callback: store the game (winner None: a draw) as game `number` (the one the button showed), say so,
    and clear the settle inputs for the next."""
    try:
        game = deps.store.add_game(evening_id, prevailing, winner, scores, dead, expected_number=number)
    except (InputError, OSError) as exc:
        st.session_state["flash"] = ("error", "settle_error", {"message": str(exc)})
        return
    st.session_state["flash"] = ("success", "recorded", {"number": game.number})
    for key in [k for k in st.session_state if str(k).startswith(SETTLE_PREFIX)]:
        del st.session_state[key]
    st.session_state["settle"] = {}
    st.session_state["loser_editors"] = {}
