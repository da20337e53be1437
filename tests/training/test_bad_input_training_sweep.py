"""Bad training options, found by the training robustness sweep: each test failed before its
fix. Options accepted by the configuration that only failed once the run had started
(after run_dir/config.json was written, or after the training at the first evaluation), or
never (negative coefficients); value_fit and quickstart arguments checked after the work."""
import re
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from spacemission_env.checks import shown, shown_path  # noqa: E402
from spacemission_training.config import TrainConfig, parse_args  # noqa: E402

pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py


@pytest.mark.parametrize("option, value, message", [
    ("epochs", 0, "epochs must be >= 1, got 0"),
    ("bc_batch", -5, "bc_batch must be >= 1, got -5"),
    ("max_snapshots", 0, "max_snapshots must be >= 1, got 0"),
    ("clip", -0.1, "clip must be > 0, got -0.1"),
    ("max_grad_norm", 0.0, "max_grad_norm must be > 0, got 0.0"),
    ("bc_lr", -1.0, "bc_lr must be > 0, got -1.0"),
    ("ent_coef", -1.0, "ent_coef must be >= 0, got -1.0"),
    ("snapshot_temperature", -1.0, "snapshot_temperature must be >= 0, got -1.0"),
    ("priority", -1.0, r"priority must be in \[0, 100\)"),
    ("seed", -1, r"seed and eval_seed must be in 0\.\.4294967294"),
    ("eval_seed", 2**40, r"seed and eval_seed must be in 0\.\.4294967294"),
    ("eval_games", 0, "eval_games must be >= 1"),
    ("final_eval_games", -1, "final_eval_games must be >= 0"),
    ("reward", "bogus", "reward must be win or score"),
    ("opponents", "bogus=1", "option opponents: unknown agent 'bogus'"),
    ("opponents", "heuristic=-1", "option opponents: opponent weight for 'heuristic' must be >= 0"),
    ("eval_opponents", "random,bogus", "option eval_opponents: unknown agent 'bogus'"),
    ("bc_teacher", "heuristic:bogus=1", "option bc_teacher: agent spec 'heuristic:bogus=1'"),
    ("eval_opponents", "ppo:/no/such.npz", "option eval_opponents: .*no PPO model file"),
    # found by a new-user review: a traceback in the first update (NaN logits), after the warm start
    ("batch_size", 1, "batch_size must be >= 2"),
    # found by a new-user review: a traceback after the warm start, leaving a run folder that
    # could neither be started again nor resumed
    ("trunk", "", "trunk: a policy with the heuristic prior needs at least one trunk layer"),
    # found by the entry points' audit: a segfault in the network's initialisation (torch's
    # OpenMP), after config.json was written
    ("threads", 100_000, r"threads must be in 1\.\.1024 \(torch's threads"),
])
def test_options_the_run_cannot_use_are_refused_by_the_configuration(option, value, message, capsys):
    """Before: all accepted; the specs failed after config.json was written (opponents,
    bc_teacher) or at the first evaluation (eval_opponents), the seeds in numpy's seeding."""
    with pytest.raises(ValueError, match=message):
        TrainConfig(**{option: value})
    flag = "--" + option.replace("_", "-")
    with pytest.raises(SystemExit):
        parse_args([flag, str(value)])
    assert message.split(" ")[0] in capsys.readouterr().err


@pytest.mark.parametrize("value", [",,", " "])
def test_evaluations_against_nobody_are_refused(value):
    """Before: accepted; every evaluation played no game."""
    with pytest.raises(ValueError, match="option eval_opponents: .* names no agent, but there are evaluations"):
        TrainConfig(eval_opponents=value)
    TrainConfig(eval_opponents=value, eval_every=0, final_eval_games=0)  # no evaluations: nothing to check


def test_observation_types_the_game_lacks_are_refused():
    """Before: accepted without a prior; the env refused it once the run had started."""
    with pytest.raises(ValueError, match="observation_type must be one of info, recall, seer"):
        TrainConfig(observation_type="bogus", prior="")


def test_options_that_go_unused_are_not_checked():
    """A teacher with no samples and evaluation opponents with no evaluations stay as before."""
    TrainConfig(bc_teacher="bogus", bc_samples=0, eval_opponents="bogus", eval_every=0, final_eval_games=0,
                eval_games=0)


def test_paths_of_the_wrong_kind_are_refused(tmp_path):
    """Before: a run_dir that is a file (or under one) failed in mkdir after the options were
    taken; a bc_cache that is a directory after the teacher's data was collected."""
    f = tmp_path / "notes.txt"
    f.write_text("keep")
    with pytest.raises(ValueError, match=rf"option run_dir: {str(f)!r} is a file, not a directory"):
        TrainConfig(run_dir=str(f))
    with pytest.raises(ValueError, match=rf"option run_dir: .* lies under {str(f)!r}, which is a file"):
        TrainConfig(run_dir=str(f / "run"))
    with pytest.raises(ValueError, match=rf"option bc_cache: {str(tmp_path)!r} is a directory, not a file"):
        TrainConfig(bc_cache=str(tmp_path))
    assert f.read_text() == "keep"
    TrainConfig(run_dir=str(tmp_path / "new" / "run"), bc_cache=str(tmp_path / "cache.npz"))


# --- value_fit -------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "--games must be >= 1"),
    (["--holdout", "1.5"], r"--holdout must be in \[0, 1\)"),
    (["--keep", "0"], r"--keep must be in \(0, 1\]"),
    (["--lr", "nan"], "--lr must be a finite number > 0"),
    (["--hidden", "64,x"], "--hidden must be comma-separated positive layer sizes"),
    (["--hidden", "0"], "--hidden must be comma-separated positive layer sizes"),
    (["--policy", "/no/such.npz"], "--policy: no PPO model file at '/no/such.npz'"),
])
def test_value_fit_checks_its_arguments_before_the_games(argv, message, tmp_path, capsys):
    """Before: --games 0 and --hidden 64,x failed after the self-play games (IndexError,
    ValueError tracebacks), --holdout 1.5 trained on nothing, a missing policy was a
    ValueError traceback."""
    from spacemission_training import value_fit

    with pytest.raises(SystemExit) as info:
        value_fit.main([*argv, "--out", str(tmp_path / "v.npz")])
    assert info.value.code == 2 and re.search(message, capsys.readouterr().err)
    assert not (tmp_path / "v.npz").exists()


def test_value_fit_names_a_policy_and_an_out_it_cannot_use(tmp_path, capsys):
    """Before: a policy for another player count was a bare SystemExit message; an --out
    that is a directory failed in np.savez after the whole fit."""
    from spacemission_training import value_fit

    with pytest.raises(SystemExit) as info:
        value_fit.main(["--policy", str(value_fit.PPOAgent.shipped_path(3)), "--out", str(tmp_path / "v.npz")])
    assert info.value.code == 2 and "is a 3-player policy, not 2" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        value_fit.main(["--out", str(tmp_path)])
    assert "is a directory, not a file" in capsys.readouterr().err


# --- quickstart ------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "--games must be >= 1"),
    (["--opponents", "random,bogus"], "--opponents: unknown agent 'bogus'"),
    (["--steps", "0"], "steps must be >= 1, got 0"),
])
def test_quickstart_checks_its_arguments_before_training(argv, message, tmp_path, capsys):
    """Before: --games 0 and a bogus opponent failed in the arena after the whole training;
    --steps 0 was a ValueError traceback."""
    from spacemission_training import quickstart

    with pytest.raises(SystemExit) as info:
        quickstart.main([*argv, "--out", str(tmp_path / "q")])
    assert info.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "q").exists()


def test_quickstart_refuses_an_out_it_cannot_use_before_training(tmp_path, capsys, monkeypatch):
    """Before: an --out name past the system's length limit (OSError), a folder it cannot
    write in (PermissionError from the run's mkdir) and an OUT/train holding another run's
    files without config.json (train()'s ValueError) were tracebacks."""
    from spacemission_training import quickstart, train_ppo

    monkeypatch.setattr(train_ppo, "train", lambda *a, **k: pytest.fail("train() ran"))
    held = tmp_path / "held"
    (held / "train").mkdir(parents=True)
    (held / "train" / "metrics.csv").write_text("step\n")
    cases = [("x" * 300, f"--out {shown('x' * 300)} is not a usable path (File name too long)"),
             (str(held), f"--out {str(held)!r}: {str(held / 'train')!r} holds a run's files (metrics.csv) but no "
                         f"config.json; give another --out, or delete that folder")]
    if Path("/proc/self").is_dir():  # /proc takes no new folder, also from root
        cases.append(("/proc/no-such-folder/q", "--out '/proc/no-such-folder/q': cannot write the run's files in "
                                                "'/proc/no-such-folder/q/train' (No such file or directory: "
                                                "'/proc/no-such-folder')"))
    for out, message in cases:
        with pytest.raises(SystemExit) as info:
            quickstart.main(["--steps", "64", "--bc-samples", "0", "--out", out])
        assert info.value.code == 2
        assert capsys.readouterr().err.strip().splitlines()[-1].split(": error: ", 1)[1] == message
    assert [p.name for p in (held / "train").iterdir()] == ["metrics.csv"]


def test_a_fresh_run_into_a_directory_holding_a_run_is_refused(tmp_path, capsys):
    """Before: a second `spacemission train --run-dir D` (or the same seed's default run dir)
    overwrote D's config, logs, checkpoints and model without a word. Now it is a usage error
    naming --resume, and D is left as it was; train() refuses it too."""
    from spacemission_training.train_ppo import main, train

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "config.json").write_text('{"config": {}}')
    (run_dir / "final.npz").write_bytes(b"the earlier run's model")
    (run_dir / "checkpoints").mkdir()
    (run_dir / "checkpoints" / "last.pt").write_bytes(b"its checkpoint")  # a run --resume continues
    before = sorted((str(p), p.read_bytes()) for p in run_dir.rglob("*") if p.is_file())
    with pytest.raises(SystemExit) as exc:
        main(["--run-dir", str(run_dir), "--steps", "1000"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert (f"run_dir {shown_path(run_dir)} already holds a run (config.json): continue it with --resume "
            f"{shown_path(run_dir)}") in err
    with pytest.raises(ValueError, match=re.escape("already holds a run (config.json)")):
        train(TrainConfig(run_dir=str(run_dir), steps=1000))
    assert sorted((str(p), p.read_bytes()) for p in run_dir.rglob("*") if p.is_file()) == before


@pytest.mark.parametrize("leftover", ["metrics.csv", "checkpoints", "final.npz"])
def test_a_fresh_run_into_a_directory_holding_a_runs_files_without_config_is_refused(tmp_path, capsys, leftover):
    """Before: a run folder whose config.json was deleted took a fresh run, which appended
    its rows to the old metrics.csv and overwrote the rest. Now it is a usage error naming
    what it found, and the folder is left as it was."""
    from spacemission_training.train_ppo import main

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    if leftover == "checkpoints":
        (run_dir / leftover).mkdir()
    else:
        (run_dir / leftover).write_text("step,wall_s,key,value\n1,0.1,eval/random/win_rate,0.5\n")
    before = sorted(p.name for p in run_dir.rglob("*"))
    with pytest.raises(SystemExit) as exc:
        main(["--run-dir", str(run_dir), "--steps", "1000"])
    assert exc.value.code == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"holds a run's files ({leftover}) but no config.json" in err
    assert sorted(p.name for p in run_dir.rglob("*")) == before


@pytest.mark.parametrize("text, message", [
    ('steps = "x"\n', "option steps must be an integer, got 'x'"),
    ('lr = "0.1"\n', "option lr must be a finite number, got '0.1'"),
    ('opponents = "bogus=1"\n', "option opponents: unknown agent 'bogus'"),
])
def test_a_bad_value_in_a_config_file_names_the_file(tmp_path, capsys, text, message):
    """docs/training.md: a value of the wrong type in the file is a usage error naming the file
    and the option. Before: the option only. A flag's own bad value names no file."""
    conf = tmp_path / "c.toml"
    conf.write_text(text)
    with pytest.raises(SystemExit):
        parse_args(["--config", str(conf)])
    assert f"error: config file {str(conf)!r}: {message}" in capsys.readouterr().err
    option = text.split(" ")[0]
    good = {"steps": "1000", "lr": "0.001", "opponents": "random=1"}[option]
    assert getattr(parse_args(["--config", str(conf), f"--{option}", good])[0], option) in (1000, 0.001, "random=1")
    conf.write_text("seed = 3\n")
    with pytest.raises(SystemExit):
        parse_args(["--config", str(conf), "--lr", "nan"])
    err = capsys.readouterr().err
    assert "option lr must be" in err and "config file" not in err


def test_evaluations_of_specs_sharing_a_name_keep_apart(tmp_path):
    """Before: the metric key was the spec up to its first ':' (eval/heuristic, eval/ppo), so
    evaluating against 'heuristic' and 'heuristic:rival_weight=0.6', or two ppo:PATH files,
    logged one of them under the other's key and lost it; a pool group 'ppo:DIR/x.npz' was
    drawn as 'ppo:DIR' in the curves. Now the whole spec, '/' written '|'."""
    from spacemission_agents.ppo import PPOAgent
    from spacemission_agents.random_agents import RandomAgent
    from spacemission_training.logs import evaluate, metric_name

    other = tmp_path / "sub" / "x.npz"
    other.parent.mkdir()
    other.write_bytes(PPOAgent.shipped_path(2).read_bytes())
    specs = ["heuristic", "heuristic:rival_weight=0.6", "ppo", f"ppo:{other}"]
    out = evaluate(RandomAgent(), specs, num_players=2, rules="yucata", max_rounds=100, games=2, seed=0)
    names = {k.split("/")[1] for k in out}
    assert names == {"heuristic", "heuristic:rival_weight=0.6", "ppo", f"ppo:{str(other).replace('/', '|')}"}
    assert all(len(k.split("/")) == 3 for k in out) and len(out) == 3 * len(specs)
    assert metric_name("ppo:runs/t/x.npz") == "ppo:runs|t|x.npz" and metric_name("greedy") == "greedy"


def test_num_envs_past_this_machines_memory_is_a_usage_error(tmp_path, capsys):
    """Before: accepted, then the run's folder was written and the env's arrays filled until
    the system killed the process. Now a usage error naming num_envs; nothing is written."""
    with pytest.raises(SystemExit) as e:
        parse_args(["--num-envs", str(2**40), "--run-dir", str(tmp_path / "run")])
    assert e.value.code == 2
    assert "num_envs=1,099,511,627,776: that many games need at least" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


def test_a_minibatch_larger_than_the_rollout_is_said(tmp_path, capsys, monkeypatch):
    """Found by a new-user review: --batch-size past num_envs * n_steps was cut to the rollout
    without a word (sb3-contrib's MaskablePPO, unlike SB3's PPO, does not warn)."""
    from spacemission_training import train_ppo

    monkeypatch.setattr(train_ppo, "train", lambda cfg, **kw: {"finished": 0, "run_dir": str(tmp_path)})
    assert train_ppo.main(["--num-envs", "4", "--n-steps", "8", "--batch-size", "64", "--run-dir",
                           str(tmp_path / "run")]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert "--batch-size 64 is more than a rollout's 32 decisions" in err and "one minibatch of 32" in err
    assert train_ppo.main(["--num-envs", "4", "--n-steps", "8", "--batch-size", "32", "--run-dir",
                           str(tmp_path / "run")]) == 0
    assert "minibatch" not in capsys.readouterr().err


@pytest.mark.parametrize("argv, message", [
    (["--steps", "0"], "steps must be >= 1, got 0"),
    (["--num-envs", "0"], "num_envs must be >= 1, got 0"),
    (["--lr", "-1"], "lr must be > 0, got -1.0"),
    (["--gamma", "2"], "gamma must be in (0, 1], got 2.0"),
    (["--device", "tpu"], "device must be cpu, cuda, cuda:N or auto, got 'tpu'"),
])
def test_train_names_the_one_bad_field(argv, message, tmp_path, capsys):
    """Found by a CLI review: "sizes must be > 0" covered four fields, and every refusal
    printed the whole configuration (about 1.5 KB on one line). Now one field, its value."""
    from spacemission_training.train_ppo import main

    with pytest.raises(SystemExit) as exc:
        main([*argv, "--run-dir", str(tmp_path / "run")])
    err = capsys.readouterr().err.strip().splitlines()[-1]  # after argparse's usage
    assert exc.value.code == 2 and message in err and "'game':" not in err and len(err) < 200
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("text", ["steps = 10000000000000000000\n", "seed = -99999999999999999999999\n",
                                  '{"steps": 1%s}' % ("0" * 400)])
def test_an_integer_past_int64_is_refused_naming_the_option(tmp_path, capsys, text):
    """Before: an OverflowError traceback (float() of a 400-digit int), or a run that started
    and failed in SB3 (float(total_timesteps)); 10**19 steps passed into the int64 counters."""
    conf = tmp_path / ("c.json" if text.startswith("{") else "c.toml")
    conf.write_text(text)
    with pytest.raises(SystemExit):
        parse_args(["--config", str(conf)])
    assert "must be an integer in -9223372036854775807..9223372036854775807" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        parse_args(["--steps", "9" * 400])
    assert "option steps must be an integer in" in capsys.readouterr().err
    assert TrainConfig(steps=2**63 - 1).steps == 2**63 - 1


@pytest.mark.parametrize("text", ["lr = 1%s\n" % ("0" * 400), '{"gamma": -1%s}' % ("0" * 400)])
def test_an_integer_past_floats_range_in_a_float_option_is_refused_naming_it(tmp_path, capsys, text):
    """Before: an OverflowError traceback from float() of the 400-digit int (714c4e8 fixed
    the int options only)."""
    conf = tmp_path / ("c.json" if text.startswith("{") else "c.toml")
    conf.write_text(text)
    with pytest.raises(SystemExit):
        parse_args(["--config", str(conf)])
    name = "lr" if "lr" in text else "gamma"
    assert f"error: config file {str(conf)!r}: option {name} must be a finite number, got " in capsys.readouterr().err


@pytest.mark.parametrize("text, message", [
    ("steps = -1\n", "bad training configuration: steps must be >= 1, got -1"),
    ("eval_seed = -1\n", "bad training configuration: seed and eval_seed must be in"),
    ("lr = -1.0\n", "bad training configuration: lr must be > 0, got -1.0"),
    ('reward = "x"\n', "bad training configuration: reward must be win or score"),
    ("num_envs = 1000000000000\n", "num_envs=1,000,000,000,000: that many games need"),
    ('trunk = ""\n', "trunk: a policy with the heuristic prior needs at least one trunk layer"),
    ('observation_type = "seer"\nprior = "heuristic"\n', "bad training configuration: the heuristic prior reads the 'recall'"),
])
def test_a_wrong_value_in_a_config_file_names_the_file(tmp_path, capsys, text, message):
    """Before: only errors worded "option NAME: ..." named the file; a value out of its range
    (steps = -1, the seeds, lr, reward, the memory of num_envs, an empty trunk) named the
    option alone, and the user was left to find which file or flag gave it."""
    conf = tmp_path / "c.toml"
    conf.write_text(text)
    with pytest.raises(SystemExit):
        parse_args(["--config", str(conf)])
    assert f"error: config file {str(conf)!r}: {message}" in capsys.readouterr().err
    option, _, value = text.partition("\n")[0].partition(" = ")
    conf.write_text("threads = 1\n")  # the same value from a flag: no file named
    with pytest.raises(SystemExit):
        parse_args(["--config", str(conf), f"--{option.replace('_', '-')}", value.strip('"')])
    err = capsys.readouterr().err
    assert message.split(":")[-1].split(",")[0] in err and "config file" not in err, err


def test_quickstart_names_the_steps_it_trains(tmp_path, capsys, monkeypatch):
    """Before: `--steps 4096` printed "training a PPO agent: 4,096 steps" and trained 32,768
    (train() runs whole rollouts of num_envs x n_steps), and --help did not say so. Now the
    heading names the steps the run takes and the rounding; --help names the rollout."""
    from spacemission_training import quickstart, train_ppo

    class Stop(Exception):
        pass

    def fake_train(cfg, **kwargs):
        raise Stop(cfg.steps)

    monkeypatch.setattr(train_ppo, "train", fake_train)
    with pytest.raises(Stop):
        quickstart.main(["--steps", "4096", "--bc-samples", "0", "--out", str(tmp_path / "q")])
    out = capsys.readouterr().out
    assert "training a PPO agent: 32,768 steps (--steps 4,096 rounded up to whole rollouts of 32,768)" in out
    with pytest.raises(Stop):
        quickstart.main(["--steps", "65536", "--bc-samples", "0", "--out", str(tmp_path / "q")])
    assert "training a PPO agent: 65,536 steps after cloning 0 heuristic decisions" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        quickstart.main(["--help"])
    assert "rounded up to whole rollouts of 32,768 (256 games x 128 steps)" in " ".join(capsys.readouterr().out.split())
