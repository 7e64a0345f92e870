"""Saving a game from the page (Afrekenen's button, Avond's draw) and what follows: the game stored as the
number the button showed, said in the page, and the next game started fresh. The settle inputs are keyed
per game (a browser keeps a widget's value while its key comes back, so a dead hand ticked for Noord would
otherwise stay ticked for the next player at Noord), the winner's hand is emptied, confirmations withdrawn.
The game's hands counted from their photos also teach the club's tile set, so an unfamiliar set reads
better as the evening goes on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

import streamlit as st

from mahjong_nts.app.deps import AppDeps
from mahjong_nts.app.i18n import STRINGS, t, wind_name
from mahjong_nts.app.photo import photo_key, typed_over_photo
from mahjong_nts.app.scoreboard import Evening
from mahjong_nts.app.state import HandEditor
from mahjong_nts.app.tile_set import AUTO_LEARN, TileSetError, tiles_to_learn
from mahjong_nts.messages import one_line
from mahjong_nts.reading.tiles import TileRead
from scoring import WINDS, InputError, describe

SETTLE_PREFIX = "settle-"  # every Afrekenen widget key starts so; a saved game clears them (fresh_game)
LOSER_PREFIX = "loser-"
CONFIRM = "confirm"  # session key: (what, game tag) of the save that waits for a yes
PHOTO_ROUND = "photo_round"  # session key: games saved in this session; the photo widgets' keys carry it
PHOTO_NOW = "photo_now"  # session key: {photo key: (bytes, tiles read)} of the photo the Hand tab reads now
LOSER_PHOTOS = "loser_photos"  # session key: (game tag, CountedPhotos) of the Afrekenen tab now

CountedPhotos = dict[str, tuple[bytes, Sequence[TileRead], HandEditor]]
"""Losers' hands counted from a photo, by seat: the photo, the tiles read on it, the hand as left."""


def photo_widget_key(name: str) -> str:
    """The key of the photo widget `name` ("photo_upload", "photo_camera") for this game: a saved game gives
    new keys, so the browser drops the last game's photo (a widget keeps its file while its key comes back,
    and Streamlit lets no script clear an uploader)."""
    return f"{name}-{st.session_state.get(PHOTO_ROUND, 0)}"


def error_text(lang: str, exc: BaseException) -> str:
    """A refusal of the scoreboard or the settlement in the page's language (i18n "err_<code>"), else the
    scorer's wording (`scoring.describe`), else the one line of the error."""
    code = getattr(exc, "code", None)
    if isinstance(exc, InputError) and code and f"err_{code}" in STRINGS:
        params = {k: wind_name(lang, v) if k == "wind" and v in WINDS else v for k, v in exc.params.items()}
        return t(lang, f"err_{code}", **params)
    return describe(exc, lang) if isinstance(exc, InputError) else one_line(exc)


def game_tag(evening: Evening | None) -> str:
    """The game the settle inputs belong to: the evening's next game ("3-5"), or "free" without an evening."""
    return tag_of(evening.id, len(evening.games) + 1) if evening is not None else "free"


def tag_of(evening_id: int, number: int) -> str:
    """The tag of game `number` of an evening: "<evening>-<number>"."""
    return f"{evening_id}-{number}"


def ask(what: str, tag: str) -> None:
    """Callback: the save `what` ("record", "draw", "undo") of game `tag` waits for a yes."""
    st.session_state[CONFIRM] = (what, tag)


def asked(what: str, tag: str) -> bool:
    """Whether the save `what` of game `tag` waits for a yes."""
    return st.session_state.get(CONFIRM) == (what, tag)


def withdraw() -> None:
    """Callback of "Nee": nothing is saved, nothing the player entered is touched."""
    st.session_state.pop(CONFIRM, None)


def editor_key(editor: HandEditor) -> str | None:
    """The key (photo hash, or "typed") the Hand tab keeps this editor under; None when it is not there."""
    editors: Mapping[str, HandEditor] = st.session_state.get("editors", {})
    return next((key for key, kept in editors.items() if kept is editor), None)


@cache
def sample_keys(samples: tuple[Path, ...]) -> frozenset[str]:
    """The photo keys of the bundled sample photos (read once per process)."""
    keys = set()
    for path in samples:
        try:
            keys.add(photo_key(path.read_bytes()))
        except OSError:
            continue
    return frozenset(keys)


def keep_photo(key: str, data: bytes, read: Sequence[TileRead]) -> None:
    """Hold the photo the Hand tab reads now (that one only: its bytes and the tiles read on it), for
    `learn_saved_hand`."""
    st.session_state[PHOTO_NOW] = {key: (data, tuple(read))}


def learn_saved_hand(deps: AppDeps, hand: str | None) -> int:
    """Teach the club's tile set the tiles of the winner's hand just saved from the Hand tab's photo `hand`
    (its key): only a photo of this game (not a bundled sample), its tiles corrected one by one rather than
    typed over, and while the panel's switch is on. The number of tiles new to the set; 0 when nothing was
    learnt (a problem with the set is not the saved game's: it is left to the panel to say)."""
    editors: Mapping[str, HandEditor] = st.session_state.get("editors", {})
    kept = st.session_state.get(PHOTO_NOW, {}).get(hand) if hand is not None else None
    editor = editors.get(hand) if hand is not None else None
    if kept is None or editor is None or hand in sample_keys(deps.samples):
        return 0
    return learn_hand(deps, kept[0], kept[1], editor)


def keep_loser_photos(tag: str, counted: CountedPhotos) -> None:
    """Hold, for game `tag`, the losers' hands the Afrekenen tab counts from a photo now (seat -> the photo,
    the tiles read on it, the hand as the player left it), for `learn_loser_hands`."""
    st.session_state[LOSER_PHOTOS] = (tag, dict(counted))


def learn_loser_hands(deps: AppDeps, tag: str) -> int:
    """Teach the club's set the losers' hands of game `tag` that were counted from their photos (as
    `learn_hand` does); the number of tiles new to the set."""
    held_tag, counted = st.session_state.get(LOSER_PHOTOS, ("", {}))
    if held_tag != tag:
        return 0
    return sum(learn_hand(deps, photo, read, editor) for photo, read, editor in counted.values())


def learn_hand(deps: AppDeps, photo: bytes, read: Sequence[TileRead], editor: HandEditor) -> int:
    """Add a saved hand's photo tiles, as the player left them, to the club's set: not when the tiles were
    typed over the photo (codes then fall on other tiles' boxes) and not while the panel's switch is off.
    The number of tiles new to the set; 0 when nothing was learnt (a problem with the set is not the
    saved game's: it is left to the panel to say)."""
    if deps.tile_set is None or not st.session_state.get(AUTO_LEARN, True) or typed_over_photo(editor.tiles):
        return 0
    try:
        return deps.tile_set.learn(photo, tiles_to_learn(read, editor.tiles, editor.bonus))
    except TileSetError:
        return 0


def is_untouched_sample(deps: AppDeps, editor: HandEditor) -> bool:
    """The hand is a sample photo's, as read and not changed: a demonstration, not a hand of this game (an
    emptied one, after a game was saved, is no hand at all)."""
    read = bool(editor.tiles or editor.bonus)
    return read and editor.version == 0 and editor_key(editor) in sample_keys(deps.samples)


def save_game(
    deps: AppDeps,
    evening_id: int,
    prevailing: str,
    winner: str | None,
    scores: Mapping[str, int],
    dead: Sequence[str],
    number: int,
    hand: str | None = None,
    learn: bool = False,
) -> None:
    """Callback: store game `number` (winner None: a draw), say so, and start the next game fresh; the Hand
    tab's editor `hand` (its key) is emptied when it was the winner's. With `learn` (the winner's score came
    from that photo's valid hand) its tiles then teach the club's set (`learn_saved_hand`), as do the
    losers' hands counted from their photos (`learn_loser_hands`). On an error nothing is cleared."""
    st.session_state.pop(CONFIRM, None)
    try:
        game = deps.store.add_game(evening_id, prevailing, winner, scores, dead, expected_number=number)
    except (InputError, OSError) as exc:
        message = error_text(st.session_state.get("lang", "nl"), exc)
        st.session_state["flash"] = ("error", "settle_error", {"message": message})
        return
    learnt = learn_saved_hand(deps, hand) if learn else 0
    if winner is not None:
        learnt += learn_loser_hands(deps, tag_of(evening_id, number))
    if learnt:
        st.session_state["flash"] = ("success", "recorded_learnt", {"number": game.number, "count": learnt})
    else:
        st.session_state["flash"] = ("success", "recorded", {"number": game.number})
    fresh_game(hand)


def fresh_game(hand: str | None) -> None:
    """The next game's inputs: no settle choices, no loser hands, an empty winner's hand, no photo."""
    st.session_state[PHOTO_ROUND] = st.session_state.get(PHOTO_ROUND, 0) + 1
    for key in [k for k in st.session_state if str(k).startswith((SETTLE_PREFIX, LOSER_PREFIX))]:
        del st.session_state[key]
    st.session_state["settle"] = {}
    st.session_state["loser_editors"] = {}
    editors: dict[str, HandEditor] = st.session_state.get("editors", {})
    if hand is not None and hand in editors:
        editors[hand] = HandEditor()  # the photo still shows; its tiles are the saved game's, not the next
        for key in [k for k in st.session_state if str(k).startswith(f"hand-{hand}")]:
            del st.session_state[key]
