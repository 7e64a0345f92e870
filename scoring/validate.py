"""Checks that a Hand is well-formed (CONTRACT.md, SCORING section 12); each failure is one InputError line.

A well-formed hand that is no mahjong is not an error: the scorer reports it as an invalid result.
"""

from __future__ import annotations

from functools import lru_cache

from scoring.errors import InputError
from scoring.hand import FLAGS, ROLES, WINDS, Hand, Meld, meld_kind
from scoring.rulesets import get_ruleset, is_ruleset, ruleset_names
from scoring.tiles import INDEX, KINDS, TILE_CODES, format_tiles

_SELF_DRAWN_ONLY = ("last_tile", "kong_replacement", "kong_on_kong")


_PLAYING = frozenset(TILE_CODES[:KINDS])
_BONUS = frozenset(TILE_CODES[KINDS:])


def _check_tiles(where: str, tiles: tuple[str, ...], bonus: bool) -> None:
    """Every code is a known tile of the right family (playing tiles, or flowers/seasons for bonus)."""
    if not isinstance(tiles, (tuple, list)):
        raise InputError.of("not_a_tile_sequence", where=where, type=type(tiles).__name__)
    allowed = _BONUS if bonus else _PLAYING
    try:
        if allowed.issuperset(tiles):
            return
    except TypeError:  # an unhashable element: reported below
        pass
    for code in tiles:
        if not isinstance(code, str) or code not in INDEX:
            raise InputError.of("unknown_tile", where=where, token=code)
        if bonus and code not in _BONUS:
            raise InputError.of("not_bonus", where=where, tile=code)
        if not bonus and code not in _PLAYING:
            raise InputError.of("bonus_in_set", where=where, tile=code)


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
        raise InputError.of("not_a_meld", type=type(meld).__name__)
    _check_tiles("meld", meld.tiles, bonus=False)
    kind = meld_kind(meld.tiles)
    if kind is None:
        raise InputError.of("meld_no_set", tiles=format_tiles(meld.tiles))
    if not isinstance(meld.open, bool):
        raise InputError.of("meld_open_not_bool", tiles=format_tiles(meld.tiles))
    if not meld.open and kind != "kong":
        raise InputError.of("concealed_meld_not_kong", tiles=format_tiles(meld.tiles))
    return kind


def _check_flags(hand: Hand, kongs: int) -> None:
    flags = hand.flags
    if not flags:
        return
    for flag in sorted(flags):
        if flag not in FLAGS:
            raise InputError.of("unknown_flag", name=flag, known=", ".join(FLAGS))
    if not hand.is_winner:
        extra = sorted(flags - {"dead_hand"})
        if extra:
            raise InputError.of("flag_winner_only", flag=extra[0])
        return
    if "heaven" in flags and "earth" in flags:
        raise InputError.of("flags_exclude", flag="heaven", other="earth")
    if not hand.self_drawn:
        for flag in _SELF_DRAWN_ONLY:
            if flag in flags:
                raise InputError.of("flag_needs_self_drawn", flag=flag)
        if "heaven" in flags:
            raise InputError.of("heaven_needs_self_drawn")
    else:
        if "robbing_kong" in flags:
            raise InputError.of("robbing_kong_self_drawn")
        if "earth" in flags:
            raise InputError.of("earth_self_drawn")
    if "heaven" in flags and hand.seat_wind != "E":
        raise InputError.of("heaven_not_east", seat=hand.seat_wind)
    if "earth" in flags and hand.seat_wind == "E":
        raise InputError.of("earth_for_east")
    for flag in ("heaven", "earth"):
        if flag in flags and hand.melds:
            raise InputError.of("first_turn_melds", flag=flag)
        if flag in flags and flags & {"last_tile", "robbing_kong"}:
            other = sorted(flags & {"last_tile", "robbing_kong"})[0]
            raise InputError.of("flags_exclude", flag=flag, other=other)
    if "kong_replacement" in flags and kongs < 1:
        raise InputError.of("kong_replacement_needs_kong")
    if "kong_on_kong" in flags and kongs < 2:
        raise InputError.of("kong_on_kong_needs_kongs")
    if "robbing_kong" in flags and hand.winning_tile is not None:
        held = hand.concealed.count(hand.winning_tile) + sum(
            m.tiles.count(hand.winning_tile) for m in hand.melds
        )
        if held > 1:
            raise InputError.of("robbing_kong_held", tile=hand.winning_tile, held=held)


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
        raise InputError.of("not_a_hand", type=type(hand).__name__)
    ruleset, role, concealed, bonus, melds = hand.ruleset, hand.role, hand.concealed, hand.bonus, hand.melds
    if not is_ruleset(ruleset):
        raise InputError.of("unknown_ruleset", name=ruleset, choices=ruleset_names())
    if role not in ROLES:
        raise InputError.of("unknown_role", name=role)
    if hand.seat_wind not in WINDS:
        raise InputError.of("bad_wind", field="seat_wind", value=hand.seat_wind)
    if hand.prevailing_wind not in WINDS:
        raise InputError.of("bad_wind", field="prevailing_wind", value=hand.prevailing_wind)
    _check_tiles("concealed", concealed, bonus=False)
    _check_tiles("bonus", bonus, bonus=True)
    if not isinstance(melds, (tuple, list)):
        raise InputError.of("melds_not_sequence")
    kinds = [_meld_kind(meld) for meld in melds]
    kongs = kinds.count("kong")
    if bonus and not get_ruleset(ruleset).options.bonus_tiles:
        raise InputError.of("bonus_not_played", ruleset=ruleset, tiles=format_tiles(bonus))
    if len(set(bonus)) != len(bonus):
        code = next(code for code in bonus if bonus.count(code) > 1)
        raise InputError.of("bonus_twice", where="bonus", count=bonus.count(code), tile=code)
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
        raise InputError.of("too_many_of_tile", count=counts[kind], tile=TILE_CODES[kind])
    if not isinstance(hand.self_drawn, bool):
        raise InputError.of("self_drawn_not_bool")
    if not isinstance(hand.flags, (frozenset, set)):
        raise InputError.of("flags_not_set")
    winner = role == "winner"
    winning_tile = hand.winning_tile
    if winner:
        if winning_tile is None:
            raise InputError.of("winning_tile_missing")
        if winning_tile not in INDEX or INDEX[winning_tile] >= KINDS:
            raise InputError.of("unknown_tile", where="winning_tile", token=winning_tile)
        if winning_tile not in concealed:
            raise InputError.of("winning_tile_not_concealed", tile=winning_tile)
    else:
        if winning_tile is not None:
            raise InputError.of("winning_tile_for_loser")
        if hand.self_drawn:
            raise InputError.of("self_drawn_for_loser")
    if "dead_hand" not in hand.flags:
        expected = (14 if winner else 13) + kongs
        if have != expected:
            raise InputError.of(
                "wrong_tile_count", role=role, have=have, expected=expected, base=14 if winner else 13
            )
    _check_flags(hand, kongs)
    return frozen and type(hand.flags) is frozenset
