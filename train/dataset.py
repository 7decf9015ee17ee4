"""Write a Minari dataset of games played by any agents: for offline RL and imitation.

    python -m train.dataset --dataset-id noir/heuristic-4p-v0 --agents heuristic --games 200
    python -m train.dataset --dataset-id noir/mixed-v0 --agents ppo heuristic random random \
        --seats 0 --players 4 --rules noirbrough --out datasets
    python -m train.dataset --game district_noir --dataset-id district/h-v0 \
        --agents district-heuristic random

Each recorded seat of each game is one episode, from that seat's view, as the single-seat
Gymnasium env ("noir_env/Noir-v2", "noir_env/DistrictNoir-v0") gives it: at each of the
seat's decisions its observation (float32, seat-relative) and the action it took, then its
observation when its episode ended (the game's end, or its elimination while the game went
on); the reward at its last step (zero-sum per game, the envs' rule: docs/RULES.md R6.5),
0 before; `terminations` at that end, `truncations` instead when the game was stopped after
`--max-steps` decisions. `infos` hold `action_mask` (bool [steps + 1, num_actions]: the
legal actions at each observation, all False at the end), `learner_seat`, `num_players` and
`game_seed`. `--seats all` (the default) records every seat, `--seats 0 2` those seats.
Agents are names known to `agents.load` (options as `name:key=value,...`) or policy files:
one for every seat, or one per seat in seat order; game i is dealt with seed `--seed` + i.
Decisions with a single legal action are taken by the game and not recorded, as in the
single-seat env (`train.dataset_episodes` plays the games).

The dataset goes to `--out` (default: Minari's own folder, `$MINARI_DATASETS_PATH` or
~/.minari/datasets) under its id; `minari.load_dataset(id)` reads it (with
`MINARI_DATASETS_PATH` set to `--out`). It is written into a temporary folder beside its
place and moved there only once complete: an interrupted run leaves no dataset. Needs the
`dataset` extra (`pip install "noir_env[dataset]"`: Minari with HDF5). docs/datasets.md
shows a behaviour-cloning example.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
import warnings
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from noir_env.game import Game, game_names, get_game
from noir_env.views import action_space, observation_space

from .cli import Parser, first_paragraph
from .dataset_episodes import Episode, play_episodes

MAX_GAMES = 10_000_000
FLUSH_STEPS = 20_000  # steps kept in memory before they are written (NOIR: ~10.5 kB each)
ENV_IDS = {"noir": "noir_env/Noir-v2", "district_noir": "noir_env/DistrictNoir-v0"}


def write_dataset(dataset_id: str, episodes: Iterator[Episode], game: Game, out: Path | None,
                  env_kwargs: dict[str, Any], description: str,
                  author: str | None = None) -> Path:  # fmt: skip
    """Write `episodes` as the Minari dataset `dataset_id` under the folder `out` (None:
    Minari's own), atomically (module docstring); returns the dataset's folder.
    `env_kwargs`: the keywords of the game's single-seat env that the dataset's
    `recover_environment()` makes. The id and the place are checked before the first
    episode is asked for: ValueError for a bad id or a dataset that exists."""
    import gymnasium

    namespace, root, target = dataset_place(dataset_id, out)
    root.mkdir(parents=True, exist_ok=True)
    spec = replace(gymnasium.spec(ENV_IDS[game.name]), kwargs=env_kwargs)
    temp = Path(tempfile.mkdtemp(prefix=".dataset-", suffix=".partial", dir=root))
    try:
        with _minari_root(temp), warnings.catch_warnings():
            # Minari's advice to name an author, code link and evaluation env: optional here
            warnings.filterwarnings("ignore", message=".* is set to None", category=UserWarning)
            dataset, chunk, steps = None, [], 0
            for count, episode in enumerate(episodes):
                chunk.append(episode.buffer(count))
                steps += len(episode.actions)
                if steps >= FLUSH_STEPS:
                    dataset = _flush(dataset, chunk, dataset_id, spec, game, description, author)
                    chunk, steps = [], 0
            if chunk or dataset is None:
                _flush(dataset, chunk, dataset_id, spec, game, description, author)
        # one rename puts the complete dataset (with its new namespace's folder) in place
        if namespace is not None and not (root / namespace).exists():
            (root / namespace).parent.mkdir(parents=True, exist_ok=True)
            os.replace(temp / namespace, root / namespace)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(temp / dataset_id, target)
    finally:
        shutil.rmtree(temp, ignore_errors=True)
    return target


def dataset_place(dataset_id: str, out: Path | None) -> tuple[str | None, Path, Path]:
    """(the id's namespace, the datasets folder, the dataset's folder) of a new dataset;
    ValueError for a malformed id or a dataset that exists."""
    from minari.dataset.minari_dataset import parse_dataset_id
    from minari.storage.datasets_root_dir import get_dataset_path

    namespace = parse_dataset_id(dataset_id)[0]
    root = (Path(out) if out is not None else get_dataset_path()).resolve()
    target = root / dataset_id
    if target.exists():
        raise ValueError(f"the dataset {dataset_id!r} exists already in {root}")
    return namespace, root, target


def _flush(dataset, chunk, dataset_id, spec, game, description, author):
    from minari.utils import create_dataset_from_buffers

    if dataset is not None:
        dataset.update_dataset_from_buffer(chunk)
        return dataset
    return create_dataset_from_buffers(
        dataset_id, chunk, env=spec, observation_space=observation_space(game),
        action_space=action_space(game), algorithm_name="python -m train.dataset",
        description=description, author=author,
    )  # fmt: skip


@contextlib.contextmanager
def _minari_root(path: Path) -> Iterator[None]:
    """Minari's datasets folder is `path` inside the block (Minari reads it from the
    environment)."""
    before = os.environ.get("MINARI_DATASETS_PATH")
    os.environ["MINARI_DATASETS_PATH"] = str(path)
    try:
        yield
    finally:
        if before is None:
            del os.environ["MINARI_DATASETS_PATH"]
        else:
            os.environ["MINARI_DATASETS_PATH"] = before


def parse_args(argv: list[str] | None = None) -> Any:
    p = Parser(prog="python -m train.dataset", description=first_paragraph(__doc__))
    p.add_argument(
        "--dataset-id",
        required=True,
        help="the dataset's Minari id: (namespace/)name-v(version), e.g. noir/h-v0",
    )
    p.add_argument(
        "--agents",
        nargs="+",
        required=True,
        metavar="AGENT",
        help="one agent for every seat, or one per seat in seat order",
    )
    p.add_argument("--game", default="noir", choices=game_names(), help="the game (noir)")
    p.add_argument(
        "--players",
        type=int,
        default=None,
        help="players per game (NOIR 3..6, default 4; District Noir 2)",
    )
    p.add_argument("--rules", default=None, help="the rules preset (NOIR: noirburg, ...)")
    p.add_argument("--games", type=int, default=100, help="games to play")
    p.add_argument(
        "--seats",
        nargs="+",
        default=["all"],
        metavar="SEAT",
        help="the seats recorded: all (default) or seat numbers",
    )
    p.add_argument("--seed", type=int, default=0, help="game i is dealt with seed + i")
    p.add_argument(
        "--max-steps", type=int, default=10_000, help="decisions after which a game is truncated"
    )
    p.add_argument("--batch", type=int, default=64, help="games played at once")
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="the datasets folder (default: $MINARI_DATASETS_PATH or ~/.minari/datasets)",
    )
    p.add_argument("--author", default=None, help="the dataset's author (Minari metadata)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    return p, p.parse_args(argv)  # fmt: skip


def check(args: Any, game: Game) -> tuple[int, list[int]]:
    """(players, recorded seats) of the arguments; ValueError naming a bad one."""
    players = int(game.player_counts(args.players)[0])
    if len(args.agents) not in (1, players):
        raise ValueError(f"--agents: give one agent for every seat or one per seat "
                         f"({players}), got {len(args.agents)}")  # fmt: skip
    if not 0 <= args.seed < 2**62:
        raise ValueError(f"--seed must be in 0..2**62-1, got {args.seed}")
    for flag, value, top in (("--games", args.games, MAX_GAMES), ("--max-steps",
                             args.max_steps, 10**7), ("--batch", args.batch, 65_536)):  # fmt: skip
        if not 1 <= value <= top:
            raise ValueError(f"{flag} must be in 1..{top}, got {value}")
    if args.seats == ["all"]:
        return players, list(range(players))
    seats = []
    for seat in args.seats:
        if not seat.isdigit() or not 0 <= int(seat) < players:
            raise ValueError(f"--seats: 'all' or seats in 0..{players - 1}, got {seat!r}")
        seats.append(int(seat))
    return players, sorted(set(seats))


def main(argv: list[str] | None = None) -> int:
    """Play the games the arguments describe and write their dataset."""
    parser, args = parse_args(argv)
    try:
        import minari  # noqa: F401
    except ImportError:
        parser.error('needs Minari: pip install "noir_env[dataset]"')
    game = get_game(args.game)
    players, seats = parser.run(lambda: check(args, game))
    rules = parser.run(lambda: game.check_rules(args.rules))
    agents = args.agents * players if len(args.agents) == 1 else args.agents
    from agents import names as agent_names

    from .tournament.entrants import resolve_entrants

    _, policies = parser.run(lambda: resolve_entrants(agents, args.seed))
    parser.run(lambda: dataset_place(args.dataset_id, args.out))
    from tqdm import tqdm

    bar = tqdm(total=args.games, unit="game", disable=args.no_progress, file=sys.stderr)
    episodes = play_episodes(game, policies, players, rules, args.games, args.seed, seats,
                             args.max_steps, args.batch, bar)  # fmt: skip
    kwargs: dict[str, Any] = {"num_players": players, "rules": game.rules_name(rules)}
    others = {agents[q] for q in range(players) if q not in seats}
    if len(seats) == 1 and len(others) == 1 and others <= set(agent_names()):
        kwargs.update(learner_seat=seats[0], opponents=others.pop())  # its single-seat env
    description = (f"{game.title}, {players} players, rules {kwargs['rules']}: {args.games} "
                   f"games of {', '.join(agents)} by seat (seeds {args.seed}..."
                   f"{args.seed + args.games - 1}); seats recorded: {seats}")  # fmt: skip

    def work() -> Path:
        try:
            return write_dataset(args.dataset_id, episodes, game, args.out, kwargs,
                                 description, args.author)  # fmt: skip
        finally:
            bar.close()  # before an error's line

    print(f"wrote {parser.run(work)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
