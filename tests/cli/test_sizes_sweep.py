"""Very large sizes on the command line (sizes sweep): a usage error naming the option,
before anything is allocated or started, instead of a traceback, a fork bomb, a server
whose cap protects nothing, or a file read until the memory runs out. Each test failed
before its fix (the memory figures come from checks.physical_memory, monkeypatched where the
outcome must not depend on the machine; the FIFOs and sparse files cost no memory or disk)."""
import os
import threading

import numpy as np
import pytest

from spacemission_agents import arena as arena_module
from spacemission_cli import bench, play, replay
from spacemission_cli.main import main
from spacemission_env import checks

MiB, GiB = 2**20, 2**30
BIG = str(10**12)


def usage_error(run, capsys) -> str:
    with pytest.raises(SystemExit) as info:
        run()
    assert info.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_bench_batch_past_memory_is_a_usage_error(game, capsys):
    """Before: a ValueError traceback from the engine ("batch_size=...")."""
    err = usage_error(lambda: bench.main(["--game", game, "--only", "engine", "--batch", BIG, "--seconds", "0.1"]), capsys)
    assert "usage: spacemission bench" in err
    assert ("argument --batch: 1,000,000,000,000 games need at least " in err and "GiB for their states, observations "
            "and masks, more than this machine's" in err and "GiB of memory; use a smaller --batch" in err)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_bench_agent_batch_past_memory_is_a_usage_error(game, capsys):
    """Before: accepted, timed on the 1,024 (Red Planet 512) positions played and reported as
    act_batch(1000000000000)."""
    err = usage_error(lambda: bench.main(["--game", game, "--only", "agents", "--agents", "random", "--agent-batch", BIG,
                                          "--seconds", "0.1"]), capsys)
    assert "argument --agent-batch: 1,000,000,000,000 games need at least " in err and "use a smaller --agent-batch" in err


class RowCounter:
    """A bot (spec ``tests.cli.test_sizes_sweep:RowCounter``) that notes the rows of each act_batch."""

    rows: list = []

    def act_batch(self, observations, action_masks):
        RowCounter.rows.append(len(action_masks))
        return np.argmax(np.asarray(action_masks), axis=1)

    def act(self, observation, action_mask):
        return int(np.argmax(action_mask))


@pytest.mark.parametrize("game, batch", [("red_planet", 600), ("spacemission", 1500)])
def test_bench_agent_batch_past_the_positions_played_is_that_batch(game, batch, monkeypatch, capsys):
    """Before: act_batch ran on at most the running games of the 512 (Space Mission 1,024)
    played for positions (about 220 in Red Planet, whose games end on the way, even at the
    default 256), while the column said act_batch(B)."""
    monkeypatch.setattr(RowCounter, "rows", [])
    assert bench.main(["--game", game, "--only", "agents", "--agents", "tests.cli.test_sizes_sweep:RowCounter",
                       "--agent-batch", str(batch), "--seconds", "0.05"]) == 0
    assert f"act_batch({batch}) /s" in capsys.readouterr().out and set(RowCounter.rows) == {batch}


def test_serve_max_games_past_memory_is_a_usage_error(monkeypatch, capsys):
    """Before: accepted; the server listened with a cap on live games that could never keep
    them within memory. (Listening is replaced: on the old code the test fails there.)"""
    uvicorn = pytest.importorskip("uvicorn")
    monkeypatch.setattr(uvicorn.Server, "run", lambda *a, **k: pytest.fail("the server went on to listen"))
    err = usage_error(lambda: main(["serve", "--max-games", str(10**30)]), capsys)
    assert ("argument --max-games: 1,000,000,000,000,000,000,000,000,000,000 live games need at least " in err
            and "GiB (8 KiB each at the least), more than this machine's" in err and "use a smaller --max-games" in err)


def test_serve_max_games_limit_is_the_machines_memory(monkeypatch, capsys):
    uvicorn = pytest.importorskip("uvicorn")
    monkeypatch.setattr(uvicorn.Server, "run", lambda *a, **k: pytest.fail("the server went on to listen"))
    monkeypatch.setattr(checks, "physical_memory", lambda: 1 * GiB)
    err = usage_error(lambda: main(["serve", "--max-games", "200000"]), capsys)
    assert "200,000 live games need at least 1.5 GiB (8 KiB each at the least), more than this machine's 1.0 GiB" in err


def test_arena_workers_past_memory_is_a_usage_error(monkeypatch, capsys):
    """Before: 7,813 worker processes started (one per chunk of the 10**6 games). (The play is
    replaced: on the old code the test fails there instead.)"""
    monkeypatch.setattr(checks, "physical_memory", lambda: 16 * GiB)
    monkeypatch.setattr(arena_module, "play_tasks", lambda *a, **k: pytest.fail("the arena went on to play"))
    err = usage_error(lambda: main(["arena", "--agents", "random,kind-random", "--games", str(10**6), "--workers",
                                    str(10**6), "--no-progress"]), capsys)
    assert ("argument --workers: workers=1,000,000 would start 7,813 worker processes (one per chunk of 1,000,000 "
            "games, at most workers), which need at least 61.0 GiB (8 MiB each at the least), more than this "
            "machine's 16.0 GiB of memory; use fewer workers") in " ".join(err.split())


# --- files of games larger than memory ----------------------------------------------------
def sparse_file(path, size: int):
    """A file of ``size`` bytes that takes no disk (and no memory unless read)."""
    with open(path, "wb") as f:
        f.truncate(size)
    return path


def fifo(path, data: bytes):
    """A named pipe that a thread fills with ``data`` once it is opened (then closes)."""
    os.mkfifo(path)

    def write():
        try:
            with open(path, "wb") as f:
                f.write(data)
        except BrokenPipeError:  # the reader stopped early
            pass

    threading.Thread(target=write, daemon=True).start()
    return path


@pytest.fixture
def half_gib_machine(monkeypatch):
    monkeypatch.setattr(checks, "physical_memory", lambda: 512 * MiB)


def test_replay_of_a_file_past_memory_is_refused_unread(tmp_path, half_gib_machine, capsys):
    """Before: read whole (here 200 MiB of NUL bytes), then parsed: a file of games larger
    than the machine filled its memory."""
    path = sparse_file(tmp_path / "games.jsonl", 200 * MiB)
    err = usage_error(lambda: replay.main([str(path)]), capsys)
    assert (f"argument FILE: {path} holds 209,715,200 bytes; the games read from it need at least 0.8 GiB, more than "
            "this machine's 0.5 GiB of memory; split it into smaller files (one game a line)") in " ".join(err.split())


def test_play_load_of_a_file_past_memory_is_refused_unread(tmp_path, half_gib_machine, capsys):
    path = sparse_file(tmp_path / "save.json", 200 * MiB)
    err = usage_error(lambda: play.main(["--load", str(path)]), capsys)
    assert f"argument --load: {path}: {path} holds 209,715,200 bytes; the games read from it need at least 0.8 GiB" in \
        " ".join(err.split())


def test_serve_replay_of_a_file_past_memory_is_a_usage_error(tmp_path, half_gib_machine, monkeypatch, capsys):
    uvicorn = pytest.importorskip("uvicorn")
    monkeypatch.setattr(uvicorn.Server, "run", lambda *a, **k: pytest.fail("the server went on to listen"))
    path = sparse_file(tmp_path / "games.jsonl", 200 * MiB)
    err = usage_error(lambda: main(["serve", "--replay", str(path)]), capsys)
    assert f"argument --replay: {path} holds 209,715,200 bytes" in " ".join(err.split())


def test_replay_of_a_stream_stops_at_memory(tmp_path, monkeypatch, capsys):
    """A pipe (or a device) has no size: reading stops once what it gave could not be held.
    Before: read to its end, however long (/dev/zero: until the system killed the process)."""
    monkeypatch.setattr(checks, "physical_memory", lambda: 4 * MiB)
    path = fifo(tmp_path / "games.pipe", b" \n" * (3 * MiB // 2))
    err = usage_error(lambda: replay.main([str(path)]), capsys)
    assert (f"argument FILE: {path} gave 2,097,152 bytes (reading stopped there); the games read from it need at least "
            "0.0 GiB, more than this machine's 0.0 GiB of memory") in " ".join(err.split())


def test_replay_of_a_binary_stream_stops_at_its_first_nul(tmp_path, capsys):
    """/dev/zero, /dev/urandom: no text file of games holds a NUL byte. Before: read forever."""
    path = fifo(tmp_path / "zero.pipe", b"\n\n{" + b"\0" * (64 * 1024))
    err = usage_error(lambda: replay.main([str(path)]), capsys)
    assert f"argument FILE: cannot read {path}: byte 3 is NUL, which no text file of games holds" in " ".join(err.split())
