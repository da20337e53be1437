"""What both trainers (train_ppo.py, rllib.py) do the same way in a run's life cycle: the
Ctrl-C and SIGTERM handler, whether a run folder holds a finished run, and the commands a
model's metadata records (docs/training.md,
"Checkpoints and resume", "Stopping and resuming an RLlib run")."""
from __future__ import annotations

import json
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

from spacemission_env.checks import shown, shown_path

__all__ = ["ALLOW_VERSION_CHANGE", "Interrupt", "Stopped", "add_version_change_flag", "check_resume_env_id", "env_id",
           "exit_status", "finished_step", "record_resume", "run_commands", "sigterm_stops_at_once"]

ALLOW_VERSION_CHANGE = "--allow-version-change"


def env_id(game: str) -> str:
    """The registry id of ``game``'s environment as this package plays it (``"SpaceMission-v3"``:
    its game description's ``env_id``), which a run's config.json and its models record."""
    from spacemission_env.games import get_game

    return get_game(game).description.env_id


def record_resume(saved: dict, game: str, **entry) -> dict:
    """``saved`` (a run's config.json) with a resume recorded: ``entry`` (its command, step,
    ...) appended to ``resumed`` with the ``env_id`` it goes on with, and ``previous_env_id``
    (null: unknown) where the run recorded another or none; the run's ``env_id`` becomes this
    package's, which the next resume checks."""
    current = env_id(game)
    before = saved.get("env_id")
    item = {**entry, "env_id": current}
    if before != current:
        item["previous_env_id"] = before
    saved["env_id"] = current
    saved.setdefault("resumed", []).append(item)
    return saved


def add_version_change_flag(ap) -> None:
    """Both trainers' ``--allow-version-change`` (:func:`check_resume_env_id`)."""
    ap.add_argument(ALLOW_VERSION_CHANGE, action="store_true",
                    help="with --resume: continue a run started on another version of the environment (its "
                         "config.json's env_id; the rewards or rules differ: docs/versioning.md) on this package's")


def check_resume_env_id(ap, run_dir: str, game: str, allow: bool) -> None:
    """What ``--resume`` says of the environment version a run recorded (``env_id`` in
    ``run_dir/config.json``, written since SpaceMission-v3) against this package's for its
    ``game``: a usage error (``ap.error``) naming both where they differ, unless ``allow``
    (``--allow-version-change``: a note); a one-line warning on stderr where the run recorded
    none (its version is unknown). docs/training.md, "Checkpoints and resume"."""
    path = Path(run_dir) / "config.json"
    try:
        record = json.loads(path.read_text())
    except (OSError, ValueError):  # the resume's own checks have read it: nothing to add here
        return
    current = env_id(game)
    recorded = record.get("env_id") if isinstance(record, dict) else None
    if recorded is None:
        print(f"warning: --resume: {shown_path(run_dir)}'s config.json records no env_id (a run started before runs "
              f"recorded it): the environment version it trained on is unknown; it goes on as {current}",
              file=sys.stderr)
        return
    if not isinstance(recorded, str) or not recorded:
        ap.error(f"--resume: {shown_path(path)}: env_id must be an environment id such as {current!r}, got "
                 f"{shown(recorded)}")
    if recorded == current:
        return
    if allow:
        print(f"note: --resume: the run in {shown_path(run_dir)} was trained on {shown(recorded)}; it goes on as "
              f"{current} ({ALLOW_VERSION_CHANGE}): its results before and after are not comparable (docs/versioning.md)",
              file=sys.stderr)
        return
    ap.error(f"--resume: the run in {shown_path(run_dir)} was trained on {shown(recorded)}, and this package's {game} is "
             f"{current}: their rewards or rules differ (docs/versioning.md: results and trained agents are comparable "
             f"only within one version); start a new run, or pass {ALLOW_VERSION_CHANGE} to continue this one on "
             f"{current}")


def run_commands(run_dir: Path, command: list[str]) -> dict:
    """What ``final.npz``'s ``metadata["training"]`` says of how the run was started:
    ``command``, the command that started it, and ``resumed``, each resume's (where there
    were any), from ``run_dir/config.json``; ``command`` (this process's) where that file
    cannot be read. A resumed run's own command alone (``--resume RUN_DIR --steps N``) names
    neither the game nor any option of the run."""
    try:
        saved = json.loads((Path(run_dir) / "config.json").read_text())
        started = saved.get("command") or command
        out: dict[str, str | list[str]] = {"command": " ".join(started)}
        if saved.get("resumed"):
            out["resumed"] = [" ".join(r["command"]) for r in saved["resumed"]]
        return out
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return {"command": " ".join(command)}


def finished_step(run_dir: Path, step: int, steps: int) -> int | None:
    """The step a finished run ended at (its summary.json written at the checkpoint's step,
    which reaches ``steps``), or None when the run has work left: an unfinished one, one
    killed before its end was written, or one given a larger ``steps`` to extend it."""
    if step < steps:
        return None
    try:
        summary = json.loads((Path(run_dir) / "summary.json").read_text())
    except (OSError, ValueError):
        return None
    return step if isinstance(summary, dict) and summary.get("steps") == step else None


class Stopped(KeyboardInterrupt):
    """A second signal during a training loop, or SIGTERM before it: stop at once (the run
    resumes from its previous checkpoint, if it has one). ``signum``: the signal that
    stopped it (``exit_status``: 128 + it)."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _stop_now(signum, frame) -> None:
    raise Stopped(signum)


@contextmanager
def sigterm_stops_at_once():
    """Within it, SIGTERM stops at once as Ctrl-C does (:class:`Stopped`, exit status 143)
    where it would kill the process without a word: for the work before a training loop
    (the warm start), which has no iteration to finish. Only in the main thread and where
    SIGTERM has the system's default handler; :class:`Interrupt` takes over from it."""
    if threading.current_thread() is not threading.main_thread() or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, _stop_now)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def exit_status(exc_or_signum) -> int:
    """The shell's status for a run stopped by a signal: 128 + its number (130 for Ctrl-C,
    143 for SIGTERM); a plain KeyboardInterrupt is Ctrl-C's."""
    signum = getattr(exc_or_signum, "signum", exc_or_signum)
    return 128 + (signum if isinstance(signum, int) else signal.SIGINT)


class Interrupt:
    """Ctrl-C (SIGINT) or SIGTERM (``kill``, a batch scheduler's or a container's stop)
    during a training loop: the first one asks the loop to stop at the end of the current
    iteration with a checkpoint (``requested``; ``signum`` says which); a second one, of
    either kind, stops at once (:class:`Stopped`, a KeyboardInterrupt; the run resumes from
    its previous checkpoint). Only in the main thread, and only for a signal that has its
    default handler (Python's for SIGINT, the system's, :func:`sigterm_stops_at_once`'s or
    Ray's driver's, for SIGTERM): an
    ignored signal, a shell's ignored SIGINT say, stays ignored. ``restore`` puts the
    handlers back."""

    DEFAULTS = {signal.SIGINT: signal.default_int_handler, signal.SIGTERM: signal.SIG_DFL}

    def __init__(self, run_dir: Path, step):
        self.requested, self.run_dir, self.step = False, run_dir, step
        self.signum: int | None = None  # the first signal, once it came
        self.stopped_by: int | None = None  # the second signal, once it came
        self._previous = {}  # signal -> the handler put back by restore()
        if threading.current_thread() is threading.main_thread():
            for signum in self.DEFAULTS:
                handler = signal.getsignal(signum)
                if self._takes_over(signum, handler):
                    signal.signal(signum, self._handle)
                    self._previous[signum] = handler

    @classmethod
    def _takes_over(cls, signum, handler) -> bool:
        if handler is cls.DEFAULTS[signum] or handler is _stop_now:
            return True
        # ray.init() gives the driver a SIGTERM handler that only exits (sys.exit, which then
        # aborts inside Ray's C++ core): the same end as the default, without the checkpoint
        return (signum == signal.SIGTERM and getattr(handler, "__module__", "").startswith("ray.")
                and getattr(handler, "__qualname__", "").endswith("sigterm_handler"))

    def _handle(self, signum, frame) -> None:
        name = "Ctrl-C" if signum == signal.SIGINT else signal.Signals(signum).name
        if self.requested:
            self.restore()
            self.stopped_by = signum
            raise Stopped(signum)
        self.requested, self.signum = True, signum
        print(f"\ninterrupted ({name}) at step {self.step():,}: stopping at the end of this iteration with a checkpoint "
              f"in {self.run_dir / 'checkpoints'} (Ctrl-C or SIGTERM again to stop at once, resuming from the "
              f"previous checkpoint)", file=sys.stderr, flush=True)

    def reraise_stopped(self, exc: BaseException) -> None:
        """For a loop's ``except KeyboardInterrupt as exc``: raises :class:`Stopped` naming the
        second signal where a library turned it into a plain KeyboardInterrupt (Ray's
        ``ray.get``/``ray.wait`` do, in the driver: a second SIGTERM would read as Ctrl-C, exit
        status 130); returns otherwise, for the caller to re-raise ``exc``."""
        if self.stopped_by is not None and not isinstance(exc, Stopped):
            raise Stopped(self.stopped_by) from None

    @property
    def exit_status(self) -> int:
        """128 + the signal that asked the loop to stop (130: Ctrl-C, 143: SIGTERM)."""
        return exit_status(self.signum)

    def restore(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous = {}
