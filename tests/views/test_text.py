"""noir_env.text: the prompt of a decision, the reply's move, the invalid-move policy, and
that a seat's text holds only what that seat may know."""

import re
import subprocess
import sys

import numpy as np
import pytest

from agents import load
from noir_env import core
from noir_env.game import get_game
from noir_env.text import InvalidMovePolicy, InvalidReply, Move, TextCounts, TextView, parse_reply

MOVES = [Move(16, "draw:1", ""), Move(1, "end", ""), Move(27, "draw:12", "")]


def _positions(game_name: str, players: int, seed: int, every: int = 7):
    """States along a game played by the game's heuristic (a copy every `every` steps)."""
    game = get_game(game_name)
    state = game.init(1, players, None, [seed], ask_all=True)
    agent = load(game.heuristic)
    out = []
    while game.current_player(state)[0] >= 0:
        if int(state.steps[0]) % every == 0:
            out.append(game.clone(state))
        game.step(state, agent.act(game.observe(state), game.legal_action_mask(state)))
    return out


def test_prompt_holds_every_part():
    for game_name, players in (("noir", 4), ("district_noir", 2)):
        state = _positions(game_name, players, seed=3)[4]
        view = TextView(game_name)
        seat = int(view.game.current_player(state)[0])
        text = view.prompt(state, 0)
        assert text.startswith(f"You are player_{seat}, playing {view.game.title}")
        for part in ("The table (you see your own hand only):", "your hand:", "Decide:"):
            assert part in text, (game_name, part)
        section = text.split("Legal moves:\n")[1]
        listed = re.findall(r"^  (\d+)\. (\S+?)(?:: |$)", section, re.M)
        moves = view.moves(state, 0)
        assert [(int(k), n) for k, n in listed] == [(k, m.name) for k, m in enumerate(moves, 1)]
        mask = view.game.legal_action_mask(state)[0]
        assert [m.id for m in moves] == np.flatnonzero(mask).tolist()
        assert all(m.meaning for m in moves)
        # another seat's view: the table and the log, no moves
        other = view.decision(state, 0, seat=(seat + 1) % players)
        assert "Legal moves" not in other and f"player_{(seat + 1) % players}" in other


def test_parse_finds_the_move_anywhere():
    assert parse_reply("I will draw:12 now.", MOVES) == 27  # a whole name, not draw:1
    assert parse_reply("draw:1", MOVES) == 16
    assert parse_reply("Maybe draw:1, but end is safer: end", MOVES) == 1  # the last named
    assert parse_reply("end looks bad. Final answer: [draw:12]", MOVES) == 27  # brackets win
    assert parse_reply("2", MOVES) == 1  # the list's number
    assert parse_reply(" [3] ", MOVES) == 27
    assert parse_reply("Move 1.", MOVES) == 16


def test_parse_errors_list_the_legal_moves():
    cases = {
        "I have 3 coins and no plan": "names no legal move",
        "4": "there is no move number 4",
        "pass": "'pass' is not a legal move now",
    }
    names = get_game("noir").action_names
    for reply, why in cases.items():
        with pytest.raises(InvalidReply, match=why) as err:
            parse_reply(reply, MOVES, names)
        assert "legal moves: 1. draw:1, 2. end, 3. draw:12" in str(err.value)
    with pytest.raises(InvalidReply, match="a reply is a string"):
        parse_reply(None, MOVES)
    with pytest.raises(InvalidReply, match="the game is over"):
        parse_reply("end", [])


def test_a_seats_text_never_holds_another_seats_hand():
    # re-deal everything the seat cannot see: its prompt must not change (NOIR)
    changed = tried = 0
    for k, state in enumerate(_positions("noir", 5, seed=11, every=13)):
        for seat in range(5):
            if not state.alive[0, seat]:
                continue
            redealt = core.sample_hidden(state, seat, seeds=k)
            tried += 1
            changed += not np.array_equal(redealt.hand, state.hand)
            same = TextView("noir").decision(state, 0, seat)
            assert same == TextView("noir").decision(redealt, 0, seat), (k, seat)
    assert changed > tried // 2  # the other hands did change
    # District Noir: the other hand and the draw pile swap cards
    for state in _positions("district_noir", 2, seed=5, every=3):
        seat = int(state.actor[0])
        if seat < 0:
            continue
        other = 1 - seat
        redealt = state.copy()
        unseen = np.concatenate(
            [np.repeat(np.arange(13), state.hand[0, other]), state.deck[0, : state.deck_n[0]]]
        )
        np.random.default_rng(0).shuffle(unseen)
        k = int(state.hand[0, other].sum())
        redealt.hand[0, other] = np.bincount(unseen[:k], minlength=13)
        redealt.deck[0, : state.deck_n[0]] = unseen[k:]
        view = TextView("district_noir")
        assert view.prompt(state, 0) == TextView("district_noir").prompt(redealt, 0)


def test_invalid_move_policy_retries_then_falls_back():
    state = _positions("noir", 4, seed=2)[6]
    view = TextView("noir")
    moves = view.moves(state, 0)
    asked = []

    def replies(*answers):
        it = iter(answers)

        def fn(prompt):
            asked.append(prompt)
            return next(it)

        return fn

    counts = TextCounts()
    policy = InvalidMovePolicy(retries=2)
    action = policy.decide(replies("?", "no idea", moves[-1].name), "P", view, state, 0, counts)
    assert action == moves[-1].id
    assert counts == TextCounts(decisions=1, replies=3, invalid=2, fallbacks=0)
    assert asked[0] == "P" and "Your reply was not accepted" in asked[1]
    assert "names no legal move" in asked[2]
    # out of retries: the fallback decides, and is counted
    for fallback, expected in (("first", moves[0].id), ("random", None)):
        counts = TextCounts()
        policy = InvalidMovePolicy(retries=1, fallback=fallback, seed=0)
        action = policy.decide(replies("x", "y"), "P", view, state, 0, counts)
        assert action in [m.id for m in moves] and (expected is None or action == expected)
        assert counts == TextCounts(decisions=1, replies=2, invalid=2, fallbacks=1)
    heuristic = load("heuristic")
    want = int(heuristic.act(core.observe(state), core.legal_action_mask(state))[0])
    policy = InvalidMovePolicy(retries=0, fallback=load("heuristic"))
    assert policy.decide(replies("x"), "P", view, state, 0, TextCounts()) == want
    with pytest.raises(InvalidReply, match="legal moves"):
        InvalidMovePolicy(retries=0, fallback="raise").decide(
            replies("x"), "P", view, state, 0, TextCounts()
        )
    for bad, why in (({"retries": -1}, "retries"), ({"fallback": "best"}, "fallback")):
        with pytest.raises(ValueError, match=why):
            InvalidMovePolicy(**bad)


def test_view_errors_name_what_is_wrong():
    state = _positions("district_noir", 2, seed=1)[0]
    with pytest.raises(ValueError, match="seat must be in 0..1"):
        TextView("district_noir").prompt(state, 0, seat=2)
    with pytest.raises(ValueError, match="names must name 6 seats"):
        TextView("noir", names=["ann", "bob"])
    with pytest.raises(ValueError, match="unknown game"):
        TextView("chess")
    absent = int(np.flatnonzero(state.hand[0, state.actor[0]] == 0)[0])  # a card not in hand
    with pytest.raises(ValueError, match="illegal action 'play:"):
        TextView("district_noir").record(state, 0, absent)


def test_importing_noir_env_imports_no_textarena():
    code = (
        "import sys, noir_env, noir_env.text, agents\n"
        "from noir_env import noir_v2\n"
        "assert 'textarena' not in sys.modules, 'textarena imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
