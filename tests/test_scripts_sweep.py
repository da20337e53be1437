"""The scripts in benchmarks/ and tools/ refuse bad input with a usage error (argparse: exit 2, the
problem named) before any work, instead of a traceback, an endless loop or a silently empty or
wrong result; and a few fixed paths work at tiny sizes. Each script's main(argv) is called in
this process (the numba kernels load from the cache), with sizes that finish in a moment."""
import json
import subprocess
import sys

import pytest
from tests.helpers.paths import ROOT, load_tool


def usage_error(capsys, folder: str, name: str, argv: list[str], *needles: str) -> str:
    """main(argv) exits 2 with a usage line naming every needle; the error text."""
    with pytest.raises(SystemExit) as exc:
        load_tool(name, folder).main(argv)
    err = capsys.readouterr().err
    assert exc.value.code == 2, err
    assert "usage:" in err and "error:" in err, err
    for needle in needles:
        assert needle in err, err
    return err


# --- benchmarks ------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, needles", [
    (["--games", "0"], ["--games 0"]),  # was: ValueError (concatenate of nothing)
    (["--games", "4", "--batch", "0"], ["--batch 0"]),  # was: range() arg 3 must not be zero
    (["--games", "4", "--batch", "-1"], ["--batch -1"]),
    (["--games", "4", "--max-rounds", "0"], ["--max-rounds 0"]),
    (["--games", "4", "--players", "7"], ["--players must be 2..5, got 7"]),  # was: exit 1, no usage
    (["--games", "4", "--rules", "foo"], ["--rules", "invalid choice: 'foo'"]),
    (["--games", "4", "--seed", "-1"], ["--seed must be in", "got -1"]),
    (["--games", "4", "--seed", str(2**64 - 1)], ["--seed must be in"]),  # was: OverflowError
])
def test_bots_eval_bad_sizes(capsys, argv, needles):
    usage_error(capsys, "benchmarks", "bots_eval", ["random", "random", *argv], *needles)


def test_bots_eval_unknown_agent(capsys):
    usage_error(capsys, "benchmarks", "bots_eval", ["nosuch", "random", "--games", "2"], "unknown agent 'nosuch'")


def test_bots_eval_tiny_run():
    out = load_tool("bots_eval", "benchmarks").main(["random", "greedy", "--games", "4", "--json"])
    assert out["games"] == 4 and 0 <= out["win_rate_a"] <= 1


@pytest.mark.parametrize("argv, needle", [
    (["--repeats", "0"], "--repeats must be >= 1"),  # was: exit 0, nothing measured
    (["--no-cold"], "--no-cold skips the cold/warm pairs: it needs --warmup"),  # was: exit 0, nothing
    (["--scenarios", ","], "--scenarios names no scenario"),  # was: exit 0, nothing
])
def test_compile_time_refuses_runs_that_measure_nothing(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "compile_time", argv, needle)


def test_compile_time_counts_compiles_with_warmup_compile_log(tmp_path):
    """A run's figures (counted by warmup.CompileLog in the fresh process): a kernel compiled for
    two argument types and the helper it calls, then the same code loading all three from the
    cache the first run filled."""
    run_one = load_tool("compile_time", "benchmarks").run_one
    code = ("import numpy as np\nfrom spacemission_env.engine_common import below\n"
            "rng = np.zeros(1, np.uint64)\nbelow(rng, 0, 5)\nbelow(rng, 0, np.uint8(5))\n")
    cold, warm = run_one(code, str(tmp_path)), run_one(code, str(tmp_path))
    assert (cold["compiled"], cold["compiled_distinct"], cold["notice"]) == (3, 2, True), cold  # below x2, next_u64
    assert (warm["compiled"], warm["compiled_distinct"], warm["notice"]) == (0, 0, False), warm
    for r in (cold, warm):
        assert list(r["multi_signature"]) == ["spacemission_env.engine_common.below"], r
        assert len(r["multi_signature"]["spacemission_env.engine_common.below"]) == 2, r


@pytest.mark.parametrize("argv, needle", [
    (["--players", "x"], "--players and --batch-sizes take comma-separated integers"),
    (["--players", "7"], "--players 7"),
    (["--seconds", "0"], "--seconds 0.0"),  # was: rates of 0 worlds/s printed
    (["--seconds", "nan"], "--seconds nan"),
    (["--seconds", "inf"], "--seconds inf"),  # was: an endless loop
    (["--batch-sizes", "0"], "--batch-sizes 0"),
])
def test_determinize_speed_bad_input(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "determinize_speed", argv, needle)


@pytest.mark.parametrize("argv, needle", [
    (["--games", "0"], "--games 0"),  # was: exit 0, "done: 0 games"
    (["--games", "8", "--chunk", "0"], "--chunk 0"),  # was: an endless loop
    (["--games", "8", "--chunk", "-3"], "--chunk -3"),  # was: an endless loop
    (["--games", "8", "--max-rounds", "3,x"], "--max-rounds and --configs take comma-separated integers"),
    (["--games", "8", "--max-rounds", "0"], "--max-rounds 0"),
    (["--games", "8", "--configs", "9"], "--configs are indices 0..7"),  # was: exit 0, no game played
    (["--games", "8", "--seed-base", "-1"], "--seed-base must be >= 0"),  # was: OverflowError
    (["--games", "8", "--seed-base", str(2**61)], "below 2**63"),
])
def test_differential_bad_input(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "differential", argv, needle)


def test_differential_tiny_run(capsys):
    assert load_tool("differential", "benchmarks").main(["--games", "8", "--max-rounds", "3"]) == 0
    assert "done: 8 games" in capsys.readouterr().out


@pytest.mark.parametrize("argv, needle", [
    (["--games", "0"], "--games 0"),
    (["--games", "3", "--chunk", "0"], "--chunk 0"),  # was: an endless loop
    (["--games", "3", "--players", "2"], "--players must be distinct player counts in 3..5, got 2"),
    (["--games", "3", "--players", "3,3"], "got 3,3"),
    (["--games", "3", "--players", "x"], "--players takes comma-separated integers"),
    (["--games", "3", "--seed-base", "-7"], "--seed-base must be >= 0"),
])
def test_red_planet_differential_bad_input(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "red_planet_differential", argv, needle)


@pytest.mark.parametrize("argv, needle", [
    (["--repeats", "0"], "--repeats 0 times no tree: it needs --blocks"),  # was: exit 0, nothing printed
    (["--batch", "0"], "--batch 0"),  # was: CalledProcessError of the child
    (["--players", "9"], "--players 9"),
    (["--steps", "0"], "--steps 0"),
    (["--tree", "x=/nonexistent"], "--tree takes LABEL=PATH of a checkout"),
    (["--tree", "this=."], "--tree takes LABEL=PATH of a checkout"),
])
def test_engine_profile_bad_input(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "engine_profile", argv, needle)


def test_engine_profile_times_another_checkout_of_this_layout(tmp_path):
    """--tree with a checkout whose engine lives in spacemission_env/space_mission/engine (was:
    FileNotFoundError for spacemission_env/engine/api.py, the layout before the move)."""
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "spacemission_env").symlink_to(ROOT / "spacemission_env")
    res = load_tool("engine_profile", "benchmarks").main(["--tree", f"other={tree}", "--repeats", "1", "--steps", "1",
                                                          "--batch", "2", "--json"])
    assert set(res["median"]) == {"this", "other"} and res["median"]["other"]["step"] > 0


@pytest.mark.parametrize("argv, needle", [
    (["--seconds", "0"], "--seconds 0.0"),  # was: ZeroDivisionError
    (["--seconds", "nan"], "--seconds nan"),
    (["--batch-sizes", "x"], "--batch-sizes takes comma-separated integers"),
    (["--batch-sizes", "0"], "--batch-sizes 0"),
    (["--repeats", "0"], "--repeats 0"),
    (["--players", "9"], "invalid choice: 9"),
    (["--rules", "foo"], "invalid choice: 'foo'"),
])
def test_engine_speed_bad_input(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "engine_speed", ["--no-subprocess", *argv], needle)


@pytest.mark.parametrize("argv, needle", [
    (["--seconds", "inf"], "--seconds must be a finite number > 0"),  # was: an endless loop
    (["--seconds", "nan"], "--seconds must be a finite number > 0"),  # was: an endless loop
    (["--baseline", "no-such-revision"], "--baseline 'no-such-revision': no spacemission_env at that git revision"),
])
def test_env_speed_bad_input(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "env_speed", argv, needle)


@pytest.mark.parametrize("argv, needle", [
    (["--players", "7"], "--players 7"),  # was: ValueError
    (["--games", "0"], "--games 0"),
    (["--repeats", "0"], "--repeats 0"),  # was: rates of 0 printed
])
def test_heuristic_speed_bad_input(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "heuristic_speed", argv, needle)


@pytest.mark.parametrize("argv, needle", [
    (["duel", "--budget", "nan"], "--budget nan"),  # was: ValueError
    (["duel", "--budget", "0.1", "--games", "0"], "--games 0"),  # was: ArenaArgumentError
    (["duel", "--budget", "0.1", "--params", "bogus=1"], "unexpected keyword argument 'bogus'"),  # was: TypeError
    (["duel", "--budget", "0.1", "--params", "depth"], "not KEY=VALUE: 'depth'"),
    (["duel", "--budget", "0.1", "--games", "2", "--opponent", "nosuch"], "duel: unknown agent 'nosuch'"),
])
def test_netsearch_budget_duel_bad_input(capsys, tmp_path, argv, needle):
    usage_error(capsys, "benchmarks", "netsearch_budget", ["--dir", str(tmp_path / "runs"), *argv], needle)
    assert not (tmp_path / "runs").exists()


def test_netsearch_budget_report_and_compare_need_saved_runs(capsys, tmp_path):
    """A mistyped --dir / --other was read as an empty folder: an empty table, exit 0."""
    usage_error(capsys, "benchmarks", "netsearch_budget", ["--dir", str(tmp_path / "nope"), "report"],
                "is not a folder of saved runs")
    usage_error(capsys, "benchmarks", "netsearch_budget", ["--dir", str(tmp_path), "report"],
                "report: no saved runs (duel_*.json)")
    usage_error(capsys, "benchmarks", "netsearch_budget", ["--dir", str(tmp_path), "compare", "--other",
                                                           str(tmp_path / "nope")], "is not a folder of saved runs")


@pytest.mark.parametrize("argv", [["--budget", "nan"], ["--budget", "inf"], ["--seed", "-1"]])
def test_netsearch_noise_bad_input(capsys, argv):
    usage_error(capsys, "benchmarks", "netsearch_noise", argv, "a finite --budget > 0", "--seed >= 0")


@pytest.mark.parametrize("argv, needle", [
    (["--games", "0"], "--games 0"),  # was: ZeroDivisionError
    (["--games", "-1"], "--games -1"),  # was: IndexError
    (["--players", "x"], "--players takes comma-separated integers"),
    (["--players", "7"], "--players 7"),
    (["--max-rounds", "0"], "--max-rounds 0"),
])
def test_random_play_stats_bad_input(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "random_play_stats", argv, needle)


@pytest.mark.parametrize("argv, needle", [
    (["--players", "2"], "--players 2"),
    (["--seconds", "0"], "--seconds 0.0"),  # was: ZeroDivisionError
    (["--seconds", "inf"], "--seconds inf"),
    (["--repeats", "0"], "--repeats 0"),  # was: IndexError
    (["--batch-size", "0"], "--batch-size 0"),
])
def test_red_planet_engine_speed_bad_input(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "red_planet_engine_speed", argv, needle)


def test_red_planet_engine_speed_prints_short_budgets(capsys):
    load_tool("red_planet_engine_speed", "benchmarks").main(["--players", "3", "--seconds", "0.01", "--repeats", "1",
                                                             "--batch-size", "2"])
    assert "0.01 CPU s per figure" in capsys.readouterr().out  # was: "0 CPU s per figure"


@pytest.mark.parametrize("argv, needle", [
    (["--iterations", "0"], "must be >= 1"),  # was: an SB3 run, then IndexError
    (["--runners", "1,x"], "--runners takes comma-separated integers"),
])
def test_rllib_throughput_bad_input(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "rllib_throughput", argv, needle)


def test_rllib_throughput_without_ray_says_so(capsys):
    pytest.importorskip("torch")
    try:
        import ray  # noqa: F401
        pytest.skip("Ray is installed here")
    except ImportError:
        pass
    usage_error(capsys, "benchmarks", "rllib_throughput", ["--iterations", "1"], "make install-ray")


@pytest.mark.parametrize("argv, needle", [
    (["duel", "--budget", "0"], "duel: --budget 0.0"),  # was: ValueError
    (["duel", "--budget", "0.1", "--games", "0"], "--games must be >= 1"),  # was: ArenaArgumentError
    (["ranks", "--players", "7", "--games", "1"], "ranks: num_players must be an integer in 2..5, got 7"),
    (["oracle", "--players", "7"], "oracle: --players must be in 2..5"),  # was: KeyError: 7
    (["oracle", "--players", "2", "--p", "2"], "--p 2.0"),  # was: silently every decision
    (["regret", "/nonexistent.npz"], "regret: no oracle file"),  # was: FileNotFoundError
    (["report"], "report: no saved runs"),  # was: an empty table
])
def test_search_budget_bad_input(capsys, tmp_path, argv, needle):
    usage_error(capsys, "benchmarks", "search_budget", ["--dir", str(tmp_path / "runs"), *argv], needle)


@pytest.mark.parametrize("argv, needle", [
    (["--seeds", "a"], "--seeds takes comma-separated integers"),  # was: ValueError
    (["--seeds", "-1"], "--seeds -1: bad training configuration"),
    (["--steps", "3", "--evals", "4"], "--evals 4 exceeds --steps 3"),
])
def test_takeoff_bad_input(capsys, argv, needle):
    pytest.importorskip("torch")
    usage_error(capsys, "benchmarks", "takeoff", argv, needle)


def test_takeoff_refuses_an_out_holding_earlier_runs(capsys, tmp_path):
    """A fresh training run into a run_dir holding a run is refused (train_ppo); takeoff says
    so before its first seed's run, as a usage error, not as a traceback after it."""
    pytest.importorskip("torch")
    (tmp_path / "seed1").mkdir()
    (tmp_path / "seed1" / "config.json").write_text("{}")
    usage_error(capsys, "benchmarks", "takeoff", ["--out", str(tmp_path), "--seeds", "0,1"],
                "--seeds 1: run_dir", "holds a run")
    assert not (tmp_path / "seed0").exists()


@pytest.mark.parametrize("argv, needle", [
    (["--iterations", "0"], "--iterations 0"),  # was: an empty table, exit 0
    (["--num-envs", "0"], "--num-envs 0"),  # was: ValueError
    (["--threads", "0"], "--threads 0"),
])
def test_train_split_bad_input(capsys, argv, needle):
    usage_error(capsys, "benchmarks", "train_split", argv, needle)


def test_train_split_times_a_tiny_iteration_with_the_prior(capsys):
    """Before: AttributeError ('TimedPrior' object has no attribute 'num_actions'): the timing
    stub copied three of the prior's attributes, and the prior wrapper reads num_actions."""
    pytest.importorskip("sb3_contrib")
    import torch

    threads = torch.get_num_threads()
    try:
        load_tool("train_split", "benchmarks").main(["--iterations", "1", "--num-envs", "8", "--n-steps", "16"])
    finally:
        torch.set_num_threads(threads)
    out = capsys.readouterr().out
    assert "prior heuristic" in out and "8 envs x 16 steps" in out
    row = out.strip().splitlines()[-1].split()
    assert row[0] == "0" and row[-1].endswith("%")  # iteration 0, with the update's share


# --- tools -----------------------------------------------------------------------------------
def test_arena_game_stats_bad_files(capsys, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{bad json\n")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    other = tmp_path / "other.jsonl"
    other.write_text(json.dumps({"x": 1}) + "\n")
    usage_error(capsys, "tools", "arena_game_stats", [str(tmp_path / "nope.jsonl")], "No such file")
    usage_error(capsys, "tools", "arena_game_stats", [str(tmp_path)], "Is a directory")
    usage_error(capsys, "tools", "arena_game_stats", [str(bad)], "bad.jsonl, line 1: not JSON")
    usage_error(capsys, "tools", "arena_game_stats", [str(other)], "other.jsonl, line 1: not a game record")
    usage_error(capsys, "tools", "arena_game_stats", [str(empty)], "no games in")  # was: an empty table
    usage_error(capsys, "tools", "arena_game_stats", [str(empty), "--json", str(tmp_path)], "is a folder")


def test_exploitability_plot_malformed_pairs_csv(capsys, tmp_path):
    folder = tmp_path / "br_step_5"
    folder.mkdir()
    (folder / "pairs.csv").write_text("win_rate,ci_low,ci_high,games\n")  # was: StopIteration
    usage_error(capsys, "tools", "exploitability_plot", ["--curve", f"x={tmp_path}/br_step_*"],
                "argument --curve:", "has no row of an arena's pairs.csv")
    (folder / "pairs.csv").write_text("a,b\n1,2\n")  # was: KeyError
    usage_error(capsys, "tools", "exploitability_plot", ["--curve", f"x={tmp_path}/br_step_*"],
                "has no row of an arena's pairs.csv")
    (folder / "pairs.csv").write_bytes(b"\xff\xfe\x00")  # was: UnicodeDecodeError's traceback
    usage_error(capsys, "tools", "exploitability_plot", ["--curve", f"x={tmp_path}/br_step_*"],
                "has no row of an arena's pairs.csv")


def test_exploitability_plot_bad_input_is_a_usage_error(capsys, tmp_path):
    """Before: SystemExit(message), status 1 without a usage line, the value echoed whole (a
    label or glob of thousands of characters); a baseline whose label named no curve was drawn
    nowhere, silently; a label given twice kept the later one. Now usage errors (status 2),
    values cut with checks.shown, naming the option."""
    long = "x" * 5000
    for argv, needles in (
            ([], ["argument --curve: give at least one --curve LABEL=GLOB"]),
            (["--curve", long], ["argument --curve: must be LABEL=GLOB, got 'xxx", "xxx..."]),
            (["--curve", f"a={tmp_path}/{long}_*"], ["argument --curve: no folders match", "xxx..."]),
            (["--curve", f"a={tmp_path}/x", "--curve", f"a={tmp_path}/y"], ["argument --curve: label 'a' given twice"]),
            (["--curve", f"a={tmp_path}/x", "--baseline", "b=somewhere"], ["argument --baseline: label 'b' names no --curve"]),
            (["--curve", f"a={tmp_path}/x", "--baseline", "a="], ["argument --baseline: must be LABEL=PATH, got 'a='"]),
            (["--curve", f"a={tmp_path}/x", "--png", str(tmp_path)], ["argument --png:", "is a folder"])):
        err = usage_error(capsys, "tools", "exploitability_plot", argv, *needles)
        assert long not in err and max(map(len, err.split())) <= 120, err
    (tmp_path / "a_final").mkdir()
    usage_error(capsys, "tools", "exploitability_plot", ["--curve", f"a={tmp_path}/a_*"],
                "argument --curve:", "does not end in step_N")
    (tmp_path / "b_step_3").mkdir()
    usage_error(capsys, "tools", "exploitability_plot", ["--curve", f"a={tmp_path}/b_*"],
                "argument --curve: no pairs.csv in")
    usage_error(capsys, "tools", "exploitability_plot", ["--curve", f"a={tmp_path}/nothing_*", "--baseline",
                                                         f"a={tmp_path}/b_step_3"], "argument --curve: no folders match")


def test_exploitability_plot_draws_every_curve(tmp_path, monkeypatch):
    """Before: the curves were zipped with four colours, so a fifth curve was left out of the
    picture (its table rows were printed)."""
    pytest.importorskip("matplotlib")
    tool = load_tool("exploitability_plot")
    for k in range(5):
        folder = tmp_path / f"c{k}_step_{1000 * (k + 1)}"
        folder.mkdir()
        (folder / "pairs.csv").write_text("agent,opponent,games,win_rate,ci_low,ci_high\nbr,t,10,0.5,0.2,0.8\n")
    drawn = []
    import matplotlib.axes

    real = matplotlib.axes.Axes.errorbar
    monkeypatch.setattr(matplotlib.axes.Axes, "errorbar",
                        lambda self, *a, **k: drawn.append(k["label"]) or real(self, *a, **k))
    tool.main([a for k in range(5) for a in ("--curve", f"c{k}={tmp_path}/c{k}_step_*")] + ["--png", str(tmp_path / "p.png")])
    assert drawn == [f"best response vs c{k}" for k in range(5)] and (tmp_path / "p.png").stat().st_size > 0


@pytest.mark.parametrize("argv, needle", [
    (["--agents", "nosuch,random"], "unknown agent 'nosuch'"),  # was: ValueError
    (["--agents", "random"], "num_players must be an integer in 2..5, got 1"),
    (["--agents", "random,random", "--rounds", "0"], "--rounds must be in 1..100"),  # was: round 1 pictured
    (["--agents", "random,random", "--rounds", "500"], "--rounds must be in 1..100"),  # was: round 100 pictured
])
def test_make_board_png_bad_input(capsys, tmp_path, argv, needle):
    usage_error(capsys, "tools", "make_board_png", [*argv, "--out", str(tmp_path / "b.png")], needle)
    assert not (tmp_path / "b.png").exists()


def test_make_board_png_out_folder_and_tiny_run(capsys, tmp_path):
    usage_error(capsys, "tools", "make_board_png", ["--out", str(tmp_path)], "is a folder")  # was: ValueError
    load_tool("make_board_png").main(["--agents", "random,random", "--rounds", "2", "--out", str(tmp_path / "b.png")])
    assert (tmp_path / "b.png").stat().st_size > 0


@pytest.mark.parametrize("argv, needle", [
    (["--players", "9"], "invalid choice: 9"),  # was: a 30 s Playwright timeout
    (["--seed", "x"], "invalid int value: 'x'"),
    (["--clicks", "-1"], "--clicks -1"),
])
def test_make_serve_screenshot_bad_input(capsys, argv, needle):
    pytest.importorskip("playwright")
    usage_error(capsys, "tools", "make_serve_screenshot", argv, needle)


def test_ship_model_bad_file(capsys, tmp_path):
    usage_error(capsys, "tools", "ship_model", [str(tmp_path / "nope.npz")], "no PPO model file")  # was: ValueError
    usage_error(capsys, "tools", "ship_model", [str(tmp_path)], "is a directory")


def test_retarget_model_bad_input(capsys, tmp_path):
    src = str(ROOT / "agents" / "spacemission_agents" / "data" / "red_planet_ppo_4p.npz")
    out = str(tmp_path / "x.npz")
    usage_error(capsys, "tools", "retarget_model", [str(tmp_path / "nope.npz"), "3", out], "no PPO model file")
    usage_error(capsys, "tools", "retarget_model", [src, "three", out], "invalid int value")
    usage_error(capsys, "tools", "retarget_model", [src, "2", out], "played by 3-5 players, not 2")
    usage_error(capsys, "tools", "retarget_model", [src, "3", str(tmp_path)], "is a folder")
    usage_error(capsys, "tools", "retarget_model", [src, "3", str(tmp_path / "x.zip")], "does not end in .npz")
    usage_error(capsys, "tools", "retarget_model", [src, "3", src], "is the model itself")
    assert list(tmp_path.iterdir()) == []



# --- page generators: an argparse parser each (they took any arguments, and the render module
# made a folder named after its first one, '--help' included) ------------------------------------
@pytest.mark.parametrize("name", ["make_observation_doc", "make_red_planet_observation_doc"])
def test_observation_doc_tools_take_no_arguments(capsys, name):
    usage_error(capsys, "tools", name, ["docs/observation.md"], "unrecognized arguments: docs/observation.md")
    load_tool(name).main([])
    assert capsys.readouterr().out == load_tool(name).layout_markdown()


def test_red_planet_actions_tool_prints_its_page_and_refuses_arguments(capsys):
    from spacemission_env.red_planet import actions

    tool = load_tool("make_red_planet_actions_doc")
    tool.main([])
    assert capsys.readouterr().out == actions.actions_markdown()
    with pytest.raises(SystemExit) as exc:
        tool.main(["--out", "x"])
    assert exc.value.code == 2 and "unrecognized arguments: --out x" in capsys.readouterr().err


def test_the_red_planet_actions_page_names_a_command_that_runs_without_warnings(tmp_path):
    """The page's generator is a tool: run as ``python -m spacemission_env.red_planet.actions``,
    the module had been imported by its package first and runpy warned (RuntimeWarning)."""
    page = (ROOT / "docs" / "red_planet" / "actions.md").read_text(encoding="utf-8")
    assert "`python tools/make_red_planet_actions_doc.py`" in page
    out = subprocess.run([sys.executable, "-W", "error", str(ROOT / "tools" / "make_red_planet_actions_doc.py")],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert out.returncode == 0 and out.stderr == "" and out.stdout == page, out.stderr[-2000:]


def test_red_planet_render_module_help_makes_no_folder(capsys, tmp_path, monkeypatch):
    from spacemission_env.red_planet import render

    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        render.main(["--help"])
    assert exc.value.code == 0 and "FOLDER" in capsys.readouterr().out.upper()
    with pytest.raises(SystemExit) as exc:
        render.main(["a", "b"])
    assert exc.value.code == 2 and "unrecognized arguments: b" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    render.main(["pics"])
    assert sorted(p.name for p in (tmp_path / "pics").iterdir()) == ["red_planet_board.png",
                                                                   "red_planet_board_seat0.png"]
    assert "round 6/10" in capsys.readouterr().out


# --- every script's parser cuts the values it echoes --------------------------------------------
SCRIPTS = sorted([("benchmarks", p.stem) for p in (ROOT / "benchmarks").glob("*.py")]
                 + [("tools", p.stem) for p in (ROOT / "tools").glob("*.py")
                    if p.stem not in ("test_mindeps", "notebook_cells")])  # notebook_cells: make_notebook's data


@pytest.mark.parametrize("folder, name", SCRIPTS)
def test_a_scripts_usage_error_cuts_the_value_it_echoes(folder, name, capsys, monkeypatch):
    """The scripts used plain argparse, so a usage error echoed a typed value whole (a 5000-digit
    --games came back as 5000 digits); every command's parser is spacemission_env.checks'
    UsageParser, which cuts it to 80 characters. Each script's parser is made to report such an
    error. (tools/test_mindeps.py stays on argparse: it runs on a bare interpreter, before the
    virtualenv it builds has the package.)"""
    import argparse

    from spacemission_env.checks import SHOWN_CHARS

    def refuse(self, args=None, namespace=None):
        self.error(f"argument --games: invalid int value: '{'9' * 5000}'")

    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", refuse)
    module = load_tool(name, folder)
    monkeypatch.setattr(sys, "argv", [name])
    with pytest.raises(SystemExit) as exc:
        module.main() if name == "make_notebook" else module.main([])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "invalid int value: '999" in err, err[:300]
    assert all(len(word) <= SHOWN_CHARS for word in err.split()), err[:300]


def test_value_fit_cuts_the_value_it_echoes(capsys):
    from spacemission_env.checks import SHOWN_CHARS
    from spacemission_training.value_fit import main

    with pytest.raises(SystemExit) as exc:
        main(["--players", "9" * 5000])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "argument --players" in err and "..." in err, err[:300]
    assert all(len(word) <= SHOWN_CHARS for word in err.split()), err[:300]
