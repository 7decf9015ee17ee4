"""The schedule of a tournament: balanced rounds of games on shared deals (the package
docstring's **Schedule**), and how often each entrant sat in each seat."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from noir_env.game import Game, get_game


@dataclass
class Schedule:
    """The games to play: each one's deal seed and entrant per seat (-1: no seat)."""

    seeds: np.ndarray  # int64 [G]
    lineups: np.ndarray  # int64 [G, P]: one column per seat of the game's largest table


def check_player_counts(
    num_players: int | Sequence[int], num_entrants: int, game: str | Game = "noir"
) -> list[int]:
    """The table sizes, sorted and unique; each one the game allows (NOIR: 3..6, District
    Noir: 2) and at most the number of entrants."""
    game = get_game(game)
    sizes = f"{game.min_players}..{game.max_players}"
    if game.min_players == game.max_players:
        sizes = str(game.min_players)
    counts = sorted({int(n) for n in np.atleast_1d(num_players)})
    if not counts:
        raise ValueError(f"give at least one table size (players per table, {sizes})")
    for n in counts:
        if not game.min_players <= n <= game.max_players:
            raise ValueError(f"{game.title}: players per table must be {sizes}, got {n}")
        if n > num_entrants:
            raise ValueError(
                f"{n}-player tables need at least {n} agents, got {num_entrants}; list an "
                "agent several times to give it several seats (e.g. heuristic random random "
                "random)"
            )
    return counts


def make_schedule(
    num_entrants: int,
    num_players: int | Sequence[int],
    games: int,
    seed: int,
    game: str | Game = "noir",
) -> Schedule:
    """The balanced schedule of the module docstring: per table size, ceil(games / K)
    rounds of K games on one deal each, every entrant in every seat once per round. A
    lineup has one column per seat of the game's largest table."""
    if int(games) < 1:
        raise ValueError(f"games must be >= 1, got {games}")
    game = get_game(game)
    k = int(num_entrants)
    seeds, lineups = [], []
    for n in check_player_counts(num_players, k, game):
        rng = np.random.default_rng([int(seed), n])  # sizes do not shift each other's draws
        rounds = -(-int(games) // k)
        deal = rng.integers(0, 2**62, size=rounds)
        perms = np.argsort(rng.random((rounds, k)), axis=1)  # one entrant order per round
        table = (np.arange(k)[:, None] + np.arange(n)[None, :]) % k  # [K tables, n seats]
        seated = perms[:, table].reshape(rounds * k, n)
        lineup = np.full((rounds * k, game.max_players), -1, np.int64)
        lineup[:, :n] = seated
        seeds.append(np.repeat(deal, k))
        lineups.append(lineup)
    return Schedule(np.concatenate(seeds).astype(np.int64), np.concatenate(lineups))


def seat_counts(num_entrants: int, schedule: Schedule) -> np.ndarray:
    """int [K, seats]: how many games each entrant played in each seat."""
    out = np.zeros((num_entrants, schedule.lineups.shape[1]), np.int64)
    for q in range(schedule.lineups.shape[1]):
        seated = schedule.lineups[:, q]
        out[:, q] = np.bincount(seated[seated >= 0], minlength=num_entrants)
    return out
