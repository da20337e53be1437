"""How each agent of a 2-player Space Mission arena plays: from an arena's games.jsonl
(``spacemission arena ... --out DIR``), per agent: games, win share (ties half), mean final
score and its categories (over the games played to their end, as the arena's mean scores:
a forfeited game's scores are provisional), mean rounds, decisions per game, and the share of its
decisions of each action kind (docs/actions.md ids: top_up, jump, fly, scan, develop,
discover, tile).

    python tools/arena_game_stats.py results/br/games.jsonl [more.jsonl ...] [--json OUT]
"""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.space_mission.actions import action_table

# (kind, first id, last id) from the engine's table (docs/actions.md)
KINDS = [(kind, int(ids.split("-")[0]), int(ids.split("-")[-1])) for ids, kind, _ in action_table()]
GAME_KEYS = {"config", "agents", "winners", "rounds", "scores", "actions"}  # what stats() reads of a game
CATEGORIES = ("jump_gate", "stations", "minerals", "aliens", "matter", "water", "medals", "total")


def kind_of(action_id: int) -> str:
    for name, lo, hi in KINDS:
        if lo <= action_id <= hi:
            return name
    raise ValueError(f"action id {action_id} is outside 0..99 (docs/actions.md)")


def stats(paths: list[str]) -> dict:
    """Per agent name: the figures of the module doc."""
    acc: dict = defaultdict(lambda: {"games": 0, "finished": 0, "points": 0.0, "rounds": 0, "decisions": 0,
                                     "kinds": defaultdict(int), "scores": defaultdict(float)})
    for path in paths:
        for number, line in enumerate(Path(path).read_text().splitlines(), 1):
            try:
                g = json.loads(line)
            except ValueError as e:
                raise ValueError(f"{path}, line {number}: not JSON ({e})") from None
            if not isinstance(g, dict) or not GAME_KEYS <= g.keys() or "num_players" not in (
                    g["config"] if isinstance(g["config"], dict) else {}):
                raise ValueError(f"{path}, line {number}: not a game record of an arena's games.jsonl")
            if g["config"]["num_players"] != 2:
                raise ValueError(f"{path}: a {g['config']['num_players']}-player game; this tool reads 2-player arenas")
            for seat, name in enumerate(g["agents"]):
                a = acc[name]
                a["games"] += 1
                a["points"] += 1.0 if g["winners"] == [seat] else 0.5 if seat in g["winners"] else 0.0
                a["rounds"] += g["rounds"]
                if g.get("forfeit") is None:  # a forfeited game's scores are provisional: left out, as the arena does
                    a["finished"] += 1
                    for c in CATEGORIES:
                        a["scores"][c] += g["scores"][seat][c]
                for who, action_id, _ in g["actions"]:
                    if who == seat:
                        a["decisions"] += 1
                        a["kinds"][kind_of(action_id)] += 1
    out = {}
    for name, a in acc.items():
        n, d = a["games"], max(a["decisions"], 1)
        out[name] = {"games": n, "win_share": a["points"] / n, "rounds": a["rounds"] / n,
                     "decisions_per_game": a["decisions"] / n,
                     "score": {c: a["scores"][c] / a["finished"] if a["finished"] else float("nan") for c in CATEGORIES},
                     "kind_share": {k: a["kinds"][k] / d for k, _, _ in KINDS}}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = UsageParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="+", help="games.jsonl files of 2-player arenas")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    if args.json is not None and Path(args.json).is_dir():
        ap.error(f"--json {args.json!r} is a folder; give a file name")
    try:
        out = stats(args.games)
    except (OSError, ValueError) as e:
        ap.error(str(e))
    if not out:
        ap.error(f"no games in {', '.join(args.games)}")
    cols = ["games", "win", "rounds", "dec/game", *CATEGORIES, *(k for k, _, _ in KINDS)]
    print(" | ".join(["agent", *cols]))
    for name, s in out.items():
        row = [s["games"], f"{s['win_share']:.3f}", f"{s['rounds']:.1f}", f"{s['decisions_per_game']:.1f}",
               *(f"{s['score'][c]:.1f}" for c in CATEGORIES), *(f"{s['kind_share'][k]:.3f}" for k, _, _ in KINDS)]
        print(" | ".join([name, *map(str, row)]))
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
