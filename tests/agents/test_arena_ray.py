"""The arena's Ray hook where Ray need not be installed: argument checks, specs made
portable, and the command line naming the extra; where it is (marked ray), a chunk's error
on a local Ray. The distributed run itself is tested on a two-node cluster
(tests/training/test_ray_cluster.py)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from spacemission_agents.arena import ArenaArgumentError, run_arena
from spacemission_agents.arena_ray import portable_spec
from spacemission_agents.random_agents import RandomAgent

HAS_RAY = importlib.util.find_spec("ray") is not None


def test_ray_arena_takes_agents_by_spec_only():
    with pytest.raises(ArenaArgumentError, match="by spec only") as info:
        run_arena([RandomAgent(), "greedy"], games=2, ray="", progress=False)
    assert info.value.argument == "agents"


@pytest.mark.parametrize("bad", [5, True, ["auto"]])
def test_ray_address_must_be_a_string(bad):
    with pytest.raises(ArenaArgumentError, match="cluster address string") as info:
        run_arena(["random", "greedy"], games=2, ray=bad, progress=False)
    assert info.value.argument == "ray"


@pytest.mark.parametrize("bad", ["not an address", " auto", "host:99999", "host:", "ray://h:0"])
def test_a_malformed_ray_address_is_refused_before_anything_is_written(bad, tmp_path):
    """Before: accepted here; out was made and games.jsonl opened, then ray.init raised a bare
    ValueError (or, for a port out of range, waited minutes)."""
    with pytest.raises(ArenaArgumentError, match="is not a Ray cluster address") as info:
        run_arena(["random", "greedy"], games=2, ray=bad, out=tmp_path / "out", progress=False)
    assert info.value.argument == "ray" and not (tmp_path / "out").exists()


def test_portable_spec_makes_model_paths_absolute(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert portable_spec("ppo:models/a.npz:temperature=0.5") == f"ppo:{tmp_path / 'models' / 'a.npz'}:temperature=0.5"
    assert portable_spec("ppo:/abs/b.npz") == "ppo:/abs/b.npz"
    for spec in ("heuristic", "search:budget=0.1", "ppo", "ppo:temperature=1.0", "spacemission_agents.greedy:GreedyAgent"):
        assert portable_spec(spec) == spec
    assert Path(portable_spec("ppo:x.npz")[4:]).is_absolute()


@pytest.mark.skipif(HAS_RAY, reason="checks the message shown where Ray is not installed")
def test_arena_cli_without_ray_names_the_extra(capsys):
    from spacemission_cli.main import main

    with pytest.raises(SystemExit) as info:
        main(["arena", "--agents", "random,greedy", "--games", "2", "--ray"])
    assert info.value.code == 2
    assert "pip install -e '.[ray]'" in capsys.readouterr().err


@pytest.mark.skipif(HAS_RAY, reason="checks the message shown where Ray is not installed")
def test_train_cli_rllib_backend_without_ray_names_the_extra(capsys):
    from spacemission_cli.main import main

    assert main(["train", "--backend", "rllib", "--steps", "10"]) == 2
    err = capsys.readouterr().err
    assert "needs the ray extra" in err and "pip install -e '.[ray]'" in err


def test_train_cli_rejects_an_unknown_backend(capsys):
    from spacemission_cli.main import main

    assert main(["train", "--backend", "jax"]) == 2
    assert "invalid choice 'jax'" in capsys.readouterr().err


def test_no_address_checks_the_cluster_ray_address_names(monkeypatch):
    """ray.init() with no address joins RAY_ADDRESS's cluster; before, that address went
    unchecked, so a stale RAY_ADDRESS made the arena and the trainer wait minutes in ray.init."""
    import socket

    from spacemission_agents.arena_ray import reach_address

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = f"127.0.0.1:{s.getsockname()[1]}"
    monkeypatch.setenv("RAY_ADDRESS", closed)
    for address in ("", None):
        with pytest.raises(ValueError, match=rf"no address given, so Ray joins RAY_ADDRESS='{closed}': "
                                             rf"no Ray cluster answers at '{closed}'"):
            reach_address(address, timeout=2)
    monkeypatch.setenv("RAY_ADDRESS", "nonsense")
    with pytest.raises(ValueError, match="RAY_ADDRESS='nonsense': 'nonsense' is not a Ray cluster address"):
        reach_address("")
    reach_address("auto")  # an address given: RAY_ADDRESS is not what Ray joins
    monkeypatch.setenv("RAY_ADDRESS", "auto")
    reach_address("")
    monkeypatch.delenv("RAY_ADDRESS")
    reach_address("")


def test_workers_with_ray_are_refused(tmp_path):
    """Before: accepted; a local pool of that many processes started and sat idle while Ray
    played every chunk, and the summary said "N workers"."""
    with pytest.raises(ArenaArgumentError, match="does not apply with ray") as info:
        run_arena(["random", "greedy"], games=2, ray="", workers=2, out=tmp_path / "out", progress=False)
    assert info.value.argument == "workers" and not (tmp_path / "out").exists()


def test_a_start_method_with_ray_is_refused(tmp_path):
    """Before: accepted and ignored (Ray starts its own worker processes), as workers was."""
    with pytest.raises(ArenaArgumentError, match=r"start_method='spawn' does not apply with ray") as info:
        run_arena(["random", "greedy"], games=2, ray="", start_method="spawn", out=tmp_path / "out", progress=False)
    assert info.value.argument == "start_method" and not (tmp_path / "out").exists()


def test_a_chunks_error_text_is_cut():
    """A chunk's RuntimeError (an agent's 5000-character error text) was passed on whole."""
    from spacemission_agents.arena_ray import chunk_error_text
    from spacemission_env.checks import SHOWN_CHARS

    text = chunk_error_text(RuntimeError("chunk 3 failed: " + "x" * 5000))
    assert text.startswith("chunk 3 failed: xxx") and len(text) < 2 * SHOWN_CHARS


def test_an_unanswered_address_names_a_cut_os_error(monkeypatch):
    import socket

    from spacemission_agents.arena_ray import reach_address

    def refuse(*args, **kwargs):
        raise OSError("y" * 5000)

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(socket, "create_connection", refuse)
    with pytest.raises(ValueError, match="no Ray cluster answers") as info:
        reach_address("127.0.0.1:6379")
    assert len(str(info.value)) < 400


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray of one CPU for this module's tests (RAY_ADDRESS set aside), shut down after them."""
    import os

    ray = pytest.importorskip("ray")
    from spacemission_agents.arena_ray import init_ray

    address = os.environ.pop("RAY_ADDRESS", None)
    try:
        if ray.is_initialized():
            ray.shutdown()
        init_ray("")
        yield ray
    finally:
        ray.shutdown()
        if address is not None:
            os.environ["RAY_ADDRESS"] = address


@pytest.mark.ray
@pytest.mark.parametrize("error", ["ValueError", "KeyError"])
def test_a_chunks_error_of_another_type_on_ray_is_named_and_cut(local_ray, error):
    """Before: a chunk raising anything but a RuntimeError (here an agent's bind failing in the
    Ray task only, with a 5000-character word) left the arena as Ray's RayTaskError: its
    whole message and the remote traceback. Now a RuntimeError naming the chunk and the
    error's type, its long words cut, as a RuntimeError's message is."""
    import os

    from spacemission_env.checks import SHOWN_CHARS

    spec = f"tests.helpers.external_agents:FailsElsewhere:pid={os.getpid()}:error={error}"
    with pytest.raises(RuntimeError) as info:
        run_arena([spec, "random"], games=2, chunk_size=2, ray="", progress=False)
    text = str(info.value)
    assert type(info.value) is RuntimeError, type(info.value)
    assert text.startswith(f"chunk 0 (games 0..1, deals 0..0 of {spec[:40]}") and f"failed: {error}: " in text, text[:600]
    assert "w" * (SHOWN_CHARS + 1) not in text and len(text) < 400 and "Traceback" not in text, text[:600]
