"""Choice widgets whose value lives in the app's own state.

The browser keeps a radio's, selectbox's or multiselect's value as the text of its label, so when the labels
change (another language, the next game's player names) Streamlit would lose the selection. These widgets
carry a token of their labels in their key: new labels draw a fresh widget at the value kept in `state`.
When code changes that value (the dice, a new evening), the widget is drawn afresh too.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import streamlit as st

T = TypeVar("T")


class State(Protocol):
    """Where a widget's value lives: a dict, vars() of a dataclass, or st.session_state."""

    def get(self, key: str, /) -> Any: ...

    def __setitem__(self, key: str, value: Any, /) -> None: ...


def labels_token(*parts: object) -> str:
    """A short token of everything the labels depend on."""
    return hashlib.sha1("|".join(map(str, parts)).encode()).hexdigest()[:8]


def choice(
    widget: Callable[..., Any],
    label: str,
    options: Sequence[T],
    *,
    state: State,
    field: str,
    key: str,
    labels: str,
    **kwargs: Any,
) -> T:
    """st.radio or st.selectbox showing `state[field]` (else the first option), written back after the run."""
    current: Any = state.get(field)
    values = list(options)
    index = values.index(current) if current in values else 0
    value: T = widget(label, options, index=index, key=fresh_key(key, labels, current), **kwargs)
    state[field] = value
    remember(key, value)
    return value


def fresh_key(key: str, labels: str, current: Any) -> str:
    """The widget key: the labels' token, and a counter that moves when code changed the value."""
    shown: dict[str, tuple[Any, int]] = st.session_state.setdefault("_shown_values", {})
    last, redraws = shown.get(key, (current, 0))
    if last != current:
        redraws += 1
        shown[key] = (current, redraws)
    return f"{key}-{labels}-{redraws}"


def remember(key: str, value: Any) -> None:
    """What the widget shows now, to notice a later change made by code."""
    shown: dict[str, tuple[Any, int]] = st.session_state["_shown_values"]
    shown[key] = (value, shown.get(key, (value, 0))[1])


def choices(
    label: str,
    options: Sequence[T],
    *,
    state: State,
    field: str,
    key: str,
    labels: str,
    **kwargs: Any,
) -> list[T]:
    """st.multiselect showing `state[field]`, written back after the run."""
    default = [option for option in state.get(field) or () if option in options]
    value = list(
        st.multiselect(
            label,
            options,
            default=default,
            key=fresh_key(key, labels, default),
            select_all=False,  # Streamlit's own "Select all" cannot be translated: left out
            **kwargs,
        )
    )
    state[field] = value
    remember(key, value)
    return value


# Streamlit's own words that its API does not let the app set (the camera's and the uploader's), relabelled
# in CSS for the Dutch page: (selector, ::before or ::after, Dutch). The element's own text is hidden
# (font-size 0) and the Dutch shown in its place; the English page keeps Streamlit's words.
STREAMLIT_WORDS_NL: tuple[tuple[str, str, str], ...] = (
    ('[data-testid="stCameraInputButton"]', "after", "Foto maken"),
    ('[data-testid="stCameraInput"]:has(img) [data-testid="stCameraInputButton"]', "after", "Foto wissen"),
    ('[data-testid="stCameraInputWebcamComponent"] p', "before", "Deze app vraagt om je camera. "),
    ('[data-testid="stCameraInputWebcamComponent"] p a', "after", "Zo geef je toegang."),
    ('[data-testid="stFileUploaderDropzone"] button p', "after", "Kies een foto"),
    ('[data-testid="stFileUploaderDropzoneInstructions"] span', "after", "JPEG, PNG, WebP, HEIC of AVIF"),
)


def streamlit_words_css(lang: str) -> str:
    """A <style> that shows Streamlit's fixed English labels in Dutch ("" for the English page)."""
    if lang != "nl":
        return ""
    rules = []
    for selector, where, dutch in STREAMLIT_WORDS_NL:
        rules.append(f"{selector} {{ font-size: 0 !important; }}")
        rules.append(f'{selector}::{where} {{ content: "{dutch}"; font-size: 0.875rem; }}')
    return "<style>" + "\n".join(rules) + "</style>"
