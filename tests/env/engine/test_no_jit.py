"""``NUMBA_DISABLE_JIT=1`` (numba's debugging mode: the kernels run as plain Python on
numpy scalars) gives the same results as the compiled kernels: short games of both
engines through every API call, the numba bots and the determinizer
(tests/helpers/no_jit_run.py), compiled here and as plain Python in a subprocess.
NumPy 2 keeps a narrow integer type where numba widens it (an int8 table entry plus an
offset is int8 in Python, int64 compiled), so such spots fail only in that mode. The
plain run also turns RuntimeWarnings into errors: the uint64 wrap-around of the kernels'
hashes and SplitMix64 streams, silent when compiled, warns in Python unless its caller
wraps the kernel in ``engine_common.quiet()``."""
import os
import subprocess
import sys

import numpy as np
import pytest
from numba.core import config as numba_config

from tests.helpers.no_jit_run import record
from tests.helpers.paths import ROOT


@pytest.mark.skipif(numba_config.DISABLE_JIT, reason="compares with the compiled kernels")
def test_plain_python_kernels_give_the_compiled_results(tmp_path):
    path = tmp_path / "no_jit.npz"
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    command = [sys.executable, "-W", "error::RuntimeWarning", "-m", "tests.helpers.no_jit_run", str(path)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    compiled = record()
    with np.load(path) as plain:
        assert sorted(plain.files) == sorted(compiled)
        differ = [k for k in sorted(compiled) if plain[k].dtype != compiled[k].dtype
                  or not np.array_equal(plain[k], compiled[k])]
    assert not differ, f"{len(differ)} of {len(compiled)} results differ under NUMBA_DISABLE_JIT, first: {differ[:5]}"
