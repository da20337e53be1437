"""Bad input to the registry and the arena (a clear error before any game), and agents
that break the protocol during a run (a forfeit, and the run goes on)."""
import json
import re

import numpy as np
import pytest

from spacemission_agents.arena import ArenaArgumentError, run_arena
from spacemission_agents.random_agents import KindRandomAgent
from spacemission_agents.registry import AGENTS, make_agent, parse_spec
from spacemission_env.space_mission import actions as A
from spacemission_env.space_mission import rules


# --- registry ---------------------------------------------------------------------------
def test_spec_syntax():
    assert parse_spec("search:budget=0.1:rollout=greedy") == ("search", None, {"budget": 0.1, "rollout": "greedy"})
    assert parse_spec("ppo") == ("ppo", None, {})
    assert parse_spec("ppo:runs/a.zip:device='cpu'") == ("ppo", "runs/a.zip", {"device": "cpu"})
    assert parse_spec("mypkg.bots:MyBot:depth=2:fast=True") == ("mypkg.bots:MyBot", None, {"depth": 2, "fast": True})
    assert set(AGENTS) == {"random", "kind-random", "greedy", "heuristic", "search", "ppo", "netsearch"}


@pytest.mark.parametrize("spec, match", [
    ("foo", r"unknown agent 'foo'.*random, kind-random, greedy, heuristic, search, ppo"),
    ("", "non-empty"),
    ("random:depth", "not KEY=VALUE"),
    ("random:seed=1:seed=2", "given twice"),
    ("random:depth=3", r"unexpected keyword argument 'depth'.*accepted parameters: seed"),
    ("kind-random:seed=-1", "seed must be a non-negative integer"),
    ("spacemission_agents.no_such_module:Bot", r"cannot import module 'spacemission_agents.no_such_module'.*available: random, kind-random"),
    ("spacemission_agents.random_agents:NoSuchBot", "has no attribute 'NoSuchBot'"),
    ("numpy:pi", "is an object, not a class|does not implement the agent protocol"),
    ("numpy.random:default_rng", "does not implement the agent protocol"),
])
def test_registry_errors_name_the_spec(spec, match):
    with pytest.raises(ValueError, match=match):
        make_agent(spec)


def test_a_model_path_holding_colons_or_equals_signs_is_read_whole(tmp_path, monkeypatch):
    """Before: parse_spec split ppo:PATH at every ':' and took an item with '=' as a parameter,
    so a model under runs/lr=3e-4/ or a:b/ could not be named at all ("parameter ... is not
    KEY=VALUE", or an unknown parameter 'lr'). Now the longest leading run of items naming an
    existing file is the path; parameters may follow; a spec of the old form reads as before,
    and one naming no file says how to work around it."""
    from pathlib import Path

    from spacemission_agents.arena_ray import portable_spec
    from spacemission_agents.ppo import PPOAgent

    shipped = Path(__file__).resolve().parents[2] / "agents" / "spacemission_agents" / "data" / "ppo_2p.npz"
    monkeypatch.chdir(tmp_path)
    for rel in ("runs/lr=3e-4/final.npz", "a:b/m=1.npz", "x.npz:v2"):
        Path(rel).parent.mkdir(parents=True, exist_ok=True)
        Path(rel).write_bytes(shipped.read_bytes())
        assert parse_spec(f"ppo:{rel}") == ("ppo", rel, {})
        assert parse_spec(f"ppo: {rel} :temperature=0.5:name='m'") == ("ppo", rel, {"temperature": 0.5, "name": "m"})
        agent = make_agent(f"ppo:{rel}:temperature=0.5")
        assert isinstance(agent, PPOAgent) and agent.temperature == 0.5
        assert portable_spec(f"ppo:{rel}:temperature=0.5") == f"ppo:{tmp_path / rel}:temperature=0.5"
        assert parse_spec(portable_spec(f"ppo:{rel}:temperature=0.5"))[1] == str(tmp_path / rel)
    assert parse_spec("ppo:missing.npz:temperature=1") == ("ppo", "missing.npz", {"temperature": 1})  # as before
    assert parse_spec("ppo:temperature=1") == ("ppo", None, {"temperature": 1})
    with pytest.raises(ValueError, match=r"parameter 'b/gone.npz' is not KEY=VALUE.*read whole only where it names "
                                         r"an existing file.*\(ln -s\)"):
        parse_spec("ppo:a:b/gone.npz")
    with pytest.raises(ValueError, match=r"unexpected keyword argument 'lr'.*read whole only where it names an existing "
                                         r"file.*\(ln -s\)"):
        make_agent("ppo:lr=1e-3/final.npz")
    with pytest.raises(ValueError, match=r"unexpected keyword argument 'temprature'; accepted parameters: [^;]*$"):
        make_agent("ppo:temprature=1")  # a misspelt parameter gets no hint about paths


def test_import_path_agents_and_seeding():
    a = make_agent("spacemission_agents.random_agents:KindRandomAgent", seed=4)
    masks = np.ones((20, A.NUM_ACTIONS), bool)
    assert (a.act_batch(None, masks) == KindRandomAgent(4).act_batch(None, masks)).all()


# --- arena arguments ----------------------------------------------------------------
class Counting(KindRandomAgent):
    """Counts its decisions: an error found "before anything runs" leaves it at 0."""

    calls = 0

    def act_batch(self, observations, action_masks):
        Counting.calls += len(action_masks)
        return super().act_batch(observations, action_masks)


@pytest.mark.parametrize("game, names, absent", [
    ("spacemission", "random, kind-random, greedy, heuristic, search, ppo, netsearch", ()),
    ("red_planet", "random, greedy, heuristic, ppo", ("kind-random", "search")),
])
def test_too_few_agents_names_the_games_own_agents(game, names, absent, tmp_path):
    """The message listed Space Mission's examples for every game (Red Planet has no
    kind-random or search bot) and left out netsearch and ppo; now each game's registered names."""
    with pytest.raises(ArenaArgumentError) as exc:
        run_arena(["random"], game=game, games=2, out=tmp_path / "out", progress=False)
    assert exc.value.argument == "agents"
    assert f": {names}, ppo:PATH or module:Class" in str(exc.value)
    assert not any(f" {name}," in str(exc.value) for name in absent)


@pytest.mark.parametrize("kwargs, argument, match", [
    (dict(agents=["random"]), "agents", "at least 2 agents"),
    (dict(agents=["random", "nope"]), "agents", "unknown agent 'nope'"),
    (dict(agents=["random", "random:budget=0.1"]), "agents", "unexpected keyword argument 'budget'"),
    (dict(agents=["random", object()]), "agents", "does not implement the agent protocol"),
    (dict(num_players=1), "num_players", r"2\.\.5"),
    (dict(num_players=6), "num_players", r"2\.\.5"),
    (dict(games=0), "games", "positive integer"),
    (dict(games=2.5), "games", "positive integer"),
    # before: the schedule's arrays were allocated after every agent was built (MemoryError),
    # and past 2**32 deals the deal seeds of arena seed s ran into those of seed s + 1
    (dict(games=10**13), "games", r"schedules 10,000,000,000,000 games in all.*at most 100,000,000"),
    (dict(games=5 * 10**7, num_players=3, seatings="permutations"), "games", r"schedules 100,000,002 games"),
    (dict(workers=0), "workers", "positive integer"),
    (dict(rules="classic"), "rules", "yucata, schmidt"),
    (dict(max_rounds=0), "max_rounds", "max_rounds"),
    (dict(seed=-1), "seed", "seed"),
    (dict(seed=2**32), "seed", r"0\.\.4294967295 \(2\*\*32 - 1: the deals' game seeds are seed \* 2\*\*32 \+ deal"),
    (dict(seed=10**80), "seed", r"got 1000000000.{67}\.\.\.$"),
    (dict(seatings="all"), "seatings", "rotations, permutations"),
    (dict(game=["spacemission"]), "game", r"unknown game \['spacemission'\]"),  # before: TypeError, unhashable
    (dict(chunk_size=0), "chunk_size", "chunk_size"),
    (dict(start_method="teleport"), "start_method", "start_method"),
])
def test_bad_arguments_fail_before_any_game(kwargs, argument, match, tmp_path):
    args = dict(agents=[Counting(), "random"], num_players=2, games=4, out=tmp_path / "out", progress=False)
    args.update(kwargs)
    Counting.calls = 0
    with pytest.raises(ArenaArgumentError, match=match) as info:
        run_arena(**args)
    assert info.value.argument == argument and isinstance(info.value, ValueError)
    assert Counting.calls == 0 and not (tmp_path / "out").exists()


class Budgeted(KindRandomAgent):
    """Stands in for a search bot: rejects a budget that is not positive."""

    def __init__(self, budget: float = 0.1, seed=None):
        if not budget > 0:
            raise ValueError(f"budget must be > 0 seconds, got {budget!r}")
        super().__init__(seed)


def test_bad_budget_is_an_agents_error():
    spec = f"{__name__}:Budgeted:budget=-1"
    with pytest.raises(ArenaArgumentError, match=r"budget must be > 0 seconds, got -1") as info:
        run_arena(["random", spec], games=2, progress=False)
    assert info.value.argument == "agents" and spec in str(info.value)
    assert run_arena(["random", f"{__name__}:Budgeted:budget=0.5"], games=2, max_rounds=3, progress=False).num_games == 2


def test_out_must_not_be_a_file(tmp_path):
    f = tmp_path / "results.txt"
    f.write_text("keep me")
    with pytest.raises(ArenaArgumentError, match="is a file") as info:
        run_arena(["random", "kind-random"], games=2, out=f, progress=False)
    assert info.value.argument == "out" and f.read_text() == "keep me"


def test_unknown_observation_type_and_rejected_configuration():
    class Seer(KindRandomAgent):
        observation_type = "oracle"

    with pytest.raises(ArenaArgumentError, match="observation_type 'oracle'"):
        run_arena([Seer(), "random"], games=2, progress=False)

    class TwoPlayersOnly(KindRandomAgent):
        def bind(self, config):
            if config.num_players != 2:
                raise ValueError("plays 2-player games only")

    with pytest.raises(ArenaArgumentError, match="plays 2-player games only"):
        run_arena([TwoPlayersOnly(), "random"], num_players=3, games=3, progress=False)


class BadSeed(KindRandomAgent):
    def seed(self, seed):
        if hasattr(self, "_rng"):  # built: every later call fails
            raise RuntimeError("no entropy today")
        super().seed(seed)


class BadView(KindRandomAgent):
    @property
    def observation_type(self):
        raise RuntimeError("view not configured")


@pytest.mark.parametrize("agent, match", [(BadSeed, r"in seed\(\) \(the arena seeds each agent with a 63-bit "
                                                    r"integer\): RuntimeError: no entropy today"),
                                          (BadView, "before its first game: RuntimeError: view not configured")])
def test_agent_failing_before_its_first_game_is_an_agents_error(agent, match, tmp_path):
    """Before: the exception of seed() (first called in a chunk) or of the observation_type
    property escaped run_arena bare, without the agent's name."""
    with pytest.raises(ArenaArgumentError, match=f"agent 'kind-random' failed {match}") as info:
        run_arena([agent(), "random"], games=2, out=tmp_path / "out", progress=False)
    assert info.value.argument == "agents" and not (tmp_path / "out").exists()


class LegacySeed(KindRandomAgent):
    """Seeds numpy's legacy RandomState, which takes 0 but nothing at or above 2**32."""

    def seed(self, seed=None):
        np.random.RandomState(seed)
        super().seed(seed)


def test_a_seed_the_first_chunk_refuses_is_found_before_any_game_and_old_results_go(tmp_path):
    """The check before the first game tried seed(0); the chunks pass 63-bit seeds, so an
    agent on numpy's legacy RandomState passed it and raised in the first chunk, after
    games.jsonl was emptied and beside the earlier run's results.json. Now the check passes
    the first chunk's seed; and a run removes the earlier run's files from ``out`` first."""
    out = tmp_path / "out"
    run_arena(["random", "kind-random"], games=2, out=out, progress=False)
    assert (out / "results.json").is_file() and (out / "games.jsonl").stat().st_size > 0
    with pytest.raises(ArenaArgumentError, match=r"agent 'kind-random' failed in seed\(\) .*ValueError"):
        run_arena([LegacySeed(), "random"], games=2, out=out, progress=False, overwrite=True)
    assert (out / "results.json").is_file()  # refused before anything was touched

    class FailsLater(KindRandomAgent):
        calls = 0

        def seed(self, seed=None):
            FailsLater.calls += 1
            if FailsLater.calls > 1:  # the check passes; the first chunk fails
                raise RuntimeError("no entropy today")
            super().seed(seed)

    agent = FailsLater()
    FailsLater.calls = 0  # the constructor seeded it too
    with pytest.raises(RuntimeError, match="failed in seed"):
        run_arena([agent, "random"], games=2, out=out, progress=False, overwrite=True)
    assert sorted(p.name for p in out.iterdir()) == ["games.jsonl"]  # this run's (no game ended), no old results
    assert (out / "games.jsonl").read_text() == ""


def test_every_seed_below_2_to_the_32_is_played_with_its_documented_deal_seeds(tmp_path):
    """Before: seeds from 2**31 were refused ("0..2147483647"), a limit left from int64 game
    seeds; the engines take game seeds below 2**64, which seed * 2**32 + deal stays under for
    every seed below 2**32 (and deal below 2**32, as the games check keeps it). Seeds in the
    old range play as before (their deal seeds are the same formula)."""
    for seed in (2**31, 2**32 - 1):
        result = run_arena(["random", "kind-random"], games=4, seed=seed, max_rounds=3, progress=False,
                           out=tmp_path / str(seed))
        assert result.games.seeds.tolist() == [seed * 2**32 + d for d in (0, 0, 1, 1)]
        assert result.config["seed"] == seed
        records = [json.loads(line) for line in (tmp_path / str(seed) / "games.jsonl").read_text().splitlines()]
        assert [r["seed"] for r in records] == [seed * 2**32 + d for d in (0, 0, 1, 1)]
    assert run_arena(["random", "kind-random"], games=4, seed=3, max_rounds=3, progress=False).games.seeds.tolist() == \
        [3 * 2**32 + d for d in (0, 0, 1, 1)]


def test_largest_schedule_is_allowed():
    from spacemission_agents.arena import MAX_SCHEDULED_GAMES, _schedule, _scheduled_games
    for agents, players, games, mode in [(2, 2, 7, "rotations"), (3, 3, 5, "permutations"), (2, 5, 9, "permutations"),
                                         (4, 3, 10, "rotations"), (2, 3, 4, "rotations")]:
        sched, deals, _ = _schedule(agents, players, games, 0, mode)
        assert _scheduled_games(agents, players, games, mode) == (deals, len(sched["seeds"]))
    assert _scheduled_games(2, 2, MAX_SCHEDULED_GAMES, "rotations")[1] == MAX_SCHEDULED_GAMES


def test_a_huge_games_count_is_refused_with_its_exact_total():
    """Before: ``games / per_deal`` in floats: 10**23 - 1 games were counted as
    99,999,999,999,999,991,611,392 in the message, and 4000 digits raised OverflowError."""
    from spacemission_agents.arena import _scheduled_games
    assert _scheduled_games(2, 2, 10**23 - 1, "rotations") == (5 * 10**22, 10**23)
    with pytest.raises(ArenaArgumentError, match="games=9{20}.* schedules 10,000,000,"):
        run_arena(["random", "random"], games=10**4000 - 1, progress=False)


# --- forfeits -------------------------------------------------------------------------------
class Cheater(KindRandomAgent):
    """Plays an illegal id whenever discover is legal."""

    name = "cheater"

    def act_batch(self, observations, action_masks):
        a = super().act_batch(observations, action_masks)
        m = np.asarray(action_masks, bool)
        cheat = m[:, A.DISCOVER]
        a[cheat] = np.argmin(m[cheat], axis=1)  # the lowest illegal id
        return a


class Crasher(KindRandomAgent):
    """Raises whenever one of its rows may discover (the arena then asks row by row)."""

    name = "crasher"

    def act_batch(self, observations, action_masks):
        if np.asarray(action_masks, bool)[:, A.DISCOVER].any():
            raise RuntimeError("boom")
        return super().act_batch(observations, action_masks)


class Seen(KindRandomAgent):
    """Checks that it is given its own seat's observation of the type it asks for."""

    name = "seen"
    uses_observation = True
    observation_type = "info"
    shapes: set = set()

    def act_batch(self, observations, action_masks):
        Seen.shapes.add(np.asarray(observations).shape[1:])
        return super().act_batch(observations, action_masks)


def test_forfeits_are_losses_and_the_run_goes_on(tmp_path):
    messages = []
    result = run_arena([Cheater(), Crasher(), "kind-random", Seen()], num_players=2, games=6, seed=1, out=tmp_path,
                       chunk_size=64, progress=False, log=messages.append)
    g = result.games
    assert len(result.forfeits) == len(messages) == (g.forfeit_seat >= 0).sum() > 0
    names = result.config["agents"]
    forfeiters = {names[g.seats[i, g.forfeit_seat[i]]] for i in np.flatnonzero(g.forfeit_seat >= 0)}
    assert forfeiters <= {"cheater", "crasher"} and "cheater" in forfeiters
    for f, msg in zip(result.forfeits, messages):
        assert f["message"] == msg
        assert f"agent {f['agent']!r} forfeits game {f['game']} (seed {f['seed']}, seat {f['seat']}" in msg
        if f["agent"] == "cheater":
            assert f"returned illegal action {f['action']}" in msg and "legal: [" in msg
        else:
            assert "raised RuntimeError: boom" in msg and f["action"] is None
    # a forfeit is a loss to every other seat, and every other game is played to its end
    ranks, _ = g.ranks()
    for i in range(len(g)):
        if g.forfeit_seat[i] >= 0:
            assert ranks[i, g.forfeit_seat[i]] == 2
    clean = g.forfeit_seat < 0
    kr, seen = names.index("kind-random"), names.index("seen")
    both = clean & (g.seats == kr).any(axis=1) & (g.seats == seen).any(axis=1)
    assert both.sum() == result.pair("kind-random", "seen").games == 6
    assert result.agent("cheater").forfeits + result.agent("crasher").forfeits == len(result.forfeits)
    assert result.pair("kind-random", "cheater").opponent_forfeits == result.agent("cheater").forfeits - \
        result.pair("crasher", "cheater").opponent_forfeits - result.pair("seen", "cheater").opponent_forfeits
    from spacemission_env.space_mission import engine
    assert Seen.shapes == {(engine.observation_size("info"),)}
    # the recorded forfeited games replay to their provisional scores, unfinished
    for line in open(tmp_path / "games.jsonl"):
        rec = json.loads(line)
        if rec["forfeit"] is None:
            continue
        s = rules.new_game(2, seed=rec["seed"], rules="yucata")
        for seat, action, _ in rec["actions"]:
            rules.apply(s, action)
        assert not s.is_over and s.current_player == rec["forfeit"]["seat"]
        assert rules.scores(s) == rec["scores"]
        assert rec["ranks"][rec["forfeit"]["seat"]] == 2 and rec["forfeit"]["seat"] not in rec["winners"]
        if rec["forfeit"]["action"] is not None:
            assert not rules.is_legal(s, rec["forfeit"]["action"])
    data = json.loads((tmp_path / "results.json").read_text())
    assert data["totals"]["forfeits"] == len(result.forfeits)


class Exiter(KindRandomAgent):
    """Calls sys.exit whenever one of its rows may discover."""

    name = "exiter"

    def act_batch(self, observations, action_masks):
        if np.asarray(action_masks, bool)[:, A.DISCOVER].any():
            raise SystemExit(3)
        return super().act_batch(observations, action_masks)


class Verbose(KindRandomAgent):
    """Raises with a message of one 5000-character word (a whole array printed into it, say)."""

    name = "verbose"

    def act_batch(self, observations, action_masks):
        raise RuntimeError("x" * 5000)


def test_a_forfeit_cuts_the_agents_exception_text(tmp_path):
    """Before: the whole exception text went into every forfeit message, the log and results.json."""
    messages = []
    result = run_arena([Verbose(), "random"], games=2, seed=1, out=tmp_path, progress=False, log=messages.append)
    assert len(messages) == 2
    for f, msg in zip(result.forfeits, messages):
        assert f["reason"] == "raised RuntimeError: " + "x" * 77 + "..." and len(msg) < 200
    assert "x" * 81 not in (tmp_path / "results.json").read_text() + (tmp_path / "games.jsonl").read_text()


class WorkerInterrupt(KindRandomAgent):
    """Raises KeyboardInterrupt in act_batch, but only in another process than the one that built it."""

    name = "interrupter"

    def __init__(self, seed=None):
        super().__init__(seed)
        import os

        self.pid = os.getpid()

    def act_batch(self, observations, action_masks):
        import os

        if os.getpid() != self.pid:
            raise KeyboardInterrupt
        return super().act_batch(observations, action_masks)


@pytest.mark.parametrize("workers", [1, 2])
def test_an_agent_calling_sys_exit_forfeits(workers):
    """Before: SystemExit from an agent's act_batch is no Exception: with one worker it ended the
    whole arena (the command exited 3 without a word); in a worker process it ended that
    worker, its chunk was lost and the arena waited for it forever. Now a forfeit naming the
    agent, game, seed and seat, as for any exception; the same results for any workers."""
    messages = []
    result = run_arena([Exiter(), "kind-random"], games=4, seed=1, chunk_size=2, workers=workers, progress=False,
                       log=messages.append)
    assert len(result.forfeits) == len(messages) > 0
    for f in result.forfeits:
        assert f["agent"] == "exiter" and f["reason"] == "raised SystemExit: 3" and f["action"] is None
        assert f"agent 'exiter' forfeits game {f['game']} (seed {f['seed']}, seat {f['seat']}, round" in f["message"]
    assert result.num_games == 4


def test_a_keyboard_interrupt_raised_by_an_agent_in_a_worker_forfeits():
    """Before: it ended the worker process (the pool passes on Exceptions only; the workers
    ignore SIGINT, so only an agent raises it there) and the arena hung for the lost chunk."""
    result = run_arena([WorkerInterrupt(), "kind-random"], games=4, seed=1, chunk_size=2, workers=2, progress=False,
                       start_method="fork", log=lambda m: None)
    assert len(result.forfeits) == 4  # each game's first decision of the agent: it never plays
    assert {f["reason"] for f in result.forfeits} == {"raised KeyboardInterrupt: "}


class WorkerSeedInterrupt(WorkerInterrupt):
    def act_batch(self, observations, action_masks):
        return KindRandomAgent.act_batch(self, observations, action_masks)

    def seed(self, seed=None):
        import os

        if os.getpid() != getattr(self, "pid", os.getpid()):
            raise KeyboardInterrupt
        super().seed(seed)


def test_a_worker_whose_chunk_ends_in_a_base_exception_stops_the_arena_with_an_error():
    """Before: a BaseException other than an agent's act_batch (seed() raising KeyboardInterrupt
    in a worker) ended the worker, and the arena waited for its chunk forever. Now the chunk
    fails with a RuntimeError naming the agent whose seed() it was (as for any exception there),
    which run_arena raises."""
    with pytest.raises(RuntimeError, match=r"agent 'interrupter' failed in seed\(\): KeyboardInterrupt"):
        run_arena([WorkerSeedInterrupt(), "kind-random"], games=4, seed=1, chunk_size=2, workers=2, progress=False,
                  start_method="fork")


def test_an_agent_interrupting_its_constructor_in_a_spawned_worker_stops_the_arena_with_an_error():
    """Before: a spawned worker builds its agents from their specs in the pool's initializer,
    which caught an Exception only: a KeyboardInterrupt there (no Ctrl-C pressed; the workers
    ignore SIGINT) ended the worker with a traceback of its own, and the arena said only that a
    worker process ended (exit code 1) in the middle of a chunk. Now it is the chunk's error,
    naming what the agent raised, as for an exception there."""
    with pytest.raises(RuntimeError, match=r"worker start failed: ValueError: agent spec "
                                           r"'tests\.helpers\.external_agents:InterruptsInWorkers' failed as it was "
                                           r"built: KeyboardInterrupt"):
        run_arena(["tests.helpers.external_agents:InterruptsInWorkers", "kind-random"], games=4, seed=1, chunk_size=2,
                  max_rounds=3, workers=2, progress=False, start_method="spawn")


class ProcessEnder(KindRandomAgent):
    """Ends its process with os._exit in act_batch, but only in another process than the one that built it."""

    def __init__(self, seed=None):
        super().__init__(seed)
        import os

        self.pid = os.getpid()

    def act_batch(self, observations, action_masks):
        import os

        if os.getpid() != self.pid:
            os._exit(7)
        return super().act_batch(observations, action_masks)


def test_a_worker_process_that_ends_stops_the_arena_with_an_error():
    """Before: an agent that ended its worker process (os._exit, a crash in native code) lost
    that chunk, and the arena waited for it forever. Now a RuntimeError says a worker ended,
    with its exit code, and how to find the agent."""
    with pytest.raises(RuntimeError, match=r"a worker process ended \(exit code 7\).*; chunk_size=1 \(--chunk-size 1\) "
                                           r"narrows it down to one game and its lineup$") as info:
        run_arena([ProcessEnder(), "kind-random"], games=4, seed=1, chunk_size=2, workers=2, progress=False,
                  start_method="fork")
    # it said 'workers=1 (--workers 1, without --ray) shows which agent and game', where the agent ends the
    # arena's own process instead: with no word for os._exit (docs/arena.md)
    assert "workers=1" not in str(info.value) and "traceback" not in str(info.value)


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
@pytest.mark.parametrize("code, how", [(7, "exit code 7"), (-9, "killed by signal SIGKILL")])
def test_a_worker_process_that_ends_is_named_with_its_chunk(code, how, start_method):
    """Before: the error said 'in the middle of a chunk' (which, and whose games, left to find with
    workers=1), and a worker the system killed for memory 'exit code -9'. Now it names the chunk
    the worker was playing (its games, deals and lineup: from the chunk's start message, which the
    worker sends before its first game) and the signal that killed it. Three chunks of one lineup
    (games 0..1, 2..3, 4..5: a deal is 2 games), both workers end in their first."""
    spec = f"tests.helpers.external_agents:Ends:code={code}"
    with pytest.raises(RuntimeError) as info:
        run_arena([spec, "kind-random"], games=6, seed=1, chunk_size=2, workers=2, progress=False,
                  start_method=start_method)
    message = str(info.value)
    chunk = re.search(r"in the middle of chunk ([01]) \(games (\d+)\.\.(\d+), deals (\d+)\.\.(\d+) of "
                      rf"{re.escape(spec)} vs kind-random\): an agent ended it", message)
    assert message.startswith(f"a worker process ended ({how}) in the middle of chunk "), message
    assert chunk is not None, message
    c, g0, g1, d0, d1 = map(int, chunk.groups())
    assert (g0, g1, d0, d1) == (2 * c, 2 * c + 1, c, c)


def test_an_unhashable_game_is_named_by_the_registry():
    """Before: make_agent("random", game=["x"]) raised TypeError (unhashable type: 'list')."""
    with pytest.raises(ValueError, match=r"unknown game \['x'\]; expected one of"):
        make_agent("random", game=["x"])


def test_the_ray_arena_without_ray_is_refused_before_any_game(tmp_path, monkeypatch):
    """Before: run_arena(ray="") without Ray installed built and bound every agent, made out and
    failed in the first chunk with a bare ModuleNotFoundError (the command checks it itself)."""
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else find_spec(name, *a))
    with pytest.raises(ArenaArgumentError, match=r"Ray is not installed; pip install -e '\.\[ray\]'") as info:
        run_arena(["random", "kind-random"], games=2, ray="", out=tmp_path / "out", progress=False)
    assert info.value.argument == "ray" and not (tmp_path / "out").exists()


def test_overwrite_without_out_is_refused(capsys):
    """Before: `spacemission arena --overwrite` without --out (the user meant to write results
    somewhere) played every game and wrote nothing, without a word."""
    with pytest.raises(ArenaArgumentError, match=r"overwrite=True replaces an earlier run's files in out, but no out "
                                                 r"is given") as info:
        run_arena(["random", "kind-random"], games=2, overwrite=True, progress=False)
    assert info.value.argument == "overwrite"
    from spacemission_cli.main import main

    with pytest.raises(SystemExit) as exit_info:
        main(["arena", "--agents", "random,kind-random", "--games", "2", "--overwrite", "--no-progress"])
    assert exit_info.value.code == 2
    assert "argument --overwrite: overwrite=True replaces an earlier run's files in out" in capsys.readouterr().err


def test_result_key_errors_cut_the_agent_names():
    """ArenaResult's KeyError listed every agent name whole (a 5000-character name repeated)."""
    import dataclasses

    result = run_arena(["random", "random"], games=2, progress=False, record=False)
    long = "n" * 5000
    result.agents = [dataclasses.replace(a, name=long) if i == 0 else a for i, a in enumerate(result.agents)]
    for ask in (lambda: result.agent("nosuch"), lambda: result.pair("nosuch", "other")):
        with pytest.raises(KeyError) as info:
            ask()
        assert len(str(info.value)) < 400 and "nnnn" in str(info.value)


def test_a_pool_whose_terminate_blocks_is_stopped_within_its_timeout():
    """python/cpython#96995: Pool.terminate can block for good, on the result queue's lock that a
    worker killed while sending its result left taken (an arena whose worker failed hung in CI
    in terminate; about once in 13 runs of the test above on a slow machine). Here the lock is
    taken by this process instead, so terminate blocks on it; the arena's stop gives up after
    its timeout, kills and reaps the pool's workers and leaves this process's other children."""
    import multiprocessing as mp
    import signal
    import time

    from spacemission_agents.arena_workers import _stop_pool

    ctx = mp.get_context("spawn")
    other = ctx.Process(target=time.sleep, args=(60,))
    other.start()
    others = set(mp.active_children())
    pool = ctx.Pool(2)
    workers = set(mp.active_children()) - others
    lock = pool._outqueue._wlock  # what a worker killed in its put leaves taken
    lock.acquire()
    try:
        t0 = time.perf_counter()
        _stop_pool(pool, others, timeout=0.5)
        assert time.perf_counter() - t0 < 10
        assert len(workers) == 2 and all(p.exitcode == -signal.SIGKILL for p in workers)
        assert other.exitcode is None  # not the pool's: left running
    finally:
        lock.release()  # the blocked terminate goes on, its workers gone
        other.kill()
        other.join()
