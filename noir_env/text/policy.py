"""What a text player does with a reply that names no legal move: ask again (`retries`
times, telling it what was wrong), then take the `fallback` move, counting both.

    policy = InvalidMovePolicy(retries=2, fallback="random")
    action = policy.decide(fn, prompt, view, state, i, counts)

Fallbacks: "first" (the first legal move in the list), "random" (a uniformly random legal
move, seeded), "raise" (raise the last InvalidReply: the game stops), or any agent with the
batched protocol `act(obs, mask)` (e.g. `agents.load("heuristic")`), asked with the seat's
own observation.

A fallback move is the fallback's, not the player's: a game where it decides much measures
the fallback. So once a player has taken `warn_after` decisions and more than `warn_rate`
of them fell back, a `FallbackWarning` is issued (`warnings.warn`) and logged (logger
"noir_env.text"), once per player; `warn_rate=None` turns it off.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .parse import InvalidReply

FALLBACKS = ("first", "random", "raise")
RETRY_NOTE = "Your reply was not accepted: {error}. Answer again with one legal move."
LOG = logging.getLogger("noir_env.text")


class FallbackWarning(UserWarning):
    """A text player's moves are mostly the fallback's: its replies name no legal move."""


@dataclass
class TextCounts:
    """What one text player did: decisions taken, replies asked for (first tries and
    retries), replies that named no legal move, decisions the fallback took. `who`: the
    player, as the fallback warning names it."""

    decisions: int = 0
    replies: int = 0
    invalid: int = 0
    fallbacks: int = 0
    who: str = field(default="a text player", compare=False, repr=False)
    warned: bool = field(default=False, compare=False, repr=False)  # the warning was given


@dataclass
class InvalidMovePolicy:
    """Retries, then a fallback (module docstring)."""

    retries: int = 2
    fallback: Any = "first"
    seed: int | None = 0
    warn_rate: float | None = 0.1
    warn_after: int = 20
    _rng: np.random.Generator = field(init=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("retries", "warn_after"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 0:
                raise ValueError(f"{name} must be an int >= 0, got {value!r}")
        rate = self.warn_rate
        if rate is not None and (
            isinstance(rate, bool) or not isinstance(rate, int | float) or not 0 <= rate <= 1
        ):
            raise ValueError(f"warn_rate must be a number in [0, 1] or None, got {rate!r}")
        fb = self.fallback
        if isinstance(fb, str) and fb not in FALLBACKS:
            raise ValueError(f"fallback must be one of {FALLBACKS} or an agent, got {fb!r}")
        if not isinstance(fb, str) and not callable(getattr(fb, "act", None)):
            raise ValueError(
                f"fallback must be one of {FALLBACKS} or an agent with act(obs, mask), got {fb!r}"
            )
        self._rng = np.random.default_rng(self.seed)

    def decide(self, fn: Callable[[str], str], prompt: str, view, state, i: int,
               counts: TextCounts) -> int:  # fmt: skip
        """The action of game i's seat to act: `fn`'s reply to `prompt`, parsed by `view`;
        after an invalid reply `fn` is asked again with the error appended, `retries`
        times, then the fallback decides."""
        ask, tries = prompt, 0
        while True:
            action, error = self.judge(fn(ask), view, state, i, counts, tries)
            if action is not None:
                return action
            ask, tries = prompt + "\n\n" + RETRY_NOTE.format(error=error), tries + 1

    def judge(self, reply: str, view, state, i: int, counts: TextCounts,
              tries: int) -> tuple[int | None, InvalidReply | None]:  # fmt: skip
        """One reply to game i's decision, after `tries` invalid ones (counted in
        `counts`): (its action, None); (None, the error) while retries are left; else (the
        fallback's action, None)."""
        counts.decisions += tries == 0
        counts.replies += 1
        try:
            action = view.parse(reply, state, i)
        except InvalidReply as err:
            counts.invalid += 1
            if tries < self.retries:
                return None, err
            action = self.fallback_action(view, state, i, counts, err)
        self.check_rate(counts)
        return action, None

    def check_rate(self, counts: TextCounts) -> None:
        """Warn once (module docstring) when `counts`' fallback rate passes `warn_rate`."""
        if self.warn_rate is None or counts.warned or counts.decisions < self.warn_after:
            return
        if counts.fallbacks <= self.warn_rate * counts.decisions:
            return
        counts.warned = True
        message = (
            f"{counts.who}: the fallback ({self.fallback!r}) took {counts.fallbacks} of its "
            f"{counts.decisions} decisions ({counts.fallbacks / counts.decisions:.0%}, more "
            f"than {self.warn_rate:.0%}): its replies name no legal move, so these moves "
            f"are not the player's ({counts.invalid} invalid of {counts.replies} replies)"
        )
        LOG.warning(message)
        warnings.warn(message, FallbackWarning, stacklevel=2)

    def fallback_action(self, view, state, i: int, counts: TextCounts,
                        error: InvalidReply) -> int:  # fmt: skip
        """The fallback's move in game i (counted), or `error` raised for "raise"."""
        if self.fallback == "raise":
            raise error
        counts.fallbacks += 1
        moves = view.moves(state, i)
        if self.fallback == "first":
            return moves[0].id
        if self.fallback == "random":
            return moves[int(self._rng.integers(len(moves)))].id
        game = view.game
        one = state[i : i + 1]
        obs, mask = game.observe(one), game.legal_action_mask(one)
        action = int(np.asarray(self.fallback.act(obs, mask)).reshape(-1)[0])
        if not mask[0, action]:
            raise ValueError(f"the fallback agent chose an illegal move: "
                             f"{game.describe_illegal(one, 0, action)}")  # fmt: skip
        return action
