"""Fixtures shared by the whole suite.

The test folders mirror the packages: ``tests/env`` (``spacemission_env``, with ``rules/``
and ``engine/``), ``tests/agents``, ``tests/training``, ``tests/cli``; builders of explicit
positions and other helpers live in ``tests/helpers`` (imported as ``tests.helpers.…``).
"""
from __future__ import annotations

import contextlib
import gc
import os

import pytest

from tests.helpers.paths import ROOT, SPEC


def pytest_collection_finish(session):
    """The objects alive after collection (every imported module: numpy, numba, torch, the
    packages, their tables; about a million) moved to gc's permanent generation: a full
    collection, which Python starts every so many allocations, then scans only what the tests
    made since (before: about 20 of the suite's seconds went to full collections). Nothing
    is freed by it, and what the tests make is collected as before."""
    gc.collect()
    gc.freeze()


@pytest.fixture(scope="session", autouse=True)
def _writes_stay_under_pytest_tmp(tmp_path_factory):
    """Stable-Baselines3 makes an ``SB3-<date>`` log folder in the system temp directory
    whenever a model is built without a log folder; point it (and anything else honouring
    ``SB3_LOGDIR``, subprocesses included) into pytest's own temporary tree."""
    previous = os.environ.get("SB3_LOGDIR")
    os.environ["SB3_LOGDIR"] = str(tmp_path_factory.mktemp("sb3_logs"))
    yield
    if previous is None:
        os.environ.pop("SB3_LOGDIR", None)
    else:
        os.environ["SB3_LOGDIR"] = previous


class MypyCache:
    """A mypy cache folder shared by every mypy run of one test session, the processes of
    pytest-xdist included (the folder is in the session's own temporary tree, which pytest
    removes with its old runs). The first run analyses the packages and numpy's and torch's
    stubs (about 55 s here), the next find them cached (about 2 s); mypy rechecks whatever
    changed and reports a cached module's errors again. ``held()`` lets one mypy run use the
    folder at a time (its SQLite store is written by one process), so a run waits for another
    to end rather than analysing everything anew beside it."""

    def __init__(self, folder):
        self.folder = folder

    @contextlib.contextmanager
    def held(self):
        """The folder's path while this process holds it."""
        import fcntl

        self.folder.mkdir(parents=True, exist_ok=True)
        with open(self.folder.with_suffix(".lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
            yield str(self.folder)


@pytest.fixture(scope="session")
def mypy_cache(tmp_path_factory):
    """The session's shared ``MypyCache`` (tests/test_typing.py, tests/test_docs_typing.py): an
    xdist worker's temporary tree is a folder of the session's, which all workers share."""
    base = tmp_path_factory.getbasetemp()
    return MypyCache((base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "mypy_cache")


@pytest.fixture(scope="session")
def repo_root():
    """The repository root (docs/, README.md, notebooks/ ...)."""
    return ROOT


@pytest.fixture(scope="session")
def rules_spec():
    """The Space Mission rule spec beside the checkout (as in the workspace and CI); the
    test is skipped, with the reason, where it is absent."""
    path = SPEC / "RULES.md"
    if not path.exists():
        pytest.skip(f"the rule spec {path} is not beside this checkout")
    return path.read_text()
