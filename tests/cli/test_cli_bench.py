"""``spacemission bench``: the figures it prints, from the installed package."""
import json

import pytest

from spacemission_cli import bench


def test_json_has_every_part(capsys):
    assert bench.main(["--seconds", "0.2", "--batch", "64", "--agents", "random,kind-random", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["engine"]["batch"] == 64 and out["engine"]["agent_steps_per_s"] > 0
    assert out["env"]["agent_steps_per_s"] > 0
    assert [r["spec"] for r in out["agents"]] == ["random", "kind-random"]
    assert all(r["single_per_s"] > 0 and r["batched_per_s"] > 0 for r in out["agents"])


def test_tables(capsys):
    assert bench.main(["--only", "engine,agents", "--agents", "random", "--seconds", "0.2", "--batch", "32",
                       "--players", "3", "--rules", "schmidt"]) == 0
    out = capsys.readouterr().out
    assert "batched engine, 32 games" in out and "3 players, rules schmidt" in out
    assert "pettingzoo" not in out and "random" in out


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_bot_table_gives_per_cpu_second_figures_for_every_game(game, capsys):
    """Red Planet's bot table had wall-clock columns only, Space Mission's also per CPU second
    (the steadier figures on a shared machine): both games give the same four figures."""
    argv = ["--game", game, "--only", "agents", "--agents", "random", "--seconds", "0.1", "--agent-batch", "8"]
    assert bench.main(argv + ["--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["agents"]
    assert all(row[k] > 0 for k in ("single_per_s", "batched_per_s", "single_per_cpu_s", "batched_per_cpu_s"))
    assert bench.main(argv) == 0
    out = capsys.readouterr().out
    assert "act() /CPU s" in out and "act_batch /CPU s" in out and "per-CPU-second figures are steadier" in out


def test_default_agents_are_the_installed_ones():
    from spacemission_agents.registry import available_agents

    specs = bench._agent_specs(None)
    assert specs and set(specs) <= set(available_agents()) and "random" in specs


def test_does_not_need_the_benchmarks_folder():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(bench))  # the benchmarks/ folder is not installed
    modules = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
    modules += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert modules and not any(m.split(".")[0] == "benchmarks" for m in modules)


@pytest.mark.parametrize("argv,text", [
    (["--only", "gpu"], "argument --only: unknown part 'gpu'; choose from engine, env, agents"),
    (["--players", "9"], "argument --players"),
    (["--seconds", "0"], "argument --seconds: must be > 0"),
    (["--rules", "x"], "argument --rules: invalid choice"),
    (["--only", "agents", "--agents", "nosuch"], "argument --agents: unknown agent 'nosuch'"),
])
def test_bad_arguments(argv, text, capsys):
    with pytest.raises(SystemExit) as exc:
        bench.main(argv)
    assert exc.value.code == 2 and text in capsys.readouterr().err


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("argv, text", [
    (["--seconds", "1e9"], "argument --seconds: must be 0.01 to 600 seconds per figure (a run times several), got '1e9'"),
    (["--seconds", "600.5"], "argument --seconds: must be 0.01 to 600 seconds per figure"),
    (["--seconds", "1e-9"], "argument --seconds: must be 0.01 to 600 seconds per figure"),
    (["--seconds", "5e-324"], "argument --seconds: must be 0.01 to 600 seconds per figure"),
    (["--seconds", "inf"], "argument --seconds: must be > 0 and finite, got 'inf'"),
    (["--seconds", "nan"], "argument --seconds: must be > 0 and finite, got 'nan'"),
    (["--seconds", "-1"], "argument --seconds: must be > 0 and finite, got '-1'"),
    (["--seconds", "two"], "argument --seconds: expected a number, got 'two'"),
    (["--batch", "1e9"], "argument --batch: expected an integer, got '1e9'"),
    (["--batch", "-4"], "argument --batch: must be a positive integer, got '-4'"),
    (["--batch", "9" * 5000], "argument --batch: out of range: an integer of 5,000 characters, got '9999"),
    (["--players", "3.0"], "argument --players: expected an integer, got '3.0'"),
])
def test_seconds_past_its_bounds_and_bad_numbers_are_refused_before_any_timing(argv, text, game, capsys, monkeypatch):
    """Before: --seconds 1e9 (or 600.5) was accepted and the run went on for ever in practice
    (several figures of that many seconds each), and 1e-9 ended the reference loop before its
    first step: ZeroDivisionError. Now --seconds must be 0.01 to 600 (a usage error naming the
    bounds, before anything is timed), and a number that is not one says 'expected an integer'
    or 'a number' (it was 'expected a int'), a long one cut."""
    from spacemission_cli import _bench_game

    for module, name in ((bench, "engine_speed"), (_bench_game, "engine_speed")):
        monkeypatch.setattr(module, name, lambda *a, **k: pytest.fail("timed before the options were checked"))
    with pytest.raises(SystemExit) as info:
        bench.main(["--game", game, "--only", "engine", *argv])
    err = capsys.readouterr().err
    assert info.value.code == 2 and text in err and len(err.splitlines()[-1]) < 250, err[-500:]


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("agents", ["random,,", "random,,greedy", "random, ,greedy", "", ","])
def test_an_empty_agent_entry_is_refused_as_arena_refuses_it(game, agents, capsys):
    """Before: bench skipped empty --agents entries ('random,,' timed random alone; '' timed
    the default agents) while spacemission arena refuses them. Now the same usage error as
    arena's, before anything is timed."""
    from spacemission_cli import arena

    with pytest.raises(SystemExit) as exc:
        bench.main(["--game", game, "--only", "agents", "--agents", agents, "--seconds", "0.1"])
    captured = capsys.readouterr()
    assert exc.value.code == 2 and "argument --agents: agent spec must be a non-empty string (" in captured.err, captured
    assert captured.out == ""
    with pytest.raises(SystemExit) as exc:
        arena.main(["--game", game, "--agents", "random,,greedy", "--games", "1"])
    assert exc.value.code == 2 and "argument --agents: agent spec must be a non-empty string (" in capsys.readouterr().err


def test_help_shows_an_example(capsys):
    with pytest.raises(SystemExit):
        bench.main(["--help"])
    assert "spacemission bench --only engine --batch 4096" in capsys.readouterr().out


def test_engine_figure_comes_with_the_reference_ratio(capsys):
    assert bench.main(["--only", "engine", "--seconds", "0.2", "--batch", "16", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    ref = out["reference"]["agent_steps_per_s"]
    assert ref > 0 and out["engine"]["x_reference"] == pytest.approx(out["engine"]["agent_steps_per_s"] / ref)


def test_pgx_python_that_cannot_run_pgx_is_an_argument_error(tmp_path, capsys):
    fake = tmp_path / "python"
    fake.write_text("#!/bin/sh\necho 'No module named pgx' >&2\nexit 1\n")
    fake.chmod(0o755)
    with pytest.raises(SystemExit) as exc:
        bench.main(["--only", "engine", "--seconds", "0.1", "--batch", "8", "--pgx-python", str(fake)])
    assert exc.value.code == 2 and "argument --pgx-python" in capsys.readouterr().err


@pytest.mark.parametrize("argv,words", [
    (["--game", "red_planet", "--agents", "ppo:agents/spacemission_agents/data/red_planet_ppo_4p.npz"],
     "was trained for 4 players"),
    (["--agents", "random,ppo", "--rules", "schmidt"], "agent 'ppo' refuses this game"),
    (["--agents", "ppo:agents/spacemission_agents/data/ppo_2p.npz", "--players", "3"], "was trained for 2 players"),
])
def test_an_agent_that_refuses_the_game_is_a_usage_error_before_any_timing(argv, words, capsys, monkeypatch):
    """Before: bench made each agent but bound none until its timing, where the refusal was a
    traceback (exit 1), after the other agents' figures."""
    from spacemission_agents import arena_speed

    monkeypatch.setattr(arena_speed, "decision_speed", lambda *a, **k: pytest.fail("timed before every agent was checked"))
    with pytest.raises(SystemExit) as info:
        bench.main(["--only", "agents", "--seconds", "0.1"] + argv)
    err = " ".join(capsys.readouterr().err.split())
    assert info.value.code == 2 and "argument --agents: " in err and words in err, err


class _EndsSeen:
    """Wraps a PettingZoo env: records, at each reset, whether the game before it had ended."""

    def __init__(self, env):
        self.env, self.resets, self.ended_before_reset = env, 0, []

    def reset(self, *args, **kwargs):
        if self.resets:
            self.ended_before_reset.append(not self.env.agents)
        self.resets += 1
        return self.env.reset(*args, **kwargs)

    def __getattr__(self, name):
        return getattr(self.env, name)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_every_warm_up_plays_a_game_to_its_end_before_the_timing(game, monkeypatch):
    """Before: 3 steps of warm-up (the fast engines, the VectorEnv) or 200 (Space Mission's
    AEC env), so the first game's end (its scoring, the restart) was compiled inside the timed
    loop on an empty numba cache: `bench --game red_planet` printed 21,632 VectorEnv
    agent-steps/s there, about 700,000 once the cache was filled. With seconds=0 only the
    warm-up runs."""
    import spacemission_env
    from spacemission_cli import _bench_game
    from spacemission_env.games import GameConfig, get_game
    from spacemission_env.vector import VectorEnv

    g = get_game(game)
    config = GameConfig(3, game=game)
    restarts, ends, spies = [], [], []
    reset_finished, vector_step, make_env = g.engine.reset_finished, VectorEnv.step, spacemission_env.env
    monkeypatch.setattr(g.engine, "reset_finished", lambda *a, **k: restarts.append(1) or reset_finished(*a, **k))

    def step(self, actions):
        out = vector_step(self, actions)
        ends.append(bool(out[4].any()))
        return out

    monkeypatch.setattr(VectorEnv, "step", step)
    monkeypatch.setattr(spacemission_env, "env", lambda **kw: spies.append(_EndsSeen(make_env(**kw))) or spies[-1])
    if game == "spacemission":
        bench.engine_speed(8, 3, "yucata", 0)
        bench.env_speed(3, "yucata", 0)
    else:
        _bench_game.engine_speed(g, config, 8, 0)
        _bench_game.vector_speed(g, config, 8, 0)
        assert any(ends), "the VectorEnv's warm-up ended no game"
        _bench_game.aec_speed(g, config, 0)
    assert restarts, "the engine's warm-up restarted no finished game"
    assert spies and spies[0].ended_before_reset[0] is True, "the AEC env's warm-up did not end its game"


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("argv, option", [
    (["--only", "engine", "--agents", "search:budget=-1"], "--agents"),
    (["--only", "engine,env", "--agent-batch", "64"], "--agent-batch"),
    (["--only", "agents", "--batch", "64"], "--batch"),
])
def test_an_option_for_a_part_not_measured_is_refused(argv, option, game, capsys, monkeypatch):
    """Before: an option of a part that --only leaves out was ignored without a word (a bad
    --agents spec too: `--only engine --agents search:budget=-1` timed the engine and said
    nothing). Now a usage error naming the option and the part it applies to, before anything
    is timed."""
    monkeypatch.setattr(bench, "engine_speed", lambda *a, **k: pytest.fail("timed before the options were checked"))
    with pytest.raises(SystemExit) as info:
        bench.main(["--game", game, "--seconds", "0.1", *argv])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {option}: applies to " in err and f"which --only {argv[1]} does not measure" in err, err


def test_pgx_python_without_the_engine_is_refused(capsys):
    """Before: `--only agents,env --pgx-python PATH` was accepted and pgx never run."""
    with pytest.raises(SystemExit) as info:
        bench.main(["--only", "agents,env", "--pgx-python", "python3", "--seconds", "0.1"])
    assert info.value.code == 2
    assert "argument --pgx-python: applies to engine, which --only agents,env does not measure" in capsys.readouterr().err


def test_batch_applies_to_the_vector_env_of_another_game(capsys):
    """--batch sizes every other game's VectorEnv too (--only env): accepted there, refused
    with --only env in Space Mission, whose env part plays one game."""
    assert bench.main(["--game", "red_planet", "--only", "env", "--batch", "4", "--seconds", "0.1", "--json"]) == 0
    capsys.readouterr()
    with pytest.raises(SystemExit):
        bench.main(["--only", "env", "--batch", "4", "--seconds", "0.1"])
    assert "argument --batch: applies to engine, which --only env does not measure" in capsys.readouterr().err
