"""The Red Planet fast engine from explicit positions (red_planet.rules.from_json states
built by tests/helpers/red_planet_positions.py): each rule's position is played in both
engines in lock-step, first the named actions, then random legal play to the end; the
state, mask, scores and every observation are compared and every component is conserved
(rules.check_invariants) after every action."""
import numpy as np
import pytest

from spacemission_env.red_planet import encoding as E
from spacemission_env.red_planet import engine
from spacemission_env.red_planet import rules as G
from spacemission_env.red_planet.engine.differential import _ref_scores
from tests.helpers.red_planet_positions import act, position


def lockstep(state, actions=(), seed=0):
    """Apply ``actions`` then random legal ones to the end (or to a position without a
    legal action) in both engines; returns the steps played."""
    ref = state.copy()
    st = engine.from_reference([state])
    assert engine.to_reference(st, 0) == ref
    rng = np.random.default_rng(seed)
    todo = list(actions)
    steps = 0
    while not G.is_over(ref):
        mask = engine.legal_action_mask(st)[0]
        assert np.array_equal(mask, G.legal_action_mask(ref))
        assert np.array_equal(engine.scores(st)[0], _ref_scores(ref))
        for t in E.OBSERVATION_TYPES:
            for q in range(ref.num_players):
                assert np.array_equal(engine.observe(st, q, t)[0], E.observe(ref, q, t)), (t, q)
        if not mask.any():  # a hand-built position may lead where a role hand runs out: both engines agree
            return steps
        a = todo.pop(0) if todo else int(rng.choice(np.flatnonzero(mask)))
        G.apply(ref, a)
        engine.step(st, np.array([a]))
        steps += 1
        got = engine.to_reference(st, 0)
        G.check_invariants(got)
        assert got == ref
    assert st.terminated[0] and engine.legal_action_mask(st)[0].all()
    assert np.array_equal(engine.scores(st)[0], _ref_scores(ref))
    return steps


def end_of_round(round_, n=3, **kw):
    """The last turn of round ``round_`` (the last seat's Pilot), before it is declined."""
    return position(n, round=round_, phase="ability", role="Pilot", current=n - 1, acted=list(range(n - 1)),
                    commits={q: "Recruiter" for q in range(n - 1)}, **kw)


CASES = {
    "M-P1 distribution after round 5": (end_of_round(5, mars={0: {0: 2, 1: 1}, 3: {1: 2, 2: 2}, 4: {2: 1}},
                                                     minerals={0: "celerium", 3: "ice", 4: "sylvanite"},
                                                     crew={2: {1: 4}}), [act("pass")]),
    "M-P2 distribution after round 8": (end_of_round(8, mars={3: {1: 2, 2: 2}, 4: {0: 1}, 5: {0: 1, 1: 1, 2: 1}},
                                                     minerals={3: "ice", 4: "sylvanite", 5: "celerium", 6: "ice"},
                                                     leftover={3: 1, 4: 2, 5: 0, 6: 3}), [act("pass")]),
    "M-P3 final scoring, cards": (end_of_round(
        10, n=4, mars={0: {0: 3, 1: 3}, 3: {2: 2, 0: 1}, 4: {1: 1}, 5: {3: 2, 0: 2}, 6: {1: 1, 2: 3}},
        minerals={0: "celerium", 3: "ice", 4: "sylvanite", 5: "ice", 6: "celerium"}, leftover={0: 1, 6: 2},
        discoveries={4: ("Moose und Flechten", 1), 5: ("Radioaktive Strahlen", 0), 6: ("Fehlanalyse", 2),
                     3: ("Meteoritenfeld", 3)},
        counters={0: {"ice": 1}, 2: {"sylvanite": 1}},
        bonus={0: ["Kolonisation", "Eisblöcke 1"], 1: ["Celerium"], 2: ["Gute Planung"], 3: ["Strategische Zonen"]},
        crew={2: {2: 4}}), [act("pass")]),
    "M-O2 Explorer": (position(4, phase="ability", role="Explorer", current=2, steps_left=3, acted=[0, 1],
                               commits={0: "Recruiter", 1: "Recruiter"}, mars={0: {2: 2}, 3: {2: 1}},
                               minerals={0: "ice", 3: "celerium"}), [act("move", 0, 1), act("move", 1, 6)]),
    "M-O3 Scientist": (position(3, phase="ability", role="Scientist", current=0,
                                discoveries={3: ("Hübscher Felsen 1", 1)}), [act("draw")]),
    "M-O5 Femme Fatale": (position(5, phase="ability", role="Femme Fatale", current=1, acted=[0],
                                   commits={0: "Recruiter"}, crew={2: {0: 2, 3: 1}, 5: {4: 1}}),
                          [act("seduce", 0, 3)]),
    "M-O6 Saboteur": (position(3, phase="ability", role="Saboteur", current=0, crew={2: {1: 3}, 5: {2: 1}}),
                      [act("sabotage", 0)]),
    "M-O7 Travel Agent": (position(3, phase="place", role="Travel Agent", current=0, crew={2: {1: 2}}),
                          [act("place", 1)]),
    "M-O8 Soldier": (position(3, phase="ability", role="Soldier", current=0, mars={3: {1: 2}, 7: {0: 1, 2: 1}},
                              minerals={3: "ice", 7: "sylvanite"}), [act("kill", 3, 1)]),
    "M-O9 Pilot": (position(4, phase="ability", role="Pilot", current=0, crew={2: {1: 2}}, airborne=[1],
                            tokens={}), [act("pilot", 0, 7)]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_position_plays_identically_in_both_engines(name):
    state, actions = CASES[name]
    assert lockstep(state, actions, seed=len(name)) >= len(actions)


def test_loaded_json_position_converts_both_ways():
    s = CASES["M-P3 final scoring, cards"][0]
    loaded = G.from_json(G.to_json(s))
    st = engine.from_reference([loaded, s])
    assert engine.to_reference(st, 0) == s and engine.to_reference(st, 1) == s
