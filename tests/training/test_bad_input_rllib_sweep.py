"""Bad input to the Ray surfaces (the RLlib trainer, the arena's ``ray=``) is refused with
a message naming it before Ray starts: options that used to pass the configuration and
fail on the env runners, at the first evaluation or after ``ray.init``, and cluster
addresses that ``ray.init`` misread or waited minutes on.

Needs ray[rllib] (``make test-ray``); skipped where Ray is not importable."""
from __future__ import annotations

import socket
import time

import pytest

pytest.importorskip("ray")
pytest.importorskip("ray.rllib")

from spacemission_agents.arena import ArenaArgumentError, run_arena  # noqa: E402
from spacemission_env.checks import shown_path  # noqa: E402
from spacemission_training.rllib import RLlibConfig, main, parse_args  # noqa: E402

pytestmark = pytest.mark.ray

RP = dict(game="red_planet", players=4, rules="first_edition", max_rounds=10, observation_type="info")


def _closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("bad, message", [
    (dict(seed=-1), "seed and eval_seed must be in 0.."),
    (dict(seed=2**40), "seed and eval_seed must be in 0.."),
    (dict(eval_seed=-5), "seed and eval_seed must be in 0.."),
    (dict(eval_games=-3), "eval_games must be >= 0"),
    # found by a CLI review: one message for several fields, and the whole configuration printed
    (dict(minibatch=0), "minibatch must be >= 1, got 0"),
    (dict(threads=100_000), r"threads must be in 1\.\.1024 \(torch's threads"),  # a segfault in torch's OpenMP
    (dict(gamma=1.5), r"gamma must be in \(0, 1\], got 1\.5"),
    (dict(num_env_runners=-1), "num_env_runners must be >= 0, got -1"),
    (dict(reward="banana"), "reward must be win or score"),
    (dict(clip=-0.2), "clip must be > 0, got -0.2"),
    (dict(max_grad_norm=0.0), "max_grad_norm must be > 0, got 0.0"),
    (dict(ent_coef=-1.0), "ent_coef must be >= 0, got -1.0"),
    (dict(vf_coef=-0.5), "vf_coef must be >= 0, got -0.5"),
    (dict(opponents="nosuchbot=1"), "option opponents: unknown agent 'nosuchbot'"),
    (dict(eval_opponents="random,nosuchbot"), "option eval_opponents: unknown agent 'nosuchbot'"),
    (dict(eval_opponents=",,"), "option eval_opponents: ',,' names no agent, but there are evaluations"),
    (dict(opponents="heuristic=1", observation_type="info"), "option opponents: 'heuristic' reads 'recall'"),
    (dict(RP, opponents="search=1"), "option opponents: unknown agent 'search'"),
    (dict(RP), "option opponents: unknown agent 'kind-random'"),  # Space Mission's mix, not the game's
    (dict(address="not an address"), "option address: 'not an address' is not a Ray cluster address"),
    (dict(address="localhost:99999"), "port in 1..65535"),
    (dict(address=" auto"), "is not a Ray cluster address"),
])
def test_config_refuses_what_used_to_fail_after_ray_started(bad, message):
    with pytest.raises(ValueError, match=message):
        RLlibConfig(**bad)


def test_run_dir_that_is_a_file_is_a_usage_error(tmp_path, capsys):
    f = tmp_path / "taken"
    f.write_text("x")
    for run_dir, phrase in ((f, "is a file, not a directory"), (f / "sub", "which is a file")):
        with pytest.raises(SystemExit):
            parse_args(["--run-dir", str(run_dir)])
        err = capsys.readouterr().err
        assert "option run_dir" in err and phrase in err


def test_config_file_values_are_checked_the_same(tmp_path, capsys):
    conf = tmp_path / "c.toml"
    conf.write_text('seed = -2\n')
    with pytest.raises(SystemExit):
        parse_args(["--config", str(conf)])
    assert "seed and eval_seed must be in 0.." in capsys.readouterr().err
    conf.write_text('opponents = "greedy=1"\nobservation_type = "seer"\n')
    with pytest.raises(SystemExit):
        parse_args(["--config", str(conf)])
    assert "option opponents: 'greedy' reads" in capsys.readouterr().err


def test_resume_without_a_checkpoint_is_a_usage_error(tmp_path, capsys):
    run = tmp_path / "run"
    run.mkdir()
    (run / "config.json").write_text('{"config": {"steps": 1000}}')
    with pytest.raises(SystemExit):
        parse_args(["--resume", str(run)])
    assert "no RLlib checkpoint" in capsys.readouterr().err


def test_silent_address_is_a_usage_error_in_seconds_before_any_file(tmp_path, capsys):
    """ray.init waited minutes on a HOST:PORT where no cluster answers."""
    run = tmp_path / "run"
    t0 = time.perf_counter()
    with pytest.raises(SystemExit):
        main(["--address", f"127.0.0.1:{_closed_port()}", "--run-dir", str(run), "--steps", "10"])
    assert time.perf_counter() - t0 < 20
    err = capsys.readouterr().err
    assert "option address: no Ray cluster answers at '127.0.0.1:" in err
    assert not run.exists()
    # the forms Ray joins, and values at the new limits, still pass the configuration
    cfg = RLlibConfig(seed=0, eval_games=0, eval_opponents="nosuchbot", reward="score", ent_coef=0.0,
                      address="127.0.0.1:6379", opponents="random=1,self=0")
    assert (cfg.eval_games, cfg.reward, cfg.address) == (0, "score", "127.0.0.1:6379")
    for address in ("", "auto", "local", "ray://head:10001", "[::1]:6379"):
        assert RLlibConfig(address=address).address == address


@pytest.mark.parametrize("address, message", [
    ("not an address", "is not a Ray cluster address"),
    ("localhost:0", "port in 1..65535"),
    ("127.0.0.1:{port}", "no Ray cluster answers"),
])
def test_arena_ray_address_is_an_argument_error(address, message):
    t0 = time.perf_counter()
    with pytest.raises(ArenaArgumentError, match=message) as info:
        run_arena(["random", "greedy"], games=2, ray=address.format(port=_closed_port()), progress=False)
    assert info.value.argument == "ray"
    assert time.perf_counter() - t0 < 20


def test_arena_cli_names_a_bad_ray_address(capsys):
    from spacemission_cli.main import main as cli

    with pytest.raises(SystemExit) as info:
        cli(["arena", "--agents", "random,greedy", "--games", "2", "--no-progress", "--ray", "nowhere"])
    assert info.value.code == 2
    assert "argument --ray" in capsys.readouterr().err


def test_a_fresh_run_into_a_directory_holding_a_run_is_refused_before_ray(tmp_path, capsys):
    """Before: the RLlib trainer overwrote the earlier run's config, logs and checkpoints."""
    from spacemission_training.rllib import train

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "config.json").write_text('{"config": {}}')
    (run_dir / "checkpoints" / "rllib").mkdir(parents=True)
    (run_dir / "checkpoints" / "rllib" / "loop.json").write_text("{}")  # a run --resume continues
    with pytest.raises(SystemExit) as exc:
        main(["--run-dir", str(run_dir), "--steps", "10", "--address", f"127.0.0.1:{_closed_port()}"])
    assert exc.value.code == 2
    assert f"run_dir {shown_path(run_dir)} already holds a run (config.json)" in capsys.readouterr().err
    with pytest.raises(ValueError, match="already holds a run"):
        train(RLlibConfig(run_dir=str(run_dir), steps=10, address=f"127.0.0.1:{_closed_port()}"))
    assert sorted(p.name for p in run_dir.iterdir()) == ["checkpoints", "config.json"]


@pytest.mark.skipif(not __import__("pathlib").Path("/proc/self").is_dir(), reason="needs Linux's /proc")
def test_a_run_dir_that_cannot_be_made_is_a_usage_error_before_ray(capsys):
    """Before: Ray started, then Path.mkdir's FileNotFoundError (or PermissionError for a
    read-only place) ended the run with a traceback."""
    import ray

    run = "/proc/no-such-process-folder/run"  # /proc takes no new folder, also from root
    with pytest.raises(SystemExit) as exc:
        main(["--run-dir", run, "--steps", "10"])
    assert exc.value.code == 2
    assert f"option run_dir: cannot write the run's files in {run!r} (No such file or directory" in capsys.readouterr().err
    assert not ray.is_initialized()


@pytest.mark.parametrize("option", ["--resume", "--config"])
def test_a_path_name_too_long_is_a_usage_error(option, capsys):
    """Before: OSError "File name too long" from Path.is_file, a traceback."""
    with pytest.raises(SystemExit) as exc:
        parse_args([option, "x" * 300 + (".json" if option == "--config" else "")])
    assert exc.value.code == 2
    assert "is not a usable path (File name too long)" in capsys.readouterr().err


def test_resume_a_file_says_so(tmp_path, capsys):
    """Before: "no run in 'PATH' (no such directory)" for a file."""
    path = tmp_path / "notes.txt"
    path.write_text("not a run")
    with pytest.raises(SystemExit):
        parse_args(["--resume", str(path)])
    assert f"--resume: {str(path)!r} is a file, not a run's folder" in capsys.readouterr().err


def test_device_is_checked_with_the_configuration():
    with pytest.raises(ValueError, match="device must be cpu, cuda, cuda:N or auto, got 'gpu'"):
        RLlibConfig(device="gpu")


def test_a_device_torch_cannot_use_is_a_usage_error_before_ray_and_any_file(tmp_path, capsys):
    """--device as the SB3 trainer's: the RLlib trainer had none (its learner always on the CPU)."""
    import ray
    import torch

    if torch.cuda.is_available():
        pytest.skip("torch sees a GPU: --device cuda is usable here")
    run = tmp_path / "run"
    with pytest.raises(SystemExit) as exc:
        main(["--device", "cuda", "--run-dir", str(run), "--steps", "10"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "--device cuda: torch" in err and "sees no CUDA GPU" in err and "use --device cpu, or auto" in err
    assert not run.exists() and not ray.is_initialized()


def test_learner_resources_follow_the_device():
    import torch

    from spacemission_training.rllib import learner_resources

    assert learner_resources("cpu") == {"num_gpus_per_learner": 0}
    if torch.cuda.is_available():
        assert learner_resources("auto") == learner_resources("cuda") == {"num_gpus_per_learner": 1, "local_gpu_idx": 0}
        last = torch.cuda.device_count() - 1
        assert learner_resources(f"cuda:{last}") == {"num_gpus_per_learner": 1, "local_gpu_idx": last}
    else:
        assert learner_resources("auto") == {"num_gpus_per_learner": 0}
        with pytest.raises(ValueError, match="sees no CUDA GPU"):
            learner_resources("cuda:0")
