"""What both trainers (train_ppo.py, rllib.py) do the same way in a run's life cycle: the
Ctrl-C handler, and whether a run folder holds a finished run (docs/training.md,
"Checkpoints and resume", "Stopping and resuming an RLlib run")."""
from __future__ import annotations

import json
import signal
import sys
import threading
from pathlib import Path

__all__ = ["Interrupt", "finished_step"]


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


class Interrupt:
    """Ctrl-C during a training loop: the first SIGINT asks the loop to stop at the end of the
    current iteration with a checkpoint; a second one stops at once (KeyboardInterrupt; the
    run resumes from its previous checkpoint). Only in the main thread, and only where
    SIGINT has Python's own handler (a shell's ignored SIGINT stays ignored)."""

    def __init__(self, run_dir: Path, step):
        self.requested, self.run_dir, self.step = False, run_dir, step
        self._installed = (threading.current_thread() is threading.main_thread()
                           and signal.getsignal(signal.SIGINT) is signal.default_int_handler)
        if self._installed:
            signal.signal(signal.SIGINT, self._handle)

    def _handle(self, signum, frame) -> None:
        if self.requested:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            raise KeyboardInterrupt
        self.requested = True
        print(f"\ninterrupted at step {self.step():,}: stopping at the end of this iteration with a checkpoint in "
              f"{self.run_dir / 'checkpoints'} (Ctrl-C again to stop at once, resuming from the previous checkpoint)",
              file=sys.stderr, flush=True)

    def restore(self) -> None:
        if self._installed:
            signal.signal(signal.SIGINT, signal.default_int_handler)
            self._installed = False
