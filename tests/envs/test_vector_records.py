"""The vector envs' recorded games replay exactly: a history recorded with
`record=True` holds the real choices only (the core's fast mode took every forced decision),
says so (`"ask_all": false`), and `noir_v2.replay` / `play_back` let the core take those
decisions again, so a replayed game ends where the recorded one did: the same state, scores,
winners and learner observation. 3 to 6 players, every kind of episode end."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.random_agent import RandomAgent
from noir_env import core, noir_v2
from noir_env.game import get_game
from noir_env.vector.engine import SingleSeatGames

NOIR = get_game("noir")


def ended_games(games: SingleSeatGames, episodes: int, seed: int):
    """Random learner actions until `episodes` episodes end; yields (Ended, row) for each."""
    agent = RandomAgent(seed)
    obs, mask = games.reset(seed=seed)
    seen = 0
    while seen < episodes:
        out = games.step(agent.act(obs, mask))
        obs, mask = out.obs, out.mask
        for j in range(0 if out.ended is None else out.ended.games.size):
            yield out.ended, j
            seen += 1


def test_recorded_games_replay_to_the_same_end():
    picker = RandomAgent(seed=7)  # a Python opponent besides the compiled random one
    mix = {"random": 0.5, (lambda obs, mask: picker.act(obs, mask)): 0.5}
    games = SingleSeatGames(12, num_players=(3, 4, 5, 6), opponents=mix, seed=0, max_steps=300,
                            record=True)  # fmt: skip
    results, counts, rejected_as_ask_all = set(), set(), 0
    for ended, j in ended_games(games, episodes=60, seed=5):
        history = json.loads(json.dumps(ended.history[j]))  # as saved and loaded
        assert history["ask_all"] is False and history["max_steps"] == 300
        e = noir_v2.play_back(history)
        n, seat = int(ended.num_players[j]), int(ended.learner_seat[j])
        np.testing.assert_array_equal(core.scores(e.state)[0], ended.scores[j])
        np.testing.assert_array_equal(NOIR.winners(e.state)[0], ended.winners[j])
        assert NOIR.win_reasons[int(e.state.win_reason[0])] == ended.win_reason[j]
        assert int(e.state.steps[0]) == ended.game_length[j] == len(history["actions"])
        np.testing.assert_array_equal(
            e.observe(f"player_{seat}")["observation"], ended.final_obs[j]
        )
        if ended.result[j] not in results:  # frames (boards) cost more: one per kind of end
            frames = list(noir_v2.replay(history))
            assert len(frames) == len(history["actions"]) + 1
            truncation = "The game is truncated after 300 decisions (max_steps)."
            assert (frames[-1].log[-1] == truncation) == (ended.result[j] == "truncated")
        # the forced decisions are really left out: played as an AEC env's history (every
        # decision presented), the actions soon stop being legal
        try:
            noir_v2.play_back({**history, "ask_all": True})
        except ValueError as err:  # an illegal action (noted), or more actions than game
            assert "history 'actions'[" in " ".join([str(err), *getattr(err, "__notes__", [])])
            rejected_as_ask_all += 1
        results.add(ended.result[j])
        counts.add(n)
    assert results == {"game_over", "eliminated", "truncated"}
    assert counts == {3, 4, 5, 6}
    assert rejected_as_ask_all >= 55


def test_a_replayed_game_ends_in_the_recorded_state_field_for_field():
    """Without autoreset the engine keeps each ended game: the replay's state equals it in
    every field (the core's random stream and event log included)."""
    games = SingleSeatGames(6, num_players=(3, 4, 5, 6), seed=0, max_steps=200, record=True,
                            autoreset=False)  # fmt: skip
    agent, compared = RandomAgent(2), 0
    for seed in range(0, 60, 6):
        obs, mask = games.reset(seed=seed)
        out = games.step(agent.act(obs, mask))
        while out.ended is None:
            out = games.step(agent.act(out.obs, out.mask))
        for j, g in enumerate(out.ended.games):
            e = noir_v2.play_back(out.ended.history[j])
            assert NOIR.state_to_dict(e.state) == NOIR.state_to_dict(games.state[g : g + 1])
            compared += 1
    assert compared >= 10


def test_an_aec_history_still_presents_every_decision():
    """The AEC env's own history says `"ask_all": true` and replays as before, its
    single-action decisions included; one without the key (written before it existed) too."""
    e = noir_v2.raw_env(num_players=3)
    e.reset(seed=4)
    rng = np.random.default_rng(4)
    while e.agents:
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
        else:
            e.step(int(rng.choice(np.flatnonzero(e.action_mask()))))
    assert e.history["ask_all"] is True
    old = {k: v for k, v in e.history.items() if k != "ask_all"}
    for history in (e.history, old):
        back = noir_v2.play_back(history)
        assert NOIR.state_to_dict(back.state) == NOIR.state_to_dict(e.state)
        assert back.game_log == e.game_log
    with pytest.raises(ValueError):  # its single-action decisions played as choices
        noir_v2.play_back({**e.history, "ask_all": False})
