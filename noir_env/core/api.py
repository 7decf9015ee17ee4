"""The public batched API of the NOIR rules core, as `noir_env.core` exports it: NOIR's
game object (`noir_env.core.game.NOIR`) with the engine's batched shell behind each call.

    state = init(num_games, num_players=4, rules="noirburg", seeds=0)
    mask = legal_action_mask(state)          # bool [N, A], for current_player(state)
    rewards, done, illegal = step(state, actions)   # mutates `state` in place
    obs = observe(state)                     # float32 [N, OBS_SIZE], seat of the actor

Games run independently: game i depends on its seed and its actions only, never on N.
`step` changes the state in place (use `clone` to keep a copy); a game that is over ignores
its action and reports done=True. A step is all or nothing: if the rules core fails in any
game, every game of the batch is put back as it was before the error is raised. Decisions
with a single legal action are taken by the core itself (R2.5), so every decision a caller
sees has at least two choices.
"""

from __future__ import annotations

import numpy as np

from ..engine.args import int_array
from ..engine.batch import Playout
from .game import NOIR
from .rules import Rules
from .state import State


def init(
    num_games: int,
    num_players: int | np.ndarray = 4,
    rules: str | Rules | None = "noirburg",
    seeds: int | np.ndarray | None = 0,
    ask_all: bool = False,
) -> State:
    """Deal `num_games` new games.

    num_players: 3..6, one value or one per game. rules: a preset name or a `Rules`.
    seeds: an int s gives game i the seed s + i; an array gives each game its own seed; every
    seed must fit int64 (None: 0). A bad argument raises TypeError / ValueError naming it.
    ask_all: False (fast): the core takes every decision with a single legal action and
    passes for every player without a reaction card, so only real choices are presented.
    True (multi-agent): every living player holding cards is asked in every window and every
    turn step is presented, even with `pass`/`end` as the only legal action, unless it is
    forced for a reason everyone can see (R2.5); who is asked then reveals nothing hidden.
    The game itself (its states and outcome for the same choices) is the same in both.
    """
    int_array(num_players, "num_players")  # None is no count here (the default is 4)
    return NOIR.init(num_games, num_players, rules, seeds, ask_all)


def legal_action_mask(state: State) -> np.ndarray:
    """bool [N, NUM_ACTIONS]: the legal actions of each game's current player (a read-only
    view; all False in a finished game)."""
    return NOIR.legal_action_mask(state)


def current_player(state: State) -> np.ndarray:
    """int8 [N]: the seat that must act in each game (-1 once the game is over)."""
    return NOIR.current_player(state)


def step(
    state: State, actions: np.ndarray, strict: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Apply one action per game, in place. Returns (rewards float32 [N, 6], done bool [N],
    illegal bool [N]). Rewards are non-zero only on the step a game ends.

    strict=True raises ValueError before changing anything if any action is illegal (its
    name, the phase and the legal actions are named). strict=False leaves those games
    unchanged and flags them in `illegal`. Finished games ignore their action.
    """
    return NOIR.step(state, actions, strict)


def observe(state: State, seats: np.ndarray | int | None = None) -> np.ndarray:
    """float32 [N, OBS_SIZE]: what `seats` (default: each game's current player; seat 0 in
    a finished game) see: one int or one per game, each a seat of its game. Never shows
    another hand or the order of the draw pile."""
    return NOIR.observe(state, seats)


def scores(state: State) -> np.ndarray:
    """int32 [N, 6]: each seat's score by R6.4 right now (trophies, table, money; 0 for
    absent seats). The countdown's winner is the living seat with the best score."""
    return NOIR.scores(state)


def refresh(state: State) -> State:
    """Recompute the derived legal-action cache (after editing a state by hand)."""
    return NOIR.refresh(state)


def settle_forced(state: State) -> State:
    """Take every game's forced decisions as `step` does after each action (R2.5; with
    `ask_all`, only those forced in public), so each game stops at a decision to present or
    at its end, and recompute the legal-action cache. Meant for hand-made positions
    (`state_from_dict` calls it): a position `step` produced is already settled.

    All or nothing: if a game reaches a decision with no legal action, ValueError names the
    game and the reason and no game is changed.
    """
    return NOIR.settle_forced(state)


def sample_hidden(
    state: State, seats: int | np.ndarray, seeds: int | np.ndarray | None = 0
) -> State:
    """A copy of `state` in which each game's hidden part is re-dealt as `seats` could
    believe it to be (`core.belief`): other hands, draw pile order and `rng`.
    seats: one seat for every game or one per game, each a seat of its game. seeds: an int
    s gives game i the seed s + i, an array one seed per game (int64); the same seeds give
    the same deal. Everything `seats` observes is unchanged (`core.observe(out, seats)` ==
    `core.observe(state, seats)`); the legal-action cache is recomputed, but no decision
    is taken, so a game whose actor is another seat may now show that actor a single legal
    action. Raises ValueError (or TypeError) naming a bad argument.
    """
    return NOIR.sample_hidden(state, seats, seeds)


def random_playout(state: State, seed: int = 0, max_steps: int = 100_000, check: bool = False,
                   parallel: bool = True) -> Playout:  # fmt: skip
    """Play every game of `state` (in place) with uniformly random legal actions until it
    ends or `max_steps` agent steps, compiled (benchmarks, invariant tests); with
    check=True test the invariants (validate.py) after each step."""
    return NOIR.random_playout(state, seed, max_steps, check, parallel)
