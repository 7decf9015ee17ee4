"""The OpenSpiel state: one game of the batched core (a batch of one) behind `pyspiel.State`.

Everything is the core's: `legal_actions` reads its mask, `apply_action` runs its compiled
step, `returns` its outcome, `resample_from_infostate` its belief sampling
(`Game.sample_hidden`). What is added here is bookkeeping OpenSpiel asks for: the number of
decisions (for `max_game_length`) and, per player, the digest of what it has observed so far
(the perfect-recall part of `information_state_string`).
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

if TYPE_CHECKING:
    from .game import SpielGame


def public_bytes(core: Any, state: Any) -> np.ndarray:
    """uint8 indices of the record's bytes that every seat sees: all fields but the game's
    `hidden_fields` (the seats' own hands are added per seat)."""
    dtype = state.dtype
    keep = np.zeros(dtype.itemsize, np.bool_)
    for name in dtype.names:
        if name not in core.hidden_fields:
            offset = dtype.fields[name][1]
            keep[offset : offset + dtype.fields[name][0].itemsize] = True
    return np.flatnonzero(keep)


class SpielState(pyspiel.State):
    """A game in progress (built by `SpielGame.new_initial_state` or `deal`)."""

    def __init__(self, game: SpielGame, state: Any, digests: list[bytes] | None = None,
                 length: int = 0) -> None:  # fmt: skip
        super().__init__(game)
        # only plain data in __dict__: OpenSpiel's Clone deep-copies it and Serialize pickles
        # it (the game object itself cannot be pickled: it is sampled stochastic). The game
        # is kept as a plain structured array: a recarray's field lookups cost microseconds,
        # and OpenSpiel asks for the current player many times a step
        self._raw = np.ndarray.view(state, np.ndarray)
        self._length = length
        self._digests = [b""] * game.num_seats if digests is None else list(digests)
        if digests is None:
            self._observe_step(-1, -1)  # the deal: each seat's first observation

    @property
    def core_state(self) -> Any:
        """The core's batch of one game (a view: read it, never step it)."""
        return self._raw.view(np.recarray)

    @property
    def _game(self) -> SpielGame:
        return self.get_game()

    @property
    def _core(self) -> Any:
        return self.get_game().core_game

    # --- the game's course --------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, or `pyspiel.PlayerId.TERMINAL`."""
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return int(self._raw["actor"][0])

    def is_terminal(self) -> bool:
        """Whether the game is over (or cut at `max_game_length` decisions: a draw)."""
        return bool(self._raw["actor"][0] < 0) or self._length >= self._game.max_length

    def _legal_actions(self, player: int) -> list[int]:
        """The core's legal actions of `player`, ascending (none for a seat not to act)."""
        if player != self.current_player():
            return []
        return np.flatnonzero(self._raw["mask"][0]).tolist()

    def _apply_action(self, action: int) -> None:
        """One decision of the current player: the core's compiled step (ValueError naming
        the action, the phase and the legal actions if it is illegal)."""
        seat = self.current_player()
        if seat < 0:
            raise ValueError("the game is over: no action can be applied")
        kv = self._core.kernel_view(self._raw)
        rewards = np.zeros((1, self._core.max_players), np.float32)
        done, illegal = np.zeros(1, np.bool_), np.zeros(1, np.bool_)
        self._core.kernels.step_one(kv, 0, int(action), rewards, done, illegal)
        if illegal[0]:
            raise ValueError(self._core.describe_illegal(self.core_state, 0, int(action)))
        self._length += 1
        self._observe_step(seat, int(action))

    def _observe_step(self, seat: int, action: int) -> None:
        """Fold this step into every seat's observation digest: the public part of the
        state, the seat's own hand, and its own action when it acted."""
        raw = self._raw.view(np.uint8).reshape(-1)
        public = hashlib.blake2b(raw[self._game.public_index].tobytes(), digest_size=16)
        step = public.digest()
        hands = self._raw["hand"][0]
        self._digests = [
            hashlib.blake2b(
                d
                + step
                + hands[q].tobytes()
                + (action if q == seat else -1).to_bytes(4, "little", signed=True),
                digest_size=16,
            ).digest()
            for q, d in enumerate(self._digests)
        ]

    def _action_to_string(self, player: int, action: int) -> str:
        """The core's stable name of `action` (seat-relative, so the same for every player)."""
        return self._core.action_name(int(action))

    def returns(self) -> list[float]:
        """The core's zero-sum outcome once the game is over; 0 each before, and after a cut
        at `max_game_length`."""
        n = self._game.num_seats
        if self._raw["actor"][0] >= 0:
            return [0.0] * n
        # the core's outcome is float32; its values are 0 and +-1/k for k players at most,
        # restored exactly here so that the returns sum to zero in double precision too
        outcome = self._core.outcome(self.core_state)[0, :n]
        return [float(Fraction(float(r)).limit_denominator(n)) for r in outcome]

    # --- information ----------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state `player_id` cannot tell from this one: the core's belief sampling re-deals
        the other hands, the draw pile and the generator of future chance, with a seed drawn
        from `probability_sampler` (a callable giving floats in [0, 1))."""
        seed = int(float(probability_sampler()) * 2**62)
        world = self._core.sample_hidden(self.core_state, int(player_id), seeds=[seed])
        out = self.clone()  # the same actions so far (OpenSpiel's history), another deal
        out._raw = np.ndarray.view(world, np.ndarray)
        return out

    def observation(self, player: int) -> np.ndarray:
        """float32 [obs_size]: the core's observation of `player`."""
        return self._core.observe(self.core_state, int(player))[0]

    def board(self, player: int | None) -> str:
        """The renderer's text of the game from `player`'s view (None: only what is public)."""
        return self._core.render(self.core_state, 0, player, self._game.rules)

    def history_digest(self, player: int) -> str:
        """Hex digest of everything `player` has observed so far (perfect recall)."""
        return self._digests[player].hex()

    def __str__(self) -> str:
        return self.board(None)
