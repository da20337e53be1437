"""Fine-tuning a saved model (``init_from``): the actor is loaded exactly (the export
before any PPO update equals the file, also for the shipped 2-player agent), only the
value head is fitted, a tiny run trains from it, and a file that does not fit the run is
refused with a ValueError naming the mismatch."""
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch  # noqa: E402

from spacemission_agents.ppo import PPOAgent  # noqa: E402
from spacemission_env.checks import shown_path  # noqa: E402
from spacemission_training import checkpoint  # noqa: E402
from spacemission_training.config import TrainConfig, parse_args  # noqa: E402
from spacemission_training.train_ppo import export, train, warm_start  # noqa: E402

TINY = dict(num_envs=16, n_steps=32, batch_size=256, epochs=2, trunk="32", pi="16", vf="16", bc_teacher="kind-random",
            bc_samples=0, bc_epochs=1, opponents="random=0.5,kind-random=0.2,self=0.3", snapshot_every=512,
            eval_every=0, final_eval_games=0, checkpoint_every=512, steps=1024, threads=1, progress="lines")
SHIPPED = PPOAgent.shipped_path(2)


pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py


def _arrays(agent_or_path) -> dict:
    if isinstance(agent_or_path, PPOAgent):
        return dict(agent_or_path.params)
    with np.load(agent_or_path) as z:
        return {k: z[k] for k in z.files if k != "metadata"}


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k]) for k in a)


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory) -> Path:
    """A tiny model file whose layers are far from an initialisation (random weights)."""
    cfg = TrainConfig(**TINY)
    torch.manual_seed(5)
    policy, *_ = warm_start(cfg, lambda v: None)
    with torch.no_grad():
        for p in policy.parameters():
            p.add_(torch.randn_like(p) * 0.3)
    return export(policy, cfg).save(tmp_path_factory.mktemp("model") / "tiny.npz")


def test_the_shipped_agent_is_loaded_exactly():
    cfg = TrainConfig(players=2, init_from=str(SHIPPED), bc_samples=0)
    policy, active, scale, _ = warm_start(cfg, lambda v: None)
    assert _same(_arrays(export(policy, cfg)), _arrays(SHIPPED))


def test_only_the_value_head_is_fitted_and_a_run_trains_from_the_file(tiny_model, tmp_path):
    cfg = TrainConfig(**{**TINY, "bc_samples": 400, "bc_epochs": 2}, init_from=str(tiny_model),
                      run_dir=str(tmp_path / "run"))
    torch.manual_seed(0)
    policy, _, _, stats = warm_start(cfg, lambda v: None)
    assert stats["bc/samples"] > 0 and "bc/value_loss" in stats and "bc/cross_entropy" not in stats
    assert _same(_arrays(export(policy, cfg)), _arrays(tiny_model))  # the value fit left the actor alone
    torch.manual_seed(0)
    fresh, *_ = warm_start(TrainConfig(**{**TINY}, init_from=str(tiny_model)), lambda v: None)
    vf, vf0 = policy.value_net.weight.detach(), fresh.value_net.weight.detach()
    assert not torch.equal(vf, vf0)

    summary = train(cfg, argv=["--tiny"])
    assert not _same(_arrays(Path(summary["model"])), _arrays(tiny_model))  # PPO moved it
    pool = checkpoint.load(tmp_path / "run" / "checkpoints" / "last.pt")["world"]["pool"]
    first = [e for e in pool.entries if e.name == "self@0"]
    assert len(first) == 1 and _same(_arrays(first[0].policy), _arrays(tiny_model))  # the learner before PPO


def test_a_file_that_does_not_fit_is_refused(tiny_model, tmp_path):
    with pytest.raises(ValueError, match="no model file"):
        TrainConfig(**TINY, init_from=str(tmp_path / "missing.npz"))
    junk = tmp_path / "junk.npz"
    np.savez(junk, x=np.zeros(3))
    with pytest.raises(ValueError, match="no metadata"):
        TrainConfig(**TINY, init_from=str(junk))
    text = tmp_path / "notes.txt"
    text.write_text("not a model")
    with pytest.raises(ValueError, match=rf"^option init_from: {re.escape(repr(str(text)))} is not an \.npz model file"):
        TrainConfig(**TINY, init_from=str(text))
    with pytest.raises(ValueError, match=r"trunk \[32\]; this run has trunk \[64\]"):
        TrainConfig(**{**TINY, "trunk": "64"}, init_from=str(tiny_model))
    with pytest.raises(ValueError, match="players 2; this run has players 3"):
        TrainConfig(**{**TINY, "players": 3}, init_from=str(tiny_model))
    with pytest.raises(ValueError, match="prior 'heuristic'; this run has prior ''"):
        TrainConfig(**{**TINY, "prior": ""}, init_from=str(tiny_model))
    with pytest.raises(ValueError, match="game 'spacemission'; this run has game 'red_planet'"):
        TrainConfig(**{**TINY, "game": "red_planet", "players": 4, "rules": "first_edition", "max_rounds": 10,
                       "observation_type": "info"}, init_from=str(tiny_model))


def test_the_command_line_names_the_problem(tmp_path, capsys):
    with pytest.raises(SystemExit):
        parse_args(["--init-from", str(SHIPPED), "--trunk", "128"])
    err = capsys.readouterr().err
    assert "error: option init_from: " in err and "trunk [256]; this run has trunk [128]" in err
    cfg, _ = parse_args(["--init-from", str(SHIPPED), "--steps", "1000"])
    assert cfg.init_from == str(SHIPPED)


def test_a_run_resumes_after_its_start_files_moved(tiny_model, tmp_path, capsys):
    """Before: --resume re-checked init_from (and the ppo:PATH opponents' files), read only at
    the start (the actor is in last.pt, the pool pickled in it), so a run whose file had moved
    could not be resumed: "init_from: no model file at ...". Now a note names the file and the
    run goes on from its checkpoint."""
    model = tmp_path / "model.npz"
    model.write_bytes(Path(tiny_model).read_bytes())
    run = tmp_path / "run"
    opponents = f"random=0.5,ppo:{model}=0.2,self=0.3"
    out = train(TrainConfig(**{**TINY, "opponents": opponents, "stop_after_steps": 512}, init_from=str(model),
                            run_dir=str(run)))
    assert out["stopped_at"] == 512
    model.rename(tmp_path / "moved.npz")
    cfg, resume = parse_args(["--resume", str(run)])
    err = capsys.readouterr().err
    assert f"init_from {shown_path(model)} is no longer there" in err and f"opponents {shown_path(model)}" in err
    assert cfg.init_from == str(model) and cfg.opponents == opponents
    summary = train(cfg, resume=resume)
    assert summary["steps"] == 1024 and (run / "final.npz").is_file()
    # a fresh run still checks the file
    with pytest.raises(ValueError, match="init_from: no model file"):
        TrainConfig(**TINY, init_from=str(model))


def test_the_bc_cache_knows_a_model_file_by_its_content(tiny_model, tmp_path, monkeypatch):
    """Before: --bc-cache keyed on the spec text ("ppo:/path"), so a teacher file (or an
    init_from file) replaced at the same path, or other prior parameters, reused the old
    teacher's data."""
    from spacemission_agents.ppo_prior import HeuristicPrior
    from spacemission_training import bc

    collected = []
    real = bc.collect
    monkeypatch.setattr(bc, "collect", lambda *a, **k: collected.append(1) or real(*a, **k))
    model, cache = tmp_path / "teacher.npz", tmp_path / "cache.npz"
    model.write_bytes(Path(tiny_model).read_bytes())
    other = PPOAgent.load(tiny_model)
    params = {k: v.copy() for k, v in other.params.items()}
    params["b0"] = params["b0"] + 1.0
    other = PPOAgent(params, other.metadata).save(tmp_path / "other.npz")
    small = {**TINY, "bc_samples": 64, "bc_epochs": 0, "bc_cache": str(cache)}
    for cfg in (TrainConfig(**{**small, "bc_teacher": f"ppo:{model}"}), TrainConfig(**small, init_from=str(model))):
        model.write_bytes(Path(tiny_model).read_bytes())
        cache.unlink(missing_ok=True)
        n = len(collected)
        warm_start(cfg, lambda v: None)
        warm_start(cfg, lambda v: None)
        assert len(collected) == n + 1  # the same file: the cache is read
        model.write_bytes(Path(other).read_bytes())  # another model at the same path
        warm_start(cfg, lambda v: None)
        assert len(collected) == n + 2
    # other prior parameters: collected again
    assert len(collected) == 4
    describe = HeuristicPrior.describe
    monkeypatch.setattr(HeuristicPrior, "describe", lambda self: {**describe(self), "params": {"changed": 1}})
    warm_start(cfg, lambda v: None)
    assert len(collected) == 5
    # another environment version (its rewards make the returns): collected again (before: the cache was read)
    from spacemission_training import train_ppo

    monkeypatch.setattr(train_ppo, "env_id", lambda game: "SpaceMission-v2", raising=False)
    warm_start(cfg, lambda v: None)
    assert len(collected) == 6


def test_pool_metric_keys_write_a_path_with_bars(tiny_model, tmp_path):
    """Before: pool/<name>/p took the opponent's name as it was, so a ppo:PATH opponent's key
    (pool/ppo:/tmp/.../tiny.npz/p) split into more than three parts, unlike eval/ and games/."""
    from spacemission_training.logs import read_metrics

    run = tmp_path / "run"
    train(TrainConfig(**{**TINY, "opponents": f"random=0.5,ppo:{tiny_model}=0.5", "steps": 512}, run_dir=str(run)))
    keys = [k for k in read_metrics(run) if k.startswith(("pool/", "games/"))]
    name = "ppo:" + str(tiny_model).replace("/", "|")
    assert f"pool/{name}/p" in keys and "pool/random/p" in keys
    assert all(len(k.split("/")) == 3 for k in keys if k.endswith(("/p", "/score"))), keys
