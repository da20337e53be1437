"""The trainers' configurations (TrainConfig, RLlibConfig) name a rejected value cut to 80
characters (checks.shown), as the command line's usage errors do: built from Python or a
config file, a 1 MB string or a 5000-element list came back whole in the message, a
5000-digit integer gave Python's digit-limit ValueError ("Exceeds the limit (4300 digits)")
instead of the option's, and a 1 MB run_dir, bc_cache or init_from an OSError ("File name
too long") from the file system."""
import json
from dataclasses import fields

import pytest

pytest.importorskip("sb3_contrib")

from spacemission_env.checks import PATH_CHARS, SHOWN_CHARS  # noqa: E402
from spacemission_training.config import TrainConfig, game_defaults  # noqa: E402
from spacemission_training.rllib_config import RLlibConfig  # noqa: E402

pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py

LONG_STR = "x" * 1_000_000
LONG_LIST = list(range(5000))
HUGE_INT = 10**5000
VALUES = {"str": LONG_STR, "list": LONG_LIST, "int": HUGE_INT, "negative int": -HUGE_INT}
CASES = [(config, f.name) for config in (TrainConfig, RLlibConfig) for f in fields(config)]


PATH_OPTIONS = {"run_dir", "bc_cache", "init_from"}  # named as paths are: cut past PATH_CHARS (checks.shown_path)


def _check(message: str, cut_at: int = SHOWN_CHARS) -> None:
    assert "Exceeds the limit" not in message, message[:300]  # (an OSError is no ValueError: raises fails on it)
    assert len(message) < 620 + cut_at, message[:700]
    assert LONG_STR[:cut_at] not in message and ", ".join(map(str, range(40))) not in message, message[:700]


@pytest.mark.parametrize("value", VALUES.values(), ids=VALUES.keys())
@pytest.mark.parametrize("config, option", CASES, ids=[f"{c.__name__}-{o}" for c, o in CASES])
def test_a_long_value_of_any_option_is_named_cut(config, option, value):
    with pytest.raises(ValueError) as info:
        config(**{option: value})
    path = option in PATH_OPTIONS
    _check(str(info.value), PATH_CHARS if path else SHOWN_CHARS)
    if path and value is LONG_STR:  # a path is named to PATH_CHARS, not to the 80 of other values
        assert f"'{LONG_STR[:PATH_CHARS - 4]}..." in str(info.value)


@pytest.mark.parametrize("value", VALUES.values(), ids=VALUES.keys())
def test_game_defaults_name_a_long_game_cut(value):
    with pytest.raises(ValueError, match="^option game") as info:
        game_defaults(value)
    _check(str(info.value))


@pytest.mark.parametrize("option", ["run_dir", "bc_cache", "init_from"])
def test_a_path_the_system_cannot_look_up_is_named(option):
    """Regression: OSError "File name too long" from Path.exists."""
    with pytest.raises(ValueError, match=rf"^option {option}: 'xxx+\.\.\. is not a usable path \(File name too long\)$"):
        TrainConfig(**{option: LONG_STR})


@pytest.mark.parametrize("module", ["config", "rllib_config"])
def test_a_config_file_of_many_unknown_keys_is_named_cut(module, tmp_path, capsys):
    """Regression: the message listed every unknown key (5000 of them here: 59 KB)."""
    import importlib

    parse_args = importlib.import_module(f"spacemission_training.{module}").parse_args
    path = tmp_path / "many.json"
    path.write_text(json.dumps({f"key_{i}": i for i in range(5000)}))
    with pytest.raises(SystemExit):
        parse_args(["--config", str(path)])
    err = capsys.readouterr().err
    assert "unknown keys ['key_0', 'key_1'" in err and "key_40'" not in err and len(err) < 3000, err[-3000:]


@pytest.mark.parametrize("module", ["config", "rllib_config"])
def test_a_resume_whose_config_file_changes_an_option_names_the_value_cut(module, tmp_path, capsys):
    """Regression: a --resume whose --config file gave another value (a 5000-element list) for
    an option a resume may not change echoed it whole (a list has spaces: usage errors cut
    only long words)."""
    import importlib

    mod = importlib.import_module(f"spacemission_training.{module}")
    run = tmp_path / "run"
    if module == "config":
        run.mkdir()
        small = dict(num_envs=16, n_steps=32, batch_size=256, trunk="32", pi="16", vf="16", bc_teacher="kind-random",
                     opponents="random=1", eval_every=0, final_eval_games=0, steps=1536)
        cfg = TrainConfig(**small, run_dir=str(run))
    else:
        (run / "checkpoints" / "rllib").mkdir(parents=True)
        (run / "checkpoints" / "rllib" / "loop.json").write_text("{}")  # what find_checkpoint looks for
        cfg = RLlibConfig(steps=1000, num_env_runners=0, train_batch=200, minibatch=100, trunk="32", pi="16",
                          vf="16", opponents="random=1", eval_games=0, run_dir=str(run))
    (run / "config.json").write_text(json.dumps({"config": cfg.as_dict()}))
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"lr": LONG_LIST}))
    with pytest.raises(SystemExit):
        mod.parse_args(["--resume", str(run), "--config", str(path)])
    err = capsys.readouterr().err
    assert "got lr [0, 1, 2," in err and "(saved: " in err and len(err) < 3000, err[-3000:]


@pytest.mark.parametrize("config", [TrainConfig, RLlibConfig])
def test_a_whole_fraction_past_floats_range_is_refused_as_too_large(config):
    """Regression: float() of it in the integer check raised OverflowError."""
    from fractions import Fraction

    with pytest.raises(ValueError, match=r"^option steps must be an integer in -9223372036854775807\.\."
                                         r"9223372036854775807, got Fraction\(1000000"):
        config(steps=Fraction(10**400))
    assert config(steps=Fraction(4000)).steps == 4000


def test_check_cache_file_and_path_checks_cut_the_path_and_the_error(tmp_path, monkeypatch):
    """Before: check_cache_file printed the cache's path whole (!r) and numpy's error text
    uncut; check_path_kind the file a path lies under whole."""
    import numpy as np

    from spacemission_training import run_paths

    deep = tmp_path / ("c" * 200) / ("c" * 200) / ("c" * 200)  # past PATH_CHARS: cut there (checks.shown_path)
    deep.mkdir(parents=True)
    cache = deep / "teacher.npz"
    cache.write_bytes(b"not an npz")
    monkeypatch.setattr(np, "load", lambda *a, **k: (_ for _ in ()).throw(OSError("e" * 5000)))
    with pytest.raises(ValueError) as info:
        run_paths.check_cache_file(str(cache))
    message = str(info.value)
    assert message.startswith("option bc_cache: ") and "is not a readable .npz of teacher data (OSError: eee" in message
    assert str(cache) not in message and str(cache)[:PATH_CHARS - 4] in message, message[:700]
    assert "e" * 100 not in message and len(message) < 400 + PATH_CHARS, message[:700]
    monkeypatch.undo()
    np.savez(cache, other=np.zeros(1))  # an .npz, but no settings
    with pytest.raises(ValueError, match="has no settings") as info:
        run_paths.check_cache_file(str(cache))
    assert str(cache) not in str(info.value)
    under = deep / "file"
    under.write_text("")
    with pytest.raises(ValueError, match="which is a file") as info:
        run_paths.check_path_kind("bc_cache", str(under / "x" / "teacher.npz"), directory=False)
    assert str(under) not in str(info.value)
