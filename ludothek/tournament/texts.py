"""The tournament package's texts, English and German."""

from __future__ import annotations

from ..core.messages import Catalog

TEXTS = Catalog("tournament", {
    "listed_twice": ("{player} is listed twice", "{player} steht zweimal in der Liste"),
    "unknown_player": ("a game of {player} names a player not in the tournament",
                       "eine Partie von {player} nennt jemanden, der nicht im Turnier spielt"),
    "no_result": ("the game of {player} has no result yet", "die Partie von {player} hat noch kein Ergebnis"),
    "stuck": ("no pairing of this round avoids a repeat game or a second bye",
              "keine Paarung dieser Runde kommt ohne eine wiederholte Partie oder ein zweites Freilos aus"),
    "few_players": ("a tournament needs two players or more", "ein Turnier braucht mindestens zwei Spieler"),
    "minutes": ("an arena lasts more than 0 minutes, not {minutes}",
                "eine Arena dauert länger als 0 Minuten, nicht {minutes}"),
    "over": ("the arena is over", "die Arena ist vorbei"),
    "not_in": ("{player} is not in the arena", "{player} spielt nicht in der Arena"),
    "score": ("a game's score is 1, 0.5 or 0, not {score}",
              "das Ergebnis einer Partie ist 1, 0,5 oder 0, nicht {score}"),
    "no_game": ("{first} and {second} have no game in progress", "{first} und {second} spielen gerade keine Partie"),
    "either": ("give either --swiss ROUNDS or --arena MINUTES", "bitte entweder --swiss RUNDEN oder --arena MINUTEN angeben"),
    "empty_name": ("--players: an empty name in {players} (agents are separated by single commas)",
                   "--players: ein leerer Name in {players} (Agenten werden durch einzelne Kommas getrennt)"),
    "rounds": ("--swiss {rounds}: {players} players can play {most} rounds at most without meeting twice",
               "--swiss {rounds}: {players} Spieler können höchstens {most} Runden spielen, ohne sich zweimal zu treffen"),
    "records": ("--records: cannot save records in {path}: {reason}",
                "--records: in {path} lassen sich keine Partien speichern: {reason}"),
})
