"""A run that crashed after writing its config.json and before its first checkpoint (the
crash injected right after config.json, no real training): the same command again was
refused with "already holds a run (config.json): continue it with --resume", and that
--resume was refused in turn ("no checkpoint"), the user sent in a circle. Now the refusal
of the fresh run names the situation (no checkpoint: nothing to resume) and the way out
(delete the folder, or another --run-dir); --resume still names it too. Both trainers
(the RLlib one's train() here without Ray: the crash comes before it starts)."""
from __future__ import annotations

import re

import pytest

from spacemission_training import train_ppo
from spacemission_training.run_paths import refuse_existing_run

TINY = ["--num-envs", "4", "--n-steps", "8", "--batch-size", "32", "--epochs", "1", "--trunk", "8", "--pi", "8",
        "--vf", "8", "--bc-samples", "64", "--bc-epochs", "1", "--opponents", "random=1", "--eval-every", "0",
        "--final-eval-games", "0", "--steps", "32", "--threads", "1", "--progress", "lines"]

NO_CHECKPOINT = "holds a run that stopped before its first checkpoint (config.json, no checkpoint)"


class Crash(RuntimeError):
    pass


def _crash(*args, **kwargs):
    raise Crash("injected right after config.json")


def test_a_sb3_run_that_crashed_before_its_first_checkpoint_names_the_way_out(tmp_path, capsys, monkeypatch,
                                                                            keep_torch_threads):
    run_dir = tmp_path / "run"
    argv = [*TINY, "--run-dir", str(run_dir)]
    with monkeypatch.context() as m:
        m.setattr(train_ppo, "RunLog", _crash)  # made right after config.json is written
        with pytest.raises(Crash):
            train_ppo.main(argv)
    assert (run_dir / "config.json").is_file() and not (run_dir / "checkpoints").exists()
    before = sorted((p.name, p.read_bytes()) for p in run_dir.iterdir())
    capsys.readouterr()
    with pytest.raises(SystemExit) as exc:  # the same command again
        train_ppo.main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert NO_CHECKPOINT in err
    assert "delete that directory" in err and "continue it with --resume" not in err
    assert train_ppo.main(["--resume", str(run_dir)]) == 2  # and --resume: no checkpoint, named
    err = capsys.readouterr().err
    assert "no checkpoint at" in err and "nothing to resume" in err and "after removing" in err
    assert sorted((p.name, p.read_bytes()) for p in run_dir.iterdir()) == before  # left as it was
    # the way out it names: without the folder the same command runs
    import shutil

    shutil.rmtree(run_dir)
    assert train_ppo.main(argv) == 0
    assert (run_dir / "final.npz").is_file()
    with pytest.raises(ValueError, match=re.escape("already holds a run (config.json): continue it with --resume")):
        refuse_existing_run(run_dir)  # a run with its checkpoint: --resume, as before


def test_an_rllib_run_that_crashed_before_its_first_checkpoint_names_the_way_out(tmp_path, monkeypatch):
    from spacemission_training import policy, rllib
    from spacemission_training.checkpoint import ResumeError
    from spacemission_training.rllib_config import RLlibConfig

    run_dir = tmp_path / "run"
    cfg = RLlibConfig(run_dir=str(run_dir), steps=10)
    with monkeypatch.context() as m:
        m.setattr(rllib, "init_ray", lambda address: None)  # no Ray: the crash comes before it is used
        m.setattr(rllib, "_ray_version", lambda: "none")
        m.setattr(policy, "feature_stats", _crash)  # the first step after config.json is written
        with pytest.raises(Crash):
            rllib.train(cfg, argv=[])
    assert (run_dir / "config.json").is_file() and not (run_dir / "checkpoints").exists()
    with pytest.raises(ValueError, match=re.escape(NO_CHECKPOINT)):  # the same run again (before Ray starts)
        rllib.train(cfg, argv=[])
    with pytest.raises(ResumeError, match="nothing to resume .* after removing"):  # --resume (before Ray starts)
        rllib.read_checkpoint(run_dir, cfg)
    assert [p.name for p in run_dir.iterdir()] == ["config.json"]


def test_a_run_folder_with_either_trainers_checkpoint_is_sent_to_resume(tmp_path):
    for ckpt in ("checkpoints/last.pt", "checkpoints/rllib/loop.json", "checkpoints/rllib.new/loop.json"):
        run_dir = tmp_path / ckpt.replace("/", "_")
        (run_dir / ckpt).parent.mkdir(parents=True)
        (run_dir / ckpt).write_text("{}")
        (run_dir / "config.json").write_text('{"config": {}}')
        with pytest.raises(ValueError, match=re.escape("already holds a run (config.json): continue it with")):
            refuse_existing_run(run_dir)


def test_the_refusals_cut_a_long_run_dir(tmp_path):
    run_dir = tmp_path / ("d" * 200) / ("d" * 200) / ("d" * 200)  # past PATH_CHARS (checks.shown_path)
    run_dir.mkdir(parents=True)
    (run_dir / "metrics.csv").write_text("")
    with pytest.raises(ValueError) as exc:
        refuse_existing_run(run_dir)
    assert str(run_dir) not in str(exc.value) and "..." in str(exc.value)
    (run_dir / "config.json").write_text("{}")
    with pytest.raises(ValueError) as exc:
        refuse_existing_run(run_dir)
    assert str(run_dir) not in str(exc.value) and NO_CHECKPOINT in str(exc.value)
