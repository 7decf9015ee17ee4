"""noir_env.textarena: NOIR and District Noir in TextArena's registry, played by its game
loop and its agent wrappers with scripted text agents (the `textarena` extra, which
`make test` installs)."""

import numpy as np
import pytest
import textarena as ta
from textarena.agents.wrappers import AnswerTokenAgentWrapper

import noir_env.textarena as nta
from agents import load
from noir_env.game import get_game
from noir_env.text import FallbackWarning


class ScriptedAgent(ta.Agent):
    """Replies with `choose(env)`'s move after some thinking, in TextArena's answer format;
    `bad` replies that name no move come first."""

    system_prompt = ""

    def __init__(self, env, choose, bad: int = 0):
        self.env, self.choose, self.bad = env, choose, bad

    def __call__(self, observation: str) -> str:
        if self.bad:
            self.bad -= 1
            return "Hmm. Final Answer: a move that does not exist"
        name = self.choose(self.env)
        assert f". {name}" in observation, "the move is not in the observation"
        return f"My move is clear. Final Answer: [{name}]"


def heuristic_choice(name: str):
    agent = load(name)

    def choose(env) -> str:
        g, s = env.game, env.core
        return g.action_names[int(agent.act(g.observe(s), g.legal_action_mask(s))[0])]

    return choose


def play(env_id: str, players: int, seed: int, agents_of) -> tuple:
    """TextArena's loop: the game through its agents; returns (env, rewards, game_info,
    observations seen by each player)."""
    env = ta.make(env_id)
    env.reset(num_players=players, seed=seed)
    agents = [AnswerTokenAgentWrapper(agents_of(env, q)) for q in range(players)]
    seen: dict[int, list[str]] = {q: [] for q in range(players)}
    done = False
    while not done:
        player_id, observation = env.get_observation()
        seen[player_id].append(observation)
        done, _ = env.step(agents[player_id](observation))
    rewards, game_info = env.close()
    return env, rewards, game_info, seen


def by_ids(game_name: str, players: int, seed: int, heuristic: str, rules=None):
    """The same game played by action ids."""
    game = get_game(game_name)
    state = game.init(1, players, rules, [seed], ask_all=True)
    agent = load(heuristic)
    while game.current_player(state)[0] >= 0:
        game.step(state, agent.act(game.observe(state), game.legal_action_mask(state)))
    return state


@pytest.mark.parametrize(
    ("env_id", "game", "heuristic", "players", "rules"),
    [
        ("Noir-v0", "noir", "heuristic", 3, "noirburg"),
        ("Noir-v0-noirbrough", "noir", "heuristic", 6, "noirbrough"),
        ("DistrictNoir-v0", "district_noir", "district-heuristic", 2, None),
    ],
)
def test_textarena_plays_the_game_by_ids(env_id, game, heuristic, players, rules):
    choose = heuristic_choice(heuristic)
    env, rewards, info, seen = play(env_id, players, 5, lambda e, q: ScriptedAgent(e, choose))
    want = by_ids(game, players, 5, heuristic, rules)
    assert np.array_equal(env.core, want)
    outcome = get_game(game).outcome(want)[0]
    assert rewards == {q: pytest.approx(float(outcome[q])) for q in range(players)}
    assert abs(sum(rewards.values())) < 1e-5 and max(rewards.values()) > 0
    assert all(info[q]["invalid_replies"] == 0 for q in range(players))
    for q in range(players):  # the first message and the newest decision of the player
        assert seen[q] and all(o.startswith(f"You are player_{q}") for o in seen[q])
        assert all("your hand:" in o for o in seen[q])


def test_invalid_replies_are_asked_again_then_fall_back():
    choose = heuristic_choice("district-heuristic")
    bad = {0: 2, 1: 5}  # player 0 recovers on its last retry; player 1 runs out once
    env, rewards, info, seen = play(
        "DistrictNoir-v0", 2, 1, lambda e, q: ScriptedAgent(e, choose, bad=bad[q])
    )
    assert info[0]["invalid_replies"] == 2 and info[0]["fallbacks"] == 0
    assert info[1]["invalid_replies"] == 5 and info[1]["fallbacks"] == 1
    notes = [o for o in seen[1] if "Your reply was not accepted" in o]
    assert len(notes) == 4 and "legal moves: 1. " in notes[0]
    assert sorted(rewards.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_registry_and_errors():
    ids = nta.register_envs()  # again: a no-op
    assert {"Noir-v0", "Noir-v0-original", "DistrictNoir-v0", "Noir-v0-raw"} <= set(ids)
    raw = ta.make("Noir-v0-raw")
    assert isinstance(raw, nta.NoirTextArenaEnv)
    with pytest.raises(ValueError, match="call reset"):
        raw.step("end")
    with pytest.raises(ValueError, match="num_players must be in 3..6"):
        raw.reset(num_players=2)
    with pytest.raises(ValueError, match="District Noir: num_players must be in 2..2"):
        ta.make("DistrictNoir-v0").reset(num_players=3)
    with pytest.raises(ValueError, match="max_steps"):
        nta.NoirTextArenaEnv(max_steps=0)


def test_a_reply_of_thousands_of_digits_is_asked_again_then_falls_back():
    env = ta.make("Noir-v0-raw")
    env.reset(num_players=3, seed=2)
    player, _ = env.get_observation()
    digits = "9" * 5000  # past Python's int() digit limit
    for _ in range(3):  # two retries, then the fallback plays
        assert env.get_observation()[0] == player
        done, _ = env.step(f"Final Answer: {digits}")
        assert not done
    assert env.state.game_info[player]["invalid_replies"] == 3
    assert env.state.game_info[player]["fallbacks"] == 1


def test_a_seat_that_mostly_falls_back_is_warned_about_once(caplog):
    env = nta.NoirTextArenaEnv("district_noir", retries=0, warn_after=4)
    env.reset(num_players=2, seed=3)
    with pytest.warns(FallbackWarning, match="player_0: the fallback") as warned:
        for _ in range(30):
            player, _ = env.get_observation()
            done, _ = env.step("no idea" if player == 0 else "[1]")
            if done:
                break
    assert len(warned) == 1 and "player_1" not in caplog.text
    assert caplog.text.count("player_0: the fallback") == 1
