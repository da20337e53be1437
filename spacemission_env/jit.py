"""The one numba decorator of the project, and its on-disk cache policy.

Every compiled function of the project (the engine's kernels, the bots' kernels) is
declared with :func:`njit` from this module, never with ``numba.njit(cache=True)``.

Why: numba's disk cache keys a compiled function on its own bytecode and on the
modification stamp of the *file that defines it*, nothing else. Two things a kernel takes
from other modules are frozen into the cached machine code without being watched:

* numba functions of another module that it calls (they are compiled inline), and
* module globals it reads (``from ._bot_features import F_SHIP``, ``JOKER``,
  ``DEV_PAIRS`` arrays ...), which become compile-time constants.

So after an edit of ``components.py`` or ``_bot_features.py`` a cached kernel in another
file would keep running the old code or the old offsets, silently. That is the reason
earlier code copied helpers into every file that called them.

The policy: :func:`njit` compiles with the disk cache on, and the cache entry's source
stamp is numba's own stamp of the defining file **plus a SHA-256 of the source of every
project module that file imports, transitively** (found from its ``import`` statements),
and of the component data file (``data/components.json``) that ``components.py`` reads.
Any change to any of them makes every dependent cache entry stale, and numba compiles
afresh on the next call (and overwrites the entry). A kernel may therefore call numba
helpers of any project module and read any project constant, as long as it imports them
with a plain ``import`` / ``from ... import`` statement at module level.

Cost: reading the import statements and hashing the sources once per process, about
0.1-0.3 s for all the project's kernel modules (docs/engine.md, "First use"); the compile
itself is unchanged.
``NUMBA_CACHE_DIR`` and ``NUMBA_DISABLE_JIT`` work as with plain numba: with the latter the
kernels run as plain Python with the compiled results (tests/env/engine/test_no_jit.py).

Where the entries go is numba's choice, per source file: ``NUMBA_CACHE_DIR`` when it is set,
else ``__pycache__`` beside the source when that folder is writable, else numba's folder in
the user's cache (e.g. ``~/.cache/numba``: a read-only site-packages). Where none is writable
(a read-only install run with an unwritable home, as in some containers) plain numba's
``cache=True`` fails at import (numba issue 4908); :func:`njit` compiles without the disk
cache instead, and says so once (:data:`NO_CACHE_MESSAGE`). :func:`cache_folders` tells
where this process's kernels are cached (``spacemission warmup`` prints it).

One more difference from ``numba.njit``: a call from one compiled function to another
with an integer constant argument (``shuffle(rng, b, pile, 12)``) compiles the callee for
int64, not for the literal (``Literal[int](12)``), as numba already does for a call from
Python. numba's default compiles one specialisation per distinct constant, each a full
compile of the callee (``engine_common.shuffle`` for the constants 0, 12 and 60 besides
its plain versions in a Space Mission step; ``_onehot_value`` eight times in the arena).
A boolean constant (``ability_row(..., True)``) keeps its literal: it is a flag that
numba's branch pruning uses to drop the code it turns off, and compiling the callee
whole in its callers made Red Planet's first step 15-20% slower to compile. The results
are the same, and so was the speed of the engines and bots (docs/engine.md, "First call
(compile)"). A callee whose typing needs the constant (a tuple indexed by it) still gets
the literal: the plain compile fails to type and the literal one follows.
"""
from __future__ import annotations

import ast
import functools
import hashlib
import importlib.util
import inspect
import os
import warnings

import numba
from numba.core import errors, types
from numba.core.caching import FunctionCache, IndexDataCacheFile

# the project's top-level packages: their numba functions are the project's kernels (the
# cache policy here, warmup.CompileLog's count, benchmarks/compile_time.py)
PROJECT_PACKAGES = ("spacemission_env", "spacemission_agents", "spacemission_training")


def is_project_module(name: str) -> bool:
    """Whether module ``name`` ("spacemission_env.engine_common", ...) is one of the project's."""
    return name.split(".")[0] in PROJECT_PACKAGES

_DATA_FILES = {"spacemission_env.space_mission.components": ("data", "components.json"),
               "spacemission_env.red_planet.components": ("data", "red_planet.json")}


@functools.lru_cache(maxsize=None)
def _package_root(pkg: str) -> str | None:
    spec = importlib.util.find_spec(pkg)
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.realpath(list(spec.submodule_search_locations)[0])


def _module_name(path: str) -> str | None:
    """The project module a source file is, from the packages' locations."""
    path = os.path.realpath(path)
    for pkg in PROJECT_PACKAGES:
        root = _package_root(pkg)
        if root is not None and path.startswith(root + os.sep):
            parts = os.path.relpath(path, root)[:-3].split(os.sep)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            return ".".join([pkg, *parts])
    return None


def _source(name: str) -> str | None:
    """The source file of project module ``name`` (None if it is no module: a function or
    constant imported by name), found on disk without importing anything."""
    pkg, *parts = name.split(".")
    root = _package_root(pkg) if pkg in PROJECT_PACKAGES else None
    if root is None:
        return None
    base = os.path.join(root, *parts)
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(candidate):
            return candidate
    return None


@functools.lru_cache(maxsize=None)
def _imports(name: str, path: str) -> frozenset:
    """Project modules named by the module's top-level import statements (numba reads
    only module globals, which these statements bind)."""
    with open(path, "rb") as f:
        tree = ast.parse(f.read(), path)
    is_pkg = os.path.basename(path) == "__init__.py"
    package = name if is_pkg else name.rpartition(".")[0]
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            # (a `from x import y` without dots always names its module: node.module is None only
            # in `from . import y`)
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) if node.level \
                else (node.module or "")
            # `from pkg import module` depends on that module; `from module import name` on the module
            names = [f"{base}.{a.name}" if _source(f"{base}.{a.name}") else base for a in node.names]
        else:
            continue
        found.update(n for n in names if is_project_module(n))
    return frozenset(found)


def dependency_files(path: str) -> list[str]:
    """The source file, every project module it imports transitively, and the data files
    those modules read (sorted paths): what a cache entry of a kernel in ``path`` depends on."""
    todo: list[tuple[str | None, str | None]] = [(_module_name(path), path)]
    seen: dict[str, str | None] = {}
    while todo:
        name, src = todo.pop()
        if src is None or src in seen:
            continue
        seen[src] = name
        if name is not None:
            todo.extend((dep, _source(dep)) for dep in _imports(name, src))
    files = set(seen)
    for src, name in seen.items():
        if name in _DATA_FILES:
            files.add(os.path.join(os.path.dirname(src), *_DATA_FILES[name]))
    return sorted(files)


@functools.lru_cache(maxsize=None)
def dependency_digest(path: str) -> str:
    """SHA-256 over the contents of :func:`dependency_files` of ``path`` (each named by its real
    path: a kernel reached through a symlinked folder shares its cache index, beside the real
    sources, with the one reached directly, so both must read the same stamp, else each use
    resets the other's index and every kernel compiles again)."""
    h = hashlib.sha256()
    for f in sorted({os.path.realpath(f) for f in dependency_files(path)}):
        h.update(f.encode() + b"\0" + _file_digest(f) + b"\0")
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def _file_digest(path: str) -> bytes:
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


NO_CACHE_MESSAGE = ("spacemission_env: numba finds no writable folder for its disk cache (beside the sources, "
                    "NUMBA_CACHE_DIR or the user's cache folder): every process compiles the kernels again; "
                    "set NUMBA_CACHE_DIR to a writable folder")
_kernels: list = []  # every dispatcher made by njit, for cache_folders
_no_disk_cache = False  # set once a kernel was made without the disk cache (_disk_cache)


class _DependencyCache(FunctionCache):
    """numba's FunctionCache whose index is stale once any dependency's source changes."""

    def __init__(self, py_func):
        super().__init__(py_func)
        stamp = (self._impl.locator.get_source_stamp(), dependency_digest(inspect.getfile(py_func)))
        self._cache_file = IndexDataCacheFile(self._cache_path, self._impl.filename_base, stamp)


def _plain(t):
    """int64 for an integer constant; a boolean constant stays (module docstring)."""
    return types.unliteral(t) if isinstance(t, types.IntegerLiteral) else t


def _plain_call_template(disp) -> None:
    """Make calls from compiled code compile ``disp`` for the plain type of an integer
    constant argument (module docstring): numba asks the callee's ``get_call_template``
    for a template (compiling it if needed) with the caller's argument types, literals
    included."""
    call_template = disp.get_call_template

    def get_call_template(args, kws):
        plain = tuple(_plain(a) for a in args)
        plain_kws = {k: _plain(v) for k, v in kws.items()}
        if plain != tuple(args) or plain_kws != kws:
            try:
                return call_template(plain, plain_kws)
            except errors.TypingError:
                pass  # the body needs the constant itself: compile for the literal, as numba would
        return call_template(args, kws)

    disp.get_call_template = get_call_template


def njit(fn=None, **options):
    """``numba.njit`` with the project's dependency-aware disk cache (module docstring).
    Use as ``@njit`` or ``@njit(parallel=True, ...)``; ``cache`` is not an option here."""
    if "cache" in options:
        raise TypeError("njit: the cache policy is fixed (spacemission_env.jit); do not pass cache=")

    def wrap(f):
        disp = numba.njit(**options)(f)
        if hasattr(disp, "enable_caching"):  # absent under NUMBA_DISABLE_JIT
            disp._cache = _disk_cache(disp)
            _plain_call_template(disp)
            _kernels.append(disp)
        return disp

    return wrap if fn is None else wrap(fn)


def _disk_cache(disp):
    """The dependency-aware cache, or numba's no-op cache where numba finds no writable
    folder (module docstring): a warning once per process instead of an import error."""
    try:
        return _DependencyCache(disp.py_func)
    except RuntimeError as e:
        if "no locator available" not in str(e):
            raise
        global _no_disk_cache
        if not _no_disk_cache:
            _no_disk_cache = True
            warnings.warn(NO_CACHE_MESSAGE, RuntimeWarning, stacklevel=2)
        return disp._cache  # numba.njit without cache=True: its NullCache


def caching_disabled() -> bool:
    """True once a kernel of this process was made without the disk cache (no writable folder)."""
    return _no_disk_cache


def cache_folders() -> list[str]:
    """Where the disk cache of the kernels made so far lives (module docstring):
    "__pycache__ beside the sources", the folder (NUMBA_CACHE_DIR's or the user's cache
    folder for numba), or "none (compiled in every process)"; one entry per distinct place."""
    places = []
    for disp in _kernels:
        cache = disp._cache
        if not isinstance(cache, _DependencyCache):
            place = "none (compiled in every process)"
        elif cache.cache_path == os.path.join(os.path.dirname(inspect.getfile(disp.py_func)), "__pycache__"):
            place = "__pycache__ beside the sources"
        else:
            place = os.path.dirname(cache.cache_path)  # numba adds a subfolder per source folder
        if place not in places:
            places.append(place)
    return places
