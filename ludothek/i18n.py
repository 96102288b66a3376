"""User-facing text in English and German, shared by the terminal and the web app."""

from __future__ import annotations

import os

MESSAGES: dict[str, dict[str, str]] = {
    "to_move": {"en": "{colour} to move", "de": "{colour} ist am Zug"},
    "prompt": {"en": "{colour} ({who}) > ", "de": "{colour} ({who}) > "},
    "you": {"en": "you", "de": "du"},
    "help": {
        "en": "Type a move in notation, or: moves, undo, save FILE, resign, board, help, quit.",
        "de": "Gib einen Zug in Notation ein, oder: moves, undo, save DATEI, resign, board, help, quit.",
    },
    "legal": {"en": "Legal moves: {moves}", "de": "Erlaubte Züge: {moves}"},
    "played": {"en": "{who} plays {move}", "de": "{who} spielt {move}"},
    "rolled": {"en": "The die shows {face}", "de": "Der Würfel zeigt {face}"},
    "nothing_to_undo": {"en": "Nothing to undo.", "de": "Nichts zurückzunehmen."},
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
    "start_roll": {
        "en": "Roll for the first move ({rule} starts): {rolls}",
        "de": "Wurf um den ersten Zug ({rule} beginnt): {rolls}",
    },
    "high": {"en": "high", "de": "hoch"},
    "low": {"en": "low", "de": "niedrig"},
    "starts": {"en": "{colour} starts.", "de": "{colour} beginnt."},
    "bye": {"en": "Game left unfinished.", "de": "Partie nicht beendet."},
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
    table = MESSAGES[key]
    return table.get(lang, table["en"]).format(**values)


def colour_name(colour: str, lang: str) -> str:
    names = COLOURS.get(colour.lower())
    return names.get(lang, names["en"]) if names else colour


# ---------------------------------------------------------------------------- the web app
#: UI text of the web app, served to the browser as JSON (``/api/i18n``); ``{name}`` fills in.
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
    "start_roll": {"en": "Roll for the first move: {rolls}", "de": "Wurf um den ersten Zug: {rolls}"},
    "error": {"en": "Error", "de": "Fehler"},
    "connection_lost": {"en": "Connection lost — reconnecting…", "de": "Verbindung verloren – verbinde neu …"},
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
    "computer": {"en": "computer", "de": "Computer"},
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
