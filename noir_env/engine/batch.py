"""The batched API of every game, written once over the compiled shell (`shell.py`): deal,
step, observe, masks, current players, outcomes, belief sampling and random playouts, with
the argument checks and the all-or-nothing step. `Game` (protocol.py) exposes each as a
method; a game supplies only its kernels and declarations.

Games run independently: game i depends on its seed and its actions only, never on N.
`step` changes the state in place (clone it to keep a copy); a finished game ignores its
action and reports done=True.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..threads import use_parallel
from . import args as A
from . import shell
from .binding import GameKernels, bind_kernels
from .records import RecordLayout, State, take
from .rng import seed_to_state
from .sampling import agent_streams

if TYPE_CHECKING:
    from .protocol import Game


NO_DEAL = np.empty(0, np.int8)  # the players argument of a batch kernel that steps
# the step arguments of a batch kernel that deals: empty, of the types a step passes
_ROWS, _FLAGS = np.empty((0, 0), np.uint8), np.empty(0, np.bool_)
NO_STEP = (_ROWS, _ROWS, np.empty(0, np.uint8), np.empty(0, np.int64),
           np.empty((0, 0), np.float32), _FLAGS, _FLAGS, False)  # fmt: skip


def init(game: Game, num_games: Any, num_players: Any = None, rules: Any = None,
         seeds: Any = 0, ask_all: Any = False) -> State:  # fmt: skip
    """Deal `num_games` games (`Game.init`)."""
    n = A.num_games(num_games)
    given = game.default_players if num_players is None else num_players
    players = A.num_players(given, n, game.min_players, game.max_players)
    game_rules = game.check_rules(rules)
    seed_arr = A.seeds(seeds, n)
    if not isinstance(ask_all, bool | np.bool_):
        raise TypeError(f"ask_all must be a bool, got {type(ask_all).__name__} {ask_all!r}")
    state = game.layout.allocate(n)
    state.rng[:] = [seed_to_state(x) for x in seed_arr.tolist()]
    game.prepare(state, game_rules, bool(ask_all))
    kernel = shell.batch_parallel if use_parallel(n) else shell.batch_serial
    # a fresh writable copy: a read-only array would be another specialization to compile
    kernel(shell.DEAL, game.kernel_view(state), np.array(players, np.int8), *NO_STEP)
    return state


def legal_action_mask(game: Game, state: State) -> np.ndarray:
    """bool [N, num_actions]: the actor's legal actions (a read-only view; all False in a
    finished game)."""
    m = game.kernel_view(state)["mask"].view(np.bool_)
    m.flags.writeable = False
    return m


def current_player(game: Game, state: State) -> np.ndarray:
    """int8 [N]: the seat to act in each game (-1 once the game is over)."""
    return game.kernel_view(state)["actor"].astype(np.int8)


def step(game: Game, state: State, actions: Any,
         strict: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """One action per game, in place, all or nothing (`Game.step`)."""
    kv = game.kernel_view(state)
    n = kv.shape[0]
    if not kv.flags.writeable:
        raise ValueError("step: the state is read-only (step changes it in place; clone it)")
    acts = np.asarray(actions)
    if acts.shape != (n,):
        raise ValueError(f"actions must have shape ({n},), got {acts.shape}")
    if acts.dtype.kind not in "iu":  # bools, floats, strings, objects: not action ids
        raise ValueError(f"actions must be integer action ids, got dtype {acts.dtype}")
    if acts.dtype != np.int64 or not (acts.flags.c_contiguous and acts.flags.writeable):
        acts = np.array(acts, np.int64)  # one type for the kernels: each other is a compile
    if not kv.flags.c_contiguous:  # a strided view: step a copy, then write it back
        work = kv.copy()
        out = _step_contiguous(game, state, work, acts, bool(strict))
        kv[...] = work
        return out
    return _step_contiguous(game, state, kv, acts, bool(strict))


_scratch = threading.local()  # per thread: the backup buffer of the last batch size stepped


def _backup_buffers(n: int, row_bytes: int) -> tuple[np.ndarray, np.ndarray]:
    """A reusable uint8 [n, row_bytes] backup and a zeroed uint8 [n] status."""
    key = (n, row_bytes)
    if getattr(_scratch, "key", None) != key:
        _scratch.key = key
        _scratch.backup = np.empty(key, np.uint8)
        _scratch.status = np.zeros(n, np.uint8)
    else:
        _scratch.status[:] = 0
    return _scratch.backup, _scratch.status


def raw_bytes(kv: np.ndarray) -> np.ndarray:
    """uint8 [N, record size]: the bytes of each game of a contiguous kernel view."""
    return np.ndarray.view(kv, np.ndarray).view(np.uint8).reshape(kv.shape[0], -1)


def _step_contiguous(game: Game, state: State, kv: np.ndarray, acts: np.ndarray,
                     strict: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    n = kv.shape[0]
    raw = raw_bytes(kv)
    backup, status = _backup_buffers(n, raw.shape[1])
    rewards = np.zeros((n, game.max_players), np.float32)
    done = np.zeros(n, np.bool_)
    illegal = np.zeros(n, np.bool_)
    kernel = shell.batch_parallel if use_parallel(n) else shell.batch_serial
    bad, failed = kernel(shell.STEP, kv, NO_DEAL, raw, backup, status, acts, rewards, done,
                         illegal, strict)  # fmt: skip
    if bad >= 0:
        raise ValueError(game.describe_illegal(state, bad, int(acts[bad])))
    if failed:
        saved = status != 0
        raw[saved] = backup[saved]  # every game back as it was: the step is all or nothing
        i = int(np.flatnonzero(status == shell.FAILED)[0])
        raise_failure(game, kv, i, int(acts[i]))
    return rewards, done, illegal


def raise_failure(game: Game, kv: np.ndarray, i: int, action: int) -> None:
    """Raise RuntimeError for game i, whose step failed inside the game's kernels (the
    batch is already restored): replay that step on a copy of the game to recover the
    kernels' own error."""
    what = f"game {i}: the rules core failed on {game.action_name_or_id(action)}"
    copy = game.kernel_view(take(kv.view(np.recarray), i))
    try:
        shell.step_unguarded(copy, action, np.zeros((1, game.max_players), np.float32))
    except Exception as err:  # noqa: BLE001 - re-raised below with the game named
        raise RuntimeError(f"{what} ({err}); no game of the batch was changed") from err
    raise RuntimeError(f"{what}; no game of the batch was changed")


def observe(game: Game, state: State, seats: Any = None) -> np.ndarray:
    """float32 [N, obs_size]: what `seats` see (default: each game's actor; seat 0 in a
    finished game): one int or one per game, each a seat of its game."""
    kv = game.kernel_view(state)
    if seats is None:
        seat_arr = np.where(kv["actor"] >= 0, kv["actor"], 0).astype(np.int64)
    else:
        seat_arr = A.seats(seats, game.num_players(state))
    out = np.empty((kv.shape[0], game.obs_size), np.float32)
    shell.observe_rows(kv, np.ascontiguousarray(seat_arr, np.int64), out)
    return out


def outcome(game: Game, state: State) -> np.ndarray:
    """float32 [N, max_players]: the zero-sum rewards of the games that are over."""
    out = np.zeros((len(state), game.max_players), np.float32)
    shell.outcomes(game.kernel_view(state), out)
    return out


def refresh(game: Game, state: State) -> State:
    """Recompute the legal-action cache after a hand edit."""
    shell.mask_batch(game.kernel_view(state))
    return state


def settle_forced(game: Game, state: State) -> State:
    """Take every game's forced decisions as `step` does after each action, so each game
    stops at a decision to present or at its end, and recompute the legal-action cache.
    Meant for hand-made positions. All or nothing: if a game reaches a decision with no
    legal action, ValueError names the game and the reason and no game is changed."""
    return settle_records(game.layout, game.kernels, state)


def settle_records(layout: RecordLayout, kernels: GameKernels, state: State) -> State:
    """`settle_forced` for a game's own loaders (its `state_from_dict`), which sit below its
    `Game` object: the kernels are bound here (as registering the game does)."""
    bind_kernels(layout.dtype, kernels)
    kv = layout.kernel_view(state)
    if not kv.flags.writeable:
        raise ValueError("settle_forced: the state is read-only (it is changed in place)")
    work = kv.copy()
    for i in range(work.shape[0]):
        try:
            shell.settle_game(work, i)
        except RuntimeError as err:  # the game's own checks: no legal action, no end
            raise ValueError(f"game {i}: {err}; the state is unchanged") from None
    kv[...] = work
    return state


def sample_hidden(game: Game, state: State, seats: Any, seeds: Any = 0) -> State:
    """A copy of `state` whose hidden part is re-dealt as `seats` could believe it to be
    (`Game.sample_hidden`)."""
    if game.kernels.resample is None:
        raise NotImplementedError(f"{game.title} has no belief sampling (Game.sample_hidden)")
    kv = game.kernel_view(state)
    seat_arr = A.seats(seats, game.num_players(state))
    seed_arr = A.seeds(seeds, kv.shape[0])
    rng_states = np.array([seed_to_state(x) for x in seed_arr.tolist()], np.uint64)
    out = kv.copy().view(np.recarray)
    shell.resample_batch(game.kernel_view(out), seat_arr, rng_states)
    return out


@dataclass
class Playout:
    """What `random_playout` did to each game."""

    steps: np.ndarray  # int64 [N]: decisions taken here
    forced: np.ndarray  # int64 [N]: of those, decisions presented with one legal action
    done: np.ndarray  # bool [N]: the game is over
    rewards: np.ndarray  # float32 [N, max_players]: the outcome of the games that ended here
    violation: np.ndarray  # int8 [N]: the first broken invariant (the game's code), 0 if none
    messages: dict[int, str]  # the game's invariant codes in words

    def problems(self) -> list[str]:
        """'game i: <what is broken>' for each game that broke an invariant."""
        return [f"game {i}: {self.messages[int(c)]}" for i, c in enumerate(self.violation) if c]


def random_playout(game: Game, state: State, seed: int = 0, max_steps: int = 100_000,
                   check: bool = False, parallel: bool = True) -> Playout:  # fmt: skip
    """Play every game (in place) with uniformly random legal actions until it ends or has
    taken `max_steps` decisions, compiled; with check=True test the game's invariants after
    every decision."""
    kv = game.kernel_view(state)
    n = kv.shape[0]
    steps = A.as_count(max_steps, "max_steps", least=0)
    rewards = np.zeros((n, game.max_players), np.float32)
    done = np.zeros(n, np.bool_)
    illegal = np.zeros(n, np.bool_)
    taken = np.zeros(n, np.int64)
    forced = np.zeros(n, np.int64)
    bad = np.zeros(n, np.int8)
    kernel = shell.play_parallel if parallel and use_parallel(n) else shell.play_serial
    rng = agent_streams(n, A.as_int(seed, "seed"))
    kernel(kv, rng, steps, bool(check), rewards, done, illegal, taken, forced, bad)
    done |= kv["actor"] < 0
    return Playout(taken, forced, done, rewards, bad, dict(game.violation_messages))
