"""Both engines side by side from one explicit position: the reference
engine (rules/game.py) and a batch of one game of the fast engine loaded from it."""
from __future__ import annotations

import numpy as np

from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission import encoding as E
from spacemission_env.space_mission import engine
from spacemission_env.space_mission.rules import game as G
from spacemission_env.space_mission.rules.state import check_invariants
from spacemission_env.space_mission.scoring import SCORE_KEYS


def same(ref, st, i: int = 0, observations: bool = True) -> None:
    """Batch slot ``i`` equals the reference state: state, legal mask and (optionally)
    every seat's observation of every type."""
    assert engine.to_reference(st, i) == ref
    mask = engine.legal_action_mask(st)[i]
    assert mask.all() if ref.is_over else np.array_equal(mask, G.legal_action_mask(ref))
    if observations:
        for t in E.OBSERVATION_TYPES:
            for q in range(ref.num_players):
                assert np.array_equal(engine.observe(st, q, t)[i], E.observe(ref, q, t)), (t, q)


def lockstep(state, actions, *, conserved: bool = True):
    """Apply ``actions`` to a copy of the reference state and to a batch loaded from it;
    after each, compare with ``same``. ``conserved=False`` skips the component check for
    synthetic states (e.g. both card piles empty, unreachable with 60 cards).
    Returns (reference state, batch)."""
    ref = state.copy()
    if conserved:
        check_invariants(ref)
    st = engine.from_reference([ref.copy()], check=conserved)
    assert engine.to_reference(st, 0) == ref
    for a in actions:
        G.apply(ref, a)
        engine.step(st, np.array([a]))
        same(ref, st)
    return ref, st


def of_kind(s, kind: str) -> list[int]:
    """The legal action ids of one kind ("jump", "top_up", ...) in the reference state."""
    return [a for a in G.legal_actions(s) if A.decode(a)[0] == kind]


def both_agree(s) -> None:
    """The fast engine loaded from ``s`` has the same state, mask and observations."""
    same(s, engine.from_reference([s.copy()]))


def fast_scores(s) -> list[dict]:
    """engine.scores of a batch holding ``s``, as breakdown dicts like rules.scores."""
    table = engine.scores(engine.from_reference([s.copy()]))[0]
    return [{k: int(v) for k, v in zip(SCORE_KEYS, row)} for row in table]
