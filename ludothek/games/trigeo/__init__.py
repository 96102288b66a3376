"""Trigeo: dice as chess pieces on the 66-triangle hexagon, with six jump fields."""

from ...core.spec import GameSpec
from ..dice import DRAW_ENDINGS, alphabeta_levels

SPEC = GameSpec(
    name="trigeo",
    state="ludothek.games.trigeo.state:TrigeoState",
    render="ludothek.games.trigeo.render:render_state",
    texts="ludothek.games.trigeo.texts:TEXTS",
    knowledge="ludothek.games.trigeo.knowledge",
    board="ludothek.games.dice.web:TriangleAdapter",
    observation="ludothek.games.trigeo.observe:TrigeoEncoder",
    picture="ludothek.games.trigeo.picture:draw",
    rules="ludothek.games.trigeo:rules.json",
    lessons="ludothek.games.trigeo:lessons.json",
    hint={
        "en": "Moves: B6XC6 (the die on B6 moves to C6), C7°D7 (captures on D7; x or * also accepted), "
              "E9°F10=6 (a 2 reaching the far row may become a 6).",
        "de": "Züge: B6XC6 (der Würfel auf B6 zieht nach C6), C7°D7 (schlägt auf D7; x oder * geht auch), "
              "E9°F10=6 (eine 2, die die hinterste Reihe erreicht, darf zur 6 werden).",
    },
    endings={
        "one_trapped": {
            "en": "A 1 was threatened with no safe cell to escape to (the Eins-Gebot): its owner has lost.",
            "de": "Eine 1 war bedroht und hatte kein sicheres Feld zum Ausweichen (Eins-Gebot): Ihr Besitzer hat "
                  "verloren.",
        },
        "one_captured": {
            "en": "A 1 was captured: its owner has lost.",
            "de": "Eine 1 wurde geschlagen: Ihr Besitzer hat verloren.",
        },
        "no_move": {
            "en": "The player to move had no legal move and has lost.",
            "de": "Der Spieler am Zug hatte keinen erlaubten Zug und hat verloren.",
        },
        **DRAW_ENDINGS,
    },
    # each level about three times the nodes of the one below, which it beats 65-85% of the time
    levels=alphabeta_levels(300, 1000, 3000, 10000, 30000),
    agents={"alphabeta_with": "ludothek.games.dice.agents:alphabeta_with_factory",
            "alphabeta_net": "ludothek.games.dice.agents:alphabeta_net_factory",
            "alphabeta_hand": "ludothek.games.dice.agents:alphabeta_hand_factory"},
    trainer="ludothek.games.dice.training:train",
    order=20,
    puzzles="ludothek.games.trigeo:puzzles.json",
)
