"""Very large sizes in the bots and the arena (sizes sweep): a clear ValueError naming the
parameter, before anything is allocated, instead of a bare MemoryError, an OverflowError, a
hang or a fork bomb; and no silent int32 wrap. Each test failed before its fix (the memory
figures come from checks.physical_memory, monkeypatched where the outcome must not depend
on the machine)."""
import re

import numpy as np
import pytest

from spacemission_agents import arena as arena_module
from spacemission_agents.arena import ArenaArgumentError, run_arena
from spacemission_agents.arena_speed import decision_speed, positions
from spacemission_agents.netsearch import NetSearchAgent
from spacemission_agents.registry import make_agent
from spacemission_agents.search import SearchAgent
from spacemission_env import checks
from spacemission_env.games import GameConfig
from spacemission_env.space_mission.config import MAX_ROUNDS_LIMIT, SPACE_MISSION

GiB = 2**30


@pytest.fixture(scope="module")
def position():
    """One "recall" observation and mask with many legal actions (several candidates for both searches)."""
    obs, masks = positions(8, 2, observation_type="recall")
    i = int(np.argmax(masks.sum(axis=1)))
    return obs[i:i + 1], masks[i:i + 1]


# --- SearchAgent ------------------------------------------------------------------------
@pytest.mark.parametrize("iterations", [10**18, 2**70])
def test_search_iterations_past_memory_are_refused_when_made(iterations):
    """Before: accepted; the first decision raised numpy's MemoryError ("Unable to allocate
    127. PiB") or "Maximum allowed dimension exceeded" from inside the determinizer."""
    with pytest.raises(ValueError, match=rf"^SearchAgent: iterations={re.escape(checks.count_text(iterations))} plays "
                                         r"at least [0-9,.e+]+ rollouts in one batch \(an eighth of them\), which need "
                                         r"at least [0-9,.e+]+ GiB, more than this machine's [0-9,.]+ GiB of memory; "
                                         r"use fewer iterations$"):
        SearchAgent(iterations=iterations)
    with pytest.raises(ValueError, match="SearchAgent: iterations="):
        make_agent(f"search:iterations={iterations}")


def test_search_iterations_limit_is_the_machines_memory(monkeypatch):
    monkeypatch.setattr(checks, "physical_memory", lambda: 1 * GiB)
    with pytest.raises(ValueError, match=r"iterations=2,000,000 plays at least 250,000 rollouts .* 1.9 GiB, more than "
                                         r"this machine's 1.0 GiB"):
        SearchAgent(iterations=2_000_000)
    assert SearchAgent(iterations=500_000).iterations == 500_000


@pytest.mark.parametrize("budget", [1e300, 1e30])
def test_search_budget_whose_batch_cannot_fit_is_refused_before_it(position, budget):
    """A time budget plans each batch from the cost of a rollout: a quarter of 1e30 s is a
    batch of about 10**32 rollouts. Before: numpy's "Maximum allowed dimension exceeded"."""
    bot, shown = SearchAgent(budget=budget, prior=None), re.escape(f"{budget:g}")
    with pytest.raises(ValueError, match=rf"^SearchAgent: budget={shown} s: this batch would play [0-9.e+]+ rollouts "
                                         r"\([0-9.e+]+ worlds x \d+ candidates\) at once, which need at least [0-9.e+]+ "
                                         r"GiB, more than this machine's [0-9,.]+ GiB of memory; use a smaller budget$"):
        bot.act_batch(*position)


@pytest.mark.parametrize("depth", [2**31 - 1, 2**31, 2**70])
def test_search_depth_past_the_round_counter_is_no_cut(position, depth):
    """A rollout stops at round0 + depth: in the engine's int32 that sum wrapped for
    depth=2**31 - 1 (every rollout cut after one step: another action chosen) and raised
    OverflowError for 2**31 and more. No game reaches such a round: the same search as no depth."""
    def search(d):
        bot = SearchAgent(iterations=40, prior=None, depth=d, seed=3)
        action = int(bot.act_batch(*position)[0])
        return action, bot.last_search["mean"], bot.last_search["count"]

    assert search(depth) == search(None)


# --- NetSearchAgent --------------------------------------------------------------------
def _net(**kw):
    bot = NetSearchAgent(**{"iterations": 24, "worlds": 8, "depth": 4, "seed": 1, **kw})
    bot.bind(GameConfig(2))
    return bot


def _searched(bot, position):
    action = int(bot.act_batch(*position)[0])
    return action, bot.last_search["visits"], bot.last_search["q"]


def test_netsearch_worlds_past_int64_are_refused():
    """Before: accepted; the first decision raised OverflowError ("Python int too large to
    convert to C long") computing a world number."""
    with pytest.raises(ValueError, match=r"^NetSearchAgent: worlds must be an integer in 1..9223372036854775807 "
                                         r"\(2\*\*63 - 1; world numbers are int64\), got 9223372036854775808$"):
        NetSearchAgent(worlds=2**63)
    assert NetSearchAgent(worlds=2**63 - 1).worlds == 2**63 - 1


def test_netsearch_largest_worlds_search_alike(position):
    assert _searched(_net(worlds=2**63 - 1), position) == _searched(_net(worlds=64), position)


def test_netsearch_huge_wave_cut_by_iterations_is_that_wave(position):
    """Before: the whole wave of 10**18 PUCT choices was computed in Python (a hang, its list
    growing) before being cut to the 12 simulations the iterations left."""
    assert _searched(_net(wave=10**18), position) == _searched(_net(wave=12), position)


def test_netsearch_huge_first_cut_by_iterations_is_that_wave(position):
    """Before: np.tile of candidates x 10**18 raised "array is too big" before the cut."""
    bot = _net()
    bot.act_batch(*position)
    first = -(-24 // len(bot.last_search["candidates"]))  # a first wave of all 24 simulations either way
    assert _searched(_net(first=10**18, worlds=10**18), position) == _searched(_net(first=first, worlds=64), position)


@pytest.mark.parametrize("kw, what", [({"wave": 10**18}, "wave=1,000,000,000,000,000,000"),
                                      ({"first": 10**18, "worlds": 10**18},
                                       r"first=1,000,000,000,000,000,000 \(x \d+ candidates, worlds=1,000,000,000,000,000,000\)")])
def test_netsearch_wave_a_budget_leaves_uncut_is_refused_before_it(position, kw, what):
    """Before: a hang (the PUCT choices of the whole wave, or worlds sampled 16 at a time for it)."""
    bot = _net(iterations=None, budget=1e300, **kw)
    with pytest.raises(ValueError, match=rf"^NetSearchAgent: {what} with budget=1e\+300 s makes a wave of [0-9,.e+]+ "
                                         r"simulations at once, which need at least [0-9,.e+]+ GiB, more than this "
                                         rf"machine's [0-9,.]+ GiB of memory; use a smaller {list(kw)[0]}$"):
        bot.act_batch(*position)


# --- the arena -------------------------------------------------------------------------
def test_arena_workers_past_memory_are_refused_before_any_process(monkeypatch):
    """Before: workers=10**6 with 10**6 games started a pool of 7,813 processes (one per chunk),
    a fork bomb on any machine. The play is replaced: on the old code this test fails there
    instead of starting them."""
    monkeypatch.setattr(checks, "physical_memory", lambda: 16 * GiB)
    monkeypatch.setattr(arena_module, "play_tasks", lambda *a, **k: pytest.fail("the arena went on to play"))
    with pytest.raises(ArenaArgumentError, match=r"^workers=1,000,000 would start 7,813 worker processes \(one per chunk "
                                                 r"of 1,000,000 games, at most workers\), which need at least 61.0 GiB "
                                                 r"\(8 MiB each at the least\), more than this machine's 16.0 GiB of "
                                                 r"memory; use fewer workers$") as info:
        run_arena(["random", "kind-random"], games=10**6, workers=10**6, progress=False)
    assert info.value.argument == "workers"


def test_arena_many_workers_for_few_chunks_start_only_those(monkeypatch):
    """workers=10**15 for one chunk of games starts no process: allowed, as before."""
    monkeypatch.setattr(checks, "physical_memory", lambda: 1 * GiB)
    result = run_arena(["random", "kind-random"], games=4, max_rounds=3, workers=10**15, progress=False)
    assert len(result.games) == 4


def test_arena_counts_actions_of_the_longest_game():
    """A game of 2**31 - 1 rounds may take 4 steps per turn at 5 seats: its action count
    wrapped in the int32 column."""
    result = run_arena(["random", "kind-random"], games=2, max_rounds=3, progress=False)
    longest = SPACE_MISSION.max_game_length(5, MAX_ROUNDS_LIMIT)
    assert longest > 2**31 and np.iinfo(result.games.num_actions.dtype).max >= longest


def test_decision_speed_batches_hold_the_rows_asked():
    """Before: batch=300 over the 100 positions played was cut to 100 rows silently, and
    reported as 300 (bench's act_batch(300) column); now more games are played until one
    batch fills (tests/cli/test_sizes_sweep.py counts the rows of every call)."""
    r = decision_speed("random", batch=300, n=100, seconds=0.01)
    assert r["positions"] >= 300 and r["batch"] == 300


# --- the Red Planet ladder -------------------------------------------------------------
def test_red_planet_ladder_games_past_memory_are_refused_before_any(monkeypatch, capsys):
    """Every game of the ladder is held until the last ends. Before: num_games=10**12 made
    reference games one by one until the memory ran out. (Making a game is replaced: on the
    old code the test fails at the first one instead.)"""
    from spacemission_agents.red_planet import ladder

    monkeypatch.setattr(ladder, "new_game", lambda *a, **k: pytest.fail("the ladder went on to deal"))
    with pytest.raises(ValueError, match=r"^num_games=1,000,000,000,000: that many games, all held until the last ends, "
                                         r"need at least 7,629,394.5 GiB \(8 KiB each at the least\), more than this "
                                         r"machine's [0-9,.]+ GiB of memory; play fewer \(or split them over seeds\)$"):
        ladder.play_ladder(["random", "random", "random"], 10**12)
    with pytest.raises(SystemExit) as info:  # its command: a usage error, not a traceback
        ladder.main(["--lineup", "random,random,random", "--games", str(10**12)])
    assert info.value.code == 2 and "error: num_games=1,000,000,000,000: that many games" in capsys.readouterr().err
