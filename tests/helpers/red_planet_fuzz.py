"""Fuzzing of random games over any engine given as the triple (step, mask, to_reference).

The driver ``fuzz`` is game-independent: it plays a batch of games with uniformly random
legal actions through an engine with the signatures of ``spacemission_env.engine``
(``step(batch, actions)``, ``legal_action_mask(batch) -> bool [B, A]``,
``to_reference(batch, i) -> reference state``), and after every action checks, on the
reference state of each game that moved:

- the engine's mask row equals the reference engine's mask of that state;
- ``rules.check_step(before, after, action)``: the game's conservation laws;
- every ``json_every`` steps, a JSON round trip gives back an equal state;
- every ``illegal_every`` steps, one game gets an illegal or out-of-range action while
  the others get legal ones: ``step`` must raise ValueError and leave every game exactly
  as it was (their JSON documents compared).

``reference_engine`` wraps a list of reference states as such a triple, so the reference
engine and a batched engine run through the same driver. The Red Planet hooks
(``RED_PLANET``) are at the bottom: its conservation laws cite RED_PLANET.md's ids.
"""
from __future__ import annotations

import pickle
import random
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest

from spacemission_env.red_planet import actions as RA
from spacemission_env.red_planet import rules as R
from spacemission_env.red_planet.components import (
    ASTRONAUTS,
    FIRST_DISTRIBUTION_ROUND,
    MINERAL_TOKENS,
    NUM_EVENTS,
    NUM_MINERAL_TOKENS,
    NUM_ROLES,
    NUM_SHIPS,
    NUM_ZONES,
    SECOND_DISTRIBUTION_BASE,
    SECOND_DISTRIBUTION_ROUND,
    TOKENS_PER_ZONE,
)


@dataclass(frozen=True)
class ReferenceHooks:
    """What the driver needs of a game's reference engine."""
    legal_action_mask: Callable  # state -> bool [A]
    is_over: Callable  # state -> bool
    to_json: Callable  # state -> str
    from_json: Callable  # str -> state
    check_step: Callable  # (before or None, after, action or None) -> None; raises on a broken law
    num_actions: int


@dataclass
class FuzzStats:
    actions: int = 0
    illegal_rejected: int = 0
    round_trips: int = 0
    finished: int = 0


def reference_engine(hooks: ReferenceHooks, apply: Callable):
    """(step, mask, to_reference) over a list of reference states. Like a batched engine's
    ``step``, it checks every game's action before any game moves; an illegal one goes to
    the reference ``apply`` (which must raise ValueError and leave its state alone)."""
    def mask(states):
        return np.stack([hooks.legal_action_mask(s) for s in states])

    def step(states, actions):
        live = [i for i, s in enumerate(states) if not hooks.is_over(s)]
        for i in live:
            a = int(actions[i])
            if not 0 <= a < hooks.num_actions or not hooks.legal_action_mask(states[i])[a]:
                apply(states[i], actions[i])  # the reference's own rejection
                raise AssertionError(f"game {i}: apply accepted the illegal action {a}")
        for i in live:
            apply(states[i], int(actions[i]))

    def to_reference(states, i):
        return pickle.loads(pickle.dumps(states[i], pickle.HIGHEST_PROTOCOL))  # a deep copy, 4x faster

    return step, mask, to_reference


def fuzz(batch, batch_size: int, step, mask, to_reference, hooks: ReferenceHooks, *, seed: int,
         max_steps: int = 100_000, json_every: int = 25, illegal_every: int = 20) -> FuzzStats:
    """Play every game of ``batch`` to its end (or ``max_steps`` batch steps) with random
    legal actions, checking the module docstring's laws after every action."""
    rand = random.Random(seed)
    stats = FuzzStats()
    refs = [to_reference(batch, i) for i in range(batch_size)]
    for ref in refs:
        hooks.check_step(None, ref, None)
    for t in range(max_steps):
        live = [i for i in range(batch_size) if not hooks.is_over(refs[i])]
        if not live:
            break
        m = np.asarray(mask(batch))
        actions = np.zeros(batch_size, dtype=np.int64)
        for i in live:
            expected = hooks.legal_action_mask(refs[i])
            assert np.array_equal(m[i], expected), (
                f"game {i}: engine mask {np.flatnonzero(m[i]).tolist()} != reference {np.flatnonzero(expected).tolist()}")
            assert m[i].any(), f"game {i}: no legal action before the end"
            actions[i] = rand.choice(np.flatnonzero(m[i]).tolist())
        if illegal_every and t % illegal_every == 0:
            reject_illegal(batch, batch_size, step, to_reference, hooks, refs, actions, m, rand.choice(live), rand)
            stats.illegal_rejected += 1
        step(batch, actions)
        check_json = json_every and t % json_every == 0
        for i in range(batch_size):
            if i not in live:
                continue
            after = to_reference(batch, i)
            hooks.check_step(refs[i], after, int(actions[i]))
            if check_json:
                assert hooks.from_json(hooks.to_json(after)) == after, f"game {i}: JSON round trip changed the state"
                stats.round_trips += 1
            refs[i] = after
            stats.actions += 1
        stats.finished += sum(hooks.is_over(refs[i]) for i in live)
    return stats


def reject_illegal(batch, batch_size, step, to_reference, hooks, refs, actions, m, victim, rand) -> None:
    """Game ``victim`` gets an illegal or out-of-range id, the others their legal ones:
    ValueError, and no game changes."""
    illegal = np.flatnonzero(~m[victim]).tolist() + [-1, hooks.num_actions]
    bad = actions.copy()
    bad[victim] = rand.choice(illegal)
    before = [hooks.to_json(r) for r in refs]
    with pytest.raises(ValueError):
        step(batch, bad)
    after = [hooks.to_json(to_reference(batch, i)) for i in range(batch_size)]
    for i in range(batch_size):
        assert after[i] == before[i], f"game {i} changed when game {victim}'s action {int(bad[victim])} was rejected"


# --- Mission: Red Planet ---------------------------------------------------------------------
NONE = R.NONE


def red_planet_census(s) -> dict[str, object]:
    """Where every component is, summed per kind (a second count, beside check_invariants)."""
    n = s.num_players
    census = {}
    for q, pl in enumerate(s.players):
        pad = sum(s.crew[ship][q] for k, ship in enumerate(s.slots) if ship != NONE and k not in s.airborne)
        air = sum(s.crew[s.slots[k]][q] for k in s.airborne)
        mars = sum(row[q] for row in s.mars)
        # M-C1, M-X3: 22 per colour over supply, pad, air, Mars, LiSM (M-O6, M-O8) and removed (M-E8)
        census[f"astronauts of seat {q}"] = pl.supply + pad + air + mars + pl.lism + pl.removed
        # M-C7, M-R6, M-O1: nine role cards over hand, discard and an unplayed commit
        census[f"role cards of seat {q}"] = len(pl.hand) + len(pl.discard) + (pl.commit != NONE and not pl.acted)
    pad_ships = [k for k in range(n) if s.slots[k] != NONE and k not in s.airborne]
    # M-C3, M-R2: deck + pad + air + used pile (landed or destroyed)
    census["ships"] = len(s.ship_deck) + len(pad_ships) + len(s.airborne) + len(s.used_ships)
    census["distinct ships"] = len(set(s.ship_deck) | {s.slots[k] for k in range(n) if s.slots[k] != NONE} | set(s.used_ships))
    # M-E1, M-S5, M-S6: pile, set-aside, hands, setup hands, Mars, removed, the drawn card
    cards = (s.event_pile + s.set_aside + s.removed_cards + [c for c in s.discovery if c != NONE]
             + [c for pl in s.players for c in pl.bonus + pl.setup_hand] + [c for c in [s.drawn] if c != NONE])
    census["event cards"] = len(cards)
    census["distinct event cards"] = len(set(cards))
    # M-C4: pool + revealed tokens, per type
    for t, count in enumerate(MINERAL_TOKENS):
        census[f"mineral tokens of type {t}"] = s.mineral_pool.count(t) + s.mineral.count(t)
    # M-C6: supply + laid on ships
    census["destination tokens"] = sum(s.token_supply) + sum(1 for t in s.token if t != NONE)
    return census


def red_planet_expected(n: int) -> dict[str, int]:
    exp = {}
    for q in range(n):
        exp[f"astronauts of seat {q}"] = ASTRONAUTS
        exp[f"role cards of seat {q}"] = NUM_ROLES
    exp["ships"] = exp["distinct ships"] = NUM_SHIPS
    exp["event cards"] = exp["distinct event cards"] = NUM_EVENTS
    exp.update({f"mineral tokens of type {t}": count for t, count in enumerate(MINERAL_TOKENS)})
    exp["destination tokens"] = TOKENS_PER_ZONE * NUM_ZONES
    return exp


def _counters(s) -> int:
    """Counters handed out and lying on Mars (M-C5), all types."""
    return sum(sum(pl.counters) for pl in s.players) + sum(s.leftover)


def red_planet_check_step(before, after, action) -> None:
    """The conservation laws of Red Planet after one action (``before`` None: a new game)."""
    R.check_invariants(after)
    census, expected = red_planet_census(after), red_planet_expected(after.num_players)
    assert census == expected, {k: (census[k], expected[k]) for k in expected if census[k] != expected[k]}
    assert len(after.mineral_pool) + sum(t != NONE for t in after.mineral) == NUM_MINERAL_TOKENS
    if before is None:
        return
    label = f"after {RA.decode(action)} in round {after.round}"
    assert after.round in (before.round, before.round + 1), label  # M-R1: one round at a time
    over = after.phase == "over"
    for q in range(after.num_players):
        b, a = before.players[q], after.players[q]
        assert a.lism >= b.lism, f"seat {q}: killed astronauts never return (M-X3), {label}"
        assert all(x >= y for x, y in zip(a.counters, b.counters)), f"seat {q}: counters only accrue (M-C5), {label}"
        assert a.removed == b.removed or over, f"seat {q}: astronauts are removed only in the final scoring (M-E8)"
        assert set(b.seen) <= set(a.seen), f"seat {q} forgot a card he saw (M-I5), {label}"
        assert len(b.bonus) <= len(a.bonus), f"seat {q} lost a bonus card, {label}"
    if before.phase not in ("setup_zone", "keep"):  # M-E1: no discards, never reshuffled; one draw at most
        assert len(before.event_pile) - len(after.event_pile) in (0, 1), f"event pile, {label}"
        assert set(after.event_pile) <= set(before.event_pile), f"event pile gained a card, {label}"
    if not over:  # M-L5: a revealed mineral token stays (only M-E2, in the final scoring, swaps it)
        assert all(b == NONE or a == b for a, b in zip(after.mineral, before.mineral)), f"mineral tokens, {label}"
    # M-P1, M-P2: counters change only at the distributions, by exactly what they hand out
    occupied = sum(1 for z in range(NUM_ZONES) if any(after.mars[z]))
    handed = _counters(after) - _counters(before)
    if after.round == before.round + 1 and before.round == FIRST_DISTRIBUTION_ROUND:
        assert handed == occupied, f"M-P1 hands out one counter per occupied zone: {handed} vs {occupied}"
    elif after.round == before.round + 1 and before.round == SECOND_DISTRIBUTION_ROUND:
        assert handed == SECOND_DISTRIBUTION_BASE * occupied, f"M-P2: {handed} counters for {occupied} occupied zones"
    elif not over:
        assert handed == 0, f"{handed} counters appeared outside a distribution, {label}"


RED_PLANET = ReferenceHooks(
    legal_action_mask=R.legal_action_mask, is_over=R.is_over, to_json=R.to_json, from_json=R.from_json,
    check_step=red_planet_check_step, num_actions=RA.NUM_ACTIONS,
)


def fuzz_red_planet_reference(num_players: int, seeds: list[int], **kwargs) -> FuzzStats:
    """The reference engine through the driver: one batch of games with the given seeds."""
    states = [R.new_game(num_players, seed=seed) for seed in seeds]
    step, mask, to_reference = reference_engine(RED_PLANET, R.apply)
    return fuzz(states, len(states), step, mask, to_reference, RED_PLANET, seed=seeds[0], **kwargs)


def fuzz_red_planet_engine(engine, num_players: int, seeds: list[int], **kwargs) -> FuzzStats:
    """A batched engine (a module with ``init / step / legal_action_mask / to_reference`` as
    ``spacemission_env.engine``) through the driver: game i starts as the reference game
    with ``seeds[i]`` and then moves by the same random actions as the reference would."""
    batch = engine.init(len(seeds), num_players, seeds=np.asarray(seeds, dtype=np.uint64))
    for i, seed in enumerate(seeds):
        assert engine.to_reference(batch, i) == R.new_game(num_players, seed=seed), f"game {i}: init differs"
    return fuzz(batch, len(seeds), engine.step, engine.legal_action_mask, engine.to_reference, RED_PLANET,
                seed=seeds[0], **kwargs)
