"""Batched multi-agent play of any game of the protocol (`noir_env.game`): a list of scheduled
games, every seat played by one of K policies, many games in lockstep on the batched core.
The engine of tournaments (`train.tournament`) and matches (`train.match`).

    records = play_games(seeds, lineups, [ArenaPolicy("mine", my_act), RANDOM], rules="noirburg")
    records = play_games(seeds, lineups, policies, game="district_noir")
    records.winners        # bool [G, P], in schedule order

Game g is dealt with `seeds[g]` (the game's `init(seeds=...)`, so the same seed is the same
deal whatever the lineup) and seat q is played by policy `lineups[g, q]` (-1 past the table's
size: a NOIR row [0, 1, 2, -1, -1, -1] is a 3-player game). Games are played in `slots`
lanes: when a game ends, the next scheduled game is dealt into its lane, so the batch stays
full while short and long games mix.

Games are dealt with `ask_all=True` (NOIR's multi-agent presentation, R2.5): every decision a
player is presented with is a decision of its policy. A decision with a single legal action
is answered by the engine itself unless `ask_forced=True`: a policy with the memoryless
protocol `act(obs, mask)` has no other answer, so the game is the same, only faster.

The built-in uniform random policy (`ArenaPolicy(act=None)`, `RANDOM`) plays inside the
compiled lockstep loop (`noir_env.engine.lockstep`) with one random stream per game, keyed by the
game's seed and its place in the schedule (so one deal replayed at several tables is not
played the same way at each): a game between built-in random players is a function of the
schedule alone, whatever `slots`. Every other policy is called once per decision round with
the batch of all games in which one of its seats must act: `act(obs[E, obs_size] or None,
mask bool[E, num_actions]) -> actions[E]`; obs is None for a policy declared
`observes=False`, which saves writing observations it never reads.

A search agent (`uses_state = True`, e.g. `agents.load("ismcts")`) plays through its hook
instead: `act_on_state(state, games) -> actions`, called with a copy of those E games (a
batch of the game's states, `games` = 0..E-1). The copy holds the whole game, hidden cards
included, because a search must simulate it; the hook's contract is to decide from the
acting seat's information only (the IS-MCTS agent re-deals everything hidden from that seat
before it looks, docs/ISMCTS.md), and being a copy, the arena's games cannot be changed by
it. `policy_of(name, agent)` makes the right `ArenaPolicy` of either kind of agent.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..engine import lockstep as L
from ..engine.args import as_count
from ..game import Game, get_game
from ..views import history
from . import seeds as S
from .opponents import as_actions

_COUNT_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


@dataclass(frozen=True)
class ArenaPolicy:
    """A player of `play_games`: `act(obs, mask) -> actions` batched, or
    `act_on_state(state, games) -> actions` (a search agent's hook, module docstring), or
    neither for the built-in uniform random policy; `observes=False` passes obs=None (the
    policy reads the mask only)."""

    name: str
    act: Callable[[np.ndarray | None, np.ndarray], Any] | None = None
    observes: bool = True
    act_on_state: Callable[[Any, np.ndarray], Any] | None = None

    @property
    def builtin(self) -> bool:
        """Whether this is the built-in uniform random policy (played in compiled code)."""
        return self.act is None and self.act_on_state is None


RANDOM = ArenaPolicy("random")


def policy_of(name: str, agent: Any) -> ArenaPolicy:
    """The arena player of an agent object: its hook `act_on_state` if it declares
    `uses_state = True`, else its batched `act(obs, mask)` (or the agent itself if it is a
    callable), with obs=None if it declares `observes = False`. Raises ValueError for an
    object that has neither."""
    hook = getattr(agent, "act_on_state", None)
    if getattr(agent, "uses_state", False):
        if not callable(hook):
            raise ValueError(f"agent {name!r} declares uses_state but has no act_on_state")
        return ArenaPolicy(name, act_on_state=hook)
    act = getattr(agent, "act", None)
    if act is None and callable(agent):
        act = agent
    if act is None or not callable(act):
        raise ValueError(
            f"agent {name!r}: expected an object with act(obs, mask), a search agent with "
            f"uses_state and act_on_state(state, games), or a callable, got {agent!r}"
        )
    return ArenaPolicy(name, act, observes=bool(getattr(agent, "observes", True)))


@dataclass
class GameRecords:
    """What happened in each scheduled game (rows in schedule order; P: the game's most
    players)."""

    num_players: np.ndarray  # int8 [G]
    winners: np.ndarray  # bool [G, P]: the winners (none on truncation or in a draw)
    win_reason: np.ndarray  # int8 [G]: index into the game's win_reasons (0: no winner)
    scores: np.ndarray  # int32 [G, P]: each seat's score at the end (0 if eliminated)
    out_at: np.ndarray  # int32 [G, P]: the decision after which the seat was eliminated, -1
    length: np.ndarray  # int32 [G]: decisions presented to the players
    turns: np.ndarray  # int32 [G]: turns (or rounds) begun
    truncated: np.ndarray  # bool [G]: stopped after max_steps decisions
    # game index -> its history (the AEC env's format: seed and every decision), for the
    # games play_games was asked to record
    histories: dict[int, dict] = field(default_factory=dict)


def check_schedule(
    seeds, lineups, num_policies: int, game: str | Game = "noir"
) -> tuple[np.ndarray, np.ndarray]:
    """(seeds int64 [G], lineups int64 [G, P]) checked: a policy index per seat, filled
    from seat 0, as many seats per game as the game allows. Raises ValueError naming the
    first bad game."""
    game = get_game(game)
    width = game.max_players
    seeds = np.asarray(seeds)
    lineups = np.asarray(lineups)
    if seeds.ndim != 1 or not np.issubdtype(seeds.dtype, np.integer):
        raise ValueError(f"seeds must be a 1-D integer array, got {seeds.dtype} {seeds.shape}")
    if lineups.shape != (seeds.size, width):
        raise ValueError(f"lineups must have shape ({seeds.size}, {width}), got {lineups.shape}")
    if not np.issubdtype(lineups.dtype, np.integer):
        raise ValueError(f"lineups must hold policy indices, got dtype {lineups.dtype}")
    seated = lineups >= 0
    n = seated.sum(1)
    prefix = seated == (np.arange(width)[None, :] < n[:, None])
    bad = ~prefix.all(1) | (n < game.min_players) | (lineups >= num_policies).any(1)
    if bad.any():
        g = int(np.flatnonzero(bad)[0])
        span = f"{game.min_players}..{game.max_players}"
        if game.min_players == game.max_players:
            span = _COUNT_WORDS.get(game.min_players, str(game.min_players))
        raise ValueError(
            f"game {g}: lineup {lineups[g].tolist()} must seat {span} policies from seat 0 "
            f"(policy indices 0..{num_policies - 1}, -1 for no player)"
        )
    return seeds.astype(np.int64), lineups.astype(np.int64)


class _Lanes:
    """The games in play: one state of `size` lanes and each lane's bookkeeping."""

    def __init__(self, game: Game, size: int, policies: Sequence[ArenaPolicy], ask_forced: bool,
                 trace: int = 0):  # fmt: skip
        self.game = game
        self.size = size
        self.state = game.allocate(size)
        self.game_index = np.full(size, -1, np.int64)  # scheduled game in each lane (-1: none)
        self.lineup = np.full((size, game.max_players), -1, np.int64)
        # trace > 0: the compiled loop writes every decision of each lane's game (record)
        self.lanes = L.make_lanes(size, game.max_players, trace=trace)
        self.policy_builtin = np.array([p.builtin for p in policies] + [False], np.bool_)
        self.ask_forced = bool(ask_forced)

    @property
    def status(self) -> np.ndarray:
        return self.lanes.status

    def deal(self, lanes, games, seeds, lineups, rules: Any, max_steps: int) -> None:
        """Deal scheduled games `games` into `lanes` and advance them to a Python decision."""
        g = self.game
        nps = (lineups[games] >= 0).sum(1)
        self.state[lanes] = g.init(lanes.size, nps, rules, seeds[games], ask_all=True)
        self.game_index[lanes] = games
        self.lineup[lanes] = lineups[games]
        self.lanes.builtin[lanes] = self.policy_builtin[self.lineup[lanes]]  # -1: the pad
        arena_salt = S.salt(g.seed_salt, S.SALT_ARENA)
        self.lanes.agent_rng[lanes] = S.random_streams(seeds[games], arena_salt, games)
        self.lanes.out_at[lanes] = -1
        self.run(lanes, np.full(lanes.size, -1, np.int64), max_steps)

    def run(self, lanes: np.ndarray, actions: np.ndarray, max_steps: int) -> None:
        L.run(self.game.kernel_view(self.state), lanes, actions, self.lanes, self.ask_forced,
              max_steps)  # fmt: skip

    def ask(self, policy: ArenaPolicy, lanes: np.ndarray) -> np.ndarray:
        """`policy`'s actions for the seats to act in `lanes`, checked (shape, integers,
        legality)."""
        g = self.game
        kv = g.kernel_view(self.state)
        who = f"agent {policy.name!r}"
        if policy.act_on_state is not None:
            # a copy (an index array copies): the hook simulates on it, never on our games
            games = self.state[lanes]
            acts = as_actions(who, policy.act_on_state(games, np.arange(lanes.size)), lanes.size)
        else:
            assert policy.act is not None, "the built-in policy plays in compiled code"
            if policy.observes:
                seats = self.state.actor[lanes]
                obs, mask = L.observe_rows(kv, lanes, seats, g.obs_size, g.num_actions)
            else:
                obs, mask = None, self.state.mask[lanes]
            acts = as_actions(who, policy.act(obs, mask.view(np.bool_)), lanes.size)
        bad = L.first_illegal(kv, lanes, acts)
        if bad >= 0:
            msg = g.describe_illegal(self.state, int(lanes[bad]), int(acts[bad]))
            raise ValueError(f"{who} chose an illegal action: {msg}")
        return acts

    def external_round(self, policies: Sequence[ArenaPolicy], max_steps: int) -> None:
        """Every lane waiting for a Python policy: ask the policies, batched, then play on."""
        lanes = np.flatnonzero(self.status == L.ST_EXTERNAL)
        if not lanes.size:
            return
        seats = self.state.actor[lanes].astype(np.int64)
        owner = self.lineup[lanes, seats]
        acts = np.empty(lanes.size, np.int64)
        for k in np.unique(owner):
            rows = np.flatnonzero(owner == k)
            acts[rows] = self.ask(policies[int(k)], lanes[rows])
        self.run(lanes, acts, max_steps)

    def record(self, lanes: np.ndarray, out: GameRecords, seeds: np.ndarray, keep: int = 0,
               rules: Any = None, max_steps: int = 0) -> None:  # fmt: skip
        """Write the ended games in `lanes` into their rows of `out`, and the histories of
        those among the first `keep` scheduled games (dealt with `seeds`, `rules`)."""
        g = self.game
        games = self.game_index[lanes]
        for lane, k in zip(lanes.tolist(), games.tolist(), strict=True):
            if k < keep:
                acts = self.lanes.trace[lane, : self.state.steps[lane]].tolist()
                h = history(g, self.state, lane, rules, int(seeds[k]), acts)
                h.setdefault("max_steps", max_steps)  # a truncation replays as one
                out.histories[k] = h
        done = self.state[lanes]
        out.winners[games] = g.winners(done)
        out.win_reason[games] = g.win_reason(done)
        out.scores[games] = g.scores(done)
        out.out_at[games] = self.lanes.out_at[lanes]
        out.length[games] = done.steps
        out.turns[games] = g.turns(done)
        out.truncated[games] = self.status[lanes] == L.ST_TRUNCATED


def play_games(
    seeds: np.ndarray,
    lineups: np.ndarray,
    policies: Sequence[ArenaPolicy],
    rules: Any = None,
    max_steps: int = 10_000,
    slots: int = 2048,
    ask_forced: bool = False,
    progress: Callable[[int], Any] | None = None,
    game: str | Game = "noir",
    record: int = 0,
) -> GameRecords:
    """Play every scheduled game (module docstring) and return what happened.

    seeds: int [G], the deal of each game. lineups: int [G, P], the policy index of each
    seat (-1 past the table's size). policies: the players. rules: the game's preset (None:
    its default). max_steps: decisions after which a game is truncated. slots: games played
    at once. ask_forced: also call the policies on decisions with one legal action.
    progress: called with the number of games just finished. game: a game name or `Game`.
    record: keep the histories of the first `record` scheduled games (`histories`: their
    seeds and every decision, which `noir_v2.replay` and `python -m train.replay` play
    back); recording holds a [slots, max_steps] int16 trace while it plays.
    Raises ValueError for a bad schedule or a policy's bad or illegal answer.
    """
    game = get_game(game)
    if not policies:
        raise ValueError("play_games needs at least one policy")
    max_steps, slots = as_count(max_steps, "max_steps"), as_count(slots, "slots")
    seeds, lineups = check_schedule(seeds, lineups, len(policies), game)
    rules = game.check_rules(rules)
    total, width = seeds.size, game.max_players
    out = GameRecords(
        num_players=(lineups >= 0).sum(1).astype(np.int8),
        winners=np.zeros((total, width), np.bool_),
        win_reason=np.zeros(total, np.int8),
        scores=np.zeros((total, width), np.int32),
        out_at=np.full((total, width), -1, np.int32),
        length=np.zeros(total, np.int32),
        turns=np.zeros(total, np.int32),
        truncated=np.zeros(total, np.bool_),
    )
    keep = min(as_count(record, "record"), total) if record else 0
    box = _Lanes(game, min(slots, max(total, 1)), policies, ask_forced, max_steps if keep else 0)
    next_game = 0
    free = np.arange(box.size)
    while True:
        if free.size and next_game < total:
            take = free[: total - next_game]
            games = np.arange(next_game, next_game + take.size)
            next_game += take.size
            box.deal(take, games, seeds, lineups, rules, max_steps)
        ended = np.flatnonzero((box.status == L.ST_OVER) | (box.status == L.ST_TRUNCATED))
        if ended.size:
            box.record(ended, out, seeds, keep, rules, max_steps)
            box.status[ended] = L.ST_IDLE
            if progress is not None:
                progress(int(ended.size))
        free = np.flatnonzero(box.status == L.ST_IDLE)
        if free.size == box.size and next_game >= total:
            return out
        box.external_round(policies, max_steps)


def play_district_games(
    seeds: np.ndarray,
    lineups: np.ndarray,
    policies: Sequence[ArenaPolicy],
    slots: int = 2048,
    progress: Callable[[int], Any] | None = None,
) -> GameRecords:
    """`play_games` of District Noir (its former name)."""
    return play_games(seeds, lineups, policies, slots=slots, progress=progress,
                      game="district_noir")  # fmt: skip
