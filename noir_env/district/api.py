"""The public batched API of District Noir, as `noir_env.district` exports it: its game
object (`noir_env.district.game.DISTRICT_NOIR`) with the engine's batched shell behind each
call, the same promises as NOIR's core (`noir_env.core.api`).

    state = init(num_games, seeds=0)
    mask = legal_action_mask(state)                 # bool [N, 14], for current_player(state)
    rewards, done, illegal = step(state, actions)   # mutates `state` in place
    obs = observe(state)                            # float32 [N, OBS_SIZE], seat of the actor

A decision with a single legal action is taken by the core itself (DN5.1), so every decision
a caller sees has at least two choices.
"""

from __future__ import annotations

import numpy as np

from ..engine.batch import Playout
from .game import DISTRICT_NOIR
from .state import State


def init(num_games: int, seeds: int | np.ndarray | None = 0) -> State:
    """Deal `num_games` new games (DN2). seeds: an int s gives game i the seed s + i; an
    array gives each game its own seed (each must fit int64)."""
    return DISTRICT_NOIR.init(num_games, seeds=seeds)


def legal_action_mask(state: State) -> np.ndarray:
    """bool [N, NUM_ACTIONS]: the legal actions of each game's current player (a read-only
    view; all False in a finished game)."""
    return DISTRICT_NOIR.legal_action_mask(state)


def current_player(state: State) -> np.ndarray:
    """int8 [N]: the seat that must act in each game (-1 once the game is over)."""
    return DISTRICT_NOIR.current_player(state)


def step(
    state: State, actions: np.ndarray, strict: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Apply one action per game, in place, all or nothing (`noir_env.core.step`'s
    promises). Returns (rewards float32 [N, 2], done bool [N], illegal bool [N])."""
    return DISTRICT_NOIR.step(state, actions, strict)


def observe(state: State, seats: np.ndarray | int | None = None) -> np.ndarray:
    """float32 [N, OBS_SIZE]: what `seats` (default: each game's current player; seat 0 in
    a finished game) see. Never shows the other hand, the box or the draw pile's order."""
    return DISTRICT_NOIR.observe(state, seats)


def scores(state: State) -> np.ndarray:
    """int32 [N, 2]: each seat's points by DN4.2-DN4.5 on the current collections (the
    final count once the game has ended on points)."""
    return DISTRICT_NOIR.scores(state)


def refresh(state: State) -> State:
    """Recompute the derived legal-action cache (after editing a state by hand)."""
    return DISTRICT_NOIR.refresh(state)


def sample_hidden(
    state: State, seats: int | np.ndarray, seeds: int | np.ndarray | None = 0
) -> State:
    """A copy of `state` in which each game's hidden part is re-dealt as `seats` could
    believe it to be (`district.belief`): the other hand, the draw pile's order, the boxed
    cards and `rng`. Everything `seats` observes is unchanged. Raises ValueError (or
    TypeError) naming a bad argument."""
    return DISTRICT_NOIR.sample_hidden(state, seats, seeds)


def random_playout(state: State, seed: int = 0, max_steps: int = 1_000, check: bool = False,
                   parallel: bool = True) -> Playout:  # fmt: skip
    """Play every game of `state` (in place) with uniformly random legal actions until it
    ends or `max_steps` agent steps, compiled; with check=True test the invariants
    (validate.py) after each step."""
    return DISTRICT_NOIR.random_playout(state, seed, max_steps, check, parallel)
