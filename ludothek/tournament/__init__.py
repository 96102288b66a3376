"""Tournaments: Swiss (Dutch system) pairings and Arena scoring, as plain Python with no web or
game dependency (:mod:`.swiss`, :mod:`.arena`), and a local runner between bots (:mod:`.local`)."""
