"""The learning curve of a `train.ppo` run: win rate over training from its `eval.csv`, one
line per evaluation opponent with the 95% band, as a PNG and a Markdown table.

    python -m train.curves runs/my_run                    # writes runs/my_run/learning_curve.png
    python -m train.curves runs/my_run --out docs/ppo_learning_curve.png --table
"""

from __future__ import annotations

import csv
from pathlib import Path

from .cli import Parser


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


def plot(rows: list[dict], out: str | Path, title: str = "") -> Path:
    """Win rate against learner decisions, one line per opponent (band: 95% interval), and
    the rate an equal player would have (1 / players)."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    if not rows:
        raise ValueError("no evaluation rows to plot")
    fig, ax = plt.subplots(figsize=(7, 4))
    for opp in dict.fromkeys(r["opponents"] for r in rows):
        mine = [r for r in rows if r["opponents"] == opp]
        x = [r["global_step"] / 1e6 for r in mine]
        y = [r["win_rate"] for r in mine]
        ci = [r["ci95"] for r in mine]
        ax.plot(x, y, marker="o", ms=3, label=f"vs {opp} ({mine[0]['players']} players)")
        ax.fill_between(x, [a - c for a, c in zip(y, ci, strict=True)],
                        [a + c for a, c in zip(y, ci, strict=True)], alpha=0.2)  # fmt: skip
    par = 1 / rows[0]["players"]
    ax.axhline(par, color="grey", ls="--", lw=1, label=f"equal player ({par:.0%})")
    ax.set_xlabel("learner decisions (millions)")
    ax.set_ylabel("win rate of the greedy policy")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(title or "train.ppo learning curve")
    fig.tight_layout()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out


def table(rows: list[dict]) -> str:
    """A Markdown table of the evaluations."""
    lines = ["| update | decisions | minutes | opponents | games | win rate |",
             "|---:|---:|---:|---|---:|---|"]  # fmt: skip
    for r in rows:
        lines.append(
            f"| {r['update']} | {r['global_step']:,} | {r['elapsed_s'] / 60:.0f} | "
            f"{r['opponents']} x{r['players'] - 1} | {r['games']} | "
            f"{r['win_rate']:.1%} ± {r['ci95']:.1%} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = Parser(prog="python -m train.curves", description=__doc__.splitlines()[0])
    parser.add_argument("run_dir", help="a train.ppo run folder (runs/<name>)")
    parser.add_argument("--out", help="PNG path (default: <run_dir>/learning_curve.png)")
    parser.add_argument("--title", default="")
    parser.add_argument("--table", action="store_true", help="also print a Markdown table")
    args = parser.parse_args(argv)
    rows = parser.run(lambda: read_eval(args.run_dir))
    out = parser.run(
        lambda: plot(rows, args.out or Path(args.run_dir) / "learning_curve.png", args.title)
    )
    print(f"wrote {out}")
    if args.table:
        print(table(rows))


if __name__ == "__main__":
    main()
