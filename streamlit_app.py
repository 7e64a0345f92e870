"""Mahjong NTS score app: `streamlit run streamlit_app.py` (or `python3 dev.py app`).

Photograph a Dutch mahjong hand, correct the tiles, see the NTS score, settle the game, keep the evening's
scoreboard. The real dependencies are built once per server process and passed to `main`.
"""

from __future__ import annotations

import streamlit as st

from mahjong_nts.app.deps import AppDeps, real_deps
from mahjong_nts.app.page import main


@st.cache_resource(show_spinner=False)
def app_deps() -> AppDeps:
    """Recognizer, SQLite store ($MAHJONG_NTS_DB or the user's data folder) and sample photos, built once."""
    return real_deps()


main(app_deps())
