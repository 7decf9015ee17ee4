"""Scripted opponents: five short, readable play styles on the observation and the mask only,
`agents.load("style-<name>")`.

    from agents import load
    rusher = load("style-rusher")
    actions = rusher.act(obs, mask)       # obs float32 [N, OBS_SIZE], mask [N, NUM_ACTIONS]

| name | plays for | in one line |
| --- | --- | --- |
| `rusher` | eliminations | gangsters first, everything at the weakest Hideout, Drive-by before it |
| `turtle` | money, countdown | never attacks; a full Hideout stack, a coin reserve, defends |
| `hoarder` | reaction cards | keeps and draws reactions, plays each where its use comes up |
| `racer` | the money win | businesses only, hoards a tribute from the win, Poker Nights |
| `bully` | the leader's fall | every attack and reaction at the opponent with the best score |

Each style is one module (`styles/<name>.py`, its docstring states its rules) that scores the
legal actions of a decision with the shared pieces of `styles.common` and the table reading
of `heuristic.table` and `heuristic.view` (the heuristic's). They are deterministic up to near-ties
(`seed`), batched in numba like the heuristic, and differ on purpose: an agent that beats
all of them has not learned one opponent.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from agents.heuristic.rule_agent import RuleAgent, seed_salt
from agents.heuristic.v1.policy import _idle, read_table, tie_break
from agents.styles import bully, hoarder, racer, rusher, turtle
from agents.styles.common import finish
from noir_env.core import constants as C
from noir_env.engine.jit import kernel
from noir_env.engine.refcount import borrowed

STYLE_NAMES = ("rusher", "turtle", "hoarder", "racer", "bully")
RUSHER, TURTLE, HOARDER, RACER, BULLY = range(5)


@kernel
def decide(o, mask, w, u):
    """The action of style `int(w[0])` (`STYLE_NAMES` order) for one observation row."""
    o, mask = borrowed(o), borrowed(mask)
    sc, only, info, avail, ph = read_table(o, mask)
    if only >= 0:
        return only
    style = int(w[0])
    if style == RUSHER:
        rusher.phase(o, info, avail, mask, sc, ph)
    elif style == TURTLE:
        turtle.phase(o, info, avail, mask, sc, ph)
    elif style == HOARDER:
        hoarder.phase(o, info, avail, mask, sc, ph)
    elif style == RACER:
        racer.phase(o, info, avail, mask, sc, ph)
    else:
        bully.phase(o, info, avail, mask, sc, ph)
    window = ph == C.PH_WINDOW
    if window or _idle(ph):
        if style == RUSHER:
            rusher.reactions(o, info, mask, sc, ph, window)
        elif style == TURTLE:
            turtle.reactions(o, info, mask, sc, ph, window)
        elif style == HOARDER:
            hoarder.reactions(o, info, mask, sc, ph, window)
        elif style == RACER:
            racer.reactions(o, info, mask, sc, ph, window)
        else:
            bully.reactions(o, info, mask, sc, ph, window)
    return finish(sc, u)


@kernel(parallel=True)
def act_rows(obs, mask, w, salt, out):
    """out[i] = the style's action for obs[i], mask[i], in parallel over rows."""
    for i in prange(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], w, tie_break(obs[i], salt))


@kernel
def act_rows_serial(obs, mask, w, salt, out):
    for i in range(obs.shape[0]):
        out[i] = decide(obs[i], mask[i], w, tie_break(obs[i], salt))


class StyleAgent(RuleAgent):
    """A scripted style (module docstring) with the batched protocol `act(obs[N, D],
    mask[N, A]) -> actions[N]`. style: a name in `STYLE_NAMES`. seed: varies how exact ties
    are broken; None is seed 0."""

    _kernels = (act_rows, act_rows_serial)

    def __init__(self, style: str, seed: int | None = None):
        if style not in STYLE_NAMES:
            raise ValueError(f"unknown style {style!r}; styles: {list(STYLE_NAMES)}")
        self.style = style
        self.name = f"style-{style}"
        self._weights = np.array([STYLE_NAMES.index(style)], np.float64)
        self._salt = seed_salt(seed)
