"""The compiled part of the IS-MCTS agent (agents/search/ismcts.py documents the method).

One search runs `iterate` in chunks of iterations over a tree kept in plain arrays, so that
the caller can stop on a time budget between chunks. An iteration copies the root game,
re-deals what the searching seat cannot see (`core.belief.resample_game`), walks the tree
of the seat's own decisions, adds one node, plays on with the rollout policy and backs the
seat's value up the path.

Tree arrays (node 0 is the root, which has no action):
    nodes int32 [M, 5]: first child, next sibling, action, visits, availability
    value float64 [M]: the sum of the values backed up through the node
"""

from __future__ import annotations

import numpy as np

# the current `heuristic` (agents/heuristic/v2/agent.py): its kernel and its weights (`STYLES`), the
# model of every other seat and the root's default choice
from agents.heuristic.table import hideout_hazard
from agents.heuristic.v2.economy import W2_AIM, W2_REACH, W2_SPREAD
from agents.heuristic.v2.policy import decide
from agents.heuristic.view import SEAT_INFO, summarize
from agents.styles.agent import BULLY, RUSHER
from agents.styles.agent import decide as style_decide
from noir_env.core import constants as C
from noir_env.core.belief import resample_game
from noir_env.core.countdown import score
from noir_env.core.observe import OBS_SIZE, write_observation
from noir_env.core.rules import rules_of
from noir_env.engine.jit import kernel
from noir_env.engine.refcount import borrowed
from noir_env.engine.sampling import count_legal, nth_legal
from noir_env.engine.shell import play_action, raise_if_failed

FIRST, SIBLING, ACTION, VISITS, AVAIL = range(5)
NODE_FIELDS = 5
ROLLOUT_RANDOM, ROLLOUT_HEURISTIC = 0, 1
# how the rollouts model the other seats: all as the heuristic; each, per determinization, as
# the heuristic or an attacking style at a fixed chance; or at a chance fitted to how often
# that seat has attacked in the game so far (`attack_rates`)
OPPONENTS_HEURISTIC, OPPONENTS_MIX, OPPONENTS_FITTED = 0, 1, 2
# the float64 parameter row (agents/search/ismcts.py SearchConfig.params)
P_C, P_ROLLOUT, P_HORIZON, P_TEMPERATURE, P_DEPTH, P_OPPONENTS, P_ATTACKERS, P_SAFETY = range(8)
# the attacking styles (`agents/styles`) an opponent may be modelled as, and their weight rows
ATTACK_STYLES = np.array([[float(RUSHER)], [float(BULLY)]])
MAX_SIM_STEPS = 20_000  # a game takes a few hundred decisions; this only stops a runaway


@kernel
def next_u64(rng):
    """Advance the search's own xorshift64 generator (rng[0], never 0)."""
    x = rng[0]
    x ^= x << np.uint64(13)
    x ^= x >> np.uint64(7)
    x ^= x << np.uint64(17)
    rng[0] = x
    return x


@kernel
def uniform(rng):
    return np.float64(next_u64(rng) >> np.uint64(11)) / 9007199254740992.0


@kernel
def policy_action(s, kind, weights, obs, rng, models):
    """The rollout policy's action for game 0's actor: uniform over the legal actions, or
    on that actor's observation the heuristic's choice, or the choice of the attacking
    style `models[actor]` (-1: the heuristic)."""
    mask = s[0].mask
    if kind == ROLLOUT_RANDOM:
        return nth_legal(mask, np.int64(next_u64(rng) % np.uint64(count_legal(mask))))
    write_observation(s, 0, s[0].actor, obs)
    m = models[s[0].actor]
    if m >= 0:
        return style_decide(obs, mask, ATTACK_STYLES[m], uniform(rng))
    return decide(obs, mask, weights, uniform(rng))


@kernel
def attack_rates(root, out):
    """out[q]: attacks declared per turn begun by seat q over the events still in game 0's
    log (its last `LOG_LEN`): public play, the same in every determinization."""
    declared = np.zeros(C.MAX_PLAYERS)
    turns = np.zeros(C.MAX_PLAYERS)
    g = root[0]
    for k in range(min(g.log_n, C.LOG_LEN)):
        row = g.log[k]
        if row[0] == C.EV_DECLARE:
            declared[row[1]] += 1.0
        elif row[0] == C.EV_TURN:
            turns[row[1]] += 1.0
    for q in range(C.MAX_PLAYERS):
        out[q] = declared[q] / max(turns[q], 1.0)


@kernel(inline="always")
def draw_models(seat, n, params, rates, rng, models):
    """models[q]: how the rollouts of one determinization play seat q (`policy_action`): the
    heuristic for the searching seat; for another, an attacking style with the chance
    `params[P_ATTACKERS]` (OPPONENTS_MIX) or that chance times the seat's attack rate
    (OPPONENTS_FITTED, at most 0.9), else the heuristic."""
    mode = np.int64(params[P_OPPONENTS])
    models[:] = -1
    if mode == OPPONENTS_HEURISTIC:
        return
    for q in range(n):
        if q == seat:
            continue
        p = params[P_ATTACKERS]
        if mode == OPPONENTS_FITTED:
            p = min(0.9, p * rates[q])
        if uniform(rng) < p:
            models[q] = np.int64(next_u64(rng) % np.uint64(ATTACK_STYLES.shape[0]))


@kernel
def evaluate(s, seat, temperature, safety, weights, obs, info):
    """The seat's value of game 0 in [0, 1]: its share of the win once the game is over;
    before, a softmax of the living players' scores (R6.4) at `temperature` points, times
    the chance that its Hideout survives the others' next turns to the power `safety` (the
    heuristic's threat model, `heuristic.table.hideout_hazard`: each living opponent's
    attack power on the table against the Hideout's defense and the seat's money). The
    horizon cuts rollouts short of the attacks that a thin Hideout invites; without that
    factor a position that only looks rich is valued as safe."""
    g = s[0]
    n = g.num_players
    if g.phase == C.PH_GAME_OVER:
        k = 0
        for q in range(n):
            k += g.winners[q]
        return g.winners[seat] / k if k > 0 else 0.0
    if not g.alive[seat]:
        return 0.0
    r = rules_of(s, 0)
    mine = score(s, r, 0, seat)
    total = 0.0
    for q in range(n):
        if g.alive[q]:
            total += np.exp((score(s, r, 0, q) - mine) / temperature)
    value = 1.0 / total
    if safety > 0.0:
        write_observation(s, 0, seat, obs)
        summarize(obs, info)
        hazard = hideout_hazard(info, 0, 0.0, 0.0, 0.0, weights[W2_REACH], weights[W2_SPREAD],
                                weights[W2_AIM])  # fmt: skip
        value *= np.exp(-safety * hazard)
    return value


@kernel(inline="always")
def new_node(nodes, count, parent, action):
    """Add a child of `parent` for `action`; -1 when the tree is full."""
    k = count[0]
    if k >= nodes.shape[0]:
        return -1
    count[0] = k + 1
    nodes[k, FIRST] = -1
    nodes[k, ACTION] = action
    nodes[k, VISITS] = 0
    nodes[k, AVAIL] = 0
    nodes[k, SIBLING] = nodes[parent, FIRST]
    nodes[parent, FIRST] = k
    return k


@kernel
def select(s, node, nodes, value, count, c, seen, weights, obs, rng, models):
    """One step down the tree at the seat's decision in game 0: every legal child gains
    availability (SO-ISMCTS); a legal action without a child is expanded (the heuristic's
    choice first), else the child of best UCB1. Returns (action, child): child is the new
    node when one was added, -1 when the tree is full."""
    mask = s[0].mask
    legal = count_legal(mask)
    best, best_ucb, known = -1, -1.0, 0
    k = nodes[node, FIRST]
    while k >= 0:
        a = nodes[k, ACTION]
        if mask[a]:
            seen[a] = True
            known += 1
            nodes[k, AVAIL] += 1
            n = nodes[k, VISITS]
            ucb = value[k] / n + c * np.sqrt(np.log(nodes[k, AVAIL]) / n)
            if ucb > best_ucb:
                best, best_ucb = k, ucb
        k = nodes[k, SIBLING]
    if known < legal:
        a = policy_action(s, ROLLOUT_HEURISTIC, weights, obs, rng, models)
        if seen[a]:
            pick = np.int64(next_u64(rng) % np.uint64(legal - known))
            for b in range(mask.shape[0]):
                if mask[b] and not seen[b]:
                    if pick == 0:
                        a = b
                        break
                    pick -= 1
        best = new_node(nodes, count, node, a)
        if best >= 0:
            nodes[best, AVAIL] = 1
    else:
        a = nodes[best, ACTION]
    k = nodes[node, FIRST]
    while k >= 0:  # clear the scratch marks for the next call
        seen[nodes[k, ACTION]] = False
        k = nodes[k, SIBLING]
    return a, best


@kernel(inline="always")
def simulate(s, seat, node, tree, params, weights, obs, info, seen, path, rng, start_turn,
             models):  # fmt: skip
    """Play game 0 on from just after the root action whose node is `node`: down the tree
    of the seat's decisions (at most `depth` - 1 more), adding one node, then the rollout
    policy until the game ends or the horizon; back the seat's value up the path and
    return it."""
    nodes, value, count = tree
    c, kind, horizon = params[P_C], np.int64(params[P_ROLLOUT]), np.int64(params[P_HORIZON])
    max_depth = np.int64(params[P_DEPTH])
    rewards = np.zeros((1, C.MAX_PLAYERS), np.float32)
    flags = np.zeros(2, np.bool_)
    path[0] = node
    depth, in_tree = 0, nodes[node, VISITS] > 0
    for _ in range(MAX_SIM_STEPS):
        if s[0].phase == C.PH_GAME_OVER or (horizon > 0 and s[0].turn_no - start_turn >= horizon):
            break
        if in_tree and s[0].actor == seat and depth + 1 < max_depth:
            a, node = select(s, node, nodes, value, count, c, seen, weights, obs, rng, models)
            in_tree = node >= 0 and nodes[node, VISITS] > 0  # else a new leaf or a full tree
            if node >= 0:
                depth += 1
                path[depth] = node
        else:
            a = policy_action(s, kind, weights, obs, rng, models)
        raise_if_failed(play_action(s, 0, a, rewards, flags[0:1], flags[1:2]))
    v = evaluate(s, seat, params[P_TEMPERATURE], params[P_SAFETY], weights, obs, info)
    for d in range(depth + 1):
        nodes[path[d], VISITS] += 1
        value[path[d]] += v
    return v


@kernel
def iterate(root, work, seat, root_actions, tree, paired, params, weights, rng, iters):
    """`iters` iterations from the one-game state `root` (work: scratch of its shape). Each
    draws one determinization (a re-deal from `seat`'s view, `core.belief`) and one seed for
    the rollouts, and plays every root action from that same world with that same seed (common
    random numbers), so that two root actions are compared on the same hidden cards and
    dice. Node k + 1 of the tree is root action k. paired[k] accumulates, over iterations,
    [value of action k, its difference to action 0, that difference squared]."""
    raw_root, raw_work = root.view(np.uint8), work.view(np.uint8)
    s = borrowed(work)
    obs = np.zeros(OBS_SIZE, np.float32)
    info = np.zeros((C.MAX_PLAYERS, SEAT_INFO))
    seen = np.zeros(C.NUM_ACTIONS, np.bool_)
    path = np.zeros(MAX_SIM_STEPS + 1, np.int64)
    rewards = np.zeros((1, C.MAX_PLAYERS), np.float32)
    flags = np.zeros(2, np.bool_)
    sim_rng = np.zeros(1, np.uint64)
    vals = np.zeros(root_actions.shape[0])
    rates = np.zeros(C.MAX_PLAYERS)
    attack_rates(root, rates)
    models = np.full(C.MAX_PLAYERS, -1, np.int64)
    for _ in range(iters):
        world = next_u64(rng) | np.uint64(1)
        roll = next_u64(rng) | np.uint64(1)
        draw_models(seat, root[0].num_players, params, rates, rng, models)
        for k in range(root_actions.shape[0]):
            raw_work[:] = raw_root
            resample_game(s, 0, seat, world)
            s[0].ask_all = 0  # the same game, with forced decisions taken inside (R2.5)
            start = s[0].turn_no
            raise_if_failed(play_action(s, 0, root_actions[k], rewards, flags[0:1], flags[1:2]))
            sim_rng[0] = roll
            vals[k] = simulate(s, seat, k + 1, tree, params, weights, obs, info, seen, path,
                               sim_rng, start, models)  # fmt: skip
        for k in range(root_actions.shape[0]):
            d = vals[k] - vals[0]
            paired[k, 0] += vals[k]
            paired[k, 1] += d
            paired[k, 2] += d * d
        tree[0][0, VISITS] += 1


@kernel
def rollout_choice(root, weights, u):
    """The heuristic's action in game 0 of `root` for its actor (u: its tie-break draw)."""
    obs = np.zeros(OBS_SIZE, np.float32)
    write_observation(root, 0, root[0].actor, obs)
    return decide(obs, root[0].mask, weights, u)
