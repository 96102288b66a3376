"""Trigeo: dice as chess pieces on the 66-triangle hexagon, with six jump fields."""

from ...core.spec import GameSpec
from ..dice import ALPHABETA_LEVELS

SPEC = GameSpec(
    name="trigeo",
    state="ludothek.games.trigeo.state:TrigeoState",
    render="ludothek.games.trigeo.render:render_state",
    knowledge="ludothek.games.trigeo.knowledge",
    board="ludothek.games.dice.web:TriangleAdapter",
    observation="ludothek.games.trigeo.observe:TrigeoEncoder",
    picture="ludothek.games.trigeo.picture:draw",
    rules="ludothek.games.trigeo:rules.json",
    hint={
        "en": "Moves: B6XC6 (the die on B6 moves to C6), C7°D7 (captures on D7; x or * also accepted), "
              "E9°F10=6 (a 2 reaching the far row may become a 6).",
        "de": "Züge: B6XC6 (der Würfel auf B6 zieht nach C6), C7°D7 (schlägt auf D7; x oder * geht auch), "
              "E9°F10=6 (eine 2, die die hinterste Reihe erreicht, darf zur 6 werden).",
    },
    levels=ALPHABETA_LEVELS,
    order=20,
)
