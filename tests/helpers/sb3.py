"""The SB3 VecEnv for test modules that test it among other interfaces: where
stable-baselines3 (the ``sb3`` extra) is not installed, ``GameVecEnv`` is None and the tests
marked ``needs_sb3`` skip with the reason, while the module's other tests still run (a
module-level import would fail the whole module at collection)."""
import pytest

try:
    from spacemission_env.sb3 import GameVecEnv
except ImportError as exc:  # the message names the extra: pip install 'spacemission_env[sb3]'
    GameVecEnv, REASON = None, str(exc)
else:
    REASON = ""

needs_sb3 = pytest.mark.skipif(GameVecEnv is None, reason=REASON)


def vec_env(*args, **kwargs):
    """``GameVecEnv(*args, **kwargs)``; where stable-baselines3 is missing, the test that calls
    it skips with the reason (for tables of builders over every interface, whose other rows run)."""
    if GameVecEnv is None:
        pytest.skip(REASON)
    return GameVecEnv(*args, **kwargs)
