"""The compiled batched shell, written once for every game: settling forced decisions,
stepping one game, stepping and dealing a batch (serially, or in threads where
`noir_env.threads.use_parallel` says so), observing, belief sampling and random playouts.
Each kernel calls the game's own through the stand-ins of `binding.py`, so numba compiles it
once per game.

Each kernel Python calls is made machine code with everything it calls linked in
(`compiling.py`): the game's whole rules, for a kernel that plays. So Python calls few of
them: dealing and stepping a batch is one kernel (`batch_serial`, or `batch_parallel`), which
the AEC env calls too. The kernels that only other kernels call (`settle`, `play_action`,
`deal`, `is_legal`) are inlined into their callers, so that no layer between the loop and the
game's kernels is compiled on its own. What a `prange` loop calls stays a function
(`init_one`, `_play_game`): inlined, its early returns would be exits from the loop, which
numba then runs on one thread. Inlined code reports a broken game with a code, not a raise:
numba catches an exception raised by a call inside a `try` block (the game's kernels), not
one raised by code inlined into it (`step_saved`).

A step is all or nothing: `step_saved` saves the bytes of every game it is about to change,
and an error inside the game's kernels is caught per game, so the caller can put every game
back (`noir_env.engine.batch.step`)."""

from __future__ import annotations

import numpy as np
from numba import prange

from .binding import (
    game_apply,
    game_auto_action,
    game_context,
    game_fill_mask,
    game_first_violation,
    game_init,
    game_observe,
    game_presents_forced,
    game_resample,
    game_seat_alive,
    game_write_outcome,
)
from .jit import kernel
from .refcount import borrowed
from .sampling import count_legal, random_legal_action

MAX_FORCED = 100_000  # more forced decisions in a row than any game takes: a broken game
SAVED, FAILED = 1, 2  # per-game status of a step: bytes saved in the backup; the game raised
NO_LEGAL_ACTION, ENDLESS = 1, 2  # how `settle` finds a game broken
DEAL, STEP = 0, 1  # what `batch_serial` and `batch_parallel` do


@kernel(inline="always")
def settle(s, ctx, i):
    """Take the decisions nobody is asked for until a decision to present or the end: the
    game's unasked actions, and every decision with a single legal action unless the game
    presents it. Leaves the actor's legal actions in s[i].mask. Returns 0, or NO_LEGAL_ACTION
    / ENDLESS for a broken game: a code, not a raise, because numba does not catch a raise
    inlined into a try block (`step_saved`)."""
    for _ in range(MAX_FORCED):
        a = game_auto_action(s, i)
        if a >= 0:
            game_apply(s, ctx, i, a)
            continue
        count, last = game_fill_mask(s, ctx, i)
        if count != 1 or game_presents_forced(s, i):
            if count == 0 and s[i].actor >= 0:
                return NO_LEGAL_ACTION
            return 0
        game_apply(s, ctx, i, last)
    return ENDLESS


@kernel(inline="always")
def raise_if_failed(failure):
    """Raise the error a failure code of `settle` stands for."""
    if failure == NO_LEGAL_ACTION:
        raise RuntimeError("the rules core reached a decision with no legal action")
    if failure == ENDLESS:
        raise RuntimeError("the rules core's forced decisions did not stop")


@kernel(inline="always")
def is_legal(s, i, a):
    """Whether action a may be given to game i (any action to a finished game: ignored)."""
    return s[i].actor < 0 or (0 <= a < s[i].mask.shape[0] and s[i].mask[a] != 0)


@kernel(inline="always")
def play_action(s, i, a, rewards, done, illegal):
    """One action in game i. A finished game sets done[i]; an illegal action sets illegal[i]
    and changes nothing; a game that ends gets its outcome in rewards[i]. Returns the failure
    code of `settle` (0: none)."""
    failure = 0
    if s[i].actor < 0:
        done[i] = True
    elif not is_legal(s, i, a):
        illegal[i] = True
    else:
        ctx = game_context(s, i)
        game_apply(s, ctx, i, a)
        s[i].steps += 1
        failure = settle(s, ctx, i)
        if failure == 0 and s[i].actor < 0:
            done[i] = True
            game_write_outcome(s, i, rewards[i])
    return failure


@kernel
def step_one(s, i, a, rewards, done, illegal):
    """`play_action`, raising for a broken game: the kernel behind the lockstep loops, search
    and random playouts."""
    s = borrowed(s)  # every kernel below takes s: no reference counting (refcount.py)
    raise_if_failed(play_action(s, i, a, rewards, done, illegal))


@kernel
def first_illegal(s, actions):
    """Index of the first game whose action is illegal (-1 if none)."""
    for i in range(actions.shape[0]):
        if not is_legal(s, i, actions[i]):
            return i
    return -1


@kernel
def step_saved(s, raw, backup, status, i, a, rewards, done, illegal):
    """`play_action` on game i, after saving its bytes (raw[i]) in backup[i] if it will
    change. An error inside the game's kernels is caught: status[i] = FAILED, returns 1
    (else 0)."""
    s = borrowed(s)
    if s[i].actor >= 0 and is_legal(s, i, a):
        for b in range(raw.shape[1]):  # a loop: a slice copy compiles numba's error text
            backup[i, b] = raw[i, b]
        status[i] = SAVED
    try:
        failure = play_action(s, i, a, rewards, done, illegal)
    except Exception:  # noqa: BLE001 - any failure: the caller restores the batch
        failure = FAILED
    if failure != 0:
        status[i] = FAILED
        return 1
    return 0


@kernel
def step_unguarded(s, a, rewards):
    """Step game 0 of `s` letting an error of the game's kernels propagate (to report it)."""
    flags = np.zeros(1, np.bool_)
    step_one(s, 0, a, rewards, flags, flags.copy())


@kernel(inline="always")
def deal(s, i, num_players):
    """Deal game i and settle it (its `rng` and set-up fields are written already)."""
    s = borrowed(s)
    ctx = game_context(s, i)
    game_init(s, ctx, i, num_players)
    raise_if_failed(settle(s, ctx, i))


@kernel
def init_one(s, i, num_players):
    """`deal` as a function of its own: what the `prange` loop of `batch_parallel` calls."""
    deal(s, i, num_players)


@kernel
def batch_serial(op, s, players, raw, backup, status, actions, rewards, done, illegal, strict):
    """Deal every game (op DEAL: game i with players[i] seats, its `rng` and set-up fields
    written already) or step it (op STEP: `step_saved` with actions[i]; strict: first
    check every action, changing nothing if one is illegal). Returns (the first game with an
    illegal action or -1, the number of games that failed); a deal returns (-1, 0). One
    kernel for both: each kernel Python calls carries its own machine code of the game's
    whole rules."""
    if op == DEAL:
        for i in range(players.shape[0]):
            deal(s, i, players[i])
        return -1, 0
    if strict:
        bad = first_illegal(s, actions)
        if bad >= 0:
            return bad, 0
    failed = 0
    for i in range(actions.shape[0]):
        failed += step_saved(s, raw, backup, status, i, actions[i], rewards, done, illegal)
    return -1, failed


@kernel(parallel=True)
def batch_parallel(op, s, players, raw, backup, status, actions, rewards, done, illegal, strict):
    """`batch_serial` with a thread per chunk of games."""
    if op == DEAL:
        for i in prange(players.shape[0]):
            init_one(s, i, players[i])
        return -1, 0
    if strict:
        bad = first_illegal(s, actions)
        if bad >= 0:
            return bad, 0
    failed = 0
    for i in prange(actions.shape[0]):
        failed += step_saved(s, raw, backup, status, i, actions[i], rewards, done, illegal)
    return -1, failed


@kernel
def alive_bits(s, i, seats):
    """The seats of game i still in it, as bits (seat q: bit q)."""
    bits = 0
    for q in range(seats):
        if game_seat_alive(s, i, q):
            bits |= 1 << q
    return bits


@kernel
def settle_game(s, i):
    """`settle` for game i (hand-made positions)."""
    raise_if_failed(settle(s, game_context(s, i), i))


@kernel
def mask_batch(s):
    """Recompute every game's legal-action cache (after a hand edit)."""
    for i in range(s.shape[0]):
        game_fill_mask(s, game_context(s, i), i)


@kernel
def outcomes(s, out):
    """The zero-sum rewards of each finished game (zeros for the others)."""
    for i in range(s.shape[0]):
        if s[i].actor < 0:
            game_write_outcome(s, i, out[i])


@kernel
def observe_rows(s, seats, out):
    """out[i] = what seats[i] sees of game i."""
    s = borrowed(s)
    for i in range(s.shape[0]):
        game_observe(s, i, seats[i], out[i])


@kernel
def resample_batch(s, seats, rng_states):
    """Re-deal each game from seats[i]'s point of view, drawing from rng_states[i]."""
    for i in range(s.shape[0]):
        game_resample(s, i, seats[i], rng_states[i])


# --- random playouts -----------------------------------------------------------------------
@kernel(inline="always")
def _playout(s, i, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad):
    """Random play of game i until it ends or has taken max_steps decisions here."""
    s, agent_rng = borrowed(s), borrowed(agent_rng)
    rewards, done, illegal = borrowed(rewards), borrowed(done), borrowed(illegal)
    for _ in range(max_steps):
        if s[i].actor < 0:
            return
        if count_legal(s[i].mask) == 1:  # presented although forced (a multi-agent mode)
            forced[i] += 1
        a = random_legal_action(s[i].mask, agent_rng, i)
        raise_if_failed(play_action(s, i, a, rewards, done, illegal))
        steps[i] += 1
        if check:
            code = game_first_violation(s, i)
            if code != 0:
                bad[i] = code
                return


@kernel
def _play_game(s, i, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad):
    """`_playout` as a function of its own: what the `prange` loop calls."""
    _playout(s, i, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad)


@kernel(parallel=True)
def play_parallel(s, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad):
    """Random play of every game until it ends or has taken max_steps decisions here."""
    for i in prange(s.shape[0]):
        _play_game(s, i, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad)


@kernel
def play_serial(s, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad):
    for i in range(s.shape[0]):
        _playout(s, i, agent_rng, max_steps, check, rewards, done, illegal, steps, forced, bad)
