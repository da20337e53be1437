"""One line on stderr the first time this process compiles an engine kernel.

numba compiles a kernel at its first call unless it loads from the on-disk cache
(``__pycache__``, or ``NUMBA_CACHE_DIR``); a cold start takes tens of seconds in
silence. numba fires its "numba:compile" event only on a cache miss (a load from
the cache fires none), so the notice appears exactly when compilation happens.
"""
from __future__ import annotations

import sys

from numba.core import event

MESSAGE = ("spacemission_env: compiling the engine's numba kernels (first use only, typically 10-30 s; "
           "later runs load them from the numba cache)...")


class CompileNotice(event.Listener):
    """Prints MESSAGE once, at the first compile of a function of this package."""

    def __init__(self, stream=None):
        self.stream = stream
        self.shown = False

    def on_start(self, ev: event.Event) -> None:
        if self.shown:
            return
        func = getattr(ev.data.get("dispatcher"), "py_func", None)
        if getattr(func, "__module__", "").startswith("spacemission_env."):
            self.shown = True
            print(MESSAGE, file=self.stream or sys.stderr, flush=True)

    def on_end(self, ev: event.Event) -> None:
        pass


NOTICE = CompileNotice()
event.register("numba:compile", NOTICE)
