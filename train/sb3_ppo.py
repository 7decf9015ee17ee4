"""sb3-contrib's MaskablePPO on the batched vector env of any game (`make_sb3_vec_env`), unchanged:
the reference point `train/ppo.py` is measured against (bench/training.py), and a starting point
for users of Stable-Baselines3.

    python -m train.sb3_ppo --total-steps 200000 --num-envs 16 --run-name sb3
    python -m train.sb3_ppo --game district_noir --opponents district-heuristic

Saves `runs/<run-name>/sb3_model.zip` and prints the training speed and the final win rate of
the greedy policy against `--eval-opponents`.

Torch runs on one thread by default (`--threads`): MaskablePPO's networks are small (two 64-64
MLPs), and on a machine that other work shares torch's default of one thread per core made
training several times slower (docs/training.md has the measurement).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np

from noir_env.game import get_game

from .cli import Parser

MAX_THREADS = 1024  # torch CPU threads: more than any machine has
MAX_COUNT = 10**12  # steps, envs, games: far past any run


def train_sb3(
    total_steps: int = 100_000,
    num_envs: int = 16,
    n_steps: int = 128,
    players: int | None = None,
    rules: str | None = None,
    opponents: str = "random",
    seed: int = 1,
    run_name: str | None = "sb3",
    verbose: int = 0,
    game: str = "noir",
    seconds: float | None = None,
    threads: int | None = 1,
):
    """Train MaskablePPO for `total_steps` learner steps, or until `seconds` of wall-clock
    time have passed if that comes first; returns (model, learner steps per second).

    threads: CPU threads of torch and numba for this process (`noir_env.threads.set_threads`;
    None leaves the settings as they are)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    class WallClockLimit(BaseCallback):
        def _on_step(self) -> bool:  # False ends model.learn
            return seconds is None or time.perf_counter() - t0 < seconds

    from noir_env.threads import set_threads
    from noir_env.vector import make_sb3_vec_env

    if threads is not None:
        set_threads(threads)
    env = make_sb3_vec_env(
        num_envs, num_players=players, rules=rules, opponents=opponents, seed=seed, game=game
    )
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=n_steps,
        batch_size=min(2048, n_steps * num_envs),
        seed=seed,
        verbose=verbose,
        device="cpu",
    )
    t0 = time.perf_counter()
    model.learn(total_timesteps=total_steps, callback=WallClockLimit())
    sps = model.num_timesteps / (time.perf_counter() - t0)
    if run_name:
        out = Path("runs") / run_name
        out.mkdir(parents=True, exist_ok=True)
        model.save(out / "sb3_model.zip")
    env.close()
    return model, sps


def win_rate(
    model,
    games: int = 200,
    players: int | None = None,
    rules: str | None = None,
    opponents: str = "random",
    seed: int = 10_000_000,
    game: str = "noir",
) -> float:
    """Greedy win rate of a MaskablePPO model over `games` games against `opponents`."""
    from noir_env.vector import make_sb3_vec_env

    env = make_sb3_vec_env(
        min(games, 64), num_players=players, rules=rules, opponents=opponents, seed=seed,
        game=game,
    )  # fmt: skip
    obs = env.reset()
    wins = played = 0
    while played < games:
        actions, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
        obs, _, dones, infos = env.step(actions)
        for i in np.flatnonzero(dones):
            if played < games:
                wins += int(infos[i]["learner_won"])
                played += 1
    env.close()
    return wins / games


def check_args(a: Any) -> None:
    """ValueError naming the first setting that cannot work, before any work starts: the
    counts, the game, its player count and rules, and the agents named."""
    from agents import load

    counts = (("--total-steps", a.total_steps, 1), ("--num-envs", a.num_envs, 1),
              ("--n-steps", a.n_steps, 1), ("--eval-games", a.eval_games, 0))  # fmt: skip
    for flag, value, least in counts:
        if not least <= value <= MAX_COUNT:
            raise ValueError(f"{flag} must be in {least}..{MAX_COUNT:,}, got {value}")
    game = get_game(a.game)
    if a.players is not None:
        game.player_counts(a.players)
    game.check_rules(a.rules)
    for flag, name in (("--opponents", a.opponents), ("--eval-opponents", a.eval_opponents)):
        try:
            load(name)
        except ValueError as e:
            raise ValueError(f"{flag}: {e}") from None


def main(argv: list[str] | None = None) -> None:
    p = Parser(description=__doc__.split("\n\n")[0])  # one-line errors, exit code 2
    p.add_argument("--total-steps", type=int, default=100_000)
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--n-steps", type=int, default=128, help="rollout length per env")
    p.add_argument("--game", default="noir", help="noir, district_noir or a registered game")
    p.add_argument("--players", type=int, default=None, help="default: the game's")
    p.add_argument("--rules", default=None, help="the game's preset (default: its default)")
    p.add_argument("--opponents", default="random", help="opponent name (agents.load)")
    p.add_argument("--eval-opponents", default="random")
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--run-name", default="sb3")
    p.add_argument("--threads", type=int, default=1,
                   help="torch CPU threads (1 is fastest on a shared machine)")  # fmt: skip
    a = p.parse_args(argv)
    if not 1 <= a.threads <= MAX_THREADS:
        p.error(f"argument --threads: must be in 1..{MAX_THREADS}, got {a.threads}")
    p.run(lambda: check_args(a))
    model, sps = p.run(lambda: train_sb3(
        a.total_steps, a.num_envs, a.n_steps, a.players, a.rules, a.opponents, a.seed,
        a.run_name, verbose=1, game=a.game, threads=a.threads))  # fmt: skip
    rate = p.run(lambda: win_rate(model, a.eval_games, a.players, a.rules, a.eval_opponents,
                                  game=a.game))  # fmt: skip
    print(f"MaskablePPO: {sps:,.0f} learner-steps/s; win rate vs {a.eval_opponents}: {rate:.3f}")


if __name__ == "__main__":
    main()
