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

from spacemission_training import train_ppo  # noqa: E402
from spacemission_training.config import check_run_dir_writable  # noqa: E402

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
