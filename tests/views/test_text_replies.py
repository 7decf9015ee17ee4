"""The reply grammar of noir_env.text.parse: the shapes language models answer in, the
answer mark over prose, an illegal move never swapped for a legal one, bounded work on any
reply; and whole games by a replier that reasons in prose before it answers, as chat models
do, with no invalid reply (NOIR in its three presets, District Noir)."""

from __future__ import annotations

import re
import time

import numpy as np
import pytest

from agents import TextAgent
from noir_env.game import get_game
from noir_env.text import InvalidReply, Move, parse_reply
from noir_env.text.parse import MAX_REPLY_CHARS

NAMES = get_game("noir").action_names
MOVES = [Move(16, "draw:1", ""), Move(1, "end", ""), Move(27, "draw:12", "")]


def choose(reply: str) -> int:
    return parse_reply(reply, MOVES, NAMES)


@pytest.mark.parametrize(
    ("reply", "action"),
    [
        ("I think about it. [3]", 27),
        ("I pick [2]", 1),
        ("Final Answer: 2", 1),
        ("Answer: [3]", 27),
        ("**Final Answer:** end", 1),
        ("Final answer: 3 (draw twelve cards)", 27),
        ("My answer is draw:1.", 16),
        ("Answer:\n\n2", 1),  # the answer on the next line
        ("Answer: move 1", 16),
        ("[Move 3.]", 27),
        ("#2", 1),
        ("I have 3 coins and 2 cards, so I end", 1),  # prose numbers are never a choice
        ("[sic] draw:12 it is", 27),  # a bracket without a choice is prose
    ],
)
def test_the_usual_reply_shapes_parse(reply, action):
    assert choose(reply) == action


def test_the_last_answer_mark_wins_over_prose_and_earlier_marks():
    assert choose("end is tempting, draw:12 too. Final Answer: 1") == 16
    assert choose("Answer: end. On second thought: [draw:1]") == 16  # the later mark
    assert choose("[draw:1] was my first idea.\nFinal Answer: [2]") == 1
    assert choose("Option 3 (draw:12) or 2 (end)? I pick [1]") == 16
    assert choose("Answer: end, since draw:1 costs nothing more") == 1  # the line's first


@pytest.mark.parametrize(
    ("reply", "why"),
    [
        ("I would end the step, but I play [pass]", "'pass' is not a legal move now"),
        ("end is legal. Final Answer: pass", "'pass' is not a legal move now"),
        ("end looks good. [7]", "there is no move number 7"),
        ("Answer: [0]", "there is no move number 0"),
        ("I'd rather not end; pass", "'pass' is not a legal move now"),  # prose: the last
    ],
)
def test_an_illegal_chosen_move_is_invalid_never_swapped_for_a_legal_one(reply, why):
    with pytest.raises(InvalidReply, match=why) as err:
        choose(reply)
    assert "legal moves: 1. draw:1, 2. end, 3. draw:12" in str(err.value)


def test_any_reply_is_parsed_in_bounded_time():
    digits = "9" * 5000  # past Python's int() digit limit
    for reply in (digits, f"[{digits}]", f"Final Answer: {digits}", f"Answer:\n{digits}"):
        with pytest.raises(InvalidReply, match=r"there is no move number \d+\.\.\. \(\d+ digits"):
            choose(reply)
    start = time.perf_counter()
    assert choose("x" * 10**7 + " I pick [2]") == 1  # only the tail is read
    assert choose("end " * 10**6 + "[draw:12]") == 27
    for junk in ("[" * 10**6 + "a" * 10**6, "1" * 10**6, "Answer: " * 10**5):
        with pytest.raises(InvalidReply, match="names no legal move"):
            choose(junk)
    assert time.perf_counter() - start < 5
    # a name cut by the tail's start is not read as another one ("spend" -> "end")
    cut = "sp" + "end" + " " * (MAX_REPLY_CHARS - 3) + "no move here"
    with pytest.raises(InvalidReply, match="names no legal move"):
        choose(cut)


def test_a_reply_of_many_digits_falls_back_in_text_agent():
    game = get_game("noir")
    state = game.init(1, 4, seeds=[3], ask_all=True)
    agent = TextAgent(lambda prompt: "7" * 5000, retries=1, fallback="first", warn_rate=None)
    action = agent.act_on_state(state, [0])
    assert int(action[0]) == int(np.flatnonzero(game.legal_action_mask(state)[0])[0])
    assert (agent.counts.invalid, agent.counts.fallbacks) == (2, 1)


@pytest.mark.parametrize(
    ("games", "why"),
    [
        ([True, False, True], "got bool True .*np.flatnonzero"),
        (np.array([True, False]), "got bool True"),
        ([0, True], "got bool True"),
        ([0.0], "got float 0.0"),
        (["0"], "got str '0'"),
        ([2**70], "must index the batch of 3"),
        ([-1], "must index the batch of 3"),
    ],
)
def test_text_agent_refuses_games_that_are_not_indices(games, why):
    game = get_game("noir")
    state = game.init(3, 4, seeds=0, ask_all=True)
    before = game.clone(state)
    agent = TextAgent(lambda prompt: "[1]")
    with pytest.raises(ValueError, match=why):
        agent.act_on_state(state, games)
    assert agent.counts.decisions == 0 and np.array_equal(state, before)


class ChatReplier:
    """Replies the way chat models do: a paragraph of reasoning that names other moves of
    the list by name and number, an action that is not legal now, numbers of its own and a
    bracketed aside, then its answer (a seeded random listed move) in one of the usual
    shapes, in turn."""

    SHAPES = (
        "I think about it. [{k}]",
        "I pick [{k}]",
        "Final Answer: {k}",
        "Answer: [{k}]",
        "**Final Answer:** [{name}]",
        "So my answer is {name}.",
        "Answer:\n{k}",
        "I'll go with {name}. [{name}]",
    )

    def __init__(self, seed: int, illegal: str):
        self.rng = np.random.default_rng(seed)
        self.illegal = illegal  # an action name the prose mentions
        self.replies = 0

    def __call__(self, prompt: str) -> str:
        listed = re.findall(r"^  (\d+)\. (\S+?)(?:: |$)", prompt.split("Legal moves:\n")[1], re.M)
        k, name = listed[int(self.rng.integers(len(listed)))]
        other_k, other = listed[int(self.rng.integers(len(listed)))]
        prose = (
            f"Let me weigh this. I hold 3 cards and 12 coins [roughly]. Option {other_k} "
            f"({other}) is possible, and {self.illegal} would be great but may not be "
            f"available. Move {len(listed) + 2} does not exist. All things considered:\n\n"
        )
        shape = self.SHAPES[self.replies % len(self.SHAPES)]
        self.replies += 1
        return prose + shape.format(k=k, name=name)


@pytest.mark.parametrize(
    ("game_name", "players", "rules", "illegal"),
    [
        ("noir", 4, "noirburg", "target:+1:hideout"),
        ("noir", 3, "noirbrough", "play:turncoat"),
        ("noir", 5, "original", "continue_into_hideout"),
        ("district_noir", 2, None, "take"),
    ],
)
def test_a_replier_that_reasons_then_answers_makes_no_invalid_reply(
    game_name, players, rules, illegal
):
    game = get_game(game_name)
    replier = ChatReplier(seed=players, illegal=illegal)
    agent = TextAgent(replier, retries=0, fallback="raise")  # any invalid reply stops the game
    for seed in (11, 12):
        state = game.init(1, players, rules, seeds=[seed], ask_all=True)
        while game.current_player(state)[0] >= 0:
            game.step(state, agent.act_on_state(state, [0]))
    counts = agent.counts
    assert counts.invalid == counts.fallbacks == 0
    assert counts.decisions == counts.replies == replier.replies > 60
