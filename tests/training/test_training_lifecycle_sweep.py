"""A training run's life cycle, swept as a user of an RL library expects it, for both games
(Space Mission 2 players, Mission: Red Planet 3 players): Ctrl-C and resume, resuming a
finished, corrupted, foreign or changed run, the outputs (model, TensorBoard scalars,
evaluations in the arena's numbers), progress lines and exit codes. The tests marked
"before:" failed on the code before their fix."""
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch  # noqa: E402

from spacemission_agents.arena import run_arena  # noqa: E402
from spacemission_agents.ppo import PPOAgent  # noqa: E402
from spacemission_agents.registry import make_agent  # noqa: E402
from spacemission_env.checks import shown_path  # noqa: E402
from spacemission_training import logs  # noqa: E402
from spacemission_training.config import for_game, parse_args  # noqa: E402
from spacemission_training.logs import RunLog, read_metrics  # noqa: E402
from spacemission_training.train_ppo import main, train  # noqa: E402

pytestmark = pytest.mark.usefixtures("keep_torch_threads")  # tests/training/conftest.py

# tiny runs: 512 learner steps an iteration in Space Mission, 256 in Red Planet
TINY = {
    "spacemission": dict(num_envs=16, n_steps=32, batch_size=256, epochs=2, trunk="32", pi="16", vf="16",
                         bc_teacher="kind-random", bc_samples=600, bc_epochs=1,
                         opponents="random=0.5,kind-random=0.2,self=0.3", snapshot_every=512, eval_every=0,
                         final_eval_games=0, checkpoint_every=512, steps=1536, threads=1, progress="lines"),
    "red_planet": dict(players=3, num_envs=8, n_steps=32, batch_size=128, epochs=1, trunk="32", pi="16", vf="16",
                       bc_teacher="random", bc_samples=200, bc_epochs=1, opponents="random=0.7,self=0.3",
                       snapshot_every=256, eval_every=0, final_eval_games=0, checkpoint_every=256, steps=768,
                       threads=1, progress="lines"),
}
ITERATION = {"spacemission": 512, "red_planet": 256}
GAMES = ["spacemission", "red_planet"]


def _flags(game: str, **over) -> list[str]:
    values = {"game": game, **TINY[game], **over}
    return [f"--{k.replace('_', '-')}={v}" for k, v in values.items()]


def _cli(*args, **kw) -> subprocess.Popen:
    """``spacemission train ARGS`` in a subprocess with Python's own SIGINT handler (a
    background job of a shell would ignore SIGINT)."""
    return subprocess.Popen([sys.executable, "-m", "spacemission_cli.main", "train", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL), **kw)


def _weights(path) -> dict:
    with np.load(path) as z:
        return {k: z[k] for k in z.files if k != "metadata"}


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


def _ckpt_step(run_dir) -> int:
    return int(torch.load(Path(run_dir) / "checkpoints" / "last.pt", weights_only=False)["sb3"]["num_timesteps"])


def _files(run_dir) -> dict:
    return {str(p.relative_to(run_dir)): p.read_bytes() for p in sorted(Path(run_dir).rglob("*")) if p.is_file()}


def _wait_for(path: Path, proc, timeout=240) -> None:
    deadline = time.time() + timeout
    while not path.exists() and proc.poll() is None and time.time() < deadline:
        time.sleep(0.05)
    assert path.exists(), proc.communicate()


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished tiny run of each game, with evaluations (every iteration but the first)."""
    out = {}
    for game in GAMES:
        run_dir = tmp_path_factory.mktemp(game) / "run"
        it = ITERATION[game]
        cfg = for_game(game, **{**TINY[game], "eval_every": 2 * it, "eval_games": 4,
                                "eval_opponents": "random,greedy", "final_eval_games": 4}, run_dir=str(run_dir))
        out[game] = (run_dir, train(cfg, argv=["--tiny"]))
    return out


# --- Ctrl-C and resume ---------------------------------------------------------------------

# The signal tests run `spacemission train` in subprocesses (10-30 s each, torch imported in each):
# the integration set (make test-integration, which CI runs after make test). SIGTERM stops through
# the same handler and checkpoint as Ctrl-C (lifecycle.Interrupt): that set checks its stop (exit
# 143, the checkpoint, the logs); resuming after it, the same resume as after Ctrl-C's checkpoint,
# is in the slow set (make test-slow)
@pytest.mark.integration
@pytest.mark.parametrize("game, sig, resume", [
    ("spacemission", signal.SIGINT, True), ("red_planet", signal.SIGINT, True),
    ("spacemission", signal.SIGTERM, False),
    pytest.param("spacemission", signal.SIGTERM, True, marks=pytest.mark.slow)])
def test_ctrl_c_stops_with_a_checkpoint_and_resume_continues_exactly(game, sig, resume, tmp_path):
    """Before: Ctrl-C printed a KeyboardInterrupt traceback (exit status -2) and left the
    checkpoint of up to --checkpoint-every steps earlier, without saying how to go on;
    SIGTERM (kill, a batch scheduler's stop) ended the process at once (-15), losing every
    step since the last checkpoint. Now the iteration in progress ends, a checkpoint is
    written, the command says how to resume and exits 130 (Ctrl-C) or 143 (SIGTERM);
    --resume then ends with the unbroken run's weights and logs (a constant learning rate:
    the interrupted run's budget, which sets the annealing, is larger)."""
    run_dir, it = tmp_path / "run", ITERATION[game]
    proc = _cli(*_flags(game, lr_final=1.0, checkpoint_every=10**6, snapshot_every=it), "--steps", "1000000",
                "--run-dir", str(run_dir))
    _wait_for(run_dir / "metrics.csv", proc)
    deadline = time.time() + 240  # into the PPO loop: the first iteration's rows are on disk
    while "train/value_loss" not in (run_dir / "metrics.csv").read_text() and time.time() < deadline:
        time.sleep(0.05)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=240)
    assert proc.returncode == 128 + sig, (out, err)
    assert "Traceback" not in err and "stopping at the end of this iteration" in err
    assert ("(Ctrl-C)" if sig == signal.SIGINT else "(SIGTERM)") in err
    stopped = _ckpt_step(run_dir)
    assert stopped % it == 0 and stopped >= it
    assert f"stopped at step {stopped:,}" in out and f"spacemission train --resume {run_dir}" in out
    assert max(read_metrics(run_dir)["train/value_loss"][0]) == stopped  # the logs reach the checkpoint
    assert not (run_dir / "final.npz").exists()
    if not resume:
        return

    end = stopped + it
    done = subprocess.run([sys.executable, "-m", "spacemission_cli.main", "train", "--resume", str(run_dir),
                           "--steps", str(end)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and f"done: {end:,} steps" in done.stdout, done.stderr
    unbroken = tmp_path / "unbroken"
    train(for_game(game, **{**TINY[game], "lr_final": 1.0, "checkpoint_every": 10**6, "snapshot_every": it,
                            "steps": end}, run_dir=str(unbroken)))
    assert _same(_weights(unbroken / "final.npz"), _weights(run_dir / "final.npz"))
    a, b = read_metrics(unbroken), read_metrics(run_dir)
    for key in ("train/value_loss", "games/ended", f"pool/self@{stopped}/p"):
        assert list(a[key][0]) == list(b[key][0]) and np.array_equal(a[key][1], b[key][1]), key
    assert json.loads((run_dir / "config.json").read_text())["resumed"][0]["step"] == stopped


# a second SIGTERM stops through the same stop-at-once as a second Ctrl-C and as SIGTERM in the
# warm start (the next test): in the slow set
@pytest.mark.integration
@pytest.mark.parametrize("sig", [signal.SIGINT, pytest.param(signal.SIGTERM, marks=pytest.mark.slow)])
def test_a_second_ctrl_c_stops_at_once_and_names_the_checkpoint(sig, tmp_path):
    """Before: a traceback (SIGTERM: killed at the first). Now: exit 130 (143 for SIGTERM)
    and the way on, from the last checkpoint."""
    run_dir = tmp_path / "run"
    # iterations of 8,192 steps (seconds): both signals land in the one after the checkpoint
    proc = _cli(*_flags("spacemission", n_steps=512, batch_size=4096, epochs=1, checkpoint_every=8192,
                        snapshot_every=8192), "--steps", "1000000", "--run-dir", str(run_dir))
    _wait_for(run_dir / "checkpoints" / "last.pt", proc)
    proc.send_signal(sig)
    time.sleep(0.2)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=240)
    assert proc.returncode == 128 + sig, (out, err)
    assert "Traceback" not in err
    assert f"continue from its last checkpoint ({run_dir}/checkpoints/last.pt) with: spacemission train " \
           f"--resume {run_dir}" in err
    assert _ckpt_step(run_dir) == 8192


@pytest.mark.integration
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_before_the_first_checkpoint_says_there_is_none(sig, tmp_path):
    """Interrupted in the warm start: before, a traceback (SIGTERM: killed without a word,
    -15); now exit 130 (143) saying that the run has no checkpoint, and --resume says how to
    start it afresh (exit 2)."""
    run_dir = tmp_path / "run"
    proc = _cli(*_flags("spacemission", bc_samples=10**7), "--run-dir", str(run_dir))
    _wait_for(run_dir / "config.json", proc)
    time.sleep(0.5)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 128 + sig and "Traceback" not in err, (proc.returncode, err)
    assert "has no checkpoint yet" in err and str(run_dir) in err
    res = subprocess.run([sys.executable, "-m", "spacemission_cli.main", "train", "--resume", str(run_dir)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert "no checkpoint at" in res.stderr and "Start it afresh" in res.stderr


def test_the_handler_leaves_an_ignored_signal_ignored_and_restores_the_defaults(tmp_path):
    """SIGINT and SIGTERM get the handler only where they have their default (a shell's
    background job ignores SIGINT: it stays ignored), and ``restore`` puts the defaults back."""
    from spacemission_training.lifecycle import Interrupt, Stopped, exit_status

    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        # SIGINT at its default, as in a terminal: pytest-xdist's workers (and a shell's background
        # job) start with it ignored, which the handler rightly leaves ignored
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        stop = Interrupt(tmp_path, lambda: 0)
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_IGN
        assert signal.getsignal(signal.SIGINT) == stop._handle
        stop.restore()
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        stop = Interrupt(tmp_path, lambda: 7)
        assert signal.getsignal(signal.SIGTERM) == stop._handle
        stop._handle(signal.SIGTERM, None)
        assert stop.requested and stop.exit_status == 143
        with pytest.raises(Stopped) as e:
            stop._handle(signal.SIGINT, None)  # the second signal: at once, named by its own number
        assert exit_status(e.value) == 130 and exit_status(KeyboardInterrupt()) == 130
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # restored by the second signal
    finally:
        for s, h in before.items():
            signal.signal(s, h)


def test_a_second_sigterm_swallowed_by_a_library_still_reads_as_sigterm(tmp_path):
    """Ray's ``ray.wait`` runs the handler itself and turns its Stopped into a plain
    KeyboardInterrupt: ``reraise_stopped`` names the second signal again (before, the RLlib
    trainer exited 130 after a second SIGTERM). Only where the second signal came."""
    from spacemission_training.lifecycle import Interrupt, Stopped, exit_status

    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        stop = Interrupt(tmp_path, lambda: 0)
        stop.reraise_stopped(KeyboardInterrupt())  # a Ctrl-C the handler never saw: left as it is
        stop._handle(signal.SIGINT, None)
        stop.reraise_stopped(KeyboardInterrupt())  # only the first signal came: left as it is
        with pytest.raises(Stopped):
            stop._handle(signal.SIGTERM, None)
        with pytest.raises(Stopped) as e:
            stop.reraise_stopped(KeyboardInterrupt())
        assert exit_status(e.value) == 143 and stop.exit_status == 130  # the first was Ctrl-C
        stop.reraise_stopped(Stopped(signal.SIGTERM))  # already named: the caller re-raises it
    finally:
        for s, h in before.items():
            signal.signal(s, h)


# --- resuming what cannot or need not be resumed -----------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_resuming_a_finished_run_says_so_and_changes_nothing(game, finished, capsys):
    """Before: it ran the end again: a second final evaluation, final.npz, summary.json and
    the curve rewritten, a 'resumed' entry, another TensorBoard file; 'done' as if trained."""
    run_dir, summary = finished[game]
    before = _files(run_dir)
    assert main(["--resume", str(run_dir)]) == 0
    out = capsys.readouterr().out
    assert f"already finished at step {summary['steps']:,}" in out and "--steps N" in out
    assert _files(run_dir) == before


@pytest.mark.parametrize("damage", ["truncated", "garbage", "not a checkpoint", "other game", "missing"])
def test_a_checkpoint_that_cannot_be_resumed_is_named_and_nothing_is_written(damage, finished, tmp_path, capsys):
    """Before: a traceback from torch or pickle (OSError, ValueError, RuntimeError building
    the network of the other game's checkpoint); now exit 2 with the file named."""
    import shutil

    run_dir = tmp_path / "run"
    src, _ = finished["spacemission"]
    shutil.copytree(src, run_dir)
    (run_dir / "summary.json").unlink()  # not finished: it would resume
    ckpt = run_dir / "checkpoints" / "last.pt"
    if damage == "truncated":
        ckpt.write_bytes(ckpt.read_bytes()[:5000])
    elif damage == "garbage":
        ckpt.write_bytes(b"garbage\n")
    elif damage == "not a checkpoint":
        torch.save({"policy": {}}, ckpt)
    elif damage == "other game":
        shutil.copy(finished["red_planet"][0] / "checkpoints" / "last.pt", ckpt)
    else:
        ckpt.unlink()
    before = _files(run_dir)
    assert main(["--resume", str(run_dir), "--steps", "100000"]) == 2
    err = capsys.readouterr().err
    assert shown_path(ckpt) in err and "Traceback" not in err  # cut as every path a message names
    if damage == "other game":
        assert "game 'red_planet' in the checkpoint, 'spacemission' in config.json" in err
    assert _files(run_dir) == before


def test_a_checkpoint_of_a_run_with_other_settings_is_refused(finished, tmp_path, capsys):
    """A config.json edited after the run started (lr here): before, the run went on with
    the new value silently; now the checkpoint (which keeps its run's configuration) refuses."""
    import shutil

    run_dir = tmp_path / "run"
    shutil.copytree(finished["spacemission"][0], run_dir)
    saved = json.loads((run_dir / "config.json").read_text())
    saved["config"]["lr"] = 0.1
    (run_dir / "config.json").write_text(json.dumps(saved))
    before = _files(run_dir)
    assert main(["--resume", str(run_dir), "--steps", "100000"]) == 2
    assert "lr 0.0002 in the checkpoint, 0.1 in config.json" in capsys.readouterr().err
    assert _files(run_dir) == before


def test_resume_takes_the_runs_own_flags_and_names_a_changed_one(finished, tmp_path, capsys):
    """The command that started the run with --resume added continues it (before: refused,
    as any flag but steps/stop_after_steps/progress was); a changed value is refused naming
    it and the saved value; a config file too; an RLlib folder or none is named."""
    run_dir, _ = finished["spacemission"]
    flags = [f for f in _flags("spacemission") if not f.startswith(("--eval", "--final"))]
    cfg, resume = parse_args([*flags, "--run-dir", str(run_dir) + "/", "--resume", str(run_dir), "--steps", "4096"])
    assert resume == str(run_dir) and cfg.steps == 4096 and cfg.eval_games == 4
    with pytest.raises(SystemExit):
        parse_args(["--resume", str(run_dir), "--lr", "0.1", "--seed", "0"])
    assert "got lr 0.1 (saved: 0.0002)" in capsys.readouterr().err
    conf = tmp_path / "c.toml"
    conf.write_text("seed = 0\nnum_envs = 16\n")
    assert parse_args(["--config", str(conf), "--resume", str(run_dir)])[0].num_envs == 16
    conf.write_text("num_envs = 32\n")
    with pytest.raises(SystemExit):
        parse_args(["--config", str(conf), "--resume", str(run_dir)])
    assert "num_envs 32 (saved: 16)" in capsys.readouterr().err
    rllib = tmp_path / "rllib"
    (rllib / "checkpoints").mkdir(parents=True)
    (rllib / "checkpoints" / "loop.json").write_text("{}")
    (rllib / "config.json").write_text(json.dumps({"config": {"num_env_runners": 1}}))
    for d, message in ((rllib, "is an RLlib run"), (tmp_path / "none", "no such directory")):
        with pytest.raises(SystemExit) as exc:
            parse_args(["--resume", str(d)])
        assert exc.value.code == 2 and message in capsys.readouterr().err


# --- the logs across a kill ------------------------------------------------------------------

def test_the_logs_reach_the_checkpoint_before_it_is_written(tmp_path, monkeypatch):
    """Before: the checkpoint was written before the step's metrics.csv rows and TensorBoard
    events were flushed, so a kill right after it lost them for good (resume keeps the rows
    up to the checkpoint's step), or left a row cut in half that the next rows were
    appended to."""
    from spacemission_training import checkpoint

    seen = []
    save = checkpoint.save

    def spy(path, model, world, loop):
        seen.append((int(model.num_timesteps), max(read_metrics(tmp_path / "run")["train/value_loss"][0])))
        return save(path, model, world, loop)

    monkeypatch.setattr(checkpoint, "save", spy)
    train(for_game("spacemission", **{**TINY["spacemission"], "steps": 1024}, run_dir=str(tmp_path / "run")))
    assert seen and all(step == logged for step, logged in seen)


def test_rows_a_kill_cut_short_are_dropped_on_resume(tmp_path):
    """Before: a row cut short ('5' of '512,...') or a blank line was kept (or crashed the
    purge), and read_metrics failed on the file."""
    (tmp_path / "metrics.csv").write_text("step,wall_s,key,value\n512,1.0,train/x,0.5\n\n1024,2.0,train/x,0.25\n5")
    log = RunLog(tmp_path, resume_step=512, tensorboard=False)
    log.log(1024, {"train/x": 0.75}, 3.0)
    log.close()
    m = read_metrics(tmp_path)
    assert list(m["train/x"][0]) == [512, 1024] and list(m["train/x"][1]) == [0.5, 0.75]


# --- outputs -----------------------------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_the_outputs_are_what_the_docs_say(game, finished):
    """final.npz plays the game at its player count through make_agent('ppo:PATH'); its
    metadata names the run; TensorBoard holds the documented scalars at the schedule's
    steps; the final evaluation is the arena's own result on the same deals."""
    run_dir, summary = finished[game]
    cfg = TINY[game]
    players = cfg.get("players", 2)
    it = ITERATION[game]
    for name in ("config.json", "metrics.csv", "final.npz", "learning_curve.png", "summary.json",
                 "checkpoints/last.pt"):
        assert (run_dir / name).is_file(), name
    agent = make_agent(f"ppo:{run_dir / 'final.npz'}", game=game)
    meta = agent.metadata
    assert (agent.game, meta["num_players"], meta["training"]["steps"]) == (game, players, summary["steps"])
    assert meta["training"]["config"]["seed"] == 0 and meta["training"]["command"].endswith("--tiny")
    res = run_arena([agent, "random"], num_players=players, games=4, seed=3, game=game, progress=False,
                    record=False, log=lambda m: None)
    assert res.agent(res.config["agents"][0]).forfeits == 0  # only legal moves

    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    acc = EventAccumulator(str(run_dir / "tb"))
    acc.Reload()
    tags = set(acc.Tags()["scalars"])
    for tag in ("train/policy_gradient_loss", "train/value_loss", "train/approx_kl", "train/clip_fraction",
                "train/entropy_loss", "time/steps_per_s", "games/random/score", "games/round_limit_share",
                "games/length", "pool/random/p", "eval/random/win_rate", "eval/greedy/ci_low",
                "final/greedy/win_rate"):
        assert tag in tags, tag
    assert [e.step for e in acc.Scalars("train/value_loss")] == [it, 2 * it, 3 * it]
    assert [e.step for e in acc.Scalars("eval/greedy/win_rate")] == [0, 2 * it]
    if players > 2:
        assert "eval/greedy/mean_rank" in tags

    arena = run_arena([PPOAgent.load(run_dir / "final.npz"), "greedy"], num_players=players, games=4,
                      seed=2024 + 1, game=game, progress=False, record=False, log=lambda m: None)
    me = arena.config["agents"][0]
    pair = arena.pair(me, "greedy")
    final = summary["final_eval"]
    assert (final["eval/greedy/win_rate"], final["eval/greedy/ci_low"], final["eval/greedy/ci_high"]) == \
        (pair.win_rate, pair.ci_low, pair.ci_high)


def test_progress_is_lines_when_stdout_is_not_a_terminal(monkeypatch, capsys):
    """Before: the choice followed stderr, so `spacemission train > log` from a terminal drew
    the rich bar into the log file (one cut line at the end) instead of progress lines."""

    class Tty:
        def isatty(self):
            return True

        def write(self, s):
            return len(s)

        def flush(self):
            pass

    monkeypatch.setattr(sys, "stderr", Tty())
    p = logs.Progress(1024, 0, enabled=None, every_s=0)
    assert not p.enabled
    p.update(512, "info")
    p.close()
    assert capsys.readouterr().out.startswith("step 512/1,024")
