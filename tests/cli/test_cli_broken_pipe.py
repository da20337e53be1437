"""A command whose reader goes away (``spacemission demo | head -1``) stops quietly: no
traceback on stderr, exit status 1 (spacemission_cli.main.BROKEN_PIPE, as rich's tables)."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("argv", [["demo", "--players", "4"], ["demo", "--game", "red_planet"], ["--help"],
                                  ["arena", "--agents", "random,random", "--games", "2", "--no-progress"]])
def test_a_closed_reader_ends_the_command_without_a_traceback(argv, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(ROOT / p) for p in ("agents", "training", ".")))
    proc = subprocess.Popen([sys.executable, "-m", "spacemission_cli", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=env, cwd=tmp_path)
    proc.stdout.close()  # the reader is gone before the first line is written
    err = proc.stderr.read().decode()
    code = proc.wait(timeout=300)
    assert "Traceback" not in err and "BrokenPipeError" not in err, err
    assert code in (0, 1), (code, err)  # --help's argparse exits 0 before its output can fail
