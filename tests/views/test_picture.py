"""The board as a picture (noir_env.picture): every state of random games draws as valid SVG
and as an array of one fixed shape, in both games and at 3-6 players; a seat's picture
holds exactly what that seat may know; the environments' rgb_array mode."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from noir_env import core, district, district_noir_v0, noir_v2
from noir_env.picture import Board, board, scene
from noir_env.picture.scene import svg_parts

SHAPE = (720, 1280, 3)
SVG = "{http://www.w3.org/2000/svg}"


def _check_svg(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # raises on malformed XML
    assert root.tag == f"{SVG}svg"
    assert (root.get("width"), root.get("height")) == ("1280", "720")
    return root


def _face_cards(root: ET.Element) -> list[tuple[int, str, bool]]:
    """(seat, card, known) of every face-up card in a hand."""
    return [(int(g.get("data-seat")), g.get("data-card"), g.get("data-known") == "1")
            for g in root.iter(f"{SVG}g")
            if g.get("class") == "card face" and g.get("data-seat") is not None]  # fmt: skip


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])


@pytest.mark.parametrize("rules", ["noirburg", "original"])  # original: raze-first attacks
def test_every_noir_state_draws_at_3_to_6_players(rules):
    """One random game per player count, drawn after every decision to its end: the
    spectator's SVG and the acting seat's each time, every seat's every 10th decision; the
    array (20 ms a drawing) every 3rd decision and at the end."""
    rng = np.random.default_rng(0)
    state = core.init(4, np.array([3, 4, 5, 6]), rules, seeds=11, ask_all=True)
    drawn, arrays, seen_phases = 0, 0, set()
    for step in range(3000):
        live = core.current_player(state) >= 0
        for i in range(4):
            if not live[i] and int(state.steps[i]) != step:  # ended earlier: drawn already
                continue
            n = int(state.num_players[i])
            pic = board(state, i)
            cards = _face_cards(_check_svg(pic.svg))
            assert len(cards) == int(state.hand[i, :n].sum())  # the spectator sees every hand
            if step % 3 == 0 or not live[i]:
                rgb = pic.rgb()
                assert rgb.shape == SHAPE and rgb.dtype == np.uint8
                arrays += 1
            seats = range(n) if step % 10 == 0 else [max(0, int(state.actor[i]))]
            for q in seats:
                _check_svg(board(state, i, q).svg)
            seen_phases.add(int(state.phase[i]))
            drawn += 1
        if not live.any():
            break
        core.step(state, _random_actions(core.legal_action_mask(state), rng))
    assert not (core.current_player(state) >= 0).any()  # every game drawn to its end
    assert drawn > 1000 and arrays > drawn // 4 and len(seen_phases) >= 10


def test_every_district_noir_state_draws():
    rng = np.random.default_rng(1)
    state = district.init(3, seeds=4)
    for _ in range(60):
        for i in range(3):
            pic = board(state, i)
            root = _check_svg(pic.svg)
            assert len(_face_cards(root)) == int(state.hand[i].sum())
            assert pic.rgb().shape == SHAPE
            for q in (0, 1):
                seat_root = _check_svg(board(state, i, q).svg)
                assert {s for s, _, _ in _face_cards(seat_root)} <= {q}
        mask = district.legal_action_mask(state)
        if not mask.any():
            break
        district.step(state, _random_actions(mask, rng))
    assert (district.current_player(state) < 0).all()


def _played_noir(n: int, steps: int, seed: int, rules: str = "noirburg") -> core.State:
    rng = np.random.default_rng(seed)
    state = core.init(8, n, rules, seeds=seed, ask_all=True)
    for _ in range(steps):
        core.step(state, _random_actions(core.legal_action_mask(state), rng))
    return state


@pytest.mark.parametrize("n", [3, 6])
def test_a_seat_picture_is_a_function_of_what_it_may_know(n):
    """Re-dealing everything a seat cannot see (the other hands, the draw pile) leaves its
    picture unchanged to the byte, while the spectator's picture, which shows every hand,
    changes; the only face-up cards of other seats are those publicly known (R7.3)."""
    state = _played_noir(n, 120, seed=n, rules="original" if n == 3 else "noirburg")
    changed = known_shown = 0
    for i in range(len(state)):
        for seat in range(n):
            worlds = core.sample_hidden(core.take(state, i), seat, seeds=[7])
            assert board(worlds, 0, seat).svg == board(state, i, seat).svg
            changed += board(worlds, 0).svg != board(state, i).svg
            for q, card, known in _face_cards(_check_svg(board(state, i, seat).svg)):
                assert q == seat or known, (q, card)
                known_shown += q != seat
            want = sum(int(state.known[i, q].sum()) for q in range(n) if q != seat)
            assert sum(1 for q, _, _ in _face_cards(_check_svg(board(state, i, seat).svg))
                       if q != seat) == want  # fmt: skip
    assert changed > 0


def test_public_parts_are_the_same_from_every_viewpoint():
    """Decoding any seat's observation gives the same public table: only the hands and the
    'view:' label differ between viewpoints, which the replay viewer relies on."""
    state = _played_noir(5, 200, seed=3)
    for i in range(len(state)):
        views = [svg_parts(scene(state, i, v)) for v in [None, *range(5)]]
        for name in views[0]:
            if name.startswith(("seat", "head")):
                assert len({v[name] for v in views}) == 1, name


def test_bad_viewpoint_and_state():
    state = core.init(1, 3, seeds=0)
    with pytest.raises(ValueError, match="viewpoint"):
        board(state, 0, 3)
    with pytest.raises(ValueError, match="NOIR and District Noir"):
        board(np.zeros(3), 0)


def test_board_object_shows_in_notebooks_and_saves(tmp_path):
    pic = board(core.init(1, 4, seeds=2), 0, 1)
    assert isinstance(pic, Board) and pic._repr_svg_() == pic.svg
    pic.save(tmp_path / "b.svg")
    pic.save(str(tmp_path / "b.png"))
    assert (tmp_path / "b.svg").read_text().startswith("<svg")
    assert (tmp_path / "b.png").read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("n", [3, 6])
def test_noir_env_rgb_array(n):
    env = noir_v2.env(num_players=n, render_mode="rgb_array")
    env.reset(seed=n)
    frames = []
    for agent in env.agent_iter(max_iter=60):
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else env.action_space(agent).sample(obs["action_mask"]))
        frames.append(env.render())
    assert {f.shape for f in frames} == {SHAPE} and frames[0].dtype == np.uint8
    assert any((a != b).any() for a, b in zip(frames, frames[1:], strict=False))
    mine = env.unwrapped.picture("player_1")
    assert {q for q, _, k in _face_cards(_check_svg(mine.svg)) if not k} <= {1}


def test_district_env_rgb_array():
    env = district_noir_v0.env(render_mode="rgb_array")
    env.reset(seed=3)
    assert env.render().shape == SHAPE
    with pytest.raises(ValueError, match="render_mode"):
        district_noir_v0.env(render_mode="rgb")


def test_rgb_without_pillow_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "PIL", None)  # import PIL now raises ImportError
    env = noir_v2.env(render_mode="rgb_array")
    env.reset(seed=0)
    with pytest.raises(ImportError, match=r"noir_env\[render\]"):
        env.render()
    assert env.unwrapped.picture().svg.startswith("<svg")  # SVG needs no Pillow


@pytest.mark.parametrize("env_id", ["noir_env/Noir-v2", "noir_env/DistrictNoir-v0"])
def test_gymnasium_env_renders_frames_for_video(env_id):
    """The single-seat Gymnasium env's rgb_array frames, collected by Gymnasium's own
    RenderCollection wrapper (what RecordVideo reads, without its moviepy dependency)."""
    import gymnasium as gym
    from gymnasium.wrappers import RenderCollection

    import noir_env  # noqa: F401  (registers the ids)

    env = RenderCollection(gym.make(env_id, render_mode="rgb_array"))
    obs, info = env.reset(seed=0)
    for _ in range(5):
        action = int(np.flatnonzero(info["action_mask"])[0])
        obs, _, term, trunc, info = env.step(action)
        if term or trunc:
            break
    frames = env.render()
    assert len(frames) >= 2 and {f.shape for f in frames} == {SHAPE}


def test_observation_with_a_pending_attack_but_no_target_is_refused():
    """An observation that says an attack is pending on a seat none of whose places is the
    attack's target (no core writes one) is refused by name, not drawn with no place."""
    from noir_env.core.observe import GLOBAL_OFFSETS
    from noir_env.picture.noir_view import decode

    o = core.observe(core.init(1, 4, seeds=0), 0)[0].copy()
    decode(o, 0)  # the dealt game decodes
    o[GLOBAL_OFFSETS["attack_pending"][0]] = 1.0
    o[GLOBAL_OFFSETS["attack_target_seat"][0] + 1] = 1.0  # the next seat, no place flagged
    with pytest.raises(ValueError, match="an attack on seat 1 is pending"):
        decode(o, 0)
