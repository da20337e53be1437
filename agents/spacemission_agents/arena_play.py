"""Batched play of one chunk of arena games on a game's fast engine (runs in the workers),
for every game of the protocol (spacemission_env.games).

All games of a chunk advance together: each step, every agent's ``act_batch`` is
called once on the rows where it is the acting seat, with that seat's own
observation (of the type the agent asks for) and legal-action mask. A row whose
agent raises or returns an illegal action is frozen there: a forfeit (docs/arena.md).
"""
from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import numpy as np

from spacemission_env.checks import cut_long_words, shown
from spacemission_env.games import get_game
from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission.components import HAND_SIZE, NUM_CARDS, RING_SIZE
from spacemission_env.space_mission.rules import action_label

from .arena_files import ArenaStopped

_COMPACT_MIN = 16  # below this batch size compaction saves nothing


class _Labels:
    """Space Mission's rules.action_label from the fast state (the acting hand and the ring), cached on
    exactly what the label reads: the action and the cards / planet it names. A top-up
    of several cards is joined from its one-card labels (checked against action_label
    here, with a plain fallback), which keeps the cache small."""

    _MAX_CACHE = 100_000

    def __init__(self):
        self._cache: dict = {}
        self._static: list = []  # the label, for actions that name no card or planet
        self._needs: list = []
        for a in range(A.NUM_ACTIONS):
            kind, args = A.decode(a)
            slots, pos = (), -1
            if kind == "top_up":
                slots = tuple(A.slots_of_mask(args[0]))
            elif kind in ("jump", "scan"):
                slots = (args[0],)
                pos = args[1] if kind == "jump" else -1
            elif kind == "develop":
                slots = (args[0], args[1])
            self._needs.append((slots, pos))
            self._static.append(action_label(a) if not slots and pos < 0 else None)
        one = action_label(A.TOPUP + 1)  # "top up, discarding card 0"
        self._prefix = one[:one.index("card 0")] if "card 0" in one else None
        if self._prefix is not None:  # [slot][card] -> "card 2 (J?/L4)", the one-card top-up label's tail
            self._parts = [[action_label(A.TOPUP + (1 << s), self._view([c] * HAND_SIZE, [0] * RING_SIZE))[len(self._prefix):]
                            for c in range(NUM_CARDS)] for s in range(HAND_SIZE)]
        hand, ring = [3, 17, 25, 40, 58], list(range(8))
        if self._prefix is None or self._join(A.TOPUP + 0b10110, hand, ring) != action_label(A.TOPUP + 0b10110, self._view(hand, ring)):
            self._prefix = None

    @staticmethod
    def _view(hand: list, ring: list):
        return SimpleNamespace(current_player=0, players=[SimpleNamespace(hand=hand)], ring=ring)

    def _join(self, action: int, hand: list, ring: list) -> str:
        parts, prefix = self._parts, self._prefix
        assert prefix is not None  # called only once the one-card labels gave a prefix (__init__, __call__)
        return prefix + ", ".join([parts[s][hand[s]] for s in self._needs[action][0]])

    def __call__(self, action: int, hand: list, ring: list) -> str:
        label = self._static[action]
        if label is not None:
            return label
        slots, pos = self._needs[action]
        if len(slots) == 1:
            key = (action, hand[slots[0]] if slots[0] < len(hand) else -1, ring[pos] if pos >= 0 else -1)
        elif action < A.JUMP and self._prefix is not None:
            return self._join(action, hand, ring)
        else:
            key = (action, *[hand[s] if s < len(hand) else -1 for s in slots])
        label = self._cache.get(key)
        if label is None:
            if len(self._cache) >= self._MAX_CACHE:
                self._cache.clear()
            label = self._cache[key] = action_label(action, self._view(hand, ring))
        return label


_LABELS = _Labels()


# what an agent's act_batch may raise that makes a forfeit: any exception, and SystemExit (sys.exit in an
# agent ended the whole arena with its status and no word, or killed a worker process and hung the pool);
# KeyboardInterrupt is added where only an agent raises it: in a worker (the workers ignore SIGINT), and in
# the arena's own process while a real Ctrl-C raises ArenaStopped instead (arena_workers.agent_interrupts)
AGENT_FAILURES: tuple = (Exception, SystemExit)


class _BadAnswer(ValueError):
    """An agent's answer that is not an int array of the right shape (its message says why)."""


def observation_type_of(agent) -> str:
    """The observation an agent asks for (its ``observation_type``; None or absent: ``info``)."""
    return getattr(agent, "observation_type", None) or "info"


def _as_actions(value, n: int) -> np.ndarray:
    """An agent's answer as int64 [n]; _BadAnswer naming what it returned when it is not
    one. Nothing is converted but integers: a float array (even 3.0), bools, None and
    strings are refused, as every environment refuses them (docs/interfaces.md)."""
    if value is None:
        raise _BadAnswer(f"act_batch returned None, expected an int array of shape ({n},)")
    try:
        a = np.asarray(value)
    except Exception as exc:  # noqa: BLE001 - a ragged list, an object numpy cannot take
        raise _BadAnswer(f"act_batch returned {type(value).__name__} that is not an array "
                         f"({type(exc).__name__}: {cut_long_words(str(exc))}), expected an int array of shape ({n},)") from None
    if a.shape != (n,):
        raise _BadAnswer(f"act_batch returned shape {a.shape}, expected ({n},)")
    if a.dtype.kind in "uf" and n:  # a cast beyond int64 would wrap: name the value returned instead
        big = np.isfinite(a) & ((a >= 2.0**63) | (a < -2.0**63)) if a.dtype.kind == "f" else a >= 2**63
        if big.any():
            raise _BadAnswer(f"act_batch returned action {a[np.argmax(big)].item()!r}, far outside the action ids")
    if a.dtype.kind in "iu":
        return a.astype(np.int64)
    shown = ", ".join(repr(v) for v in a[:3].tolist()) + (", ..." if n > 3 else "")
    raise _BadAnswer(f"act_batch returned dtype {a.dtype} ([{shown}]), expected integer action ids")


def _decide(agent, obs: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, dict]:
    """(actions [m], problems {row: (action or None, reason)}). A batched call that raises
    or returns something other than m integers is isolated by asking again row by row,
    so one bad row does not sink the rest."""
    num_actions = masks.shape[1]
    m = len(masks)
    problems: dict = {}

    def ask(rows: slice, n: int) -> np.ndarray:
        try:
            answer = agent.act_batch(obs[rows], masks[rows].copy())  # an agent may write to its mask: not to ours
        except ArenaStopped:  # the user's Ctrl-C or SIGTERM while the agent ran: not the agent's
            raise
        except AGENT_FAILURES as exc:  # noqa: BLE001 - any agent failure is a forfeit, not a crash
            # cut: an agent's exception text (a whole array, say) went into every forfeit message and results.json
            raise _BadAnswer(f"raised {type(exc).__name__}: {cut_long_words(str(exc))}") from exc
        return _as_actions(answer, n)

    try:
        a = ask(slice(0, m), m)
    except _BadAnswer as exc:
        a = np.zeros(m, dtype=np.int64)
        if m == 1:
            problems[0] = (None, str(exc))
        else:
            for j in range(m):
                try:
                    a[j] = ask(slice(j, j + 1), 1)[0]
                except _BadAnswer as e:
                    problems[j] = (None, str(e))
    inside = (a >= 0) & (a < num_actions)
    legal = inside & masks[np.arange(m), np.where(inside, a, 0)]
    for j in np.flatnonzero(~legal):
        if j not in problems:
            where = "" if inside[j] else f" (outside the action ids 0..{num_actions - 1})"
            problems[int(j)] = (int(a[j]), f"returned illegal action {int(a[j])}{where}")
    return a, problems


def _record_labels(game, st, steps: np.ndarray, seat: np.ndarray, actions: np.ndarray) -> list[str]:
    """The labels of the actions about to be played in rows ``steps`` (Space Mission's
    from the fast state, cached; any other game's from the reference state)."""
    if game.name == "spacemission":
        hands, lens = st.hand[steps, seat].tolist(), st.hand_len[steps, seat].tolist()
        rings = st.ring[steps].tolist()
        return [_LABELS(a, hand[:k], ring) for a, hand, k, ring in zip(actions.tolist(), hands, lens, rings)]
    return [game.action_label(int(a), game.engine.to_reference(st, int(r))) for r, a in zip(steps, actions)]


def play_chunk(agents: list, names: list[str], num_players: int, rules: str, max_rounds: int,
               game_ids: np.ndarray, seeds: np.ndarray, seats: np.ndarray, record: bool, on_finished=None,
               game: str = "spacemission") -> dict:
    """Play the games ``game_ids`` of ``game`` (deal seeds ``seeds``; ``seats[g, s]`` =
    index of the agent at seat s) to their end. Agents are already seeded for this chunk.
    ``on_finished(n)`` is called whenever n more games have ended (for progress)."""
    game = get_game(game)
    engine = game.engine
    n, P = len(seeds), num_players
    uses_obs = [getattr(ag, "uses_observation", True) is not False for ag in agents]
    obs_types = [observation_type_of(ag) for ag in agents]
    out: dict[str, Any] = {
        "scores": np.zeros((n, P, len(game.score_names)), dtype=np.int16),
        "tiebreak": np.zeros((n, P), dtype=np.int16),
        "round_limit": np.zeros(n, dtype=np.bool_),
        "rounds": np.zeros(n, dtype=np.int32),
        "num_actions": np.zeros(n, dtype=np.int64),  # up to 2**31 - 1 rounds of 5 players x 4 steps: past int32
        "forfeit_seat": np.full(n, -1, dtype=np.int8),
        "forfeits": [],
        "records": [[] for _ in range(n)] if record else None,
        "decisions": np.zeros(len(agents), dtype=np.int64),
        "seconds": np.zeros(len(agents), dtype=np.float64),
    }
    st = engine.init(n, P, seeds=np.asarray(seeds, dtype=np.uint64), **game.init_options(rules, max_rounds))
    out["start_player"] = getattr(st, "start_player", st.current_player).copy()  # the first to act
    idx = np.arange(n)  # game (row of ``out``) of each row of st
    alive = ~st.terminated

    def harvest(rows: np.ndarray) -> None:
        if rows.size == 0:
            return
        games = idx[rows]
        out["scores"][games] = engine.scores(st)[rows]
        out["tiebreak"][games] = game.tiebreak_values(st)[rows]
        out["round_limit"][games] = game.round_limit(st)[rows]
        if hasattr(st, "round"):  # a game without rounds records 0
            out["rounds"][games] = st.round[rows]

    while alive.any():
        if st.batch_size >= _COMPACT_MIN and alive.sum() * 2 <= st.batch_size:
            harvest(np.flatnonzero(~alive))
            live = np.flatnonzero(alive)
            st, idx, alive = st.take(live), idx[live], np.ones(live.size, dtype=np.bool_)
        mask = engine.legal_action_mask(st, select=alive)
        cp = st.current_player.astype(np.int64)
        who = seats[idx, cp]
        actions = np.zeros(st.batch_size, dtype=np.int64)
        ok = alive.copy()
        observed: dict = {}
        for k in np.unique(who[alive]):
            rows = np.flatnonzero(alive & (who == k))
            if uses_obs[k]:
                if obs_types[k] not in observed:  # each seat sees its own view: the acting player's
                    observed[obs_types[k]] = engine.observe(st, observation_type=obs_types[k])
                obs = observed[obs_types[k]][rows]
            else:
                obs = np.empty((rows.size, 0), dtype=np.int8)
            t0 = time.perf_counter()
            chosen, problems = _decide(agents[k], obs, mask[rows])
            out["seconds"][k] += time.perf_counter() - t0
            out["decisions"][k] += rows.size
            actions[rows] = chosen
            for j, (action, reason) in problems.items():
                r = rows[j]
                g, seat = int(idx[r]), int(cp[r])
                ok[r] = False
                out["forfeit_seat"][g] = seat
                legal = np.flatnonzero(mask[r]).tolist()
                out["forfeits"].append({
                    "game": int(game_ids[g]), "seed": int(seeds[g]), "seat": seat, "agent": names[k],
                    "round": int(st.round[r]) if hasattr(st, "round") else 0, "action": action, "reason": reason,
                    "message": (f"agent {shown(names[k])} forfeits game {int(game_ids[g])} (seed {int(seeds[g])}, seat {seat}, "
                                f"round {int(st.round[r]) if hasattr(st, 'round') else 0}): {reason}" + (f"; legal: {legal}" if action is not None else "")),
                })
        steps = np.flatnonzero(ok)
        if record:  # gathered as arrays, labelled from plain lists (numpy scalars are slow here)
            seat = cp[steps]
            labels = _record_labels(game, st, steps, seat, actions[steps])
            for g, p, a, label in zip(idx[steps].tolist(), seat.tolist(), actions[steps].tolist(), labels):
                out["records"][g].append([p, a, label])
        out["num_actions"][idx[steps]] += 1
        engine.step(st, actions, select=ok)
        ended = int(alive.sum())
        alive = ok & ~st.terminated
        if on_finished is not None and ended > alive.sum():
            on_finished(ended - int(alive.sum()))
    harvest(np.arange(st.batch_size))
    return out
