"""The episodes of a dataset (`train.dataset`): games played by any agents, each recorded
seat's view as the single-seat env gives it.

    episodes = play_episodes(get_game("noir"), policies, 4, None, games=100, seed=0,
                             seats=[0, 1, 2, 3])

`policies[q]` plays seat q: an arena player (`noir_env.vector.arena.policy_of`: an agent's
batched `act(obs, mask)` or a search agent's `act_on_state`, or the built-in uniform random
player, which draws from a stream per game). An episode holds the seat's observation and
legal actions at each of its decisions, the action it took and the reward it got, then its
observation when its episode ended: at the game's end, or when it was eliminated while the
game went on, with the rewards of `noir_env.vector.rewards.seat_rewards` (the rule of every
env: zero-sum per game; docs/RULES.md R6.5), or when the game was stopped after `max_steps`
decisions (truncated).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from noir_env.game import Game


@dataclass
class Episode:
    """One seat's view of one game (module docstring): T decisions, T + 1 observations."""

    seat: int
    num_players: int
    game_seed: int
    observations: list[np.ndarray] = field(default_factory=list)
    masks: list[np.ndarray] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    rewards: list[float] = field(default_factory=list)
    terminated: bool = False  # the game ended, or the seat was eliminated (not truncated)
    done: bool = False  # the episode has its last observation

    def buffer(self, episode_id: int) -> Any:
        """The episode as Minari's EpisodeBuffer."""
        from minari.data_collector import EpisodeBuffer

        steps = len(self.actions)
        done = np.zeros(steps, np.bool_)
        ended = done.copy()
        ended[-1] = True
        return EpisodeBuffer(
            id=episode_id,
            observations=np.stack(self.observations),
            actions=np.asarray(self.actions, np.int64),
            rewards=np.asarray(self.rewards, np.float64),
            terminations=ended if self.terminated else done,
            truncations=done if self.terminated else ended,
            infos={
                "action_mask": np.stack(self.masks),
                "learner_seat": np.full(steps + 1, self.seat, np.int64),
                "num_players": np.full(steps + 1, self.num_players, np.int64),
                "game_seed": np.full(steps + 1, self.game_seed, np.int64),
            },
        )


def play_episodes(game: Game, policies: Sequence[Any], num_players: int, rules: Any,
                  games: int, seed: int, seats: Sequence[int], max_steps: int = 10_000,
                  batch: int = 64, progress: Any = None) -> Iterator[Episode]:  # fmt: skip
    """The episodes of `seats` in `games` games with the seeds seed, seed + 1, ...:
    `policies[q]` (arena players, `noir_env.vector.arena.policy_of`) plays seat q. Games are
    played `batch` at a time; episodes come in game order, then seat order. `progress`: a
    tqdm bar, advanced by the games played."""
    for start in range(0, games, batch):
        seeds = np.arange(start, min(start + batch, games), dtype=np.int64) + seed
        yield from _play_batch(game, policies, num_players, rules, seeds, seats, max_steps)
        if progress is not None:
            progress.update(len(seeds))


def _play_batch(game, policies, num_players, rules, seeds, seats, max_steps):
    from noir_env.vector.rewards import seat_rewards

    state = game.init(len(seeds), num_players, rules, seeds)
    # the built-in random player draws from a stream per game: a game is the same
    # whatever batch it is played in
    rngs = [np.random.default_rng([int(s), game.seed_salt]) for s in seeds]
    episodes = [{q: Episode(q, num_players, int(s)) for q in seats} for s in seeds]
    while True:
        actors = game.current_player(state).astype(np.int64)
        live = np.flatnonzero((actors >= 0) & (np.asarray(state.steps) < max_steps))
        if not live.size:
            break
        sub = state[live]  # a copy: the agents and the step work on it
        # copies: a game's mask may be a view of its state, which the step changes
        obs, mask = game.observe(sub).copy(), game.legal_action_mask(sub).copy()
        actions = np.empty(live.size, np.int64)
        for q in np.unique(actors[live]):
            rows = np.flatnonzero(actors[live] == q)
            games_rngs = [rngs[g] for g in live[rows]]
            actions[rows] = _ask(policies[q], game, sub[rows], obs[rows], mask[rows], games_rngs)
        for row, g in enumerate(live):
            episode = episodes[g].get(int(actors[g]))
            if episode is not None:
                episode.observations.append(obs[row])
                episode.masks.append(mask[row])
                episode.actions.append(int(actions[row]))
                episode.rewards.append(0.0)
        alive = game.alive(sub).copy()
        outcome, over, _ = game.step(sub, actions)
        state[live] = sub
        truncated = ~over & (np.asarray(sub.steps) >= max_steps)
        # the rewards of the seats whose episode ends now, by the rule every env reads
        paid, ended = seat_rewards(game.num_players(sub), alive, game.alive(sub), outcome,
                                   over, truncated)  # fmt: skip
        for row, q in zip(*np.nonzero(ended), strict=True):
            episode = episodes[live[row]].get(int(q))
            if episode is not None and episode.actions and not episode.done:
                episode.rewards[-1] += float(paid[row, q])
                episode.observations.append(game.observe(sub[row : row + 1], int(q))[0])
                episode.masks.append(np.zeros(game.num_actions, np.bool_))
                episode.terminated, episode.done = not truncated[row], True
    for by_seat in episodes:
        yield from (e for e in by_seat.values() if e.done)  # a seat never asked: no episode


def _ask(policy, game: Game, sub, obs, mask, rngs) -> np.ndarray:
    """`policy`'s legal actions for the games `sub` (their observations, masks and random
    streams)."""
    from noir_env.vector.opponents import as_actions

    who = f"agent {policy.name!r}"
    if policy.builtin:  # the uniform random player
        return np.array([r.choice(np.flatnonzero(m)) for r, m in zip(rngs, mask, strict=True)],
                        np.int64)  # fmt: skip
    if policy.act_on_state is not None:
        acts = as_actions(who, policy.act_on_state(sub, np.arange(len(sub))), len(sub))
    else:
        acts = as_actions(who, policy.act(obs if policy.observes else None, mask), len(sub))
    bad = np.flatnonzero((acts < 0) | (acts >= game.num_actions))
    bad = bad if bad.size else np.flatnonzero(~mask[np.arange(len(sub)), acts])
    if bad.size:
        k = int(bad[0])
        raise ValueError(f"{who} chose an illegal action: "
                         f"{game.describe_illegal(sub, k, int(acts[k]))}")  # fmt: skip
    return acts
