"""A path in a message is named whole up to ``PATH_CHARS`` (512) characters
(checks.shown_path, and cut_long_words for a word holding "/"), where other echoed values
are cut to ``SHOWN_CHARS`` (80). Before, every path was cut to 80 characters: on a machine
whose temporary folder is long (macOS's ``/private/var/folders/.../T``, about 50 characters)
a config file's or run folder's message lost its file name ("config file
'/private/var/folders/x1/.../pytest-of-alice/pyte... does not exist"), and 64 tests of the
suite failed there (and under pytest-xdist, whose folders are 11 characters longer)."""
from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

import pytest

from spacemission_env.checks import PATH_CHARS, SHOWN_CHARS, UsageParser, cut_long_words, shown, shown_path

# a path of 200 characters, as deep project folders and macOS temporary folders give
LONG_PATH = "/private/var/folders/x1/abcdefghijklmn_opqrs0000gn/T/" + "d/" * 70 + "config.json"
DEEP = "/d" * 2000  # 4,000 characters, under the 4,096 a system opens


def test_a_path_past_80_characters_is_named_whole():
    assert SHOWN_CHARS < len(LONG_PATH) < PATH_CHARS
    assert shown_path(LONG_PATH) == repr(LONG_PATH)
    assert shown(LONG_PATH).endswith("...")  # what a value that is not a path still gets


def test_a_path_object_is_named_by_its_text_not_its_repr():
    assert shown_path(Path(LONG_PATH)) == repr(LONG_PATH)
    assert shown_path(PurePosixPath("a/b.npz")) == "'a/b.npz'"


def test_a_path_past_the_path_limit_is_cut_there():
    text = shown_path(DEEP)
    assert len(text) == PATH_CHARS and text == repr(DEEP)[:PATH_CHARS - 3] + "..."


def test_a_foreign_fspath_that_raises_is_shown_by_its_repr():
    class Broken:
        def __fspath__(self):
            raise RuntimeError("no")

        def __repr__(self):
            return "<Broken>"

    assert isinstance(Broken(), os.PathLike) and shown_path(Broken()) == "<Broken>"


@pytest.mark.parametrize("value", [12345, ["a", "b"], None])
def test_what_is_not_a_path_is_shown_as_shown_shows_it(value):
    assert shown_path(value) == shown(value)


def test_usage_messages_keep_a_path_whole_and_cut_other_long_words():
    digits = "9" * 5000
    message = cut_long_words(f"argument --load: {LONG_PATH}: not a saved game; --seed {digits}")
    assert f"argument --load: {LONG_PATH}: not a saved game" in message
    assert message.endswith(f"--seed {digits[:SHOWN_CHARS - 3]}...")
    assert cut_long_words(DEEP) == DEEP[:PATH_CHARS - 3] + "..."


def test_a_cli_usage_error_names_a_long_path_whole(capsys):
    ap = UsageParser(prog="tool")
    with pytest.raises(SystemExit) as info:
        ap.error(f"argument FILE: cannot read {LONG_PATH}: it is a directory")
    err = capsys.readouterr().err
    assert info.value.code == 2 and f"cannot read {LONG_PATH}: it is a directory" in err
