"""The OpenSpiel state: the deal's chance nodes, then one game of the batched core (a batch
of one) behind `pyspiel.State`.

Everything after the deal is the core's: `legal_actions` reads its mask, `apply_action`
runs its step, `returns` its outcome, `resample_from_infostate` its belief sampling
(`Game.sample_hidden`). What is added here is bookkeeping OpenSpiel asks for: the chance
outcomes drawn so far, the number of decisions (for `max_game_length`), per player the
digest of what it has observed (the perfect-recall part of `information_state_string`),
and the worlds re-dealt by `resample_from_infostate` (so that `serialize` can replay them).
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from ..views import board_text
from .deal import DEAL_NODES, DEAL_OUTCOMES, DEAL_SEEDS, WORLD_SEEDS
from .record import restore_state, state_to_text

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
    """A game in progress (built by `SpielGame.new_initial_state`, before the deal)."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        # only plain data in __dict__: OpenSpiel's Clone deep-copies it. The game is kept
        # as a plain structured array (None before the deal): a recarray's field lookups
        # cost microseconds, and OpenSpiel asks for the current player many times a step
        self._deal: list[int] = []  # the chance outcomes drawn so far
        self._raw: np.ndarray | None = None
        self._length = 0  # decisions taken
        self._digests: list[bytes] = []
        self._worlds: list[list[int]] = []  # [history length, seat, seed] of each re-deal

    @property
    def core_state(self) -> Any:
        """The core's batch of one game (a view: read it, never step it); None before the
        deal."""
        return None if self._raw is None else self._raw.view(np.recarray)

    @property
    def _game(self) -> SpielGame:
        return self.get_game()

    @property
    def _core(self) -> Any:
        return self.get_game().core_game

    # --- the game's course --------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to act, `pyspiel.PlayerId.CHANCE` before the deal, or
        `pyspiel.PlayerId.TERMINAL`."""
        if self._raw is None:
            return pyspiel.PlayerId.CHANCE
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return int(self._raw["actor"][0])

    def is_terminal(self) -> bool:
        """Whether the game is over (or cut at `max_game_length` decisions: a draw)."""
        if self._raw is None:
            return False
        return bool(self._raw["actor"][0] < 0) or self._length >= self._game.max_length

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Before the deal: each outcome of the next chance node, equally likely."""
        if self._raw is not None:
            return []
        return [(b, 1.0 / DEAL_OUTCOMES) for b in range(DEAL_OUTCOMES)]

    def _legal_actions(self, player: int) -> list[int]:
        """The core's legal actions of `player`, ascending (none for a seat not to act)."""
        if self._raw is None or player != self.current_player():
            return []
        return np.flatnonzero(self._raw["mask"][0]).tolist()

    def _apply_action(self, action: int) -> None:
        """A chance outcome before the deal; after it, one decision of the current player:
        the core's step (ValueError naming the action, the phase and the legal actions if
        it is illegal, the state unchanged)."""
        if self._raw is None:
            if not 0 <= action < DEAL_OUTCOMES:
                raise ValueError(f"chance outcome {action}: must be in 0..{DEAL_OUTCOMES - 1}")
            self._deal = [*self._deal, int(action)]
            if len(self._deal) == DEAL_NODES:
                self._deal_cards()
            return
        seat = self.current_player()
        if seat < 0:
            raise ValueError("the game is over: no action can be applied")
        if not 0 <= action < self._core.num_actions:
            raise ValueError(f"action {action}: not an action id (0..{self._core.num_actions - 1})")
        self._core.step(self.core_state, np.array([action], np.int64))
        self._length += 1
        self._observe_step(self._raw, seat, int(action))

    def _deal_cards(self) -> None:
        """Deal the core game with the seed the chance outcomes chose (in the block
        `rng_seed` picks)."""
        game = self._game
        seed = game.rng_seed * DEAL_SEEDS + int.from_bytes(bytes(self._deal), "big")
        # ask_all: every decision whose being forced is not public is presented, so who is
        # asked reveals nothing hidden (District Noir's core ignores it: DN5.1)
        state = self._core.init(1, game.num_seats, game.rules, seeds=[seed], ask_all=True)
        self._raw = raw = np.ndarray.view(state, np.ndarray)
        self._digests = [b""] * game.num_seats
        self._observe_step(raw, -1, -1)  # the deal: each seat's first observation

    def _observe_step(self, game: np.ndarray, seat: int, action: int) -> None:
        """Fold this step into every seat's observation digest: the public part of the
        state (`game`, the dealt `_raw`), the seat's own hand, and its own action when it
        acted."""
        raw = game.view(np.uint8).reshape(-1)
        public = hashlib.blake2b(raw[self._game.public_index].tobytes(), digest_size=16)
        step = public.digest()
        hands = game["hand"][0]
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
        """The core's stable name of `action` (seat-relative, so the same for every
        player); a chance outcome is named as one byte of the deal's seed."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed byte {action}"
        return self._core.action_name(int(action))

    def returns(self) -> list[float]:
        """The core's zero-sum outcome once the game is over; 0 each before, and after a cut
        at `max_game_length`."""
        n = self._game.num_seats
        if self._raw is None or self._raw["actor"][0] >= 0:
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
        if self._raw is None:
            raise ValueError("resample_from_infostate: the cards are not dealt yet")
        if not 0 <= player_id < self._game.num_seats:
            raise ValueError(f"player_id must be a seat 0..{self._game.num_seats - 1}")
        p = float(probability_sampler())
        if not 0.0 <= p < 1.0:
            raise ValueError(f"probability_sampler gave {p}: must be in [0, 1)")
        out = self.clone()  # the same actions so far (OpenSpiel's history), another deal
        out._redeal(int(player_id), int(p * WORLD_SEEDS))
        return out

    def _redeal(self, seat: int, seed: int) -> None:
        """Re-deal what `seat` cannot see with `seed` (and record it for `serialize`)."""
        world = self._core.sample_hidden(self.core_state, seat, seeds=[seed])
        self._raw = np.ndarray.view(world, np.ndarray)
        self._worlds = [*self._worlds, [len(self.history()), seat, seed]]

    def observation(self, player: int) -> np.ndarray:
        """float32 [obs_size]: the core's observation of `player` (zeros before the deal)."""
        if self._raw is None:
            return np.zeros(self._core.obs_size, np.float32)
        return self._core.observe(self.core_state, int(player))[0]

    def board(self, player: int | None) -> str:
        """The renderer's text of the game from `player`'s view (None: only what is public)."""
        if self._raw is None:
            return f"dealing: chance node {len(self._deal) + 1} of {DEAL_NODES}"
        return board_text(self._core, self.core_state, 0, player, self._game.rules)

    def history_digest(self, player: int) -> str:
        """Hex digest of everything `player` has observed so far (perfect recall)."""
        return self._digests[player].hex() if self._digests else ""

    def serialize(self) -> str:
        """The state as plain data (JSON: the game's parameters, the history and the
        re-dealt worlds), which `game.deserialize_state` replays; never a pickle."""
        return state_to_text(self)

    def __reduce__(self) -> tuple:
        # pickled as the same plain data, loaded back through the same checks
        return restore_state, (self.get_game(), self.serialize())

    def __str__(self) -> str:
        if self._raw is None:
            return f"{self.board(None)} (drawn: {self._deal})"
        return self.board(None)
