"""The app's words in Dutch (default) and English, in the score app's own terms."""

from __future__ import annotations

from typing import Any

from mahjong_nts.reading.wording import FACE_DOWN_NL
from scoring import ScoreItem, ScoreResult, get_ruleset
from scoring.result import LimitScore

LANGUAGES: tuple[str, ...] = ("nl", "en")

# key -> (Dutch, English); `{name}` fields are filled by t().
STRINGS: dict[str, tuple[str, str]] = {
    "title": ("Mahjong-score (NTS)", "Mahjong score (NTS)"),
    "subtitle": (
        "Fotografeer de winnende hand, verbeter de stenen, en zie de score en wie wie betaalt.",
        "Photograph the winning hand, fix the tiles, and see the score and who pays whom.",
    ),
    "language": ("Taal", "Language"),
    "tab_hand": ("Hand", "Hand"),
    "tab_settle": ("Afrekenen", "Settle"),
    "tab_evening": ("Avond", "Evening"),
    # photo
    "photo": ("Foto", "Photo"),
    "upload": ("Foto van de hand uploaden", "Upload a photo of the hand"),
    "use_camera": ("Camera gebruiken", "Use the camera"),
    "upload_help": (
        "JPEG, PNG, WebP, HEIC of AVIF. Op een telefoon kun je hier ook meteen een foto maken met de camera "
        "van de telefoon: dat geeft de scherpste foto.",
        "JPEG, PNG, WebP, HEIC or AVIF. On a phone this can also take a photo with the phone's own camera: "
        "that gives the sharpest photo.",
    ),
    "camera_help": (
        "De camera in de pagina (1080 beeldlijnen waar de camera dat kan). Scherper: uploaden en daar een "
        "foto maken met de camera van de telefoon.",
        "The camera in the page (1080 lines where the camera can). Sharper: upload, and take the photo there "
        "with the phone's own camera.",
    ),
    "camera": ("Maak een foto van de hand", "Take a photo of the hand"),
    "sample": ("Voorbeeldfoto", "Sample photo"),
    "sample_caption": (
        "Voorbeeldfoto: upload of fotografeer je eigen hand om die te tellen.",
        "Sample photo: upload or take a photo of your own hand to score it.",
    ),
    "photo_unreadable": (
        "Deze foto kan niet gelezen worden: {message}",
        "This photo cannot be read: {message}",
    ),
    "recognition_unavailable": (
        "Automatisch herkennen lukt nu niet ({message}); typ de hand hieronder in.",
        "Automatic recognition is not available ({message}); type the hand below.",
    ),
    "no_tiles_found": (
        "Geen stenen gevonden op deze foto. Typ de hand hieronder in of kies een andere foto.",
        "No tiles found in this photo. Type the hand below or choose another photo.",
    ),
    "read_summary": ("{count} stenen gelezen, {unsure} onzeker.", "{count} tiles read, {unsure} uncertain."),
    "legend": (
        "Groen: zeker · oranje: onzeker · blauw: door jou verbeterd",
        "Green: sure · orange: uncertain · blue: corrected by you",
    ),
    "set_unfamiliar_hint": (
        "Veel stenen zijn onzeker: de app kent deze set waarschijnlijk nog niet. Verbeter de oranje stenen "
        "en laat de app daarna jullie stenen onthouden (‘Onze stenen leren’, hieronder): de volgende foto's "
        "leest hij dan beter.",
        "Many tiles are uncertain: the app probably does not know this set yet. Correct the orange tiles, "
        "then let the app remember your tiles (‘Teach the app our tile set’, below): it then reads the next "
        "photos better.",
    ),
    # the club's own tile set
    "tile_set": ("Onze stenen leren", "Teach the app our tile set"),
    "tile_set_help": (
        "Leest de app jullie stenen vaak verkeerd? Verbeter de stenen van een foto en laat de app ze "
        "onthouden. Het snelst: leg van elke soort één steen neer (1-9 tekens, 1-9 kringen, 1-9 bamboe, "
        "winden, draken, bloemen en seizoenen), fotografeer die, verbeter en onthoud ze. Ook twee of drie "
        "foto's van handen helpen. Andere sets leest de app daarna als eerst.",
        "Does the app often misread your tiles? Correct a photo's tiles and let the app remember them. "
        "Quickest: lay out one tile of every kind (1-9 characters, 1-9 circles, 1-9 bamboos, winds, dragons, "
        "flowers and seasons), photograph it, correct and remember them. Two or three photos of hands help "
        "too. Other sets the app reads as before.",
    ),
    "tile_set_empty": ("Nog geen stenen onthouden.", "No tiles remembered yet."),
    "tile_set_status": (
        "De app kent {examples} stenen ({codes} soorten) van deze set.",
        "The app knows {examples} tiles ({codes} kinds) of this set.",
    ),
    "tile_set_in_use": ("Foto's worden ermee gelezen.", "Photos are read with them."),
    "tile_set_unfamiliar": (
        "De app kende deze stenen nog niet, dus wat je liet onthouden telt zwaar.",
        "The app did not know these tiles, so what you had it remember counts most.",
    ),
    "tile_set_not_needed": (
        "De app leest deze stenen zonder hulp net zo goed; ze worden bewaard voor later.",
        "The app reads these tiles as well without them; they are kept for later.",
    ),
    "tile_set_more": (
        "Onthoud nog een foto of twee: de app gebruikt ze zodra {needed} stenen meer dan eens voorkomen, "
        "of zodra er van elke soort één steen bij is.",
        "Remember a photo or two more: the app uses them once {needed} more tiles appear more than once, "
        "or once every kind of tile is there.",
    ),
    "tile_set_check_first": (
        "Klopt elke steen op de foto? Wat je onthoudt, leert de app.",
        "Is every tile on the photo right? What you remember is what the app learns.",
    ),
    "tile_set_learn": ("Onthoud de stenen van deze foto", "Remember this photo's tiles"),
    "tile_set_auto": (
        "Onthoud ook de stenen van elke opgeslagen hand die van een foto is geteld",
        "Also remember the tiles of every saved hand counted from a photo",
    ),
    "tile_set_whole_help": (
        "Ligt hier de hele set, één steen van elke soort, in vijf rijen op volgorde? 1-9 tekens; 1-9 "
        "kringen; 1-9 bamboe; Oost, Zuid, West, Noord, witte, groene, rode draak; bloemen 1-4 en "
        "seizoenen 1-4; als laatste mag er één steen omgekeerd bij (dan leert de app ook de rug, handig "
        "als de witte draak blanco is). Dan hoef je niets te verbeteren.",
        "Is this the whole set, one tile of every kind, in five rows in order? 1-9 characters; 1-9 "
        "circles; 1-9 bamboos; East, South, West, North, white, green, red dragon; flowers 1-4 and "
        "seasons 1-4; one face-down tile may come last (the app then learns the back too, useful when the "
        "white dragon is blank). Then there is nothing to correct.",
    ),
    "tile_set_whole": (
        "Dit is de hele set op volgorde: onthoud ze allemaal",
        "This is the whole set in order: remember them all",
    ),
    "tile_set_whole_short": (
        "Voor de hele set in één keer moeten alle 42 stenen gevonden zijn; nu {found} (per rij: {rows}). "
        "Fotografeer opnieuw, met wat ruimte tussen de stenen en gelijkmatig licht.",
        "To learn the whole set at once all 42 tiles must be found; now {found} (per row: {rows}). "
        "Take the photo again, with the tiles a little apart and evenly lit.",
    ),
    "tile_set_learnt": ("Stenen onthouden: {count}.", "Tiles remembered: {count}."),
    "tile_set_known": ("Deze stenen kende de app al.", "The app knew these tiles already."),
    "tile_set_nothing": (
        "Op deze foto zijn geen stenen gelezen om te onthouden.",
        "No tiles were read on this photo to remember.",
    ),
    "tile_set_download": ("Set downloaden (JSON)", "Download the set (JSON)"),
    "tile_set_upload": ("Set laden (JSON, van mahjong-nts learn-set of deze app)", "Load a set (JSON)"),
    "tile_set_loaded": ("Set geladen: {examples} stenen.", "Set loaded: {examples} tiles."),
    "tile_set_forget": ("Vergeet deze set", "Forget this set"),
    "tile_set_forgotten": (
        "Set vergeten; een kopie staat in {path}.",
        "Set forgotten; a copy is kept in {path}.",
    ),
    "tile_set_not_a_set": (
        "Dit is geen stenenset van mahjong-nts.",
        "This is not a mahjong-nts tile set file.",
    ),
    "tile_set_other_model": (
        "Deze set is gemaakt met een ander herkenningsmodel; vergeet hem en onthoud de stenen opnieuw.",
        "This set was made with another recognition model; forget it and remember the tiles again.",
    ),
    "tile_set_unsupported": (
        "Het herkenningsmodel kan geen eigen set gebruiken.",
        "The recognition model cannot use a set of its own.",
    ),
    "tile_set_not_saved": (
        "De set kon niet bewaard worden: {message}",
        "The set could not be saved: {message}",
    ),
    "tile_set_failed": ("Dat lukte niet: {message}", "That did not work: {message}"),
    # tiles
    "tiles": ("Stenen", "Tiles"),
    "notation": ("Hand in notatie", "Hand in notation"),
    "notation_help": (
        "Bijv. 123m 456p 789s 11z 555z 4f — m tekens, p kringen, s bamboe, z winden/draken, f bloemen, "
        "y seizoenen. Ook: oost, zuid, rood, groen, wit.",
        "E.g. 123m 456p 789s 11z 555z 4f — m characters, p circles, s bamboo, z winds/dragons, f flowers, "
        "y seasons. Also: east, south, red, green, white.",
    ),
    "notation_error": ("Notatie niet begrepen: {message}", "Notation not understood: {message}"),
    "rows_help": (
        "De foto toont {count} rijen stenen. Liggen er stenen bij die niet in de hand horen?",
        "The photo shows {count} rows of tiles. Are some of them not part of the hand?",
    ),
    "drop_row": ("Rij {row} weglaten: {tiles}", "Leave out row {row}: {tiles}"),
    "keep_row": ("Alleen rij {row} houden", "Keep only row {row}"),
    "uncertain_tiles": ("Twijfelgevallen — kies de juiste steen", "Uncertain tiles — pick the right one"),
    "tile_n": ("Steen {n}", "Tile {n}"),
    "tile_table": (
        "Alle stenen (wijzig, voeg toe of vink weg aan)",
        "All tiles (change, add, or tick remove)",
    ),
    "col_n": ("#", "#"),
    "col_tile": ("Steen", "Tile"),
    "col_confidence": ("Zeker", "Sure"),
    "col_alternatives": ("Alternatieven", "Alternatives"),
    "col_remove": ("Weg", "Remove"),
    "add_tile": ("Steen toevoegen", "Add a tile"),
    "add_tile_placeholder": ("Kies een steen om toe te voegen", "Choose a tile to add"),
    "bonus": ("Bloemen en seizoenen", "Flowers and seasons"),
    "choose": ("Kies…", "Choose…"),
    "face_down": (FACE_DOWN_NL, "face down"),
    "assumed": ("Zo gelezen (controleer):", "Read this way (check):"),
    "assumed_sure": ("{what} — {sure:.0%} zeker", "{what} — {sure:.0%} sure"),
    "swap_hint": (
        "Dit is nog geen mahjong. Met één van deze stenen anders gelezen wel:",
        "This is not mahjong yet. With one of these tiles read differently it is:",
    ),
    "swap_apply": ("Steen {n}: {read} → {to}", "Tile {n}: {read} → {to}"),
    "face_down_left": (
        "{count} omgekeerde stenen vormen geen gesloten kong: kies in de tabel welke steen het is.",
        "{count} face-down tiles make no concealed kong: choose in the table which tile each is.",
    ),
    "no_tiles": (
        "Nog geen stenen: typ de hand of upload een foto.",
        "No tiles yet: type the hand or upload a photo.",
    ),
    "no_winning_tile": ("Kies de steen waarmee je won.", "Choose the tile that won."),
    "winning_tile_open": (
        "De winnende steen {tile} kan niet in een set liggen die al open lag; zet die set op gesloten.",
        "The winning tile {tile} cannot be in a set that already lay open; switch that set to concealed.",
    ),
    "input_error": ("Deze hand klopt niet: {message}", "This hand is not right: {message}"),
    "bonus_ignored": (
        "Onder deze regels tellen bloemen en seizoenen niet; ze zijn weggelaten.",
        "Under these rules flowers and seasons do not count; they were left out.",
    ),
    # context
    "context": ("Spelsituatie", "Situation"),
    "seat_wind": ("Eigen wind", "Seat wind"),
    "prevailing_wind": ("Heersende wind", "Prevailing wind"),
    "ruleset": ("Regels", "Rules"),
    "ruleset_fixed": ("Regels van de avond: {ruleset}", "Rules of the evening: {ruleset}"),
    "winning_tile": ("Winnende steen", "Winning tile"),
    "how_won": ("Hoe gewonnen", "How it won"),
    "self_drawn": ("Zelf gepakt (van de muur)", "Self-drawn (from the wall)"),
    "discard": ("Afgegooide steen", "Discarded tile"),
    "flags": ("Bijzondere momenten", "Special moments"),
    "flag_last_tile": ("Laatste steen van de muur", "Last tile of the wall"),
    "flag_kong_replacement": (
        "Kong met bloeiende bloemen (vervangende steen)",
        "Win on a kong replacement tile",
    ),
    "flag_kong_on_kong": ("Kong op kong", "Kong on kong"),
    "flag_robbing_kong": ("Kongroof", "Robbing the kong"),
    "flag_heaven": ("Spel van de hemel", "Heavenly hand"),
    "flag_earth": ("Spel van de aarde", "Earthly hand"),
    "wind_E": ("Oost", "East"),
    "wind_S": ("Zuid", "South"),
    "wind_W": ("West", "West"),
    "wind_N": ("Noord", "North"),
    # structure
    "structure": ("Sets", "Sets"),
    "structure_help": (
        "Zet aan welke sets open op tafel lagen (geroepen). Een kong kan gesloten zijn.",
        "Switch on the sets that lay open on the table (claimed). A kong may be concealed.",
    ),
    "laid_set": (
        "{kind} {tiles} lag open (apart van het rek)",
        "{kind} {tiles} lay open (apart from the rack)",
    ),
    "open_set": ("{kind} {tiles} lag open", "{kind} {tiles} was open"),
    "concealed_kong": ("Kong {tiles}: gesloten kong", "Kong {tiles}: concealed kong"),
    "typed_open": ("Andere open sets (notatie)", "Other open sets (notation)"),
    "typed_open_help": (
        "Sets die open op tafel lagen, gescheiden door spaties: 123m 555z. Liggen hun stenen niet in de hand "
        "hierboven, dan tellen ze los mee; liggen ze er wel in (bijv. 123m in plaats van 111m 222m 333m), "
        "dan worden ze daaruit genomen.",
        "Sets that lay open on the table, separated by spaces: 123m 555z. Sets whose tiles are not in the "
        "hand above count on their own; sets whose tiles are there (e.g. 123m instead of 111m 222m 333m) are "
        "taken from it.",
    ),
    "open_set_size": ("Open set {tiles}: een set is drie stenen.", "Open set {tiles}: a set is three tiles."),
    "no_sets": ("Geen sets om open te zetten.", "No sets to switch open."),
    "kind_chow": ("Chow", "Chow"),
    "kind_pung": ("Pong", "Pung"),
    "kind_kong": ("Kong", "Kong"),
    "kind_pair": ("Paar", "Pair"),
    "kind_seven_pairs": ("Zeven paren", "Seven pairs"),
    "kind_loose": ("Los", "Loose"),
    "open": ("open", "open"),
    "concealed": ("gesloten", "concealed"),
    # score
    "score": ("Score", "Score"),
    "total": ("Totaal", "Total"),
    "valid": ("Geldige mahjong: {total} punten", "Valid mahjong: {total} points"),
    "invalid": ("Geen geldige mahjong: {reason}", "Not a valid mahjong: {reason}"),
    "reason_no_winning_shape": ("geen mahjong-vorm", "no winning shape"),
    "reason_too_few_doublings": (
        "te weinig verdubbelingen (minstens {min_doublings})",
        "too few doublings (at least {min_doublings})",
    ),
    "reason_dead_hand": ("dode hand", "dead hand"),
    "col_item": ("Onderdeel", "Item"),
    "col_points": ("Punten", "Points"),
    "col_tiles": ("Stenen", "Tiles"),
    "col_doublings": ("Verdubbelingen", "Doublings"),
    "formula": (
        "{base} basispunten, {doublings} verdubbelingen: {base} × 2{power} = {total}",
        "{base} base points, {doublings} doublings: {base} × 2{power} = {total}",
    ),
    "capped": ("(maximaal 2000)", "(capped at 2000)"),
    "limit_hand": ("Limietspel: {name} — {value} punten", "Limit hand: {name} — {value} points"),
    "sets_read": ("Zo is de hand geteld", "How the hand was counted"),
    "score_input": (
        "De hand zoals de scorer hem kreeg (score --json)",
        "The hand as the scorer got it (score --json)",
    ),
    "col_set": ("Set", "Set"),
    "col_kind": ("Soort", "Kind"),
    "col_open": ("Open", "Open"),
    "scoring_time": ("berekend in {ms:.1f} ms", "computed in {ms:.1f} ms"),
    # the hand side of issue 15: tiles tapped as pictures, the result in view, waits
    "tile_tap_help": (
        "Tik een steen om hem te wijzigen of weg te halen; tik hieronder een steen om hem toe te voegen.",
        "Tap a tile to change or remove it; tap a tile below to add it.",
    ),
    "tile_picked": (
        "Steen {n} ({name}) gekozen: tik hieronder de juiste steen, of haal hem weg.",
        "Tile {n} ({name}) chosen: tap the right tile below, or remove it.",
    ),
    "bonus_picked": (
        "{name} gekozen: tik de juiste steen, of haal hem weg.",
        "{name} chosen: tap the right one, or remove it.",
    ),
    "remove_tile": ("Weg", "Remove"),
    "cancel_pick": ("Niet wijzigen", "Keep it"),
    "meld_kind": (
        "Een getikte steen komt erbij als (chow, pong, kong: open gemeld; chow: tik de laagste)",
        "A tapped tile is added as (chow, pung, kong: declared open; chow: tap the lowest)",
    ),
    "add_as_tile": ("losse steen", "single tile"),
    "add_as_chow": ("chow", "chow"),
    "add_as_pung": ("pong", "pung"),
    "add_as_kong": ("kong", "kong"),
    "add_as_concealed_kong": ("gesloten kong", "concealed kong"),
    "chow_start": (
        "Een chow begint bij 1 t/m 7 van tekens, kringen of bamboe: tik de laagste steen.",
        "A chow starts at 1 to 7 of characters, circles or bamboo: tap its lowest tile.",
    ),
    "meld_tile": (
        "Een set is van speelstenen, niet van bloemen, seizoenen of omgekeerde stenen.",
        "A set is made of playing tiles, not flowers, seasons or face-down tiles.",
    ),
    "declared": ("Gemelde sets", "Declared sets"),
    "no_tile": ("geen steen (weglaten)", "no tile (leave out)"),
    "read_left_out": ("({count} weggelaten)", "({count} left out)"),
    "typed_not_photo": (
        "De getypte hand hoort niet bij de foto: de foto staat er zonder vakjes bij.",
        "The typed hand does not belong to the photo: the photo is shown without boxes.",
    ),
    "one_short": ("Nog één steen nodig voor mahjong. Wacht op:", "One tile short of mahjong. Waits on:"),
    "one_short_none": (
        "Nog één steen nodig, maar geen enkele steen maakt deze hand af.",
        "One tile short, but no tile completes this hand.",
    ),
    "wait_valid": ("{tile}: {total} punten", "{tile}: {total} points"),
    "wait_invalid": ("{tile}: geen geldige mahjong ({reason})", "{tile}: not a valid mahjong ({reason})"),
    "no_concealed": (
        "Er liggen nog geen stenen buiten de sets: voeg de rest van de hand toe (met de winnende steen).",
        "No tiles outside the sets yet: add the rest of the hand (with the winning tile).",
    ),
    # settle
    "settle_intro": (
        "Iedere verliezer betaalt de winnaar; de verliezers verrekenen onderling het verschil. "
        "Oost betaalt en ontvangt dubbel.",
        "Each loser pays the winner; the losers settle their differences. East pays and receives double.",
    ),
    "settle_evening": ("Avond «{name}», spel {number}", "Evening «{name}», game {number}"),
    "player_name": ("Naam ({wind})", "Name ({wind})"),
    "winner": ("Winnaar", "Winner"),
    "draw": ("Remise (geen winnaar)", "Draw (no winner)"),
    "winner_score": ("Score van de winnaar", "Winner's score"),
    "from_hand": ("Uit de hand-tab ({total})", "From the Hand tab ({total})"),
    "typed": ("Zelf invullen", "Type it in"),
    "scored_from_hand": ("Uit hand tellen", "Score from hand"),
    "winner_hand_invalid": (
        "De hand in de hand-tab is geen geldige mahjong ({reason}); vul de score in of verbeter de hand.",
        "The hand in the Hand tab is not a valid mahjong ({reason}); type the score or fix the hand.",
    ),
    "hand_seat_differs": (
        "Let op: in de hand-tab is de eigen wind {hand}, hier wint {winner}.",
        "Note: the Hand tab's seat wind is {hand}, here {winner} wins.",
    ),
    "name_wind": ("{name} ({wind})", "{name} ({wind})"),
    "loser_score": ("Score", "Score"),
    "dead_hand": ("Dode hand (0 punten, betaalt wel)", "Dead hand (0 points, still pays)"),
    "loser_photo": ("Foto van deze hand (optioneel)", "Photo of this hand (optional)"),
    "loser_notation": ("Stenen van {name} in notatie", "{name}'s tiles in notation"),
    "settlement": ("Verrekening", "Settlement"),
    "col_seat": ("Wind", "Wind"),
    "col_name": ("Speler", "Player"),
    "col_score": ("Score", "Score"),
    "col_change": ("Krijgt / betaalt", "Receives / pays"),
    "balance_ok": ("Controle: de som is {balance} — klopt.", "Check: the sum is {balance} — correct."),
    "balance_bad": (
        "Controle: de som is {balance} in plaats van 0!",
        "Check: the sum is {balance} instead of 0!",
    ),
    "draw_nothing": ("Remise: er wordt niet betaald.", "Draw: nobody pays."),
    "record_game": ("Zet in de avondstand (spel {number})", "Add to the evening (game {number})"),
    "recorded": ("Spel {number} staat in de avondstand.", "Game {number} is on the scoreboard."),
    "recorded_learnt": (
        "Spel {number} staat in de avondstand; de app onthoudt {count} stenen van dit spel voor jullie set.",
        "Game {number} is on the scoreboard; the app remembers {count} tiles of this game for your set.",
    ),
    "no_evening_to_record": (
        "Start in de tab Avond een avond om spellen bij te houden.",
        "Start an evening in the Evening tab to keep the score of the games.",
    ),
    "settle_error": ("Afrekenen lukt niet: {message}", "Cannot settle: {message}"),
    # evening
    "choose_evening": ("Avond", "Evening"),
    "new_evening": ("— nieuwe avond —", "— new evening —"),
    "evening_label": ("{name} — {date}", "{name} — {date}"),
    "evening_name": ("Naam van de avond", "Name of the evening"),
    "players_in_order": (
        "Spelers: de eerste is Oost, dan Zuid, West en Noord (of laat de dobbelstenen de winden verdelen).",
        "Players: the first is East, then South, West and North (or let the dice share out the winds).",
    ),
    "player_n": ("Speler {n}", "Player {n}"),
    "draw_seats": ("Winden verdelen met de dobbelstenen", "Share out the winds with the dice"),
    "start_evening": ("Avond beginnen", "Start the evening"),
    "evening_error": ("Kan de avond niet beginnen: {message}", "Cannot start the evening: {message}"),
    "standing": ("Stand", "Standing"),
    "next_game": ("Spel {number}: {seats}", "Game {number}: {seats}"),
    "next_prevailing": ("Heersende wind: {wind}", "Prevailing wind: {wind}"),
    "wind_fixed": ("({games} spellen per wind)", "({games} games per wind)"),
    "throw_dice": (  # words, no dice emoji: a phone without the emoji font shows a box
        "Gooi de dobbelstenen voor de heersende wind",
        "Throw the dice for the prevailing wind",
    ),
    "thrown": ("Gegooid: {a} + {b} = {total} → {wind}", "Thrown: {a} + {b} = {total} → {wind}"),
    "session_complete": (
        "De sessie van {games} spellen is compleet.",
        "The session of {games} games is complete.",
    ),
    "record_draw": ("Remise (muur op)", "Draw (wall exhausted)"),
    "games": ("Spellen", "Games"),
    "no_games": ("Nog geen spellen gespeeld.", "No games played yet."),
    "col_game": ("Spel", "Game"),
    "col_prevailing": ("Heersend", "Prevailing"),
    "col_winner": ("Winnaar", "Winner"),
    "undo": ("Laatste spel ongedaan maken", "Undo the last game"),
    "undo_confirm": ("Ja, verwijder spel {number}", "Yes, remove game {number}"),
    "undone": ("Spel {number} is verwijderd.", "Game {number} was removed."),
    "export_csv": ("Exporteer CSV", "Export CSV"),
    "stored_in": ("Opgeslagen in {path}", "Stored in {path}"),
    "store_error": (
        "De avondstand kan niet worden opgeslagen: {message}",
        "The scoreboard cannot be saved: {message}",
    ),
    "unexpected_error": (
        "Er ging iets mis ({message}). Je invoer is bewaard; probeer het opnieuw.",
        "Something went wrong ({message}). Your input is kept; please try again.",
    ),
    # saving a game (issue 15, the evening): asked first where it needs a yes
    "record_invalid_ask": (
        "De winnaar krijgt 0 punten: dit is geen geldige mahjong. Toch opslaan?",
        "The winner gets 0 points: this is not a valid mahjong. Save it anyway?",
    ),
    "record_invalid_yes": ("Ja, sla spel {number} op met 0 punten", "Yes, save game {number} with 0 points"),
    "record_draw_game": (
        "Zet remise in de avondstand (spel {number})",
        "Add a draw to the evening (game {number})",
    ),
    "draw_ask": (
        "Spel {number} opslaan als remise? Niemand betaalt, de winden schuiven door.",
        "Save game {number} as a draw? Nobody pays, the winds move on.",
    ),
    "draw_yes": ("Ja, spel {number} is remise", "Yes, game {number} is a draw"),
    "undo_ask": (
        "Spel {number} verwijderen uit de avondstand?",
        "Remove game {number} from the evening?",
    ),
    "answer_no": ("Nee, terug", "No, go back"),
    "sample_hand": (
        "Dit is de hand van de voorbeeldfoto, niet van dit spel: upload of typ de winnende hand.",
        "This is the sample photo's hand, not this game's: upload or type the winning hand.",
    ),
    "sample_hand_use": ("Toch de voorbeeldhand gebruiken", "Use the sample hand anyway"),
    "dead_counts_zero": ("Dode hand: telt 0 punten.", "Dead hand: counts 0 points."),
    "dead_mark": ("dood", "dead"),
    "names_from_settle": (
        "De namen uit Afrekenen staan al ingevuld.",
        "The names typed in Settle are filled in.",
    ),
    "export_csv_nl": ("Exporteer voor Excel (NL, ;)", "Export for Dutch Excel (;)"),
    "err_evening_players": (
        "een avond heeft vier verschillende spelersnamen nodig",
        "an evening needs four different player names",
    ),
    "err_evening_seats": (
        "Oost, Zuid, West en Noord gaan elk naar precies één speler",
        "each of East, South, West, North goes to exactly one player",
    ),
    "err_evening_missing": ("er is geen avond met nummer {id}", "there is no evening number {id}"),
    "err_game_taken": (
        "spel {number} staat al in de avondstand (van een andere telefoon?); de avond heeft nu {games} "
        "spellen: kijk eerst naar de stand",
        "game {number} was already recorded (on another phone?); the evening now has {games} games: look at "
        "the standing before recording again",
    ),
    "err_game_wind": (
        "onder deze regels wordt spel {number} gespeeld met heersende wind {wind}",
        "under these rules game {number} is played in prevailing wind {wind}",
    ),
    "err_game_prevailing": (
        "de heersende wind moet Oost, Zuid, West of Noord zijn, niet {wind}",
        "the prevailing wind must be East, South, West or North, not {wind}",
    ),
    "err_game_winner": ("de winnaar {winner} is geen van de spelers", "the winner {winner} is not a player"),
    "err_settle_seats": (
        "een spel heeft precies de vier plaatsen Oost, Zuid, West en Noord",
        "a game has exactly the four seats East, South, West and North",
    ),
    "err_settle_dead_winner": (
        "de winnaar kan geen dode hand hebben; kies een andere winnaar of remise",
        "the winner cannot have a dead hand; choose another winner or a draw",
    ),
}


def t(lang: str, key: str, **params: Any) -> str:
    """The text for `key` in `lang` ("nl" or "en"), with `{fields}` filled in."""
    dutch, english = STRINGS[key]
    text = english if lang == "en" else dutch
    return text.format(**params) if params else text


def wind_name(lang: str, wind: str) -> str:
    """Oost/Zuid/West/Noord or East/South/West/North."""
    return t(lang, f"wind_{wind}")


def reason_text(lang: str, result: ScoreResult) -> str:
    """Why a hand is not valid, from its reason_code (the scorer's own words as fallback)."""
    key = f"reason_{result.reason_code}"
    if key in STRINGS:
        options = vars(get_ruleset(result.ruleset).options)
        return t(lang, key, **options)  # "at least {min_doublings}": the ruleset's number
    fallback = result.reason_nl if lang == "nl" else result.reason
    return fallback or result.reason or result.reason_code or ""


def item_name(lang: str, item: ScoreItem | LimitScore) -> str:
    """A breakdown line's or limit hand's name: the Dutch name of the point card, or its English name."""
    return item.name_en if lang == "en" and item.name_en else item.name
