"""The bounds on counters and leftovers in a loaded Red Planet state (rules/state_json.py,
MAX_COUNTERS): the fast engine's scores are int16, and a loaded count of 10**6 (the old
bound) made them wrap: a reference total of 40034 was -25502 in the engine, which ranked
the winner last. Each test failed before the fix."""
import json
import random
import re

import numpy as np
import pytest

from spacemission_env.engine_common import rank_rewards
from spacemission_env.red_planet import engine
from spacemission_env.red_planet import rules as G
from spacemission_env.red_planet.components import MINERAL_NAMES
from spacemission_env.red_planet.engine.differential import _ref_scores
from tests.helpers.red_planet_positions import position


def round_10_commit(seed: int = 1) -> dict:
    """The JSON of a 3-player game played at random to round 10's commits."""
    s, r = G.new_game(3, seed=seed), random.Random(seed)
    while not (s.round == 10 and s.phase == "commit"):
        G.apply(s, r.choice(G.legal_actions(s)))
    return json.loads(G.to_json(s))


def loads(d: dict) -> bool:
    try:
        G.from_json(json.dumps(d))
    except ValueError:
        return False
    return True


def largest_accepted(d: dict, set_value) -> int:
    """The largest value the loader accepts where ``set_value(d, v)`` writes it (bisection:
    what it accepts is a prefix of 0, 1, 2, ...)."""
    lo, hi = 0, 10**7
    set_value(d, lo)
    assert loads(d)
    set_value(d, hi)
    assert not loads(d)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        set_value(d, mid)
        lo, hi = (mid, hi) if loads(d) else (lo, mid)
    set_value(d, lo)
    return lo


@pytest.mark.parametrize("field, edit", [
    ("players[0].counters.ice", lambda d: d["players"][0]["counters"].update(ice=40000)),
    ("players[2].counters.celerium", lambda d: d["players"][2]["counters"].update(celerium=90)),
    ("zones[4].leftover", lambda d: d["zones"][4].update(leftover=40000)),
])
def test_a_count_of_counters_beyond_what_the_game_hands_out_is_refused(field, edit):
    """The review's input (round 10, seat 0 holding 40000 ice) loaded before; now the
    message names the field and the bound (89: M-P1..M-P3, M-E10, M-E13)."""
    d = round_10_commit()
    edit(d)
    with pytest.raises(ValueError, match=re.escape(f"{field} must be an integer in [0, 89] (the game hands out "
                                                   f"at most 89 counters")):
        G.from_json(json.dumps(d))


def test_counters_and_leftovers_together_are_bounded():
    """Each count within the bound, but more in all than the game can hand out."""
    d = round_10_commit()
    for q in range(3):
        d["players"][q]["counters"] = dict.fromkeys(MINERAL_NAMES, 10)  # 90 in all
    with pytest.raises(ValueError, match=r"players\[\*\]\.counters and zones\[\*\]\.leftover hold 9\d counters "
                                         r"together, more than the 89"):
        G.from_json(json.dumps(d))


def _set_celerium(d, v):
    d["players"][0]["counters"]["celerium"] = v


def _set_leftover(zone):
    def set_value(d, v):
        d["zones"][zone]["leftover"] = v
    return set_value


@pytest.mark.parametrize("which", ["counters", "leftover"])
def test_the_largest_accepted_counts_score_alike_in_both_engines(which):
    """A round-10 state holding the largest count the loader accepts, played to the end in
    both engines: the same scores (compared by value, unwrapped) and rewards."""
    d = round_10_commit()
    if which == "counters":
        v = largest_accepted(d, _set_celerium)
    else:
        zone = next(z for z, zd in enumerate(d["zones"]) if zd["mineral"] is not None)
        v = largest_accepted(d, _set_leftover(zone))
    assert v > 0
    ref = G.from_json(json.dumps(d))
    st = engine.from_reference([ref])
    rng = np.random.default_rng(0)
    while not G.is_over(ref):
        a = int(engine.sample_actions(engine.legal_action_mask(st), rng)[0])
        engine.step(st, np.array([a]))
        G.apply(ref, a)
    assert st.terminated[0] and engine.to_reference(st, 0) == ref
    totals = [row["total"] for row in G.scores(ref)]
    assert engine.scores(st)[0].astype(np.int64).tolist() == _ref_scores(ref).tolist()
    assert engine.scores(st)[0, :, -1].tolist() == totals
    assert engine.rewards(st)[0].tolist() == pytest.approx(rank_rewards(totals))


def test_the_differential_compares_unwrapped_reference_scores():
    """differential._ref_scores cast the reference's scores to int16, so a wrapped engine
    total compared equal to a wrapped reference total."""
    s = position(3, counters={0: {"celerium": 40}})
    s.players[0].counters[0] = 40000  # a hand-built reference state: counters are unlimited (M-C5)
    assert _ref_scores(s)[0].tolist() == [40000, 0, 120, 0, 0, 0, 40120]


def test_the_fast_engine_refuses_a_state_whose_scores_could_wrap():
    """A hand-built reference state may hold any number of counters (M-C5): from_reference
    checks it as a loaded state (the bound above), and with ``check=False`` (synthetic
    states, unchecked) still refuses one whose int16 totals could wrap."""
    s = position(3)
    s.players[1].counters[2] = 40000
    with pytest.raises(ValueError, match=r"states\[0\] is not a valid Red Planet state: .*players\[1\]\.counters\."
                                         r"celerium must be an integer in \[0, 89\]"):
        engine.from_reference([s])
    with pytest.raises(ValueError, match="hold 40000 counters together; the fast engine takes at most 10500"):
        engine.from_reference([s], check=False)
    s.players[1].counters[2] = 10500
    st = engine.from_reference([s], check=False)
    assert engine.scores(st)[0, 1, -1] == 31500 == G.scores(s)[1]["total"]
