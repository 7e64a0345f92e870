"""The panel under the photo where the players teach the app their own tile set: what it knows, a button
that remembers the checked tiles of this photo, and the set's file to download, load or forget
(`mahjong_nts.app.tile_set` keeps it)."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from mahjong_nts.app.i18n import t
from mahjong_nts.app.tile_set import (
    AUTO_LEARN,
    BACKUP_SUFFIX,
    TileSetError,
    TileSetMemory,
    row_counts,
    tiles_to_learn,
    whole_set,
)
from mahjong_nts.reading.tiles import TileRead

UPLOADS = "tile_set_uploads"  # session key: uploads handled, so the uploader starts empty again
NEAR_WHOLE = (30, 54)
"""Tiles read on a photo that is likely the whole set laid out but not read whole: the panel then says
how many were found in each row, so the player knows what to retake."""


def _flash(kind: str, key: str, **params: object) -> None:
    st.session_state["flash"] = (kind, key, params)


def _learn(memory: TileSetMemory, photo: bytes, tiles: Sequence[TileRead]) -> None:
    if not tiles:
        _flash("warning", "tile_set_nothing")
        return
    try:
        count = memory.learn(photo, tiles)
    except TileSetError as problem:
        _flash("error", problem.key, message=problem.detail)
        return
    if count:
        _flash("success", "tile_set_learnt", count=count)
    else:
        _flash("info", "tile_set_known")


def _load(memory: TileSetMemory, widget: str) -> None:
    uploaded = st.session_state.get(widget)
    st.session_state[UPLOADS] = st.session_state.get(UPLOADS, 0) + 1
    if uploaded is None:
        return
    try:
        status = memory.replace_with(uploaded.getvalue())
    except TileSetError as problem:
        _flash("error", problem.key, message=problem.detail)
        return
    _flash("success", "tile_set_loaded", examples=status.examples)


def _forget(memory: TileSetMemory) -> None:
    try:
        memory.forget()
    except OSError as problem:
        _flash("error", "tile_set_failed", message=problem.strerror or str(problem))
        return
    _flash("info", "tile_set_forgotten", path=memory.path.name + BACKUP_SUFFIX)


def status_lines(memory: TileSetMemory, lang: str) -> list[str]:
    """What the app knows of the set, in words."""
    status = memory.status()
    if not status.examples:
        return [t(lang, "tile_set_empty")]
    lines = [t(lang, "tile_set_status", examples=status.examples, codes=status.codes)]
    if status.in_use:
        lines.append(t(lang, "tile_set_in_use"))
        if status.unfamiliar:
            lines.append(t(lang, "tile_set_unfamiliar"))
    elif status.ready:
        lines.append(t(lang, "tile_set_not_needed"))
    else:
        lines.append(t(lang, "tile_set_more", needed=status.needed))
    return lines


def tile_set_panel(
    memory: TileSetMemory | None,
    photo: bytes | None,
    reading_tiles: Sequence[TileRead],
    tiles: Sequence[TileRead],
    bonus: Sequence[str],
    lang: str,
    prefix: str,
) -> None:
    """The panel; `reading_tiles` as read from `photo`, `tiles` and `bonus` as the player left them."""
    if memory is None:
        return
    with st.expander(t(lang, "tile_set"), expanded=False):
        st.caption(t(lang, "tile_set_help"))
        if memory.load_error:
            st.warning(t(lang, memory.load_error, message=""))
        st.write(" ".join(status_lines(memory, lang)))
        whole = whole_set(reading_tiles) if photo is not None else None
        if photo is not None and whole is not None:
            st.caption(t(lang, "tile_set_whole_help"))
            st.button(
                t(lang, "tile_set_whole"),
                key=f"{prefix}-tile-set-whole",
                on_click=_learn,
                args=(memory, photo, whole),
            )
        elif photo is not None and NEAR_WHOLE[0] <= len(reading_tiles) <= NEAR_WHOLE[1]:
            rows = ", ".join(map(str, row_counts(reading_tiles)))
            st.caption(t(lang, "tile_set_whole_short", found=len(reading_tiles), rows=rows))
        learnable = tiles_to_learn(reading_tiles, tiles, bonus)
        if photo is not None and learnable:
            st.caption(t(lang, "tile_set_check_first"))
            st.button(
                t(lang, "tile_set_learn"),
                key=f"{prefix}-tile-set-learn",
                on_click=_learn,
                args=(memory, photo, learnable),
            )
        st.checkbox(t(lang, "tile_set_auto"), value=True, key=AUTO_LEARN)
        exported = memory.export()
        if exported is not None:
            st.download_button(
                t(lang, "tile_set_download"),
                exported,
                file_name="mahjong-nts-set.json",
                mime="application/json",
                key="tile_set_download",
                on_click="ignore",
            )
        widget = f"tile_set_upload-{st.session_state.get(UPLOADS, 0)}"
        st.file_uploader(
            t(lang, "tile_set_upload"), type=["json"], key=widget, on_change=_load, args=(memory, widget)
        )
        if exported is not None:
            st.button(t(lang, "tile_set_forget"), key="tile_set_forget", on_click=_forget, args=(memory,))
