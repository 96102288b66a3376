"""User-facing text in English and German, shared by the terminal and the web app."""

from __future__ import annotations

import os

from .core.messages import in_language

MESSAGES: dict[str, dict[str, str]] = {
    "to_move": {"en": "{colour} to move", "de": "{colour} ist am Zug"},
    "you": {"en": "you", "de": "du"},
    # the commands are typed as they are in both languages: they are values, not words to translate
    "help": {
        "en": "Type a move in notation, or: {commands}.",
        "de": "Gib einen Zug in Notation ein oder einen Befehl: {commands}.",
    },
    "help_commands": {
        "en": "{moves}, {undo}, {save} FILE, {resign}, {board}, {help}, {quit}",
        "de": "{moves} (erlaubte Züge zeigen), {undo} (Zug zurücknehmen), {save} DATEI (Partie speichern), "
              "{resign} (Partie aufgeben), {board} (Brett zeigen), {help} (diese Hilfe), {quit} (Partie verlassen)",
    },
    "legal": {"en": "Legal moves: {moves}", "de": "Erlaubte Züge: {moves}"},
    "played": {"en": "{who} plays {move}", "de": "{who} spielt {move}"},
    "rolled": {"en": "The die shows {face}", "de": "Der Würfel zeigt {face}"},
    "nothing_to_undo": {"en": "Nothing to undo.", "de": "Nichts zurückzunehmen."},
    "undo_past_roll": {"en": "A die has been rolled since your last move began, and a shown roll is never taken "
                             "back. Move first; then you can undo that move.",
                       "de": "Seit Beginn deines letzten Zuges wurde gewürfelt, und ein gezeigter Wurf wird nie "
                             "zurückgenommen. Zieh zuerst; dann kannst du diesen Zug zurücknehmen."},
    "saved": {"en": "Saved the record to {path}", "de": "Partie gespeichert in {path}"},
    "resigned": {"en": "{colour} resigns.", "de": "{colour} gibt auf."},
    "winner": {"en": "{colour} wins.", "de": "{colour} gewinnt."},
    "draw": {"en": "The game is a draw.", "de": "Die Partie endet unentschieden."},
    "score": {"en": "Score: {score}", "de": "Punkte: {score}"},
    "unknown": {"en": "Not understood: {error}", "de": "Nicht verstanden: {error}"},
    "illegal": {"en": "Illegal move {move}: {reason}", "de": "Unzulässiger Zug {move}: {reason}"},
    "save_failed": {"en": "Cannot save {path}: {reason}", "de": "Kann {path} nicht speichern: {reason}"},
    "save_ask": {"en": "Save the game before leaving? [y/N] ", "de": "Partie vor dem Verlassen speichern? [j/N] "},
    "yes_answers": {"en": "y yes", "de": "j ja y yes"},
    "save_file": {"en": "File name [{default}]: ", "de": "Dateiname [{default}]: "},
    # fair dice (ludothek.core.fairdice): the terminal against an agent, and `ludothek verify`
    "dice_fair": {
        "en": "Fair dice: every roll follows from a secret chosen now; its SHA-256 fingerprint is {commitment} "
              "(game {game_id}).",
        "de": "Faire Würfel: jeder Wurf folgt aus einem jetzt gewählten Geheimnis; sein SHA-256-Fingerabdruck ist "
              "{commitment} (Partie {game_id}).",
    },
    "dice_typed": {
        "en": "Against {agent} the program rolls the dice (fair dice): type the roll without its outcome{example}.",
        "de": "Gegen {agent} würfelt das Programm (faire Würfel): gib den Wurf ohne seine Augenzahl ein{example}.",
    },
    "dice_revealed": {
        "en": "The dice secret: {secret} (a saved record holds it; check it with: ludothek verify FILE)",
        "de": "Das Würfelgeheimnis: {secret} (eine gespeicherte Partie enthält es; prüfe sie mit: "
              "ludothek verify DATEI)",
    },
    "verify_ok": {"en": "{file}: {rolls} rolls verified{start}.", "de": "{file}: {rolls} Würfe geprüft{start}."},
    "verify_ok_one": {"en": "{file}: {rolls} roll verified{start}.", "de": "{file}: {rolls} Wurf geprüft{start}."},
    "verify_no_dice": {"en": "{file}: no dice were rolled in this game: nothing to verify.",
                       "de": "{file}: in dieser Partie wurde nicht gewürfelt: nichts zu prüfen."},
    "verify_ok_start": {"en": " and the roll for the first move", "de": " samt dem Wurf um den ersten Zug"},
    "verify_roll": {
        "en": "{file}: ply {ply} ({move}): the record has the outcome {found}, but the secret gives {expected}.",
        "de": "{file}: Halbzug {ply} ({move}): die Partie hat das Ergebnis {found}, das Geheimnis ergibt aber "
              "{expected}.",
    },
    "verify_unfair": {
        "en": "{file}: no DiceCommitment and GameId tags: the dice of this game were not rolled from a committed "
              "secret.",
        "de": "{file}: keine Tags DiceCommitment und GameId: die Würfe dieser Partie folgen aus keinem "
              "hinterlegten Geheimnis.",
    },
    "verify_unrevealed": {
        "en": "{file}: no DiceSecret tag yet: the secret is revealed when the game is over.",
        "de": "{file}: noch kein Tag DiceSecret: das Geheimnis wird aufgedeckt, wenn die Partie zu Ende ist.",
    },
    "verify_secret": {
        "en": "{file}: the DiceSecret tag is not 64 lower-case hex digits.",
        "de": "{file}: das Tag DiceSecret besteht nicht aus 64 kleinen Hex-Ziffern.",
    },
    "verify_commitment": {
        "en": "{file}: the DiceSecret does not match the DiceCommitment: the secret was changed.",
        "de": "{file}: DiceSecret passt nicht zu DiceCommitment: das Geheimnis wurde verändert.",
    },
    "verify_start_roll": {
        "en": "{file}: the roll for the first move (StartRoll) is not the one the secret gives.",
        "de": "{file}: der Wurf um den ersten Zug (StartRoll) ist nicht der, den das Geheimnis ergibt.",
    },
    "start_roll": {
        "en": "Roll for the first move ({rule} starts): {rolls}",
        "de": "Wurf um den ersten Zug ({rule} beginnt): {rolls}",
    },
    "high": {"en": "high", "de": "hoch"},
    "low": {"en": "low", "de": "niedrig"},
    "starts": {"en": "{colour} starts.", "de": "{colour} beginnt."},
    "bye": {"en": "Game left unfinished.", "de": "Partie nicht beendet."},
    "undo_over": {"en": "The game is over: its moves can no longer be taken back.",
                  "de": "Die Partie ist beendet: Ihre Züge können nicht mehr zurückgenommen werden."},
    "ended_by_rules": {"en": "The game ended by its rules.", "de": "Die Partie endete nach ihren Regeln."},
    # `ludothek replay`
    "replay_result": {"en": "result: {result}", "de": "Ergebnis: {result}"},
}

COLOURS: dict[str, dict[str, str]] = {
    "black": {"en": "Black", "de": "Schwarz"},
    "white": {"en": "White", "de": "Weiß"},
    "a": {"en": "A", "de": "A"},
    "b": {"en": "B", "de": "B"},
}


def default_language() -> str:
    lang = os.environ.get("LUDOTHEK_LANG") or os.environ.get("LANG", "")
    return "de" if lang.lower().startswith("de") else "en"


def text(key: str, lang: str, **values: object) -> str:
    """The terminal text ``key`` in ``lang``; values that are messages or Ludothek errors are
    given in ``lang`` too."""
    table = MESSAGES[key]
    return table.get(lang, table["en"]).format(**{name: in_language(value, lang) for name, value in values.items()})


def colour_name(colour: str, lang: str) -> str:
    names = COLOURS.get(colour.lower())
    return names.get(lang, names["en"]) if names else colour


# ---------------------------------------------------------------------------- the web app
#: UI text of the web app, served to the browser as JSON (``/api/i18n``); ``{name}`` fills in.
#: A text whose ``{n}`` is a count may have a form for one, ``key_one``: the page picks it with
#: ``Intl.PluralRules`` (``key`` itself is the form for any other number).
WEB: dict[str, dict[str, str]] = {
    "app_name": {"en": "Ludothek", "de": "Ludothek"},
    "nav_play": {"en": "Play", "de": "Spielen"},
    "nav_archive": {"en": "Archive", "de": "Archiv"},
    "nav_rules": {"en": "Rules", "de": "Regeln"},
    "tagline": {"en": "Board games for two, in your browser.",
                "de": "Brettspiele für zwei, im Browser."},
    "choose_game": {"en": "Choose a game", "de": "Wähle ein Spiel"},
    "options": {"en": "Options", "de": "Optionen"},
    "opt_size": {"en": "Board size", "de": "Brettgröße"},
    "opt_stakes": {"en": "Play for stakes (doubling cube)", "de": "Um Einsätze spielen (Verdopplungswürfel)"},
    "opt_first": {"en": "First player", "de": "Wer beginnt"},
    "opt_max_plies": {"en": "Draw after plies", "de": "Remis nach Halbzügen"},
    "opt_cube": {"en": "Play for stakes (doubling cube)", "de": "Um Einsätze spielen (Verdopplungswürfel)"},
    "first_high": {"en": "Roll: high starts", "de": "Würfeln: hoch beginnt"},
    "first_low": {"en": "Roll: low starts", "de": "Würfeln: niedrig beginnt"},
    "first_fixed": {"en": "Fixed", "de": "Fest"},
    "opponent": {"en": "Opponent", "de": "Gegner"},
    "opp_hotseat": {"en": "Hot-seat (same screen)", "de": "Am selben Bildschirm"},
    "opp_bot": {"en": "Computer", "de": "Computer"},
    "opp_friend": {"en": "Friend (invite link)", "de": "Freund (Einladungslink)"},
    "bot_level": {"en": "Strength", "de": "Spielstärke"},
    "bot_random": {"en": "Random", "de": "Zufall"},
    "bot_n": {"en": "Level {n}", "de": "Stufe {n}"},
    "bot_perfect": {"en": "Perfect (solved)", "de": "Perfekt (gelöst)"},
    "your_colour": {"en": "Your colour", "de": "Deine Farbe"},
    "colour_random": {"en": "Random", "de": "Zufällig"},
    "clock": {"en": "Clock", "de": "Uhr"},
    "clock_none": {"en": "No clock", "de": "Ohne Uhr"},
    "minutes": {"en": "Minutes", "de": "Minuten"},
    "increment": {"en": "Increment (s)", "de": "Zeitzuschlag (s)"},
    "start_game": {"en": "Start game", "de": "Partie beginnen"},
    "to_move": {"en": "{colour} to move", "de": "{colour} ist am Zug"},
    "your_turn": {"en": "Your move", "de": "Du bist am Zug"},
    "bot_thinking": {"en": "The computer is thinking…", "de": "Der Computer denkt nach …"},
    "waiting_friend": {"en": "Waiting for your friend to join", "de": "Warte auf deinen Mitspieler"},
    "invite_text": {"en": "Send this link to your opponent:", "de": "Schicke diesen Link deinem Gegner:"},
    "watch_text": {"en": "Spectators can watch here:", "de": "Zuschauer sehen hier zu:"},
    "copy": {"en": "Copy", "de": "Kopieren"},
    "copied": {"en": "Copied", "de": "Kopiert"},
    "spectating": {"en": "You are watching", "de": "Du schaust zu"},
    "moves": {"en": "Moves", "de": "Züge"},
    "no_moves_yet": {"en": "No moves yet", "de": "Noch keine Züge"},
    "resign": {"en": "Resign", "de": "Aufgeben"},
    "confirm_resign": {"en": "Really resign?", "de": "Wirklich aufgeben?"},
    "undo": {"en": "Undo", "de": "Zurück"},
    "rematch": {"en": "Rematch", "de": "Revanche"},
    "flip": {"en": "Flip board", "de": "Brett drehen"},
    "download": {"en": "Download record", "de": "Partie herunterladen"},
    "new_game": {"en": "New game", "de": "Neue Partie"},
    "wins": {"en": "{colour} wins", "de": "{colour} gewinnt"},
    "draw": {"en": "Draw", "de": "Remis"},
    "by_resign": {"en": "by resignation", "de": "durch Aufgabe"},
    "by_time": {"en": "on time", "de": "durch Zeitüberschreitung"},
    "by_abandon": {"en": "(the opponent stayed away)", "de": "(der Gegner blieb der Partie fern)"},
    "expired": {"en": "Nobody joined this game in time", "de": "Niemand ist dieser Partie rechtzeitig beigetreten"},
    "claim_win": {"en": "Claim the win", "de": "Sieg beanspruchen"},
    "confirm_claim": {"en": "Your opponent has not moved for a long time. Claim the win?",
                      "de": "Dein Gegner hat lange nicht gezogen. Den Sieg beanspruchen?"},
    "by_rules": {"en": "", "de": ""},
    # how a game ended, when no rule of the game ended it (the games' own words are in their specs)
    "ending_resign": {"en": "A player resigned.", "de": "Ein Spieler hat aufgegeben."},
    "ending_time": {"en": "A player's time ran out.", "de": "Die Zeit eines Spielers ist abgelaufen."},
    "ending_abandon": {"en": "The player to move stayed away too long; the other claimed the win.",
                       "de": "Der Spieler am Zug blieb zu lange fern; der andere hat den Sieg beansprucht."},
    "ending_expired": {"en": "Nobody took the open seat in time.",
                       "de": "Niemand hat den freien Platz rechtzeitig eingenommen."},
    "ending_agreement": {"en": "The players agreed to a draw.", "de": "Die Spieler haben sich auf remis geeinigt."},
    # games nobody started (ludothek/web/aborts.py): no result, no rating change
    "ending_aborted_first_move_late": {
        "en": "A player did not make a first move in time. The game has no result and counts for nobody.",
        "de": "Ein Spieler hat seinen ersten Zug nicht rechtzeitig gemacht. Die Partie hat kein Ergebnis und "
              "zählt für niemanden."},
    "ending_aborted_by_player": {
        "en": "A player aborted the game before making a first move. It has no result and counts for nobody.",
        "de": "Ein Spieler hat die Partie vor seinem ersten Zug abgebrochen. Sie hat kein Ergebnis und zählt für "
              "niemanden."},
    "game_aborted": {"en": "Game aborted", "de": "Partie abgebrochen"},
    "aborted": {"en": "Aborted", "de": "Abgebrochen"},
    "abort": {"en": "Abort game", "de": "Partie abbrechen"},
    "confirm_abort": {"en": "Abort this game? It will have no result.",
                      "de": "Diese Partie abbrechen? Sie bleibt ohne Ergebnis."},
    "first_move_you": {"en": "Make your first move within {left}, or the game is aborted.",
                       "de": "Mach deinen ersten Zug innerhalb von {left}, sonst wird die Partie abgebrochen."},
    "first_move_other": {"en": "{who} has {left} for a first move, or the game is aborted.",
                         "de": "{who} hat noch {left} für den ersten Zug, sonst wird die Partie abgebrochen."},
    "abort_rule": {"en": "A game in which a player makes no first move within 30 seconds (a day by correspondence) "
                         "is aborted: no result, no rating change. Before your own first move you may abort it "
                         "yourself.",
                   "de": "Eine Partie, in der ein Spieler nicht innerhalb von 30 Sekunden (bei Fernpartien eines "
                         "Tages) seinen ersten Zug macht, wird abgebrochen: kein Ergebnis, keine Wertungsänderung. "
                         "Vor deinem eigenen ersten Zug darfst du sie selbst abbrechen."},
    "ending_over": {"en": "The game ended by its rules.", "de": "Die Partie endete nach ihren Regeln."},
    "by_agreement": {"en": "by agreement", "de": "durch Einigung"},
    "end_title": {"en": "Game over", "de": "Partie beendet"},
    "end_details": {"en": "Details", "de": "Details"},
    "close": {"en": "Close", "de": "Schließen"},
    "final_score": {"en": "Score: {score}", "de": "Punkte: {score}"},
    # takebacks and draw offers in online games
    "offer_takeback": {"en": "Propose a takeback", "de": "Zurücknahme vorschlagen"},
    "roll_kept": {"en": "A die has been rolled since your last move began, and a shown roll is never taken back.",
                  "de": "Seit Beginn deines letzten Zuges wurde gewürfelt, und ein gezeigter Wurf wird nie "
                        "zurückgenommen."},
    "offer_draw": {"en": "Offer a draw", "de": "Remis anbieten"},
    "takeback_waiting": {"en": "You proposed to take back your last move: waiting for an answer.",
                         "de": "Du hast vorgeschlagen, deinen letzten Zug zurückzunehmen: Warte auf die Antwort."},
    "draw_waiting": {"en": "You offered a draw: waiting for an answer.",
                     "de": "Du hast Remis angeboten: Warte auf die Antwort."},
    "withdraw": {"en": "Withdraw", "de": "Zurückziehen"},
    "takeback_asked": {"en": "Your opponent asks to take back their last move.",
                       "de": "Dein Gegner möchte seinen letzten Zug zurücknehmen."},
    "draw_asked": {"en": "Your opponent offers a draw.", "de": "Dein Gegner bietet Remis an."},
    "takeback_pending": {"en": "A takeback has been proposed.", "de": "Eine Zurücknahme wurde vorgeschlagen."},
    "draw_pending": {"en": "A draw has been offered.", "de": "Ein Remis wurde angeboten."},
    "accept": {"en": "Accept", "de": "Annehmen"},
    "decline": {"en": "Decline", "de": "Ablehnen"},
    "score": {"en": "Score", "de": "Punkte"},
    "eins": {"en": "Eins!", "de": "Eins!"},
    "eins_hint": {"en": "A 1 is threatened", "de": "Eine Eins ist bedroht"},
    "swap_offer": {"en": "Swap colours (pie rule)", "de": "Farben tauschen (Tortenregel)"},
    "swap_hint": {"en": "You may take over Black's opening stone instead of moving.",
                  "de": "Statt zu ziehen darfst du den Eröffnungsstein von Schwarz übernehmen."},
    "roll": {"en": "Roll this die", "de": "Diesen Würfel werfen"},
    "rolled": {"en": "Rolled: {face}", "de": "Gewürfelt: {face}"},
    "choose_move": {"en": "Choose", "de": "Auswählen"},
    "cancel": {"en": "Cancel", "de": "Abbrechen"},
    "promote_to": {"en": "Promote to 6", "de": "In eine 6 umwandeln"},
    "stay": {"en": "Stay a 2", "de": "Als 2 bleiben"},
    "cube": {"en": "Cube", "de": "Würfel"},
    "cube_double": {"en": "Offer to double to {n}", "de": "Verdoppeln auf {n} anbieten"},
    "cube_offered": {"en": "Your opponent offers to double the stake.", "de": "Dein Gegner bietet an, den Einsatz zu verdoppeln."},
    "cube_take": {"en": "Take", "de": "Annehmen"},
    "cube_drop": {"en": "Drop (lose)", "de": "Ablehnen (verlieren)"},
    "stake": {"en": "Stake {n}", "de": "Einsatz {n}"},
    "dice_style": {"en": "Dice as", "de": "Würfel als"},
    "dice_pips": {"en": "pips", "de": "Augen"},
    "dice_chess": {"en": "chess pieces", "de": "Schachfiguren"},
    "dice_verify": {"en": "Verify the dice", "de": "Würfel prüfen"},
    "dice_commitment": {
        "en": "Every roll of this game follows from a secret fixed before the first roll. Its SHA-256 fingerprint:",
        "de": "Jeder Wurf dieser Partie folgt aus einem Geheimnis, das vor dem ersten Wurf feststand. Sein "
              "SHA-256-Fingerabdruck:",
    },
    "dice_pending": {"en": "The secret is shown when the game is over.",
                     "de": "Das Geheimnis wird gezeigt, wenn die Partie zu Ende ist."},
    "dice_secret": {"en": "The secret, revealed now that the game is over:",
                    "de": "Das Geheimnis, aufgedeckt nach dem Ende der Partie:"},
    "dice_how": {"en": "then check every roll with:", "de": "dann jeden Wurf prüfen mit:"},
    "archive_title": {"en": "Games", "de": "Partien"},
    "archive_running": {"en": "Running", "de": "Laufend"},
    "archive_finished": {"en": "Finished", "de": "Beendet"},
    "archive_waiting": {"en": "Waiting", "de": "Wartend"},
    "archive_empty": {"en": "No games yet.", "de": "Noch keine Partien."},
    "replay": {"en": "Replay", "de": "Nachspielen"},
    "open": {"en": "Open", "de": "Öffnen"},
    "game": {"en": "Game", "de": "Spiel"},
    "players": {"en": "Players", "de": "Spieler"},
    "result": {"en": "Result", "de": "Ergebnis"},
    "plies": {"en": "Plies", "de": "Halbzüge"},
    "started": {"en": "Started", "de": "Begonnen"},
    "human": {"en": "Human", "de": "Mensch"},
    "player_n": {"en": "Player {n}", "de": "Spieler {n}"},
    "mode_local": {"en": "hot-seat", "de": "am selben Bildschirm"},
    "mode_bot": {"en": "vs computer", "de": "gegen Computer"},
    "mode_online": {"en": "online", "de": "online"},
    "status_waiting": {"en": "waiting", "de": "wartet"},
    "status_ongoing": {"en": "running", "de": "läuft"},
    "status_over": {"en": "finished", "de": "beendet"},
    "first_move": {"en": "Start", "de": "Anfang"},
    "back": {"en": "Back", "de": "Zurück"},
    "forward": {"en": "Forward", "de": "Vor"},
    "last": {"en": "Last", "de": "Ende"},
    "live": {"en": "Live", "de": "Live"},
    # the roll for the first move, from the view's start_roll parts: "(high starts): White 3, Black 3; White 2, …"
    "start_roll": {"en": "Roll for the first move ({rule} starts): {rolls}",
                   "de": "Wurf um den ersten Zug ({rule} beginnt): {rolls}"},
    "rule_high": {"en": "high", "de": "hoch"},
    "rule_low": {"en": "low", "de": "niedrig"},
    "error": {"en": "Error", "de": "Fehler"},
    "connection_lost": {"en": "Connection lost — reconnecting…", "de": "Verbindung verloren – verbinde neu …"},
    # phone, dark mode, sound, connection state, keyboard and screen readers
    "connection_back": {"en": "Connected again", "de": "Wieder verbunden"},
    "skip_to_content": {"en": "Skip to the content", "de": "Zum Inhalt springen"},
    "nav_label": {"en": "Pages", "de": "Seiten"},
    "theme_dark": {"en": "Dark mode", "de": "Dunkler Modus"},
    "sound": {"en": "Move sounds", "de": "Zugtöne"},
    "game_pictures": {"en": "Games", "de": "Spiele"},
    "board": {"en": "Board", "de": "Spielbrett"},
    "board_help": {"en": "Arrow keys move between the cells, Enter or Space selects a piece and moves it.",
                   "de": "Die Pfeiltasten wechseln das Feld, Eingabe oder Leertaste wählt eine Figur und zieht sie."},
    "cell_empty": {"en": "empty", "de": "leer"},
    "cell_selected": {"en": "selected", "de": "ausgewählt"},
    "cell_movable": {"en": "can move", "de": "kann ziehen"},
    "cell_target": {"en": "legal target", "de": "mögliches Ziel"},
    "cell_last": {"en": "last move", "de": "letzter Zug"},
    "cell_threatened": {"en": "threatened", "de": "bedroht"},
    "grid_cell": {"en": "row {row}, column {col}", "de": "Reihe {row}, Spalte {col}"},
    "stone_b": {"en": "black stone", "de": "schwarzer Stein"},
    "stone_w": {"en": "white stone", "de": "weißer Stein"},
    "pawn": {"en": "pawn", "de": "Spielfigur"},
    "die_piece": {"en": "{colour} {face}", "de": "{colour} {face}"},
    "die_temporary": {"en": "not final yet", "de": "noch nicht endgültig"},
    "grid_die": {"en": "die {die}, sides {faces}", "de": "Würfel {die}, Seiten {faces}"},
    "tray_die": {"en": "die {die}, not yet placed", "de": "Würfel {die}, noch nicht gesetzt"},
    "piece_light": {"en": "light piece", "de": "heller Stein"},
    "piece_dark": {"en": "dark piece", "de": "dunkler Stein"},
    "announce_move": {"en": "{colour} plays {move}", "de": "{colour} spielt {move}"},
    "announce_roll": {"en": "{colour} rolls {move}: {face}", "de": "{colour} würfelt {move}: {face}"},
    "announce_chance": {"en": "The die shows {face}", "de": "Der Würfel zeigt {face}"},
    "announce_undo": {"en": "A move was taken back", "de": "Ein Zug wurde zurückgenommen"},
    "replay_start": {"en": "To the start", "de": "Zum Anfang"},
    "replay_back": {"en": "One move back", "de": "Einen Zug zurück"},
    "replay_forward": {"en": "One move forward", "de": "Einen Zug vor"},
    "not_found": {"en": "This game does not exist.", "de": "Diese Partie gibt es nicht."},
    "language": {"en": "Language", "de": "Sprache"},
    "rules_title": {"en": "Rules", "de": "Regeln"},
    "show_legal": {"en": "Click a piece to see where it can go.", "de": "Klicke eine Figur an, um ihre Ziele zu sehen."},
    "rematch_offered": {"en": "A rematch is ready.", "de": "Eine Revanche ist bereit."},
    "join_rematch": {"en": "Join the rematch", "de": "Zur Revanche"},
    "type_move": {"en": "or type a move", "de": "oder Zug eintippen"},
    "play_move": {"en": "Play", "de": "Ziehen"},
    "tray": {"en": "Not yet placed", "de": "Noch nicht gesetzt"},
    "orientation": {"en": "Pick the die's orientation", "de": "Wähle die Lage des Würfels"},
    "last_placed": {"en": "placed last", "de": "zuletzt gesetzt"},
    "seat_a": {"en": "A", "de": "A"},
    "seat_b": {"en": "B", "de": "B"},
    "you": {"en": "you", "de": "du"},
    # the computer analysis of a finished game (issue 12, item 7)
    "analyse": {"en": "Analyse", "de": "Analysieren"},
    "analysis_title": {"en": "Computer analysis", "de": "Computeranalyse"},
    "analysis_queued": {"en": "Waiting for a free computer …", "de": "Wartet auf einen freien Rechner …"},
    "analysis_running": {"en": "Analysing: {done} of {total} plies", "de": "Analysiere: {done} von {total} Halbzügen"},
    "analysis_failed": {"en": "The analysis failed: {error}", "de": "Die Analyse ist fehlgeschlagen: {error}"},
    "analysis_chart": {"en": "Evaluation after every ply", "de": "Bewertung nach jedem Halbzug"},
    "analysis_desc": {
        "en": "{plies} plies; above the middle line {above} stands better, below it {below}. "
              "Inaccuracies: {inaccuracies}, mistakes: {mistakes}, blunders: {blunders}.",
        "de": "{plies} Halbzüge; oberhalb der Mittellinie steht {above} besser, unterhalb {below}. "
              "Ungenauigkeiten: {inaccuracies}, Fehler: {mistakes}, grobe Fehler: {blunders}.",
    },
    "analysis_eval": {"en": "evaluation {value}", "de": "Bewertung {value}"},
    "analysis_counts": {"en": "{colour}: inaccuracies {inaccuracies}, mistakes {mistakes}, blunders {blunders}",
                        "de": "{colour}: Ungenauigkeiten {inaccuracies}, Fehler {mistakes}, grobe Fehler {blunders}"},
    "analysis_search": {"en": "The game's strongest search, {budget} steps a position.",
                        "de": "Die stärkste Suche des Spiels, {budget} Schritte je Stellung."},
    "analysis_exact": {"en": "Exact values from the solved game.", "de": "Exakte Werte aus der Lösung des Spiels."},
    "analysis_no_table": {"en": "The solved table is missing here: the values come from a search.",
                          "de": "Die Lösungstabelle fehlt hier: Die Werte stammen aus einer Suche."},
    "inaccuracy": {"en": "Inaccuracy", "de": "Ungenauigkeit"},
    "mistake": {"en": "Mistake", "de": "Fehler"},
    "blunder": {"en": "Blunder", "de": "Grober Fehler"},
    "best_was": {"en": "Best was {move}", "de": "Besser war {move}"},
    "exact_win": {"en": "win in {n}", "de": "Gewinn in {n}"},
    "exact_loss": {"en": "loss in {n}", "de": "Verlust in {n}"},
    "exact_draw": {"en": "draw", "de": "remis"},
    "computer": {"en": "computer", "de": "Computer"},
    # accounts (issue 11): optional; the header's account menu and the /login page
    "nav_login": {"en": "Log in", "de": "Anmelden"},
    "logout": {"en": "Log out", "de": "Abmelden"},
    "account_label": {"en": "Account", "de": "Konto"},
    "logged_in_as": {"en": "Logged in as {name}", "de": "Angemeldet als {name}"},
    "login_title": {"en": "Log in", "de": "Anmelden"},
    "signup_title": {"en": "Create an account", "de": "Konto anlegen"},
    "login_submit": {"en": "Log in", "de": "Anmelden"},
    "signup_submit": {"en": "Sign up", "de": "Registrieren"},
    "user_name": {"en": "User name", "de": "Benutzername"},
    "password": {"en": "Password", "de": "Passwort"},
    "name_hint": {"en": "3 to 20 characters: letters, digits, _ and -",
                  "de": "3 bis 20 Zeichen: Buchstaben, Ziffern, _ und -"},
    "password_hint": {"en": "At least 8 characters, and none of the most common passwords.",
                      "de": "Mindestens 8 Zeichen und keines der häufigsten Passwörter."},
    "to_signup": {"en": "No account yet? Sign up", "de": "Noch kein Konto? Registrieren"},
    "to_login": {"en": "Already have an account? Log in", "de": "Schon ein Konto? Anmelden"},
    "account_optional": {
        "en": "An account is optional. With one, your games follow you to every device where you log in; "
              "the games of this browser come along. Guests play as before.",
        "de": "Ein Konto ist freiwillig. Mit einem Konto begleiten dich deine Partien auf jedes Gerät, auf dem du "
              "dich anmeldest; die Partien dieses Browsers kommen mit. Gäste spielen wie bisher.",
    },
    "archive_mine": {"en": "My games", "de": "Meine Partien"},
    "player_you": {"en": "{name} (you)", "de": "{name} (du)"},
    # players (issue 11): the lobby, rated games, correspondence, profiles, the leaderboard
    "nav_lobby": {"en": "Lobby", "de": "Treffpunkt"},
    "nav_leaderboard": {"en": "Leaderboard", "de": "Bestenliste"},
    "lobby_title": {"en": "Lobby", "de": "Treffpunkt"},
    "lobby_tagline": {"en": "Offer a game to anyone, or take someone's offer.",
                      "de": "Biete allen eine Partie an oder nimm das Angebot eines anderen an."},
    "seek_create_title": {"en": "Create a game", "de": "Partie anbieten"},
    "seek_create": {"en": "Offer this game", "de": "Diese Partie anbieten"},
    "seek_waiting": {"en": "Your offer is listed: waiting for an opponent. Keep this page open.",
                     "de": "Dein Angebot steht in der Liste: Warte auf einen Gegner. Lass diese Seite offen."},
    "seek_waiting_days": {"en": "Your offer is listed for up to a week, even when you leave this page.",
                          "de": "Dein Angebot bleibt bis zu einer Woche in der Liste, auch wenn du diese Seite "
                                "verlässt."},
    "seek_cancelled": {"en": "Your offer was withdrawn.", "de": "Dein Angebot wurde zurückgezogen."},
    "seeks_title": {"en": "Open offers", "de": "Offene Angebote"},
    "seeks_empty": {"en": "Nobody is offering a game right now. Create one!",
                    "de": "Gerade bietet niemand eine Partie an. Biete selbst eine an!"},
    "live_games": {"en": "Games being played", "de": "Laufende Partien"},
    "live_empty": {"en": "No games between two people are being played right now.",
                   "de": "Gerade spielen keine zwei Menschen gegeneinander."},
    "watch": {"en": "Watch", "de": "Zuschauen"},
    "player": {"en": "Player", "de": "Spieler"},
    "guest": {"en": "Guest", "de": "Gast"},
    "yours": {"en": "yours", "de": "deins"},
    "mode": {"en": "Mode", "de": "Art"},
    "time_control": {"en": "Time", "de": "Bedenkzeit"},
    "their_colour": {"en": "You get", "de": "Du bekommst"},
    "actions": {"en": "Actions", "de": "Aktionen"},
    "rated": {"en": "Rated", "de": "Gewertet"},
    "casual": {"en": "Casual", "de": "Ungewertet"},
    "rated_game": {"en": "Rated game", "de": "Gewertete Partie"},
    "rated_hint": {"en": "The result changes both players' ratings.",
                   "de": "Das Ergebnis verändert die Wertungszahlen beider Spieler."},
    "rated_friend_hint": {"en": "The result changes both ratings; your friend must be logged in to join.",
                          "de": "Das Ergebnis verändert beide Wertungszahlen; dein Freund muss angemeldet sein, "
                                "um beizutreten."},
    "rated_needs_account": {"en": "Rated games need an account.", "de": "Gewertete Partien brauchen ein Konto."},
    "clock_kind_none": {"en": "No clock", "de": "Ohne Uhr"},
    "clock_kind_live": {"en": "Minutes + increment", "de": "Minuten + Zuschlag"},
    "clock_kind_days": {"en": "Days per move (correspondence)", "de": "Tage pro Zug (Fernpartie)"},
    "days_per_move": {"en": "Days per move", "de": "Tage pro Zug"},
    "days_n": {"en": "{n} days", "de": "{n} Tage"},
    "days_n_one": {"en": "{n} day", "de": "{n} Tag"},
    "clock_days": {"en": "{n} days per move", "de": "{n} Tage pro Zug"},
    "clock_days_one": {"en": "{n} day per move", "de": "{n} Tag pro Zug"},
    "time_dh": {"en": "{d} d {h} h", "de": "{d} T. {h} Std."},
    "time_hm": {"en": "{h} h {m} min", "de": "{h} Std. {m} Min."},
    "time_m": {"en": "{m} min", "de": "{m} Min."},
    "deadline_you": {"en": "{left} left for your move", "de": "Noch {left} für deinen Zug"},
    "deadline_other": {"en": "{who} to move: {left} left", "de": "{who} ist am Zug: noch {left}"},
    "rating_changes": {"en": "Ratings", "de": "Wertungszahlen"},
    "rating_gained": {"en": "rating up by {n}", "de": "Wertungszahl um {n} gestiegen"},
    "rating_lost": {"en": "rating down by {n}", "de": "Wertungszahl um {n} gesunken"},
    "your_turn_count": {"en": "{n} waiting for your move", "de": "{n} warten auf deinen Zug"},
    "your_turn_count_one": {"en": "{n} waiting for your move", "de": "{n} wartet auf deinen Zug"},
    "your_turn_mark": {"en": "Your move", "de": "Du bist am Zug"},
    "notify_me": {"en": "Notify me when it is my move", "de": "Benachrichtige mich, wenn ich am Zug bin"},
    "notify_denied": {"en": "This browser does not allow notifications from this site.",
                      "de": "Dieser Browser erlaubt dieser Seite keine Benachrichtigungen."},
    "notify_your_turn": {"en": "It is your move.", "de": "Du bist am Zug."},
    "all_games": {"en": "All games", "de": "Alle Spiele"},
    "player_name": {"en": "Player name", "de": "Spielername"},
    "games_found": {"en": "{n} games found", "de": "{n} Partien gefunden"},
    "games_found_one": {"en": "{n} game found", "de": "{n} Partie gefunden"},
    # profiles and the leaderboard
    "member_since": {"en": "Playing here since {date}", "de": "Spielt hier seit {date}"},
    "profile_missing": {"en": "Nobody by this name", "de": "Niemand mit diesem Namen"},
    "no_rated_games": {"en": "No rated games yet.", "de": "Noch keine gewerteten Partien."},
    "recent_games": {"en": "Recent games", "de": "Letzte Partien"},
    "games_n": {"en": "{n} rated games", "de": "{n} gewertete Partien"},
    "games_n_one": {"en": "{n} rated game", "de": "{n} gewertete Partie"},
    "wins_n": {"en": "{n} won", "de": "{n} gewonnen"},
    "draws_n": {"en": "{n} drawn", "de": "{n} remis"},
    "losses_n": {"en": "{n} lost", "de": "{n} verloren"},
    "provisional": {"en": "provisional", "de": "vorläufig"},
    "provisional_hint": {"en": "? = provisional: too few games for a settled rating.",
                         "de": "? = vorläufig: zu wenige Partien für eine gefestigte Wertungszahl."},
    "provisional_players": {"en": "Provisional ratings", "de": "Vorläufige Wertungszahlen"},
    "rating_chart": {"en": "Rating history in {game}", "de": "Verlauf der Wertungszahl in {game}"},
    "rating_chart_desc": {
        "en": "{n} ratings from {start} to {end}: from {from} to {to}; highest {high}, lowest {low}.",
        "de": "{n} Wertungszahlen vom {start} bis zum {end}: von {from} auf {to}; höchste {high}, niedrigste {low}.",
    },
    "rating_chart_one": {"en": "One rated game so far: from {from} at the start to {value} on {date}.",
                         "de": "Bisher eine gewertete Partie: von {from} zu Beginn auf {value} am {date}."},
    "rating_chart_wait": {"en": "The line grows with every rated game.",
                          "de": "Die Linie wächst mit jeder gewerteten Partie."},
    "leaderboard_title": {"en": "Leaderboard", "de": "Bestenliste"},
    "leaderboard_games": {"en": "Games", "de": "Spiele"},
    "leaderboard_empty": {"en": "Nobody has played a rated game of it yet.",
                          "de": "Noch niemand hat davon eine gewertete Partie gespielt."},
    "rank": {"en": "Rank", "de": "Platz"},
    "rating": {"en": "Rating", "de": "Wertungszahl"},
    "deviation": {"en": "Deviation", "de": "Abweichung"},
    "games_played": {"en": "Games", "de": "Partien"},
    # the rating chart's first point: where every rating starts
    "rating_start": {"en": "Starting rating", "de": "Wertungszahl zu Beginn"},
    # the compact header on a phone
    "menu": {"en": "Menu", "de": "Menü"},
    # zooming a large board (on a phone)
    "zoom_in": {"en": "Zoom in", "de": "Vergrößern"},
    "zoom_out": {"en": "Zoom out", "de": "Verkleinern"},
    "zoom_hint": {"en": "Drag to move the board; pinch or use the buttons to zoom.",
                  "de": "Zum Verschieben ziehen; zum Zoomen mit zwei Fingern spreizen oder die Knöpfe nutzen."},
}


def web_catalog() -> dict[str, dict[str, str]]:
    """The web app's texts per language: ``{"en": {key: text}, "de": {...}}``, with colour names."""
    catalog: dict[str, dict[str, str]] = {"en": {}, "de": {}}
    for lang, entries in catalog.items():
        for key, table in WEB.items():
            entries[key] = table.get(lang, table["en"])
        for colour, table in COLOURS.items():
            entries[f"colour_{colour}"] = table.get(lang, table["en"])
    return catalog
