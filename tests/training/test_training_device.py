"""``spacemission train --device``: the torch device of the network (cpu by default; cuda,
cuda:N, or auto). A device torch cannot use is a usage error before any file is written; a
resume may move a run to another device. The tests marked ``gpu`` need a CUDA GPU (they
skip without one) and were run on a lent H100 (docs/training.md, "On a GPU")."""
import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch  # noqa: E402

from spacemission_agents.ppo import PPOAgent  # noqa: E402
from spacemission_training.config import for_game, parse_args  # noqa: E402
from spacemission_training.train_ppo import main, resolve_device, train  # noqa: E402

pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py

CUDA = torch.cuda.is_available()
gpu = pytest.mark.skipif(not CUDA, reason="needs a CUDA GPU")

# one tiny Space Mission run: 512 learner steps an iteration, a checkpoint after each
TINY = dict(num_envs=16, n_steps=32, batch_size=256, epochs=2, trunk="32", pi="16", vf="16",
            bc_teacher="kind-random", bc_samples=600, bc_epochs=1, opponents="random=0.5,kind-random=0.2,self=0.3",
            snapshot_every=512, eval_every=0, final_eval_games=0, checkpoint_every=512, steps=1536, threads=1,
            progress="lines", tensorboard=False)


def _flags(**over) -> list[str]:
    return [f"--{k.replace('_', '-')}={v}" for k, v in {**TINY, **over}.items()]


def _weights(path) -> dict:
    with np.load(path) as z:
        return {k: z[k] for k in z.files if k != "metadata"}


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("bad", ["gpu", "cuda0", "cuda:x", "CPU", "", "cuda:1234"])
def test_a_device_of_no_known_form_is_a_usage_error(bad, capsys, tmp_path):
    with pytest.raises(SystemExit) as e:
        parse_args(["--device", bad, "--run-dir", str(tmp_path / "r")])
    assert e.value.code == 2
    assert "device must be cpu, cuda, cuda:N or auto" in capsys.readouterr().err
    assert not (tmp_path / "r").exists()


def test_auto_is_cpu_without_a_gpu_and_cuda_when_torch_sees_one():
    assert resolve_device("auto") == torch.device("cuda" if CUDA else "cpu")
    assert resolve_device("cpu") == torch.device("cpu")


@pytest.mark.skipif(CUDA, reason="checks the machine without a GPU")
def test_cuda_without_a_gpu_is_a_usage_error_and_writes_nothing(tmp_path, capsys):
    run = tmp_path / "run"
    with pytest.raises(SystemExit) as e:
        main(_flags(device="cuda", run_dir=run))
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "--device cuda: torch" in err and "sees no CUDA GPU" in err and "--device cpu" in err
    assert not run.exists()
    with pytest.raises(ValueError, match="sees no CUDA GPU"):  # the API says the same, before writing
        train(for_game("spacemission", **TINY, device="cuda", run_dir=str(run)))
    assert not run.exists()


def test_a_gpu_index_torch_does_not_see_is_refused(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 2)
    assert resolve_device("cuda:1") == torch.device("cuda:1")
    with pytest.raises(ValueError, match=r"--device cuda:2: torch sees 2 CUDA GPU\(s\), cuda:0..cuda:1"):
        resolve_device("cuda:2")


@pytest.fixture(scope="module")
def cpu_run(tmp_path_factory):
    """The whole tiny run on the cpu (the default device), trained once for the two tests
    that compare a run with it. It is set up before the first test's keep_torch_threads, so it
    puts torch's thread count back itself."""
    before = torch.get_num_threads()
    try:
        return train(for_game("spacemission", **TINY, device="cpu", run_dir=str(tmp_path_factory.mktemp("cpu") / "run")))
    finally:
        torch.set_num_threads(before)


def test_auto_trains_as_cpu_here_and_the_device_is_recorded(cpu_run, tmp_path):
    """On a machine without a GPU, ``auto`` is the cpu run exactly (same seed, same weights);
    config.json records the device the run used."""
    if CUDA:
        pytest.skip("auto is cuda on this machine")
    a = cpu_run
    b = train(for_game("spacemission", **TINY, device="auto", run_dir=str(tmp_path / "b")))
    assert _same(_weights(a["model"]), _weights(b["model"]))
    assert json.loads((tmp_path / "b" / "config.json").read_text())["device"] == "cpu"
    assert json.loads((tmp_path / "b" / "config.json").read_text())["config"]["device"] == "auto"


def test_a_resume_may_change_the_device(cpu_run, tmp_path):
    """``--device`` is one of the options a resume may change (a run moved to another
    machine); on the same device the resumed run is the unbroken one exactly."""
    whole = cpu_run  # the default device: cpu
    run = tmp_path / "cut"
    assert main(_flags(run_dir=run, stop_after_steps=512)) == 0
    assert main(["--resume", str(run), "--device", "auto" if not CUDA else "cpu"]) == 0
    assert _same(_weights(whole["model"]), _weights(run / "final.npz"))
    resumed = json.loads((run / "config.json").read_text())["resumed"]
    assert [r["device"] for r in resumed] == ["cpu"]


@gpu
def test_cuda_run_trains_resumes_exactly_and_ships_a_numpy_model(tmp_path):
    """On a GPU: the run trains there (cloning and PPO), a resume continues it exactly (the
    GPU's generator is checkpointed), and its model plays with numpy alone."""
    whole = train(for_game("spacemission", **TINY, device="cuda", run_dir=str(tmp_path / "whole")))
    assert json.loads((tmp_path / "whole" / "config.json").read_text())["device"].startswith("cuda")
    run = tmp_path / "cut"
    assert main(_flags(device="cuda", run_dir=run, stop_after_steps=512)) == 0
    assert main(["--resume", str(run)]) == 0
    assert _same(_weights(whole["model"]), _weights(run / "final.npz"))
    agent = PPOAgent.load(Path(whole["model"]))
    assert all(isinstance(v, np.ndarray) for v in agent.params.values())


@gpu
def test_cuda_and_cpu_learn_the_same_function(tmp_path):
    """The same seed on cpu and cuda: not bit-equal (the GPU's kernels and generator), but
    the same warm start. The cloned network before PPO agrees to float32 rounding."""
    cfgs = {d: for_game("spacemission", **{**TINY, "steps": 512, "bc_epochs": 2}, device=d,
                        run_dir=str(tmp_path / d)) for d in ("cpu", "cuda")}
    from stable_baselines3.common.utils import set_random_seed

    from spacemission_training.train_ppo import warm_start

    nets = {}
    for d, c in cfgs.items():
        set_random_seed(c.seed)  # as train() does: the network's first weights from the seed
        nets[d] = warm_start(c, lambda v: None)[0]
    for (name, a), (_, b) in zip(nets["cpu"].state_dict().items(), nets["cuda"].state_dict().items()):
        assert torch.allclose(a.float(), b.float().cpu(), rtol=1e-3, atol=1e-4), name


@gpu
def test_red_planet_trains_on_cuda(tmp_path):
    """The other game (no prior, its own observation) on the GPU: a run ends with a numpy
    model that plays the arena."""
    from spacemission_agents.arena import run_arena

    tiny = dict(players=3, num_envs=8, n_steps=32, batch_size=128, epochs=1, trunk="32", pi="16", vf="16",
                bc_teacher="random", bc_samples=200, bc_epochs=1, opponents="random=0.7,self=0.3", snapshot_every=256,
                eval_every=0, final_eval_games=0, checkpoint_every=256, steps=512, threads=1, progress="lines",
                tensorboard=False)
    out = train(for_game("red_planet", **tiny, device="cuda", run_dir=str(tmp_path / "rp")))
    agent = PPOAgent.load(Path(out["model"]))
    res = run_arena([agent, "random"], game="red_planet", num_players=3, games=6, seed=0, progress=False)
    assert res.forfeits == [] and len(res.games) >= 6 and res.agent(agent.name).games > 0
