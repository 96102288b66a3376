"""Hexalit: dice as chess pieces on the 66-triangle hexagon, with rolls (Jeff & Rudi, 1997)."""

from ...core.spec import GameSpec
from ..dice import DRAW_ENDINGS, alphabeta_levels

SPEC = GameSpec(
    name="hexalit",
    state="ludothek.games.hexalit.state:HexalitState",
    render="ludothek.games.hexalit.render:render_state",
    texts="ludothek.games.hexalit.texts:TEXTS",
    knowledge="ludothek.games.hexalit.knowledge",
    board="ludothek.games.dice.web:TriangleAdapter",
    observation="ludothek.games.hexalit.observe:HexalitEncoder",
    picture="ludothek.games.hexalit.picture:draw",
    rules="ludothek.games.hexalit:rules.json",
    lessons="ludothek.games.hexalit:lessons.json",
    hint={
        "en": "Moves as in Trigeo: B6XC6, C7°D7. Or roll a die showing 2 (or a spare 1): B5W rolls your die "
              "on B5 (the face is rolled for you). With the cube (-o cube=true): double 2 offers to double "
              "the stake to 2; take or drop answers an offer.",
        "de": "Züge wie bei Trigeo: B6XC6, C7°D7. Oder einen Würfel mit 2 (oder eine übrige 1) werfen: B5W "
              "wirft deinen Würfel auf B5 (die Augenzahl wird für dich gewürfelt). Mit Verdopplungswürfel "
              "(-o cube=true): double 2 bietet an, den Einsatz auf 2 zu verdoppeln; take (annehmen) oder "
              "drop (ablehnen) beantwortet ein Angebot.",
    },
    endings={
        "one_trapped": {
            "en": "A player's last 1 was threatened with no safe cell to escape to (the Eins-Gebot): he has lost.",
            "de": "Die letzte 1 eines Spielers war bedroht und hatte kein sicheres Feld zum Ausweichen "
                  "(Eins-Gebot): Er hat verloren.",
        },
        "one_captured": {
            "en": "A player's last 1 was captured: he has lost.",
            "de": "Die letzte 1 eines Spielers wurde geschlagen: Er hat verloren.",
        },
        "no_move": {
            "en": "The player to move could neither move nor roll a die and has lost.",
            "de": "Der Spieler am Zug konnte weder ziehen noch würfeln und hat verloren.",
        },
        "cube_dropped": {
            "en": "An offer to double the stake was declined: the player who offered wins the stake before the "
                  "offer.",
            "de": "Ein Angebot, den Einsatz zu verdoppeln, wurde abgelehnt: Wer es gemacht hat, gewinnt den "
                  "Einsatz vor dem Angebot.",
        },
        **DRAW_ENDINGS,
    },
    # each level about three times the nodes of the one below, which it beats 65-85% of the time
    levels=alphabeta_levels(100, 300, 1000, 3000, 10000),
    agents={"alphabeta_with": "ludothek.games.dice.agents:alphabeta_with_factory",
            "alphabeta_net": "ludothek.games.dice.agents:alphabeta_net_factory",
            "alphabeta_hand": "ludothek.games.dice.agents:alphabeta_hand_factory"},
    trainer="ludothek.games.dice.training:train",
    order=30,
    puzzles="ludothek.games.hexalit:puzzles.json",
)
