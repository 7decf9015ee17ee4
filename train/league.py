"""The opponents of `train.ppo`: a league of named agents and frozen snapshots of the
learner, drawn per game, and the evaluation of the greedy policy against a named opponent."""

from __future__ import annotations

import numpy as np

from agents.ppo.agent import PPOAgent
from agents.ppo.net import PolicyNet
from agents.registry import prior_of
from noir_env.vector import make_vector_env


def parse_league(spec: str) -> dict[str, float]:
    """ "random:0.3,self:0.7" -> {"random": 0.3, "self": 0.7} (weights > 0; no weight: 1).
    A name may carry agent options as the other CLIs write them, "name:key=value,key=value":
    "ismcts:budget=32,horizon=4:0.02" is one entry (a comma-separated part that starts
    with key=value continues the entry before it); the weight is what follows the last colon
    if it is a number."""
    entries: list[str] = []
    for part in spec.split(","):
        if entries and "=" in part.partition(":")[0]:
            entries[-1] += "," + part  # another option of the entry before
        else:
            entries.append(part)
    out: dict[str, float] = {}
    for part in entries:
        entry = part.strip()
        name, _, weight = entry.rpartition(":")
        try:
            w = float(weight)
        except ValueError:  # no weight: "random", "ismcts:budget=32"
            name, w = entry, 1.0
        if not name or not np.isfinite(w) or w <= 0:
            raise ValueError(f"league entry {part!r}: expected name:weight with weight > 0")
        out[name] = w
    return out


class SnapshotPolicy:
    """A frozen copy of the learner, sampling its actions: an opponent in the league (all
    snapshots share the name `self`, the league entry they fill)."""

    name = "self"

    def __init__(self, net: PolicyNet, seed: int):
        self.agent = PPOAgent(net=net, greedy=False, seed=seed, prior=prior_of(net.config, seed))

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.agent.act(obs, mask)


def load_member(spec: str, seed: int | None = None):
    """The agent of a league entry: a name for `agents.load`, with options as
    "name:key=value" ("ismcts:budget=32"); ValueError naming what is wrong."""
    from agents import load

    from .tournament import parse_agent_spec

    name, options = parse_agent_spec(spec)
    return load(name, seed=seed, **options)


class NamedAgent:
    """A league member loaded once by name (so re-weighting the league reuses it). A search
    agent ("ismcts:budget=32") keeps its hook: the vector env hands it the games' state."""

    def __init__(self, name: str, seed: int):
        self.name = name
        self.agent = load_member(name, seed)
        self.uses_state = bool(getattr(self.agent, "uses_state", False))

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.agent.act(obs, mask)

    def act_on_state(self, state, games: np.ndarray) -> np.ndarray:
        return self.agent.act_on_state(state, games)


class LeagueResults:
    """The learner's recent games against each league entry, and the prioritized
    fictitious self-play weights they give (Vinyals et al. 2019, PFSP): an entry's weight is
    its `--league` weight times (1 - x)^p + floor, where x in [0, 1] is the learner's recent
    win rate against it relative to par (the equal player's 1/players), halved and clipped:
    x = 0.5 at par, 1 at twice par. Opponents the learner beats fade; the floor keeps every
    entry in play. Until an entry has `min_games` results it counts as par. Names in
    `track` (e.g. "mixed": tables of several entries) are recorded and logged, not weighted."""

    def __init__(self, weights: dict[str, float], power: float, window: int = 600,
                 min_games: int = 50, floor: float = 0.05,
                 track: tuple[str, ...] = ()):  # fmt: skip
        self.weights, self.power = dict(weights), power
        self.window, self.min_games, self.floor = window, min_games, floor
        self.results: dict[str, list[float]] = {name: [] for name in [*weights, *track]}

    def add(self, names: np.ndarray, wins: np.ndarray, players: np.ndarray) -> None:
        """Record ended games: opponent name, learner's win share (0..1), player count."""
        for name, won, n in zip(names, wins, players, strict=True):
            if name in self.results:
                kept = self.results[name]
                kept.append(float(won) * int(n))  # the win relative to par (1 = par)
                del kept[: -self.window]

    def relative(self, name: str) -> float:
        """Recent win rate against `name` relative to par (1.0 = par; nan: too few games)."""
        kept = self.results[name]
        return float(np.mean(kept)) if len(kept) >= self.min_games else float("nan")

    def games(self, name: str) -> int:
        return len(self.results[name])

    def priorities(self) -> dict[str, float]:
        """The league weights with PFSP applied (the given weights when power is 0)."""
        if self.power <= 0:
            return dict(self.weights)
        out = {}
        for name, w in self.weights.items():
            rel = self.relative(name)
            x = 0.5 if np.isnan(rel) else min(1.0, rel / 2)
            out[name] = w * ((1 - x) ** self.power + self.floor)
        return out

    def state(self) -> dict[str, list[float]]:
        return {k: list(v) for k, v in self.results.items()}

    def load_state(self, state: dict[str, list[float]]) -> None:
        for name, kept in state.items():
            if name in self.results:
                self.results[name] = [float(v) for v in kept][-self.window :]


def league_mix(weights: dict[str, float], snapshots: list[PolicyNet], seed: int,
               members: dict[str, NamedAgent] | None = None,
               ) -> list[tuple[NamedAgent | SnapshotPolicy | str, float]]:  # fmt: skip
    """The opponent mix for the vector env: names by weight (as the loaded `members` where
    given), `self` split over the snapshots."""
    pairs: list[tuple[NamedAgent | SnapshotPolicy | str, float]] = []
    for name, w in weights.items():
        if name != "self":
            member = (members or {}).get(name)
            pairs.append((member if member is not None else name, w))
        elif snapshots:
            for k, net in enumerate(snapshots):
                pairs.append((SnapshotPolicy(net, seed + k), w / len(snapshots)))
    if not pairs:  # only "self" and no snapshot yet: the first games are against random
        pairs = [("random", 1.0)]
    return pairs


def snapshot(net: PolicyNet) -> PolicyNet:
    """A frozen copy of the net (same configuration and weights), in eval mode."""
    frozen = PolicyNet.from_config(net.config)
    frozen.load_state_dict(net.state_dict())
    return frozen.eval()


def evaluate(net: PolicyNet, opponents: str, players: int | None, games: int, rules: str | None,
             seed: int, game: str = "noir") -> tuple[float, float]:  # fmt: skip
    """Win rate of the greedy policy over `games` games of `game` against `opponents` in
    every other seat (learner seat rotating with the seed): (win rate, 95% half-width)."""
    envs = make_vector_env(min(games, 256), num_players=players, rules=rules,
                           opponents=opponents, seed=seed, game=game)  # fmt: skip
    agent = PPOAgent(net=net, greedy=True, prior=prior_of(net.config, seed))
    obs, info = envs.reset(seed=seed)
    wins = played = 0
    while played < games:
        obs, _, term, trunc, info = envs.step(agent.act(obs, info["action_mask"]))
        if "final_info" in info:
            fi = info["final_info"]
            ended = np.flatnonzero(fi["_learner_won"])
            take = ended[: games - played]
            wins += int(fi["learner_won"][take].sum())
            played += len(take)
    envs.close()
    p = wins / games
    return p, 1.96 * np.sqrt(p * (1 - p) / games)
