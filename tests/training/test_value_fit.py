"""value_fit on a few games of the shipped 2-player policy: the positions cache is refused
when made with other settings, and the holdout is the share of games asked for (none with
``--holdout 0``) with a clear error when no game is left to train on; the folders of
``--out`` and ``--cache`` are checked before the games and made when their files are written,
every argument checked before anything is made."""
import json
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from spacemission_env.checks import shown_path  # noqa: E402
from spacemission_training import value_fit  # noqa: E402

pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py

FAST = ["--keep", "0.05", "--epochs", "1", "--hidden", "4", "--holdout", "0"]


def test_a_cache_of_other_settings_is_refused(tmp_path, capsys):
    """Before: an existing --cache was read whatever the settings (another game count, seed,
    keep, policy or observation type), so the fit used positions it had not asked for."""
    cache, out = tmp_path / "positions.npz", tmp_path / "v.npz"
    value_fit.main(["--games", "2", *FAST, "--cache", str(cache), "--out", str(out)])
    assert cache.is_file()
    capsys.readouterr()
    before = cache.read_bytes()
    for argv, named in ((["--games", "3"], "games 2 in the cache, 3 now"),
                        (["--games", "2", "--keep", "0.06"], "keep 0.05 in the cache, 0.06 now"),
                        (["--games", "2", "--seed", "8"], "seed 7 in the cache, 8 now"),
                        (["--games", "2", "--observation-type", "seer"],
                         "observation_type 'recall' in the cache, 'seer' now")):
        args = [*FAST, *argv]
        with pytest.raises(SystemExit) as info:
            value_fit.main([*args, "--cache", str(cache), "--out", str(tmp_path / "w.npz")])
        err = capsys.readouterr().err
        assert info.value.code == 2 and f"--cache {shown_path(cache)} holds positions made with other settings" in err
        assert named in err, err
    assert cache.read_bytes() == before and not (tmp_path / "w.npz").exists()
    # the same settings read the cache: no games played
    value_fit.main(["--games", "2", *FAST, "--cache", str(cache), "--out", str(tmp_path / "w.npz")])
    assert "games 2/2" not in capsys.readouterr().err
    # a cache without settings (an earlier value_fit's) is refused too
    old = tmp_path / "old.npz"
    with np.load(cache) as z:
        np.savez(old, **{k: z[k] for k in z.files if k != "settings"})
    with pytest.raises(SystemExit):
        value_fit.main(["--games", "2", *FAST, "--cache", str(old), "--out", str(tmp_path / "w.npz")])
    assert "holds no settings" in capsys.readouterr().err


def test_a_cache_of_another_environment_version_is_refused(tmp_path, capsys):
    """Before: the cache's settings did not hold the environment version, so positions whose
    targets are another version's rank rewards (SpaceMission-v2's 4-player ones differ) were
    fitted to as if they were this version's."""
    cache = tmp_path / "positions.npz"
    value_fit.main(["--games", "1", *FAST, "--cache", str(cache), "--out", str(tmp_path / "v.npz")])
    with np.load(cache) as z:
        data = {k: z[k] for k in z.files}
    settings = json.loads(str(data.pop("settings")))
    assert settings["env_id"] == "SpaceMission-v3"
    value_fit.save_cache(cache, {**settings, "env_id": "SpaceMission-v2"}, data)
    capsys.readouterr()
    with pytest.raises(SystemExit) as info:
        value_fit.main(["--games", "1", *FAST, "--cache", str(cache), "--out", str(tmp_path / "w.npz")])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "env_id 'SpaceMission-v2' in the cache, 'SpaceMission-v3' now" in err


def _card(out) -> dict:
    def refuse(constant):
        raise AssertionError(f"{constant} in the card: not JSON")

    return json.loads(out.with_suffix(".json").read_text(), parse_constant=refuse)


def test_the_holdout_is_the_share_of_games_asked_for(tmp_path, capsys):
    """Before: at least one game was always held out, so --games 1 trained on nothing: the
    card held NaN for the train MSE (not JSON) and the fit kept the untrained net, exit 0."""
    out = tmp_path / "v.npz"
    value_fit.main(["--games", "1", *FAST, "--out", str(out)])  # --holdout 0: all games train
    fitting = _card(out)["metadata"]["fitting"]
    assert fitting["validation_mse"] is None and isinstance(fitting["train_mse"], float)
    assert _card(out)["metadata"]["env_id"] == "SpaceMission-v3"  # the version its games were played on
    capsys.readouterr()
    for argv, message in ((["--games", "1", "--holdout", "0.6"], "holds out 1 game(s), leaving none to train on"),
                          (["--games", "1", "--holdout", "0.1"], "holds out no game (the validation would be empty)"),
                          (["--games", "2", "--holdout", "0.1"], "holds out no game (the validation would be empty)")):
        with pytest.raises(SystemExit) as info:
            value_fit.main([*FAST, *argv, "--out", str(tmp_path / "w.npz")])
        err = capsys.readouterr().err
        assert info.value.code == 2 and message in err and "--holdout" in err and "games 1/" not in err  # before the games
    assert not (tmp_path / "w.npz").exists()
    assert value_fit.held_out_games(10, 0.1) == 1 and value_fit.held_out_games(10, 0.0) == 0
    assert value_fit.held_out_games(49152, 0.1) == 4915  # the shipped value net's split, as before


def test_with_holdout_zero_the_last_epoch_is_kept():
    """Before: with nothing held out every epoch's validation loss was NaN, never below the
    start's, so the untrained net was returned."""
    rng = np.random.default_rng(0)
    data = {"x": rng.integers(0, 3, (64, 5)).astype(np.int8), "y": rng.uniform(-1, 1, 64).astype(np.float32),
            "game": np.repeat(np.arange(4), 16)}
    model, train_mse, val_mse = value_fit.fit(data, np.ones(5, np.float32), [4], holdout=0.0, epochs=2, lr=1e-2,
                                              seed=0)
    import torch

    torch.manual_seed(0)
    untrained = torch.nn.Sequential(torch.nn.Linear(5, 4), torch.nn.ReLU(), torch.nn.Linear(4, 1))
    assert val_mse is None and np.isfinite(train_mse)
    assert not torch.equal(model[0].weight, untrained[0].weight)


@pytest.mark.parametrize("content, named", [(b"", "EOFError"), (b"PK\x03\x04 cut short", "BadZipFile"),
                                            ("[1]", "its settings are a JSON list, not an object"),
                                            ("{", "its settings are not valid JSON")])
def test_a_cut_or_foreign_cache_is_refused_naming_it(tmp_path, content, named):
    """Before: an empty or cut --cache (a fit killed while writing it) raised EOFError or
    BadZipFile, and settings that are not a JSON object an AttributeError or a bare
    JSONDecodeError, all as tracebacks."""
    path = tmp_path / "positions.npz"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        np.savez(path, settings=np.array(content), x=np.zeros((2, 3), np.int8))
    with pytest.raises(ValueError, match=re.escape(f"--cache {shown_path(path)}")) as info:
        value_fit.load_cache(path, {"seed": 7})
    assert named in str(info.value)


def test_missing_folders_of_out_and_cache_are_made_and_a_file_in_the_way_refused(tmp_path, capsys):
    """Before: `--cache runs/v.npz` (docs/training.md's command) on a checkout without runs/
    played every game, then stopped with a FileNotFoundError traceback; a missing folder of
    --out did so after the fit too."""
    cache, out = tmp_path / "runs" / "positions.npz", tmp_path / "nets" / "new" / "v.npz"
    value_fit.main(["--games", "1", *FAST, "--cache", str(cache), "--out", str(out)])
    assert cache.is_file() and out.is_file() and out.with_suffix(".json").is_file()
    capsys.readouterr()
    (tmp_path / "plain").write_text("a file, not a folder")
    for option in ("--out", "--cache"):
        argv = {"--out": str(tmp_path / "w.npz"), "--cache": str(tmp_path / "c.npz"),
                option: str(tmp_path / "plain" / "x.npz")}
        with pytest.raises(SystemExit) as info:
            value_fit.main(["--games", "1", *FAST, *[a for kv in argv.items() for a in kv]])
        err = capsys.readouterr().err
        assert info.value.code == 2
        assert f"{option} {shown_path(tmp_path / 'plain' / 'x.npz')}: its folder cannot be made" in err
        assert "games 1/" not in err  # refused before the games
    assert not (tmp_path / "w.npz").exists() and not (tmp_path / "c.npz").exists()


def test_seeds_up_to_the_engine_seeds_limit_play_and_larger_ones_are_refused(tmp_path, capsys, monkeypatch):
    """Before: the games' engine seeds seed * 1,000,003 + game were computed in int64, so
    --seed 2**63 // 1,000,003 + 1 and above (and 2**64 - 1) failed with OverflowError at the
    first batch; a seed whose engine seeds pass 2**64 is now refused naming the range, and
    every seed below plays its documented engine seeds (the same values as before where those
    fitted in int64)."""
    top = (2**64 - 2) // 1_000_003
    with pytest.raises(SystemExit) as info:
        value_fit.main(["--games", "2", *FAST, "--seed", str(top + 1), "--out", str(tmp_path / "v.npz")])
    err = capsys.readouterr().err
    assert info.value.code == 2 and f"--seed must be in 0..{top:,} (the engine seeds of the games are seed * " \
                                    f"1,000,003 + game, below 2**64), got {top + 1}" in err
    seen = []
    real = value_fit.engine.init

    def init(b, n, seeds, **kwargs):
        seen.append(np.asarray(seeds).tolist())
        return real(b, n, seeds=seeds, **kwargs)

    monkeypatch.setattr(value_fit.engine, "init", init)
    for seed in (top, 7):
        value_fit.main(["--games", "2", *FAST, "--seed", str(seed), "--out", str(tmp_path / f"{seed}.npz")])
        assert seen[-1] == [seed * 1_000_003, seed * 1_000_003 + 1]
    assert seen[-2][-1] == 2**64 - 1 - (2**64 - 2) % 1_000_003


def test_layers_too_large_for_memory_are_refused_before_the_games(tmp_path, capsys, monkeypatch):
    """Before: --hidden 100000000000 played every game and then failed in the fit, torch unable
    to allocate the first layer (a RuntimeError traceback)."""
    monkeypatch.setattr(value_fit, "collect", lambda *a, **k: pytest.fail("games were played"))
    with pytest.raises(SystemExit) as info:
        value_fit.main(["--games", "2", *FAST[:-4], "--hidden", "100000000000", "--holdout", "0",
                        "--out", str(tmp_path / "v.npz")])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "--hidden 100000000000: a network of" in err and "give smaller layer sizes" in err


def _usage_error(argv, capsys) -> str:
    with pytest.raises(SystemExit) as info:
        value_fit.main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "games 1/" not in err  # refused before the games
    return err.strip().splitlines()[-1].split(": error: ", 1)[1]  # (the program's name is pytest's)


@pytest.mark.parametrize("option", ["--out", "--cache", "--policy"])
def test_a_path_name_too_long_is_a_usage_error(tmp_path, capsys, option):
    """Before: OSError "File name too long" (Path.is_dir, PPOAgent.load), a traceback."""
    argv = {"--out": str(tmp_path / "w.npz"), option: "x" * 300 + ".npz"}
    err = _usage_error(["--games", "1", *FAST, *[a for kv in argv.items() for a in kv]], capsys)
    assert err.startswith(f"{option} 'xxxxx") and err.endswith(
        "... is not a usable path (File name too long)")


@pytest.mark.parametrize("out", ["v.json", "v", "v.npz.bak"])
def test_out_must_end_in_npz(tmp_path, capsys, out):
    """Before: numpy wrote the net to OUT.npz after the games and the fit, then the card's
    out.stat() failed with FileNotFoundError (and --out v.json's card would have been the
    net's own name)."""
    path = tmp_path / out
    err = _usage_error(["--games", "1", *FAST, "--out", str(path)], capsys)
    assert err == f"--out {str(path)!r} must end in .npz (the value net; its card is written beside it as .json)"
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("option", ["--out", "--cache"])
def test_a_folder_that_cannot_be_written_is_refused_before_the_games(tmp_path, capsys, monkeypatch, option):
    """Before: a read-only folder (or /sys) failed with PermissionError when the file was
    written: after the games (--cache), after the fit too (--out)."""
    from spacemission_training import run_paths

    locked = tmp_path / "locked"
    real = run_paths.folder_write_problem
    monkeypatch.setattr(value_fit, "folder_write_problem",  # as for a read-only folder (root writes anywhere)
                        lambda folder: "Permission denied" if Path(folder) == locked else real(folder))
    argv = {"--out": str(tmp_path / "w.npz"), "--cache": str(tmp_path / "c.npz"), option: str(locked / "x.npz")}
    err = _usage_error(["--games", "1", *FAST, *[a for kv in argv.items() for a in kv]], capsys)
    assert err == f"{option} {shown_path(locked / 'x.npz')}: its folder cannot be written (Permission denied)"
    assert not (tmp_path / "w.npz").exists() and not (tmp_path / "c.npz").exists()


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs Linux's /sys")
def test_a_folder_of_sys_is_refused_before_the_games(tmp_path, capsys):
    err = _usage_error(["--games", "1", *FAST, "--out", "/sys/kernel/w.npz"], capsys)
    assert err.startswith("--out '/sys/kernel/w.npz': its folder cannot be written (")


@pytest.mark.parametrize("bad", ["other settings", "cut", "recall for seer"])
def test_a_refused_cache_leaves_no_folder_of_out_behind(tmp_path, capsys, bad):
    """Before: the folders of --out (and --cache) were made before the --cache file was read,
    so a refused one left an empty folder of --out behind. Now every argument is checked
    first; the folders are made when their files are written."""
    cache = tmp_path / "positions.npz"
    if bad == "cut":
        cache.write_bytes(b"PK\x03\x04 cut short")
    else:
        value_fit.main(["--games", "1", *FAST, "--cache", str(cache), "--out", str(tmp_path / "v.npz")])
    capsys.readouterr()
    before = sorted(p.name for p in tmp_path.iterdir())
    extra = {"other settings": ["--games", "2"], "cut": ["--games", "1"],
             "recall for seer": ["--games", "1", "--observation-type", "seer"]}[bad]
    out = tmp_path / "nets" / "new" / "w.npz"
    err = _usage_error([*FAST, *extra, "--cache", str(cache), "--out", str(out)], capsys)
    assert err.startswith(f"--cache {shown_path(cache)}")
    if bad == "recall for seer":  # the cache of a recall fit: its settings differ, named first
        assert "observation_type 'recall' in the cache, 'seer' now" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no nets/ left behind


def test_a_cache_of_other_settings_names_the_differing_ones_cut(tmp_path):
    """Before: each differing setting's values (and name) were echoed whole."""
    path = tmp_path / "positions.npz"
    value_fit.save_cache(path, {"seed": 7, "policy_sha256": "p" * 500, "k" * 500: 1}, {"x": np.zeros((1, 2))})
    with pytest.raises(ValueError) as info:
        value_fit.load_cache(path, {"seed": 7, "policy_sha256": "q" * 500})
    text = str(info.value)
    assert "holds positions made with other settings: kkk" in text and ", policy_sha256 'ppp" in text
    assert "seed" not in text and "p" * 100 not in text and "q" * 100 not in text and "k" * 100 not in text
    assert len(text) - len(str(path)) < 500  # the path named whole (checks.shown_path)
