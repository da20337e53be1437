"""jit.njit compiles a callee for the plain type of an integer constant argument (not one
version per constant, numba's default for calls between compiled functions), still for the
literal where the callee's typing needs it, and keeps boolean constants (flags)."""
from __future__ import annotations

import numba
import numpy as np
import pytest
from numba import config as numba_config
from numba.core import types

from spacemission_env import jit

pytestmark = pytest.mark.skipif(numba_config.DISABLE_JIT, reason="NUMBA_DISABLE_JIT: no dispatchers")


def _fresh():
    """Uncached dispatchers (a cached caller would load and never compile its callee),
    with the call policy of jit.njit."""
    def head_sum(a, n):
        return a[:n].sum()

    def pick(t, i):
        return t[i]  # a heterogeneous tuple: typing needs i's value

    def flagged(a, write):
        if write:
            a[0] = 1.0
        return a[1]

    callee, picker, flag = numba.njit(head_sum), numba.njit(pick), numba.njit(flagged)
    for d in (callee, picker, flag):
        jit._plain_call_template(d)

    @numba.njit
    def caller(a):
        return callee(a, 2) + callee(a, 3) + callee(a, np.int64(4))

    @numba.njit
    def tuple_caller():
        return picker((1, 2.5), 1)

    @numba.njit
    def flag_caller(a):
        return flag(a, True) + flag(a, False)

    return callee, caller, picker, tuple_caller, flag, flag_caller


def test_constants_share_one_plain_compile():
    callee, caller, *_ = _fresh()
    assert caller(np.arange(5.0)) == 1.0 + 3.0 + 6.0
    assert len(callee.signatures) == 1
    assert not any(isinstance(t, types.Literal) for t in callee.signatures[0])


def test_a_callee_that_needs_the_constant_still_gets_it():
    _, _, picker, tuple_caller, *_ = _fresh()
    assert tuple_caller() == 2.5
    assert any(isinstance(t, types.Literal) for sig in picker.signatures for t in sig)


def test_a_boolean_constant_keeps_its_literal():
    *_, flag, flag_caller = _fresh()
    a = np.zeros(2)
    assert flag_caller(a) == 0.0 and a[0] == 1.0
    assert sorted(str(sig[1]) for sig in flag.signatures) == ["Literal[bool](False)", "Literal[bool](True)"]


def test_njit_applies_the_call_policy():
    @jit.njit
    def f(x):
        return x + 1

    assert "_plain_call_template" in f.get_call_template.__qualname__
