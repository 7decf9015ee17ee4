"""agents.TextAgent: a game played through text equals the same game played by ids, in the
tournament's arena and in AEC loops, for NOIR and District Noir; its prompts tell what
happened since the seat's last decision."""

import re

import numpy as np
import pytest

from agents import TextAgent, load
from noir_env import core, district_noir_v0, noir_v2
from noir_env.aec import act_in_aec
from noir_env.game import game_of_state
from noir_env.vector.arena import play_games, policy_of


class HeuristicByText:
    """The game's heuristic, asked through text: a TextAgent whose `fn` replies with the
    heuristic's choice, by name in brackets, by name in a sentence or by its number in the
    prompt's list, in turn (a deterministic scripted fn)."""

    uses_state = True

    def __init__(self, heuristic: str):
        self.heuristic = load(heuristic)
        self.text = TextAgent(self.reply)
        self.wanted: list[str] = []
        self.replies = 0

    def reply(self, prompt: str) -> str:
        name = self.wanted.pop(0)
        listed = prompt.split("Legal moves:\n")[1]
        number = re.search(rf"^  (\d+)\. {re.escape(name)}(?:: |$)", listed, re.M)
        assert number, f"{name} is not listed in\n{listed}"
        self.replies += 1
        return [
            f"Let me think. Final answer: [{name}]",
            f"I go with {name} here.",
            number.group(1),
        ][self.replies % 3]

    def act_on_state(self, state, games):
        game = game_of_state(state)
        obs, mask = game.observe(state), game.legal_action_mask(state)
        ids = self.heuristic.act(obs[games], mask[games])
        self.wanted = [game.action_names[a] for a in ids]
        return self.text.act_on_state(state, games)


@pytest.mark.parametrize(
    ("game", "heuristic", "players", "games"),
    [("noir", "heuristic", 3, 4), ("noir", "heuristic", 5, 3), ("district_noir",
     "district-heuristic", 2, 8)],
)  # fmt: skip
def test_a_game_through_text_is_the_game_by_ids(game, heuristic, players, games):
    seeds = np.arange(games, dtype=np.int64) + 40
    lineups = np.full((games, 6 if game == "noir" else 2), -1)
    lineups[:, :players] = 1
    lineups[np.arange(games), np.arange(games) % players] = 0  # the text seat moves round
    by_text = HeuristicByText(heuristic)
    text = play_games(seeds, lineups, [policy_of("text", by_text), policy_of("h", load(heuristic))],
                      game=game, slots=3)  # fmt: skip
    ids = play_games(seeds, lineups, [policy_of("ids", load(heuristic)),
                     policy_of("h", load(heuristic))], game=game, slots=3)  # fmt: skip
    for field in ("winners", "win_reason", "scores", "length", "turns", "out_at"):
        assert np.array_equal(getattr(text, field), getattr(ids, field)), field
    counts = by_text.text.counts
    assert counts.decisions == by_text.replies > 20 and counts.invalid == counts.fallbacks == 0


def _since(prompt: str) -> list[str]:
    """The sentences of a prompt's 'What happened' part."""
    part = prompt.split("What happened")[1].split("\n\nDecide:")[0]
    return _plain([line[2:] for line in part.splitlines() if line.startswith("- ")])


def _plain(lines: list[str]) -> list[str]:
    """Sentences without the slot that tells two businesses alike apart: the env's log reads
    the game after every step, a prompt all the steps since the seat's decision at once, so
    a business destroyed in between still counts as a twin of another in the prompt."""
    return [re.sub(r" \(slot \d+\)", "", line) for line in lines]


def test_prompts_tell_what_happened_since_the_last_decision():
    # NOIR in its AEC env: the text seat's prompts hold exactly the env's log lines written
    # since its previous decision
    env = noir_v2.env(num_players=4)
    env.reset(seed=8)
    prompts: list[str] = []
    seat0 = TextAgent(lambda prompt: prompts.append(prompt) or "1", name="text")
    others = load("heuristic")
    marks = []
    for agent in env.agent_iter():
        if agent == "player_0" and not (env.terminations[agent] or env.truncations[agent]):
            marks.append(len(env.unwrapped.game_log))
        env.step(act_in_aec(env, seat0 if agent == "player_0" else others))
    log = env.unwrapped.game_log
    assert len(prompts) == len(marks) > 30
    assert _since(prompts[0]) == _plain(log[: marks[0]])
    for k in range(1, len(prompts)):
        assert _since(prompts[k]) == _plain(log[marks[k - 1] : marks[k]]), k
    # District Noir: each prompt holds the other player's moves since, in order (the env's
    # log has the moves its agents chose; the prompt adds the forced ones the core took)
    env = district_noir_v0.env()
    env.reset(seed=3)
    prompts.clear()
    seat0, other = (
        TextAgent(lambda prompt: prompts.append(prompt) or "take"),
        load("district-heuristic"),
    )
    moves_of_1: list[str] = []
    checked = 0
    for agent in env.agent_iter():
        if env.terminations[agent]:
            env.step(None)
        elif agent == "player_1":
            a = act_in_aec(env, other)
            raw = env.unwrapped
            moves_of_1.append(raw.views.move_text(raw.state, raw.possible_agents, 1, a))
            env.step(a)
        else:
            asked = len(prompts)
            env.step(act_in_aec(env, seat0))
            lines = iter(_since(prompts[asked]))
            if asked:  # every move of player_1 since, in order, as the env's log says it
                assert all(any(line.startswith(m) for line in lines) for m in moves_of_1)
                checked += len(moves_of_1)
            moves_of_1 = []
    assert checked > 10


def test_text_agent_errors():
    with pytest.raises(ValueError, match="needs a callable"):
        TextAgent("not a function")
    state = core.init(2, 3, seeds=0, ask_all=True)
    agent = TextAgent(lambda prompt: "end")
    with pytest.raises(ValueError, match="games must index the batch of 2"):
        agent.act_on_state(state, [5])
    state.actor[1] = -1
    assert agent.act_on_state(state, [1]).tolist() == [-1]  # over: agents.finished
    with pytest.raises(ValueError, match="not a batch of states of any game"):
        agent.act_on_state(np.zeros(3), [0])
