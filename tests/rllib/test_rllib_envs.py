"""The RLlib glue without a Ray runtime: `import noir_env` never imports ray; the vector env
of path 1 (Dict observations, NEXT_STEP, disjoint seeds per env runner); the multi-agent env
of path 2 fed into RLlib's own `MultiAgentEpisode` (which raises on any breach of its
turn-based protocol), zero-sum per game, eliminated seats never heard from again, truncation
with a last observation for every seat; the masked module never samples an illegal action;
the AgentModule plays legal actions; the export is the policy file `agents.load` plays."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_episode import MultiAgentEpisode

import agents
from noir_env.game import get_game
from noir_env.views import action_space
from train.rllib.envs import (
    LEARNER,
    MaskedVectorEnv,
    SelfPlayMultiAgentEnv,
    masked_space,
    module_of,
)
from train.rllib.export import export_checkpoint, module_dir, net_from_module_state
from train.rllib.modules import MASK_KEY, OBS_KEY, AgentModule, MaskedPolicyModule


def test_importing_noir_env_and_the_trainers_never_imports_ray():
    code = ("import sys, noir_env, noir_env.vector, agents, train.ppo, train.rllib_ppo\n"
            "from noir_env.vector import make_vector_env\n"
            "make_vector_env(2, seed=0).reset()\n"
            "assert not [m for m in sys.modules if m.split('.')[0] == 'ray'], 'ray'\n")  # fmt: skip
    subprocess.run([sys.executable, "-c", code], check=True, timeout=600)


def test_vector_env_dict_observations_next_step_and_disjoint_seeds():
    env = MaskedVectorEnv(16, num_players=3, opponents="random")
    assert env.metadata["autoreset_mode"].name == "NEXT_STEP"
    assert env.single_observation_space == masked_space(get_game("noir"))
    obs, _ = env.reset(seed=2)
    actions = get_game("noir").num_actions
    assert set(obs) == {OBS_KEY, MASK_KEY} and obs[MASK_KEY].shape == (16, actions)
    first = set(env.env.games.game_seed.tolist())
    other = MaskedVectorEnv(16, num_players=3)
    other.reset(seed=3)  # the next env runner (RLlib seeds runner w with seed + w)
    assert first == set(range(32, 48)) and not first & set(other.env.games.game_seed.tolist())
    ended = 0
    for _ in range(400):
        mask = obs[MASK_KEY]
        acts = np.array([np.flatnonzero(m)[0] if m.any() else 0 for m in mask])
        was_over = ~mask.any(axis=1)
        obs, reward, term, trunc, infos = env.step(acts)
        assert not (term | trunc)[was_over].any() and not reward[was_over].any()
        done = term | trunc
        assert not obs[MASK_KEY][done].any()  # a last observation: no decision
        if done.any():
            assert set(np.flatnonzero(infos["_learner_won"])) == set(np.flatnonzero(done))
        ended += int(done.sum())
    assert ended > 16


@pytest.mark.parametrize(("game", "players", "max_steps"),
                         [("noir", [3, 4, 5, 6], 10_000), ("district_noir", None, 10_000),
                          ("noir", 4, 60)])  # fmt: skip
def test_selfplay_env_keeps_rllibs_multi_agent_episode_protocol(game, players, max_steps):
    """Random legal play through RLlib's MultiAgentEpisode: only the acting seat observes,
    returns sum to zero per game, done seats get nothing more, truncation gives every seat
    in the game a last observation."""
    env = SelfPlayMultiAgentEnv({"game": game, "num_players": players, "max_steps": max_steps})
    rng = np.random.default_rng(0)
    obs, infos = env.reset(seed=5)
    games = eliminated = truncated_games = 0
    while games < 12:
        spaces = env.observation_spaces
        episode = MultiAgentEpisode(observation_space=spaces, action_space=env.action_spaces)
        episode.add_env_reset(observations=obs, infos=infos)
        done: set[str] = set()
        returns = dict.fromkeys(env.agents, 0.0)
        while True:
            assert len(obs) == 1 and not set(obs) & done
            (actor, view), = obs.items()  # fmt: skip
            action = int(rng.choice(np.flatnonzero(view[MASK_KEY])))
            obs, rew, term, trunc, infos = env.step({actor: action})
            assert not set(rew) & done, "a seat that is done got a reward"
            for agent, r in rew.items():
                returns[agent] += r
            episode.add_env_step(obs, {actor: action}, rew, infos, terminateds=term,
                                 truncateds=trunc)  # fmt: skip
            newly = {a for a, t in (term | trunc).items() if t and a != "__all__"}
            if term["__all__"] or trunc["__all__"]:
                assert term["__all__"] != trunc["__all__"]  # game over, or cut short
                assert set(obs) == set(env.agents) - done  # everyone still in: a last view
                assert all(not v[MASK_KEY].any() for v in obs.values())
                truncated_games += bool(trunc["__all__"])
                assert episode.is_truncated == trunc["__all__"]
                break
            eliminated += len(newly)
            done |= newly
        assert episode.is_done
        assert abs(sum(returns.values())) < 1e-5, returns
        games += 1
        obs, infos = env.reset()
    assert truncated_games == (games if max_steps < 100 else 0)
    if game == "noir" and max_steps > 100:
        assert eliminated > 0  # seats eliminated mid-game were seen


def _module(obs_size: int = 40, actions: int = 12) -> MaskedPolicyModule:
    space = masked_space(_TinyGame(obs_size, actions))
    spec = RLModuleSpec(module_class=MaskedPolicyModule, observation_space=space,
                        action_space=action_space(_TinyGame(obs_size, actions)),
                        model_config={"hidden": [32], "game": "noir"})  # fmt: skip
    return spec.build()


class _TinyGame:
    """The two sizes `masked_space` reads, for a small module."""

    def __init__(self, obs_size: int, actions: int):
        self.obs_size, self.num_actions = obs_size, actions

    def observation_space(self):
        import gymnasium

        return gymnasium.spaces.Box(0, np.inf, (self.obs_size,), np.float32)

    def action_space(self):
        import gymnasium

        return gymnasium.spaces.Discrete(self.num_actions)


def test_masked_module_never_samples_an_illegal_action():
    torch.manual_seed(0)
    module = _module()
    with torch.no_grad():  # a strong preference for action 0, which is never legal
        module.net.pi.bias[0] = 50.0
    rng = np.random.default_rng(1)
    sparse = rng.random((512, 40)) * (rng.random((512, 40)) < 0.2)
    obs = torch.as_tensor(sparse, dtype=torch.float32)
    mask = torch.as_tensor(rng.random((512, 12)) < 0.3, dtype=torch.int8)
    mask[:, 0] = 0
    mask[torch.arange(512), torch.as_tensor(rng.integers(1, 12, 512))] = 1
    mask[-1] = 0  # an ended episode's last observation: no legal action at all
    batch = {Columns.OBS: {OBS_KEY: obs, MASK_KEY: mask}}
    logits = module.forward_exploration(batch)[Columns.ACTION_DIST_INPUTS]
    assert torch.isfinite(logits).all()
    dist = module.get_exploration_action_dist_cls().from_logits(logits)
    for _ in range(50):
        acts = dist.sample()
        assert bool(mask[torch.arange(511), acts[:511]].all())
    greedy = dist.to_deterministic().sample()
    assert bool(mask[torch.arange(511), greedy[:511]].all())
    values = module.compute_values(batch)
    assert values.shape == (512,) and torch.isfinite(values).all()


def test_agent_module_plays_the_agents_legal_choices():
    game = get_game("noir")
    spec = RLModuleSpec(module_class=AgentModule, observation_space=masked_space(game),
                        action_space=action_space(game),
                        model_config={"agent": "heuristic", "seed": 0})  # fmt: skip
    module = spec.build()
    env = MaskedVectorEnv(8, num_players=4, opponents="random")
    obs, _ = env.reset(seed=0)
    acts = module.forward_inference({Columns.OBS: obs})[Columns.ACTIONS]
    np.testing.assert_array_equal(acts, agents.load("heuristic").act(obs[OBS_KEY], obs[MASK_KEY]))


def test_export_is_the_policy_file_agents_load_plays(tmp_path):
    from agents.ppo.file import save_policy

    game = get_game("noir")
    spec = RLModuleSpec(module_class=MaskedPolicyModule, observation_space=masked_space(game),
                        action_space=action_space(game),
                        model_config={"hidden": [64, 32], "game": "noir"})  # fmt: skip
    module = spec.build()
    with torch.no_grad():
        module.net.update_obs_stats(torch.rand(100, game.obs_size) * 3)
    net = net_from_module_state(module.get_state(), "noir")
    assert net.config == {"obs_size": game.obs_size, "num_actions": game.num_actions,
                          "hidden": [64, 32], "game": "noir"}  # fmt: skip
    save_policy(net, tmp_path / "p.pt")
    player = agents.load(str(tmp_path / "p.pt"))
    env = MaskedVectorEnv(32, num_players=4)
    obs, _ = env.reset(seed=1)
    batch = {Columns.OBS: {k: torch.as_tensor(v) for k, v in obs.items()}}
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS]
    agree = (logits.argmax(1).numpy() == player.act(obs[OBS_KEY], obs[MASK_KEY])).mean()
    assert agree >= 0.95  # float16 weights in the file: a near tie may flip
    with pytest.raises(ValueError, match="not the state of a MaskedPolicyModule"):
        net_from_module_state({"net.pi.weight": np.zeros((3, 4))}, "noir")
    with pytest.raises(ValueError, match="not an RLlib algorithm checkpoint"):
        module_dir(tmp_path)
    with pytest.raises(ValueError, match="not an RLlib algorithm checkpoint"):
        export_checkpoint(tmp_path / "nothing")


def test_roles_are_drawn_per_game_from_its_seed():
    """Each game draws a league entry by weight: the learner in every seat, or in one seat
    (uniform over the game's seats) against the entry's module; the same seed, the same
    draws; the policy mapping reads the module from the agent id."""
    roles = [(LEARNER, 1.0), ("opponent_1", 3.0)]
    config = {"num_players": [3, 4, 5], "roles": roles}

    def draws(seed: int) -> list[list[str]]:
        env = SelfPlayMultiAgentEnv(config)
        env.reset(seed=seed)
        out = []
        for _ in range(400):
            out.append(list(env.agents))
            env._next = None  # a fresh game without playing this one out
            env.reset()
        return out

    games = draws(1)
    assert games == draws(1) and games != draws(2)
    pure = 0
    learner_seats = []
    for names in games:
        modules = [module_of(a) for a in names]
        assert [a.split(":")[1] for a in names] == [f"player_{s}" for s in range(len(names))]
        if set(modules) == {LEARNER}:
            pure += 1
        else:
            assert modules.count(LEARNER) == 1 and set(modules) == {LEARNER, "opponent_1"}
            learner_seats.append(modules.index(LEARNER) / (len(names) - 1))
    assert 0.17 < pure / 400 < 0.33
    assert 0.4 < np.mean(learner_seats) < 0.6  # spread over all seats, the last included
