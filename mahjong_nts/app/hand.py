"""Build the scorer's hand from the editor (tiles, declared sets, kongs, context) and score it.

The structure step: the scorer proposes the sets of the hand with everything concealed; the player marks which
of them lay open on the table (and which kongs were concealed); the hand is then scored with those melds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mahjong_nts.app.state import HandEditor
from mahjong_nts.reading.swaps import candidate_swaps
from scoring import InputError, hand_from_dict, parse_tiles, score_hand

WINDS: tuple[str, ...] = ("E", "S", "W", "N")
RULESETS: tuple[str, ...] = ("app", "nts")
WIN_FLAGS: tuple[str, ...] = (
    "last_tile",
    "kong_replacement",
    "kong_on_kong",
    "robbing_kong",
    "heaven",
    "earth",
)
SET_KINDS = ("chow", "pung")  # sets the player may mark open; kongs have their own switch


class HandProblem(InputError):
    """Why the editor's hand cannot be scored yet; `key`/`params` let the page say it in Dutch or English."""

    def __init__(self, key: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


@dataclass(frozen=True)
class ProposedSet:
    """A chow or pung the scorer found in the hand; `id` stays the same while the tiles stay the same."""

    id: str
    kind: str
    tiles: tuple[str, ...]


@dataclass(frozen=True)
class Evaluation:
    """The outcome of one scoring step: what was sent, the result, the sets to toggle, or a problem."""

    hand: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    sets: tuple[ProposedSet, ...] = ()
    kongs: tuple[str, ...] = ()
    problem: InputError | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)  # keys of remarks (e.g. "bonus_ignored_nts")


def tiles_needed(role: str) -> int:
    """Tiles of a hand without kongs: 14 for the winner (winning tile included), 13 for a loser."""
    return 14 if role == "winner" else 13


def choose_kongs(codes: Sequence[str], role: str, prefer: Sequence[str] = ()) -> list[str]:
    """Which four-of-a-kinds are kongs: one per tile over the hand's size (each kong brings one extra tile).

    Kongs made from face-down tiles (`prefer`) come first, then in reading order.
    """
    extra = len(codes) - tiles_needed(role)
    if extra <= 0:
        return []
    counts = Counter(codes)
    fours = [c for c in dict.fromkeys([*prefer, *codes]) if counts[c] >= 4]
    if len(fours) < extra:
        raise HandProblem(
            "too_many_tiles",
            f"{len(codes)} tiles: a hand has {tiles_needed(role)} plus one per kong",
            count=len(codes),
            needed=tiles_needed(role),
        )
    return fours[:extra]


def _take(remaining: list[str], tiles: Sequence[str]) -> bool:
    """Remove `tiles` from `remaining` when all are there; False (and nothing removed) otherwise."""
    need = Counter(tiles)
    have = Counter(remaining)
    if any(have[c] < n for c, n in need.items()):
        return False
    for code in tiles:
        remaining.remove(code)
    return True


def build_hand_dict(
    codes: Sequence[str],
    *,
    bonus: Sequence[str] = (),
    kongs: Mapping[str, bool] | None = None,
    open_sets: Sequence[Sequence[str]] = (),
    role: str = "winner",
    winning_tile: str | None = None,
    self_drawn: bool = False,
    flags: Sequence[str] = (),
    seat_wind: str = "E",
    prevailing_wind: str = "E",
    ruleset: str = "app",
) -> dict[str, Any]:
    """The CONTRACT `score` input: kongs (code -> concealed) and open sets become melds, rest concealed."""
    remaining = list(codes)
    melds: list[dict[str, Any]] = []
    for code, concealed in (kongs or {}).items():
        if not _take(remaining, [code] * 4):
            raise HandProblem("kong_missing", f"a kong of {code} needs four {code}", tile=code)
        melds.append({"tiles": " ".join([code] * 4), "open": not concealed})
    for tiles in open_sets:
        if not _take(remaining, tiles):
            raise HandProblem(
                "set_missing", f"the set {''.join(tiles)} is not in the hand", tiles="".join(tiles)
            )
        melds.append({"tiles": " ".join(tiles), "open": True})
    hand: dict[str, Any] = {
        "ruleset": ruleset,
        "role": role,
        "seat_wind": seat_wind,
        "prevailing_wind": prevailing_wind,
        "concealed": " ".join(remaining),
        "melds": melds,
        "bonus": " ".join(bonus),
        "flags": list(flags),
    }
    if role == "winner":
        if winning_tile is None:
            raise HandProblem("no_winning_tile", "choose the tile that won")
        if winning_tile not in remaining:
            raise HandProblem(
                "winning_tile_open",
                f"the winning tile {winning_tile} must be among the tiles not declared open",
                tile=winning_tile,
            )
        hand["winning_tile"] = winning_tile
        hand["self_drawn"] = self_drawn
    return hand


def parse_open_sets(text: str) -> list[tuple[str, ...]]:
    """Open sets typed by the player, one per word: "123m 555z" (for a split the scorer did not propose)."""
    sets: list[tuple[str, ...]] = []
    for word in text.split():
        tiles = tuple(parse_tiles(word))
        if len(tiles) != 3:
            raise HandProblem("open_set_size", f"open set {word!r} must be three tiles", tiles=word)
        sets.append(tiles)
    return sets


def score_dict(hand: Mapping[str, Any]) -> dict[str, Any]:
    """Score a CONTRACT hand object; InputError (one line) when it is malformed."""
    return score_hand(hand_from_dict(hand)).to_dict()


def proposed_sets(result: Mapping[str, Any]) -> tuple[ProposedSet, ...]:
    """The concealed chows and pungs of a scored hand, each with an id that counts repeats ("pung:444p:1").

    Sets already open are left out: declared melds, and the set a discarded winning tile completed (it must
    stay in the hand).
    """
    seen: Counter[str] = Counter()
    found = []
    for scored in result.get("sets", []):
        if scored.get("kind") not in SET_KINDS or scored.get("open"):
            continue
        tiles = tuple(parse_tiles(scored["tiles"]))
        base = f"{scored['kind']}:{''.join(tiles)}"
        found.append(ProposedSet(f"{base}:{seen[base]}", scored["kind"], tiles))
        seen[base] += 1
    return tuple(found)


def evaluate(editor: HandEditor, role: str = "winner") -> Evaluation:
    """The scoring step for the editor: propose the sets, apply the player's switches, score."""
    notes: list[str] = []
    try:
        if editor.face_down:
            raise HandProblem(
                "face_down_left", f"{editor.face_down} face-down tiles left", count=editor.face_down
            )
        codes = editor.codes
        if not codes:
            raise HandProblem("no_tiles", "no tiles yet")
        kong_codes = choose_kongs(codes, role, prefer=editor.hinted_kongs)
        kongs = {code: editor.kong_concealed.get(code, False) for code in kong_codes}
        bonus = list(editor.bonus)
        if editor.ruleset == "nts" and bonus:
            bonus = []
            notes.append("bonus_ignored_nts")
        winning = editor.winning_tile if editor.winning_tile in codes else (codes[-1] if codes else None)
        context: dict[str, Any] = {
            "bonus": bonus,
            "role": role,
            "winning_tile": winning,
            "self_drawn": editor.self_drawn,
            "flags": editor.flags,
            "seat_wind": editor.seat_wind,
            "prevailing_wind": editor.prevailing_wind,
            "ruleset": editor.ruleset,
        }
        typed = parse_open_sets(editor.typed_open)
        base_hand = build_hand_dict(codes, kongs=kongs, open_sets=typed, **context)
        base = score_dict(base_hand)
        sets = proposed_sets(base)
        declared = [s.tiles for s in sets if editor.declared_open.get(s.id)]
        if not declared:
            return Evaluation(base_hand, base, sets, tuple(kong_codes), notes=tuple(notes))
        hand = build_hand_dict(codes, kongs=kongs, open_sets=[*typed, *declared], **context)
        return Evaluation(hand, score_dict(hand), sets, tuple(kong_codes), notes=tuple(notes))
    except InputError as problem:
        return Evaluation(problem=problem, notes=tuple(notes))


@dataclass(frozen=True)
class Swap:
    """One photographed tile changed to one of the recognizer's alternatives for it."""

    index: int  # place in editor.tiles
    read: str
    to: str


def completing_swaps(editor: HandEditor, role: str = "winner", limit: int = 3) -> list[Swap]:
    """Changes of one tile to one of its alternatives that turn a winner's hand without a mahjong shape
    into a complete hand: the least certain tiles first, then each tile's alternatives in the recognizer's
    order. Tiles the player set or corrected are not second-guessed. Suggestions only: the page offers
    them, the player decides (a misread tile usually has the right code among its alternatives)."""
    if role != "winner":
        return []
    readings = [
        (tile.code, tile.confidence, tile.alternatives)
        if tile.confidence is not None and not tile.corrected
        else None
        for tile in editor.tiles
    ]
    found: list[Swap] = []
    for i, code in candidate_swaps(readings):
        tiles = list(editor.tiles)
        tiles[i] = replace(tiles[i], code=code)
        trial = evaluate(replace(editor, tiles=tiles), role)
        if trial.result is not None and trial.result.get("valid"):
            found.append(Swap(i, editor.tiles[i].code, code))
            if len(found) == limit:
                break
    return found
