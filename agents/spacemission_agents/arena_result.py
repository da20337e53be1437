"""The result of an arena run and its files: results.json, pairs.csv, agents.csv,
arena.png (formats: docs/arena.md, "Output files")."""
from __future__ import annotations

import csv
import json
import math
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from spacemission_env.checks import shown

from .arena_files import ArenaArgumentError, check_out, earlier_run_message
from .arena_stats import AgentStats, Games, PairStats

RESULTS_FORMAT = "spacemission-arena-results"
RESULTS_VERSION = 1
SAVED_FILES = ("results.json", "pairs.csv", "agents.csv", "arena.png")  # what save writes, in this order


def _clean(x):
    """NaN -> None, recursively, so the JSON is strict."""
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    return x


@dataclass
class ArenaResult:
    """``config``: the run's settings and schedule; ``agents``: one AgentStats per agent
    (in the order given); ``pairs``: PairStats by (agent, opponent) for every ordered pair
    that met; ``games``: the per-game table (arena_stats.Games); ``forfeits``: one dict per
    forfeited game (with its message); ``timing``: wall time, games/s and per-agent
    decision speed -- the only part that differs between runs with the same seed."""

    config: dict
    agents: list[AgentStats]
    pairs: dict[tuple[str, str], PairStats]
    games: Games
    forfeits: list[dict]
    timing: dict

    def agent(self, name: str) -> AgentStats:
        for a in self.agents:
            if a.name == name:
                return a
        raise KeyError(f"no agent {shown(name)}; agents: {self._names()}")

    def pair(self, agent: str, opponent: str) -> PairStats:
        """Statistics of ``agent`` against ``opponent`` (KeyError if they never met)."""
        try:
            return self.pairs[(agent, opponent)]
        except KeyError:
            raise KeyError(f"no games between {shown(agent)} and {shown(opponent)}; agents: {self._names()}") from None

    def _names(self) -> str:
        """The agents' names for a KeyError, each cut (``shown``): a 5000-character name
        was repeated whole."""
        return ", ".join(shown(a.name) for a in self.agents)

    @property
    def num_games(self) -> int:
        return len(self.games)

    def to_dict(self, timing: bool = True) -> dict:
        """Everything but the per-game table, JSON-ready (NaN as None)."""
        d = {
            "format": RESULTS_FORMAT, "version": RESULTS_VERSION, "config": self.config,
            "totals": {
                "games": self.num_games,
                "round_limit_share": float(self.games.round_limit[self.games.forfeit_seat < 0].mean())
                if (self.games.forfeit_seat < 0).any() else float("nan"),
                "forfeits": len(self.forfeits),
            },
            "agents": [asdict(a) for a in self.agents],
            "pairs": [asdict(p) for p in self.pairs.values()],
            "forfeits": self.forfeits,
        }
        if timing:
            d["timing"] = self.timing
        return _clean(d)

    def save(self, out: str | os.PathLike[str], overwrite: bool = False) -> dict[str, Path]:
        """Write results.json, pairs.csv, agents.csv and arena.png into the directory ``out``
        (created). One that holds any of the four already (an earlier run's) is refused, as
        run_arena refuses it, unless ``overwrite``: ArenaArgumentError (a ValueError naming
        ``out``), before anything is written. A ``games.jsonl`` there is left as it is."""
        if not isinstance(overwrite, (bool, np.bool_)):
            raise ArenaArgumentError("overwrite", f"overwrite must be True or False, got {shown(overwrite)}")
        found = check_out(out, SAVED_FILES)
        if found and not overwrite:
            raise ArenaArgumentError("out", earlier_run_message(out, found, "saving"))
        return self._write(Path(out))

    def _write(self, out: Path) -> dict[str, Path]:
        from .arena_output import plot_png

        out.mkdir(parents=True, exist_ok=True)
        paths = {k: out / f for k, f in zip(("json", "pairs", "agents", "png"), SAVED_FILES)}
        paths["json"].write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        self._write_csv(paths["pairs"], [self._pair_row(p) for p in self.pairs.values()])
        self._write_csv(paths["agents"], [self._agent_row(a) for a in self.agents])
        plot_png(self, paths["png"])
        return paths

    @staticmethod
    def _pair_row(p: PairStats) -> dict:
        row = {k: v for k, v in asdict(p).items() if not isinstance(v, dict)}
        row.update({f"score_{k}": v for k, v in p.mean_score.items()})
        row.update({f"opponent_score_{k}": v for k, v in p.opponent_mean_score.items()})
        return row

    @staticmethod
    def _agent_row(a: AgentStats) -> dict:
        row = {k: v for k, v in asdict(a).items() if not isinstance(v, dict)}
        row.update({f"score_{k}": v for k, v in a.mean_score.items()})
        return row

    @staticmethod
    def _write_csv(path: Path, rows: list[dict]) -> None:
        with open(path, "w", newline="", encoding="utf-8") as fh:
            if not rows:
                return
            w = csv.DictWriter(fh, fieldnames=list(rows[0]))
            w.writeheader()
            for r in rows:
                w.writerow({k: ("" if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()})

    def table(self):
        """The results as rich renderables (see arena_output.tables)."""
        from .arena_output import tables

        return tables(self)
