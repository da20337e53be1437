"""The trainers' seed options take what the code that uses them takes, no less, no more.

``eval_seed`` is an arena seed; the arena takes 0..2**32-1 (spacemission_agents.arena.
SEED_LIMIT, 2**31 before 2026-11-27) and the SB3 trainer's final evaluation plays
``eval_seed + 1``, so 0..2**32-2 are good: both trainers capped it at 2**31-2, the arena's
old limit. RLlib seeds env runner k's numpy global generator (below 2**32) with ``seed + k``
(k in 1..num_env_runners; ray/rllib/env/env_runner.py), so ``seed=2**32-2`` with two env
runners was accepted and every env runner died as Ray started it."""
import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from spacemission_training.config import MAX_EVAL_SEED, MAX_SEED, TrainConfig  # noqa: E402
from spacemission_training.rllib_config import RLlibConfig  # noqa: E402

pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py


@pytest.mark.parametrize("config", [TrainConfig, RLlibConfig])
@pytest.mark.parametrize("eval_seed", [2**31 - 1, 2**32 - 3, 2**32 - 2])
def test_eval_seed_takes_every_arena_seed_the_final_evaluation_allows(config, eval_seed):
    """Regression: refused above 2**31 - 2 ("... and 0..2147483646 ...")."""
    assert config(eval_seed=eval_seed).eval_seed == eval_seed


@pytest.mark.parametrize("config", [TrainConfig, RLlibConfig])
def test_eval_seed_past_the_arena_is_refused_naming_it(config):
    with pytest.raises(ValueError, match=r"seed and eval_seed must be in 0\.\.4294967294 \(.*eval_seed is an arena "
                                         r"seed, below 2\*\*32, and the final evaluation plays eval_seed \+ 1\), "
                                         r"got eval_seed=4294967295$"):
        config(eval_seed=2**32 - 1)
    assert MAX_EVAL_SEED == MAX_SEED == 2**32 - 2


def test_the_help_says_the_eval_seed_range():
    from spacemission_training.config import build_parser

    help_text = " ".join(build_parser().format_help().split())
    assert "0..4294967294, the final evaluation plays eval_seed + 1" in help_text
    assert "2147483646" not in help_text


def test_numpy_takes_no_global_seed_of_2_to_the_32():
    """The premise of the RLlib check below: an env runner's seed + k must stay below 2**32."""
    np.random.seed(2**32 - 1)
    with pytest.raises(ValueError):
        np.random.seed(2**32)
    np.random.seed(None)


@pytest.mark.parametrize("seed, runners", [(2**32 - 2, 2), (2**32 - 4, 4), (2**32 - 10, 16)])
def test_rllib_seed_that_an_env_runner_could_not_take_is_refused(seed, runners):
    """Regression: accepted; every env runner's np.random.seed(seed + k) raised once Ray started."""
    with pytest.raises(ValueError, match=rf"bad RLlib training configuration: seed must be in "
                                         rf"0\.\.{2**32 - 1 - runners} with num_env_runners={runners} "
                                         rf"\(RLlib seeds env runner k's numpy with seed \+ k, below 2\*\*32\), "
                                         rf"got seed={seed}$"):
        RLlibConfig(seed=seed, num_env_runners=runners)


@pytest.mark.parametrize("seed, runners", [(2**32 - 2, 0), (2**32 - 2, 1), (2**32 - 3, 2), (2**32 - 5, 4)])
def test_rllib_seed_every_env_runner_can_take_is_accepted(seed, runners):
    assert RLlibConfig(seed=seed, num_env_runners=runners).seed == seed
