"""What the web server tells a person, in English and German (see :mod:`ludothek.core.messages`).

The server answers every error in the language the client asks for (``Accept-Language``; the
browser sends the language chosen with the page's EN/DE switch, the websocket ``?lang=``), and
with the message's key (``web.not_your_turn``) for programmatic clients. Field names of the JSON
API (``seat``, ``options``, ``"random"``) and the values it accepts stay as they are in both
languages: a client must send them so.
"""

from __future__ import annotations

from ..core.messages import Catalog

TEXTS = Catalog("web", {
    # ------------------------------------------------------------------ what a client sends
    "request_body": ("the request body", "der Inhalt der Anfrage"),
    "internal": ("the server failed to answer this request (its log has the details); please try again",
                 "der Server konnte diese Anfrage nicht beantworten (sein Protokoll nennt den Grund); "
                 "bitte versuche es erneut"),
    "ws_message": ("the message", "die Nachricht"),
    "metrics_refused": ("/metrics answers only the addresses that --metrics-from names",
                        "/metrics antwortet nur den Adressen, die --metrics-from nennt"),
    "metrics_from_bad": ("{value!r} is not an address or network (e.g. 127.0.0.1, 10.0.0.0/8) nor \"any\"",
                         "{value!r} ist weder eine Adresse oder ein Netz (z. B. 127.0.0.1, 10.0.0.0/8) noch \"any\""),
    "not_utf8": ("{what} is not valid UTF-8", "{what} ist kein gültiges UTF-8"),
    "too_deep": ("{what} nests deeper than {limit} levels", "{what} ist tiefer als {limit} Ebenen verschachtelt"),
    "not_json": ("{what} is not valid JSON", "{what} ist kein gültiges JSON"),
    "not_object": ("{what} must be a JSON object", "{what} muss ein JSON-Objekt sein"),
    "body_too_large": ("the request body is larger than {limit} bytes",
                       "der Inhalt der Anfrage ist größer als {limit} Bytes"),
    "body_cut": ("the connection ended before the request's body was complete",
                 "die Verbindung endete, bevor der Inhalt der Anfrage vollständig war"),
    "message_too_large": ("message larger than {limit} characters", "Nachricht länger als {limit} Zeichen"),
    "unknown_type": ("unknown message type {value!r} ({types})", "unbekannter Nachrichtentyp {value!r} ({types})"),
    "auth_token": ("auth needs a token", "auth braucht einen Token"),
    "choice": ("{field} must be {a}, {b} or {c}, not {value!r}",
               "{field} muss {a}, {b} oder {c} sein, nicht {value!r}"),
    "seat_rule": ("seat must be 0 or 1", "seat muss 0 oder 1 sein"),
    "seat_rule_random": ('seat must be 0, 1 or "random"', 'seat muss 0, 1 oder "random" sein'),
    "seat_not": ("{rule}, not {value!r}", "{rule}, nicht {value!r}"),
    "seat_not_text": ("{rule}, not the text {value!r}", "{rule}, nicht der Text {value!r}"),
    "status_choice": ("status must be waiting, ongoing or over", "status muss waiting, ongoing oder over sein"),
    "limit_offset": ("limit and offset must be whole numbers", "limit und offset müssen ganze Zahlen sein"),
    "offset_range": ("offset must be from 0 to {limit}", "offset muss zwischen 0 und {limit} liegen"),
    "at_number": ("at must be a whole number", "at muss eine ganze Zahl sein"),
    "position_long": ("position too long", "die Stellung ist zu lang"),
    "no_rules": ("game {game!r} has no rules page", "das Spiel {game!r} hat keine Regelseite"),
    # ------------------------------------------------------------------ creating a game
    "name_game": ("name the game: {example} (games: {games})", "nenne das Spiel: {example} (Spiele: {games})"),
    "options_object": ("options must be a JSON object", "options muss ein JSON-Objekt sein"),
    "position_text": ("position must be a position string", "position muss eine Stellung als Text sein"),
    "bad_options": ("bad options for {game}: {error}", "ungültige Optionen für {game}: {error}"),
    "bad_bot": ("bot must be one of {bots} for {game}, not {value!r}",
                "bot muss für {game} einer von {bots} sein, nicht {value!r}"),
    "bot_cap": ("you already play {count} live games against bots (at most {cap}): finish or resign one first",
                ("du spielst schon {count} laufende Partien gegen den Computer (höchstens {cap}): beende zuerst "
                "eine oder gib eine auf")),
    "clock_spec": ("clock must be {example} or null", "clock muss {example} oder null sein"),
    "clock_range": ("clock {field} must be a number from 0 to {top}",
                    "clock {field} muss eine Zahl von 0 bis {top} sein"),
    "clock_days": ("clock days (a correspondence game) must be one of {days}",
                   "clock days (eine Fernpartie) muss einer der Werte {days} sein"),
    "rated_bool": ("rated must be true or false", "rated muss true oder false sein"),
    # ------------------------------------------------------------------ the lobby
    "seek_gone": ("this seek is gone: someone else took it, or its author cancelled it",
                  "dieses Angebot gibt es nicht mehr: jemand anderes hat es angenommen, oder es wurde zurückgezogen"),
    "seek_own": ("this is your own seek: wait for someone to accept it",
                 "das ist dein eigenes Angebot: warte, bis jemand es annimmt"),
    "seek_not_yours": ("this seek is not yours", "dieses Angebot ist nicht von dir"),
    "seek_limit": ("you already have {limit} open seeks: cancel one first",
                   "du hast schon {limit} offene Angebote: ziehe zuerst eines zurück"),
    "seek_seat": ("seat must be 0, 1 or \"random\"", "seat muss 0, 1 oder \"random\" sein"),
    "rated_online": ("a rated game is played online against another player (opponent friend)",
                     "eine gewertete Partie wird online gegen einen anderen Menschen gespielt (opponent friend)"),
    "rated_position": ("a rated game starts from the starting position (no position)",
                       "eine gewertete Partie beginnt in der Grundstellung (keine position)"),
    "rated_login": ("log in to play a rated game", "melde dich an, um eine gewertete Partie zu spielen"),
    "rated_join_login": ("this game is rated: log in to take the seat",
                         "diese Partie wird gewertet: melde dich an, um den Platz einzunehmen"),
    # ------------------------------------------------------------------ finding a game, seats and tokens
    "no_game_id": ("no game with id {game_id!r}", "keine Partie mit der ID {game_id!r}"),
    "no_such_game": ("no such game", "diese Partie gibt es nicht"),
    "changed_meanwhile": ("the game changed meanwhile; reload and try again",
                          "die Partie hat sich inzwischen geändert; lade sie neu und versuche es noch einmal"),
    "invite_needed": ("an invite code is needed to take the open seat",
                      "um den freien Platz einzunehmen, braucht es einen Einladungscode"),
    "no_open_seat": ("this game has no open seat", "diese Partie hat keinen freien Platz"),
    "invite_wrong": ("the invite code is wrong", "der Einladungscode ist falsch"),
    "token_needed": ("this action needs your seat token", "dafür braucht es den Token deines Platzes"),
    "token_wrong": ("the token is wrong", "der Token ist falsch"),
    "token_no_seat": ("the token does not hold a seat in this game", "der Token gehört zu keinem Platz dieser Partie"),
    "token_not_seat": ("the token does not hold seat {seat}", "der Token gehört nicht zu Platz {seat}"),
    # ------------------------------------------------------------------ playing
    "move_text": ("a move must be a non-empty notation string", "ein Zug muss ein nicht leerer Text in Notation sein"),
    "move_long": ("a move is at most {limit} characters", "ein Zug hat höchstens {limit} Zeichen"),
    "bot_seat": ("that seat is played by a bot", "diesen Platz spielt der Computer"),
    "not_started_waiting": ("the game has not started: waiting for the second player",
                            "die Partie hat noch nicht begonnen: sie wartet auf den zweiten Spieler"),
    "not_started": ("the game has not started", "die Partie hat noch nicht begonnen"),
    "over": ("the game is over", "die Partie ist beendet"),
    "not_your_turn": ("it is not your turn: {colour} is to move", "du bist nicht am Zug: {colour} ist am Zug"),
    "time_ran_out": ("your time ran out: the game is over", "deine Zeit ist abgelaufen: die Partie ist beendet"),
    "server_rolls": ("{move!r}: the server rolls the dice; send the roll without its outcome",
                     "{move!r}: der Server würfelt; schicke den Wurf ohne seine Augenzahl"),
    # ------------------------------------------------------------------ undo and offers
    "undo_over": ("the game is over: its moves can no longer be taken back",
                  "die Partie ist beendet: ihre Züge können nicht mehr zurückgenommen werden"),
    "undo_online": (("undo is only for local games (hot-seat or against a bot); online, propose a takeback that "
                    "your opponent accepts"),
                    ("Zurücknehmen gibt es nur in lokalen Partien (am selben Bildschirm oder gegen den Computer); "
                    "online schlägst du eine Zurücknahme vor, die dein Gegner annimmt")),
    "nothing_to_undo": ("nothing to undo", "nichts zurückzunehmen"),
    "undo_past_roll": (("a die has been rolled since your last move began, and a shown roll is never taken back: "
                        "nothing can be undone until you move again"),
                       ("seit Beginn deines letzten Zuges wurde gewürfelt, und ein gezeigter Wurf wird nie "
                        "zurückgenommen: nichts kann zurückgenommen werden, bis du wieder ziehst")),
    "takeback_past_roll": (("a die has been rolled since your last move began, and a shown roll is never taken "
                            "back"),
                           ("seit Beginn deines letzten Zuges wurde gewürfelt, und ein gezeigter Wurf wird nie "
                            "zurückgenommen")),
    "stale_ply": (("the game has moved on: you answered the position after {sent} actions, it now has {now}; "
                   "here is the game as it is"),
                  ("die Partie ist weiter: du hast auf die Stellung nach {sent} Aktionen geantwortet, jetzt sind es "
                   "{now}; hier ist die Partie, wie sie jetzt steht")),
    "ply_number": ("ply must be a whole number of actions from 0 up, not {value!r}",
                   "ply muss eine ganze Zahl von Aktionen ab 0 sein, nicht {value!r}"),
    "offer_kind": ('kind must be "takeback" or "draw", not {value!r}',
                   'kind muss "takeback" oder "draw" sein, nicht {value!r}'),
    "offers_online": ("takeback and draw offers are for online games; in a local game use undo",
                      ("Zurücknahme- und Remisangebote gibt es nur in Online-Partien; in einer lokalen Partie nimm "
                      "„Zurück“")),
    "offers_over": ("the game is over: there is nothing left to offer or answer",
                    "die Partie ist beendet: es gibt nichts mehr anzubieten oder zu beantworten"),
    "pending_own_takeback": ("your takeback proposal is still waiting for an answer",
                             "dein Vorschlag zur Zurücknahme wartet noch auf eine Antwort"),
    "pending_own_draw": ("your draw offer is still waiting for an answer",
                         "dein Remisangebot wartet noch auf eine Antwort"),
    "pending_own_offer": ("your offer is still waiting for an answer", "dein Angebot wartet noch auf eine Antwort"),
    "pending_other_takeback": ("your opponent's takeback proposal is still waiting for an answer",
                               "der Vorschlag deines Gegners zur Zurücknahme wartet noch auf eine Antwort"),
    "pending_other_draw": ("your opponent's draw offer is still waiting for an answer",
                           "das Remisangebot deines Gegners wartet noch auf eine Antwort"),
    "pending_other_offer": ("your opponent's offer is still waiting for an answer",
                            "das Angebot deines Gegners wartet noch auf eine Antwort"),
    "no_draws": ("{game} cannot end in a draw: there is no draw to offer",
                 "{game} kann nicht remis enden: es gibt kein Remis anzubieten"),
    "nothing_to_take_back": ("you have not moved yet: there is no move of yours to take back",
                             "du hast noch nicht gezogen: es gibt keinen Zug von dir zurückzunehmen"),
    "accept_bool": ("accept must be true or false", "accept muss true oder false sein"),
    "no_offer_to_answer": ("there is no offer to answer", "es gibt kein Angebot zu beantworten"),
    "answer_own_takeback": ("you cannot answer your own takeback proposal; you may withdraw it",
                            ("du kannst deinen eigenen Vorschlag zur Zurücknahme nicht beantworten; du darfst ihn "
                            "zurückziehen")),
    "answer_own_draw": ("you cannot answer your own draw offer; you may withdraw it",
                        "du kannst dein eigenes Remisangebot nicht beantworten; du darfst es zurückziehen"),
    "answer_own_offer": ("you cannot answer your own offer; you may withdraw it",
                         "du kannst dein eigenes Angebot nicht beantworten; du darfst es zurückziehen"),
    "takeback_gone": ("the move to take back is gone", "der zurückzunehmende Zug ist nicht mehr da"),
    "no_offer_to_withdraw": ("there is no offer to withdraw", "es gibt kein Angebot zurückzuziehen"),
    "withdraw_others": ("only the player who made the offer can withdraw it; answer it instead",
                        "nur wer das Angebot gemacht hat, kann es zurückziehen; beantworte es stattdessen"),
    # ------------------------------------------------------------------ aborting (games nobody started)
    "abort_online": ("only an online game between two people can be aborted; resign instead",
                     "abbrechen lässt sich nur eine Online-Partie zwischen zwei Menschen; gib stattdessen auf"),
    "abort_moved": ("you have moved in this game already: it can no longer be aborted (resign instead)",
                    "du hast in dieser Partie schon gezogen: sie lässt sich nicht mehr abbrechen (gib stattdessen auf)"),
    # ------------------------------------------------------------------ claims and rematches
    "claim_which": ("only an ongoing online game without a clock can be claimed",
                    "nur eine laufende Online-Partie ohne Uhr kann beansprucht werden"),
    "claim_own_turn": ("it is your turn: there is nothing to claim", "du bist am Zug: es gibt nichts zu beanspruchen"),
    "claim_wait": ("your opponent still has {duration} to move",
                   "dein Gegner hat noch {duration} Zeit für seinen Zug"),
    "claim_present": ("your opponent is connected to the game", "dein Gegner ist mit der Partie verbunden"),
    "duration_hours": ("{n} hours", "{n} Stunden"),
    "duration_minutes": ("{n} minutes", "{n} Minuten"),
    "duration_seconds": ("{n} seconds", "{n} Sekunden"),
    "duration_second": ("{n} second", "{n} Sekunde"),
    "rematch_unfinished": ("a rematch needs a finished game", "eine Revanche braucht eine beendete Partie"),
    "rematch_tournament": ("a tournament game has no rematch: the tournament pairs the next games",
                           "eine Turnierpartie hat keine Revanche: das Turnier lost die nächsten Partien aus"),
    "rematch_taken": ("the rematch seat was already taken; open the new game from your own browser",
                      "der Platz in der Revanche ist schon vergeben; öffne die neue Partie in deinem eigenen Browser"),
    # ------------------------------------------------------------------ rate limits
    "too_many_create": ("too many new games from your address: at most {limit}; try again in {wait} s",
                        ("zu viele neue Partien von deiner Adresse: höchstens {limit}; versuche es in {wait} s "
                        "wieder")),
    "too_many_move": ("too many moves from your address: at most {limit}; try again in {wait} s",
                      "zu viele Züge von deiner Adresse: höchstens {limit}; versuche es in {wait} s wieder"),
    "too_many_analysis": ("too many analysis requests from your address or account: at most {limit}; "
                          "try again in {wait} s",
                          "zu viele Analyse-Anfragen von deiner Adresse oder deinem Konto: höchstens {limit}; "
                          "versuche es in {wait} s wieder"),
    "rate": ("{amount} per {multiples} {unit}", "{amount} pro {multiples} {unit}"),
    # the units of a limit, as the limits package names them (GRANULARITY), and their plurals
    "unit_second": ("second", "Sekunde"), "unit_seconds": ("seconds", "Sekunden"),
    "unit_minute": ("minute", "Minute"), "unit_minutes": ("minutes", "Minuten"),
    "unit_hour": ("hour", "Stunde"), "unit_hours": ("hours", "Stunden"),
    "unit_day": ("day", "Tag"), "unit_days": ("days", "Tage"),
    "unit_month": ("month", "Monat"), "unit_months": ("months", "Monate"),
    "unit_year": ("year", "Jahr"), "unit_years": ("years", "Jahre"),
    # ------------------------------------------------------------------ connections (timeouts.py, admission.py)
    "timeout_headers": ("the request's headers did not arrive within {seconds} s",
                        "die Kopfzeilen der Anfrage kamen nicht innerhalb von {seconds} s an"),
    "timeout_body": ("the request's body came too slowly: it paused for {seconds} s, or averaged less than "
                     "{rate} bytes a second after the first {seconds} s",
                     "der Inhalt der Anfrage kam zu langsam: er stockte {seconds} s lang oder kam nach den ersten "
                     "{seconds} s mit weniger als {rate} Bytes pro Sekunde"),
    "too_many_connections": ("the server has as many connections open as it may; try again shortly",
                             "der Server hat so viele Verbindungen offen, wie er darf; versuche es gleich wieder"),
    "too_many_websockets": ("too many open connections to live games and the lobby from your address: at most "
                            "{cap}; close another tab first",
                            "zu viele offene Verbindungen zu laufenden Partien und zur Lobby von deiner Adresse: "
                            "höchstens {cap}; schließe zuerst einen anderen Tab"),
    "bad_host": ("this server does not answer to the host name {host!r}",
                 "dieser Server antwortet nicht unter dem Namen {host!r}"),
    "no_host": ("the request names no host (the Host header is missing)",
                "die Anfrage nennt keinen Host (der Header Host fehlt)"),
    "host_pattern": ("{entry!r} is not a host name: list names without scheme or port, such as "
                     "play.example.org,*.example.org (or * for any)",
                     "{entry!r} ist kein Hostname: nenne Namen ohne Schema und Port, etwa "
                     "play.example.org,*.example.org (oder * für jeden)"),
    # ------------------------------------------------------------------ accounts and sessions
    "no_seat_yours": ("neither your token nor your account holds a seat in this game",
                      "weder dein Token noch dein Konto gehört zu einem Platz dieser Partie"),
    "account_fields": ("send {fields} as text", "schicke {fields} als Text"),
    "name_rule": ("a user name has {low} to {high} characters: letters A-Z and a-z, digits, _ and -",
                  "ein Benutzername hat {low} bis {high} Zeichen: Buchstaben A-Z und a-z, Ziffern, _ und -"),
    "name_taken": ("the user name {user!r} is already taken", "der Benutzername {user!r} ist schon vergeben"),
    "password_short": ("a password needs at least {n} characters", "ein Passwort braucht mindestens {n} Zeichen"),
    "password_long": ("a password has at most {n} characters", "ein Passwort hat höchstens {n} Zeichen"),
    "password_common": ("this password is one of the most common ones: choose another",
                        "dieses Passwort gehört zu den häufigsten: wähle ein anderes"),
    "password_name": ("the password must differ from the user name",
                      "das Passwort muss sich vom Benutzernamen unterscheiden"),
    "login_wrong": ("wrong user name or password", "falscher Benutzername oder falsches Passwort"),
    "account_disabled": ("this account is disabled", "dieses Konto ist gesperrt"),
    "login_needed": ("log in first", "melde dich zuerst an"),
    "csrf": ("this request needs the X-CSRF-Token header of your session (GET /api/me gives it); reload the page",
             ("diese Anfrage braucht den Header X-CSRF-Token deiner Sitzung (GET /api/me liefert ihn); lade die "
              "Seite neu")),
    "cross_site": ("a page of another site cannot log in or sign up here",
                   "eine Seite einer anderen Website kann hier weder anmelden noch registrieren"),
    "claims_list": ("games must be a list of at most {limit} objects {example}",
                    "games muss eine Liste von höchstens {limit} Objekten {example} sein"),
    "too_many_login": ("too many failed logins from your address: at most {limit}; try again in {wait} s",
                       ("zu viele gescheiterte Anmeldungen von deiner Adresse: höchstens {limit}; versuche es in "
                        "{wait} s wieder")),
    "too_many_account": ("too many failed logins for this account: at most {limit}; try again in {wait} s",
                         ("zu viele gescheiterte Anmeldungen für dieses Konto: höchstens {limit}; versuche es in "
                          "{wait} s wieder")),
    "too_many_pair": ("too many failed logins for this account from your address: at most {limit}; try again in "
                      "{wait} s", ("zu viele gescheiterte Anmeldungen für dieses Konto von deiner Adresse: höchstens "
                                   "{limit}; versuche es in {wait} s wieder")),
    "login_busy": ("the server is checking too many passwords right now; try again in {wait} s",
                   "der Server prüft gerade zu viele Passwörter; versuche es in {wait} s wieder"),
    "too_many_signup": ("too many new accounts from your address: at most {limit}; try again in {wait} s",
                        "zu viele neue Konten von deiner Adresse: höchstens {limit}; versuche es in {wait} s wieder"),
    "user_unknown": ("there is no user named {user!r}", "es gibt keinen Benutzer namens {user!r}"),
    # ------------------------------------------------------------------ the database: schema, backups (the command line)
    "schema_newer": ("the database {where} has schema revision {revision}, which this Ludothek does not know (it "
                     "knows up to {head}): a newer Ludothek wrote it; upgrade Ludothek (pip install -U ludothek) "
                     "before you use this database",
                     "die Datenbank {where} hat die Schemaversion {revision}, die dieses Ludothek nicht kennt (es "
                     "kennt bis {head}): ein neueres Ludothek hat sie geschrieben; aktualisiere Ludothek (pip "
                     "install -U ludothek), bevor du diese Datenbank verwendest"),
    "backup_no_pg_dump": ("{tool} is not installed (on Debian: apt-get install postgresql-client); install it, or "
                          "back up by hand: {command}",
                          "{tool} ist nicht installiert (unter Debian: apt-get install postgresql-client); "
                          "installiere es oder sichere von Hand: {command}"),
    "backup_tool_failed": ("{tool} failed (exit status {status}): {detail}",
                           "{tool} ist gescheitert (Rückgabewert {status}): {detail}"),
    "backup_kind": ("cannot back up {url}: only SQLite and PostgreSQL databases can be backed up",
                    "{url} lässt sich nicht sichern: gesichert werden nur SQLite- und PostgreSQL-Datenbanken"),
    "backup_no_database": ("cannot back up {path}: there is no such database file",
                           "{path} lässt sich nicht sichern: diese Datenbankdatei gibt es nicht"),
    "backup_same_file": ("{path} is the database itself: the backup must go to another file",
                         "{path} ist die Datenbank selbst: die Sicherung muss in eine andere Datei"),
    "backup_not_ludothek": ("{path} is not a Ludothek database: it has no {tables} tables",
                            "{path} ist keine Ludothek-Datenbank: ihr fehlen die Tabellen {tables}"),
    "backup_unreadable": ("{path} is not a Ludothek backup: {reason}", "{path} ist keine Ludothek-Sicherung: {reason}"),
    "backup_reason_kind": ("it is neither a SQLite database nor a pg_dump archive (--format=custom)",
                           "sie ist weder eine SQLite-Datenbank noch ein pg_dump-Archiv (--format=custom)"),
    "backup_reason_damaged": ("the SQLite file is damaged ({detail})", "die SQLite-Datei ist beschädigt ({detail})"),
    "backup_reason_tables": ("it has no {tables} tables", "ihr fehlen die Tabellen {tables}"),
    "backup_reason_revision": ("it records no schema revision (no alembic_version row)",
                               "sie nennt keine Schemaversion (keine Zeile in alembic_version)"),
    "restore_mismatch": ("{path} is a {kind} backup: restore it into a {kind} database, not {url}",
                         "{path} ist eine {kind}-Sicherung: stelle sie in einer {kind}-Datenbank wieder her, nicht "
                         "in {url}"),
    "restore_not_empty": ("{url} is not empty (rows {rows}): restore into a fresh database, or give --force to replace "
                          "what it holds",
                          "{url} ist nicht leer (Zeilen {rows}): stelle in einer neuen Datenbank wieder her oder gib "
                          "--force an, um ihren Inhalt zu ersetzen"),
    "rows_in": ("{table}: {count}", "{table}: {count}"),
    # ------------------------------------------------------------------ board adapters (for plugin authors)
    "pieces_not_dict": ("{adapter}.pieces must return a dict of cell -> list of pieces, not {type}",
                        "{adapter}.pieces muss ein dict Feld -> Liste von Steinen liefern, nicht {type}"),
    "pieces_cell": ("{adapter}.pieces: cell {cell} must hold a list of piece dicts",
                    "{adapter}.pieces: Feld {cell} muss eine Liste von Stein-dicts enthalten"),
    "cell_not_dict": ("{owner}.cells: every cell must be a dict with a non-empty name, not {cell}",
                      "{owner}.cells: jedes Feld muss ein dict mit nicht leerem Namen sein, nicht {cell}"),
    "cell_number": ("{owner}.cells: cell {cell!r} needs a number {field!r}",
                    "{owner}.cells: Feld {cell!r} braucht eine Zahl {field!r}"),
    "cell_points": ("{owner}.cells: cell {cell!r} needs points, a list of at least three [x, y] pairs",
                    "{owner}.cells: Feld {cell!r} braucht points, eine Liste von mindestens drei [x, y]-Paaren"),
    "cell_text": ("{owner}.cells: cell {cell!r} has a {field} that is not text",
                  "{owner}.cells: Feld {cell!r} hat ein {field}, das kein Text ist"),
    "not_adapter": ("the board part {target!r} is not an Adapter subclass (ludothek.web.boards.Adapter)",
                    "der board-Teil {target!r} ist keine Unterklasse von Adapter (ludothek.web.boards.Adapter)"),
})
