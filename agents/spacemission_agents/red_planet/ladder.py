"""A small ladder for the Red Planet bots on the reference engine (docs/red_planet/agents.md).

``play_ladder(lineup, num_games, seed)`` plays ``num_games`` games of ``len(lineup)``
players, one bot per seat, and returns each bot's mean rank and win rate with 95%
intervals. Games come in *duplicate sets*: deal d (``new_game(n, seed + d)``) is played
``n`` times with the lineup rotated by one seat each time, so every bot meets the same
deals from every seat; the intervals are cluster-robust over the deals
(``arena_stats.mean_ci`` and ``proportion_ci``: Wilson, widened by the design effect).
Ranks are average ranks (1 = best, tied players share the mean of their places, M-P4);
a win shared by k players counts 1/k. Copies of one bot (``["greedy"] * 4``) are pooled
under one name; a bot of the lineup is built once and plays all its seats.

The games run in lockstep and each bot decides for all its pending seats with one
``act_batch`` call per step, so the bots' speed is that of their batched path::

    python -m spacemission_agents.red_planet.ladder --lineup heuristic,greedy,random --games 999
    python -m spacemission_agents.red_planet.ladder --speed    # decisions/s by batch size
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from spacemission_env.checks import shown
from spacemission_env.red_planet.encoding import observe
from spacemission_env.red_planet.rules import (
    apply,
    is_over,
    legal_action_mask,
    new_game,
    scores,
)

from spacemission_env.checks import check_memory, count_text
from spacemission_env.games import GameConfig

from ..arena_stats import mean_ci, proportion_ci

BOTS = {"random": "random_bot:RandomBot", "greedy": "greedy:GreedyBot", "heuristic": "heuristic:HeuristicBot"}
# a lower bound of one reference game's memory: every game is held until the last ends (10.4 KiB
# were measured for a new 3-player game, 12.4 KiB at 5 players)
GAME_BYTES = 8 * 1024


def make_bot(name: str, seed: int | None = 0):
    """A bot of ``BOTS`` by name; ValueError listing the names for an unknown one."""
    import importlib

    if name not in BOTS:
        raise ValueError(f"unknown Red Planet bot {shown(name)}; expected one of {sorted(BOTS)}")
    module, cls = BOTS[name].split(":")
    return getattr(importlib.import_module(f"{__package__}.{module}"), cls)(seed=seed)


@dataclass
class BotStats:
    name: str
    seats: int  # seat-games played
    mean_rank: tuple[float, float, float]  # (mean, low, high)
    win_rate: tuple[float, float, float]  # (estimate, low, high)
    mean_score: float


@dataclass
class LadderResult:
    num_players: int
    games: int
    lineup: list[str]
    stats: list[BotStats]
    seconds: float
    decisions: int

    def markdown(self) -> str:
        rows = ["| bot | seat-games | mean rank [95% CI] | win rate [95% Wilson] | mean score |",
                "|---|---|---|---|---|"]
        for s in self.stats:
            m, ml, mh = s.mean_rank
            w, wl, wh = s.win_rate
            rows.append(f"| {s.name} | {s.seats} | {m:.2f} [{ml:.2f}, {mh:.2f}] | {w:.3f} [{wl:.3f}, {wh:.3f}] | "
                        f"{s.mean_score:.1f} |")
        return "\n".join(rows)


def average_ranks(totals: np.ndarray) -> np.ndarray:
    """[P] average ranks of one game's totals: 1 = best, ties share the mean of their places."""
    better = (totals[None, :] > totals[:, None]).sum(axis=1)
    tied = (totals[None, :] == totals[:, None]).sum(axis=1)
    return 1.0 + better + (tied - 1) / 2.0


def play_ladder(lineup, num_games: int, seed: int = 0, names: list[str] | None = None) -> LadderResult:
    """Play the games (module docstring). ``lineup``: one bot name of ``BOTS`` or policy
    object per seat (3-5 seats, M-X2); ``num_games``: a positive int, best a multiple of
    the seats (a last, partial duplicate set is played as far as it goes); ``names``
    labels the lineup (default: the bot names, or the objects' ``name``). ValueError for
    an unknown bot name, a player count outside 3-5 or a bad ``num_games`` (one whose games,
    all held at once, could not fit this machine's memory included); every object's ``bind``
    is called with the game before any game (its ValueError: a bot that does not play it)."""
    n = len(lineup)
    if isinstance(num_games, bool) or not isinstance(num_games, int) or num_games < 1:
        raise ValueError(f"num_games must be a positive int, got {shown(num_games)}")
    check_memory(f"num_games={count_text(num_games)}: that many games, all held until the last ends, need",
                 num_games * GAME_BYTES, "play fewer (or split them over seeds)",
                 f" ({GAME_BYTES // 1024} KiB each at the least)")
    built: dict[str, Any] = {}
    bots = []
    for i, entry in enumerate(lineup):
        if isinstance(entry, str):
            built.setdefault(entry, make_bot(entry, seed=seed + 1000 * len(built)))
            bots.append(built[entry])
        else:
            bots.append(entry)
    config = GameConfig(n, game="red_planet")
    for bot in {id(b): b for b in bots}.values():  # before any game, as the arena does: a clear refusal
        bind = getattr(bot, "bind", None)
        if callable(bind):
            bind(config)
    labels = list(names) if names is not None else [e if isinstance(e, str) else getattr(e, "name", repr(e))
                                                     for e in lineup]
    states, seat_bot = [], []
    for g in range(num_games):
        deal, shift = divmod(g, n)
        states.append(new_game(n, seed=seed + deal))
        seat_bot.append([(s + shift) % n for s in range(n)])  # lineup index at each seat
    start, decisions = time.perf_counter(), 0
    active = list(range(num_games))
    while active:
        groups: dict[int, list[int]] = {}
        for g in active:
            b = seat_bot[g][states[g].current_player]
            groups.setdefault(id(bots[b]), []).append(g)
        for key, games in groups.items():
            bot = next(bots[i] for i in range(n) if id(bots[i]) == key)
            masks = np.stack([legal_action_mask(states[g]) for g in games])
            if getattr(bot, "uses_observation", True):
                kind = getattr(bot, "observation_type", None) or "info"
                obs = np.stack([observe(states[g], states[g].current_player, kind) for g in games])
            else:
                obs = np.zeros((len(games), 0), dtype=np.int8)
            for g, a in zip(games, bot.act_batch(obs, masks)):
                apply(states[g], int(a))
            decisions += len(games)
        active = [g for g in active if not is_over(states[g])]
    seconds = time.perf_counter() - start
    # per seat-game: label, rank, win share, score, deal
    rows = []
    for g, st in enumerate(states):
        totals = np.array([r["total"] for r in scores(st)])
        ranks = average_ranks(totals)
        top = totals == totals.max()
        for s in range(n):
            rows.append((labels[seat_bot[g][s]], ranks[s], top[s] / top.sum(), totals[s], g // n))
    stats = []
    for label in dict.fromkeys(labels):
        sel = [r for r in rows if r[0] == label]
        rank = np.array([r[1] for r in sel])
        win = np.array([r[2] for r in sel])
        deals = np.array([r[4] for r in sel])
        stats.append(BotStats(label, len(sel), mean_ci(rank, deals, bounds=(1.0, float(n))), proportion_ci(win, deals),
                              float(np.mean([r[3] for r in sel]))))
    return LadderResult(n, num_games, labels, stats, seconds, decisions)


def random_positions(num_players: int, games: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(info observations [M, D] of the seat to act, masks [M, 243]) of every decision of
    ``games`` uniformly random games (``new_game(num_players, seed + g)``)."""
    rng = np.random.default_rng(seed)
    obs, masks = [], []
    for g in range(games):
        state = new_game(num_players, seed=seed + g)
        while not is_over(state):
            mask = legal_action_mask(state)
            obs.append(observe(state, state.current_player, "info"))
            masks.append(mask)
            apply(state, int(rng.choice(np.flatnonzero(mask))))
    return np.array(obs), np.array(masks)


def decision_speed(bot, obs: np.ndarray, masks: np.ndarray, batch: int, seconds: float = 2.0) -> float:
    """Decisions per second of ``bot.act_batch`` on the positions, ``batch`` rows a call."""
    bot.act_batch(obs[:batch], masks[:batch])  # warm-up
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for i in range(0, len(obs), batch):
            done += len(bot.act_batch(obs[i:i + batch], masks[i:i + batch]))
    return done / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--lineup", help="comma-separated bot names, one per seat (3-5): " + ", ".join(BOTS))
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--speed", action="store_true", help="instead: decisions/s of each bot on random 4-player positions")
    args = p.parse_args(argv)
    if args.speed:
        obs, masks = random_positions(4, 8, args.seed)
        print(f"{len(obs)} positions of 8 random 4-player games; decisions/s of act_batch by batch size")
        print("| bot | batch 1 | batch 64 | batch 1024 |\n|---|---|---|---|")
        for name in BOTS:
            bot = make_bot(name, seed=0)
            speeds = [f"{decision_speed(bot, obs, masks, b):,.0f}" for b in (1, 64, 1024)]
            print(f"| {name} | " + " | ".join(speeds) + " |")
        return 0
    if not args.lineup:
        p.error("--lineup is required (or --speed)")
    lineup = args.lineup.split(",")
    try:
        res = play_ladder(lineup, args.games, seed=args.seed)
    except ValueError as exc:  # a bad lineup or game count: before any game
        p.error(str(exc))
    print(f"{res.num_players} players, lineup {','.join(lineup)}, {res.games} games (seed {args.seed}), "
          f"{res.decisions} decisions in {res.seconds:.1f} s")
    print(res.markdown())
    return 0


if __name__ == "__main__":
    sys.exit(main())
