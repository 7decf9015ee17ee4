"""The learning curve of a `train.ppo` run: win rate over training from its `eval.csv`, one
line per evaluation opponent and player count with the 95% band, as a PNG and a Markdown
table.

    python -m train.curves runs/my_run                    # writes runs/my_run/learning_curve.png
    python -m train.curves runs/my_run --out docs/ppo_learning_curve.png --table
    python -m train.curves runs/base runs/fine_tune   # stages of one policy, end to end

Several folders are stages of one policy (each run started from the previous one's policy
with `train.ppo --init`): drawn end to end, each stage's decisions and minutes continuing
from where the previous stage's rows end, a dotted line where each stage begins.
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from pathlib import Path

from .cli import Parser, first_paragraph


def read_eval(run_dir: str | Path) -> list[dict]:
    """The rows of `<run_dir>/eval.csv` with numbers as numbers."""
    path = Path(run_dir) / "eval.csv"
    if not path.is_file():
        raise ValueError(f"{path} does not exist: is {run_dir} a train.ppo run folder?")
    with path.open() as f:
        rows = list(csv.DictReader(f))
    try:
        for r in rows:
            for key in ("update", "global_step", "players", "games"):
                r[key] = int(r[key])
            for key in ("elapsed_s", "win_rate", "ci95"):
                r[key] = float(r[key])
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(
            f"{path}: not an eval.csv of train.ppo ({type(e).__name__}: {e})"
        ) from None
    return rows


def chain(stages: list[list[dict]]) -> tuple[list[dict], list[float]]:
    """The rows of successive stages of one policy end to end: each stage's global_step and
    elapsed_s offset by the largest of the stages before it (update numbers stay the
    stage's own); with the decisions (millions) at which each later stage begins."""
    rows: list[dict] = []
    starts: list[float] = []
    step = elapsed = 0.0
    for i, stage in enumerate(stages):
        if i:
            starts.append(step / 1e6)
        shifted = [
            {**r, "global_step": int(r["global_step"] + step),
             "elapsed_s": r["elapsed_s"] + elapsed, "stage": i + 1}
            for r in stage
        ]  # fmt: skip
        rows += shifted
        if shifted:
            step = max(r["global_step"] for r in shifted)
            elapsed = max(r["elapsed_s"] for r in shifted)
    return rows, starts


def plot(rows: list[dict], out: str | Path, title: str = "", starts: Sequence[float] = ()) -> Path:
    """Left: the greedy policy's win rate against learner decisions, one line per
    evaluation opponent and player count (band: 95% interval), and the rate an equal player
    would have (1 / players). Right, when the run logged them (`league:<name>` rows): the learner's
    win rate relative to par in its training games against each league entry. `starts`:
    decisions (millions) at which a later stage begins (`chain`), drawn dotted."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    evals = [r for r in rows if not r["opponents"].startswith("league:")]
    league = [r for r in rows if r["opponents"].startswith("league:")]
    if not evals and not league:
        raise ValueError("no evaluation rows to plot")
    panels = [p for p in (evals, league) if p]
    fig, axes = plt.subplots(1, len(panels), figsize=(7 * len(panels), 4.5), squeeze=False)
    for ax, panel in zip(axes[0], panels, strict=True):
        _lines(ax, panel)
        ax.set_xlabel("learner decisions (millions)")
        ax.grid(alpha=0.3)
        for x in starts:
            ax.axvline(x, color="black", ls=":", lw=1)
    if evals:
        ax = axes[0][0]
        for players in sorted({r["players"] for r in evals}):
            ax.axhline(1 / players, color="grey", ls="--", lw=1,
                       label=f"equal player, {players} players ({1 / players:.0%})")  # fmt: skip
        ax.set_ylabel("win rate of the greedy policy")
        ax.set_ylim(0, 1)
        ax.set_title(title or "train.ppo learning curve")
        ax.legend(fontsize=8)
    if league:
        ax = axes[0][-1]
        ax.axhline(1.0, color="grey", ls="--", lw=1, label="par")
        ax.set_ylabel("training games: win rate / par")
        ax.set_ylim(bottom=0)
        ax.set_title("per league opponent (sampling policy, the run's player counts)")
        ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def _lines(ax, rows: list[dict]) -> None:
    """One line (and its 95% band) per opponent and player count of `rows` (stages of one
    policy may be evaluated at different table sizes: one line would join unlike rates)."""
    for opp, players in dict.fromkeys((r["opponents"], r["players"]) for r in rows):
        mine = [r for r in rows if r["opponents"] == opp and r["players"] == players]
        x = [r["global_step"] / 1e6 for r in mine]
        y = [r["win_rate"] for r in mine]
        ci = [r["ci95"] for r in mine]
        seats = f" ({players} players)" if players else ""
        ax.plot(x, y, marker="o", ms=3, label=f"vs {opp.removeprefix('league:')}{seats}")
        ax.fill_between(x, [a - c for a, c in zip(y, ci, strict=True)],
                        [a + c for a, c in zip(y, ci, strict=True)], alpha=0.2)  # fmt: skip


def table(rows: list[dict]) -> str:
    """A Markdown table of the evaluations."""
    staged = any(r.get("stage", 1) > 1 for r in rows)
    head = "| stage " if staged else ""
    lines = [f"{head}| update | decisions | minutes | opponents | games | win rate |",
             ("|---:" if staged else "") + "|---:|---:|---:|---|---:|---|"]  # fmt: skip
    for r in rows:
        stage = f"| {r['stage']} " if staged else ""
        lines.append(
            f"{stage}| {r['update']} | {r['global_step']:,} | {r['elapsed_s'] / 60:.0f} | "
            f"{_table_opponents(r)} | {r['games']} | {_table_rate(r)} |"
        )
    return "\n".join(lines)


def _table_opponents(r: dict) -> str:
    if r["opponents"].startswith("league:"):
        return f"{r['opponents'].removeprefix('league:')} (training games)"
    return f"{r['opponents']} x{r['players'] - 1}"


def _table_rate(r: dict) -> str:
    if r["opponents"].startswith("league:"):
        return f"{r['win_rate']:.2f} ± {r['ci95']:.2f} x par"
    return f"{r['win_rate']:.1%} ± {r['ci95']:.1%}"


def main(argv: list[str] | None = None) -> None:
    parser = Parser(prog="python -m train.curves", description=first_paragraph(__doc__))
    parser.add_argument("run_dir", nargs="+",
                        help="a train.ppo run folder (runs/<name>); several: stages of one "
                        "policy, drawn end to end")  # fmt: skip
    parser.add_argument("--out", help="PNG path (default: <last run_dir>/learning_curve.png)")
    parser.add_argument("--title", default="")
    parser.add_argument("--table", action="store_true", help="also print a Markdown table")
    args = parser.parse_args(argv)
    rows, starts = chain(parser.run(lambda: [read_eval(d) for d in args.run_dir]))
    out = parser.run(
        lambda: plot(
            rows, args.out or Path(args.run_dir[-1]) / "learning_curve.png", args.title, starts
        )  # fmt: skip
    )
    print(f"wrote {out}")
    if args.table:
        print(table(rows))


if __name__ == "__main__":
    main()
