"""The messages of a run that cannot be resumed (checkpoint.ResumeError, both trainers),
of an unreadable --bc-cache and of an --init-from model that does not load cut the paths
and values they name (checks.shown, cut_long_words: ~80 characters; a path,
checks.shown_path: 512), as every other message does. Before, they printed them whole with !r: a path of thousands of characters
gave a message of thousands (twice or three times over)."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("torch")

from spacemission_env.checks import PATH_CHARS  # noqa: E402
from spacemission_training import bc, checkpoint, init_from  # noqa: E402
from spacemission_training.rllib_checkpoint import read_checkpoint  # noqa: E402

LONG = "r" * 5000
# the longest message of these names three paths (cut to PATH_CHARS each) in about 300 characters
MOST = 3 * PATH_CHARS + 400


def deep_dir(root: Path) -> Path:
    """A folder whose path is about 3,800 characters (the system takes at most 4,095): ``root``
    then "d/.." 750 times over (pathlib keeps each "..", where it drops "."), a real folder."""
    (root / "d").mkdir()
    path = Path(str(root) + "/d/.." * 750)
    assert len(str(path)) > 3750 and path.is_dir()
    return path


def test_the_check_of_the_run_cuts_the_path_and_the_values():
    blob = {"loop": {"config": {"trunk": "9" * 5000, "seed": 1}}}
    with pytest.raises(checkpoint.ResumeError) as info:
        checkpoint.check_run(blob, LONG, {"trunk": "8" * 5000, "seed": 1})
    message = str(info.value)
    assert len(message) < MOST and "is not of the run configured" in message
    assert f"checkpoint '{'r' * (PATH_CHARS - 4)}..." in message and "trunk '99999" in message and "'88888" in message


def test_no_checkpoint_at_a_long_path_is_named_cut(tmp_path):
    run_dir = deep_dir(tmp_path)
    (run_dir / "checkpoints").mkdir()
    with pytest.raises(checkpoint.ResumeError) as info:
        checkpoint.load(run_dir / "checkpoints" / "last.pt")
    message = str(info.value)
    assert len(message) < MOST and message.startswith("no checkpoint at '") and "after removing '" in message


def test_an_unreadable_checkpoint_at_a_long_path_is_named_cut(tmp_path):
    run_dir = deep_dir(tmp_path)
    (run_dir / "checkpoints").mkdir()
    (run_dir / "checkpoints" / "last.pt").write_bytes(b"not a checkpoint")
    with pytest.raises(checkpoint.ResumeError) as info:
        checkpoint.load(run_dir / "checkpoints" / "last.pt")
    assert len(str(info.value)) < MOST and "cannot be read, it is truncated or corrupted" in str(info.value)


def test_the_rllib_trainer_names_a_long_run_dir_cut(tmp_path):
    run_dir = deep_dir(tmp_path)
    with pytest.raises(checkpoint.ResumeError) as info:
        read_checkpoint(run_dir, None)  # no checkpoint: the configuration is not read
    assert len(str(info.value)) < MOST and str(info.value).startswith("no RLlib checkpoint in '")
    (run_dir / "checkpoints").mkdir()
    (run_dir / "checkpoints" / "last.pt").write_bytes(b"")
    with pytest.raises(checkpoint.ResumeError) as info:
        read_checkpoint(run_dir, None)
    assert len(str(info.value)) < MOST and "is a run of the SB3 trainer" in str(info.value)


def test_an_unreadable_bc_cache_is_named_cut(tmp_path):
    path = deep_dir(tmp_path) / "cache.npz"
    path.write_bytes(b"PK\x03\x04 a cut zip")
    with pytest.raises(ValueError) as info:
        bc.load_cache(path, {})
    assert len(str(info.value)) < MOST and str(info.value).startswith("option bc_cache: '")


def test_an_init_from_model_that_does_not_load_is_named_cut(tmp_path):
    path = deep_dir(tmp_path) / "model.npz"
    path.write_bytes(b"PK\x03\x04 a cut zip")  # an .npz's header, then nothing a zip holds
    with pytest.raises(ValueError) as info:
        init_from.check(SimpleNamespace(init_from=str(path)))
    assert len(str(info.value)) < MOST and str(info.value).startswith("option init_from: ")


def test_the_trainers_resume_line_cuts_the_run_folder(tmp_path, capsys):
    """``spacemission train --resume RUN_DIR`` of a run without a checkpoint: the line
    "error: --resume RUN_DIR: ..." cut the folder nowhere."""
    import json

    from spacemission_training import train_ppo

    run_dir = deep_dir(tmp_path)
    (run_dir / "config.json").write_text(json.dumps({"config": {
        "num_envs": 4, "n_steps": 8, "batch_size": 32, "trunk": "8", "pi": "8", "vf": "8", "bc_teacher": "",
        "opponents": "random=1", "eval_every": 0, "final_eval_games": 0, "steps": 32, "run_dir": str(run_dir)}}))
    assert train_ppo.main(["--resume", str(run_dir)]) == 2
    err = capsys.readouterr().err
    assert "no checkpoint at '" in err and len(err) < 2 * MOST, err[:300]
