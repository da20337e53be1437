"""What every game's fast batched engine shares (game-neutral; spacemission_env/games.py
lists the protocol): the SplitMix64 generator and Fisher-Yates shuffle inside kernels
(``rng[b]`` per game, the same sequence as spacemission_env/rng.py), the checks of the arguments of ``init`` / ``step`` / ``observe``
(``seeds``, ``actions``, ``select``, ``player``), uniform legal sampling, and the rank
rewards. Each engine's ``api`` module calls these, so both games reject bad input with
the same messages."""
from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence

import numpy as np
from numba import config as _numba_config

from .checks import is_int, shown
from .rng import SeedTypeError
from .jit import njit

# --- SplitMix64 (spacemission_env/rng.py) inside kernels, all uint64 so numba wraps mod 2**64 ----
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
MIX1 = np.uint64(0xBF58476D1CE4E5B9)
MIX2 = np.uint64(0x94D049BB133111EB)
S27, S30, S31 = np.uint64(27), np.uint64(30), np.uint64(31)


@njit
def next_u64(rng, b):
    s = rng[b] + GOLDEN
    rng[b] = s
    z = s
    z = (z ^ (z >> S30)) * MIX1
    z = (z ^ (z >> S27)) * MIX2
    return z ^ (z >> S31)


@njit
def below(rng, b, n):
    return np.int64(next_u64(rng, b) % np.uint64(n))


@njit
def uniform(rng, b):
    """A float in [0, 1): the top 53 bits of the stream's next draw."""
    return np.float64(next_u64(rng, b) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit
def shuffle(rng, b, items, n):
    """Fisher-Yates on items[:n], i = n-1 .. 1 (spacemission_env/rng.py shuffle)."""
    for i in range(n - 1, 0, -1):
        j = below(rng, b, i + 1)
        t = items[i]
        items[i] = items[j]
        items[j] = t


_NOT_QUIET = contextlib.nullcontext()  # reusable: quiet() costs compiled callers (every bot decision) no allocation


def quiet():
    """Under NUMBA_DISABLE_JIT the kernels run as Python on numpy scalars, where the
    uint64 wrap-around of SplitMix64 and the bots' hashes raises overflow warnings;
    silence them there."""
    if _numba_config.DISABLE_JIT:  # type: ignore[attr-defined]  # numba's config sets its names at run time
        return np.errstate(over="ignore")
    return _NOT_QUIET


def exact_ints(values, arr: np.ndarray) -> list[int] | None:
    """The 1-d ``values`` as Python ints where numpy's ``arr`` of them lost them: ints past
    int64 make numpy give float64 (``[2**63, 0]``, rounded) or objects (``[2**64]``), to be
    checked and converted exactly; None otherwise (the array is as given, or not of ints)."""
    if arr.ndim != 1 or arr.dtype.kind not in "fO" or not arr.size:
        return None
    items = arr.tolist() if arr.dtype.kind == "O" else list(values)
    return [int(x) for x in items] if all(is_int(x) for x in items) else None


def seed_array(seeds, batch_size: int) -> np.ndarray:
    """uint64 [B] from an int s (seeds s, s+1, ...) or an integer array [B]; every seed in [0, 2**64)."""
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, (bool, np.bool_)):
        s = int(seeds)
        if s < 0 or s + batch_size - 1 >= 2**64:
            raise ValueError(f"seeds must be an int in [0, 2**64 - batch_size] = [0, {2**64 - batch_size}], got {shown(s)}")
        return (np.arange(batch_size, dtype=np.uint64) + np.uint64(s)) if s < 2**63 else np.array(
            [s + i for i in range(batch_size)], dtype=np.uint64)
    if not isinstance(seeds, (np.ndarray, list, tuple)):  # a float, bool, str, None: the wrong type
        raise SeedTypeError(f"seeds must be an int or an integer array of shape ({batch_size},), got {shown(seeds)}")
    arr = np.asarray(seeds)
    ints = exact_ints(seeds, arr) if arr.shape == (batch_size,) else None
    if ints is not None:  # seeds past int64: each must still be a uint64
        bad = [k for k, s in enumerate(ints) if not 0 <= s < 2**64]
        if bad:
            raise ValueError(f"seeds must be in [0, 2**64), got {shown(ints[bad[0]])} at index {bad[0]}")
        return np.array(ints, dtype=np.uint64)
    if arr.shape != (batch_size,) or arr.dtype.kind not in "iu":
        error = ValueError if arr.shape != (batch_size,) else SeedTypeError  # a float array: the wrong type
        raise error(f"seeds must be an int or an integer array of shape ({batch_size},), got shape {arr.shape} "
                    f"dtype {arr.dtype}: {shown(arr)}")
    if arr.dtype.kind == "i" and (arr < 0).any():
        raise ValueError(f"seeds must be >= 0, got {int(arr[arr < 0][0])} at index {int(np.flatnonzero(arr < 0)[0])}")
    return arr.astype(np.uint64)



def check_batch(st, batch_class: type, game: str) -> None:
    """TypeError unless ``st`` is a batch of ``game``'s engine (``batch_class``): None, a
    reference GameState or the other game's batch would otherwise fail deep inside with an
    AttributeError (or, for the other game's batch, be read with this game's layout)."""
    if not isinstance(st, batch_class):
        raise TypeError(f"st must be a {game} BatchState (engine.init, engine.from_reference), got "
                        f"{type(st).__module__}.{type(st).__qualname__}")


def check_rows(rows, batch_size: int) -> np.ndarray:
    """The rows given to ``BatchState.take`` / ``score_view`` as a 1-d ``intp`` array of
    indices into a batch of ``batch_size`` games (negative ones count from the end, as in
    numpy; rows may repeat; an empty list gives an empty batch). ValueError otherwise: a
    bool mask would leave the new batch's ``batch_size`` wrong, and a row out of range is
    named with the batch size rather than left to numpy's bare IndexError."""
    arr = np.asarray(rows)
    ints = exact_ints(rows, arr)
    if ints is not None:  # rows past int64: out of range of any batch, named as the others are
        arr = np.array([r if -batch_size <= r < batch_size else batch_size for r in ints], dtype=np.int64)
    if arr.ndim != 1 or (arr.dtype.kind not in "iu" and arr.size):
        raise ValueError(f"rows must be a 1-d integer array, got {shown(rows)}")
    if arr.size:
        bad = (arr < -batch_size) | (arr >= batch_size)
        if bad.any():
            k = int(np.flatnonzero(bad)[0])
            raise ValueError(f"rows must index the batch of {batch_size} (-{batch_size}..{batch_size - 1}), "
                             f"got rows[{k}] = {shown(ints[k] if ints is not None else int(arr[k]))}")
    return arr.astype(np.intp, copy=False)


def check_reference_states(states, state_class: type, game: str, to_dict, from_dict, check: bool = True) -> list:
    """The reference states given to ``from_reference`` as a non-empty list, each checked
    (``check``) as a loaded JSON state is (``from_dict(to_dict(s))``): a hand-built state
    with a counter of 1.5, an unknown phase or a card out of range is a ValueError naming
    it, not an IndexError in the middle of the copy or a silently truncated number.
    ``check=False`` copies synthetic states that break the conservation laws on purpose
    (tests of edges no game reaches), unchecked."""
    if not isinstance(check, (bool, np.bool_)):
        raise TypeError(f"check must be True or False, got {shown(check)}")
    if isinstance(states, state_class):  # one state: before, "'GameState' object is not iterable"
        raise TypeError(f"states must be a list of {game} GameStates, got one GameState: from_reference([state]) "
                        f"for a batch of one")
    try:
        states = list(states)
    except TypeError:
        raise TypeError(f"states must be a list of {game} GameStates, got {type(states).__name__}: "
                        f"{shown(states)}") from None
    if not states:
        raise ValueError("from_reference needs at least one state")
    for k, s in enumerate(states):
        if not isinstance(s, state_class):
            raise TypeError(f"states[{k}] must be a {game} GameState, got {type(s).__name__}")
        if not check:
            continue
        try:
            from_dict(to_dict(s))
        except ValueError as exc:
            raise ValueError(f"states[{k}] is not a valid {game} state: {exc}") from None
        except (TypeError, IndexError, KeyError, AttributeError) as exc:  # a field of the wrong kind
            raise ValueError(f"states[{k}] is not a valid {game} state: {type(exc).__name__}: {exc}") from None
    return states


def check_masks(action_masks: np.ndarray, num_actions: int | None = None) -> np.ndarray:
    """The masks as a 2-D bool array ``[N, num_actions]`` (any width when None): bool, or
    numbers that are all 0 or 1 (the envs' int8 masks). ValueError on a wrong shape or
    any other value (a NaN or a 2 is not read as legal)."""
    masks = np.asarray(action_masks)
    if masks.ndim != 2 or (num_actions is not None and masks.shape[1] != num_actions):
        raise ValueError(f"action masks must have shape [N, {num_actions or 'num_actions'}], got {masks.shape}")
    if masks.dtype == np.bool_:
        return masks
    if masks.dtype.kind not in "iuf":
        raise ValueError(f"action masks must be bool or 0/1 numbers, got dtype {masks.dtype}")
    if masks.dtype in (np.int8, np.uint8) and (masks.size == 0 or masks.view(np.uint8).max() <= 1):
        return masks.view(np.bool_)  # the envs' masks: one pass (a -1 reads as 255 here)
    bad = (masks != 0) & (masks != 1)
    if bad.any():
        row, col = (int(x[0]) for x in np.nonzero(bad))
        raise ValueError(f"action masks must hold only 0 and 1 (or bool), got {masks[row, col].item()!r} at row {row}, "
                         f"action {col}")
    return masks.view(np.bool_) if masks.dtype in (np.int8, np.uint8) else masks.astype(np.bool_)


def check_seat_present(seat_present: np.ndarray, who: str, lo: int, hi: int) -> None:
    """ValueError naming the first row whose ``seat_present`` block ([N, 5] int8 of the
    observations: 1 for each seat in the game, from the observer on, then 0) is not that of a
    game of ``lo``..``hi`` players: an observation no engine writes (noise, another game's, a
    hand-built one). The bots read their player count there; before, such a row reached
    their arithmetic as 0 or 600 players (Red Planet's greedy and heuristic: a numpy
    IndexError; Space Mission's heuristic: a ZeroDivisionError from its kernel)."""
    sp = np.asarray(seat_present)
    n = (sp == 1).sum(axis=1)
    expected = np.arange(sp.shape[1])[None, :] < n[:, None]  # n ones, then zeros
    ok = (sp == expected).all(axis=1) & (n >= lo) & (n <= hi)
    if not ok.all():
        row = int(np.flatnonzero(~ok)[0])
        raise ValueError(f"{who}: observation row {row} is not an observation of a {lo}-{hi} player game: its "
                         f"seat_present block (1 for each seat in the game, from the observer on, then 0) reads "
                         f"{sp[row].tolist()}")


def check_actions(st, actions) -> np.ndarray:
    """The actions [B] as the kernels take them (``kernel_input``: int64, C-contiguous,
    writeable), from any integer dtype, layout or sequence; ValueError on a wrong shape,
    dtype or a uint64 id past int64."""
    a = np.asarray(actions)
    if a.shape != (st.batch_size,):
        raise ValueError(f"actions must have shape ({st.batch_size},), got shape {a.shape}: {shown(a)}")
    if a.dtype.kind not in "iu":
        raise ValueError(f"actions must be integer ids, got dtype {a.dtype}: {shown(a)}")
    if a.dtype == np.uint64 and (a > np.iinfo(np.int64).max).any():  # would wrap to a negative id below
        g = int(np.flatnonzero(a > np.iinfo(np.int64).max)[0])
        raise ValueError(f"game {g}: action {int(a[g])} is out of range (not an action id)")
    return kernel_input(a, np.int64)



def check_select(st, select) -> np.ndarray:
    """bool [B] of the games a call acts on (None: all: the batch state's read-only
    ``all_games`` where it keeps one, else a new read-only array of True)."""
    if select is None:
        every = getattr(st, "all_games", None)
        if every is None:
            every = np.ones(st.batch_size, dtype=np.bool_)
            every.flags.writeable = False
        return every
    sel = np.asarray(select)
    if sel.shape != (st.batch_size,) or sel.dtype != np.bool_:
        raise ValueError(f"select must be None or a bool array of shape ({st.batch_size},), got shape {sel.shape} "
                         f"dtype {sel.dtype}: {shown(select)}")
    # a read-only C-contiguous view, the type of st.all_games: numba types read-only and
    # writeable arrays apart, so a caller's own array would compile every kernel twice
    sel = np.ascontiguousarray(sel).view()
    sel.flags.writeable = False
    return sel



def check_players(st, player) -> np.ndarray:
    if player is None:
        return st.current_player.astype(np.int64)
    if isinstance(player, (int, np.integer)) and not isinstance(player, bool):
        if not 0 <= player < st.num_players:  # before np.full, which cannot hold a huge int
            raise ValueError(f"player must be a seat in 0..{st.num_players - 1}, got {shown(int(player))}")
        p = np.full(st.batch_size, int(player), dtype=np.int64)
    else:
        p = np.asarray(player)
        if p.shape != (st.batch_size,) or p.dtype.kind not in "iu":
            raise ValueError(f"player must be None, an int or an int array of shape ({st.batch_size},), got {shown(player)}")
        if p.dtype == np.uint64 and (p >= st.num_players).any():  # the cast below would show 2**64 - 1 as -1
            raise ValueError(f"player must be a seat in 0..{st.num_players - 1}, got {int(p[p >= st.num_players][0])}")
        p = p.astype(np.int64)
    bad = (p < 0) | (p >= st.num_players)
    if bad.any():
        raise ValueError(f"player must be a seat in 0..{st.num_players - 1}, got {int(p[bad][0])}")
    return p



@njit
def sample_legal(mask, u, out):
    """out[b] = the k-th legal action of row b, k = floor(u[b] * #legal): uniform over
    legal actions; -1 for a row with no legal action. One pass per row: the legal ids are
    gathered in order (branch-free) while they are counted."""
    legal = np.empty(mask.shape[1], np.int64)
    for b in range(mask.shape[0]):
        n = 0
        for a in range(mask.shape[1]):
            legal[n] = a
            n += mask[b, a]
        if n == 0:
            out[b] = -1
            continue
        out[b] = legal[min(int(u[b] * n), n - 1)]




def check_run_many(total_games, chunk) -> None:
    """The differential harnesses' ``run_many`` arguments (both games): ValueError unless
    ``total_games`` >= 0 and ``chunk`` >= 1 are integers (their loops would never end)."""
    for name, value, low in (("total_games", total_games, 0), ("chunk", chunk, 1)):
        if not is_int(value) or value < low:
            raise ValueError(f"{name} must be an integer >= {low}, got {shown(value)}")


def rank_reward(n: int, better: int, tied: int) -> float:
    """The rank reward (R-P8, M-P4) of a seat of ``n`` players with ``better`` seats ranked
    above it and ``tied`` seats (itself included) sharing its place: rank r (0 = best) is
    worth 1 - 2r/(n-1), and tied seats share the mean of the values of the ranks they span,
    r = better .. better + tied - 1. That mean in closed form, (n - 2*better - tied) / (n - 1),
    with one division of integers: a place worth 0 is exactly 0.0 and places ranked
    symmetrically get exact negatives, so every pattern whose values mirror each other sums
    to exactly 0 (the mean of float values gave 5.55e-17 to 4 players' two tied middle
    seats and to 4 tied seats). At 4 players some patterns (three tied above one, one above
    three tied, two tied above two apart, two apart above two tied) cannot sum to exactly 0 in
    binary floats, whatever the formula: thirds are not representable, and 3 * fl(1/3) != 1."""
    return (n - 2 * better - tied) / (n - 1)


def rank_rewards(keys: Sequence) -> list[float]:
    """Zero-sum terminal rewards in [-1, 1] by final rank of ``keys`` (one comparable
    value per seat, higher is better): :func:`rank_reward` of each seat. Rank r of P
    players (0 = best) is worth 1 - 2r/(P-1); tied players share the mean of the values of
    the ranks they span. Two players: +1 / -1, 0 on a shared win."""
    n = len(keys)
    return [rank_reward(n, sum(1 for k in keys if k > key), sum(1 for k in keys if k == key)) for key in keys]


@functools.lru_cache(maxsize=None)
def rank_reward_table(n: int) -> np.ndarray:
    """float64 [n + 1, n + 1]: [seats ranked better, seats tied (itself included)] -> the
    :func:`rank_reward` of a seat of ``n`` players (0 where no seat can be); the fast
    engines index it with each seat's counts. Built once per ``n`` (every ``rewards`` call
    reads it) and read-only, since every caller shares it."""
    table = np.zeros((n + 1, n + 1), dtype=np.float64)
    for better in range(n):
        for tied in range(1, n - better + 1):
            table[better, tied] = rank_reward(n, better, tied)
    table.flags.writeable = False
    return table


def kernel_input(a: np.ndarray, dtype) -> np.ndarray:
    """``a`` (already checked) as the one array type a kernel is compiled for: ``dtype``,
    C-contiguous and writeable; ``a`` itself where it is that already, else a copy. numba
    compiles a kernel again for every other layout (a slice ``x[::2]`` is typed 'A', a
    transpose 'F') and for a read-only array (``np.broadcast_to``, a frozen buffer), so such an
    input compiled a signature that ``spacemission warmup`` had not put in the cache."""
    a = np.ascontiguousarray(a, dtype=dtype)
    return a if a.flags.writeable else a.copy()


def output_buffer(out, shape: tuple, dtype, zeroed: bool = False, name: str = "out") -> np.ndarray:
    """``out`` checked as a kernel's output buffer (a writeable C-contiguous array of
    ``shape`` and ``dtype``), or a new one when None (of zeros with ``zeroed``: a kernel
    that writes only some rows); ValueError naming the argument (``name``) and what is wanted."""
    if out is None:
        return (np.zeros if zeroed else np.empty)(shape, dtype=dtype)
    if not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != dtype \
            or not out.flags.c_contiguous or not out.flags.writeable:
        raise ValueError(f"{name} must be a writeable C-contiguous {np.dtype(dtype).name} array of shape {shape}")
    return out


def illegal_action(actions: np.ndarray, game: int, mask_row: np.ndarray) -> ValueError:
    """The error of a step whose game ``game`` got an illegal action, naming the legal ones."""
    return ValueError(f"game {game}: action {int(actions[game])} is not legal now "
                      f"(legal: {np.flatnonzero(mask_row).tolist()})")


_NO_OBSERVATION_OUT = np.zeros((0, 0), np.int8)  # the fused kernels' obs_out when none is written (mode -1)


def step_observe_outputs(st, mask_out, obs_out, observation_type, num_actions: int, observation_size) -> tuple:
    """``step_observe``'s checked buffers: ``(mask_out, obs_out)``, ``obs_out`` the kernels'
    empty stand-in when ``observation_type`` is None (no observation: ``obs_out`` must then be
    None too, rather than a buffer silently left unwritten). ValueError naming the argument."""
    if mask_out is None:  # output_buffer would make a new one, and the results would be lost
        raise ValueError("mask_out must be an array (step_observe writes its results there), got None")
    mask_out = output_buffer(mask_out, (st.batch_size, num_actions), np.bool_, name="mask_out")
    if observation_type is None:
        if obs_out is not None:
            raise ValueError("obs_out must be None with observation_type=None (no observation is written), "
                             f"got {type(obs_out).__name__}")
        return mask_out, _NO_OBSERVATION_OUT
    d = observation_size(observation_type)  # ValueError for an unknown type
    if obs_out is None:
        raise ValueError("obs_out must be an array (step_observe writes its results there), got None")
    return mask_out, output_buffer(obs_out, (st.batch_size, d), np.int8, name="obs_out")
