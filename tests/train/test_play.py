"""The human CLI (train/play.py) driven by scripted input through whole games."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from train.play import board_changes, describe_action, play
from train.table import load_bots

ROOT = Path(__file__).resolve().parents[2]


def test_a_scripted_human_plays_a_whole_game_from_stdin():
    """`python -m train.play` with a human that always answers 1 (the first listed action)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "train.play", "--players", "4", "--opponents", "random",
         "--seat", "2", "--seed", "3"],
        input="1\n" * 5000, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "You are player_2 (seat 2)" in out
    assert "  1. " in out and "your choice> " in out  # actions listed by number
    assert "<- to decide, you" in out and "your hand:" in out  # the board from the seat
    assert "  | " in out  # log sentences
    assert "player_0 (random): " in out  # a bot's move
    assert "Won by " in out and ("You won!" in out or "You lost." in out)


def test_bad_input_is_explained_and_asked_again_then_quit():
    stdin = io.StringIO("xyzzy\n999\nend_of_the_world\nhelp\nboard\nquit\n")
    stdout = io.StringIO()
    finished = play(3, ["random"], seat=0, seed=1, stdin=stdin, stdout=stdout)
    out = stdout.getvalue()
    assert not finished
    assert "Not understood: 'xyzzy'" in out
    assert "No action 999: choose a number from 1 to" in out
    assert "Answer with the number of an action or its name" in out
    assert out.count("your choice> ") == 6  # asked again after each
    assert out.rstrip().endswith("You quit the game.")


class LastByName(io.StringIO):
    """A scripted human: answers with the name of the last action listed, `answers` times,
    then the input ends."""

    def __init__(self, out: io.StringIO, answers: int = 10**6):
        super().__init__()
        self.out, self.left = out, answers

    def readline(self, *args) -> str:
        if self.left == 0:
            return ""
        self.left -= 1
        listed = re.findall(r"^ +\d+\. (\S+?)(?:: |$)", self.out.getvalue(), re.MULTILINE)
        return listed[-1] + "\n"


def test_actions_by_name_through_whole_games_with_reactions_out_of_turn():
    """Answering by name plays whole games; the human is asked to react in windows of other
    players' turns (at least once over a few games)."""
    out_of_turn = 0
    for seed in range(4):
        stdout = io.StringIO()
        assert play(4, ["random"], seat=0, seed=seed, stdin=LastByName(stdout), stdout=stdout)
        out = stdout.getvalue()
        assert "not legal now" not in out and "Not understood" not in out
        assert "Won by " in out
        out_of_turn += len(re.findall(r"Your decision \(phase reaction_\w+, \w+ window of "
                                      r"player_[123]", out))  # fmt: skip
        if out_of_turn:
            break
    assert out_of_turn > 0


def test_the_end_of_input_stops_the_game():
    stdout = io.StringIO()
    finished = play(5, ["random"], seat=4, seed=7, stdin=LastByName(stdout, 12), stdout=stdout)
    out = stdout.getvalue()
    assert not finished and out.rstrip().endswith("You quit the game.")
    assert out.count("your choice> ") == 13  # 12 answers, then the end of input


def test_settings_are_checked():
    with pytest.raises(ValueError, match="seat must be in 0..3"):
        play(4, ["random"], seat=4, stdin=io.StringIO(), stdout=io.StringIO())
    with pytest.raises(ValueError, match="one per bot"):
        load_bots(["random", "random"], 4, 0, seed=0)
    with pytest.raises(ValueError, match="unknown agent"):
        load_bots(["nobody"], 4, 0, seed=0)
    with pytest.raises(ValueError, match="agent 'heuristic' plays NOIR only, not District Noir"):
        load_bots(["heuristic"], 2, 0, seed=0, game="district_noir")


def test_relative_targets_name_the_player():
    from noir_env.spaces import action_id

    a = action_id("target:+1:hideout")
    assert describe_action(a, 3, ["p0", "p1", "p2", "p3"]) == "target:+1:hideout  (p0)"


def test_each_action_is_listed_with_its_cost_and_effect_in_the_text_interfaces_words():
    from noir_env.game import get_game
    from noir_env.text import legal_moves

    game = get_game("noir")
    state = game.init(1, 4, seeds=[5], ask_all=True)  # the deal of play(seed=5)
    seat = int(state.actor[0])  # the human decides first
    stdout = io.StringIO()
    play(4, ["random"], seat=seat, seed=5, stdin=LastByName(stdout, 40), stdout=stdout)
    out = stdout.getvalue()
    listed = re.findall(r"^ +\d+\. (\S+?): (.+)$", out, re.MULTILINE)
    assert len(listed) > 100 and not re.findall(r"^ +\d+\. \S+$", out, re.MULTILINE)
    meanings = dict(listed)
    assert meanings["end"] and any(m.endswith("for free") for m in meanings.values())
    assert any(re.search(r"for \d coins?\b", m) for m in meanings.values())
    # the very sentences of noir_env.text (one copy): the first decision's list
    first = legal_moves(game, state, 0, [f"player_{q}" for q in range(4)])
    assert all(f"{m.name}: {m.meaning}" in out for m in first)


def test_later_decisions_show_only_what_changed_and_the_board_on_request():
    answers = ["1"] * 6 + ["?"] + ["1"] * 6 + ["board"] + ["1"] * 6
    stdout = io.StringIO()
    play(3, ["random"], seat=0, seed=2, stdin=io.StringIO("\n".join(answers) + "\n"),
         stdout=stdout)  # fmt: skip
    out = stdout.getvalue()
    decisions = out.count("Your decision (")
    whole_boards = out.count("\n\nplayer_1: money")  # the whole board has blank lines
    assert decisions >= 12 and whole_boards == 3  # the first decision, '?', 'board'
    assert (
        out.count("Changed since your last decision ('board' shows the whole board):")
        + (out.count("The board has not changed since your last decision."))
        == decisions - 1
    )


def test_board_changes_keep_what_changed():
    before = (
        "NOIR, turn 3\nBank 40 coins\n\nplayer_0: money 3  <- you\n  Hideout: gangsters 1\n"
        "  slot 0: Casino\n  your hand: police\n\nplayer_1: money 5\n  Hideout: none"
    )
    now = (
        "NOIR, turn 4\nBank 40 coins\n\nplayer_0: money 7  <- you\n  Hideout: gangsters 1\n"
        "  your hand: police, bribe\n\nplayer_1: money 5\n  Hideout: none\n\n"
        "Pending attack: player_1 on player_0"
    )
    assert board_changes(before, now) == [
        "NOIR, turn 4",
        "player_0: money 7  <- you",
        "  your hand: police, bribe",
        "  gone: slot 0: Casino",
        "Pending attack: player_1 on player_0",
    ]
    assert board_changes(now, now) == []
