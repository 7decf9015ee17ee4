"""One browser game kept by the server: the game's AEC env, the bots, and what the page is
shown (`payload`), changed only by `move` (the human's decision) and `advance` (the next
decisions of the others).

Every request names the game's `version` (the decisions taken so far) that the page was
drawn at; a request for another version is refused (`WebError` 409) and changes nothing,
so a page that is stale (the bots moved on, another tab moved) cannot act on a board it no
longer shows. The human's decision is taken by the env's `step`, which checks it against
the game's legal actions as it checks every seat's. A decision with one legal action is
taken for the human while advancing (unless `ask_forced`), as the terminal game does.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from noir_env.aec import GameAECEnv, act_in_aec
from noir_env.game import game_names, get_game

from ..table import load_bots, outcome, result_text
from .payload import phase_title, seat_view

THINK_S = 1.0  # advance returns after this much bot thinking, so the page shows progress


class WebError(Exception):
    """A request the game refuses: `status` is its HTTP status, the message says why."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


@dataclass
class Settings:
    """A new game's settings, as the page's form and the command line give them."""

    game: str = "noir"
    players: int | None = None  # the game's default count
    rules: str | None = None  # the game's default preset
    seat: int = 0
    opponents: list[str] = field(default_factory=lambda: ["random"])
    seed: int | None = None  # None: a fresh deal
    ask_forced: bool = False

    @classmethod
    def from_json(cls, body: Any) -> Settings:
        """Settings from a request's JSON object; WebError 400 naming a wrong field."""
        if not isinstance(body, dict):
            raise WebError(400, "the new game's settings are a JSON object")
        unknown = sorted(set(body) - set(cls.__dataclass_fields__))
        if unknown:
            raise WebError(400, f"unknown setting(s) {unknown}")
        out = cls()
        kinds = {"game": str, "players": int, "rules": str, "seat": int, "seed": int,
                 "ask_forced": bool}  # fmt: skip
        for key, kind in kinds.items():
            value = body.get(key, getattr(out, key))
            if value is not None and (type(value) is not kind):
                raise WebError(400, f"setting {key!r} must be {kind.__name__}, got {value!r:.60}")
            setattr(out, key, value)
        opponents = body.get("opponents", out.opponents)
        if isinstance(opponents, str):
            opponents = opponents.split()
        if not (isinstance(opponents, list) and opponents
                and all(isinstance(o, str) and o for o in opponents)):  # fmt: skip
            raise WebError(
                400, f"setting 'opponents' is a list of agent names, got {opponents!r:.60}"
            )
        out.opponents = opponents
        return out


class GameSession:
    """One game between a human at `settings.seat` and bots (module docstring)."""

    def __init__(self, game_id: str, settings: Settings):
        if settings.game not in game_names():
            raise ValueError(f"unknown game {settings.game!r}: one of {game_names()}")
        game = get_game(settings.game)
        env = GameAECEnv(game, settings.players, settings.rules)  # checks count and preset
        n = env.num_players
        if not 0 <= settings.seat < n:
            raise ValueError(f"seat must be in 0..{n - 1}, got {settings.seat}")
        self.bots = load_bots(settings.opponents, n, settings.seat, settings.seed, game)
        env.reset(seed=settings.seed)
        self.id = game_id
        self.settings = settings
        self.game = game
        self.env = env
        self.seat = settings.seat
        self.names = env.possible_agents
        self.human = self.names[self.seat]
        self.rules_name = game.rules_name(env.rules) or ""
        self.lock = threading.Lock()  # one request changes the game at a time
        self.feed: list[dict[str, Any]] = []
        self._log_read = 0
        self._note(None, "The cards are dealt.")
        self._snapshot = self._build()

    # --- requests -----------------------------------------------------------------------------
    def payload(self) -> dict[str, Any]:
        """What the page shows now (a copy of `payload_json`)."""
        return json.loads(self._snapshot)

    def payload_json(self) -> bytes:
        """What the page shows now, as JSON: built after each change, so reading it needs
        no lock and always shows one version of the game."""
        return self._snapshot

    def move(self, version: Any, action: Any) -> bytes:
        """The human's decision `action` (an action id) on the page drawn at `version`;
        the new payload (`payload_json`)."""
        if type(action) is not int:
            raise WebError(400, f"'action' is an action id (an integer), got {action!r:.60}")
        with self.lock:
            self._check_version(version)
            if self.env.agents and self._status() != "you":
                who = self.env.agent_selection
                raise WebError(409, f"it is not your decision: {who} decides now")
            if not self.env.agents:
                raise WebError(409, "the game is over")
            try:
                self._step(self.human, action)
            except ValueError as err:  # the env's legality check: nothing was played
                raise WebError(422, f"illegal move: {err}") from None
            self._snapshot = self._build()
            return self._snapshot

    def advance(self, version: Any, until_you: Any = False, think_s: float = THINK_S) -> bytes:
        """The others' next decisions (and the human's forced ones) on the page drawn at
        `version`: until something shows in the log (`until_you`: until the human must
        decide), the game ends or `think_s` seconds of thinking have passed; the new
        payload (`payload_json`)."""
        if type(until_you) is not bool:
            raise WebError(400, f"'until_you' is true or false, got {until_you!r:.60}")
        with self.lock:
            self._check_version(version)
            if self._status() != "others":
                raise WebError(409, f"nothing to advance: {self._status_words()}")
            start, log_before = time.monotonic(), len(self.env.game_log)
            while self._status() == "others":
                agent = self.env.agent_selection
                if agent == self.human:  # a forced decision
                    (only,) = np.flatnonzero(self.env.action_mask(agent))
                    self._step(agent, int(only), forced=True)
                else:
                    self._step(agent, act_in_aec(self.env, self.bots[self.names.index(agent)][1]))
                shown = not until_you and len(self.env.game_log) > log_before
                if shown or time.monotonic() - start > think_s:
                    break
            self._snapshot = self._build()
            return self._snapshot

    def history(self) -> dict[str, Any]:
        """The finished game's history (`noir_env.history`; the replay viewer opens it),
        with the seats' agents as `players`. Refused (409) while the game goes on: its seed
        would tell the whole deal."""
        with self.lock:
            if self.env.agents:
                raise WebError(409, "a game is saved once it is over (its history holds the "
                                    "deal: every hidden card)")  # fmt: skip
            return {**self.env.history, "players": self._labels()}

    # --- inner workings -------------------------------------------------------------------------
    def _check_version(self, version: Any) -> None:
        if type(version) is not int:
            raise WebError(400, f"'version' is the page's move counter (an integer), got "
                                f"{version!r:.60}")  # fmt: skip
        if version != self.env.num_steps:
            raise WebError(409, f"stale page: it shows the game at move {version}, the game is "
                                f"at move {self.env.num_steps}; reload it")  # fmt: skip

    def _finish_dead_steps(self) -> None:
        """Take the due steps of agents out of the game (PettingZoo's dead steps)."""
        env = self.env
        while env.agents:
            agent = env.agent_selection
            if not (env.terminations[agent] or env.truncations[agent]):
                return
            env.step(None)

    def _status(self) -> str:
        """'you' (the human decides), 'others' (a bot, or the human's forced move) or
        'over'."""
        self._finish_dead_steps()
        env = self.env
        if not env.agents:
            return "over"
        if env.agent_selection != self.human:
            return "others"
        forced = np.count_nonzero(env.action_mask(self.human)) == 1
        return "others" if forced and not self.settings.ask_forced else "you"

    def _status_words(self) -> str:
        status = self._status()
        if status == "over":
            return "the game is over"
        return "it is your decision" if status == "you" else f"{self.env.agent_selection} decides"

    def _step(self, agent: str, action: int | None, forced: bool = False) -> None:
        """`agent` takes `action` through the env (its legality check), then the feed notes
        it."""
        phase = self.env.infos.get(agent, {}).get("phase")
        name = self.game.action_name(action) if action is not None else ""
        self.env.step(action)
        lines = self.env.game_log[self._log_read :]
        self._log_read += len(lines)
        who = "you" if agent == self.human else self._label(agent)
        if lines:  # sentences that name who did what
            self._note(None, *lines)
        elif name == "pass":
            self._note_pass(who)
        elif name == "end":
            self._note(who, f"ends the {phase_title(phase).lower()} step")
        elif agent == self.human:
            self._note(who, f"{name}{' (your only move)' if forced else ''}")
        else:
            self._note(who, "decides")

    def _note(self, who: str | None, *lines: str) -> None:
        self.feed.append({"n": self.env.num_steps, "who": who, "lines": list(lines)})

    def _note_pass(self, who: str) -> None:
        """Passes in a row are one line: 'player_1 (ppo), you pass'."""
        last = self.feed[-1] if self.feed else None
        if last is not None and last.get("passes"):
            last["passes"].append(who)
            last["n"] = self.env.num_steps
        else:
            self.feed.append({"n": self.env.num_steps, "who": None, "lines": [], "passes": [who]})

    def _label(self, agent: str) -> str:
        seat = self.names.index(agent)
        return f"{agent} ({self.bots[seat][0]})" if seat in self.bots else f"{agent} (you)"

    def _labels(self) -> list[str]:
        return ["you" if q == self.seat else self.bots[q][0] for q in range(len(self.names))]

    def _build(self) -> bytes:
        """The page's payload as JSON (`seat_view` of the human's seat and the public
        rest)."""
        env, status = self.env, self._status()
        view = seat_view(self.game, env.state, self.seat, self.names, self.rules_name)
        end = outcome(self.game, env.state, self.names) if status == "over" else None
        result = None
        if status == "over":
            text = result_text(self.game, env.state, self.names, self.human, env.max_steps)
            won = bool(end and self.human in end["winners"])
            result = {**(end or {"winners": [], "reason": "stopped", "scores": {}}),
                      "text": text, "you_won": won}  # fmt: skip
        if status != "you":
            view["moves"] = []  # a forced move is taken while advancing, not offered
        payload = {
            "id": self.id,
            "version": env.num_steps,
            "status": status,
            "game": self.game.name,
            "title": self._title(),
            "you": self.human,
            "seat": self.seat,
            "players": [
                {"name": a, "agent": label}
                for a, label in zip(self.names, self._labels(), strict=True)
            ],  # fmt: skip
            **view,
            "feed": self.feed,
            "result": result,
        }
        return json.dumps(payload).encode()

    def _title(self) -> str:
        rules = f" ({self.rules_name})" if self.rules_name else ""
        return f"{self.game.title}{rules}, {len(self.names)} players"
