"""Leftovers of the "name the rejected value, cut to 80 characters" work (checks.shown) in
the trainer: ``--init-from``'s path and the file's fields (init_from.check) and the
``--opponents`` weights (pool.parse_weights) were echoed whole with ``!r``; a long value
holding spaces was then not cut by the cut_long_words of the callers that wrap them."""
from __future__ import annotations

import re
import shutil
from types import SimpleNamespace

import pytest

pytest.importorskip("torch")

from spacemission_agents.ppo import PPOAgent  # noqa: E402
from spacemission_env.checks import PATH_CHARS, SHOWN_CHARS, shown, shown_path  # noqa: E402
from spacemission_training import init_from  # noqa: E402
from spacemission_training.config import TrainConfig  # noqa: E402
from spacemission_training.pool import parse_weights  # noqa: E402

SHIPPED = PPOAgent.shipped_path(2)
SPACED = "a b " * 1500  # 6000 characters, no run of them longer than one


def _long_spaced_path(root, depth=5):
    """A path of about 1000 characters whose names hold spaces (each under the system's
    255-character limit for one name, so the system looks it up)."""
    return root.joinpath(*[("dir with spaces " * 12).strip() + f" {i}" for i in range(depth)])


# --- init_from.check -----------------------------------------------------------------------

def test_init_from_a_missing_long_path_is_cut(tmp_path):
    path = str(_long_spaced_path(tmp_path) / "model.npz")
    with pytest.raises(ValueError) as info:
        init_from.check(SimpleNamespace(init_from=path))
    assert str(info.value) == f"option init_from: no model file at {shown_path(path)}"
    assert len(str(info.value)) < 50 + PATH_CHARS  # before: the whole path, over 1000 characters


def test_init_from_a_long_path_to_another_kind_of_file_is_cut(tmp_path):
    folder = _long_spaced_path(tmp_path)
    folder.mkdir(parents=True)
    text = folder / "notes.txt"
    text.write_text("not a model")
    with pytest.raises(ValueError, match=rf"^option init_from: {re.escape(shown_path(text))} is not an \.npz model file"):
        init_from.check(SimpleNamespace(init_from=str(text)))


def test_init_from_a_long_mismatch_is_cut_and_names_both_sides():
    """The run's 300 trunk layers ("[8, 8, ...]", with spaces) came back whole (1,800
    characters) in the mismatch message and through TrainConfig's."""
    trunk = ",".join(["8"] * 300)
    with pytest.raises(ValueError) as info:
        TrainConfig(players=2, init_from=str(SHIPPED), trunk=trunk)
    message = str(info.value)
    assert f"is a model with trunk [256]; this run has trunk {shown([8] * 300)} " in message
    assert len(message) < 400


def test_init_from_a_directory_says_so(tmp_path):
    """Before: "no model file at 'DIR'", for a folder that is there."""
    with pytest.raises(ValueError) as info:
        init_from.check(SimpleNamespace(init_from=str(tmp_path)))
    assert str(info.value) == (f"option init_from: {shown_path(tmp_path)} is a directory, not a model file (an .npz, "
                               f"e.g. a run's final.npz)")


def test_init_from_short_values_read_as_before():
    with pytest.raises(ValueError, match=r"^option init_from: no model file at 'missing\.npz'$"):
        init_from.check(SimpleNamespace(init_from="missing.npz"))


# --- pool.parse_weights ----------------------------------------------------------------------

def test_parse_weights_splits_at_the_last_equals_sign():
    """A ppo:PATH group whose path holds '=' (make_agent reads such a path whole when the
    file exists): the weight is what follows the last '='."""
    assert parse_weights("ppo:runs/lr=3e-4/final.npz=1.0") == {"ppo:runs/lr=3e-4/final.npz": 1.0}
    assert parse_weights("heuristic=0.5, ppo:runs/lr=3e-4/final.npz=1.0,self=0.5") == {
        "heuristic": 0.5, "ppo:runs/lr=3e-4/final.npz": 1.0, "self": 0.5}


def test_train_config_takes_a_ppo_path_with_equals_signs(tmp_path):
    folder = tmp_path / "lr=3e-4"
    folder.mkdir()
    model = folder / "final.npz"
    shutil.copy(SHIPPED, model)
    cfg = TrainConfig(players=2, opponents=f"ppo:{model}=1.0,self=0.5")  # makes each agent: ValueError if not
    assert parse_weights(cfg.opponents) == {f"ppo:{model}": 1.0, "self": 0.5}
    assert [path for option, path in cfg.start_files() if option == "opponents"] == [str(model)]


@pytest.mark.parametrize("text, start", [
    (SPACED, "opponent weight 'a b a b"),  # no '=': not NAME=WEIGHT
    (f"heuristic={SPACED}", "opponent weight for 'heuristic' must be a number, got 'a b a b"),
], ids=["not_name_weight", "not_a_number"])
def test_parse_weights_cuts_a_long_spec_with_spaces(text, start):
    with pytest.raises(ValueError) as info:
        parse_weights(text)
    message = str(info.value)
    assert message.startswith(start) and "..." in message
    assert len(message) < 160  # before: over 6000 characters


def test_parse_weights_cuts_every_value_it_names():
    long_name = "x " * 100
    cases = [
        ({long_name: -1}, f"opponent weight for {shown(long_name)} must be >= 0, got -1"),
        ({long_name: 1, long_name.strip() + " ": 1}, None),  # two names: no error
        ({"a": "b " * 100}, f"opponent weight for 'a' must be a number, got {shown('b ' * 100)}"),
        ({"a": 0, long_name: 0}, f"opponent weights must name at least one opponent with a weight > 0, "
                                 f"got {shown({'a': 0, long_name: 0})}"),
        (f"a=1,{long_name}=1,{long_name}=2", f"opponent {shown(long_name.strip())} weighted twice"),
    ]
    for text, expected in cases:
        if expected is None:
            parse_weights(text)
            continue
        with pytest.raises(ValueError) as info:
            parse_weights(text)
        assert str(info.value) == expected
        assert len(expected) < 2 * SHOWN_CHARS + 80


@pytest.mark.parametrize("weight", [10**400, float("inf"), "1e999", "nan"], ids=["int_past_float", "inf", "1e999", "nan"])
def test_parse_weights_refuses_a_weight_that_is_not_finite(weight):
    """Before: an int past float's range raised float()'s OverflowError; inf and nan read
    "must be >= 0"."""
    with pytest.raises(ValueError, match=r"^opponent weight for 'heuristic' must be a finite number >= 0, got "):
        parse_weights({"heuristic": weight, "self": 1})


def test_parse_weights_messages_for_short_values_are_unchanged():
    with pytest.raises(ValueError, match=r"^opponent weight 'heuristic' is not NAME=WEIGHT"):
        parse_weights("heuristic")
    with pytest.raises(ValueError, match=r"^opponent weight for 'heuristic' must be >= 0, got '-1'$"):
        parse_weights("heuristic=-1")
    with pytest.raises(ValueError, match=r"^opponent weight for 'heuristic' must be a number, got 'x'$"):
        parse_weights("heuristic=x")
    with pytest.raises(ValueError, match=r"^opponent 'self' weighted twice$"):
        parse_weights("self=1,self=2")
    with pytest.raises(ValueError, match=r"^opponent weights must name at least one opponent with a weight > 0, "
                                         r"got 'self=0'$"):
        parse_weights("self=0")


def _model_with_prior_params(path, **changed):
    from spacemission_agents.model_files import save_npz_file

    agent = PPOAgent.load(SHIPPED)
    meta = {**agent.metadata, "prior": {**agent.metadata["prior"],
                                        "params": {**agent.metadata["prior"]["params"], **changed}}}
    return save_npz_file(path, meta, agent.params)


def test_init_from_other_prior_parameters_names_only_those_that_differ(tmp_path):
    """Before: the message held both prior parameter dicts whole (18 parameters each, about
    900 characters), the two that differ somewhere in them."""
    model = _model_with_prior_params(tmp_path / "model.npz", end_bonus=30.0, chip_value=0.35)
    with pytest.raises(ValueError) as info:
        TrainConfig(players=2, init_from=str(model), bc_samples=0)
    assert str(info.value) == (f"option init_from: {shown_path(model)} was trained with other heuristic prior "
                               f"parameters than this package's (chip_value 0.35 against 0.3; end_bonus 30.0 "
                               f"against 25.0)")


def test_init_from_prior_differences_name_every_key_and_cut_each_value():
    theirs = {"kind": "heuristic", "game": "spacemission", "params": {"a": 1.0, "b": "x" * 300, "same": 2.0}}
    ours = {"kind": "heuristic", "game": "spacemission", "params": {"a": 1.5, "same": 2.0, "c": [0] * 100}}
    assert init_from._differences(theirs, ours) == (f"a 1.0 against 1.5; b {shown('x' * 300)} against none; "
                                                     f"c none against {shown([0] * 100)}")
    assert init_from._differences({**theirs, "game": "red_planet"}, theirs) == "game 'red_planet' against 'spacemission'"
