"""Writes notebooks/quickstart.ipynb (outputs stripped). Edit the cells here, then run
`python notebooks/make_quickstart.py`; tests/docs/test_notebook.py executes the notebook."""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

CELLS = [
    ("md", """# noir_env quickstart

NOIR is a 3-6 player mafia card game with out-of-turn reactions: players run businesses guarded
by gangsters around a Hideout, attack each other, and win by eliminating two players, by being
the last one standing, by holding more than half of all money, or with the best score when the
countdown ends. This notebook:
1. creates the PettingZoo environment, plays and renders a few turns;
2. steps the batched vector env that training uses;
3. pits the bundled heuristic against random players in a tournament;
4. trains a PPO agent for a few seconds;
5. runs a tournament with the trained agent and plots the win rates.

It needs the `dev` and `train` extras (`pip install -e ".[dev,train]"`). Run it in Jupyter or
VS Code with that environment's kernel, or from the command line:
`jupyter execute notebooks/quickstart.ipynb --output=quickstart_run` (the executed copy is
`notebooks/quickstart_run.ipynb`). Sizes are tiny, so it runs in under a minute once the
numba kernels are compiled; the first call into the rules core compiles them (a few minutes on
2 cores, once; later runs load them from the cache)."""),
    ("code", """import numpy as np
from noir_env import noir_v2

env = noir_v2.env(num_players=4, render_mode="ansi")
env.reset(seed=1)
rng = np.random.default_rng(1)
for _, agent in zip(range(12), env.agent_iter()):
    obs, reward, terminated, truncated, info = env.last()
    action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
    env.step(action)
print(env.render())
print("\\n".join(env.unwrapped.game_log[-8:]))"""),
    ("md", """The board is shown from the seat to act: every player's money, hand size, trophies,
Hideout and businesses with their gangsters; only that seat's own hand is visible. The log
lines below it are what happened in those 12 random decisions, in sentences (a draw says how
many cards, never which)."""),
    ("code", """env.unwrapped.picture("player_0")  # the board as a picture, from player_0's seat"""),
    ("md", """The board as a picture: a notebook shows `picture()` as an image (`_repr_svg_`).
player_0's own hand is face up, the others' are card backs; `picture()` with no agent is
the spectator's view, every hand face up. `render_mode="rgb_array"` gives it as an array
(docs/viewer.md).

## The batched core and the vector env

`noir_env.core` runs N games in lockstep; `noir_env.vector.make_vector_env` gives a learner one
seat per game with the opponents played inside the env (a Gymnasium `VectorEnv`)."""),
    ("code", """from noir_env.vector import make_vector_env
from agents import load

envs = make_vector_env(64, num_players=4, opponents="heuristic", seed=0)
obs, infos = envs.reset(seed=0)
random_agent = load("random", seed=0)
for _ in range(50):
    obs, rewards, terminated, truncated, infos = envs.step(random_agent.act(obs, infos["action_mask"]))
print(obs.shape, infos["action_mask"].shape, "episodes ended:", int((terminated | truncated).sum()))"""),
    ("md", """`(64, 2631)`: one observation of 2631 values per game, what the learner's seat may know;
`(64, 385)`: its legal actions in the one flat action table. "episodes ended" counts the games
that ended in the last step; each was dealt again at once (same-step autoreset), so the env
always returns a decision to take.

## Random against the heuristic"""),
    ("code", """from train.tournament import run_tournament

result = run_tournament(["heuristic", "random", "random", "random"], num_players=4, games=200, seed=0)
print(result.table())"""),
    ("md", """Each entrant played every seat on the same deals. `win%` is its share of the games won
with a 95% interval, next to par, the 25% an equal player would win at a 4-player table: the
heuristic wins nearly every game, the random players almost none. The other columns give the
mean score and finishing rank, the wins by reason, how often each entrant finished ahead of
each other one (head-to-head) and an OpenSkill rating from the finishing orders.

## A short PPO run

`train.ppo` is a lean masked PPO in torch (`python -m train.ppo --help` lists every knob). This
run is about 12,000 decisions against random opponents, a few seconds: enough to show the
files a run writes (`runs/quickstart/`: the policy, checkpoints, TensorBoard logs), far too
little to learn the game. The shipped policy (`agents.load("ppo")`, a network per table size)
was trained on 38 million decisions, and its 3-player network on 19 million more."""),
    ("code", """import shutil

from train.ppo import Args, train

shutil.rmtree("runs/quickstart", ignore_errors=True)  # a fresh run each time the cell runs
policy_path = train(Args(run_name="quickstart", total_steps=64 * 32 * 6, num_envs=64, num_steps=32,
                         league="random:1", eval_games=100, eval_interval=0, progress=False,
                         threads=1))
print(policy_path)"""),
    ("md", """What the run printed: `win rate vs random` is the policy's share of 100 evaluation games
against three random players, with its 95% interval. Par is 25%, so after 6 updates the
policy is at best a little better than chance, and the interval is wide. `training games, win
rate / par` is the learner's win rate in its own training games divided by par (1.0 = par).

## A tournament with the trained agent, and its plot"""),
    ("code", """from pathlib import Path

from IPython.display import Image, display

from agents import PPOAgent
from train.tournament import save

entrants = {"ppo (quickstart)": PPOAgent(policy_path), "ppo (shipped)": "ppo",
            "heuristic": "heuristic", "random": "random"}
result = run_tournament(entrants, num_players=4, games=200, seed=1)
print(result.table())
files = save(result, Path("runs/eval/quickstart"))
display(Image(filename=str(files["plot"])))"""),
    ("md", """At this table of four different agents the few-second policy wins about as rarely as the
random player: a few thousand decisions have not taught it the game. The heuristic and the
shipped PPO policy share most of the wins; the plot shows each entrant's win rate with its
interval against par. `save` also wrote the tables as CSV and JSON under `runs/eval/quickstart/`.
To train a policy that competes, run `python -m train.ppo` for millions of decisions (the
documentation's training page gives the shipped policy's commands)."""),
]


def main() -> None:
    nb = new_notebook()
    nb.cells = [
        new_markdown_cell(src) if kind == "md" else new_code_cell(src) for kind, src in CELLS
    ]
    nb.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3",
        "language": "python",
    }
    path = Path(__file__).with_name("quickstart.ipynb")
    nbformat.write(nb, path)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
