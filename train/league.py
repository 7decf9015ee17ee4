"""The opponents of `train.ppo`: a league of named agents and frozen snapshots of the
learner, drawn per game, and the evaluation of the greedy policy against a named opponent."""

from __future__ import annotations

import numpy as np

from agents.ppo_agent import PolicyNet, PPOAgent
from noir_env.vector import make_vector_env


def parse_league(spec: str) -> dict[str, float]:
    """ "random:0.3,self:0.7" -> {"random": 0.3, "self": 0.7} (weights > 0)."""
    out: dict[str, float] = {}
    for part in spec.split(","):
        name, _, weight = part.strip().partition(":")
        w = float(weight) if weight else 1.0
        if not name or w <= 0:
            raise ValueError(f"league entry {part!r}: expected name:weight with weight > 0")
        out[name] = w
    return out


class SnapshotPolicy:
    """A frozen copy of the learner, sampling its actions: an opponent in the league."""

    def __init__(self, net: PolicyNet, seed: int):
        self.agent = PPOAgent(net=net, greedy=False, seed=seed)

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self.agent.act(obs, mask)


def league_mix(weights: dict[str, float], snapshots: list[PolicyNet], seed: int):
    """The opponent mix for the vector env: names by weight, `self` split over snapshots."""
    pairs = []
    for name, w in weights.items():
        if name != "self":
            pairs.append((name, w))
        elif snapshots:
            for k, net in enumerate(snapshots):
                pairs.append((SnapshotPolicy(net, seed + k), w / len(snapshots)))
    if not pairs:  # only "self" and no snapshot yet: the first games are against random
        pairs = [("random", 1.0)]
    return pairs


def snapshot(net: PolicyNet) -> PolicyNet:
    """A frozen copy of the net (same configuration and weights), in eval mode."""
    cfg = net.config
    frozen = PolicyNet(cfg["obs_size"], cfg["num_actions"], tuple(cfg["hidden"]), cfg["game"])
    frozen.load_state_dict(net.state_dict())
    return frozen.eval()


def evaluate(net: PolicyNet, opponents: str, players: int | None, games: int, rules: str | None,
             seed: int, game: str = "noir") -> tuple[float, float]:  # fmt: skip
    """Win rate of the greedy policy over `games` games of `game` against `opponents` in
    every other seat (learner seat rotating with the seed): (win rate, 95% half-width)."""
    envs = make_vector_env(min(games, 256), num_players=players, rules=rules,
                           opponents=opponents, seed=seed, game=game)  # fmt: skip
    agent = PPOAgent(net=net, greedy=True)
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
