"""Who is asked reveals nothing hidden (docs/RULES.md R7.2, R2.5, D39).

Measured through the public AEC API over random games of every preset and player count: the
mutual information between "seat q was asked in a reaction window this turn" (or "the active
player was presented turn step X") and "q holds a reaction card" (or "a card it could deploy"),
conditioned on what is public (hand size, number of players), is below 1% of the prior entropy.
The same measurement on the core's fast mode (`ask_all=False`), where forced decisions are
skipped, finds the leak, which shows the measurement can fail.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from noir_env import core, noir_v2
from noir_env.core import constants as C

REACTIONS = [C.POKER, C.POLICE, C.BRIBE, C.DRIVEBY, C.TURNCOAT]
DEPLOYABLE = list(range(C.G1, C.B4 + 1))
STEPS = {  # the idle phases in which each turn step is presented
    C.PH_MOVE: "move_gangsters",
    C.PH_ATTACK: "attack",
    C.PH_DEPLOY: "deploy",
    C.PH_MOVE_HIDEOUT: "move_hideout",
    C.PH_DISCARD: "discard",
    C.PH_DRAW: "draw",
}


def _entropy(counts) -> float:
    p = np.asarray(list(counts), float)
    p = p[p > 0] / p.sum()
    return float(-(p * np.log2(p)).sum())


def relative_information(samples: list[tuple]) -> float:
    """I(X; Y | Z) / H(Y | Z) from (z, x, y) samples: the share of the uncertainty about the
    hidden y that observing x removes, given the public z."""
    by_z: dict = {}
    for z, x, y in samples:
        by_z.setdefault(z, []).append((x, y))
    total = len(samples)
    mi = h_y = 0.0
    for rows in by_z.values():
        w = len(rows) / total
        hy = _entropy(Counter(y for _, y in rows).values())
        hx = _entropy(Counter(x for x, _ in rows).values())
        hxy = _entropy(Counter(rows).values())
        mi += w * (hx + hy - hxy)
        h_y += w * hy
    return mi / h_y


STEP_OF_PHASE = {
    C.PH_MOVE: C.ST_MOVE,
    C.PH_ATTACK: C.ST_ATTACK,
    C.PH_DEPLOY: C.ST_DEPLOY,
    C.PH_MOVE_HIDEOUT: C.ST_MOVE_HIDEOUT,
    C.PH_DISCARD: C.ST_DISCARD,
    C.PH_DRAW: C.ST_DRAW,
}


class Recorder:
    """Per turn: which seats were asked in a window and, at every decision, the turn step and
    the active player's hand (hidden: read from the state for the measurement only)."""

    def __init__(self):
        self.turns: dict = {}

    def see(self, game, state, seat: int) -> None:
        key = (game, int(state.turn_no[0]))
        n = int(state.num_players[0])
        turn = self.turns.setdefault(
            key,
            {
                "n": n,
                "round_1": int(state.turn_no[0]) < n,
                "rules": state.rules[0].tobytes(),
                "order": C.STEP_ORDER_PREP_FIRST if state.rules[0, 0] else C.STEP_ORDER_NOIRBURG,
                "active": int(state.active[0]),
                "alive": state.alive[0].copy(),
                "hand": state.hand[0].copy(),
                "asked": set(),
                "decisions": [],
            },
        )
        phase = int(state.phase[0])
        if phase == C.PH_WINDOW:
            turn["asked"].add(seat)
        if phase != C.PH_MULLIGAN:
            active_hand = state.hand[0, turn["active"]].copy()
            turn["decisions"].append((int(state.step_idx[0]), phase, seat, active_hand))

    def window_samples(self) -> list[tuple]:
        """(public: rules, players, hand size; asked this turn; holds a reaction card) per
        seat."""
        out = []
        for t in self.turns.values():
            for q in range(t["n"]):
                if t["alive"][q]:
                    hand = t["hand"][q]
                    z = (t["rules"], t["n"], int(hand.sum()))
                    out.append((z, q in t["asked"], bool(hand[REACTIONS].any())))
        return out

    def step_samples(self, phase: int, cards: list[int]) -> list[tuple]:
        """(public: rules, players, round 1, hand size when the step came; the step was presented;
        the hand then held one of `cards`) per turn. A skipped step changes no hand, so the
        hand at the next decision of the turn is the hand the step was skipped with."""
        out = []
        for t in self.turns.values():
            pos = int(np.flatnonzero(t["order"] == STEP_OF_PHASE[phase])[0])
            # windows are passed over: the one before the Attack step comes before the step,
            # and a card played there leaves the hand in view of everyone
            after = [d for d in t["decisions"] if d[0] >= pos and d[1] in STEP_OF_PHASE]
            if not after:
                continue
            hand = after[0][3]
            shown = any(d[1] == phase and d[2] == t["active"] for d in t["decisions"])
            z = (t["rules"], t["n"], t["round_1"], int(hand.sum()))
            out.append((z, shown, bool(hand[cards].any())))
        return out


def _play_aec(recorder: Recorder, games: int) -> None:
    g = 0
    for rules in ("noirburg", "noirbrough", "original"):
        for n in (3, 4, 5, 6):
            for seed in range(games):
                env = noir_v2.env(num_players=n, rules=rules, max_steps=3000)
                env.reset(seed=seed)
                rng = np.random.default_rng(seed)
                for agent in env.agent_iter():
                    obs, _, term, trunc, _ = env.last()
                    if term or trunc:
                        env.step(None)
                        continue
                    recorder.see(g, env.unwrapped.state, env.unwrapped._seat[agent])
                    env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                g += 1


def _play_fast_core(recorder: Recorder, games: int) -> None:
    """The same random play on the core's fast mode, where forced decisions are skipped."""
    g = 0
    for rules in ("noirburg", "noirbrough", "original"):
        for n in (3, 4, 5, 6):
            for seed in range(games):
                s = core.init(1, n, rules, seeds=seed)
                rng = np.random.default_rng(seed)
                for _ in range(3000):
                    if s.phase[0] == C.PH_GAME_OVER:
                        break
                    recorder.see(g, s, int(s.actor[0]))
                    core.step(s, np.array([rng.choice(np.flatnonzero(s.mask[0]))]))
                g += 1


@pytest.fixture(scope="module")
def aec_turns() -> Recorder:
    rec = Recorder()
    _play_aec(rec, games=6)
    return rec


@pytest.fixture(scope="module")
def fast_turns() -> Recorder:
    rec = Recorder()
    _play_fast_core(rec, games=6)
    return rec


def test_being_asked_in_a_window_reveals_no_reaction_card(aec_turns, fast_turns):
    samples = aec_turns.window_samples()
    assert len(samples) > 5_000
    assert relative_information(samples) < 0.01
    assert relative_information(fast_turns.window_samples()) > 0.03  # the leak rules v1 closed


@pytest.mark.parametrize("phase", sorted(STEPS))
def test_being_shown_a_turn_step_reveals_nothing(aec_turns, phase):
    for cards in (REACTIONS, DEPLOYABLE):
        samples = aec_turns.step_samples(phase, cards)
        assert relative_information(samples) < 0.01, (STEPS[phase], cards)


def test_fast_mode_deploy_step_leaks(fast_turns):
    """The measurement has power: skipping Deploy when nothing can be deployed shows."""
    assert relative_information(fast_turns.step_samples(C.PH_DEPLOY, DEPLOYABLE)) > 0.1


def test_relative_information_of_known_cases():
    independent = [((0,), x, y) for x in (0, 1) for y in (0, 1)] * 10
    assert relative_information(independent) == pytest.approx(0.0)
    identical = [((0,), y, y) for y in (0, 1)] * 10
    assert relative_information(identical) == pytest.approx(1.0)
