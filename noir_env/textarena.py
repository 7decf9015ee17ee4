"""NOIR and District Noir in TextArena: `import noir_env.textarena` registers them in
TextArena's registry, so its game loop and its agents play them (the `textarena` extra:
`pip install "noir_env[textarena]"`).

    import textarena as ta
    import noir_env.textarena  # noqa: F401  (registers the games)

    env = ta.make("Noir-v0")                 # 3-6 players; District: "DistrictNoir-v0"
    env.reset(num_players=4, seed=1)
    done = False
    while not done:
        player_id, observation = env.get_observation()
        done, info = env.step(agents[player_id](observation))
    rewards, game_info = env.close()

Registered: "Noir-v0" (noirburg rules), "Noir-v0-noirbrough", "Noir-v0-original" and
"DistrictNoir-v0", each also as "<id>-raw" without the observation wrapper. Reactions are
query turns, as in TextArena's Coup: the current player is whoever the rules core asks
now, the player whose turn it is or another one in a reaction window, and every player
holding a card is asked in every window, so being asked reveals nothing.

A player's observation is its first message (who it is and the game in brief) and the
newest one: its decision (`noir_env.text.TextView`: the table from its seat, what happened
since its last decision, the legal moves). The registered envs show those two through
TextArena's `FirstLastObservationWrapper`. Nothing else is sent to anyone, no reply in
particular: a reply may speak of its player's hand. A reply that names no legal move is
answered with the error and the decision again, `retries` times, then the `fallback`
decides (`noir_env.text.policy`); `game_info[player_id]` counts `invalid_replies` and
`fallbacks`, and a `FallbackWarning` says when more than `warn_rate` of a player's
decisions (after `warn_after`) were the fallback's. The rewards are the game's outcome
(zero-sum); a game stopped after `max_steps` decisions is a draw.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import textarena as ta
    from textarena.envs.registration import ENV_REGISTRY, register_with_versions
    from textarena.wrappers.ObservationWrappers.llm_observation_wrapper import (
        FirstLastObservationWrapper,
    )
except ImportError as err:  # the extra is not installed
    raise ImportError(
        'noir_env.textarena needs TextArena: pip install "noir_env[textarena]"'
    ) from err

from .game import Game, get_game
from .text import InvalidMovePolicy, TextCounts, TextView
from .text.policy import RETRY_NOTE
from .views import board_text

ENVS: dict[str, dict[str, Any]] = {
    "Noir-v0": {"game": "noir", "rules": "noirburg"},
    "Noir-v0-noirbrough": {"game": "noir", "rules": "noirbrough"},
    "Noir-v0-original": {"game": "noir", "rules": "original"},
    "DistrictNoir-v0": {"game": "district_noir"},
}


class NoirTextArenaEnv(ta.Env):
    """One game of `game` as a TextArena env (module docstring)."""

    def __init__(self, game: str | Game = "noir", rules: Any = None, retries: int = 2,
                 fallback: Any = "first", max_steps: int = 10_000,
                 warn_rate: float | None = 0.1, warn_after: int = 20) -> None:  # fmt: skip
        self.game = get_game(game)
        self.rules = self.game.check_rules(rules)
        self.policy = InvalidMovePolicy(retries=retries, fallback=fallback,
                                        warn_rate=warn_rate, warn_after=warn_after)  # fmt: skip
        if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
            raise ValueError(f"max_steps must be an int >= 1, got {max_steps!r}")
        self.max_steps = max_steps
        self.core: np.recarray | None = None  # the game: the rules core's batch of one

    def reset(self, num_players: int, seed: int | None = None) -> None:
        """Deal a game of `num_players` (the game's range) with `seed` (None: a random
        one)."""
        n = int(self.game.player_counts(num_players)[0])
        if np.ndim(num_players) != 0:
            raise ValueError(f"num_players must be one count, got {num_players!r}")
        if seed is None:
            seed = int(np.random.default_rng().integers(0, 2**62))
        self.seed = int(seed)
        self.core = self.game.init(1, n, self.rules, [self.seed], ask_all=True)
        self.view = TextView(self.game)
        self.counts = [TextCounts(who=self.view.names[q]) for q in range(n)]
        self._tries = 0
        # seed=None: TextArena's state would otherwise reseed Python's global `random`
        self.state = ta.FFAMultiPlayerState(num_players=n, seed=None,
                                            error_allowance=self.policy.retries)  # fmt: skip
        self.state.reset(
            game_state={"seed": self.seed},
            player_prompt_function=lambda player_id, game_state: self.view.intro(
                self.core, 0, player_id
            ),
            role_mapping={q: self.view.names[q] for q in range(n)},
        )
        self._ask(self.view.decision(self.core, 0))

    def _dealt(self) -> np.recarray:
        """The game (ValueError before the first reset)."""
        if self.core is None:
            raise ValueError("call reset() before step()")
        return self.core

    def _actor(self) -> int:
        return int(self.game.current_player(self._dealt())[0])

    def _ask(self, text: str) -> None:
        """Make the seat to act the current player and send it its decision."""
        actor = self._actor()
        self.state.manually_set_current_player_id(actor, force=True)
        self.state.add_observation(message=text, observation_type=ta.ObservationType.GAME_BOARD,
                                   to_id=actor)  # fmt: skip

    def step(self, action: str) -> tuple[bool, dict]:
        """The current player's reply: its move is played, or it is asked again."""
        core = self._dealt()
        if self.state.done:
            raise ValueError("the game is over: call reset() to play again")
        seat = self._actor()
        counts = self.counts[seat]
        move, error = self.policy.judge(action, self.view, core, 0, counts, self._tries)
        self._count(seat)
        if move is None:
            self._tries += 1
            self.state.made_invalid_move = True  # TextArena counts no turn for it
            note = RETRY_NOTE.format(error=error)
            self._ask(note + "\n\n" + self.view.decision(core, 0))
            return self.state.step(rotate_player=False)
        self._tries = 0
        self.view.record(core, 0, move)
        alive = self.game.alive(core)[0]
        _, over, _ = self.game.step(core, np.array([move]))
        for q in np.flatnonzero(alive & ~self.game.alive(core)[0]):
            self.state.add_elimination(int(q))
        if over[0]:
            self._finish()
        elif int(core.steps[0]) >= self.max_steps:
            self.state.set_draw(f"stopped after {self.max_steps} decisions")
        else:
            self._ask(self.view.decision(core, 0))
        return self.state.step(rotate_player=False)

    def _count(self, seat: int) -> None:
        info = self.state.game_info[seat]
        info["invalid_replies"] = self.counts[seat].invalid
        info["fallbacks"] = self.counts[seat].fallbacks

    def _finish(self) -> None:
        n, core = len(self.counts), self._dealt()
        outcome = self.game.outcome(core)[0]
        won = [self.view.names[q] for q in np.flatnonzero(self.game.winners(core)[0][:n])]
        why = self.game.win_reasons[int(self.game.win_reason(core)[0])]
        reason = f"{' and '.join(won) or 'nobody'} won ({why})"
        self.state.set_game_outcome({q: float(outcome[q]) for q in range(n)}, reason)

    def get_board_str(self) -> str:
        """The table with no hand shown (what every player sees)."""
        return board_text(self.game, self.core, 0, None, self.rules)


def register_envs() -> list[str]:
    """Register the games in TextArena's registry (`ENVS`; again is a no-op); returns
    the ids."""
    for env_id, kwargs in ENVS.items():
        if env_id not in ENV_REGISTRY:
            register_with_versions(id=env_id, entry_point=NoirTextArenaEnv,
                                   wrappers={"default": [FirstLastObservationWrapper]},
                                   **kwargs)  # fmt: skip
    return [*ENVS, *(f"{k}-raw" for k in ENVS)]


register_envs()
