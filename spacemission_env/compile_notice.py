"""One line on stderr the first time this process compiles a kernel of the engines or the bots.

numba compiles a kernel at its first call unless it loads from the on-disk cache
(``NUMBA_CACHE_DIR``, ``__pycache__`` or the user's cache folder: jit.py); a cold start
takes tens of seconds in silence. ``spacemission warmup`` (``make install`` runs it) compiles them all up front
(spacemission_env/warmup.py); it prints its own progress and sets this notice as shown.
numba fires its "numba:compile" event only on a cache miss (a load from
the cache fires none), so the notice appears exactly when compilation happens.
"""
from __future__ import annotations

import sys

from numba.core import event

# the figures: docs/engine.md, "First call (compile)" (7-19 s of CPU for one game's environments, 20-30 s with the bots)
MESSAGE = ("spacemission_env: compiling the numba kernels (first use only, typically 10-40 s; "
           "later runs load them from the numba cache; `spacemission warmup` compiles them all at once)...")
# where numba found no writable cache folder (jit.NO_CACHE_MESSAGE, warned just before), nothing is kept
MESSAGE_UNCACHED = ("spacemission_env: compiling the numba kernels (typically 10-40 s; in every process, "
                    "since there is no numba cache: set NUMBA_CACHE_DIR to a writable folder)...")


class CompileNotice(event.Listener):
    """Prints MESSAGE once, at the first compile of a function of this package or of the
    bots' (spacemission_agents: they compile on their own when the engine is cached)."""

    def __init__(self, stream=None):
        self.stream = stream
        self.shown = False

    def on_start(self, ev: event.Event) -> None:
        if self.shown:
            return
        func = getattr(ev.data.get("dispatcher"), "py_func", None)
        if getattr(func, "__module__", "").startswith(("spacemission_env.", "spacemission_agents.")):
            self.shown = True
            from .jit import caching_disabled

            print(MESSAGE_UNCACHED if caching_disabled() else MESSAGE, file=self.stream or sys.stderr, flush=True)

    def on_end(self, ev: event.Event) -> None:
        pass


NOTICE = CompileNotice()
event.register("numba:compile", NOTICE)
