"""The batched self-play API: N games of any game of the protocol (`noir_env.game`) in which
the caller decides for every seat.

    from noir_env.vector import make_selfplay_env

    env = make_selfplay_env(1024, num_players=(3, 4, 5, 6), seed=0)   # or game="district_noir"
    obs, infos = env.reset()          # obs of the seat to act, infos["seat"], ["action_mask"]
    while training:
        actions = policy(obs, infos["action_mask"])       # one policy plays every seat
        obs, rewards, terminated, truncated, infos = env.step(actions)
        # rewards [N, P]: what each seat earned on this step; infos["seat_done"] [N, P]

Each step reports, per game, which seat must act (`infos["seat"]`, absolute seat number), its
observation (seat-relative, so one policy serves every seat) and its legal actions. Rewards
are attributed per seat as in the AEC envs, so every seat's return is right (not only the
last mover's): a seat eliminated during the game gets -1/(n-1) on that step and its episode
ends (`seat_done`); when the game ends every seat still in gets the zero-sum outcome plus its
share of what the eliminated players were paid above theirs (0 plus that share on truncation
after `max_steps` decisions). Per game, the seats' returns sum to zero. A seat's episode ends
terminated, except at a truncation (`truncated[i]`), where the seats still in are truncated.

NOIR asks every living player in every reaction window and presents every turn step that is
not skipped for a public reason (`init(..., ask_all=True)`): who is asked reveals nothing
about hidden hands, which matters when the caller sees every seat's decisions. Decisions
with a single legal action are then presented too. (District Noir's core takes those
itself, DN5.1.)

Autoreset is same-step, as in the single-seat envs: an ended game is dealt again at once;
`infos["final_info"]` holds, for those slots, `returns` [P], `scores` [P], `winners` [P],
`win_reason`, `result` ("game_over" or "truncated"), `game_length`, `num_players`,
`game_seed`, and `infos["final_obs"]` each seat's last observation ([num_players, obs_size]).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..engine import lockstep as L
from ..engine.args import as_count
from ..game import Game, get_game
from . import seeds as S
from .gym_vector import final_info
from .rewards import seat_rewards
from .seeds import SeedStreams, draw


class SelfPlayEnv:
    """N games, every seat's decisions supplied by the caller (module docstring).
    Arguments as `make_selfplay_env`."""

    def __init__(
        self,
        num_envs: int,
        num_players: int | Iterable[int] | None = None,
        rules: Any = None,
        seed: int | None = None,
        max_steps: int = 10_000,
        game: str | Game = "noir",
    ):
        self.game = get_game(game)
        self.num_envs = as_count(num_envs, "num_envs")  # 2.7 games would be truncated to 2
        self.max_steps = as_count(max_steps, "max_steps")
        self.player_counts = self.game.player_counts(num_players)
        self.rules = self.game.check_rules(rules)
        self.seed = None if seed is None else S.check_seed(seed, self.num_envs)
        self.closed = False
        self.seeds = SeedStreams(self.num_envs)
        self.state: np.recarray | None = None  # the N games, from the first reset on
        self.game_seed = np.zeros(self.num_envs, np.int64)
        self.returns = np.zeros((self.num_envs, self.game.max_players), np.float64)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal N games (seeds as the single-seat envs: s + i, then per-slot streams). A seed
        is an int or numpy integer; a bad one raises ValueError, changing nothing."""
        self._require_open("reset()")
        # the constructor's seed applies to the first reset only
        seed = self.seed if seed is None else S.check_seed(seed, self.num_envs)
        self.seed = None
        if seed is not None or not self.seeds.started:
            self.seeds.restart(seed)
            self.state = self.game.allocate(self.num_envs)
        self._deal(np.arange(self.num_envs))
        obs, mask = self._observe()
        return obs, self._infos(mask)

    def step(
        self, actions: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One decision in every game by its acting seat. Returns (obs of the next seat to
        act, rewards [N, P] per seat, terminated [N] (game over), truncated [N], infos).
        Raises ValueError, changing nothing, if an action is illegal."""
        self._require_open("step()")
        state = self._games()
        g = self.game
        alive_before = g.alive(state)
        outcome, over, _ = g.step(state, actions)  # checks every action first
        truncated = ~over & (state.steps >= self.max_steps)
        rewards, seat_done = seat_rewards(
            g.num_players(state), alive_before, g.alive(state), outcome, over, truncated
        )
        self.returns += rewards
        ended = np.flatnonzero(over | truncated)
        extra = self._ended(ended, over) if ended.size else {}
        if ended.size:
            self._deal(ended)
        obs, mask = self._observe()
        infos = self._infos(mask)
        infos["seat_done"] = seat_done
        infos.update(extra)
        return obs, rewards, over, truncated, infos

    def close(self) -> None:
        """Mark the games closed: `reset` and `step` raise ValueError from now on."""
        self.closed = True

    # --- internals --------------------------------------------------------------------------
    def _require_open(self, what: str) -> None:
        if self.closed:
            raise ValueError(f"{what} on a closed environment; make a new one")

    def _games(self) -> np.recarray:
        """The N games' state (ValueError before the first reset)."""
        if self.state is None:
            raise ValueError("call reset() before step()")
        return self.state

    def _deal(self, games: np.ndarray) -> None:
        seeds = self.seeds.next(games)
        counts = self.player_counts
        nps = counts[draw(seeds, S.salt(self.game.seed_salt, S.SALT_PLAYERS), counts.size)]
        self._games()[games] = self.game.init(games.size, nps, self.rules, seeds, ask_all=True)
        self.game_seed[games] = seeds
        self.returns[games] = 0.0

    def _observe(self) -> tuple[np.ndarray, np.ndarray]:
        """The acting seat's observation and mask in every game."""
        return self._observe_rows(np.arange(self.num_envs), self._games().actor)

    def _observe_rows(self, games: np.ndarray, seats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        g = self.game
        return L.observe_rows(g.kernel_view(self._games()), games, seats, g.obs_size, g.num_actions)

    def _infos(self, mask: np.ndarray) -> dict[str, Any]:
        return {
            "seat": self._games().actor.copy(),
            "action_mask": mask,
            "num_players": self.game.num_players(self._games()),
        }

    def _ended(self, games: np.ndarray, over: np.ndarray) -> dict[str, Any]:
        """final_info / final_obs of the games in `games`, before they are dealt again."""
        game = self.game
        done = self._games()[games]
        players = game.num_players(done)
        final_obs = np.full(self.num_envs, None, object)
        for g, n in zip(games, players, strict=True):  # only the ended games: each seat's view
            final_obs[g] = self._observe_rows(np.full(n, g), np.arange(n))[0]
        ended = _EndedGames(
            games=games,
            returns=self.returns[games].copy(),
            scores=game.scores(done),
            winners=game.winners(done),
            win_reason=np.array(game.win_reasons, object)[game.win_reason(done)],
            result=np.where(over[games], "game_over", "truncated").astype(object),
            game_length=done.steps.astype(np.int32),
            num_players=players,
            game_seed=self.game_seed[games].copy(),
        )
        mark = np.zeros(self.num_envs, np.bool_)
        mark[games] = True
        return {
            "final_obs": final_obs,
            "_final_obs": mark,
            "final_info": final_info(ended, self.num_envs, _FINAL_KEYS),
            "_final_info": mark,
        }


_FINAL_KEYS = (
    "returns",
    "scores",
    "winners",
    "win_reason",
    "result",
    "game_length",
    "num_players",
    "game_seed",
)


class _EndedGames:
    """The ended games' arrays, by name (what `final_info` reads)."""

    def __init__(self, games: np.ndarray, **arrays: np.ndarray):
        self.games = games
        self.__dict__.update(arrays)


def make_selfplay_env(
    num_envs: int,
    num_players: int | Iterable[int] | None = None,
    rules: Any = None,
    seed: int | None = None,
    max_steps: int = 10_000,
    game: str | Game = "noir",
) -> SelfPlayEnv:
    """N games of `game` in which the caller plays every seat (module docstring).

    num_players: a count, or a list to draw each game's count from (listed twice: drawn
    twice as often; None: the game's default). rules: a preset name or the game's rules
    (None: the default). seed: the first reset's seed (None: fresh entropy). max_steps:
    decisions after which a game is truncated. game: "noir", "district_noir" or any registered game.
    """
    return SelfPlayEnv(num_envs, num_players, rules, seed, max_steps, game)
