"""Writes notebooks/quickstart.ipynb from the cells below (keeps the notebook diff-able).

Run: python tools/make_notebook.py ; tests/test_notebook.py executes every code cell.
"""
import json
from pathlib import Path

CELLS = [
    ("markdown", "# Space Mission quickstart\n\nThe reference rules engine, the JSON state, and the RL interfaces."),
    ("code", """import random
from spacemission_env.rules import new_game, legal_actions, apply, scores, winners, action_label

state = new_game(3, seed=7, rules="yucata")
rng = random.Random(0)
for _ in range(6):
    a = rng.choice(legal_actions(state))
    print(state.current_player, action_label(a, state))
    apply(state, a)"""),
    ("markdown", "A state is plain data: save it, load it, and the game continues exactly as it would have."),
    ("code", """from spacemission_env.rules import GameState

saved = state.to_json()
copy = GameState.from_json(saved)
assert copy == state
while not state.is_over:
    a = rng.choice(legal_actions(state))
    apply(state, a)
for seat, s in enumerate(scores(state)):
    print(seat, s)
print("winners:", winners(state), "round limit:", state.round_limit)"""),
    ("markdown", "## PettingZoo\n\nThe AEC env runs on the fast batched engine; the acting agent keeps the turn for both of its actions."),
    ("code", """import numpy as np
import spacemission_env

env = spacemission_env.env(num_players=2, render_mode="rgb_array")
env.reset(seed=1)
rng = np.random.default_rng(1)
for agent in env.agent_iter(max_iter=60):
    obs, reward, terminated, truncated, info = env.last()
    action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
    env.step(action)
picture = env.render()   # H x W x 3 uint8: planets around the jump gate, ships, probes, stations
print(picture.shape)"""),
    ("code", """# In Jupyter: show the board
from PIL import Image
Image.fromarray(picture)"""),
]


def main() -> None:
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
    path = Path(__file__).resolve().parent.parent / "notebooks" / "quickstart.ipynb"
    path.write_text(json.dumps(nb, indent=1) + "\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
