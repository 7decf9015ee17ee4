# mypy: disable-error-code="misc"
# (the variants are lambdas binding their loop values as defaults, whose types mypy does
# not infer)
"""The hostile probes of one game's readers, derived from a real played position: its state
dict (`state_from_dict`), its OpenSpiel state string (`deserialize_state`), its AEC history
(`noir_env.history.play_back`) and text replies to its prompt (`TextView.parse`), each where
the game has that reader. `probes(game, seed, marker)` lists them; nothing is built or read
until a probe runs (`outcomes.probe`).
"""

from __future__ import annotations

import base64
import json
import pickle
from collections.abc import Callable
from typing import Any

import numpy as np

from ..engine.protocol import Game
from .outcomes import Probe
from .values import DEEP, HUGE, code_payload, int_edges, text_variants, variants

PLAY_STEPS = 200  # decisions an accepted input is played on for its check


def played(game: Game, seed: int, steps: int):
    """A batch of one game after `steps` random legal decisions (fewer if it ends)."""
    state = game.init(1, seeds=seed)
    game.random_playout(state, seed=seed, max_steps=steps, parallel=False)
    return state


def plays(game: Game, state: Any) -> None:
    """An accepted state works: it is a batch of one of the game's states, its actor has a
    legal action (none once over), every seat observes it, it round-trips through its dict
    form, and random play from it keeps every invariant."""
    game.layout.check(state)
    assert state.shape == (1,), f"a batch of {state.shape} games"
    actor = int(game.current_player(state)[0])
    mask = game.legal_action_mask(state)[0]
    assert (actor >= 0) == bool(mask.any()), f"actor {actor} with {int(mask.sum())} legal"
    assert actor < int(game.num_players(state)[0]), f"actor {actor} is no seat of the game"
    for seat in range(int(game.num_players(state)[0])):
        assert np.isfinite(game.observe(state, seat)).all(), "an observation is not finite"
    game.state_from_dict(game.state_to_dict(state))
    playout = game.random_playout(game.clone(state), seed=1, max_steps=PLAY_STEPS, check=True,
                                  parallel=False)  # fmt: skip
    assert not playout.problems(), playout.problems()


def state_dict_probes(game: Game, seed: int, marker: str) -> list[Probe]:
    """Every hostile variant of the dicts of a position in play and of a finished game."""
    edges = int_edges(game.layout.dtype)
    out = []
    for when, steps in (("in play", 12), ("over", 100_000)):
        position = played(game, seed, steps)
        plays(game, position)  # the check passes on the real position (and is compiled)
        real = game.state_to_dict(position)
        for v in variants(real, edges, marker):
            out.append(Probe(f"{game.name} state dict", f"{when}: {v.where()} {v.label}",
                             lambda v=v, real=real: v.build(real), game.state_from_dict,
                             lambda s: plays(game, s)))  # fmt: skip
    out.append(Probe(f"{game.name} state dict", "not a dict: a list", lambda: [1, 2],
                     game.state_from_dict, lambda s: plays(game, s)))  # fmt: skip
    return out


def _spiel_plays(state: Any) -> None:
    """An accepted OpenSpiel state plays on to its end (or `PLAY_STEPS` decisions)."""
    rng = np.random.default_rng(0)
    for _ in range(PLAY_STEPS):
        if state.is_terminal():
            return
        if state.is_chance_node():
            state.apply_action(int(rng.integers(len(state.chance_outcomes()))))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    str(state)


def pickle_payload(marker: str) -> bytes:
    """A pickle that, loaded, writes `marker` (what a reader that unpickles would run)."""

    class Payload:
        def __reduce__(self):
            return (open, (marker, "w"))

    return pickle.dumps(Payload(), protocol=2)  # the protocol torch.save writes


def openspiel_probes(game: Game, seed: int, marker: str) -> list[Probe]:
    """Hostile variants of the serialized OpenSpiel state of a position in play (games the
    OpenSpiel bridge has; none without pyspiel)."""
    try:
        from ..openspiel.game import GAMES, deal, load_game
    except ImportError:
        return []
    if game.name not in GAMES:
        return []
    spiel = load_game(game.name)
    state = deal(spiel, seed)
    rng = np.random.default_rng(seed)
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    text = state.serialize()
    record = json.loads(text)
    reader = f"{game.name} OpenSpiel string"
    out = []
    for v in variants(record, int_edges(game.layout.dtype), marker):
        if v.label.startswith("deep"):  # json.dumps cannot write it: the text variants nest
            continue
        out.append(Probe(reader, f"{v.where()} {v.label}",
                         lambda v=v: json.dumps(v.build(record)), spiel.deserialize_state,
                         _spiel_plays))  # fmt: skip
    pickled = base64.b64encode(pickle_payload(marker)).decode()
    texts = [*text_variants(text, code_payload(marker)),
             ("pyspiel's pickled form", lambda: f"history=0\n__dict__={pickled}")]  # fmt: skip
    for label, make in texts:
        out.append(Probe(reader, label, make, spiel.deserialize_state, _spiel_plays))
    return out


def history_probes(game: Game, seed: int, marker: str) -> list[Probe]:
    """Hostile variants of the AEC env's history of a game in play (games with an AEC env
    name in `noir_env.history.GAME_OF_ENV`)."""
    from ..aec import GameAECEnv
    from ..history import GAME_OF_ENV, play_back

    if game.name not in GAME_OF_ENV.values():
        return []
    env = GameAECEnv(game.name)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(15):
        if not env.agents:
            break
        legal = np.flatnonzero(env.action_mask())
        env.step(int(rng.choice(legal)) if legal.size else None)
    real = json.loads(json.dumps(env.history))

    def read(history: Any) -> Any:
        return play_back(history, game=game.name)

    def check(e: Any) -> None:
        for _ in range(PLAY_STEPS):
            if not e.agents:
                return
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(e.action_mask()))))

    edges = int_edges(game.layout.dtype)
    return [Probe(f"{game.name} history", f"{v.where()} {v.label}",
                  lambda v=v: v.build(real), read, check)
            for v in variants(real, edges, marker)]  # fmt: skip


def text_reply_probes(game: Game, seed: int, marker: str) -> list[Probe]:
    """Hostile replies to the text prompt of a position in play (games `TextView` shows)."""
    from ..text.view import TextView

    try:
        view = TextView(game)
        state = played(game, seed, 12)
        moves = view.moves(state)
    except (ValueError, KeyError, NotImplementedError):
        return []
    if not moves:
        return []
    legal = set(np.flatnonzero(game.legal_action_mask(state)[0]).tolist())

    def check(action: Any) -> None:
        assert int(action) in legal, f"chose {action}, not a legal action"

    first = moves[0].name
    replies: list[tuple[str, Callable[[], Any]]] = [
        ("huge number", lambda: "9" * HUGE),
        ("huge answer", lambda: "Answer: " + "9" * HUGE),
        ("number 0", lambda: "0"),
        ("negative number", lambda: "-1"),
        ("number past the list", lambda: str(len(moves) + 1)),
        ("deep brackets", lambda: "[" * DEEP + "1" + "]" * DEEP),
        ("huge prose", lambda: "word " * HUGE),
        ("NUL bytes", lambda: "\x00" * 1000),
        ("unicode digits", lambda: "\u0663"),
        ("surrogate", lambda: "\udcff"),
        ("code payload", lambda: code_payload(marker)),
        ("format payload", lambda: "{0.__class__.__mro__}" + "{}" * 100),
        ("empty", lambda: ""),
        ("None", lambda: None),
        ("bytes", lambda: first.encode()),
        ("a list", lambda: [first]),
        ("name twice, bracketed", lambda: f"[{first}] [{first}{first}]"),
        ("name and garbage", lambda: first + "\x07" * 100),
        ("every name", lambda: " ".join(game.action_names) * 50),
        ("NaN", lambda: "nan"),
    ]
    return [Probe(f"{game.name} text reply", label, make,
                  lambda reply: view.parse(reply, state), check)
            for label, make in replies]  # fmt: skip


READERS = {
    "state dict": state_dict_probes,
    "OpenSpiel string": openspiel_probes,
    "history": history_probes,
    "text reply": text_reply_probes,
}


def probes_of(game: str, seed: int, marker: str) -> list[Probe]:
    """`probes` of the registered game called `game` (what a child process rebuilds)."""
    from ..engine.registry import get_game

    return probes(get_game(game), seed, marker)


def probes(game: Game, seed: int, marker: str) -> list[Probe]:
    """Every hostile probe of `game`'s readers, in a fixed order (the same for a seed)."""
    return [p for make in READERS.values() for p in make(game, seed, marker)]
