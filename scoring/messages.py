"""The engine's input errors worded in Dutch and English: code -> {"nl": ..., "en": ...} (pure data).

The English text is what `str(error)` says (the CLI and JSON print it, CONTRACT.md); it formats the raw
parameters (`{token!r}` quotes a code as Python does; a tuple of choices reads "app or nts"). The Dutch
text gets them as `scoring.wording` words them: a `tile` and a `flag` by their Dutch names, a `role`,
`seat` or `field` in Dutch, a tuple of choices as "app of nts".
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    # tile notation (scoring.tiles)
    "tiles_not_a_string": {
        "en": "tiles must be a string like '123m11z', not {type}",
        "nl": "stenen worden geschreven als tekst zoals '123m11z', niet als {type}",
    },
    "tile_letters_without_digits": {
        "en": "tile {token!r}: letters {letters!r} without digits (write e.g. '123m' or an alias)",
        "nl": "steen '{token}': letters '{letters}' zonder cijfers "
        "(schrijf bijv. '123m' of een naam als 'oost')",
    },
    "tile_unexpected_character": {
        "en": "tile {token!r}: unexpected character {character!r}",
        "nl": "steen '{token}': onverwacht teken '{character}'",
    },
    "tile_digits_without_suit": {
        "en": "tile {token!r}: digits {digits!r} without a suit letter (m, p, s, z, f, y)",
        "nl": "steen '{token}': cijfers '{digits}' zonder letter voor de soort (m, p, s, z, f, y)",
    },
    "tile_unknown_suit": {
        "en": "tile {token!r}: unknown suit letter {suit!r} (use m, p, s, z, f or y)",
        "nl": "steen '{token}': onbekende letter '{suit}' (gebruik m, p, s, z, f of y)",
    },
    "tile_does_not_exist": {
        "en": "tile {token!r} does not exist ({suit} goes 1-{top})",
        "nl": "steen '{token}' bestaat niet ({suit} gaat van 1 tot {top})",
    },
    "unknown_tile": {
        "en": "unknown tile {token!r}",
        "nl": "onbekende steen '{token}'",
    },
    # the hand's fields (scoring.validate, scoring.hand, scoring.rulesets)
    "not_a_hand": {
        "en": "expected a Hand, not {type}",
        "nl": "verwacht een hand, geen {type}",
    },
    "not_a_tile_sequence": {
        "en": "expected a sequence of tile codes, not {type}",
        "nl": "verwacht een reeks steencodes, geen {type}",
    },
    "not_bonus": {
        "en": "{tile!r} is no flower or season",
        "nl": "{tile} is geen bloem of seizoen",
    },
    "bonus_in_set": {
        "en": "flower/season {tile!r} belongs in bonus, not in a set",
        "nl": "{tile} hoort bij de bloemen en seizoenen, niet in een set",
    },
    "melds_not_sequence": {
        "en": "melds must be a sequence of melds",
        "nl": "de sets moeten een reeks sets zijn",
    },
    "not_a_meld": {
        "en": "melds: expected Meld objects, not {type}",
        "nl": "sets: verwacht een set, geen {type}",
    },
    "meld_no_set": {
        "en": "meld {tiles!r} is no chow, pung or kong",
        "nl": "set {tiles} is geen chow, pong of kong",
    },
    "meld_open_not_bool": {
        "en": "meld {tiles!r}: open must be true or false",
        "nl": "set {tiles}: 'open' moet ja of nee zijn ('true' of 'false')",
    },
    "concealed_meld_not_kong": {
        "en": "meld {tiles!r}: only a kong is declared concealed; "
        "a concealed pung or chow stays in `concealed`",
        "nl": "set {tiles}: alleen een kong wordt dicht aangegeven; een dichte pong of chow blijft bij de "
        "stenen in de hand",
    },
    "unknown_ruleset": {
        "en": "unknown ruleset {name!r} (use {choices})",
        "nl": "onbekende regels '{name}' (kies {choices})",
    },
    "unknown_role": {
        "en": "unknown role {name!r} (use winner or loser)",
        "nl": "onbekende rol '{name}' (kies 'winner' voor de winnaar of 'loser' voor een verliezer)",
    },
    "bad_wind": {
        "en": "{field} must be one of E, S, W, N, not {value!r}",
        "nl": "{field} moet E, S, W of N zijn (Oost, Zuid, West, Noord), niet '{value}'",
    },
    "bonus_not_played": {
        "en": "bonus tiles are not played under ruleset {ruleset!r} (got {tiles!r})",
        "nl": "onder de regels '{ruleset}' spelen bloemen en seizoenen niet mee ({tiles} gegeven)",
    },
    "bonus_twice": {
        "en": "{count} of {tile!r}; each flower and season exists once",
        "nl": "{count} × {tile}; elke bloem en elk seizoen is er maar één keer",
    },
    "too_many_of_tile": {
        "en": "{count} of {tile!r}; only 4 of each tile exist",
        "nl": "{count} × {tile}; er zijn maar 4 van elke steen",
    },
    "self_drawn_not_bool": {
        "en": "self_drawn must be true or false",
        "nl": "'zelf gepakt' moet ja of nee zijn ('true' of 'false')",
    },
    "flags_not_set": {
        "en": "flags must be a set of flag names",
        "nl": "de bijzonderheden moeten een verzameling namen zijn",
    },
    "winning_tile_missing": {
        "en": "winning_tile is required for a winner",
        "nl": "een winnaar heeft een winnende steen nodig",
    },
    "winning_tile_not_concealed": {
        "en": "winning_tile {tile!r} must be one of the concealed tiles",
        "nl": "de winnende steen {tile} moet een van de stenen in de hand zijn",
    },
    "winning_tile_for_loser": {
        "en": "winning_tile is for the winner only; a loser has none",
        "nl": "alleen de winnaar heeft een winnende steen; een verliezer niet",
    },
    "self_drawn_for_loser": {
        "en": "self_drawn is for the winner only; a loser has none",
        "nl": "'zelf gepakt' geldt alleen voor de winnaar; een verliezer heeft geen winnende steen",
    },
    "wrong_tile_count": {
        "en": "wrong tile count for a {role}: {have} tiles in concealed and melds, "
        "expected {expected} ({base} plus 1 per kong)",
        "nl": "verkeerd aantal stenen voor een {role}: {have} stenen in de hand en de sets, "
        "verwacht {expected} ({base} plus 1 per kong)",
    },
    # flags (scoring.validate)
    "unknown_flag": {
        "en": "unknown flag {name!r} (known: {known})",
        "nl": "onbekende bijzonderheid '{name}' (bekend: {known})",
    },
    "flag_winner_only": {
        "en": "flag {flag!r} is for the winner only; a loser may only have 'dead_hand'",
        "nl": "{flag} geldt alleen voor de winnaar; een verliezer kan alleen een 'dode hand' hebben",
    },
    "flags_exclude": {
        "en": "flags {flag!r} and {other!r} exclude each other",
        "nl": "{flag} en {other} sluiten elkaar uit",
    },
    "flag_needs_self_drawn": {
        "en": "flag {flag!r} needs a self-drawn winning tile (self_drawn is false)",
        "nl": "{flag} vraagt een zelf gepakte winnende steen ('zelf gepakt' staat uit)",
    },
    "heaven_needs_self_drawn": {
        "en": "flag 'heaven' needs a self-drawn win: East wins on the 14 dealt tiles",
        "nl": "'spel van de hemel' vraagt een zelf gepakte winst: Oost wint met de 14 gedeelde stenen",
    },
    "robbing_kong_self_drawn": {
        "en": "flag 'robbing_kong' contradicts self_drawn: a robbed kong tile counts as a discard",
        "nl": "strijdig: 'kongroof' bij zelf gepakt; een geroofde kongsteen telt als afgegooide steen",
    },
    "earth_self_drawn": {
        "en": "flag 'earth' contradicts self_drawn: it is a win on East's first discard",
        "nl": "strijdig: 'spel van de aarde' bij zelf gepakt; het is een winst op de eerste afgooi van Oost",
    },
    "heaven_not_east": {
        "en": "flag 'heaven' is for East only, not seat {seat}",
        "nl": "'spel van de hemel' is alleen voor Oost, niet voor {seat}",
    },
    "earth_for_east": {
        "en": "flag 'earth' is for a player other than East",
        "nl": "'spel van de aarde' is voor een andere speler dan Oost",
    },
    "first_turn_melds": {
        "en": "flag {flag!r}: a hand won before its first turn has no declared melds",
        "nl": "{flag}: een hand die vóór de eerste beurt wint heeft geen aangegeven sets",
    },
    "kong_replacement_needs_kong": {
        "en": "flag 'kong_replacement' needs a declared kong",
        "nl": "'kong met bloeiende bloemen' vraagt een aangegeven kong",
    },
    "kong_on_kong_needs_kongs": {
        "en": "flag 'kong_on_kong' needs two declared kongs",
        "nl": "'kong op kong' vraagt twee aangegeven kongs",
    },
    "robbing_kong_held": {
        "en": "flag 'robbing_kong': the other player's kong holds the other three {tile!r}, "
        "so the winner cannot hold {held}",
        "nl": "'kongroof': de kong van de ander bevat de andere drie × {tile}, dus de winnaar kan er geen "
        "{held} hebben",
    },
    # waits (scoring.waits)
    "waits_bad_tile": {
        "en": "unknown or bonus tile {token!r} in concealed",
        "nl": "onbekende steen of bloem/seizoen '{token}' tussen de stenen in de hand",
    },
    "waits_tile_count": {
        "en": "waits needs 13 tiles (plus 1 per kong): got {concealed} concealed and {melds} melds",
        "nl": "wachten vraagt 13 stenen (plus 1 per kong): {concealed} in de hand en {melds} sets gegeven",
    },
    # the `score` input object (scoring.io); a {value} comes quoted and cut short by jsonread.quote
    "hand_not_object": {
        "en": "a hand must be a JSON object, not {type}",
        "nl": "een hand moet een JSON-object zijn, geen {type}",
    },
    "hand_unknown_key": {
        "en": "unknown key {key} (known: {known})",
        "nl": "onbekende sleutel {key} (bekend: {known})",
    },
    "hand_key_missing": {"en": "missing key {key}", "nl": "sleutel {key} ontbreekt"},
    "key_not_text": {
        "en": "{field} must be a string, not {value}",
        "nl": "{field} moet tekst zijn, niet {value}",
    },
    "text_too_long": {
        "en": "{value} is too long (at most {limit} characters)",
        "nl": "{value} is te lang (hoogstens {limit} tekens)",
    },
    "wind_not_one_of": {
        "en": "{field} must be one of E, S, W, N, not {value}",
        "nl": "{field} moet E, S, W of N zijn (Oost, Zuid, West, Noord), niet {value}",
    },
    "tiles_not_text": {
        "en": "expected a tile string like '123m11z', not {type}",
        "nl": "verwacht stenen als tekst zoals '123m11z', geen {type}",
    },
    "tile_part_not_text": {
        "en": "tiles must be strings, not {value}",
        "nl": "stenen moeten tekst zijn, niet {value}",
    },
    "melds_not_list": {
        "en": 'melds must be a list of objects like {{"tiles": "111z", "open": true}}',
        "nl": "de sets moeten een lijst zijn van objecten met 'tiles' (de stenen, bijv. '111z') en 'open'",
    },
    "meld_not_object": {
        "en": 'expected an object like {{"tiles": "111z", "open": true}}',
        "nl": "verwacht een object met 'tiles' (de stenen, bijv. '111z') en 'open' ('true' of 'false')",
    },
    "meld_unknown_key": {
        "en": "unknown key {key} (known: tiles, open)",
        "nl": "onbekende sleutel {key} (bekend: 'tiles', 'open')",
    },
    "meld_tiles_missing": {"en": "missing key 'tiles'", "nl": "sleutel 'tiles' ontbreekt"},
    "meld_open_value": {
        "en": "open must be true or false, not {value}",
        "nl": "'open' moet ja of nee zijn ('true' of 'false'), niet {value}",
    },
    "winning_tile_not_one": {
        "en": "winning_tile must be exactly one tile, not {value}",
        "nl": "de winnende steen moet precies één steen zijn, niet {value}",
    },
    "self_drawn_value": {
        "en": "self_drawn must be true or false, not {value}",
        "nl": "zelf gepakt ('self_drawn') moet ja of nee zijn ('true' of 'false'), niet {value}",
    },
    "flags_not_list": {
        "en": "flags must be a list of flag names, not {value}",
        "nl": "de bijzonderheden ('flags') moeten een lijst met namen zijn, niet {value}",
    },
}

# Dutch words for the parameters `scoring.wording` translates; English keeps the raw value.
FLAG_NAMES: dict[str, dict[str, str]] = {
    "last_tile": {"nl": "laatste steen van de muur", "en": "last tile of the wall"},
    "kong_replacement": {"nl": "kong met bloeiende bloemen", "en": "win on a kong replacement tile"},
    "kong_on_kong": {"nl": "kong op kong", "en": "kong on kong"},
    "robbing_kong": {"nl": "kongroof", "en": "robbing the kong"},
    "heaven": {"nl": "spel van de hemel", "en": "heavenly hand"},
    "earth": {"nl": "spel van de aarde", "en": "earthly hand"},
    "dead_hand": {"nl": "dode hand", "en": "dead hand"},
}
ROLE_NAMES: dict[str, dict[str, str]] = {
    "winner": {"nl": "winnaar", "en": "winner"},
    "loser": {"nl": "verliezer", "en": "loser"},
}
FIELD_NAMES: dict[str, dict[str, str]] = {
    "concealed": {"nl": "stenen in de hand", "en": "concealed"},
    "bonus": {"nl": "bloemen en seizoenen", "en": "bonus"},
    "meld": {"nl": "set", "en": "meld"},
    "melds": {"nl": "sets", "en": "melds"},
    "winning_tile": {"nl": "winnende steen", "en": "winning_tile"},
    "seat_wind": {"nl": "eigen wind", "en": "seat_wind"},
    "prevailing_wind": {"nl": "heersende wind", "en": "prevailing_wind"},
    "self_drawn": {"nl": "zelf gepakt", "en": "self_drawn"},
    "flags": {"nl": "bijzonderheden", "en": "flags"},
    "waits": {"nl": "wachten", "en": "waits"},
}
