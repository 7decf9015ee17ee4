"""Writes notebooks/quickstart.ipynb (outputs stripped). Edit the cells here, then run
`python notebooks/make_quickstart.py`; tests/test_notebook.py executes the notebook."""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

CELLS = [
    ("md", """# noir_env quickstart

NOIR is a 3-6 player mafia card game with out-of-turn reactions. This notebook:
1. creates the PettingZoo environment, plays and renders a few turns;
2. pits the bundled heuristic against random players in a tournament;
3. trains a PPO agent for a few seconds on the batched vector env;
4. runs a tournament with the trained agent and plots the win rates.

Sizes here are tiny so the notebook runs in a few minutes on a laptop (the first call
compiles the numba kernels: about 2 minutes, once)."""),
    ("code", """import numpy as np
from noir_env import noir_v1

env = noir_v1.env(num_players=4, render_mode="ansi")
env.reset(seed=1)
rng = np.random.default_rng(1)
for _, agent in zip(range(12), env.agent_iter()):
    obs, reward, terminated, truncated, info = env.last()
    action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
    env.step(action)
print(env.render())
print("\\n".join(env.unwrapped.game_log[-8:]))"""),
    ("md", """## The batched core and the vector env

`noir_env.core` runs N games in lockstep; `noir_env.vector.make_vector_env` gives a learner one
seat per game with the opponents played inside the env (Gymnasium `VectorEnv`)."""),
    ("code", """from noir_env.vector import make_vector_env
from agents import load

envs = make_vector_env(64, num_players=4, opponents="heuristic", seed=0)
obs, infos = envs.reset(seed=0)
random_agent = load("random", seed=0)
for _ in range(50):
    obs, rewards, terminated, truncated, infos = envs.step(random_agent.act(obs, infos["action_mask"]))
print(obs.shape, infos["action_mask"].shape, "episodes ended:", int((terminated | truncated).sum()))"""),
    ("md", "## Random against the heuristic"),
    ("code", """from train.tournament import run_tournament

result = run_tournament(["heuristic", "random", "random", "random"], num_players=4, games=200, seed=0)
print(result.table())"""),
    ("md", """## A short PPO run

`train.ppo` is a lean masked PPO in torch (`python -m train.ppo --help` lists every knob). A few
updates against random opponents already beat chance (25%)."""),
    ("code", """import shutil

from train.ppo import Args, train

shutil.rmtree("runs/quickstart", ignore_errors=True)  # a fresh run each time the cell runs
policy_path = train(Args(run_name="quickstart", total_steps=64 * 32 * 6, num_envs=64, num_steps=32,
                         league="random:1", eval_games=100, eval_interval=0, progress=False))
print(policy_path)"""),
    ("md", "## A tournament with the trained agent, and its plot"),
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
]


def main() -> None:
    nb = new_notebook()
    nb.cells = [new_markdown_cell(src) if kind == "md" else new_code_cell(src) for kind, src in CELLS]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = Path(__file__).with_name("quickstart.ipynb")
    nbformat.write(nb, path)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
