"""Bad model files, found by the model-file robustness sweep: each test failed before its
fix. Files are copies of the shipped models (agents/spacemission_agents/data/), changed in
tmp_path: NaN or non-numeric weights, float feature indices, stray arrays, metadata that
is not a JSON object or names no game configuration, prior parameters of the wrong kind,
huge archives, a policy that reads another observation than NetSearchAgent feeds it, and
binds that changed the agent before refusing the game."""
import json
import re

import numpy as np
import pytest

from spacemission_agents import model_files
from spacemission_agents import ppo as ppo_module
from spacemission_agents.netsearch import NetSearchAgent
from spacemission_agents.ppo import PPOAgent, layout_hash
from spacemission_agents.registry import make_agent
from spacemission_agents.value import ValueNet
from spacemission_env.games import GameConfig, get_game


def _arrays(path):
    with np.load(path) as z:
        return {k: z[k] for k in z.files}


@pytest.fixture(scope="module")
def policy_arrays():
    return _arrays(PPOAgent.shipped_path(2))


@pytest.fixture(scope="module")
def value_arrays():
    return _arrays(ValueNet.shipped_path(2))


def _save(path, arrays, meta=None, **changes):
    a = dict(arrays)
    if meta is not None:
        a["metadata"] = np.array(json.dumps(meta))
    a.update(changes)
    np.savez(path, **a)
    return path


def _meta(arrays):
    return json.loads(str(arrays["metadata"]))


# --- the arrays ------------------------------------------------------------------------------
@pytest.mark.parametrize("change, message", [
    (dict(w1=np.full((128, 256), np.nan, np.float32)), "parameter w1 holds non-finite values"),
    (dict(scale=np.full(873, np.inf, np.float32)), "parameter scale holds non-finite values"),
    (dict(w1=np.full((128, 256), 1e300)), "parameter w1 holds values beyond float32's range"),
    (dict(scale=np.full(873, -1e39)), "parameter scale holds values beyond float32's range"),
    (dict(active=np.arange(873) + 0.5), "parameter active must hold integer feature indices, got dtype float64"),
    (dict(active=np.ones(873, bool)), "parameter active must hold integer feature indices, got dtype bool"),
    (dict(w2=np.full((100, 128), "0.5")), "parameter w2 must hold real numbers, got dtype <U3"),
    (dict(w2=np.ones((100, 128), np.complex64)), "parameter w2 must hold real numbers, got dtype complex64"),
    (dict(foo=np.zeros(3)), r"parameters hold unknown arrays \['foo'\]"),
    (dict(b7=np.zeros(3)), r"parameters hold unknown arrays \['b7'\]"),
    (dict(wextra=np.zeros(3)), r"parameters hold unknown arrays \['wextra'\]"),
])
def test_a_policy_file_with_arrays_it_cannot_hold_is_refused(change, message, policy_arrays, tmp_path):
    """Before: NaN weights loaded and played the first legal action every time (every logit
    NaN); active 0.5 offsets were truncated, bool active read as feature 1, "0.5" strings and
    complex weights cast, stray arrays ignored (or "wextra" blamed as a missing w3)."""
    path = _save(tmp_path / "m.npz", policy_arrays, **change)
    with pytest.raises(ValueError, match=rf"model {str(path)!r}: model {message}"):
        PPOAgent.load(path)
    with pytest.raises(ValueError, match=message):
        make_agent(f"ppo:{path}")


def test_a_value_file_with_nan_weights_is_refused(value_arrays, tmp_path):
    """Before: loaded; every value NaN."""
    path = _save(tmp_path / "v.npz", value_arrays, w1=np.full((1, 64), np.nan, np.float32))
    with pytest.raises(ValueError, match=rf"value net {str(path)!r}: value net parameter w1 holds non-finite"):
        ValueNet.load(path)


def test_a_value_file_with_weights_beyond_float32_is_refused(value_arrays, tmp_path):
    """Before: float64 weights of 1e300 loaded and became infinity in float32: every value
    NaN or +-1, as NaN weights did."""
    path = _save(tmp_path / "v.npz", value_arrays, w1=np.full((1, 64), 1e300))
    with pytest.raises(ValueError, match=rf"value net {str(path)!r}: value net parameter w1 holds values beyond"):
        ValueNet.load(path)


# --- the metadata ----------------------------------------------------------------------------
@pytest.mark.parametrize("metadata, message", [
    (np.array("[1, 2]"), "its metadata must be a JSON object, got list"),
    (np.array("{bad"), "its metadata is not valid JSON: Expecting property name"),
    (np.array('{"a": NaN}'), "its metadata is not valid JSON: NaN is not a JSON value"),
    (np.arange(3), r"its metadata is not a JSON string \(dtype int64, shape \(3,\)\)"),
])
def test_metadata_that_is_not_a_json_object_names_the_file(metadata, message, policy_arrays, value_arrays, tmp_path):
    """Before: AttributeError ('list' object has no attribute 'get') or a bare
    JSONDecodeError that named no file."""
    for load, arrays in ((PPOAgent.load, policy_arrays), (ValueNet.load, value_arrays)):
        path = _save(tmp_path / "m.npz", arrays, metadata=metadata)
        with pytest.raises(ValueError, match=rf"{str(path)!r}: {message}"):
            load(path)


@pytest.mark.parametrize("key, value, message", [
    ("num_players", None, "its metadata lacks num_players"),
    ("num_players", "2", "num_players must be an integer in 2..5 for Space Mission, got str: '2'"),
    ("num_players", 7, "num_players must be an integer in 2..5"),
    ("rules", "bogus", "unknown rules 'bogus'"),
    ("max_rounds", -3, "max_rounds must be an integer in 1.."),
    ("game", ["x"], r"is a model of game \['x'\], unknown to this package"),
])
def test_metadata_naming_no_game_configuration_is_refused_at_load(key, value, message, policy_arrays,
                                                                  value_arrays, tmp_path):
    """Before: loaded (num_players '2', 7, rules 'bogus'); a missing count was a KeyError at
    bind, an unhashable game a TypeError."""
    for load, arrays in ((PPOAgent.load, policy_arrays), (ValueNet.load, value_arrays)):
        meta = _meta(arrays)
        meta[key] = value
        path = _save(tmp_path / "m.npz", arrays, meta)
        with pytest.raises(ValueError, match=message):
            load(path)


@pytest.mark.parametrize("version, message", [
    ("newer", "is of format version {v}, newer than this package reads (1..{newest}; package "),
    (None, "its metadata's version (of the file format) must be a whole number from 1, got None"),
    ("3", "must be a whole number from 1, got '3'"),
    (True, "must be a whole number from 1, got True"),
    (0, "must be a whole number from 1, got 0"),
])
def test_a_file_of_an_unknown_format_version_is_refused(version, message, policy_arrays, value_arrays, tmp_path):
    """Before: metadata["version"] was never read, so a file written by a newer package (whose
    format might add metadata this one would ignore) loaded as if it were of a known format.
    The shipped files (versions 1..3) still load."""
    from spacemission_agents import value as value_module

    for load, arrays, newest in ((PPOAgent.load, policy_arrays, ppo_module.VERSION),
                                 (ValueNet.load, value_arrays, value_module.VERSION)):
        meta = _meta(arrays)
        meta["version"] = newest + 1 if version == "newer" else version
        path = _save(tmp_path / "m.npz", arrays, meta)
        with pytest.raises(ValueError, match=re.escape(message.format(v=newest + 1, newest=newest))):
            load(path)
        meta["version"] = newest
        assert load(_save(tmp_path / "ok.npz", arrays, meta)) is not None
    for players in (2, 3, 4, 5):
        assert PPOAgent.load_shipped(players).metadata["version"] in (2, 3)
    assert PPOAgent.load_shipped(4, game="red_planet").metadata["version"] == 3
    assert ValueNet.load_shipped(2).metadata["version"] == 1


def test_a_value_file_without_its_policy_hash_is_refused(value_arrays, tmp_path):
    """Before: loaded; repr raised KeyError and check_policy compared with None."""
    meta = _meta(value_arrays)
    del meta["policy_sha256"]
    path = _save(tmp_path / "v.npz", value_arrays, meta)
    with pytest.raises(ValueError, match="policy_sha256 .* must be 64 lowercase hex digits, got None"):
        ValueNet.load(path)


@pytest.mark.parametrize("params, message", [
    ({"bogus": 1}, r"model prior: HeuristicAgent got unknown parameters \[.bogus.\]"),
    ([1], r"policy prior params must be an object of heuristic parameters, got \[1\]"),
])
def test_prior_parameters_of_the_wrong_kind_are_a_value_error(params, message, policy_arrays, tmp_path):
    """Before: TypeError escaping PPOAgent.load."""
    meta = _meta(policy_arrays)
    meta["prior"] = {**meta["prior"], "params": params}
    path = _save(tmp_path / "m.npz", policy_arrays, meta)
    with pytest.raises(ValueError, match=message):
        PPOAgent.load(path)


# --- the file --------------------------------------------------------------------------------
def test_a_directory_is_named_as_one(tmp_path):
    """Before: "no PPO model file at DIR", as if nothing were there."""
    with pytest.raises(ValueError, match=rf"{str(tmp_path)!r} is a directory, not a PPO model file"):
        PPOAgent.load(tmp_path)
    with pytest.raises(ValueError, match="is a directory, not a value net file"):
        ValueNet.load(tmp_path)


def test_a_huge_archive_is_refused_before_its_arrays_are_read(policy_arrays, tmp_path, monkeypatch):
    """Before: every array was read into memory whatever its size (a small compressed file
    can hold gigabytes of zeros)."""
    path = _save(tmp_path / "m.npz", policy_arrays)
    monkeypatch.setattr(model_files, "MAX_FILE_BYTES", 100_000)
    with pytest.raises(ValueError, match=r"bytes uncompressed, more than a model may \(100,000\)"):
        PPOAgent.load(path)
    monkeypatch.undo()
    assert PPOAgent.load(path).act_batch(*_start(2)).shape == (1,)


def test_a_checkpoint_is_not_taken_for_a_model(tmp_path):
    """The message now says what such a file is and which file to use instead."""
    import zipfile

    path = tmp_path / "model.zip"
    with zipfile.ZipFile(path, "w") as zf:  # the members of an SB3 checkpoint
        zf.writestr("data", "{}")
        zf.writestr("policy.pth", "x")
    with pytest.raises(ValueError, match=r"has no metadata; .*an SB3 \.zip is not a model file"):
        PPOAgent.load(path)


# --- binds -----------------------------------------------------------------------------------
def _start(n):
    from spacemission_env.space_mission import engine

    st = engine.init(1, n, seeds=0)
    return engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)


def test_the_shipped_agent_is_unchanged_by_a_game_it_refuses():
    """Before: bind loaded the 3-player model into the agent, then refused the rules."""
    agent = PPOAgent.load_shipped()
    before = agent.metadata
    with pytest.raises(ValueError, match="no shipped PPO model fits this game"):
        agent.bind(GameConfig(3, rules="schmidt"))
    assert agent.metadata is before and agent.metadata["num_players"] == 2
    assert agent.act_batch(*_start(2)).shape == (1,)  # still the 2-player model
    agent.bind(GameConfig(3))
    assert agent.metadata["num_players"] == 3


def test_netsearch_keeps_its_configuration_when_bind_fails():
    """Before: the refused configuration was kept as the bot's config."""
    bot = NetSearchAgent(iterations=2)
    bot.bind(GameConfig(2))
    with pytest.raises(ValueError, match="no policy for 2 players, rules 'schmidt'"):
        bot.bind(GameConfig(2, rules="schmidt"))
    assert bot.config == (2, "yucata", 100)


def test_netsearch_refuses_a_policy_that_reads_other_observations(policy_arrays, tmp_path):
    """Before: an 'info' policy (the same size as 'recall') was fed 'recall' observations
    and searched with whatever it read from them."""
    enc = get_game("spacemission").encoding
    meta = dict(_meta(policy_arrays), prior=None, observation_type="info",
                observation_size=enc.observation_size("info"), observation_layout_hash=layout_hash("info"))
    a = {k: v for k, v in policy_arrays.items() if k != "prior_beta"}
    a["w0"] = a["w0"][:, :873]
    path = _save(tmp_path / "info.npz", a, meta)
    with pytest.raises(ValueError, match=r"reads 'info' observations; NetSearchAgent feeds it 'recall' ones"):
        make_agent(f"netsearch:iterations=2:policy={path}").bind(GameConfig(2))


@pytest.mark.parametrize("where", ["missing", "dir"])
def test_netsearch_names_a_policy_path_that_is_no_file_when_made(where, tmp_path):
    """Before: accepted until bind."""
    path = tmp_path / "nope.npz" if where == "missing" else tmp_path
    with pytest.raises(ValueError, match=rf"policy {str(path)!r} is {'no file' if where == 'missing' else 'a directory'}"):
        make_agent(f"netsearch:policy={path}")
