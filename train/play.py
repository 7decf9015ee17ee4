"""Play a game in the terminal against bots: NOIR, District Noir or any registered game;
or, with --web, in the browser.

    python -m train.play --players 4 --opponents random [--rules noirburg] [--seat 0] [--seed 1]
    python -m train.play --game district_noir --opponents district-heuristic
    python -m train.play --web --players 4 --opponents ppo [--port 8000]   # train/web

You play one seat of the game's AEC env (NOIR's `noir_v2`: the multi-agent presentation, you
are asked in every reaction window, out of turn too); the other seats are agents by name
(`agents.load`: one name for every bot, or one per bot in seat order). Every move is shown as
it happens (passes gathered in one line), then the log lines it wrote. At your first decision
the whole board from your seat is shown (only your own hand is visible); at each later one,
only the parts of the board that changed since your last decision. Then your legal actions,
numbered, each with its cost and effect in the words of the text interface
(`noir_env.text`): answer with the number or the action's name. `board` (or `?`) shows the
whole board, `log` the whole game log, `help` the commands, `quit` (or end of input) stops.
A decision with only one legal action is taken for you and said so (`--ask-forced` asks
anyway).

Actions name players by their seat relative to you: `target:+1:slot0` is a place of the
player one seat clockwise; its meaning names that player.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, TextIO

import numpy as np

from noir_env.aec import GameAECEnv
from noir_env.game import Game, game_names, get_game
from noir_env.text import legal_moves
from noir_env.threads import set_threads

from .cli import Parser, first_paragraph
from .table import load_bots, result_text

QUIT_WORDS = ("quit", "exit", "q")
BOARD_WORDS = ("board", "?")
HELP = (
    "Answer with the number of an action or its name. Other commands: 'board' or '?' (the "
    "whole board), 'log' (the whole game log), 'help', 'quit'."
)


class Quit(Exception):
    """The human stopped the game (`quit` or end of input)."""


def describe_action(
    action: int, seat: int, player_names: list[str], game: str | Game = "noir"
) -> str:
    """An action's name, with the player a seat-relative target means: 'target:+1:slot0
    (player_2)'."""
    name = get_game(game).action_name(action)
    parts = name.split(":")
    if len(parts) >= 2 and parts[0] == "target" and parts[1].startswith("+"):
        who = player_names[(seat + int(parts[1][1:])) % len(player_names)]
        return f"{name}  ({who})"
    return name


class HumanGame:
    """One game of `game`'s AEC env with a human at `seat` reading from `stdin` and writing
    to `stdout`; the other seats are played by `bots` ({seat: (name, agent)})."""

    def __init__(self, env, seat: int, bots: dict, stdin: TextIO, stdout: TextIO,
                 ask_forced: bool = False, game: str | Game = "noir"):  # fmt: skip
        self.game = get_game(game)
        self.env = env
        self.seat = seat
        self.human = env.possible_agents[seat]
        self.bots = bots
        self.stdin = stdin
        self.stdout = stdout
        self.ask_forced = ask_forced
        self.log_shown = 0
        self.passes: list[str] = []  # passes not shown yet
        self.board_seen: str | None = None  # the board at the human's last decision

    def say(self, text: str = "") -> None:
        self.stdout.write(text + "\n")

    def run(self) -> bool:
        """Play until the game ends (True) or the human quits (False)."""
        env = self.env
        self.say(f"You are {self.human} (seat {self.seat}). Type 'help' for the commands.")
        self.show_log()
        try:
            for agent in env.agent_iter():
                _, _, terminated, truncated, info = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                if agent == self.human:
                    env.step(self.human_decision(info))
                else:
                    env.step(self.bot_decision(agent, info))
                self.show_log()
        except Quit:
            self.show_passes()
            self.say("You quit the game.")
            return False
        self.show_passes()
        self.say("")
        self.say(env.board_text(self.human))
        self.say(self.result_text())
        return True

    # --- output -------------------------------------------------------------------------------
    def show_passes(self) -> None:
        """The passes gathered since the last other output, in one line."""
        if self.passes:
            verb = (
                "passes" if self.passes == [self.passes[0]] and self.passes[0] != "you" else "pass"
            )
            self.say(f"  {', '.join(self.passes)} {verb}")
            self.passes = []

    def show_move(self, who: str, action: int, seat: int, phase: str) -> None:
        """A move as it happens; passes are gathered into one line, `end` names its step."""
        name = self.game.action_name(action)
        if name == "pass":
            self.passes.append(who)
            return
        self.show_passes()
        if name == "end":
            what = f"end ({phase.lower()} step)"
        else:
            what = describe_action(action, seat, self.player_names, self.game)
        self.say(f"  {who}: {what}")

    def show_log(self) -> None:
        """The log lines written since the last call, as sentences."""
        log = self.env.game_log
        if len(log) > self.log_shown:
            self.show_passes()
        for line in log[self.log_shown :]:
            self.say(f"  | {line}")
        self.log_shown = len(log)

    def result_text(self) -> str:
        """Who won and why, and every score (read from the finished game's state)."""
        return result_text(self.game, self.env.state, self.player_names, self.human,
                           self.env.max_steps)  # fmt: skip

    # --- decisions ----------------------------------------------------------------------------
    def bot_decision(self, agent: str, info: dict) -> int:
        seat = self.env.possible_agents.index(agent)
        name, bot = self.bots[seat]
        view = self.env.observe(agent)
        mask = view["action_mask"][None].astype(np.bool_)
        action = int(np.asarray(bot.act(view["observation"][None], mask)).reshape(-1)[0])
        self.show_move(f"{agent} ({name})", action, seat, info.get("phase", ""))
        return action

    @property
    def player_names(self) -> list[str]:
        return self.env.possible_agents

    def human_decision(self, info: dict) -> int:
        legal = np.flatnonzero(self.env.observe(self.human)["action_mask"])
        if legal.size == 1 and not self.ask_forced:  # said, not asked
            self.show_move("you", int(legal[0]), self.seat, info.get("phase", ""))
            return int(legal[0])
        self.show_passes()
        self.say("")
        self.show_board()
        self.say(decision_heading(info))
        meanings = {m.id: m.meaning for m in legal_moves(self.game, self.env.state, 0,
                                                          self.player_names)}  # fmt: skip
        for k, a in enumerate(legal, start=1):
            name, meaning = self.game.action_name(int(a)), meanings.get(int(a))
            self.say(f"  {k:>3}. {name}: {meaning}" if meaning else f"  {k:>3}. {name}")
        return self.read_choice(legal)

    def show_board(self) -> None:
        """The whole board at the human's first decision; later, the parts that changed
        since the last one (`board_changes`)."""
        board = self.env.board_text(self.human)
        if self.board_seen is None:
            self.say(board)
        else:
            changed = board_changes(self.board_seen, board)
            if changed:
                self.say("Changed since your last decision ('board' shows the whole board):")
                for line in changed:
                    self.say(line)
            else:
                self.say("The board has not changed since your last decision.")
        self.board_seen = board

    def read_choice(self, legal: np.ndarray) -> int:
        """Ask until the answer is a listed number or a legal action's name."""
        while True:
            self.stdout.write("your choice> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                raise Quit
            answer = line.strip()
            if answer.lower() in QUIT_WORDS:
                raise Quit
            action = self.command_or_action(answer, legal)
            if action is not None:
                return action

    def command_or_action(self, answer: str, legal: np.ndarray) -> int | None:
        """The action `answer` chooses, or None after a command or a message saying what
        was wrong with it."""
        low = answer.lower()
        if low == "help":
            self.say(HELP)
        elif low in BOARD_WORDS:
            self.say(self.env.board_text(self.human))
        elif low == "log":
            for line in self.env.game_log:
                self.say(f"  | {line}")
        elif answer.isdigit():
            k = int(answer)
            if 1 <= k <= legal.size:
                return int(legal[k - 1])
            self.say(f"No action {k}: choose a number from 1 to {legal.size}, or 'help'.")
        elif answer in self.game.action_names:
            action = self.game.action_names.index(answer)
            if action in legal:
                return action
            self.say(f"'{answer}' is not legal now: choose one of the listed actions.")
        else:
            self.say(f"Not understood: {answer!r}. Type a number from 1 to {legal.size}, an "
                     "action's name, or 'help'.")  # fmt: skip
        return None


def board_changes(before: str, now: str) -> list[str]:
    """The lines of the board text `now` that changed since `before`. The board is read as
    blocks, each a line that is not indented (a player, the status line) with the indented
    lines under it (their Hideout, businesses, hand), told apart by their first word: of a
    block that changed, its first line and its new or changed indented lines are kept, and
    those it lost (a razed business) are kept marked `gone:`; a new block is kept whole."""
    old = dict(_blocks(before))
    out: list[str] = []
    for key, block in _blocks(now):
        prev = old.get(key)
        if prev == block:
            continue
        if prev is None:
            out += block
            continue
        out.append(block[0])
        out += [line for line in block[1:] if line not in prev[1:]]
        labels = {_label(line) for line in block[1:]}
        out += [f"  gone: {line.strip()}" for line in prev[1:] if _label(line) not in labels]
    return out


def _label(line: str) -> str:
    """What an indented board line is about: its first word, with a number after it ("slot
    3", "Hideout", "your")."""
    words = [w.rstrip(":") for w in line.split()[:2]]
    return " ".join(words) if len(words) == 2 and words[1].isdigit() else words[0]


def _blocks(board: str) -> list[tuple[tuple[str, int], list[str]]]:
    """The board's blocks (`board_changes`), each keyed by its first word and how many
    blocks before it start with that word."""
    blocks: list[list[str]] = []
    for line in board.splitlines():
        if not line.strip():
            continue
        if line[0].isspace() and blocks:
            blocks[-1].append(line)
        else:
            blocks.append([line])
    keyed: list[tuple[tuple[str, int], list[str]]] = []
    seen: dict[str, int] = {}
    for block in blocks:
        word = block[0].split()[0].rstrip(":")
        seen[word] = seen.get(word, -1) + 1
        keyed.append(((word, seen[word]), block))
    return keyed


def decision_heading(info: dict) -> str:
    """'Your decision (phase WINDOW, end_of_turn window of player_1, turn of player_1):'."""
    parts = [f"phase {info['phase']}"] if "phase" in info else []
    if "window" in info:
        parts.append(f"{info['window']} window of {info['window_owner']}")
    if "reaction" in info:
        parts.append(f"target of your {info['reaction']}")
    if "turn_of" in info:
        parts.append(f"turn of {info['turn_of']}")
    return f"Your decision ({', '.join(parts)}):" if parts else "Your decision:"


def play(
    num_players: int | None = None,
    opponents: list[str] | None = None,
    rules: str | None = None,
    seat: int = 0,
    seed: int | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    ask_forced: bool = False,
    make_env: Callable[..., Any] | None = None,
    game: str | Game = "noir",
) -> bool:
    """Play one game in the terminal (module docstring); True if it was played to its end.
    make_env(num_players=, rules=) builds the AEC env (default: the game's). Raises
    ValueError for bad settings."""
    g = get_game(game)
    n = g.default_players if num_players is None else int(num_players)
    g.player_counts(n)  # checks the count
    if not 0 <= seat < n:
        raise ValueError(f"seat must be in 0..{n - 1}, got {seat}")
    env = make_env(num_players=n, rules=rules) if make_env else GameAECEnv(g, n, rules)
    bots = load_bots(opponents or ["random"], n, seat, seed, g)
    env.reset(seed=seed)
    human = HumanGame(env, seat, bots, stdin or sys.stdin, stdout or sys.stdout, ask_forced, g)
    return human.run()


def main(argv: list[str] | None = None) -> int:
    p = Parser(prog="python -m train.play", description=first_paragraph(__doc__))
    p.add_argument("--game", default="noir", choices=game_names(),
                   help="the game: noir (default), district_noir, ...")  # fmt: skip
    p.add_argument("--players", type=int, default=None,
                   help="players at the table (NOIR 3..6, default 4; District Noir 2)")  # fmt: skip
    p.add_argument(
        "--opponents",
        nargs="+",
        default=["random"],
        metavar="AGENT",
        help="one agent name for every bot, or one per bot in seat order",
    )
    p.add_argument("--rules", default=None,
                   help="the game's preset (NOIR: noirburg, noirbrough, original)")  # fmt: skip
    p.add_argument("--seat", type=int, default=0, help="your seat, 0..players-1")
    p.add_argument("--seed", type=int, default=None, help="the deal and the bots' seeds")
    p.add_argument("--ask-forced", action="store_true",
                   help="ask also when only one action is legal")  # fmt: skip
    p.add_argument("--web", action="store_true",
                   help="play in the browser: serve a page locally, print its address")  # fmt: skip
    p.add_argument("--port", type=int, default=0,
                   help="with --web: the port on 127.0.0.1 (default: a free one)")  # fmt: skip
    args = p.parse_args(argv)
    try:
        set_threads()  # the project's thread choice (noir_env.threads): NOIR_THREADS or 1
        if args.web:
            from .web import Settings, serve

            serve(Settings(args.game, args.players, args.rules, args.seat, args.opponents,
                           args.seed, args.ask_forced), args.port)  # fmt: skip
            return 0
        play(args.players, args.opponents, args.rules, args.seat, args.seed,
             ask_forced=args.ask_forced, game=args.game)  # fmt: skip
    except (OSError, ValueError) as err:  # --web: the port is taken, or not ours to bind
        p.error(str(err))
    except KeyboardInterrupt:
        print("\nYou quit the game.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
