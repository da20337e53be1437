"""Stable-Baselines3's default logger writes under pytest's temporary tree during the
suite (tests/conftest.py), never into the system temp directory."""
import tempfile
from pathlib import Path

import pytest


def test_sb3_default_log_folder_is_under_pytest_tmp(tmp_path_factory):
    utils = pytest.importorskip("stable_baselines3.common.utils")
    logger = utils.configure_logger(verbose=0)  # what a model built without a log folder uses
    folder = Path(logger.get_dir()).resolve()
    assert folder.is_relative_to(tmp_path_factory.getbasetemp().resolve())
    assert folder.parent != Path(tempfile.gettempdir()).resolve()  # not /tmp/SB3-<date>
