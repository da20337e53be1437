"""benchmarks/netsearch_noise.py: the spread of NetSearchAgent's simulations and the paired
differences between its candidates (docs/agents_netsearch.md, "Why 0.1 s is not enough")."""
import numpy as np
import pytest

from spacemission_agents.netsearch import NetSearchAgent
from spacemission_env.games import GameConfig
from tests.helpers.paths import load_tool


@pytest.fixture(scope="module")
def noise():
    return load_tool("netsearch_noise", folder="benchmarks")


def test_candidates_meet_the_same_worlds_deterministically(noise):
    """Each row is one candidate in the same W worlds: simulating again gives the same
    values (the policy plays greedily), and every value is a finished game's, in [-1, 1]."""
    bot = NetSearchAgent(seed=0)
    bot.bind(GameConfig(2))
    obs, mask = noise.positions(bot, 1, seed=3)[0]
    a = noise.candidate_values(bot, obs, mask, 6, np.random.default_rng(1))
    b = noise.candidate_values(bot, obs, mask, 6, np.random.default_rng(1))
    assert a.shape == (min(bot.candidates, int(mask.sum())), 6)
    np.testing.assert_array_equal(a, b)
    assert (np.abs(a) <= 1).all()


def test_summary_is_consistent(noise):
    out = noise.main(["--positions", "2", "--worlds", "4", "--budget", "0.02", "--iterations", "0", "6",
                      "--rules", "6", "--seed", "2"])
    assert set(out["rules"][6]) == {"puct", "uniform", "paired z1", "paired z1.5", "paired z2"}
    assert all(0 <= r["deviates"] <= 1 for r in out["rules"][6].values())
    assert out["positions"] == 2 and out["sd"] >= 0 and out["paired_sd"] >= 0
    assert sum(b["positions"] for b in out["by_gap"]) == 2
    assert 0 <= out["better"] and 0 <= out["worse"] and out["better"] + out["worse"] <= 1
    if out["rms_gap"] > 0:
        assert out["needed_per_candidate"] == pytest.approx((2 * out["paired_sd"] / out["rms_gap"]) ** 2)
    net, search = out["regret"][0], out["regret"][6]
    assert net["deviates"] == 0 and net["mean"] >= 0 and search["mean"] >= 0  # regret against the best reference mean
    with pytest.raises(SystemExit):
        noise.main(["--worlds", "1"])
    with pytest.raises(SystemExit):
        noise.main(["--iterations", "-1"])
    with pytest.raises(SystemExit):
        noise.main(["--rules", "0"])


def test_regret_is_measured_against_the_reference_best(noise):
    """Regret is the best reference mean minus the played candidate's: 0 where the network's
    favourite is the reference's best, the gap where another candidate is."""
    bot = NetSearchAgent(seed=0)
    bot.bind(GameConfig(2))
    found = noise.positions(bot, 2, seed=4)
    sizes = [len(noise.candidates(bot, o, m)) for o, m in found]
    refs = [np.linspace(0.0, -0.5, k) for k in sizes]  # the favourite first: no regret
    assert noise.regret_at(0, found, refs, bot, 0)["mean"] == 0
    refs = [np.linspace(-0.5, 0.0, k) for k in sizes]  # the favourite last: regret 0.5
    assert noise.regret_at(0, found, refs, bot, 0)["mean"] == pytest.approx(0.5)


def test_split_half_gain_and_its_bins(noise):
    """The split-half gain is the better candidate's margin where one beats the favourite in
    every world, 0 where the favourite is best everywhere; the bins sort by the logit gap and
    hold equal counts."""
    worlds = np.tile([0.2, -0.2], 8)  # the same world-to-world noise for every candidate
    v = np.stack([worlds, worlds + 0.3, worlds - 0.1])
    assert noise.split_half_gain(v) == pytest.approx(0.3)
    assert noise.split_half_gain(np.stack([worlds, worlds - 0.3])) == pytest.approx(0.0)
    bins = noise.gain_by_gap(np.array([5.0, 1.0, 3.0, 9.0]), np.array([0.5, 0.1, 0.3, 0.9]), 2)
    assert [b["positions"] for b in bins] == [2, 2]
    assert (bins[0]["low"], bins[0]["high"], bins[1]["low"], bins[1]["high"]) == (1.0, 3.0, 5.0, 9.0)
    assert bins[0]["gain"] == pytest.approx(0.2) and bins[1]["gain"] == pytest.approx(0.7)


def test_selection_rules_on_known_values(noise):
    """Rules see the even worlds and are scored on the odd ones: a candidate better in every
    world is found by every rule (gain = its margin); identical candidates leave the network's
    move (no evidence); a candidate lucky in the seen worlds only gains nothing unseen."""
    bot = NetSearchAgent(seed=0)
    prior = np.array([0.4, 0.3, 0.2, 0.1])
    rng = np.random.default_rng(0)
    base = rng.normal(0, 0.5, 64)
    clear = np.stack([base, base - 0.1, base + 0.3, base - 0.2])
    picks = noise.rule_choices(bot, clear[:, 0::2], prior, 120)
    assert set(picks.values()) == {2}
    g = noise.rule_gains(bot, [clear], [prior], 120)
    assert all(r["gain"] == pytest.approx(0.3) and r["deviates"] == 1 for r in g.values())
    same = np.stack([base] * 4)
    assert set(noise.rule_choices(bot, same[:, 0::2], prior, 120).values()) == {0}
    lucky = same.copy()
    lucky[1, 0::2] += 0.5  # better only where the rules look
    g = noise.rule_gains(bot, [lucky], [prior], 120)
    assert all(r["gain"] == pytest.approx(0.0) for r in g.values())
