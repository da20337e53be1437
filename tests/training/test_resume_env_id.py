"""``--resume`` and the environment version a run recorded (config.json's ``env_id``, the
game description's, docs/versioning.md): another version is refused naming both (its rewards
or rules differ) unless ``--allow-version-change``; a run that recorded none (started before
runs recorded it) resumes with a one-line warning. Both trainers' command lines, on run
folders written here: no run is trained, and Ray is not needed."""
import json

import pytest

pytest.importorskip("sb3_contrib")

from spacemission_env.games import get_game  # noqa: E402
from spacemission_training import config as sb3_config  # noqa: E402
from spacemission_training import rllib_config  # noqa: E402

from .test_resume_config import RLLIB, SB3  # noqa: E402

CURRENT = get_game("spacemission").description.env_id  # "SpaceMission-v3"
OLD = "SpaceMission-v2"  # the version before the 4-player rank rewards changed (docs/changelog.md)


def _run(tmp_path, backend: str, record: dict):
    """A run folder of ``backend`` whose config.json holds its configuration and ``record``."""
    run = tmp_path / "run"
    if backend == "sb3":
        run.mkdir()
        cfg = sb3_config.TrainConfig(**SB3, run_dir=str(run))
    else:
        (run / "checkpoints" / "rllib").mkdir(parents=True)
        (run / "checkpoints" / "rllib" / "loop.json").write_text("{}")  # what find_checkpoint looks for
        cfg = rllib_config.RLlibConfig(**RLLIB, run_dir=str(run))
    (run / "config.json").write_text(json.dumps({"config": cfg.as_dict(), **record}))
    return run


def _module(backend: str):
    return sb3_config if backend == "sb3" else rllib_config


BACKENDS = pytest.mark.parametrize("backend", ["sb3", "rllib"])


def test_the_current_env_id_is_the_game_descriptions():
    assert CURRENT == "SpaceMission-v3" and OLD != CURRENT


@BACKENDS
def test_a_run_of_another_version_is_refused_naming_both(backend, tmp_path, capsys):
    """Before: the run resumed on the new version without a word (nothing was recorded)."""
    run = _run(tmp_path, backend, {"env_id": OLD})
    before = (run / "config.json").read_text()
    with pytest.raises(SystemExit) as info:
        _module(backend).parse_args(["--resume", str(run)])
    err = capsys.readouterr().err
    assert info.value.code == 2
    assert f"trained on {OLD!r}" in err and CURRENT in err and "docs/versioning.md" in err
    assert "--allow-version-change" in err and "rewards or rules differ" in err
    assert (run / "config.json").read_text() == before  # nothing written


@BACKENDS
def test_allow_version_change_resumes_with_a_note(backend, tmp_path, capsys):
    run = _run(tmp_path, backend, {"env_id": OLD})
    cfg, resume = _module(backend).parse_args(["--resume", str(run), "--allow-version-change", "--steps", "4096"])
    assert resume == str(run) and cfg.steps == 4096
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("note: --resume:") and OLD in err and CURRENT in err


@BACKENDS
def test_a_run_without_env_id_resumes_with_one_warning(backend, tmp_path, capsys):
    run = _run(tmp_path, backend, {})
    cfg, resume = _module(backend).parse_args(["--resume", str(run)])
    assert resume == str(run)
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("warning: --resume:") and "unknown" in err and CURRENT in err


@BACKENDS
def test_a_run_of_this_version_resumes_without_a_word(backend, tmp_path, capsys):
    run = _run(tmp_path, backend, {"env_id": CURRENT})
    _module(backend).parse_args(["--resume", str(run)])
    _module(backend).parse_args(["--resume", str(run), "--allow-version-change"])  # nothing to allow: fine
    assert capsys.readouterr().err == ""


@BACKENDS
def test_a_bad_env_id_is_a_usage_error(backend, tmp_path, capsys):
    run = _run(tmp_path, backend, {"env_id": ["x" * 200]})
    with pytest.raises(SystemExit) as info:
        _module(backend).parse_args(["--resume", str(run), "--allow-version-change"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "env_id must be an environment id" in err and "x" * 81 not in err


@BACKENDS
def test_allow_version_change_needs_resume(backend, capsys):
    with pytest.raises(SystemExit) as info:
        _module(backend).parse_args(["--allow-version-change"])
    assert info.value.code == 2 and "--allow-version-change goes with --resume" in capsys.readouterr().err


def test_a_red_planet_run_is_checked_against_red_planets_version(tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    cfg = sb3_config.for_game("red_planet", **{**SB3, "bc_teacher": "random"}, run_dir=str(run))
    current = get_game("red_planet").description.env_id
    (run / "config.json").write_text(json.dumps({"config": cfg.as_dict(), "env_id": "RedPlanet-v1"}))
    with pytest.raises(SystemExit):
        sb3_config.parse_args(["--resume", str(run)])
    err = capsys.readouterr().err
    assert "'RedPlanet-v1'" in err and current in err and current != "RedPlanet-v1"
    (run / "config.json").write_text(json.dumps({"config": cfg.as_dict(), "env_id": current}))
    sb3_config.parse_args(["--resume", str(run)])
    assert capsys.readouterr().err == ""


def test_record_resume_keeps_the_history():
    from spacemission_training.lifecycle import record_resume

    saved = record_resume({"env_id": OLD}, "spacemission", command=["x"], step=5)
    assert saved["env_id"] == CURRENT
    assert saved["resumed"] == [{"command": ["x"], "step": 5, "env_id": CURRENT, "previous_env_id": OLD}]
    record_resume(saved, "spacemission", command=["y"], step=9)
    assert saved["resumed"][-1] == {"command": ["y"], "step": 9, "env_id": CURRENT}
    assert record_resume({}, "spacemission", step=1)["resumed"] == [{"step": 1, "env_id": CURRENT,
                                                                     "previous_env_id": None}]


@BACKENDS
def test_spacemission_train_refuses_before_anything_is_written(backend, tmp_path, capsys):
    """The command line as users type it (``spacemission train [--backend rllib] --resume``)."""
    from spacemission_cli.train import main

    if backend == "rllib":
        pytest.importorskip("ray.rllib")  # the command line names the missing extra first (make test-ray)
    run = _run(tmp_path, backend, {"env_id": OLD})
    files = sorted(p.relative_to(run) for p in run.rglob("*"))
    before = (run / "config.json").read_text()
    with pytest.raises(SystemExit) as info:
        main([*(["--backend", "rllib"] if backend == "rllib" else []), "--resume", str(run)])
    assert info.value.code == 2 and f"trained on {OLD!r}" in capsys.readouterr().err
    assert sorted(p.relative_to(run) for p in run.rglob("*")) == files and (run / "config.json").read_text() == before
