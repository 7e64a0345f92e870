"""Checks that a Hand is well-formed (CONTRACT.md, SCORING section 12); each failure is one InputError line.

A well-formed hand that is no mahjong is not an error: the scorer reports it as an invalid result.
"""

from __future__ import annotations

from functools import lru_cache

from scoring.errors import InputError
from scoring.hand import FLAGS, ROLES, WINDS, Hand, Meld, meld_kind
from scoring.rulesets import RULESET_NAMES, get_ruleset
from scoring.tiles import INDEX, KINDS, TILE_CODES, format_tiles

_SELF_DRAWN_ONLY = ("last_tile", "kong_replacement", "kong_on_kong")


_PLAYING = frozenset(TILE_CODES[:KINDS])
_BONUS = frozenset(TILE_CODES[KINDS:])


def _check_tiles(where: str, tiles: tuple[str, ...], bonus: bool) -> None:
    """Every code is a known tile of the right family (playing tiles, or flowers/seasons for bonus)."""
    if not isinstance(tiles, (tuple, list)):
        raise InputError(f"{where}: expected a sequence of tile codes, not {type(tiles).__name__}")
    allowed = _BONUS if bonus else _PLAYING
    try:
        if allowed.issuperset(tiles):
            return
    except TypeError:  # an unhashable element: reported below
        pass
    for code in tiles:
        if not isinstance(code, str) or code not in INDEX:
            raise InputError(f"{where}: unknown tile {code!r}")
        if bonus and code not in _BONUS:
            raise InputError(f"{where}: {code!r} is no flower or season")
        if not bonus and code not in _PLAYING:
            raise InputError(f"{where}: flower/season {code!r} belongs in bonus, not in a set")


def _meld_kind(meld: Meld) -> str:
    """_check_meld, remembered per meld's tiles and openness: there are few distinct melds."""
    if type(meld) is Meld and type(meld.tiles) is tuple and type(meld.open) is bool:
        try:
            return _checked_meld(meld.tiles, meld.open)
        except TypeError:  # unhashable tiles: checked below without the memo
            pass
    return _check_meld(meld)


@lru_cache(maxsize=1024)
def _checked_meld(tiles: tuple[str, ...], is_open: bool) -> str:
    return _check_meld(Meld(tiles, is_open))


def _check_meld(meld: Meld) -> str:
    if not isinstance(meld, Meld):
        raise InputError(f"melds: expected Meld objects, not {type(meld).__name__}")
    _check_tiles("meld", meld.tiles, bonus=False)
    kind = meld_kind(meld.tiles)
    if kind is None:
        raise InputError(f"meld {format_tiles(meld.tiles)!r} is no chow, pung or kong")
    if not isinstance(meld.open, bool):
        raise InputError(f"meld {format_tiles(meld.tiles)!r}: open must be true or false")
    if not meld.open and kind != "kong":
        raise InputError(
            f"meld {format_tiles(meld.tiles)!r}: only a kong is declared concealed; "
            "a concealed pung or chow stays in `concealed`"
        )
    return kind


def _check_flags(hand: Hand, kongs: int) -> None:
    flags = hand.flags
    if not flags:
        return
    for flag in sorted(flags):
        if flag not in FLAGS:
            raise InputError(f"unknown flag {flag!r} (known: {', '.join(FLAGS)})")
    if not hand.is_winner:
        extra = sorted(flags - {"dead_hand"})
        if extra:
            raise InputError(f"flag {extra[0]!r} is for the winner only; a loser may only have 'dead_hand'")
        return
    if "heaven" in flags and "earth" in flags:
        raise InputError("flags 'heaven' and 'earth' exclude each other")
    if not hand.self_drawn:
        for flag in _SELF_DRAWN_ONLY:
            if flag in flags:
                raise InputError(f"flag {flag!r} needs a self-drawn winning tile (self_drawn is false)")
        if "heaven" in flags:
            raise InputError("flag 'heaven' needs a self-drawn win: East wins on the 14 dealt tiles")
    else:
        if "robbing_kong" in flags:
            raise InputError(
                "flag 'robbing_kong' contradicts self_drawn: a robbed kong tile counts as a discard"
            )
        if "earth" in flags:
            raise InputError("flag 'earth' contradicts self_drawn: it is a win on East's first discard")
    if "heaven" in flags and hand.seat_wind != "E":
        raise InputError(f"flag 'heaven' is for East only, not seat {hand.seat_wind}")
    if "earth" in flags and hand.seat_wind == "E":
        raise InputError("flag 'earth' is for a player other than East")
    for flag in ("heaven", "earth"):
        if flag in flags and hand.melds:
            raise InputError(f"flag {flag!r}: a hand won before its first turn has no declared melds")
        if flag in flags and flags & {"last_tile", "robbing_kong"}:
            other = sorted(flags & {"last_tile", "robbing_kong"})[0]
            raise InputError(f"flags {flag!r} and {other!r} exclude each other")
    if "kong_replacement" in flags and kongs < 1:
        raise InputError("flag 'kong_replacement' needs a declared kong")
    if "kong_on_kong" in flags and kongs < 2:
        raise InputError("flag 'kong_on_kong' needs two declared kongs")
    if "robbing_kong" in flags and hand.winning_tile is not None:
        held = hand.concealed.count(hand.winning_tile) + sum(
            m.tiles.count(hand.winning_tile) for m in hand.melds
        )
        if held > 1:
            raise InputError(
                f"flag 'robbing_kong': the other player's kong holds the other three {hand.winning_tile!r}, "
                f"so the winner cannot hold {held}"
            )


# Set on a Hand (not part of its fields, equality or hash) once it passed: its fields are immutable, so it
# stays well-formed; score_hand then skips the check for a hand that hand_from_dict already checked.
_CHECKED = "_checked"


def validate_hand(hand: Hand) -> None:
    """Raise InputError naming the first problem; return None for a well-formed hand."""
    if type(hand) is Hand and getattr(hand, _CHECKED, False):
        return
    if _validate(hand) and type(hand) is Hand:
        object.__setattr__(hand, _CHECKED, True)


def _validate(hand: Hand) -> bool:
    """Raise InputError for the first problem, else say whether the hand cannot change (no lists in it)."""
    if not isinstance(hand, Hand):
        raise InputError(f"expected a Hand, not {type(hand).__name__}")
    ruleset, role, concealed, bonus, melds = hand.ruleset, hand.role, hand.concealed, hand.bonus, hand.melds
    if ruleset not in RULESET_NAMES:
        raise InputError(f"unknown ruleset {ruleset!r} (use {' or '.join(RULESET_NAMES)})")
    if role not in ROLES:
        raise InputError(f"unknown role {role!r} (use winner or loser)")
    if hand.seat_wind not in WINDS:
        raise InputError(f"seat_wind must be one of E, S, W, N, not {hand.seat_wind!r}")
    if hand.prevailing_wind not in WINDS:
        raise InputError(f"prevailing_wind must be one of E, S, W, N, not {hand.prevailing_wind!r}")
    _check_tiles("concealed", concealed, bonus=False)
    _check_tiles("bonus", bonus, bonus=True)
    if not isinstance(melds, (tuple, list)):
        raise InputError("melds must be a sequence of melds")
    kinds = [_meld_kind(meld) for meld in melds]
    kongs = kinds.count("kong")
    if bonus and not get_ruleset(ruleset).options.bonus_tiles:
        raise InputError(
            f"bonus tiles are not played under ruleset {ruleset!r} (got {format_tiles(bonus)!r})"
        )
    if len(set(bonus)) != len(bonus):
        code = next(code for code in bonus if bonus.count(code) > 1)
        raise InputError(f"bonus: {bonus.count(code)} of {code!r}; each flower and season exists once")
    counts = [0] * KINDS
    for code in concealed:
        counts[INDEX[code]] += 1
    have = len(concealed)
    frozen = type(concealed) is tuple and type(bonus) is tuple and type(melds) is tuple
    for meld in melds:
        have += len(meld.tiles)
        frozen = frozen and type(meld.tiles) is tuple
        for code in meld.tiles:
            counts[INDEX[code]] += 1
    if max(counts) > 4:
        kind = next(kind for kind, n in enumerate(counts) if n > 4)
        raise InputError(f"{counts[kind]} of {TILE_CODES[kind]!r}; only 4 of each tile exist")
    if not isinstance(hand.self_drawn, bool):
        raise InputError("self_drawn must be true or false")
    if not isinstance(hand.flags, (frozenset, set)):
        raise InputError("flags must be a set of flag names")
    winner = role == "winner"
    winning_tile = hand.winning_tile
    if winner:
        if winning_tile is None:
            raise InputError("winning_tile is required for a winner")
        if winning_tile not in INDEX or INDEX[winning_tile] >= KINDS:
            raise InputError(f"winning_tile: unknown tile {winning_tile!r}")
        if winning_tile not in concealed:
            raise InputError(f"winning_tile {winning_tile!r} must be one of the concealed tiles")
    else:
        if winning_tile is not None:
            raise InputError("winning_tile is for the winner only; a loser has none")
        if hand.self_drawn:
            raise InputError("self_drawn is for the winner only; a loser has none")
    if "dead_hand" not in hand.flags:
        expected = (14 if winner else 13) + kongs
        if have != expected:
            raise InputError(
                f"wrong tile count for a {role}: {have} tiles in concealed and melds, "
                f"expected {expected} ({'14' if winner else '13'} plus 1 per kong)"
            )
    _check_flags(hand, kongs)
    return frozen and type(hand.flags) is frozenset
