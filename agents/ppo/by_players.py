"""A PPO policy per table size: the agent plays each game with the network trained for its
number of players.

One network trained at every table size trades one against another: fine-tuned on 3- and
4-player self-play, the shipped network gained ten points against the search agent at 3
players and lost ground at 5 and 6 (docs/training.md). A policy table keeps each size's best
network. It is a JSON file, read as data (no code runs):

    {"format": "noir-ppo-by-players/1",
     "policies": {"3": "ppo_noir_3p.pt", "4": "ppo_noir_4p.pt", "5": "ppo_noir.pt",
                  "6": "ppo_noir.pt"}}

Each of NOIR's player counts (3 to 6) names a policy file (`agents.ppo.agent`) in the table's
folder or below it (a name leading out of it, `../x.pt` or through a link, is refused);
several counts may name one file, which is then loaded once.
`agents.load("ppo")` loads the shipped table and `agents.load("path/to/table.json")` any
other. `PPOByPlayers.act(obs, mask)` reads each row's player count from the observation and
hands the rows to their network, one call per network.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from agents.finished import act_on_live_rows
from agents.games import game_of_observation
from agents.ppo.agent import PPOAgent
from agents.ppo.file import load_policy
from noir_env._json_file import read_json_file
from noir_env._shown import shown
from noir_env.core import constants as C
from noir_env.spaces import OBS_SIZE, OBS_SLICES

FORMAT = "noir-ppo-by-players/1"
PLAYER_COUNTS = tuple(range(C.MIN_PLAYERS, C.MAX_PLAYERS + 1))  # NOIR's table sizes
# the observation's one-hot of the player count: entry k is set at MIN_PLAYERS + k players
PLAYER_COUNT_PART = OBS_SLICES["num_players"]  # one-hot of 3..6 players
MAX_TABLE_BYTES = 1 << 16  # a table is a few lines: a larger file is not one
MAX_NAME = 1024  # a policy file's name in a table (the file systems' path limits are 1-4 kB)


def read_policy_table(path: str | os.PathLike) -> dict[int, Path]:
    """The policy file of each player count in a policy table (module docstring). A file
    that is not a sound table (missing, not JSON, another format, a count missing or
    unknown, a name that is not a relative path, a policy file missing) raises ValueError
    naming the table and what is wrong."""
    path = Path(path)
    data = read_json_file(path, "policy table", MAX_TABLE_BYTES)
    return _checked_table(data, path)


def _checked_table(data: object, path: Path) -> dict[int, Path]:
    """`read_policy_table`'s checks of a table's content, for a table at `path`."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a NOIR PPO policy table ({FORMAT})")
    unknown_keys = set(data) - {"format", "policies"}
    if unknown_keys:
        raise ValueError(f"{path}: unknown keys {sorted(unknown_keys)}")
    policies = data.get("policies")
    if not isinstance(policies, dict):
        raise ValueError(f"{path}: 'policies' must map each player count to a policy file")
    want = {str(n) for n in PLAYER_COUNTS}
    missing, unknown = sorted(want - set(policies)), sorted(set(policies) - want)
    if missing or unknown:
        parts = [f"missing {missing}" if missing else "", f"unknown {unknown}" if unknown else ""]
        raise ValueError(f"{path}: player counts {' and '.join(p for p in parts if p)} "
                         f"(each of {', '.join(sorted(want))} names a policy file)")  # fmt: skip
    files = {}
    folder = path.parent.resolve()
    for count in PLAYER_COUNTS:
        name = policies[str(count)]
        if (not isinstance(name, str) or not 0 < len(name) <= MAX_NAME or "\x00" in name
                or Path(name).is_absolute()):  # fmt: skip
            raise ValueError(f"{path}: the policy of {count} players must be a file name "
                             f"relative to the table's folder, got {shown(name)}")  # fmt: skip
        file = path.parent / name
        try:
            inside = file.resolve().is_relative_to(folder)  # not '../x.pt' or a link out
            found = file.is_file()
        except (OSError, RuntimeError) as err:  # a name too long, a loop of links
            why = getattr(err, "strerror", None) or str(err)
            raise ValueError(f"{path}: the policy of {count} players, {shown(name)}, cannot be "
                             f"read ({why})") from None  # fmt: skip
        if not inside:
            raise ValueError(f"{path}: the policy of {count} players, {shown(name)}, is outside "
                             f"the table's folder {path.parent}: a table names only the files "
                             "beside it")  # fmt: skip
        if not found:
            raise ValueError(f"{path}: the policy of {count} players, {shown(name)}, is not a "
                             f"file in {path.parent}")  # fmt: skip
        files[count] = file
    return files


class PPOByPlayers:
    """Plays a policy table: each row with the `PPOAgent` of its player count, greedy by
    default (or sampling, `greedy=False`, each network with its own generator seeded from
    `seed`)."""

    game = "noir"

    def __init__(self, path: str | os.PathLike, greedy: bool = True, seed: int | None = None,
                 prior_of: Any = None):  # fmt: skip
        files = read_policy_table(path)
        by_file: dict[Path, PPOAgent] = {}
        for k, file in enumerate(dict.fromkeys(files.values())):
            try:
                net = load_policy(file)
                agent_seed = None if seed is None else seed + k
                prior = prior_of(net.config, agent_seed) if prior_of else None
                agent = PPOAgent(net=net, greedy=greedy, seed=agent_seed, prior=prior)
            except ValueError as err:
                raise ValueError(f"{path}: {err}") from None
            if agent.game != "noir":
                raise ValueError(f"{path}: {file.name} is a {agent.game} policy, not a NOIR one")
            by_file[file] = agent
        self.greedy = greedy
        self.by_players: dict[int, PPOAgent] = {n: by_file[f] for n, f in files.items()}
        self._networks = list(by_file.values())
        # the position in _networks of each player count's agent, by count - 3
        self._network_of = np.array([list(by_file).index(files[n]) for n in PLAYER_COUNTS])

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """int64 actions, one per row (a 1-D obs and mask give one action); -1 for a row
        without a legal action (a finished game: `agents.finished`)."""
        single = np.ndim(mask) == 1
        o = np.atleast_2d(np.asarray(obs, dtype=np.float32))
        m = np.atleast_2d(np.asarray(mask)).astype(np.bool_, copy=False)
        if o.shape[1] != OBS_SIZE:
            other = game_of_observation(o.shape[1], but="noir")
            hint = f" (a {other} observation?)" if other else ""
            raise ValueError(f"this PPO policy table reads NOIR observations of size {OBS_SIZE},"
                             f" got {tuple(o.shape)}{hint}")  # fmt: skip
        if o.shape[0] != m.shape[0]:
            raise ValueError(f"obs {tuple(o.shape)} and mask {tuple(m.shape)} do not match")
        out = act_on_live_rows(self._act_rows, o, m)
        return out[0] if single else out

    def _act_rows(self, o: np.ndarray, m: np.ndarray) -> np.ndarray:
        """One action per row, each row's network chosen by its player count."""
        count_bits = o[:, PLAYER_COUNT_PART] > 0.5
        if not (count_bits.sum(axis=1) == 1).all():
            raise ValueError("an observation row has no player count (its one-hot is not set)")
        network = self._network_of[count_bits.argmax(axis=1)]
        out = np.empty(len(o), np.int64)
        for k, agent in enumerate(self._networks):  # one call per network, its rows together
            rows = np.flatnonzero(network == k)
            if len(rows):
                out[rows] = agent.act(o[rows], m[rows])
        return out
