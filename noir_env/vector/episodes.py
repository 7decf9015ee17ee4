"""What the single-seat engine reports of a step and of the learner episodes that end in it:
the rewards (noir_v2's rules, `rewards.episode_rewards`), the end of each game as the final
infos of the vector envs read it, and, in record mode, each game's history."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..engine import lockstep as L
from ..views import history
from .rewards import episode_rewards

if TYPE_CHECKING:
    from .engine import SingleSeatGames

RESULTS = {L.ST_OVER: "game_over", L.ST_OUT: "eliminated", L.ST_TRUNCATED: "truncated"}


@dataclass
class Ended:
    """The learner episodes that ended in one step, one row per game in `games`."""

    games: np.ndarray  # int64 [E]: slot indices
    reward: np.ndarray  # float32 [E]: the learner's reward (the AEC env's definition)
    terminated: np.ndarray  # bool [E]: game over or learner eliminated (else truncated)
    final_obs: np.ndarray  # float32 [E, obs_size]: the learner's last observation
    result: np.ndarray  # object [E]: "game_over", "eliminated" or "truncated"
    scores: np.ndarray  # int32 [E, P]: the scores at the end (0 for absent seats)
    winners: np.ndarray  # bool [E, P]: the winners (none if the game went on, or a draw)
    winner: np.ndarray  # int8 [E]: the sole winner's seat, -1 for none, a draw or a tie
    win_reason: np.ndarray  # object [E]: why the game ended (the game's `win_reasons`)
    learner_won: np.ndarray  # bool [E]
    game_length: np.ndarray  # int32 [E]: decisions taken in the game by all players
    episode_length: np.ndarray  # int32 [E]: learner decisions
    episode_time: np.ndarray  # float64 [E]: wall seconds
    learner_seat: np.ndarray  # int8 [E]
    num_players: np.ndarray  # int8 [E]
    game_seed: np.ndarray  # int64 [E]
    opponent: np.ndarray  # object [E]: name of the opponent drawn for the game ("mixed":
    # a mixed table, one drawn per seat)
    history: np.ndarray | None  # object [E]: histories (record=True), else None


@dataclass
class StepOut:
    """What one engine step returns (arrays over the N slots)."""

    obs: np.ndarray  # float32 [N, obs_size]: the learner's next observation
    mask: np.ndarray  # int8 [N, num_actions]: its legal actions
    reward: np.ndarray  # float32 [N]
    terminated: np.ndarray  # bool [N]
    truncated: np.ndarray  # bool [N]
    ended: Ended | None  # the episodes that ended (their slots already dealt again)


def ended_episodes(engine: SingleSeatGames, games: np.ndarray) -> Ended:
    """Rewards and final information of the learner episodes of `engine` ending in slots
    `games` (before they are dealt again)."""
    g = engine.game
    over = engine.state[games]
    status = engine.lanes.status[games]
    seats = engine.learner[games]
    num_players = g.num_players(over)
    outcome = engine.lanes.rewards[games]  # what the core paid on each game's last step
    reward = episode_rewards(
        num_players, seats, g.alive(over), engine.lanes.out_at[games], over.steps,
        outcome, status == L.ST_OVER, status == L.ST_TRUNCATED,
    )  # fmt: skip
    winners = g.winners(over)
    sole = winners.sum(1) == 1
    rows = np.arange(games.size)
    final_obs, _ = engine.observe_rows(games, seats)
    drawn = np.array(engine.opponent_names, object)
    return Ended(
        games=games,
        reward=reward,
        terminated=status != L.ST_TRUNCATED,
        final_obs=final_obs,
        result=np.array([RESULTS[int(s)] for s in status], object),
        scores=g.scores(over),
        winners=winners,
        winner=np.where(sole, winners.argmax(1), -1).astype(np.int8),
        win_reason=np.array(g.win_reasons, object)[g.win_reason(over)],
        learner_won=winners[rows, seats],
        game_length=over.steps.astype(np.int32),
        episode_length=engine.episode_length[games].copy(),
        episode_time=time.perf_counter() - engine.episode_start[games],
        learner_seat=seats.astype(np.int8),
        num_players=num_players,
        game_seed=engine.game_seed[games].copy(),
        opponent=np.where(engine.mixed_table[games], "mixed", drawn[engine.opponent[games]]),
        history=histories(engine, games) if engine.lanes.trace.shape[1] else None,
    )


def histories(engine: SingleSeatGames, games: np.ndarray) -> np.ndarray:
    """The games of `engine` at `games` in the AEC env's history format: the seed, the
    settings, the engine's `max_steps` and every decision taken here. A NOIR game dealt in
    the core's fast mode records `"ask_all": false`, so `noir_v2.replay` lets the core take
    the forced decisions this history leaves out, as it did here (`noir_env.history`)."""
    out = np.empty(games.size, object)
    for j, g in enumerate(games):  # record mode only (tests, replays), not the hot path
        actions = engine.lanes.trace[g, : engine.state.steps[g]].tolist()
        record = history(engine.game, engine.state, g, engine.rules, engine.game_seed[g], actions)
        # the truncation the replay must reproduce (decisions counted as they are here)
        record.setdefault("max_steps", engine.max_steps)
        out[j] = record
    return out
