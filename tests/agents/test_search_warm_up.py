"""SearchAgent's warm-up before its first timed decision (search.py, _warm_up).

Found in a review: in a fresh process the first decision's budget went to loading the
numba kernels (on a fresh install, to compiling them: 27 CPU s), so at budget 0.1 it played
one world per candidate, and the cost estimate it measured starved the next decisions of
the stage as well (one world per candidate again). Each test runs in a fresh process.
"""
import subprocess
import sys

import pytest

from tests.helpers.bots import machine_slowness

PLAY = """
import gc, json, sys
import numpy as np
from numba.core.registry import CPUDispatcher
from spacemission_env import GameConfig
from spacemission_env.space_mission import engine
from spacemission_agents.search import SearchAgent

def signatures():
    return {id(d): len(d.signatures) for d in gc.get_objects() if isinstance(d, CPUDispatcher)}

budget, decisions = float(sys.argv[1]), int(sys.argv[2])
bot = SearchAgent(budget=budget)
bot.bind(GameConfig(4))
st = engine.init(1, 4, seeds=0)
rows, gained, before = [], [], {}
if hasattr(bot, "_warm_up"):  # the clock starts after it: count what the timed search loads
    warm_up = bot._warm_up
    def counted_warm_up(game):
        warm_up(game)
        before.clear()
        before.update(signatures())
    bot._warm_up = counted_warm_up
while len(rows) < decisions:
    obs, mask = engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)
    before.clear()
    before.update(signatures())
    action = bot.act_batch(obs, mask)
    after = signatures()
    if bot.last_search is not None:
        rows.append({k: bot.last_search[k] for k in ("worlds", "rollouts", "seconds")})
        gained.append(sum(n - before.get(k, 0) for k, n in after.items()))
    engine.step(st, action)
print(json.dumps({"rows": rows, "gained": gained}))
"""


def play(budget: float, decisions: int, env=None) -> dict:
    import json
    import os

    out = subprocess.run([sys.executable, "-c", PLAY, str(budget), str(decisions)], capture_output=True, text=True,
                         timeout=600, env={**os.environ, **(env or {})})
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_no_kernel_is_loaded_inside_a_timed_decision():
    """In a fresh process no numba function gains a signature during the timed decisions
    (before: every kernel of a search, inside the first one)."""
    assert play(0.01, 6)["gained"] == [0] * 6


def test_the_first_decisions_search_as_much_as_the_later_ones():
    """At 0.1 s a decision at the start of a 4-player game plays about 20 worlds per
    candidate; before, a fresh process's first two played one (6 rollouts). The budget is
    scaled to this machine's speed (on one 2.3 times slower, 0.1 s held 4-16 worlds)."""
    budget = 0.1 * machine_slowness()
    rows = play(budget, 4)["rows"]
    assert all(r["worlds"] >= 4 for r in rows[:2]), rows
    assert rows[0]["seconds"] < 2 * budget, rows  # the warm-up is not in the decision's clock


@pytest.mark.slow
def test_a_fresh_install_compiles_before_the_first_decision(tmp_path):
    """The same with an empty numba cache (the kernels compiled, about 30 CPU s): before,
    the first decision took 27 s of its 0.1 s budget and the next ones one world each. The
    budget is scaled to the machine as above."""
    result = play(0.1 * machine_slowness(), 4, env={"NUMBA_CACHE_DIR": str(tmp_path)})
    assert result["gained"] == [0] * 4
    assert all(r["worlds"] >= 4 for r in result["rows"][:2]), result["rows"]
