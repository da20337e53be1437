"""A run directory the trainer cannot make or write in (no permission, a read-only file
system, /proc) is a usage error naming ``run_dir`` and the system's reason, found before
any work; the check leaves nothing behind. Before: ``spacemission train --run-dir
/proc/x/run`` (or a read-only place) ended in a traceback (FileNotFoundError /
PermissionError from Path.mkdir); the RLlib trainer got there only after Ray had started."""
from __future__ import annotations

import errno
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from spacemission_env.checks import shown_path  # noqa: E402
from spacemission_training import train_ppo  # noqa: E402
from spacemission_training.run_paths import check_run_dir_writable  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
FAST = ["--steps", "32", "--bc-samples", "0", "--eval-every", "0", "--final-eval-games", "0"]
NO_DIR_HERE = "/proc/no-such-process-folder/run"  # /proc takes no new folder, also from root


def _refused(argv, capsys) -> str:
    with pytest.raises(SystemExit) as info:
        train_ppo.main(argv)
    assert info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_run_dir_that_cannot_be_made_is_a_usage_error(capsys, monkeypatch):
    monkeypatch.setattr(train_ppo, "train", lambda *a, **k: pytest.fail("train() ran"))
    err = _refused(["--run-dir", NO_DIR_HERE, *FAST], capsys)
    assert (f"error: option run_dir: cannot write the run's files in {NO_DIR_HERE!r} (No such file or directory: "
            f"'/proc/no-such-process-folder')") in err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_the_command_line_gives_no_traceback(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(str(ROOT / p) for p in ("agents", "training", "."))}
    out = subprocess.run([sys.executable, "-m", "spacemission_cli.main", "train", "--run-dir", NO_DIR_HERE, *FAST],
                         capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "option run_dir: cannot write the run's files in" in out.stderr.splitlines()[-1]
    assert not list(tmp_path.iterdir())


def test_a_failed_check_removes_the_folders_it_made(tmp_path, monkeypatch):
    def read_only(*a, **k):
        raise OSError(errno.EROFS, "Read-only file system", str(tmp_path / "a" / "b" / "run"))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    with pytest.raises(ValueError) as info:
        check_run_dir_writable(tmp_path / "a" / "b" / "run")
    assert str(info.value) == (f"option run_dir: cannot write the run's files in {str(tmp_path / 'a' / 'b' / 'run')!r} "
                               f"(Read-only file system)")
    assert not list(tmp_path.iterdir())


def test_a_passed_check_leaves_nothing_behind(tmp_path):
    check_run_dir_writable(tmp_path / "a" / "b" / "run")
    assert not list(tmp_path.iterdir())
    (tmp_path / "run").mkdir()
    check_run_dir_writable(tmp_path / "run")
    assert not list((tmp_path / "run").iterdir())


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes in a read-only folder")
def test_a_read_only_parent_is_a_usage_error(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(train_ppo, "train", lambda *a, **k: pytest.fail("train() ran"))
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        err = _refused(["--run-dir", str(locked / "run"), *FAST], capsys)
    finally:
        locked.chmod(0o755)
    assert "option run_dir: cannot write the run's files in" in err and "Permission denied" in err
    assert not list(locked.iterdir())


# --- --bc-cache: written after the teacher's games ------------------------------------------
TINY = ["--num-envs", "4", "--n-steps", "8", "--batch-size", "32", "--epochs", "1", "--trunk", "8", "--pi", "8",
        "--vf", "8", "--bc-samples", "64", "--bc-epochs", "1", "--opponents", "random=1", "--eval-every", "0",
        "--final-eval-games", "0", "--steps", "32", "--threads", "1", "--progress", "lines"]


def test_a_bc_cache_in_a_missing_folder_is_written_there(tmp_path, capsys):
    """Before: FileNotFoundError for CACHE.tmp after the teacher's games, and the run's folder
    was left with its config.json: the same command again was refused ("already holds a run")
    and --resume found no checkpoint."""
    cache = tmp_path / "caches" / "new" / "teacher.npz"
    assert train_ppo.main([*TINY, "--run-dir", str(tmp_path / "run"), "--bc-cache", str(cache)]) == 0
    assert cache.is_file() and (tmp_path / "run" / "final.npz").is_file()


def test_a_bc_cache_that_cannot_be_written_is_a_usage_error(tmp_path, capsys, monkeypatch):
    """Before: PermissionError when the cache was written, after the teacher's games."""
    locked = tmp_path / "locked"
    locked.mkdir()
    real = train_ppo.folder_write_problem
    monkeypatch.setattr(train_ppo, "folder_write_problem",  # as for a read-only folder (root writes anywhere)
                        lambda folder: "Permission denied" if Path(folder) == locked else real(folder))
    monkeypatch.setattr(train_ppo, "train", lambda *a, **k: pytest.fail("train() ran"))
    cache = locked / "teacher.npz"
    err = _refused([*TINY, "--run-dir", str(tmp_path / "run"), "--bc-cache", str(cache)], capsys)
    assert f"error: option bc_cache: cannot write {shown_path(cache)} (Permission denied)" in err
    assert not (tmp_path / "run").exists()


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs Linux's /sys")
def test_a_bc_cache_in_sys_is_a_usage_error(tmp_path, capsys):
    err = _refused([*TINY, "--run-dir", str(tmp_path / "run"), "--bc-cache", "/sys/kernel/teacher.npz"], capsys)
    assert "error: option bc_cache: cannot write '/sys/kernel/teacher.npz' (" in err
    assert not (tmp_path / "run").exists()
