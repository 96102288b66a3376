"""What the dice games' vector tests share: the plain API's mask, a chooser of random legal
actions that sometimes takes a move back (so that games also end by repetition), and the
comparison of a vector with plain states stepped by the same actions."""

from __future__ import annotations

from collections import Counter

import numpy as np

import ludothek
from ludothek.integrations.observe import encoder_for

CELLS = 66
#: Hexalit's first chance outcome (a rolled 1); the vector rolls within its step
OUTCOME = 4422


def plain_mask(state) -> np.ndarray:
    """PettingZoo's action mask for the seat to move."""
    mask = np.zeros(state.num_actions, np.int8)
    mask[state.legal_actions()] = 1
    return mask


def back_of(action: int) -> int:
    """The move taking ``action``'s die back where it came from (for a move; any action's
    number is folded onto a move, and the chooser checks that one is legal)."""
    frm, to = divmod(action % (CELLS * CELLS), CELLS)
    return to * CELLS + frm


class Chooser:
    """Random legal actions from the legal masks; with probability ``undo`` a seat takes
    back its own last move where it can, so that games also end by repetition."""

    def __init__(self, n: int, seed: int, undo: float):
        self.rng = np.random.default_rng(seed)
        self.undo = undo
        self.last = np.full((n, 2), -1, np.int64)

    def __call__(self, legal: np.ndarray, seats: np.ndarray) -> np.ndarray:
        actions = np.empty(len(legal), np.int64)
        for i, seat in enumerate(seats):
            last = self.last[i, seat]
            if last >= 0 and legal[i, back_of(last)] and self.rng.random() < self.undo:
                actions[i] = back_of(last)
            else:
                actions[i] = self.rng.choice(np.flatnonzero(legal[i]))
            self.last[i, seat] = actions[i]
        return actions

    def ended(self, i: int) -> None:
        self.last[i] = -1


def play_as_the_vector_did(state, vector, i: int, action: int) -> None:
    """Apply game ``i``'s action to the plain ``state``, with the face the vector rolled if it
    was a roll (a vector with ``faces`` rolls within its step)."""
    state.apply_action(action)
    faces = getattr(vector, "faces", None)
    if faces is not None and faces[i]:
        state.apply_action(OUTCOME + int(faces[i]) - 1)


def check_against_plain(vector, game: str, steps: int, choose=None, tally=None) -> Counter:
    """Step ``vector`` (with ``choose(legal, seats)``'s actions, else its own random ones)
    and the same actions through plain states; compare everything the vector returns.
    Returns how many games ended, by the plain API's ``ending()``, and how many positions
    ``tally(state)`` was true for."""
    options = vector.options
    encoder = encoder_for(game, options)
    states = [ludothek.new_game(game, **options) for _ in range(vector.n)]
    observations, legal = vector.reset()
    counts: Counter = Counter()
    for _ in range(steps):
        for i, state in enumerate(states):
            seat = state.current_player()
            assert vector.current_player[i] == seat
            assert vector.plies[i] == getattr(state, "turns", state.ply)  # Hexalit counts turns
            assert np.array_equal(legal[i], plain_mask(state))
            assert np.array_equal(observations[i], encoder.encode(state, seat))
            if tally is not None and tally(state):
                counts["tally"] += 1
        actions = vector.sample_actions() if choose is None else choose(legal, vector.current_player.copy())
        movers = [state.current_player() for state in states]
        observations, rewards, terminations, truncations, legal = vector.step(actions)
        for i, state in enumerate(states):
            play_as_the_vector_did(state, vector, i, int(actions[i]))
            ending = state.ending()
            assert truncations[i] == (ending == "move_limit")
            assert terminations[i] == (state.is_over() and ending != "move_limit")
            assert rewards[i].tolist() == state.returns()
            if state.is_over():
                counts[ending] += 1
                won = state.returns().index(1.0) if state.winner() else -1
                assert vector.final_winners[i] == won
                assert np.array_equal(vector.final_observations[i], encoder.encode(state, movers[i]))
                states[i] = ludothek.new_game(game, **options)
                if choose is not None:
                    choose.ended(i)
            else:
                assert vector.final_winners[i] == -1
    return counts


def check_against_pettingzoo(vector, game, rounds: int, before_env_step=None) -> int:
    """Step a one-game ``vector`` and the PettingZoo environment ``game`` (reset already) with
    the vector's random actions for ``rounds`` rounds, through the auto-reset; compare the seat,
    observations, masks and, where a game ends, the rewards. ``before_env_step(vector)`` runs
    between the two steps (to hand the environment the vector's dice). Returns how many games
    ended."""
    observations, legal = vector.reset()
    ended = 0
    for _ in range(rounds):
        agent = game.agent_selection
        _, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.reset()
            continue
        seen = game.observe(agent)
        assert f"player_{vector.current_player[0]}" == agent
        assert np.array_equal(observations[0], seen["observation"])
        assert np.array_equal(legal[0], seen["action_mask"])
        action = vector.sample_actions()
        step = vector.step(action)
        observations, rewards, legal = step.observations, step.rewards, step.legal
        if before_env_step is not None:
            before_env_step(vector)
        game.step(int(action[0]))
        if step.terminations[0] or getattr(step, "truncations", np.zeros(1, bool))[0]:
            ended += 1
            # the environment reports a move limit's draw as a termination with rewards 0
            assert game.terminations["player_0"]
            assert rewards[0].tolist() == [game.rewards["player_0"], game.rewards["player_1"]]
    return ended
