"""The warm-up (spacemission_env/warmup.py, ``spacemission warmup``): it runs every
interface of a game through, and reports per step how many functions numba compiled."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import numba
import numpy as np
import pytest
from numba import config as numba_config

from spacemission_cli.main import COMMANDS
from spacemission_env import warmup


needs_jit = pytest.mark.skipif(numba_config.DISABLE_JIT, reason="NUMBA_DISABLE_JIT: nothing compiles")


@needs_jit
def test_a_step_counts_the_project_functions_numba_compiled():
    def probe(x):
        return x * 2

    probe.__module__ = "spacemission_env.warmup_probe"  # counted as a project function
    f = numba.njit(probe)
    report = warmup.Report()
    with report.step("first call"):
        assert f(2) == 4
    with report.step("second call"):
        f(3)
    assert [(r[0], r[3]) for r in report.rows] == [("first call", 1), ("second call", 0)]
    assert report.compiled == 1 and "1 functions compiled" in report.summary()


@needs_jit
@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_warm_env_runs_every_interface_of_a_game(game):
    report = warmup.warm_env([game])
    labels = [r[0] for r in report.rows]
    assert len(labels) == 4 and all(label.startswith(game) for label in labels)
    again = warmup.warm_env([game])  # everything is compiled in this process now
    assert again.compiled == 0


def test_unknown_game_is_refused():
    with pytest.raises(SystemExit):
        warmup.main(["--game", "chess"])


def test_the_command_is_registered_and_warms_the_bots_of_each_game():
    from spacemission_cli import warmup as cli
    from spacemission_env.games import get_game

    assert COMMANDS["warmup"][0] == "spacemission_cli.warmup"
    assert "search:iterations=2" in cli._specs("spacemission")  # no time budget: a fixed amount of work
    assert "netsearch:iterations=2" in cli._specs("spacemission")
    assert cli._players(get_game("spacemission")) == 2 and cli._players(get_game("red_planet")) == 3  # shipped ppo: 3-5


@needs_jit
def test_environments_only(capsys):
    assert warmup.main(["--game", "spacemission", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert "warm-up: 4 steps" in err and "VectorEnv" not in err  # --quiet: the summary only
    # where the kernels went (jit.cache_folders; NUMBA_CACHE_DIR, else beside these writable sources)
    assert err.strip().endswith(f"; numba cache: {os.environ.get('NUMBA_CACHE_DIR') or '__pycache__ beside the sources'}")
    assert len(err.strip().splitlines()) == 1, err  # before: the "compiling the numba kernels..." line too


def test_nothing_to_do_without_the_jit(monkeypatch, capsys):
    monkeypatch.setattr(numba_config, "DISABLE_JIT", True)
    assert warmup.main([]) == 0
    assert "nothing to warm up" in capsys.readouterr().err


@needs_jit
def test_the_command_with_quiet_prints_one_line(capsys):
    """`spacemission warmup --quiet`: "print only the summary line" (its help)."""
    from spacemission_cli import warmup as cli

    assert cli.main(["--game", "red_planet", "--no-bots", "--quiet"]) == 0
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("warm-up: "), err


def _signatures() -> set:
    """(kernel, signature) of every compiled function of the project in this process, compiled
    or loaded from the cache (a new layout adds one either way, whatever the cache holds)."""
    from spacemission_env import jit

    return {(f"{d.py_func.__module__}.{d.py_func.__qualname__}", str(sig)) for d in jit._kernels for sig in d.signatures}


def _no_new_signature(before: set, log: warmup.CompileLog) -> None:
    """No kernel gained a signature since ``before``; the message names what numba compiled
    (the first one the kernel called with the new type, then its callees), else the new
    signatures loaded from a cache that an earlier run filled."""
    new = sorted(_signatures() - before)
    assert not new, f"{len(new)} new signatures; compiled: {log.compiled or 'none (loaded)'}; new: {new}"


@needs_jit
@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_inputs_of_another_layout_compile_nothing_more(game):
    """Actions and masks as users pass them (a slice ``x[::2]``, Fortran order, read-only, a
    list, int32) reach the kernels' signatures that the calls with the engine's own arrays
    (the warm-up's) made (engine_common.kernel_input). Before: each layout compiled
    ``step_games`` or the sampler again, after a complete warm-up."""
    from spacemission_env.games import get_game
    from tests.helpers.user_paths import layouts

    E = get_game(game).engine
    st = E.init(3, get_game(game).description.min_players, seeds=0)
    rng = np.random.default_rng(0)
    mask = E.legal_action_mask(st)
    actions = E.sample_actions(mask, rng)  # the warm-up's own types (compiled or loaded here)
    E.step(st.copy(), actions)
    E.step_observe(st.copy(), actions, np.empty_like(mask), None, None)
    before = _signatures()
    with warmup.CompileLog() as log:
        for m in layouts(mask):
            E.sample_actions(m, rng)
        for a in layouts(actions) + [actions.astype(np.int32)]:
            E.step(st.copy(), a)
            E.step_observe(st.copy(), a, np.empty_like(mask), None, None)
    _no_new_signature(before, log)


@needs_jit
@pytest.mark.parametrize("spec", ["greedy", "heuristic", "search:iterations=2", "kind-random"])
def test_bots_given_rows_of_another_layout_compile_nothing_more(spec):
    """A bot's ``act_batch`` on observations and masks that are slices, Fortran-ordered or
    read-only (kernel_input in BotBase and check_recall_rows). Before: each compiled the
    features' ``_extract`` and the bot's kernel again."""
    from spacemission_agents.registry import make_agent
    from spacemission_env.vector import VectorEnv
    from tests.helpers.user_paths import layouts

    agent = make_agent(spec, seed=0)
    v = VectorEnv(3, observation_type=getattr(agent, "observation_type", None) or "info", seed=1)
    obs, mask, _, _ = v.reset()
    agent.act_batch(obs, mask)  # the warm-up's own types
    agent.act(obs[0], mask[0])
    before = _signatures()
    with warmup.CompileLog() as log:
        for o, m in zip(layouts(obs)[1:4], layouts(mask)[1:4]):
            agent.act_batch(o, m)
        agent.act(layouts(obs)[3][0], layouts(mask)[3][0])
    _no_new_signature(before, log)


@needs_jit
def test_compile_log_names_what_numba_compiled():
    def probe(x):
        return x + 1

    probe.__module__, probe.__qualname__ = "spacemission_env.warmup_probe", "probe"
    f = numba.njit(probe)
    with warmup.CompileLog() as log:
        f(1)
        f(2)
        f(1.5)
    f(3j)  # after the block: not listened to
    assert log.compiled == ["spacemission_env.warmup_probe.probe(int64)", "spacemission_env.warmup_probe.probe(float64)"]


@pytest.mark.slow
@needs_jit
@pytest.mark.parametrize("games", [[], ["spacemission"], ["red_planet"]], ids=["every game", "spacemission", "red_planet"])
def test_after_the_warmup_no_user_path_compiles(games, tmp_path):
    """`spacemission warmup` on an empty cache, then every interface of both games as users call
    it (tests/helpers/user_paths.py), in a fresh process: nothing compiles (about 2-3 minutes).
    Before: actions, masks and observations of another layout compiled the engines' step and
    samplers and the bots' feature kernels again. The same for one game's warm-up (`--game
    NAME`, docs/engine.md) and that game's paths: what they share with the other game
    (engine_common's kernels) is warmed by each game's own."""
    from tests.helpers.paths import ROOT

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    only = [a for g in games for a in ("--game", g)]
    warm = subprocess.run([sys.executable, "-m", "spacemission_cli.main", "warmup", "--quiet", *only], env=env,
                          cwd=ROOT, capture_output=True, text=True, timeout=1200)
    assert warm.returncode == 0, warm.stderr[-3000:]
    out = subprocess.run([sys.executable, "-m", "tests.helpers.user_paths", *games], env=env, cwd=ROOT,
                         capture_output=True, text=True, timeout=1200)
    assert out.returncode == 0, out.stderr[-3000:]
    compiled = json.loads(out.stdout.strip().splitlines()[-1])
    assert compiled == [], f"{len(compiled)} functions compiled after the warm-up:\n" + "\n".join(compiled)
