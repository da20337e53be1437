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
    (["--game", "red_planet", "--agents", "ppo"], "no shipped PPO model for 3-player Mission: Red Planet"),
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
