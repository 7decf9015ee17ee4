"""NOIR and District Noir as OpenSpiel games (noir_env/openspiel): OpenSpiel's own checks
(random simulations with clones, serialization, pickling, returns, strings and tensors), the
declared game type, the deal's chance nodes, ids and names equal to the core's, the state
being the core's, serialization and belief sampling."""

import subprocess
import sys

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="pyspiel is not installed: pip install -e '.[openspiel]'"
)

import noir_env.openspiel as nos  # noqa: E402 - after the skip
from noir_env.game import get_game  # noqa: E402
from noir_env.views import board_text  # noqa: E402

KIND = pyspiel.GameType


def test_importing_noir_env_never_imports_pyspiel():
    code = ("import sys, noir_env, noir_env.vector, agents\n"
            "from noir_env.game import get_game\n"
            "get_game('noir'); get_game('district_noir')\n"
            "assert not {'pyspiel', 'open_spiel'} & set(sys.modules)\n")  # fmt: skip
    subprocess.run([sys.executable, "-c", code], check=True, timeout=600)


@pytest.mark.parametrize("name", ["noir", "district_noir"])
def test_registered_with_the_declared_type(name):
    assert name in pyspiel.registered_names()
    game = pyspiel.load_game(name)
    t = game.get_type()
    assert t.dynamics == KIND.Dynamics.SEQUENTIAL
    assert t.chance_mode == KIND.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == KIND.Information.IMPERFECT_INFORMATION
    assert t.utility == KIND.Utility.ZERO_SUM
    assert t.reward_model == KIND.RewardModel.TERMINAL
    assert t.provides_information_state_string and not t.provides_information_state_tensor
    assert t.provides_observation_tensor and t.provides_observation_string
    core = get_game(name)
    assert game.num_distinct_actions() == core.num_actions
    assert game.observation_tensor_size() == core.obs_size
    assert game.max_chance_outcomes() == 256
    nos.register_games()  # a second registration is a no-op


@pytest.mark.parametrize(
    ("name", "params"),
    [("district_noir", {}), ("noir", {"players": 3, "rules": "noirburg"}),
     ("noir", {"players": 4, "rules": "noirbrough"}), ("noir", {"players": 5, "rules": "original"}),
     ("noir", {"players": 6, "rules": "noirburg"})],
)  # fmt: skip
def test_openspiel_random_simulation(name, params):
    """OpenSpiel's RandomSimTest: chance outcomes, legal actions, clones (history, strings,
    tensors), serialization (OpenSpiel's own form for Python games), returns zero-sum within
    its epsilon, terminal checks."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize(("name", "params"), [("district_noir", {}), ("noir", {"players": 3})])
def test_openspiel_python_game_simulation(name, params):
    """OpenSpiel's Python simulation test (open_spiel/python/tests/games_sim_test.py): the
    game and its type pickle, states pickle and round-trip pyspiel's serialization, a clone
    after every action continues the same, terminal states have no legal actions and
    returns within the declared utilities."""
    from open_spiel.python.tests import games_sim_test

    check = games_sim_test.GamesSimTest("test_pig")  # any test name: sim_game is a helper
    check.sim_game(pyspiel.load_game(name, params))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_action_ids_names_and_state_are_the_cores(players):
    game = pyspiel.load_game("noir", {"players": players})
    state = nos.deal(game, 7)
    core = get_game("noir")
    ref = core.init(1, players, "noirburg", seeds=[7], ask_all=True)
    rng = np.random.default_rng(players)
    for _ in range(60):
        seat = state.current_player()
        assert seat == int(core.current_player(ref)[0])
        legal = state.legal_actions()
        assert legal == np.flatnonzero(core.legal_action_mask(ref)[0]).tolist()
        assert [state.action_to_string(seat, a) for a in legal] == [
            core.action_name(a) for a in legal
        ]
        np.testing.assert_array_equal(state.observation_tensor(seat), core.observe(ref, seat)[0])
        assert state.observation_string(seat) == board_text(core, ref, 0, seat)
        a = int(rng.choice(legal))
        state.apply_action(a)
        core.step(ref, np.array([a]))
    assert core.state_to_dict(state.core_state) == core.state_to_dict(ref)


@pytest.mark.parametrize("name", ["noir", "district_noir"])
def test_illegal_action_is_named(name):
    state = nos.deal(pyspiel.load_game(name), 0)
    illegal = next(a for a in range(get_game(name).num_actions) if a not in state.legal_actions())
    with pytest.raises(Exception, match="illegal action"):
        state.apply_action(illegal)


def test_bad_parameters_are_named():
    with pytest.raises(Exception, match="num_players must be in 3..6"):
        pyspiel.load_game("noir", {"players": 7})
    with pytest.raises(Exception, match="rules"):
        pyspiel.load_game("noir", {"rules": "nowhere"})
    with pytest.raises(Exception, match="players"):
        pyspiel.load_game("district_noir", {"players": 3})


@pytest.mark.parametrize("name", ["noir", "district_noir"])
def test_serialize_round_trip_continues_the_same(name):
    game = pyspiel.load_game(name, {"rng_seed": 3})
    state = nos.deal(game, 11)
    rng = np.random.default_rng(0)
    for _ in range({"noir": 25, "district_noir": 12}[name]):
        state.apply_action(int(rng.choice(state.legal_actions())))
    copy = game.deserialize_state(state.serialize())
    clone = state.clone()
    assert copy.history() == state.history() and str(copy) == str(state)
    for _ in range(15):  # the same future chance: the replay draws it again
        if state.is_terminal():
            break
        a = int(rng.choice(state.legal_actions()))
        for s in (state, copy, clone):
            s.apply_action(a)
        assert str(copy) == str(state) == str(clone)
        assert copy.information_state_string(0) == state.information_state_string(0)


@pytest.mark.parametrize("name", ["noir", "district_noir"])
def test_resample_from_infostate_keeps_the_information_state(name):
    game = pyspiel.load_game(name)
    state = nos.deal(game, 5)
    rng = np.random.default_rng(1)
    for _ in range(30):
        state.apply_action(int(rng.choice(state.legal_actions())))
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    worlds = [state.resample_from_infostate(seat, sampler) for _ in range(8)]
    for w in worlds:
        assert w.information_state_string(seat) == state.information_state_string(seat)
        assert w.observation_tensor(seat) == state.observation_tensor(seat)
        assert w.legal_actions() == state.legal_actions()
    others = [(w.core_state.hand, w.core_state.deck) for w in worlds]
    assert any((h != state.core_state.hand).any() or (d != state.core_state.deck).any()
               for h, d in others)  # fmt: skip
    # another seat tells them apart: the other hands are re-dealt
    other = (seat + 1) % game.num_players()
    assert any(w.information_state_string(other) != state.information_state_string(other)
               for w in worlds)  # fmt: skip


def test_information_state_is_perfect_recall():
    """The information state depends on the history, not only on the position: the same
    position dealt afresh (a different history: none) has the same board but not the same
    information state, and along a game a seat's information states never repeat."""
    game = pyspiel.load_game("noir", {"players": 3})
    state = nos.deal(game, 4)
    rng = np.random.default_rng(0)
    seen = set()
    for _ in range(80):
        info = state.information_state_string(0)
        assert info not in seen and "observed so far:" in info
        seen.add(info)
        state.apply_action(int(rng.choice(state.legal_actions())))
    fresh = nos.deal(game, 4)  # a history of no decisions, then the same position
    fresh._raw = state._raw.copy()
    for seat in range(3):
        assert fresh.observation_string(seat) == state.observation_string(seat)
        assert fresh.information_state_string(seat) != state.information_state_string(seat)


def test_the_deal_is_four_chance_nodes_choosing_the_seed():
    """A new game is a chance node of 256 equally likely outcomes, four times: the seed's
    bytes, most significant first; rng_seed r moves the seeds to r * 2**32 + those bytes."""
    core = get_game("noir")
    for rng_seed in (0, 5):
        game = pyspiel.load_game("noir", {"players": 3, "rng_seed": rng_seed})
        state = game.new_initial_state()
        for outcome in (1, 2, 3, 4):
            assert state.is_chance_node() and state.legal_actions() == list(range(256))
            assert state.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
            assert not any(state.observation_tensor(0))  # nothing is dealt yet
            state.apply_action(outcome)
        assert state.current_player() >= 0 and state.history() == [1, 2, 3, 4]
        ref = core.init(1, 3, seeds=[rng_seed * 2**32 + 0x01020304], ask_all=True)
        assert core.state_to_dict(state.core_state) == core.state_to_dict(ref)
    with pytest.raises(ValueError, match="chance outcome 256"):
        game.new_initial_state().apply_action(256)
    assert nos.deal(game, 0x01020304).history() == [1, 2, 3, 4]
    with pytest.raises(ValueError, match="seed must be an integer in 0..4294967295"):
        nos.deal(game, 2**32)


@pytest.mark.parametrize("name", ["noir", "district_noir"])
def test_no_information_state_tensor_raises_as_openspiel_games_do(name):
    """The information state is a string only: asking for its tensor raises SpielError
    ("InformationStateTensor unimplemented", as a C++ game without it), never an empty list;
    the perfect-recall observer has `tensor` None and the information state's strings."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(name)
    state = nos.deal(game, 2)
    with pytest.raises(pyspiel.SpielError, match="InformationStateTensor unimplemented"):
        state.information_state_tensor(0)
    with pytest.raises(pyspiel.SpielError, match="InformationStateTensor unimplemented"):
        game.information_state_tensor_shape()
    observer = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    assert observer.tensor is None and observer.dict == {}
    with pytest.raises(pyspiel.SpielError, match="InformationStateTensor unimplemented"):
        observer.set_from(state, 0)
    assert observer.string_from(state, 1) == state.information_state_string(1)
    plain = make_observation(game)
    plain.set_from(state, 1)
    assert plain.tensor.tolist() == state.observation_tensor(1)
