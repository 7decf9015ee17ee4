"""The reports of a rating (`train.rate.Rating`): plain text for the terminal, Markdown for a
paper's appendix, and the ladder's own table in Markdown."""

from __future__ import annotations

from typing import Any


def _place(r: Any) -> str:
    if r.below is None:
        return f"below every rung (lowest: {r.above})"
    if r.above is None:
        return f"above every rung (highest: {r.below})"
    return f"between {r.below} (below) and {r.above} (above)"


def _rung_lines(r: Any) -> list[str]:
    lines = ["| rung | games together | agent won | rung won | agent's share | 95% CI | "
             "ratings predict |", "|---|---:|---:|---:|---:|---|---:|"]  # fmt: skip
    for x in r.per_rung:
        share = "-" if x["share"] is None else f"{x['share']:.1%}"
        ci = "-" if x["share"] is None else f"[{x['ci_low']:.1%}, {x['ci_high']:.1%}]"
        lines.append(f"| {x['rung']} | {x['games']} | {x['agent_won']} | {x['rung_won']} | "
                     f"{share} | {ci} | {x['expected']:.1%} |")  # fmt: skip
    return lines


def _players_lines(r: Any) -> list[str]:
    lines = ["| players | games | wins | win rate | 95% CI | par | rating there | 95% CI |",
             "|---:|---:|---:|---:|---|---:|---:|---|"]  # fmt: skip
    for x in r.per_players:
        lines.append(f"| {x['players']} | {x['games']} | {x['wins']} | {x['win_rate']:.1%} | "
                     f"[{x['ci_low']:.1%}, {x['ci_high']:.1%}] | {x['par']:.1%} | "
                     f"{x['rating']:.0f} | [{x['low']:.0f}, {x['high']:.0f}] |")  # fmt: skip
    return lines


def _headline(r: Any) -> str:
    return (f"{r.agent}: rating {r.rating:.0f}, 95% interval [{r.low:.0f}, {r.high:.0f}] "
            f"({r.games} games, {r.wins} won); {_place(r)}")  # fmt: skip


def text_report(r: Any) -> str:
    """The rating, its place and the two tables, for the terminal."""
    s = r.settings
    partial = "" if s.get("complete", True) else "  (partial: the protocol is not finished)"
    return "\n".join([
        _headline(r) + partial,
        "",
        "per rung (of the games both sat in and one of them won, the agent's share):",
        *_rung_lines(r),
        "",
        "per player count:",
        *_players_lines(r),
    ])  # fmt: skip


def markdown(r: Any) -> str:
    """The report a paper can cite: the rating, the versions, the protocol, the tables."""
    s = r.settings
    v = s.get("versions", {})
    ladder = s.get("ladder", {})
    kinds = ", ".join(f"{'+'.join(k['fixed'])}: {k['deals']} deals per player count"
                      for k in s.get("kinds", []))  # fmt: skip
    lines = [
        f"# Ladder rating of `{r.agent}`",
        "",
        f"**{r.rating:.0f}** (95% interval {r.low:.0f} to {r.high:.0f}), {_place(r)}.",
        "",
        f"- games: {s.get('games')} on {s.get('deals')} deals, seed {s.get('seed')}, "
        f"players {s.get('players')}" + ("" if s.get("complete", True) else " (partial run)"),
        f"- protocol: ladder version {s.get('ladder_version')}, {s.get('game')} rules "
        f"{s.get('rules')}; tables: {kinds}; each deal played once per seat rotation",
        f"- ladder: rungs frozen at the published ratings (measured with package "
        f"{ladder.get('package')}, {ladder.get('env_id')}, {ladder.get('games')} games, "
        f"seed {ladder.get('seed')}); anchor heuristic-v1 = 1000; model: who wins each "
        "table (Luce choice), 400 points = 10x odds; interval: cluster-robust over deals",
        f"- measured with: noir_env {v.get('package')}, {v.get('env_id')}, rules {v.get('rules')}",
    ]
    if s.get("command"):
        lines.append(f"- command: `{s['command']}`")
    lines += ["", "## Per rung", "", *_rung_lines(r), "", "## Per player count", "",
              *_players_lines(r), ""]  # fmt: skip
    return "\n".join(lines)


def ladder_table(rows: list[dict]) -> str:
    """The ladder as a Markdown table, strongest first."""
    lines = ["| rung | agent spec | rating | 95% interval | games | wins |",
             "|---|---|---:|---|---:|---:|"]  # fmt: skip
    for x in rows:
        interval = f"[{x['low']:.0f}, {x['high']:.0f}]"
        lines.append(f"| {x['name']} | `{x['spec']}` | {x['rating']:.0f} | {interval} | "
                     f"{x['games']} | {x['wins']} |")  # fmt: skip
    return "\n".join(lines)
