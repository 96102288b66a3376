"""Race (Wettlauf): a small dice race for two, a Ludothek game plugin.

Each side runs two tokens along twelve squares; a die of 1 … 3 decides how far, and landing
on a lone opposing token sends it back to the start. :mod:`.state` holds the game
(``RaceState``), :mod:`.track` the squares and their layout, :mod:`.render` the terminal
board, :mod:`.web`, :mod:`.observe` and :mod:`.picture` how it is drawn and encoded, and
``rules.json`` its rules in English and German. Only the spec is imported here, so listing
the games stays cheap.
"""

from ludothek.core.spec import GameSpec

SPEC = GameSpec(
    name="wettlauf",
    state="ludothek_wettlauf.state:RaceState",
    render="ludothek_wettlauf.render:render_state",
    texts="ludothek_wettlauf.texts:TEXTS",
    board="ludothek_wettlauf.web:RaceBoard",
    observation="ludothek_wettlauf.observe:RaceEncoder",
    picture="ludothek_wettlauf.picture:draw",
    rules="ludothek_wettlauf:rules.json",
    hint={
        "en": "The die is rolled for you. Then move a token: the square it leaves, '-' and the square it reaches, "
              "e.g. s-2 (from the start) or 11-h (home); the square it leaves alone (s, 11) is enough.",
        "de": "Gewürfelt wird für dich. Dann ziehst du einen Stein: das Feld, das er verlässt, '-' und das Feld, "
              "das er erreicht, z. B. s-2 (vom Start) oder 11-h (ins Ziel); das Feld, das er verlässt (s, 11), "
              "allein genügt.",
    },
    endings={
        "home": {
            "en": "A player brought both tokens home and wins the race.",
            "de": "Ein Spieler hat beide Steine ins Ziel gebracht und gewinnt das Rennen.",
        },
        "move_limit": {
            "en": "The game reached its move limit: a draw.",
            "de": "Die Partie hat ihre Zuggrenze erreicht: remis.",
        },
    },
    # a roll opens every game: matches start from the start position, the dice vary them
    opening_plies=0,
    order=90,
)
