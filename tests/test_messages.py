"""Engine errors carry a code and parameters and read in Dutch and English (scoring.messages, .wording)."""

from __future__ import annotations

import pickle
import re
import string
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from scoring import (
    Hand,
    InputError,
    Meld,
    TileError,
    format_tiles,
    hand_from_dict,
    parse_tiles,
    tile_name,
    waits,
)
from scoring.hand import FLAGS
from scoring.messages import FIELD_NAMES, FLAG_NAMES, MESSAGES
from scoring.validate import validate_hand
from scoring.wording import describe, field_name

WINNER = Hand(
    seat_wind="E",
    prevailing_wind="S",
    concealed=tuple(parse_tiles("123m456p789s111z22z")),
    winning_tile="2z",
)
WITH_MELD = replace(WINNER, concealed=tuple(parse_tiles("123m456p789s22z")), melds=(Meld(("1z",) * 3),))
LOSER = Hand(
    seat_wind="S", prevailing_wind="S", concealed=tuple(parse_tiles("147m258p369s1457z")), role="loser"
)


def hand(base: Hand = WINNER, **changes: Any) -> Callable[[], object]:
    return lambda: validate_hand(replace(base, **changes))


def typed(drop: str | None = None, **changes: Any) -> Callable[[], object]:
    """A `score` input object (JSON) for WINNER, with `changes` and without key `drop`."""
    obj: dict[str, Any] = {"seat_wind": "E", "prevailing_wind": "S", "concealed": "123m456p789s111z22z",
                           "winning_tile": "2z", **changes}  # fmt: skip
    obj.pop(drop or "", None)
    return lambda: hand_from_dict(obj)


def flags(*names: str, base: Hand = WINNER, **changes: Any) -> Callable[[], object]:
    return hand(base, flags=frozenset(names), **changes)


# code -> a real input that raises it (each code of the catalogue at least once)
CASES: list[tuple[str, Callable[[], object]]] = [
    ("tiles_not_a_string", lambda: parse_tiles(5)),  # type: ignore[arg-type]
    ("tile_letters_without_digits", lambda: parse_tiles("abc")),
    ("tile_unexpected_character", lambda: parse_tiles("12m!")),
    ("tile_digits_without_suit", lambda: parse_tiles("123")),
    ("tile_unknown_suit", lambda: parse_tiles("12x")),
    ("tile_does_not_exist", lambda: parse_tiles("8z")),
    ("unknown_tile", lambda: tile_name("0m")),
    ("unknown_tile", lambda: format_tiles(["9q"])),
    ("unknown_tile", hand(concealed=("1m", "xx"))),
    ("unknown_tile", hand(winning_tile="1f")),
    ("not_a_hand", lambda: validate_hand("123m")),  # type: ignore[arg-type]
    ("not_a_tile_sequence", hand(concealed="123m")),
    ("not_bonus", hand(bonus=("3s",))),
    ("bonus_in_set", hand(concealed=(*WINNER.concealed[:-1], "2f"))),
    ("melds_not_sequence", hand(melds="111z")),
    ("not_a_meld", hand(melds=("111z",))),
    ("meld_no_set", hand(melds=(Meld(("1m", "2m", "4m")),))),
    ("meld_no_set", lambda: Meld(("1m", "1p", "1s")).kind),
    ("meld_open_not_bool", hand(melds=(Meld(("1z",) * 3, "yes"),))),  # type: ignore[arg-type]
    ("concealed_meld_not_kong", hand(melds=(Meld(("1z",) * 3, False),))),
    ("unknown_ruleset", hand(ruleset="riichi")),
    ("unknown_role", hand(role="spectator")),
    ("bad_wind", hand(seat_wind="X")),
    ("bad_wind", hand(prevailing_wind="oost")),
    ("bonus_not_played", hand(ruleset="nts", bonus=("1f",))),
    ("bonus_twice", hand(bonus=("1f", "1f"))),
    ("too_many_of_tile", hand(concealed=tuple(parse_tiles("11111m456p789s22z")), winning_tile="2z")),
    ("self_drawn_not_bool", hand(self_drawn="yes")),
    ("flags_not_set", hand(flags=["last_tile"])),
    ("winning_tile_missing", hand(winning_tile=None)),
    ("winning_tile_not_concealed", hand(winning_tile="9m")),
    ("winning_tile_for_loser", hand(LOSER, winning_tile="1m")),
    ("self_drawn_for_loser", hand(LOSER, self_drawn=True)),
    ("wrong_tile_count", hand(concealed=WINNER.concealed[2:])),
    ("wrong_tile_count", hand(LOSER, concealed=LOSER.concealed[1:])),
    ("unknown_flag", flags("double_wind")),
    ("flag_winner_only", flags("last_tile", base=LOSER)),
    ("flags_exclude", flags("heaven", "earth")),
    ("flags_exclude", flags("heaven", "last_tile", self_drawn=True)),
    ("flag_needs_self_drawn", flags("kong_on_kong")),
    ("heaven_needs_self_drawn", flags("heaven")),
    ("robbing_kong_self_drawn", flags("robbing_kong", self_drawn=True)),
    ("earth_self_drawn", flags("earth", seat_wind="S", self_drawn=True)),
    ("heaven_not_east", flags("heaven", seat_wind="W", self_drawn=True)),
    ("earth_for_east", flags("earth")),
    ("first_turn_melds", flags("heaven", base=WITH_MELD, self_drawn=True)),
    ("kong_replacement_needs_kong", flags("kong_replacement", self_drawn=True)),
    ("kong_on_kong_needs_kongs", flags("kong_on_kong", self_drawn=True)),
    ("robbing_kong_held", flags("robbing_kong")),
    ("waits_bad_tile", lambda: waits(["1f", *WINNER.concealed[:12]])),
    ("waits_tile_count", lambda: waits(WINNER.concealed[:12])),
    ("meld_no_set", lambda: waits(WINNER.concealed[:10], [Meld(("1m", "2m", "4m"))])),
    ("too_many_of_tile", lambda: waits(parse_tiles("1111m"), [Meld(("1m", "2m", "3m"))] * 3)),
    ("hand_not_object", lambda: hand_from_dict(["1m"])),  # type: ignore[arg-type]
    ("hand_unknown_key", typed(seat="E")),
    ("hand_key_missing", typed(drop="seat_wind")),
    ("key_not_text", typed(ruleset=3)),
    ("text_too_long", typed(ruleset="x" * 400)),
    ("wind_not_one_of", typed(seat_wind="X")),
    ("wind_not_one_of", typed(prevailing_wind=["E"])),
    ("tiles_not_text", typed(bonus=5)),
    ("tile_part_not_text", typed(bonus=["1f", 2])),
    ("melds_not_list", typed(melds="111z")),
    ("meld_not_object", typed(melds=[5])),
    ("meld_unknown_key", typed(melds=[{"tiles": "111z", "shown": True}])),
    ("meld_tiles_missing", typed(melds=[{"open": True}])),
    ("meld_open_value", typed(melds=[{"tiles": "111z", "open": "yes"}])),
    ("winning_tile_not_one", typed(winning_tile="2z2z")),
    ("self_drawn_value", typed(self_drawn="yes")),
    ("flags_not_list", typed(flags="heaven")),
]

# Words that give an English sentence away; none may stand in a Dutch text outside quotes.
ENGLISH = {
    "the",
    "must",
    "tile",
    "tiles",
    "flag",
    "flags",
    "expected",
    "only",
    "not",
    "needs",
    "unknown",
    "without",
    "exist",
    "exists",
    "each",
    "winner",
    "loser",
    "concealed",
    "contradicts",
    "belongs",
    "declared",
    "and",
    "with",
    "for",
    "got",
    "use",
    "write",
    "known",
    "meld",
    "melds",
    "sequence",
    "one",
    "digits",
    "suit",
    "character",
    "characters",
    "circles",
    "bamboo",
    "seat",
    "required",
    "should",
    "other",
}


def raised(make: Callable[[], object]) -> InputError:
    with pytest.raises(InputError) as caught:
        make()
    return caught.value


def english_words(text: str) -> set[str]:
    """The giveaway English words of a text, leaving out what stands in quotes (codes, typed input)."""
    unquoted = re.sub(r"'[^']*'|`[^`]*`", " ", text)
    return set(re.findall(r"[a-z_]+", unquoted.lower())) & ENGLISH


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_code_has_a_case() -> None:
    assert {code for code, _ in CASES} == set(MESSAGES)


@pytest.mark.parametrize(("code", "make"), CASES, ids=[f"{code}-{i}" for i, (code, _) in enumerate(CASES)])
def test_the_error_reads_in_both_languages(code: str, make: Callable[[], object]) -> None:
    error = raised(make)
    assert error.code == code
    english, dutch = describe(error, "en"), describe(error, "nl")
    assert english == str(error)
    assert "\n" not in dutch and "{" not in dutch and dutch != english
    assert not english_words(dutch), dutch


@pytest.mark.parametrize("code", sorted(MESSAGES))
def test_templates_are_dutch_and_take_the_same_parameters(code: str) -> None:
    words = MESSAGES[code]
    assert set(words) == {"nl", "en"}
    assert fields(words["nl"]) == fields(words["en"])
    assert not english_words(re.sub(r"\{[^}]*\}", " ", words["nl"])), words["nl"]


def test_every_parameter_of_a_raised_error_is_in_its_template() -> None:
    for code, make in CASES:
        error = raised(make)
        assert set(error.params) == fields(MESSAGES[code]["en"]), code


def test_english_is_the_message_the_command_line_printed() -> None:
    assert str(raised(lambda: parse_tiles("8z"))) == "tile '8z' does not exist (z goes 1-7)"
    assert str(raised(hand(concealed=("1m", "xx")))) == "concealed: unknown tile 'xx'"
    assert str(raised(hand(ruleset="riichi"))) == "unknown ruleset 'riichi' (use app or nts)"
    assert str(raised(flags("heaven", "earth"))) == "flags 'heaven' and 'earth' exclude each other"


def test_dutch_wording_names_tiles_flags_and_roles() -> None:
    five = hand(concealed=tuple(parse_tiles("11111m456p789s22z")))
    assert describe(raised(five), "nl") == "5 × 1 karakter; er zijn maar 4 van elke steen"
    assert describe(raised(hand(concealed=WINNER.concealed[2:])), "nl") == (
        "verkeerd aantal stenen voor een winnaar: 12 stenen in de hand en de sets, "
        "verwacht 14 (14 plus 1 per kong)"
    )
    assert describe(raised(flags("robbing_kong", self_drawn=True)), "nl").startswith(
        "strijdig: 'kongroof' bij zelf gepakt"
    )
    assert describe(raised(lambda: parse_tiles("8z")), "nl") == "steen '8z' bestaat niet (z gaat van 1 tot 7)"
    assert describe(raised(hand(ruleset="riichi")), "nl") == "onbekende regels 'riichi' (kies app of nts)"
    assert describe(raised(hand(concealed=("1m", "xx"))), "nl") == "stenen in de hand: onbekende steen 'xx'"
    assert describe(raised(flags("heaven", seat_wind="W", self_drawn=True)), "nl") == (
        "'spel van de hemel' is alleen voor Oost, niet voor West"
    )
    assert describe(raised(hand(bonus=("1f", "1f"))), "nl") == (
        "bloemen en seizoenen: 2 × Bloem 1 pruim; elke bloem en elk seizoen is er maar één keer"
    )


def test_located_error_keeps_its_code_and_names_the_field() -> None:
    error = raised(lambda: parse_tiles("8z")).located("melds[1]")
    assert isinstance(error, TileError) and error.code == "tile_does_not_exist"
    assert str(error) == "melds[1]: tile '8z' does not exist (z goes 1-7)"
    assert describe(error, "nl") == "set 2: steen '8z' bestaat niet (z gaat van 1 tot 7)"
    assert str(error.located("hand")) == "hand: melds[1]: tile '8z' does not exist (z goes 1-7)"


def test_an_error_survives_pickling_with_its_code() -> None:
    error = raised(hand(concealed=("1m", "xx")))
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is InputError
    assert (str(again), again.code, again.params, again.where) == (
        str(error), "unknown_tile", {"token": "xx"}, "concealed",
    )  # fmt: skip


def test_plain_errors_keep_their_text() -> None:
    plain = InputError("a game has   exactly\nfour seats")
    assert plain.code is None
    assert describe(plain, "nl") == describe(plain, "en") == "a game has exactly four seats"
    assert describe(ValueError("boom"), "nl") == "boom"
    with pytest.raises(ValueError, match="language"):
        describe(plain, "fr")


def test_dutch_names_of_flags_and_fields() -> None:
    assert set(FLAG_NAMES) == set(FLAGS)
    assert field_name("melds[0]: meld") == "set 1: set"
    assert field_name("winning_tile") == FIELD_NAMES["winning_tile"]["nl"] == "winnende steen"
    assert field_name("ruleset") == "ruleset"  # an unnamed field is shown as given


def test_a_json_hand_names_the_field_of_a_bad_tile() -> None:
    obj = {"seat_wind": "E", "prevailing_wind": "S", "concealed": "123m", "winning_tile": "1m"}
    error = raised(lambda: hand_from_dict({**obj, "melds": [{"tiles": "888z"}]}))
    assert (error.code, error.where) == ("tile_does_not_exist", "melds[0]")
    assert describe(error, "nl") == "set 1: steen '8z' bestaat niet (z gaat van 1 tot 7)"
    error = raised(lambda: hand_from_dict({**obj, "concealed": "123q"}))
    assert str(error) == "concealed: tile '123q': unknown suit letter 'q' (use m, p, s, z, f or y)"
    assert (
        describe(error, "nl")
        == "stenen in de hand: steen '123q': onbekende letter 'q' (gebruik m, p, s, z, f of y)"
    )
