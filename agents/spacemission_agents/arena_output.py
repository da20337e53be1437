"""Terminal and picture output of the arena: the progress bar, the rich tables and the
PNG (win-rate matrix heat map and rating bars)."""
from __future__ import annotations

import contextlib
import math
import time
from decimal import ROUND_HALF_EVEN, Decimal

import numpy as np

from spacemission_env.extras import require
from spacemission_env.games import get_game


def games_per_s(rate: float) -> str:
    """A rate for people: one decimal below 10 games/s (a slow run is not "0 games/s")."""
    return f"{rate:,.1f} games/s" if rate < 10 else f"{rate:,.0f} games/s"


@contextlib.contextmanager
def progress_bar(total: int, enabled: bool = True, description: str = "arena"):
    """Yields ``show(done)`` (games finished so far). A rich bar on stderr with games/s
    and time left, shown only when ``enabled`` and stderr is a terminal (never in tests or pipes)."""
    Console = require("rich.console", "agents", "the arena's progress bar").Console

    console = Console(stderr=True)
    if not enabled or not console.is_terminal:
        yield lambda n: None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)

    columns = (TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
               TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TextColumn("elapsed,"), TimeRemainingColumn(),
               TextColumn("left"))
    start = time.perf_counter()
    with Progress(*columns, console=console) as prog:
        task = prog.add_task(description, total=total, rate="")

        def show(done: int) -> None:
            rate = done / max(time.perf_counter() - start, 1e-9)
            prog.update(task, completed=done, rate=games_per_s(rate))

        yield show


def _fmt(x: float, digits: int = 3, scale: int = 1) -> str:
    """x * scale with ``digits`` decimals: the value results.json writes (its repr), rounded
    half to even. (Before, the binary value was rounded: 0.2875 = 11.5/40 printed as 28.7%.)"""
    if x is None or not math.isfinite(float(x)):
        return "-"
    d = (Decimal(repr(float(x))) * scale).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)
    return f"{d:f}"


def _pct(x: float) -> str:
    return _fmt(x, 1, scale=100)


def _count(n: int, word: str) -> str:
    """``n`` and ``word``, plural unless ``n`` is 1 ("1 deal", "100 deals")."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def tables(result) -> list:
    """[agents table, pairs table] (rich.table.Table)."""
    Table = require("rich.table", "agents", "the arena's tables").Table

    cfg = result.config
    game = get_game(cfg.get('game', 'spacemission'))
    title = (f"{game.description.title}: {cfg['num_players']} players, rules {cfg['rules']}, {result.num_games} games "
             f"({_count(cfg['deals_per_lineup'], 'deal')} x {_count(cfg['seatings_per_deal'], 'seating')} x "
             f"{_count(len(cfg['lineups']), 'lineup')}), seed {cfg['seed']}")
    limit = not game.fixed_length  # the share of games ended at the round limit (R-E3); none in a game of fixed length
    # one deal: every interval sees only the spread of its seatings, not how results vary from deal to deal
    caption = (f"one deal per lineup: the 95% intervals cannot see how results vary from deal to deal; "
               f"play more than {cfg['seatings_per_deal']} games per lineup for intervals over deals"
               if cfg["deals_per_lineup"] == 1 else None)
    at = Table(title=title, caption=caption)
    for col in ("agent", "games", "win % [95% CI]", "mean rank [95% CI]", "score", "rating mu+-sigma", "ordinal",
                *(("R-E3",) if limit else ()), "forfeits"):
        at.add_column(col, justify="left" if col == "agent" else "right", no_wrap=col == "agent")
    for a in sorted(result.agents, key=lambda a: -a.ordinal):
        at.add_row(a.name, str(a.games), f"{_pct(a.win_rate)} [{_pct(a.win_ci_low)}, {_pct(a.win_ci_high)}]",
                   f"{_fmt(a.mean_rank, 2)} [{_fmt(a.rank_ci_low, 2)}, {_fmt(a.rank_ci_high, 2)}]",
                   _fmt(a.mean_score["total"], 1), f"{_fmt(a.mu, 1)} +- {_fmt(a.sigma, 1)}", _fmt(a.ordinal, 1),
                   *((f"{_pct(a.round_limit_share)}%",) if limit else ()), str(a.forfeits))
    pt = Table(title="pairs: win % of the first (ties half); score: mean, first : second"
               + ("; R-E3: share at the round limit" if limit else ""))
    for col in ("pair", "games", "win % [95% CI]", "W-T-L", "score", *(("R-E3",) if limit else ()), "forfeits"):
        pt.add_column(col, justify="left" if col == "pair" else "right", no_wrap=col == "pair")
    names = [a.name for a in result.agents]
    for (x, y), p in result.pairs.items():
        if names.index(x) > names.index(y):
            continue
        pt.add_row(f"{x} vs {y}", str(p.games), f"{_pct(p.win_rate)} [{_pct(p.ci_low)}, {_pct(p.ci_high)}]",
                   f"{p.wins}-{p.ties}-{p.losses}", f"{_fmt(p.mean_score['total'], 1)} : {_fmt(p.opponent_mean_score['total'], 1)}",
                   *((f"{_pct(p.round_limit_share)}%",) if limit else ()), f"{p.forfeits} : {p.opponent_forfeits}")
    return [at, pt]


def plot_png(result, path) -> None:
    """Win-rate matrix (row agent against column agent, 95% CI under each rate) and the
    OpenSkill ratings (mu with +-2 sigma whiskers, the ordinal mu - 3 sigma as a dot)."""
    matplotlib = require("matplotlib", "agents", "the arena's plot")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [a.name for a in result.agents]
    k = len(names)
    mat = np.full((k, k), np.nan)
    for (x, y), p in result.pairs.items():
        mat[names.index(x), names.index(y)] = p.win_rate
    label = 0.075 * max(len(n) for n in names)  # inches a tick label needs (a spec may be long: MODULE:CLASS:K=V)
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(5 + 1.4 * k + 2 * label, 1.5 + 0.9 * k + 0.5 * label),
                                   gridspec_kw={"width_ratios": [1.2, 1]})
    im = ax1.imshow(mat, vmin=0, vmax=1, cmap="RdYlGn")
    ax1.set_xticks(range(k), names, rotation=30, ha="right")
    ax1.set_yticks(range(k), names)
    ax1.set_xlabel("opponent")
    ax1.set_title("win rate of row vs column")
    for (x, y), p in result.pairs.items():
        i, j = names.index(x), names.index(y)
        r, g, b, _ = im.cmap(im.norm(p.win_rate))  # the cell's colour: white text on the dark ends of the scale
        ink = "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black"
        ax1.text(j, i, f"{_fmt(p.win_rate, 2)}\n[{_fmt(p.ci_low, 2)}, {_fmt(p.ci_high, 2)}]", ha="center", va="center",
                 fontsize=8, color=ink)
    fig.colorbar(im, ax=ax1, fraction=0.046, pad=0.04)
    mu = np.array([a.mu for a in result.agents])
    sigma = np.array([a.sigma for a in result.agents])
    ordinal = np.array([a.ordinal for a in result.agents])
    y = np.arange(k)
    ax2.barh(y, mu, xerr=2 * sigma, color="tab:blue", alpha=0.7, capsize=4, label="mu (bar), +- 2 sigma (whiskers)")
    ax2.plot(ordinal, y, "ko", label="ordinal (mu - 3 sigma)")
    ax2.set_yticks(y, names)
    ax2.invert_yaxis()
    ax2.set_xlabel("OpenSkill rating (Plackett-Luce)")
    ax2.set_title("ratings")
    ax2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=2, fontsize=7, frameon=False)
    cfg = result.config
    title = get_game(cfg.get("game", "spacemission")).description.title
    fig.suptitle(f"{title} arena: {cfg['num_players']} players, {cfg['rules']}, {result.num_games} games, seed {cfg['seed']}")
    try:
        fig.tight_layout()
        fig.savefig(path, dpi=110)
    finally:  # a failed write (full disk, directory gone) leaves no figure open in pyplot
        plt.close(fig)
