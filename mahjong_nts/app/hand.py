"""The hand of the editor: the reading of its tiles (`mahjong_nts.reading`) with the player's switches,
and its score.

The structure step: the reading proposes kongs and the open sets laid apart; the scorer proposes the sets
of the rest, concealed; the player switches which of them lay open on the table (and which kongs were
concealed); the hand is then scored with those melds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from mahjong_nts.app.state import HandEditor, apply_notation
from mahjong_nts.cli.waits import waits_object
from mahjong_nts.reading.hand import NoHand, propose_hand
from mahjong_nts.reading.swaps import candidate_swaps
from mahjong_nts.reading.table import Assumption, ProposedMeld
from scoring import Hand, InputError, ScoreResult, get_ruleset, hand_from_dict, parse_tiles, score_hand

WIN_FLAGS: tuple[str, ...] = (
    "last_tile",
    "kong_replacement",
    "kong_on_kong",
    "robbing_kong",
    "heaven",
    "earth",
)
SET_KINDS = ("chow", "pung")  # sets the player may mark open; kongs have their own switch

__all__ = ["Evaluation", "HandProblem", "ProposedSet", "evaluate"]


class HandProblem(InputError):
    """Why the editor's hand cannot be scored yet; `key`/`params` let the page say it in Dutch or English."""

    def __init__(self, key: str, message: str, /, **params: Any) -> None:
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
    """The outcome of one scoring step: what was sent, the result, the sets to switch, or a problem."""

    hand: Hand | None = None
    result: ScoreResult | None = None
    sets: tuple[ProposedSet, ...] = ()  # concealed chows and pungs the scorer found: may be marked open
    laid: tuple[ProposedSet, ...] = ()  # sets the photo shows laid apart: open unless switched back
    kongs: tuple[str, ...] = ()  # four face-up tiles taken as a kong by the count: open unless switched
    assumed: tuple[Assumption, ...] = ()
    problem: InputError | None = None
    notes: tuple[str, ...] = field(default_factory=tuple)  # keys of remarks (e.g. "bonus_ignored")
    waits: tuple[dict[str, Any], ...] = ()  # one tile short: each tile that completes it, scored


def parse_open_sets(text: str) -> list[tuple[str, ...]]:
    """Open sets typed by the player, one per word: "123m 555z" (for a split the scorer did not propose)."""
    sets: list[tuple[str, ...]] = []
    for word in text.split():
        tiles = tuple(parse_tiles(word))
        if len(tiles) != 3:
            raise HandProblem("open_set_size", f"open set {word!r} must be three tiles", tiles=word)
        sets.append(tiles)
    return sets


def scored(hand: Mapping[str, Any]) -> tuple[Hand, ScoreResult]:
    """The proposed `score` input as a checked Hand and its score; InputError (one line) when malformed."""
    checked = hand_from_dict(hand)
    return checked, score_hand(checked)


def proposed_sets(result: ScoreResult) -> tuple[ProposedSet, ...]:
    """The concealed chows and pungs of a scored hand, each with an id that counts repeats ("pung:444p:1").

    Sets already open are left out: declared melds, and the set a discarded winning tile completed (it must
    stay in the hand).
    """
    seen: Counter[str] = Counter()
    found = []
    for counted in result.sets:
        if counted.kind not in SET_KINDS or counted.open:
            continue
        tiles = tuple(parse_tiles(counted.tiles))
        base = f"{counted.kind}:{''.join(tiles)}"
        found.append(ProposedSet(f"{base}:{seen[base]}", counted.kind, tiles))
        seen[base] += 1
    return tuple(found)


def _set_ids(melds: Sequence[ProposedMeld]) -> list[str]:
    """An id per meld laid apart that stays while its tiles stay ("laid:pung:333p:0")."""
    seen: Counter[str] = Counter()
    ids = []
    for meld in melds:
        kind = "pung" if len(set(meld.tiles)) == 1 else "chow"
        base = f"laid:{kind if len(meld.tiles) == 3 else 'kong'}:{''.join(meld.tiles)}"
        ids.append(f"{base}:{seen[base]}")
        seen[base] += 1
    return ids


def evaluate(editor: HandEditor, role: str = "winner") -> Evaluation:
    """The scoring step for the editor: read its tiles, apply the player's switches, score."""
    notes: list[str] = []
    bonus = list(editor.bonus)
    if bonus and not get_ruleset(editor.ruleset).options.bonus_tiles:
        bonus = []
        notes.append("bonus_ignored")
    given: dict[str, Any] = {
        "role": role,
        "ruleset": editor.ruleset,
        "seat_wind": editor.seat_wind,
        "prevailing_wind": editor.prevailing_wind,
        "flags": list(editor.flags),
        "bonus": bonus,
    }
    if role == "winner":
        given["self_drawn"] = editor.self_drawn
        if editor.winning_tile in editor.codes:
            given["winning_tile"] = editor.winning_tile
    assumed: tuple[Assumption, ...] = ()
    try:
        _check_notation(editor)
        extra = [(list(tiles), True) for tiles in parse_open_sets(editor.typed_open)]
        extra.extend((parse_tiles(tiles), is_open) for tiles, is_open in editor.melds)
        if not editor.tiles and not extra:
            raise HandProblem("no_tiles", "no tiles yet")
        try:
            proposed = propose_hand(editor.tiles, given) if editor.tiles else None
        except NoHand as problem:
            if "face-down" in str(problem):
                raise HandProblem("face_down_left", str(problem), count=editor.face_down) from None
            raise
        assumed = proposed.assumed if proposed is not None else ()
        melds: list[dict[str, Any]] = []
        laid: list[ProposedSet] = []
        kongs: list[str] = []
        read_melds = proposed.reading.melds if proposed is not None else ()
        tapped_kongs = {tiles[0]: is_open for tiles, is_open in extra if len(tiles) == 4}
        for meld, set_id in zip(read_melds, _set_ids(read_melds), strict=True):
            code = meld.tiles[0]
            if meld.shown_by == "face_down":  # face-down tiles show it: concealed
                melds.append({"tiles": meld.text, "open": False})
            elif meld.shown_by == "count":
                kongs.append(code)
                is_open = tapped_kongs.pop(code, not editor.kong_concealed.get(code, False))
                melds.append({"tiles": meld.text, "open": is_open})
            else:
                laid.append(ProposedSet(set_id, set_id.split(":")[1], meld.tiles))
                if editor.declared_open.get(set_id, True):
                    melds.append({"tiles": meld.text, "open": True})
        extra = [(tiles, is_open) for tiles, is_open in extra if len(tiles) != 4 or tiles[0] in tapped_kongs]
        taken, beside = _split_extra(editor.codes, [m["tiles"] for m in melds], extra)
        melds.extend({"tiles": "".join(tiles), "open": is_open} for tiles, is_open in taken)
        own = [{"tiles": "".join(tiles), "open": is_open} for tiles, is_open in beside]

        def with_melds(declared: list[dict[str, Any]]) -> dict[str, Any]:
            hand = propose_hand(editor.tiles, {**given, "melds": [*melds, *declared]}).hand
            return _winning_tile_held({**hand, "melds": [*hand["melds"], *own]})

        base = with_melds([])
        if role == "winner" and not parse_tiles(base["concealed"]):  # the engine would miss a winning tile
            raise HandProblem("no_concealed", "no tiles outside the sets: the winning tile is among them")
        if role == "winner" and _one_short(base):
            found = _waits_of(base)
            if found is not None:
                short = HandProblem("one_short", "one tile short of a mahjong", count=len(found))
                return Evaluation(problem=short, assumed=assumed, notes=tuple(notes), waits=found)
        hand, result = scored(base)
        sets = proposed_sets(result)
        declared = [{"tiles": "".join(s.tiles), "open": True} for s in sets if editor.declared_open.get(s.id)]
        if declared:
            hand, result = scored(with_melds(declared))
        return Evaluation(hand, result, sets, tuple(laid), tuple(kongs), assumed, notes=tuple(notes))
    except InputError as problem:
        return Evaluation(problem=problem, assumed=assumed, notes=tuple(notes))


def _check_notation(editor: HandEditor) -> None:
    """While the notation box holds text that is no hand, that is the problem (the old score must not stay
    on the page, nor be offered to Afrekenen); raises the notation's own error."""
    if editor.bad_notation is None or editor.bad_notation[0] != editor.version:
        return
    try:
        apply_notation(editor.copy(), editor.bad_notation[1])  # on a copy: what the box showed
    except InputError as error:
        raise HandProblem("notation_error", str(error), message=error) from None


def _split_extra(
    codes: Sequence[str], melds: Sequence[str], extra: Sequence[tuple[list[str], bool]]
) -> tuple[list[tuple[list[str], bool]], list[tuple[list[str], bool]]]:
    """The sets typed or tapped in: those whose tiles all lie among the tiles not in a meld yet (taken from
    them), and the others, which count on their own beside the tiles."""
    left = Counter(codes)
    left.subtract(code for tiles in melds for code in parse_tiles(tiles))
    taken, beside = [], []
    for tiles, is_open in extra:
        need = Counter(tiles)
        if all(left[code] >= n for code, n in need.items()):
            left.subtract(need)
            taken.append((tiles, is_open))
        else:
            beside.append((tiles, is_open))
    return taken, beside


def _one_short(hand: Mapping[str, Any]) -> bool:
    """13 tiles counting each meld as three: a winner's hand before its winning tile."""
    return len(parse_tiles(hand["concealed"])) + 3 * len(hand["melds"]) == 13


def _waits_of(hand: Mapping[str, Any]) -> tuple[dict[str, Any], ...] | None:
    """Each tile that completes the hand, with its score (`score --waits`); None when the hand is malformed
    (then scoring it says why)."""
    short = {key: value for key, value in hand.items() if key != "winning_tile"}
    try:
        return tuple(waits_object(short)["waits"])
    except InputError:
        return None


def _winning_tile_held(hand: dict[str, Any]) -> dict[str, Any]:
    """The hand, when its winning tile is among the concealed tiles; HandProblem when a set took it."""
    winning = hand.get("winning_tile")
    if winning is not None and winning not in parse_tiles(hand["concealed"]):
        raise HandProblem(
            "winning_tile_open",
            f"the winning tile {winning} must be among the tiles not declared open",
            tile=winning,
        )
    return hand


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
    found: list[Swap] = []
    for i, code in candidate_swaps(editor.tiles):
        tiles = list(editor.tiles)
        tiles[i] = replace(tiles[i], code=code)
        trial = evaluate(editor.copy(tiles), role)
        if trial.result is not None and trial.result.valid:
            found.append(Swap(i, editor.tiles[i].code, code))
            if len(found) == limit:
                break
    return found
