"""How OpenSpiel states and games travel: `serialize` writes plain JSON (the parameters, the
history, the re-dealt worlds) that `game.deserialize_state` replays, and a pickle of a state
or a game holds that same plain data (for multiprocessing): the copy continues as the
original, re-dealt worlds of `resample_from_infostate` included."""

import io
import json
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="pyspiel is not installed: pip install -e '.[openspiel]'"
)

import noir_env.openspiel as nos  # noqa: E402 - after the skip


def played(game, seed, decisions):
    state = nos.deal(game, seed)
    rng = np.random.default_rng(seed)
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def full(state):
    """Everything of a state, hidden cards and generator included (its core state dict)."""
    core = state.get_game().core_game
    return None if state.core_state is None else core.state_to_dict(state.core_state)


def continue_alike(states, steps, seed):
    """Play the same random actions on every state; they must stay alike."""
    rng = np.random.default_rng(seed)
    first = states[0]
    for _ in range(steps):
        if first.is_terminal():
            break
        action = int(rng.choice(first.legal_actions()))
        for s in states:
            s.apply_action(action)
        for s in states[1:]:
            assert full(s) == full(first) and s.history() == first.history()
            for p in range(first.num_players()):
                assert s.information_state_string(p) == first.information_state_string(p)
                assert s.observation_tensor(p) == first.observation_tensor(p)
    assert [s.returns() for s in states] == [first.returns()] * len(states)


class Recorder(pickle.Unpickler):
    """An unpickler that records every global a pickle names."""

    def __init__(self, data: bytes) -> None:
        super().__init__(io.BytesIO(data))
        self.names: set[tuple[str, str]] = set()

    def find_class(self, module, name):
        self.names.add((module, name))
        return super().find_class(module, name)


@pytest.mark.parametrize(("name", "params"), [("noir", {"players": 5, "rules": "original"}),
                                              ("district_noir", {"rng_seed": 9})])  # fmt: skip
def test_a_pickled_state_is_plain_data_and_continues_the_same(name, params):
    game = pyspiel.load_game(name, params)
    state = played(game, 21, 15)
    data = pickle.dumps(state)
    recorder = Recorder(data)
    copy = recorder.load()
    assert recorder.names == {("noir_env.openspiel.record", "restore_state"),
                              ("noir_env.openspiel.game", "load_game")}  # fmt: skip
    assert str(copy.get_game()) == str(game)
    assert copy.history() == state.history() and full(copy) == full(state)
    continue_alike([state, copy], 200, 3)


def test_a_pickled_game_is_loaded_again_with_its_parameters():
    game = pyspiel.load_game("noir", {"players": 6, "rules": "noirbrough", "max_game_length": 500})
    copy = pickle.loads(pickle.dumps(game))
    assert str(copy) == str(game) and copy.num_players() == 6 and copy.max_game_length() == 500
    assert type(copy) is type(game)


@pytest.mark.parametrize("name", ["noir", "district_noir"])
def test_a_re_dealt_world_serializes_and_replays(name):
    game = pyspiel.load_game(name)
    state = played(game, 8, 12)
    sampler = pyspiel.UniformProbabilitySampler(4, 0.0, 1.0)
    world = state.resample_from_infostate(state.current_player(), sampler)
    world = played_on(world, 3)
    world = world.resample_from_infostate(world.current_player(), sampler)
    record = json.loads(world.serialize())
    assert len(record["worlds"]) == 2 and record["history"] == world.history()
    copy = game.deserialize_state(world.serialize())
    assert full(copy) == full(world)
    # the re-deals matter: without them the same history replays the dealt game
    undealt = game.deserialize_state(json.dumps({**record, "worlds": []}))
    assert full(undealt) != full(world) and undealt.history() == world.history()
    continue_alike([world, copy, pickle.loads(pickle.dumps(world))], 200, 4)


def played_on(state, decisions):
    rng = np.random.default_rng(decisions)
    for _ in range(decisions):
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_states_before_and_at_the_end_of_the_deal_round_trip():
    game = pyspiel.load_game("district_noir")
    state = game.new_initial_state()
    for outcome in (7, 0, 255, 3):
        copy = game.deserialize_state(state.serialize())
        assert copy.is_chance_node() and copy.history() == state.history()
        state.apply_action(outcome)
    copy = pickle.loads(pickle.dumps(state))
    assert not copy.is_chance_node() and full(copy) == full(state)
    finished = played(game, 2, 100)
    assert finished.is_terminal()
    again = game.deserialize_state(finished.serialize())
    assert again.is_terminal() and again.returns() == finished.returns()
