"""The files the agents' networks are saved in (PPO policies, ppo.py; value nets, value.py):
one ``.npz`` each, numpy arrays plus a JSON string of metadata under ``"metadata"``
(``numpy.load(allow_pickle=False)`` reads it). What every such file is checked for when read
(readable, not too large, its arrays' names and values, its game, its format version, its
observation layout) is here, once for both kinds; what each kind holds is in its module.
Also ``one_blas_thread``, the BLAS setting both kinds' forward passes run under."""
from __future__ import annotations

import contextlib
import hashlib
import json
import threading
from importlib import resources
from pathlib import Path

import numpy as np

from spacemission_env.checks import count_text, cut, cut_long_words, shown, shown_path
from spacemission_env.games import DEFAULT_GAME, GAMES, GameConfig, get_game
from spacemission_env.json_input import parse_json

__all__ = ["MAX_FILE_BYTES", "check_dense_params", "check_format_version", "check_game_fields",
           "check_observation_layout", "layout_hash", "observation_layout", "one_blas_thread", "package_version",
           "plain_value", "read_npz_file", "save_npz_file", "shipped_data_path"]

MAX_FILE_BYTES = 1 << 30  # uncompressed arrays of a model or value file (the shipped ones hold under 5 MB)

_BLAS: list = []  # the threadpoolctl controller, made on first use
_BLAS_HELD = threading.local()  # .held: this thread is inside one_blas_thread already


@contextlib.contextmanager
def one_blas_thread():
    """A context in which numpy's BLAS uses one thread. These products are small: with
    OpenBLAS's default threads on a busy 2-core machine a 256-row forward pass took 62 ms
    instead of 2.5 ms (its threads spin against each other). Process-wide settings are
    left alone outside the call; without threadpoolctl this does nothing. Nested uses cost
    nothing (a search wraps its thousands of forward passes in one: setting the limit costs
    about 25 microseconds, a tenth of a small forward pass)."""
    if not _BLAS:
        try:
            from threadpoolctl import ThreadpoolController

            _BLAS.append(ThreadpoolController())
        except Exception:  # noqa: BLE001 - optional: only speed depends on it
            _BLAS.append(None)
    if _BLAS[0] is None or getattr(_BLAS_HELD, "held", False):
        yield
        return
    with _BLAS[0].limit(limits=1, user_api="blas"):
        _BLAS_HELD.held = True
        try:
            yield
        finally:
            _BLAS_HELD.held = False


def plain_value(value) -> str:
    """A metadata value for a message, as it read before without quotes when a str (a
    version, a hash), cut (checks.cut); anything else as checks.shown shows it (an int past
    str's digit limit included)."""
    return cut(value) if isinstance(value, str) else shown(value)


def read_npz_file(p: Path, missing: str, kind: str, what: str) -> tuple[dict, dict]:
    """(arrays, metadata) of a model-like .npz (arrays plus a JSON string under
    "metadata"); ValueError for a missing file ("no {missing} at ..."), an unreadable one
    or one without metadata ("not {what}")."""
    if p.is_dir():
        raise ValueError(f"{shown_path(p)} is a directory, not a {missing}")
    if not p.is_file():
        raise ValueError(f"no {missing} at {shown_path(p)}")
    try:
        with np.load(p, allow_pickle=False) as z:
            if not hasattr(z, "files"):  # a single .npy array, not an .npz archive
                raise ValueError("a .npy array, not an .npz archive")
            if "metadata" not in z.files:
                arrays = None
            else:
                size = sum(info.file_size for info in z.zip.infolist())
                if size > MAX_FILE_BYTES:
                    raise ValueError(f"its arrays hold {size:,} bytes uncompressed, more than a model may "
                                     f"({MAX_FILE_BYTES:,})")
                arrays = {k: z[k] for k in z.files}
    except Exception as exc:  # noqa: BLE001 - any unreadable file means the same thing
        raise ValueError(f"{shown_path(p)} is not a readable .npz {kind} ({type(exc).__name__}: "
                         f"{cut_long_words(str(exc))})") from exc
    if arrays is None:
        raise ValueError(f"{shown_path(p)} has no metadata; not {what} (a training checkpoint or an SB3 .zip is not a "
                         f"model file: export the model, e.g. a run's final.npz)")
    text = np.asarray(arrays.pop("metadata"))
    if text.ndim != 0 or text.dtype.kind != "U":
        raise ValueError(f"{shown_path(p)}: its metadata is not a JSON string (dtype {text.dtype}, shape {text.shape})")
    try:
        meta = parse_json(str(text))
    except ValueError as exc:  # "not valid JSON: ..."
        raise ValueError(f"{shown_path(p)}: its metadata is {cut_long_words(str(exc))}") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{shown_path(p)}: its metadata must be a JSON object, got {type(meta).__name__}")
    return arrays, meta


def check_dense_params(params: dict, where: str, extra: tuple[str, ...] = ()) -> int:
    """The number of dense layers of ``params`` (``active``, ``scale``, ``w0, b0, ...`` and
    the names in ``extra``); ValueError naming an array of another name (a stray ``b3``,
    ``foo``), an ``active`` of non-integers (0.5 would be read as 0), or weights that are
    not finite real numbers (NaN weights make every logit NaN: the first legal action is
    played whatever the game), nor within float32's range (the network computes in float32)."""
    n = sum(1 for k in params if k.startswith("w"))
    known = {"active", "scale", *extra, *(f"{c}{i}" for i in range(n) for c in "wb")}
    unknown = sorted(set(params) - known)
    if unknown:
        raise ValueError(f"{where} parameters hold unknown arrays {unknown} (expected active, scale, "
                         f"{''.join(e + ', ' for e in extra)}w0, b0, ..., w{n - 1}, b{n - 1})")
    for k, v in params.items():
        if k == "active":
            if v.dtype.kind not in "iu":
                raise ValueError(f"{where} parameter active must hold integer feature indices, got dtype {v.dtype}")
        elif v.dtype.kind not in "fiu":
            raise ValueError(f"{where} parameter {k} must hold real numbers, got dtype {v.dtype}")
        elif not np.isfinite(v).all():
            raise ValueError(f"{where} parameter {k} holds non-finite values (NaN or infinity)")
        elif v.size and np.abs(v).max() > np.finfo(np.float32).max:  # read as float32: infinity
            raise ValueError(f"{where} parameter {k} holds values beyond float32's range (up to "
                             f"{float(np.abs(v).max()):.3g}), which become infinity when read")
    return n


def check_game_fields(meta: dict, where: str) -> None:
    """ValueError unless ``meta`` names a game of this package (a string; files without one
    are Space Mission's) and a configuration of it (num_players, rules, max_rounds, as
    GameConfig checks them): bind compares them with the game played."""
    game = meta.get("game", DEFAULT_GAME)
    if not isinstance(game, str) or game not in GAMES:
        raise ValueError(f"{where} is a model of game {shown(game)}, unknown to this package ({sorted(GAMES)})")
    missing = [k for k in ("num_players", "rules", "max_rounds") if meta.get(k) is None]
    if missing:
        raise ValueError(f"{where}: its metadata lacks {', '.join(missing)} (the game it was made for)")
    try:
        GameConfig(meta["num_players"], meta["rules"], meta["max_rounds"], game=game)
    except ValueError as exc:
        raise ValueError(f"{where}: its metadata names a configuration its game does not have: "
                         f"{cut_long_words(str(exc))}") from None


def check_format_version(meta: dict, where: str, newest: int) -> None:
    """ValueError unless ``meta["version"]``, the version of the file format (not of the
    environment: docs/versioning.md), is a whole number in ``1..newest``: a file written by a
    newer package may carry metadata or arrays whose meaning this one does not know, and
    would be read as if they were absent (every file this package has written records it)."""
    v = meta.get("version")
    if isinstance(v, bool) or not isinstance(v, int) or v < 1:
        raise ValueError(f"{where}: its metadata's version (of the file format) must be a whole number from 1, "
                         f"got {shown(v)}")
    if v > newest:
        raise ValueError(f"{where} is of format version {count_text(v)}, newer than this package reads (1..{newest}; "
                         f"package {package_version()}, file made with {plain_value(meta.get('package_version'))}); upgrade "
                         f"spacemission_env")


def save_npz_file(path, metadata: dict, params: dict) -> Path:
    """Write ``params`` and ``metadata`` (a JSON string) to ``path`` (.npz, compressed): the
    format read_npz_file reads."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(p, metadata=np.array(json.dumps(metadata)), **params)
    return p


def check_observation_layout(meta: dict, where: str, made: str = "trained", remedy: str = "retrain it") -> None:
    """ValueError unless ``meta``'s observation type, size and layout hash are this
    package's for its game (a file made for another layout would read the wrong features)."""
    game = meta.get("game", DEFAULT_GAME)
    encoding = get_game(game).encoding
    otype = meta.get("observation_type")
    if not isinstance(otype, str) or otype not in encoding.OBSERVATION_TYPES:
        raise ValueError(f"{where} uses observation_type {shown(otype)}, unknown to this package "
                         f"({', '.join(encoding.OBSERVATION_TYPES)})")
    want = (get_game(game).description.observation_size(otype), layout_hash(otype, game))
    have = (meta.get("observation_size"), meta.get("observation_layout_hash"))
    if have != want:
        raise ValueError(f"{where} was {made} on a different {otype!r} observation layout (size {plain_value(have[0])}, "
                         f"layout hash {plain_value(have[1])}) than this package's (size {want[0]}, hash {want[1]}; package "
                         f"{package_version()}, file made with {plain_value(meta.get('package_version'))}); {remedy}")


def shipped_data_path(filename: str, what: str) -> Path:
    """The package data file ``filename`` (spacemission_agents/data); ValueError naming
    ``what`` when the installation lacks it."""
    path = Path(str(resources.files("spacemission_agents") / "data" / filename))
    if not path.is_file():
        raise ValueError(f"the shipped {what} is missing ({shown_path(path)}); reinstall the package")
    return path


def package_version() -> str:
    """The running spacemission_env's version: its ``__version__``, from which the installed
    metadata is built (pyproject.toml), so a plain checkout reports it too."""
    import spacemission_env

    return spacemission_env.__version__


def observation_layout(observation_type: str, game: str = DEFAULT_GAME) -> list:
    """The game's ``encoding.observation_layout(observation_type)``: (name, start, stop,
    meaning) per block, what a saved model's layout hash is made of; ValueError naming the
    missing piece for a game whose encoding has none (docs/games.md)."""
    g = get_game(game)
    fn = getattr(g.encoding, "observation_layout", None)
    if not callable(fn):
        raise ValueError(f"a PPO model of {g.description.title} ({g.name!r}) needs its encoding's "
                         f"observation_layout(observation_type) (named blocks, spacemission_env/obs_layout.py; "
                         f"docs/games.md), which {getattr(g.encoding, '__name__', 'its encoding')} does not have")
    return fn(observation_type)


def layout_hash(observation_type: str, game: str = DEFAULT_GAME) -> str:
    """sha256 (first 16 hex digits) of the block names and offsets of the game's observation
    layout: it changes whenever a block is added, removed, resized or moved."""
    blocks = [[name, start, stop] for name, start, stop, _ in observation_layout(observation_type, game)]
    return hashlib.sha256(json.dumps(blocks).encode()).hexdigest()[:16]
