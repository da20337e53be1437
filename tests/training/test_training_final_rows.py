"""The SB3 trainer's end across a kill: a run killed after its final evaluation's rows
(``final/...`` in metrics.csv) but before summary.json ends again on resume, from its last
checkpoint at the same step; before the fix the rows of that first end were kept and the
second end logged them again, so every ``final/`` key had two rows at the last step."""
import csv
import shutil
from collections import Counter

import pytest

pytest.importorskip("sb3_contrib")

from spacemission_training.config import for_game  # noqa: E402
from spacemission_training.logs import RunLog, read_metrics  # noqa: E402
from spacemission_training.train_ppo import main, train  # noqa: E402

pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py

# one 512-step iteration, a checkpoint at its end, and a final evaluation of 4 games
TINY = dict(num_envs=16, n_steps=32, batch_size=256, epochs=1, trunk="32", pi="16", vf="16", bc_teacher="kind-random",
            bc_samples=300, bc_epochs=1, opponents="random=0.7,self=0.3", snapshot_every=512, eval_every=0,
            final_eval_games=4, eval_opponents="random", checkpoint_every=512, steps=512, threads=1,
            progress="lines", tensorboard=False)


def _rows(run_dir) -> list[list[str]]:
    with open(run_dir / "metrics.csv", newline="") as f:
        return list(csv.reader(f))[1:]


@pytest.fixture(scope="module")
def ended(tmp_path_factory):
    run_dir = tmp_path_factory.mktemp("final") / "run"
    summary = train(for_game("spacemission", **TINY, run_dir=str(run_dir)), argv=["--tiny"])
    return run_dir, summary


def test_a_run_killed_before_its_summary_does_not_log_its_final_rows_twice(ended, tmp_path, capsys):
    src, summary = ended
    run_dir = tmp_path / "run"
    shutil.copytree(src, run_dir)
    (run_dir / "summary.json").unlink()  # killed after the final/ rows, before summary.json
    final = {(r[0], r[2]) for r in _rows(run_dir) if r[2].startswith("final/")}
    assert final and all(step == str(summary["steps"]) for step, _ in final)
    assert main(["--resume", str(run_dir)]) == 0
    counts = Counter((r[0], r[2]) for r in _rows(run_dir))
    assert {k for k, n in counts.items() if n > 1} == set(), "rows logged twice"
    assert {k for k in counts if k[1].startswith("final/")} == final
    assert (run_dir / "summary.json").is_file()
    # and resumed again, it is finished: nothing changes
    before = (run_dir / "metrics.csv").read_bytes()
    assert main(["--resume", str(run_dir)]) == 0
    assert "already finished" in capsys.readouterr().out
    assert (run_dir / "metrics.csv").read_bytes() == before


def test_an_extended_run_keeps_the_first_ends_final_rows(tmp_path):
    """docs/training.md: an extended run's metrics keep the first end's final/ evaluation;
    only the end being written again drops its own rows."""
    (tmp_path / "metrics.csv").write_text("step,wall_s,key,value\n512,1.0,train/x,0.5\n"
                                          "512,1.0,final/random/win_rate,1.0\n")
    RunLog(tmp_path, resume_step=512, tensorboard=False).close()  # an extension: nothing to drop
    assert set(read_metrics(tmp_path)) == {"train/x", "final/random/win_rate"}
    RunLog(tmp_path, resume_step=512, tensorboard=False, drop_at_resume_step=("final/",)).close()  # the end again
    assert set(read_metrics(tmp_path)) == {"train/x"}
