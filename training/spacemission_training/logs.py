"""Run logs: TensorBoard scalars and the same values in ``metrics.csv``, a progress
display, the periodic arena evaluation and the learning-curve PNG.

``metrics.csv`` is long format, one scalar per row: ``step,wall_s,key,value`` (the
TensorBoard tag, step and value), so that rows with different keys (training losses each
update, evaluations now and then) share one file. On resume both are cut back to the
checkpoint's step (TensorBoard's ``purge_step``), so a resumed run's logs read like an
unbroken one's.
"""
from __future__ import annotations

import csv
import math
import sys
import time
from pathlib import Path

import numpy as np

__all__ = ["RunLog", "evaluate", "plot_curves", "read_metrics"]

CSV_NAME = "metrics.csv"
HEADER = ["step", "wall_s", "key", "value"]


class RunLog:
    """TensorBoard (``run_dir/tb``) + ``run_dir/metrics.csv``; ``resume_step``: drop what a
    killed run logged after its last checkpoint (rows at a later step, a row the kill cut
    short), and the rows at ``resume_step`` itself whose key starts with one of
    ``drop_at_resume_step`` (what a run logs after its checkpoint at that step: the SB3
    trainer's ``final/`` evaluation, which the resumed run's end logs again)."""

    def __init__(self, run_dir: Path, resume_step: int | None = None, tensorboard: bool = True,
                 drop_at_resume_step: tuple[str, ...] = ()):
        self.path = Path(run_dir) / CSV_NAME
        if resume_step is not None and self.path.exists():
            with open(self.path, newline="") as f:
                rows = [r for r in csv.reader(f)]
            keep = [HEADER] + [r for r in rows if r != HEADER and _row_step(r) <= resume_step and not (
                drop_at_resume_step and _row_step(r) == resume_step and r[2].startswith(drop_at_resume_step))]
            with open(self.path, "w", newline="") as f:
                csv.writer(f).writerows(keep)
        new = not self.path.exists()
        self._file = open(self.path, "a", newline="")
        self._csv = csv.writer(self._file)
        if new:
            self._csv.writerow(HEADER)
        self._tb = None
        if tensorboard:
            from torch.utils.tensorboard import SummaryWriter

            self._tb = SummaryWriter(str(Path(run_dir) / "tb"),
                                     purge_step=None if resume_step is None else resume_step + 1)
        self.latest: dict[str, float] = {}

    def log(self, step: int, values: dict, wall_s: float) -> None:
        for key, value in values.items():
            if value is None or (isinstance(value, float) and math.isnan(value)):
                continue
            v = float(value)
            self._csv.writerow([int(step), f"{wall_s:.1f}", key, repr(v)])
            if self._tb is not None:
                self._tb.add_scalar(key, v, int(step))
            self.latest[key] = v

    def flush(self) -> None:
        self._file.flush()
        if self._tb is not None:
            self._tb.flush()

    def close(self) -> None:
        self.flush()
        self._file.close()
        if self._tb is not None:
            self._tb.close()


def _row_step(row: list[str]) -> float:
    """A metrics.csv row's step; infinity (dropped on resume) for a row a kill cut short."""
    if len(row) != 4:
        return math.inf
    try:
        int(row[0]), float(row[3])
        return int(row[0])
    except ValueError:
        return math.inf


def read_metrics(run_dir) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """{key: (steps, values)} from a run's metrics.csv."""
    out: dict[str, list] = {}
    with open(Path(run_dir) / CSV_NAME, newline="") as f:
        for row in csv.DictReader(f):
            out.setdefault(row["key"], []).append((int(row["step"]), float(row["value"])))
    return {k: (np.array([s for s, _ in v]), np.array([x for _, x in v])) for k, v in out.items()}


def metric_name(spec: str) -> str:
    """An agent spec as the middle part of a metric key (``eval/<name>/win_rate``,
    ``games/<name>/score``, ``pool/<name>/p``): the whole spec, so ``heuristic`` and ``heuristic:rival_weight=0.6``
    or two ``ppo:PATH`` files keep apart, with ``/`` written ``|`` so the key still splits
    into its three parts."""
    return spec.replace("/", "|")


def evaluate(agent, opponents: list[str], *, num_players: int, rules: str, max_rounds: int, games: int,
             seed: int, game: str = "spacemission") -> dict[str, float]:
    """The agent against each opponent spec in the arena (duplicate format, ``games`` games
    per opponent, fixed ``seed``): ``eval/<opp>/win_rate`` with its 95% interval
    (``ci_low``/``ci_high``) and, for 3-5 players, the agent's ``mean_rank``. A learner
    trained on the ``"seer"`` observation (a teacher) is evaluated on it too: these are
    its learning curve's numbers, not ratings (``allow_seer``)."""
    from spacemission_agents.arena import run_arena

    out: dict[str, float] = {}
    for opp in opponents:
        res = run_arena([agent, opp], num_players=num_players, games=games, rules=rules, max_rounds=max_rounds,
                        game=game, seed=seed, workers=1, progress=False, record=False, log=lambda msg: None,
                        allow_seer=True)
        me, other = res.config["agents"][0], res.config["agents"][1]
        pair = res.pair(me, other)
        key = f"eval/{metric_name(opp)}"
        out[f"{key}/win_rate"], out[f"{key}/ci_low"], out[f"{key}/ci_high"] = pair.win_rate, pair.ci_low, pair.ci_high
        if num_players > 2:
            out[f"{key}/mean_rank"] = res.agent(me).mean_rank
    return out


def run_title(run_dir) -> str:
    """The learning curve's title: the run folder's name and, from its config.json where
    there is one, the game and the player count (``rp4: Mission: Red Planet, 4 players``)."""
    import json

    name = Path(run_dir).name
    try:
        cfg = json.loads((Path(run_dir) / "config.json").read_text())["config"]
        from spacemission_env.games import get_game

        return f"{name}: {get_game(cfg.get('game', 'spacemission')).description.title}, {int(cfg['players'])} players"
    except Exception:  # noqa: BLE001 - no config.json, or not a run's: the folder's name alone
        return name


def plot_curves(run_dir, path=None, title: str | None = None) -> Path:
    """learning_curve.png: evaluation win rates (95% band) against steps, with the final
    evaluation (``final/...``) as a point with its interval, and the training win rate per
    opponent group; titled with the run's game (``run_title``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    m = read_metrics(run_dir)
    path = Path(path) if path is not None else Path(run_dir) / "learning_curve.png"
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    ax = axes[0]
    colors: dict[str, str] = {}
    for key in sorted(k for k in m if k.startswith("eval/") and k.endswith("/win_rate")):
        steps, wr = m[key]
        name = key.split("/")[1]
        line, = ax.plot(steps, wr, marker="o", ms=3, label=f"vs {name}")
        colors[name] = line.get_color()
        lo, hi = m.get(key.replace("win_rate", "ci_low")), m.get(key.replace("win_rate", "ci_high"))
        if lo is not None and hi is not None and len(lo[1]) == len(wr):
            ax.fill_between(steps, lo[1], hi[1], color=line.get_color(), alpha=0.15)
    # the evaluation at the end (--final-eval-games): the only one of a run with --eval-every 0
    # (Red Planet's default), whose panel was empty before
    for key in sorted(k for k in m if k.startswith("final/") and k.endswith("/win_rate")):
        steps, wr = m[key]
        name = key.split("/")[1]
        lo, hi = m.get(key.replace("win_rate", "ci_low")), m.get(key.replace("win_rate", "ci_high"))
        err = None
        if lo is not None and hi is not None and len(lo[1]) == len(wr) == len(hi[1]):
            err = np.clip([wr - lo[1], hi[1] - wr], 0, None)
        ax.errorbar(steps, wr, yerr=err, fmt="D", ms=5, capsize=3, color=colors.get(name),
                    label=f"vs {name} (final)")
    ax.set(xlabel="learner steps", ylabel="win rate (arena, 95% CI)", ylim=(0, 1), title="evaluation")
    ax.grid(alpha=0.3)
    if ax.lines or ax.containers:
        ax.legend(loc="lower right")
    ax = axes[1]
    for key in sorted(k for k in m if k.startswith("games/") and k.endswith("/score")):
        steps, v = m[key]
        ax.plot(steps, v, lw=1, label=key.split("/")[1])
    ax.set(xlabel="learner steps", ylabel="learner's score vs the group (recent games)", ylim=(0, 1),
           title="training games")
    ax.grid(alpha=0.3)
    if ax.lines:
        ax.legend(loc="lower right", fontsize=8)
    fig.suptitle(title or run_title(run_dir))
    try:
        fig.tight_layout()
        fig.savefig(path, dpi=110)
    finally:  # a failed write (full disk, directory gone) leaves no figure open in pyplot
        plt.close(fig)
    return path


class Progress:
    """A rich progress bar (steps, steps/s, latest win rates) when stdout is a terminal; else
    (a pipe, a log file) a plain line on stdout every ``every_s`` seconds."""

    def __init__(self, total: int, start: int, enabled: bool | None = None, every_s: float = 30.0):
        self.total, self.every_s = total, every_s
        self.enabled = sys.stdout.isatty() if enabled is None else enabled  # where the bar and lines go
        self._last = 0.0
        self._t0, self._s0 = time.perf_counter(), start
        self._bar = None
        if self.enabled:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn, \
                TimeElapsedColumn, TimeRemainingColumn

            self._bar = RichProgress(TextColumn("train"), BarColumn(), MofNCompleteColumn(),
                                     TextColumn("{task.fields[speed]} steps/s"), TimeElapsedColumn(),
                                     TimeRemainingColumn(), TextColumn("{task.fields[info]}"))
            self._bar.start()
            self._task = self._bar.add_task("train", total=total, completed=start, speed="-", info="")

    def update(self, step: int, info: str) -> None:
        dt = time.perf_counter() - self._t0
        speed = (step - self._s0) / dt if dt > 0 else 0.0
        self.total = max(self.total, step)  # a trainer whose last iteration runs past its total
        if self._bar is not None:
            self._bar.update(self._task, total=self.total, completed=step, speed=f"{speed:,.0f}", info=info)
        elif time.perf_counter() - self._last >= self.every_s or step >= self.total:
            self._last = time.perf_counter()
            print(f"step {step:,}/{self.total:,}  {speed:,.0f} steps/s  {info}", flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
