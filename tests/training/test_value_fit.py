"""value_fit on a few games of the shipped 2-player policy: the positions cache is refused
when made with other settings, and the holdout is the share of games asked for (none with
``--holdout 0``) with a clear error when no game is left to train on."""
import json

import numpy as np
import pytest

pytest.importorskip("torch")

from spacemission_training import value_fit  # noqa: E402

pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py

FAST = ["--keep", "0.05", "--epochs", "1", "--hidden", "4"]


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
        assert info.value.code == 2 and f"--cache {str(cache)!r} holds positions made with other settings" in err
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
