"""``--resume`` with ``--config FILE``: the options a resume may change (RESUME_OVERRIDES)
are taken from the file as from the flags (a flag wins), checked as any option is; the
others must equal the saved values. Both trainers' configuration only: no run is trained,
and Ray is not needed (the RLlib trainer's configuration does not import it)."""
import json

import pytest

pytest.importorskip("sb3_contrib")

from spacemission_training import config as sb3_config  # noqa: E402
from spacemission_training import rllib_config  # noqa: E402

SB3 = dict(num_envs=16, n_steps=32, batch_size=256, trunk="32", pi="16", vf="16", bc_teacher="kind-random",
           opponents="random=1", eval_every=0, final_eval_games=0, steps=1536)
RLLIB = dict(steps=1000, num_env_runners=0, train_batch=200, minibatch=100, trunk="32", pi="16", vf="16",
             opponents="random=1", eval_games=0)


@pytest.fixture
def sb3_run(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    cfg = sb3_config.TrainConfig(**SB3, run_dir=str(run))
    (run / "config.json").write_text(json.dumps({"config": cfg.as_dict()}))
    return run


@pytest.fixture
def rllib_run(tmp_path):
    run = tmp_path / "run"
    (run / "checkpoints" / "rllib").mkdir(parents=True)
    (run / "checkpoints" / "rllib" / "loop.json").write_text("{}")  # what find_checkpoint looks for
    cfg = rllib_config.RLlibConfig(**RLLIB, run_dir=str(run))
    (run / "config.json").write_text(json.dumps({"config": cfg.as_dict()}))
    return run


@pytest.mark.parametrize("backend", ["sb3", "rllib"])
def test_resume_takes_the_budget_from_the_config_file(backend, request, tmp_path, capsys):
    """Before: the file's ``steps`` was compared with nothing and dropped, so a run that had
    finished at the saved budget answered "nothing to do" (exit 0) instead of extending."""
    module = sb3_config if backend == "sb3" else rllib_config
    run = request.getfixturevalue(f"{backend}_run")
    saved = SB3["steps"] if backend == "sb3" else RLLIB["steps"]
    toml = tmp_path / "more.toml"
    toml.write_text("steps = 2048\n")
    cfg, resume = module.parse_args(["--resume", str(run), "--config", str(toml)])
    assert resume == str(run) and cfg.steps == 2048
    # a flag wins over the file
    cfg, _ = module.parse_args(["--resume", str(run), "--config", str(toml), "--steps", "4096"])
    assert cfg.steps == 4096
    # without the file, the saved budget
    cfg, _ = module.parse_args(["--resume", str(run)])
    assert cfg.steps == saved
    # a whole number written as a float is an int, as in any config file
    toml.write_text("steps = 3e3\n")
    cfg, _ = module.parse_args(["--resume", str(run), "--config", str(toml)])
    assert cfg.steps == 3000 and isinstance(cfg.steps, int)
    # a bad value in the file is a usage error naming the file and the option
    toml.write_text('steps = "many"\n')
    with pytest.raises(SystemExit) as info:
        module.parse_args(["--resume", str(run), "--config", str(toml)])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "more.toml" in err and "option steps must be an integer" in err
    # any other option in the file must still equal the saved value
    toml.write_text("steps = 2048\nlr = 0.5\n")
    with pytest.raises(SystemExit):
        module.parse_args(["--resume", str(run), "--config", str(toml)])
    assert "lr 0.5 (saved:" in capsys.readouterr().err
