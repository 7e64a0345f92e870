"""Who gets in: served to the phones on the local network (`dev.py app --lan`), the app asks every new
browser session for the evening's PIN before it shows or changes anything. On this computer only (the
default) no PIN is set and nothing is asked. See docs/SERVING.md."""

from __future__ import annotations

import hashlib
import hmac
import os
import threading
import time

import streamlit as st

from mahjong_nts.app.serving import PIN_ENV

WRONG_PIN_DELAY = 1.0
"""Seconds every wrong PIN costs, one guess at a time for the whole server: a six-digit PIN then takes
days to guess, not minutes."""

_PASSED = "access-pin-passed"
_guessing = threading.Lock()


def required_pin() -> str | None:
    """The PIN this server asks for, or None."""
    pin = os.environ.get(PIN_ENV, "").strip()
    return pin or None


def _token(pin: str) -> str:
    """What a session keeps once it gave the PIN (not the PIN; a new PIN logs every session out)."""
    return hashlib.sha256(f"mahjong-nts:{pin}".encode()).hexdigest()


def pin_gate() -> bool:
    """True when this session may use the app; otherwise shows only the PIN form and returns False, and
    the caller stops drawing the page."""
    pin = required_pin()
    if pin is None or st.session_state.get(_PASSED) == _token(pin):
        return True
    st.title("Mahjong-score (NTS)")
    with st.form("pin-gate"):
        entered = st.text_input("PIN van de avond / PIN of the evening", type="password", key="pin-entered")
        submitted = st.form_submit_button("Verder / Continue")
    if submitted:
        if hmac.compare_digest(entered.strip().encode(), pin.encode()):
            st.session_state[_PASSED] = _token(pin)
            st.rerun()
        with _guessing:  # one wrong guess at a time, each paid for
            time.sleep(WRONG_PIN_DELAY)
        st.error("Verkeerde PIN / Wrong PIN")
    return False
