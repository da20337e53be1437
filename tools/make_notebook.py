"""Writes notebooks/quickstart.ipynb from the cells below, and with ``--execute`` runs it
(nbclient) and keeps the outputs, so that the committed notebook shows its results where
notebooks are read without a kernel. The cells' sources stay the diff-able part.

Run: .venv/bin/python tools/make_notebook.py --execute ; tests/test_notebook.py checks that
the sources match these cells and executes the notebook with nbclient.
"""
import json
from pathlib import Path

from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut

CELLS = [
    ("markdown", """# Space Mission quickstart

The environment, a random game, the board picture, a short arena between the bots, a
trained agent at work and what an agent observes. Run the cells top to bottom (about a
minute; the first import compiles the engine's kernels once)."""),
    ("markdown", "## The environment\n\nA PettingZoo AEC env on the fast engine: 3 players, uniformly random legal moves."),
    ("code", """import numpy as np
import spacemission_env

env = spacemission_env.env(num_players=3, rules="yucata", render_mode="rgb_array")
env.reset(seed=7)
rng = np.random.default_rng(7)
steps, picture, totals = 0, None, {}
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    if terminated or truncated:
        totals[agent] = info["scores"]["total"]  # each seat's final score, in its info at the end
    action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
    env.step(action)
    steps += 1
    if steps == 90:
        picture = env.render()  # H x W x 3 uint8: the board as it is now
print(f"{steps} steps; scores {dict(sorted(totals.items()))}; ended at the round limit: {info['round_limit']}")"""),
    ("markdown", "## The board picture\n\nPlanets in a ring around the jump gate with their coordinates, piles, probes, "
                 "stations and ships; the panel shows each player's chips, hand, tiles, score and last turn."),
    ("code", """import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(12, 8))
ax.imshow(picture)
ax.axis("off")
plt.show()"""),
    ("markdown", "## The rules engine and its JSON state\n\nThe readable reference engine: legal moves by label, "
                 "and a state that saves and loads exactly."),
    ("code", """import random
from spacemission_env.space_mission.rules import GameState, action_label, apply, legal_actions, new_game, scores, winners

state = new_game(3, seed=7, rules="schmidt")
choose = random.Random(0)
for _ in range(6):
    a = choose.choice(legal_actions(state))
    print(f"seat {state.current_player}: {action_label(a, state)}")
    apply(state, a)
assert GameState.from_json(state.to_json()) == state
while not state.is_over:
    apply(state, choose.choice(legal_actions(state)))
print("totals", [s["total"] for s in scores(state)], "winners", winners(state))"""),
    ("markdown", "## A short arena\n\nA duplicate-format round robin: every deal is played once per seat rotation, so "
                 "card and seat luck cancel. A few dozen games take seconds."),
    ("code", """import rich
from spacemission_agents import run_arena

result = run_arena(["random", "greedy", "heuristic"], num_players=2, games=16, seed=0, workers=1, progress=False)
for table in result.table():
    rich.print(table)"""),
    ("code", """names = [a.name for a in result.agents]
rates = np.array([a.win_rate for a in result.agents])
low = rates - np.array([a.win_ci_low for a in result.agents])
high = np.array([a.win_ci_high for a in result.agents]) - rates
fig, ax = plt.subplots(figsize=(6, 3))
ax.bar(names, 100 * rates, yerr=100 * np.vstack([low, high]), capsize=6, color="#5b8def")
ax.set_ylabel("win rate % (95% CI)")
ax.set_ylim(0, 100)
ax.set_title(f"{result.num_games} games, 2 players")
plt.show()"""),
    ("markdown", "## Watch an agent play\n\nThe shipped PPO agent once it is installed, else the heuristic bot. An agent "
                 "sees only its own observation and the legal-move mask."),
    ("code", """from spacemission_agents import available_agents, make_agent
from spacemission_env import GameConfig
from spacemission_env.space_mission import encoding
from spacemission_env.space_mission.rules import legal_action_mask

spec = "ppo" if "ppo" in available_agents() else "heuristic"  # the shipped PPO agent once it is installed
players = {0: make_agent(spec, seed=0), 1: make_agent("random", seed=1)}
for p in players.values():
    if hasattr(p, "bind"):
        p.bind(GameConfig(num_players=2, rules="yucata"))
state = new_game(2, seed=3)
for _ in range(12):
    seat = state.current_player
    player = players[seat]
    obs = encoding.observe(state, seat, getattr(player, "observation_type", None) or "info")
    action = player.act(obs, legal_action_mask(state))
    print(f"seat {seat} ({spec if seat == 0 else 'random'}): {action_label(action, state)}")
    apply(state, action)"""),
    ("markdown", "## What an agent observes\n\nAn int8 vector; `decode` names its blocks (docs/observation.md)."),
    ("code", """from spacemission_env import decode
from spacemission_env.space_mission.components import CARD_LABELS

obs = encoding.observe(state, 0, "info")
view = decode(obs, "info")
print(obs.shape, obs.dtype, len(view), "blocks, e.g.", list(view)[:6])
print("pile sizes by ring position:", view["pile_size"].tolist())
print("probes [position, relative seat]:", view["probes"][:, :2].tolist())
print("own hand as card features:", view["own_hand"].shape, "- the cards:", [CARD_LABELS[c] for c in state.players[0].hand])"""),
]


def main() -> None:
    ap = UsageParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--execute", action="store_true", help="run the notebook and keep its outputs")
    args = ap.parse_args()
    nb = {
        "cells": [
            {"cell_type": kind, "metadata": {}, "source": src.splitlines(keepends=True),
             **({"outputs": [], "execution_count": None} if kind == "code" else {})}
            for kind, src in CELLS
        ],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    for i, cell in enumerate(nb["cells"]):
        cell["id"] = f"cell-{i}"  # nbformat 4.5 cell ids, fixed so the file is stable
    path = Path(__file__).resolve().parent.parent / "notebooks" / "quickstart.ipynb"
    path.write_text(json.dumps(nb, indent=1) + "\n")
    if args.execute:
        import nbclient
        import nbformat

        executed = nbformat.read(path, as_version=4)
        nbclient.NotebookClient(executed, timeout=300, kernel_name="python3",
                                resources={"metadata": {"path": str(path.parent.parent)}}).execute()
        for cell in executed.cells:
            cell.metadata.pop("execution", None)  # timestamps: they would change on every run
        nbformat.write(executed, path)
    print("wrote", path, "(executed)" if args.execute else "(no outputs)")


if __name__ == "__main__":
    main()
