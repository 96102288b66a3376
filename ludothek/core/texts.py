"""Texts of the engine in English and German: the errors of the core (records, options, the
game protocol, fair dice, the registry), the boards, the agents, the research adapters and the
``ludothek`` command.

``str(message)`` is the English text, exactly as these errors read before they were keyed;
the German terms follow the games' German rules pages (Partie, Zug, Halbzug, Feld, Reihe,
Spalte, Stellung, Würfel, Weiß/Schwarz). Values are given already shown (``repr``, type names,
joined lists); a value that is itself a message or an error is translated with the text.
"""

from __future__ import annotations

import errno
from typing import Any

from .messages import Catalog, Message, colour

TEXTS = Catalog("core", {
    # ---------------------------------------------------------------- shared words
    "none": ("none", "keine"),
    "none_move": ("'(none)'", "'(keiner)'"),
    "draw": ("draw", "remis"),
    "no_games": ("none: is ludothek installed (pip install -e .)?",
                 "keine: ist Ludothek installiert (pip install -e .)?"),
    # the operating system's reasons (the English text is the C library's, checked before use)
    "os_enoent": ("No such file or directory", "Datei oder Verzeichnis nicht gefunden"),
    "os_eacces": ("Permission denied", "Zugriff verweigert"),
    "os_eisdir": ("Is a directory", "Ist ein Verzeichnis"),
    "os_enotdir": ("Not a directory", "Ist kein Verzeichnis"),
    "os_enospc": ("No space left on device", "Kein Platz mehr auf dem Gerät"),
    "os_erofs": ("Read-only file system", "Dateisystem nur lesbar"),
    "os_enametoolong": ("File name too long", "Dateiname zu lang"),
    "os_eexist": ("File exists", "Datei existiert bereits"),
    "os_eperm": ("Operation not permitted", "Vorgang nicht zulässig"),

    # ---------------------------------------------------------------- core/registry.py, core/spec.py
    "unknown_game": ("unknown game {game} (known games: {known})",
                     "unbekanntes Spiel {game} (bekannte Spiele: {known})"),
    "no_part": ("game {game} has no {part}", "das Spiel {game} hat keinen Bestandteil {part}"),
    "no_trainer": ("game {game} has no learned evaluation to train (games with one: {games})",
                   "das Spiel {game} hat keine lernende Bewertung zum Trainieren (Spiele mit einer: {games})"),

    # ---------------------------------------------------------------- core/options.py
    "option_int": ("option {option} must be a whole number, not {value}",
                   "die Option {option} muss eine ganze Zahl sein, nicht {value}"),
    "option_bool": ("option {option} must be true or false, not {value}",
                    "die Option {option} muss 'true' oder 'false' sein, nicht {value}"),
    "option_int_typed": ("option {option} must be a whole number given as a JSON number, not the text {value}",
                         "die Option {option} muss eine ganze Zahl als JSON-Zahl sein, nicht der Text {value}"),
    "option_bool_typed": ("option {option} must be true or false given as a JSON boolean, not the text {value}",
                          "die Option {option} muss true oder false als JSON-Wahrheitswert sein, nicht der Text {value}"),
    "option_text": ("option {option} must be text, not {value}", "die Option {option} muss Text sein, nicht {value}"),
    "option_choice": ("option {option} must be one of {allowed}, not {value}",
                      "die Option {option} muss einer der Werte {allowed} sein, nicht {value}"),
    "option_min": ("option {option} must be at least {least}, not {value}",
                   "die Option {option} muss mindestens {least} sein, nicht {value}"),
    "option_max": ("option {option} must be at most {most}, not {value}",
                   "die Option {option} darf höchstens {most} sein, nicht {value}"),
    "option_unknown": ("{game} has no option {option} (its options: {listed})",
                       "{game} hat keine Option {option} (seine Optionen: {listed})"),
    "option_pair": ("option {pair} must be written NAME=VALUE",
                    "die Option {pair} muss als NAME=WERT geschrieben werden"),

    # ---------------------------------------------------------------- core/protocol.py
    "action_number": ("an action must be a whole number, not {kind} {value}",
                      "eine Aktion muss eine ganze Zahl sein, nicht {kind} {value}"),
    "perft_depth_type": ("perft depth must be a whole number, not {kind} {value}",
                         "die Perft-Tiefe muss eine ganze Zahl sein, nicht {kind} {value}"),
    "perft_depth_range": ("perft depth must be from 0 to {most}, not {depth}",
                          "die Perft-Tiefe muss zwischen 0 und {most} liegen, nicht {depth}"),
    "playout_type": ("playout {which} must be a whole number, not {kind} {value}",
                     "die Angabe {which} der Zufallspartien muss eine ganze Zahl sein, nicht {kind} {value}"),
    "playout_range": ("playout {which} must be from 0 to 2**63 - 1, not {value}",
                      "die Angabe {which} der Zufallspartien muss zwischen 0 und 2**63 - 1 liegen, nicht {value}"),
    "position_type": ("a position must be text, not {kind}", "eine Stellung muss Text sein, nicht {kind}"),
    "action_outside": ("action {number} is outside {game}'s action encoding (0 … {last})",
                       "die Aktion {number} liegt außerhalb der Aktionskodierung von {game} (0 … {last})"),
    "play_over": ("cannot play {move}: the game is over", "{move} kann nicht gespielt werden: die Partie ist zu Ende"),
    "move_type": ("a move must be an action number or text, not {kind}",
                  "ein Zug muss eine Aktionsnummer oder Text sein, nicht {kind}"),
    "play_action_over": ("cannot play action {number}: the game is over",
                         "die Aktion {number} kann nicht gespielt werden: die Partie ist zu Ende"),
    "action_illegal": ("action {number} is not legal in position {position}",
                       "die Aktion {number} ist in der Stellung {position} nicht erlaubt"),
    "nothing_to_undo": ("nothing to undo: no move has been played since the setup position",
                        "nichts zurückzunehmen: seit der Ausgangsstellung wurde kein Zug gespielt"),

    # ---------------------------------------------------------------- core/record.py
    "record_game_name": ("game {game} must be written {spelled}", "das Spiel {game} muss {spelled} geschrieben werden"),
    "record_fields": ("a record's options and tags must be dicts and its moves a list",
                      "Optionen und Tags einer Partie müssen Dicts sein, ihre Züge eine Liste"),
    "record_setup_type": ("the setup position must be text or None, not {kind}",
                          "die Ausgangsstellung muss Text oder None sein, nicht {kind}"),
    "record_setup": ("the record's options or setup position: {error}",
                     "Optionen oder Ausgangsstellung der Partie: {error}"),
    "record_options": ("the options must name every option of {game} as the game reads them: {options}",
                       "die Optionen müssen jede Option von {game} so nennen, wie das Spiel sie liest: {options}"),
    "record_setup_written": ("the setup position {given} must be written as the game writes it: {written}",
                             "die Ausgangsstellung {given} muss so geschrieben sein, wie das Spiel sie schreibt: "
                             "{written}"),
    "record_move_type": ("move {ply} must be text, not {kind}", "Halbzug {ply} muss Text sein, nicht {kind}"),
    "record_move": ("move {move} (move {ply}): {error}", "Zug {move} (Halbzug {ply}): {error}"),
    "record_move_written": ("move {ply} must be written as the game writes it: {written}, not {given}",
                            "Halbzug {ply} muss so geschrieben sein, wie das Spiel ihn schreibt: {written}, "
                            "nicht {given}"),
    "record_result_contradicts": ("the moves end the game with result {rules}, but the record says {given}",
                                  "die Züge beenden die Partie mit dem Ergebnis {rules}, laut Aufzeichnung aber "
                                  "mit {given}"),
    "record_tag_name": ("tag name {tag} cannot be written: a tag name is ASCII letters, digits and '_', starting "
                        "with a letter",
                        "der Tag-Name {tag} lässt sich nicht schreiben: ein Tag-Name besteht aus ASCII-Buchstaben, "
                        "Ziffern und '_' und beginnt mit einem Buchstaben"),
    "record_tag_own": ("tag {tag} cannot be an extra tag: the record writes it itself from its game, options, "
                       "position and result",
                       "das Tag {tag} kann kein zusätzliches Tag sein: die Aufzeichnung schreibt es selbst aus "
                       "Spiel, Optionen, Stellung und Ergebnis"),
    "record_tag_value": ("tag {tag}: the value must be text, not {kind}",
                         "Tag {tag}: der Wert muss Text sein, nicht {kind}"),
    "record_result": ("result {result} must be one of {valid}", "das Ergebnis {result} muss eines von {valid} sein"),
    "record_text_type": ("a record must be text, not {kind}", "eine Partie muss Text sein, nicht {kind}"),
    "record_tag_malformed": ('malformed tag {line}: expected [Name "value"]',
                             'fehlerhaftes Tag {line}: erwartet wird [Name "Wert"]'),
    "record_tag_twice": ("tag {tag} appears twice", "das Tag {tag} kommt zweimal vor"),
    "record_tag_late": ("tag {line} after the moves began", "Tag {line} nach dem Beginn der Züge"),
    "record_comments": ("comments and variations ({char}) are not supported",
                        "Kommentare und Varianten ({char}) werden nicht unterstützt"),
    "record_game_missing": ('missing [Game "…"] tag', 'das Tag [Game "…"] fehlt'),
    "record_result_tag": ("the moves end with result {moves} but the Result tag says {tag}",
                          "die Züge enden mit dem Ergebnis {moves}, das Tag Result nennt aber {tag}"),
    "record_ply": ("move {move} (ply {ply}): {error}", "Zug {move} (Halbzug {ply}): {error}"),
    "record_path_type": ("a record's path must be text or a path, not {kind}",
                         "der Pfad einer Partie muss Text oder ein Pfad sein, nicht {kind}"),
    "cannot_read": ("cannot read {path}: {reason}", "{path} kann nicht gelesen werden: {reason}"),
    "cannot_write": ("cannot write {path}: {reason}", "{path} kann nicht geschrieben werden: {reason}"),
    "record_not_utf8": ("{path} is not UTF-8 text: byte 0x{byte} at offset {offset} cannot be decoded",
                        "{path} ist kein UTF-8-Text: das Byte 0x{byte} an Position {offset} lässt sich nicht "
                        "dekodieren"),

    # ---------------------------------------------------------------- core/fairdice.py
    "dice_secret": ("a dice secret is 64 lower-case hex digits, not {value}",
                    "ein Würfelgeheimnis besteht aus 64 kleinen Hex-Ziffern, nicht {value}"),
    "dice_no_outcomes": ("no chance outcomes to pick from: the state is not a chance node",
                         "keine Zufallsergebnisse zur Auswahl: in dieser Stellung wird nicht gewürfelt"),
    "dice_negative": ("chance outcomes need probabilities of 0 or more: {outcomes}",
                      "Zufallsergebnisse brauchen Wahrscheinlichkeiten von 0 oder mehr: {outcomes}"),
    "dice_zero": ("chance outcomes whose probabilities add up to 0: {outcomes}",
                  "Zufallsergebnisse, deren Wahrscheinlichkeiten zusammen 0 ergeben: {outcomes}"),
    "verify_type": ("verify needs a record or its text, not {kind}",
                    "die Prüfung braucht eine Partie oder ihren Text, nicht {kind}"),
    "verify_unfair": ("the record has no {commitment} and {game_id} tags: its dice were not rolled from a committed "
                      "secret",
                      "die Partie hat keine Tags {commitment} und {game_id}: ihre Würfe folgen aus keinem "
                      "hinterlegten Geheimnis"),
    "verify_unrevealed": ("the record has no {secret} tag yet: the secret is revealed when the game is over",
                          "die Partie hat noch kein Tag {secret}: das Geheimnis wird aufgedeckt, wenn die Partie zu "
                          "Ende ist"),
    "verify_secret": ("the {secret} tag is not 64 lower-case hex digits",
                      "das Tag {secret} besteht nicht aus 64 kleinen Hex-Ziffern"),
    "verify_scheme": ("the {tag} tag is {value}, not one this version knows ({known})",
                      "das Tag {tag} ist {value}, keines, das diese Version kennt ({known})"),
    "verify_commitment": ("the {secret} does not match the {commitment}: sha256(secret) = {digest}",
                          "{secret} passt nicht zu {commitment}: sha256(Geheimnis) = {digest}"),
    "verify_start_rule": ("the {tag} tag names no rule {high} or {low}",
                          "das Tag {tag} nennt keine Regel {high} oder {low}"),
    "verify_start_roll": ("the roll for the first move is not the secret's: the secret gives {rule}: {expected} "
                          "({first} starts)",
                          "der Wurf um den ersten Zug ist nicht der des Geheimnisses: das Geheimnis ergibt {rule}: "
                          "{expected} ({first} beginnt)"),
    "verify_setup": ("the record's options or position: {error}", "Optionen oder Stellung der Partie: {error}"),
    "verify_replay": ("ply {ply} ({move}) does not replay: {error}",
                      "Halbzug {ply} ({move}) lässt sich nicht nachspielen: {error}"),

    # ---------------------------------------------------------------- boards/*.py
    "cell_type": ("a cell must be text, not {kind}", "ein Feld muss Text sein, nicht {kind}"),
    "cell_name_type": ("a cell name must be text, not {kind}", "ein Feldname muss Text sein, nicht {kind}"),
    "grid_cell": ("{text} is not a cell: write row,column such as '4,3' or compactly '43'",
                  "{text} ist kein Feld: schreibe Reihe,Spalte wie '4,3' oder kurz '43'"),
    "grid_rows": ("{text} is off the board: rows are 1..{rows}",
                  "{text} liegt nicht auf dem Brett: die Reihen sind 1..{rows}"),
    "grid_columns": ("{text} is off the board: columns are 1..{columns}",
                     "{text} liegt nicht auf dem Brett: die Spalten sind 1..{columns}"),
    "hex_cell": ("{text} is not a cell name: expected a row letter a..{last} and a column number",
                 "{text} ist kein Feldname: erwartet werden ein Reihenbuchstabe a..{last} und eine Spaltennummer"),
    "hex_rows": ("{text} is off the board: the side-{side} board has rows a..{last}",
                 "{text} liegt nicht auf dem Brett: das Brett mit Seitenlänge {side} hat die Reihen a..{last}"),
    "row_columns": ("{text} is off the board: row {row} has columns {first}..{last}",
                    "{text} liegt nicht auf dem Brett: die Reihe {row} hat die Spalten {first}..{last}"),
    "tri_cell": ("{text} is not a cell name: expected a row letter A..F and a column number 1..13",
                 "{text} ist kein Feldname: erwartet werden ein Reihenbuchstabe A..F und eine Spaltennummer 1..13"),
    "tri_rows": ("{text} is off the board: rows are A..F", "{text} liegt nicht auf dem Brett: die Reihen sind A..F"),

    # ---------------------------------------------------------------- ai/*.py
    "agent_state": ("agent {agent} needs a game state, not {kind}",
                    "der Agent {agent} braucht einen Spielzustand, nicht {kind}"),
    "agent_game": ("agent {agent} was made for {made}, not {game}",
                   "der Agent {agent} wurde für {made} gemacht, nicht für {game}"),
    "agent_over": ("agent {agent} has no move to choose: the game is over ({result})",
                   "der Agent {agent} hat keinen Zug zu wählen: die Partie ist zu Ende ({result})"),
    "agent_chance": ("agent {agent} has no move to choose: the next action is chance's (a die is being rolled); "
                     "apply a chance outcome instead (see chance_outcomes())",
                     "der Agent {agent} hat keinen Zug zu wählen: als Nächstes wird gewürfelt; wende stattdessen "
                     "ein Zufallsergebnis an (siehe chance_outcomes())"),
    "agent_random_argument": ("agent 'random' takes no argument, got {argument}",
                              "der Agent 'random' nimmt kein Argument, erhalten: {argument}"),
    "agent_only": ("agent {agent} plays only {games}, not {game}",
                   "der Agent {agent} spielt nur {games}, nicht {game}"),
    "agent_unknown": ("unknown agent {spec} (known: {known})", "unbekannter Agent {spec} (bekannt: {known})"),
    "budget_empty": ("a budget needs seconds, iterations or both",
                     "ein Budget braucht Sekunden, Iterationen oder beides"),
    "budget_seconds": ("a time budget must be a positive, finite number of seconds, not {seconds}",
                       "ein Zeitbudget muss eine positive, endliche Zahl von Sekunden sein, nicht {seconds}"),
    "budget_iterations": ("an iteration budget must be at least 1, not {iterations}",
                          "ein Iterationsbudget muss mindestens 1 sein, nicht {iterations}"),
    "budget_critical": ("a budget's factor for critical turns must be 1 .. {most} (and needs seconds), not {critical}",
                        "der Faktor eines Budgets für kritische Züge muss 1 .. {most} sein (und braucht Sekunden), "
                        "nicht {critical}"),
    "budget_text": ("budget {text} must be a number of iterations (800, 20k) or a time (2s, 500ms)",
                    "das Budget {text} muss eine Zahl von Iterationen (800, 20k) oder eine Zeit (2s, 500ms) sein"),
    "bot_needs_level": ("agent 'bot' needs a level: bot:1 .. bot:{most}",
                        "der Agent 'bot' braucht eine Stufe: bot:1 .. bot:{most}"),
    "bot_level_number": ("bot level must be a number 1..{most}, not {argument}",
                         "die Stufe des Bots muss eine Zahl 1..{most} sein, nicht {argument}"),
    "bot_level": ("bot level must be 1..{most}, not {level}", "die Stufe des Bots muss 1..{most} sein, nicht {level}"),
    "ray_missing": ("--ray needs the 'ray' package: pip install 'ludothek[ray]'",
                    "--ray braucht das Paket 'ray': pip install 'ludothek[ray]'"),

    # ---------------------------------------------------------------- integrations/*.py
    "no_encoder": ("no observation encoder for game {game}", "kein Beobachtungskodierer für das Spiel {game}"),

    # ---------------------------------------------------------------- cli.py (the `ludothek` command)
    "cli_move": ("move {number} {move}: {error}", "Zug {number} {move}: {error}"),
    "cli_bench_over": ("the position is already over: nothing to play out",
                       "in dieser Stellung ist die Partie schon zu Ende: nichts auszuspielen"),
    "cli_not_utf8": ("{path} is not UTF-8 text (byte offset {offset})",
                     "{path} ist kein UTF-8-Text (Byte-Position {offset})"),
    "cli_analyse_over": ("the game is over ({result}): nothing to analyse",
                         "die Partie ist zu Ende ({result}): nichts zu analysieren"),
    "cli_analyse_chance": ("a die is to be rolled here: analyse the position after the roll",
                           "hier wird gewürfelt: analysiere die Stellung nach dem Wurf"),
    "cli_web_needs": ("the web app needs its dependencies ({module}): pip install -e .",
                      "die Web-App braucht ihre Abhängigkeiten ({module}): pip install -e ."),
    "cli_db_open": ("open", "öffnen"),
    "cli_db_migrate": ("migrate", "migrieren"),
    "cli_db_failed": ("cannot {verb} the database {url}: {error}",
                      "die Datenbank {url} lässt sich nicht {verb}: {error}"),
    "cli_db_postgres": ("cannot {verb} the database {url}: PostgreSQL needs psycopg 3: pip install "
                        "'ludothek[postgres]'",
                        "die Datenbank {url} lässt sich nicht {verb}: PostgreSQL braucht psycopg 3: pip install "
                        "'ludothek[postgres]'"),
    "cli_db_driver": ("cannot {verb} the database {url}: its driver is not installed ({error})",
                      "die Datenbank {url} lässt sich nicht {verb}: ihr Treiber ist nicht installiert ({error})"),
    "cli_listen": ("cannot listen on {host}:{port}: {reason}", "Lauschen auf {host}:{port} nicht möglich: {reason}"),
    "cli_workers_sqlite": ("--workers {workers} needs PostgreSQL (--db postgresql://…): SQLite lets one process "
                           "write at a time and tells other processes of a move only when they poll; with SQLite "
                           "use --workers 1",
                           "--workers {workers} braucht PostgreSQL (--db postgresql://…): SQLite lässt nur einen "
                           "Prozess auf einmal schreiben und meldet anderen Prozessen einen Zug erst, wenn sie "
                           "nachsehen; mit SQLite --workers 1 verwenden"),
    "cli_solve": ("cannot solve {game}: only {solvable} can be solved outright",
                  "{game} lässt sich nicht lösen: vollständig lösbar ist nur {solvable}"),
    "cli_no_solvable": ("no installed game", "kein installiertes Spiel"),
    "cli_password_terminal": ("no terminal to ask for the password: give it on standard input with "
                              "--password-stdin (its first line)",
                              "kein Terminal, um nach dem Passwort zu fragen: gib es mit --password-stdin auf der "
                              "Standardeingabe an (deren erste Zeile)"),
})

#: errno -> key of the operating system's reasons above
_OS_KEYS = {errno.ENOENT: "os_enoent", errno.EACCES: "os_eacces", errno.EISDIR: "os_eisdir",
            errno.ENOTDIR: "os_enotdir", errno.ENOSPC: "os_enospc", errno.EROFS: "os_erofs",
            errno.ENAMETOOLONG: "os_enametoolong", errno.EEXIST: "os_eexist", errno.EPERM: "os_eperm"}


def os_reason(exc: BaseException) -> Message | str:
    """Why the file system refused (``exc.strerror``, else the error's text), as a message in
    both languages when it is a common reason and the C library words it as we do."""
    said = getattr(exc, "strerror", None) or str(exc)
    key = _OS_KEYS.get(getattr(exc, "errno", None))  # type: ignore[arg-type]
    if key is not None and str(TEXTS(key)) == said:
        return TEXTS(key)
    return said


def result_word(result: Any) -> Any:
    """A game's result (``white``, ``draw``, ``*``) inside a sentence: the colour's name, ``draw``
    / ``remis``, or as it is."""
    if result == "draw":
        return TEXTS("draw")
    return colour(result) if result in ("white", "black", "White", "Black") else result
