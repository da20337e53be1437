"""``--config FILE`` and ``--resume RUN_DIR`` paths the system refuses or that are the
wrong kind: usage errors naming the path (cut: checks.shown) and the reason. Before: a
name past the system's length limit ended in a traceback (OSError "File name too long"
from Path.is_file), a config file without read permission in one (PermissionError), a long
config path with spaces came back whole in every message, and ``--resume FILE`` read
"no run in 'FILE' (no such directory)"."""
from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")

from spacemission_env.checks import PATH_CHARS, shown, shown_path  # noqa: E402
from spacemission_training.config import parse_args, read_options_file  # noqa: E402

TOO_LONG = "x" * 300  # one name past the usual 255-character limit


def _usage_error(argv, capsys) -> str:
    with pytest.raises(SystemExit) as info:
        parse_args(argv)
    assert info.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_config_name_too_long_is_a_usage_error(suffix, capsys):
    err = _usage_error(["--config", TOO_LONG + suffix], capsys)
    assert err == (f"spacemission train: error: config file {shown(TOO_LONG + suffix)} is not a usable path (File name "
                   f"too long)")


@pytest.mark.parametrize("suffix, method", [(".toml", "read_text"), (".json", "read_bytes")])
def test_a_config_file_that_cannot_be_read_is_named(tmp_path, monkeypatch, suffix, method):
    path = tmp_path / f"run{suffix}"
    path.write_text("")

    def refused(self, *a, **k):
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, method, refused)  # as for a file without read permission (root reads any)
    with pytest.raises(ValueError) as info:
        read_options_file(str(path))
    assert str(info.value) == f"config file {str(path)!r} cannot be read (Permission denied)"


def test_a_long_config_path_with_spaces_is_cut(tmp_path, capsys):
    path = str(tmp_path.joinpath(*["dir with spaces"] * 60, "run.toml"))
    err = _usage_error(["--config", path], capsys)
    assert err == f"spacemission train: error: config file {shown_path(path)} does not exist"
    assert len(err) < 80 + PATH_CHARS  # before: the whole path, over 1000 characters (cut to 80 until session 56)


def test_config_messages_read_as_before(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe")
    assert _usage_error(["--config", str(bad)], capsys) == (
        f"spacemission train: error: config file {str(bad)!r}: not valid TOML: 'utf-8' codec can't decode byte 0xff in "
        f"position 0: invalid start byte")
    good = tmp_path / "good.toml"
    good.write_text("steps = 1000\r\nseed = 3\r\n")
    cfg, _ = parse_args(["--config", str(good)])
    assert (cfg.steps, cfg.seed) == (1000, 3)


def test_resume_a_name_too_long_is_a_usage_error(capsys):
    err = _usage_error(["--resume", TOO_LONG], capsys)
    assert err == f"spacemission train: error: --resume: {shown(TOO_LONG)} is not a usable path (File name too long)"


def test_resume_a_file_says_so(tmp_path, capsys):
    path = tmp_path / "notes.txt"
    path.write_text("not a run")
    assert _usage_error(["--resume", str(path)], capsys) == (
        f"spacemission train: error: --resume: {str(path)!r} is a file, not a run's folder")
    assert _usage_error(["--resume", str(tmp_path / "missing")], capsys) == (
        f"spacemission train: error: --resume: no run in {str(tmp_path / 'missing')!r} (no such directory)")
