"""Bring your own agent: third-party agents (tests/helpers/external_agents.py, written from
the docs only) through the arena (API and command, 1 and 2 workers, seatings, recorded
games and their replay), ``spacemission play``, ``spacemission serve`` and the Gymnasium
env, for both games. Tests marked "Before:" failed on the code before their fix."""
from __future__ import annotations

import json
import re
import sys

import numpy as np
import pytest

from spacemission_agents.arena import ArenaArgumentError, run_arena
from spacemission_agents.registry import make_agent
from spacemission_cli import main as cli_main
from spacemission_cli import replay
from tests.helpers import external_agents as E
from tests.helpers.cli_play import run_play
from tests.helpers.web import refused, web_client

H = "tests.helpers.external_agents"
GAMES = [("spacemission", 2), ("red_planet", 3)]


def arena(agents, game="spacemission", players=2, **kw):
    messages = []
    kw.setdefault("games", players)
    if game == "spacemission":
        kw.setdefault("max_rounds", 6)
    result = run_arena(agents, num_players=players, game=game, progress=False, log=messages.append, **kw)
    return result, messages


# --- what the docs promise works --------------------------------------------------------------
@pytest.mark.parametrize("game, players", GAMES)
def test_documented_agents_play_by_spec_and_as_objects(game, players):
    """Only act_batch or only act on BasePolicy, a plain class with both, keyword arguments from
    the spec, an instance named by import path, a class named like a built-in: no forfeit."""
    agents = [f"{H}:First", f"{H}:Last:offset=1:label='x'", f"{H}:FirstBatched", f"{H}:MINIMAL",
              f"{H}:RandomAgent", E.Last(offset=2)]
    result, messages = arena(agents, game, players)
    assert messages == [] and result.forfeits == []
    assert [a.name for a in result.agents][-1] == "Last" and make_agent(f"{H}:Last:offset=1:label='x'").label == "x"


def test_hooks_run_where_and_when_the_docs_say(tmp_path):
    """bind once in the parent before any game (workers inherit the bound agent), seed at the
    start of every chunk in the process that plays it, before its first act_batch."""
    log = tmp_path / "hooks.jsonl"
    result, _ = arena([f"{H}:Logged:log='{log}'", "random"], games=8, chunk_size=2, workers=2)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["event"] for e in events[:2]] == ["bind", "seed"]  # built, bound and checked in the parent
    parent = events[0]["pid"]
    played = [e for e in events if e["pid"] != parent]
    assert [e for e in events if e["event"] == "bind"] == events[:1]
    assert sum(e["event"] == "seed" for e in played) == 4  # one per chunk
    for pid in {e["pid"] for e in played}:
        mine = [e["event"] for e in played if e["pid"] == pid]
        assert mine[0] == "seed"
    assert result.forfeits == []


@pytest.mark.filterwarnings("error::UserWarning")  # arena.png: long specs' labels fit (tight_layout warned)
@pytest.mark.parametrize("game, players, seatings", [("spacemission", 3, "permutations"), ("red_planet", 4, "rotations")])
def test_command_workers_seatings_record_and_replay(game, players, seatings, tmp_path, capsys):
    """spacemission arena with workers 1 and 2 gives byte-equal records, a forfeit included; each
    replays, and the replay names the forfeit (before: Red Planet's replay did not)."""
    agents = f"{H}:First,{H}:Returns:kind='illegal':after=5,random"
    outs = []
    for workers in (1, 2):
        out = tmp_path / f"w{workers}"
        argv = ["arena", "--game", game, "--agents", agents, "--players", str(players), "--games", str(players),
                "--seatings", seatings, "--workers", str(workers), "--chunk-size", "4", "--seed", "3",
                "--out", str(out), "--no-progress"]
        if game == "spacemission":
            argv += ["--max-rounds", "8"]
        assert cli_main.main(argv) == 0
        outs.append((out / "games.jsonl").read_bytes())
    assert outs[0] == outs[1]
    capsys.readouterr()
    records = [json.loads(line) for line in outs[0].splitlines()]
    forfeited = [r for r in records if r["forfeit"]]
    assert forfeited and all(r["ranks"][r["forfeit"]["seat"]] == players for r in forfeited)
    for rec in (records[0], forfeited[0]):
        assert replay.main([str(tmp_path / "w1" / "games.jsonl"), "--game", str(rec["game"]), "--boards", "end"]) == 0
        out = " ".join(capsys.readouterr().out.split())  # rich wraps long lines
        assert "matches the record" in out
        if rec["forfeit"]:
            assert "forfeited: returned illegal action" in out


def test_gymnasium_env_takes_agent_objects_as_opponents():
    import gymnasium

    import spacemission_env  # noqa: F401 - registers the env

    env = gymnasium.make("SpaceMission-v3", num_players=3, opponents=[E.First(), E.FirstBatched()], max_rounds=3)
    obs, info = env.reset(seed=0)
    terminated = False
    while not terminated:
        obs, _, terminated, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert not info["illegal_action"]


@pytest.mark.parametrize("game, players", GAMES)
def test_an_opponent_whose_seed_fails_is_named_and_the_env_left_as_it_was(game, players):
    """Before: a seeded reset passed on the opponent's error without naming it, after reseeding
    the env's generator (Gymnasium) or the VecEnv's (SB3), with the old game still in place."""
    import spacemission_env

    env = spacemission_env.GameEnv(game=game, num_players=players, opponents=E.Raises("seed"))
    env.reset()
    before = env.np_random.bit_generator.state
    with pytest.raises(LookupError, match="boom in seed") as exc:
        env.reset(seed=1)
    assert any("raised by seed() of opponent <tests.helpers.external_agents.Raises" in n for n in exc.value.__notes__)
    assert env.np_random.bit_generator.state == before
    if game == "spacemission":
        pytest.importorskip("stable_baselines3")
        from spacemission_env.sb3 import SpaceMissionVecEnv

        venv = SpaceMissionVecEnv(2, num_players=players, opponents=E.Raises("seed"))
        venv.reset()
        before = venv._rng.bit_generator.state
        venv.seed(1)
        with pytest.raises(LookupError, match="boom in seed") as exc:
            venv.reset()
        assert any("raised by seed() of opponent" in n for n in exc.value.__notes__)
        assert venv._rng.bit_generator.state == before


# --- bad agents: a clear error naming the agent, before any game ----------------------------
def test_a_class_given_for_an_agent_object_is_refused():
    """Before: accepted, named 'type', and every one of its games a forfeit (act_batch unbound)."""
    with pytest.raises(ArenaArgumentError, match=r"agent 0 .*First is a class, not an agent object: pass an "
                                                 r"instance \(First\(\)\)") as exc:
        arena([E.First, "random"])
    assert exc.value.argument == "agents"


@pytest.mark.parametrize("agent, has, lacks", [("ActOnly", "act", "act_batch"), ("BatchOnly", "act_batch", "act")])
def test_half_the_protocol_names_the_missing_method_and_base_policy(agent, has, lacks):
    """Before: '<... object at 0x...> does not implement the agent protocol (act and act_batch)'."""
    match = f"{agent} object has {has} but no {lacks}: it does not implement the agent protocol.*BasePolicy"
    with pytest.raises(ValueError, match=match):
        make_agent(f"{H}:{agent}")
    with pytest.raises(ArenaArgumentError, match=match):
        arena([getattr(E, agent)(), "random"])


def test_make_agent_names_the_spec_when_seed_or_the_module_fails(tmp_path, monkeypatch):
    """Before: seed() and a module failing as it loads raised from deep inside (the command
    printed a traceback)."""
    with pytest.raises(ValueError, match=r"agent spec .*Raises:where='seed'.*seed\(1\) failed: LookupError: boom in seed"):
        make_agent(f"{H}:Raises:where='seed'", seed=1)
    (tmp_path / "broken_bots.py").write_text("raise LookupError('no weights here')\n")
    (tmp_path / "typo_bots.py").write_text("def f(:\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(ValueError, match=r"agent 'broken_bots:Bot': importing module 'broken_bots' failed: "
                                         r"LookupError: no weights here"):
        make_agent("broken_bots:Bot")
    with pytest.raises(ArenaArgumentError, match=r"importing module 'typo_bots' failed: SyntaxError"):
        arena(["typo_bots:Bot", "random"])
    with pytest.raises(ValueError, match=r"cannot import module 'no_such_bots'.*current one or on PYTHONPATH"):
        make_agent("no_such_bots:Bot")


def test_the_command_imports_agents_from_the_current_directory(tmp_path, monkeypatch, capsys):
    """Before: 'spacemission arena --agents mybots:Bot' run where mybots.py lies failed with
    "No module named 'mybots'": the console script puts only its own directory on sys.path."""
    (tmp_path / "mybots_cwd.py").write_text("from tests.helpers.external_agents import First as Bot\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, "mybots_cwd", raising=False)
    assert cli_main.main(["arena", "--agents", "mybots_cwd:Bot,random", "--games", "2", "--max-rounds", "3",
                          "--no-progress"]) == 0
    assert "mybots_cwd:Bot" in capsys.readouterr().out
    sys.modules.pop("mybots_cwd", None)


# --- bad agents during play: a forfeit naming agent, seat and problem -------------------------
@pytest.mark.parametrize("kind, reason", [
    ("none", r"act_batch returned None, expected an int array of shape \(1,\)"),
    ("nan", r"act_batch returned dtype float64 \(\[nan\]\), expected integer action ids"),
    ("whole_float", r"act_batch returned dtype float64 \(\[\d+\.0\]\), expected integer action ids"),
    ("string", r"act_batch returned dtype <U\d+ \(\['\d+'\]\), expected integer action ids"),
    ("wrong_shape", r"act_batch returned shape \(1, 2\), expected \(1,\)"),
    ("out_of_range", r"returned illegal action (100|243) \(outside the action ids 0\.\.(99|242)\); legal: \["),
    ("illegal", r"returned illegal action \d+; legal: \["),
])
@pytest.mark.parametrize("game, players", GAMES)
def test_bad_answers_forfeit_with_what_was_returned(kind, reason, game, players):
    """Before: a float array of whole numbers (3.0) was played as an int, against the docs
    ('not an int array' forfeits) and the environments (a float action is a TypeError); the
    other bad answers were reported as 'raised TypeError/ValueError', as if the agent had raised."""
    result, messages = arena([E.Returns(kind), "random"], game, players)
    assert len(messages) == len(result.forfeits) == result.config["games"]  # every game (each has the agent), once
    for f, msg in zip(result.forfeits, messages):
        assert msg.startswith(f"agent 'Returns' forfeits game {f['game']} (seed {f['seed']}, seat {f['seat']}, round ")
        assert "raised" not in msg
        assert re.search(reason, msg), msg
    assert result.agent("Returns").forfeits == len(messages) and result.agent("random").forfeits == 0
    if players == 2:  # (with two seats of the agent, its seat that did not forfeit may beat random)
        assert result.agent("Returns").win_rate == 0.0


@pytest.mark.parametrize("game, players", GAMES)
def test_an_agent_that_writes_to_its_mask_forfeits_its_illegal_action(game, players):
    """Before: the arena checked the answer against the mask the agent had been given, which it
    had set all True, so the illegal id reached the engine, whose error ended the whole run."""
    result, messages = arena([E.MaskWriter(), "random"], game, players)
    assert len(messages) == len(result.forfeits) == result.config["games"]
    assert all(re.search(r"agent 'MaskWriter' forfeits game .*: returned illegal action \d+; legal: \[", m)
               for m in messages), messages


@pytest.mark.parametrize("game, players", GAMES)
@pytest.mark.parametrize("agent, answer", [
    (E.ActAnswers("float"), r"ActAnswers.act returned \d+\.5 \(float\)"),
    (E.ActAnswers("whole_float"), r"ActAnswers.act returned \d+\.0 \(float\)"),
    (E.ActAnswers("bool"), r"ActAnswers.act returned True \(bool\)"),
    (E.ActAnswers("string"), r"ActAnswers.act returned '\d+' \(str\)"),
])
def test_base_policy_converts_no_answer_of_act(agent, answer, game, players):
    """Before: BasePolicy's act_batch cast act's answers to int64 (3.5 played as 3, True as 1,
    '3' as 3): no forfeit, against the docs (nothing is converted)."""
    result, messages = arena([agent, "random"], game, players)
    assert len(messages) == result.config["games"]
    assert all(re.search(r"forfeits game .*: raised TypeError: " + answer + "; expected an integer action id", m)
               for m in messages), messages


@pytest.mark.parametrize("game, players", GAMES)
def test_base_policy_converts_no_answer_of_act_batch(game, players, monkeypatch, capsys):
    """Before: BasePolicy's act took int() of act_batch's float (3.5 played as 3) in play and
    the Gymnasium env, where the arena forfeits the same agent."""
    import spacemission_env

    env = spacemission_env.GameEnv(game=game, num_players=players, opponents=E.BatchFloats(), seat=players - 1,
                                   rules="schmidt" if game == "spacemission" else None)  # seat 0 opens
    with pytest.raises(TypeError, match=r"BatchFloats.act_batch returned array\(\[\d+\.5\]\) for one decision; "
                                        r"expected an integer array of shape \(1,\)"):
        _, info = env.reset(seed=0)
        for _ in range(players * 4):
            _, _, _, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
    code, out, err = _play(["--game", game, "--players", str(players), "--opponents", f"{H}:BatchFloats",
                            "--seat", "1", "--seed", "1"], monkeypatch, capsys)
    text = " ".join((out + err).split())
    assert re.search(r"\(seat [02]\) failed: TypeError: BatchFloats.act_batch returned array", text), text


@pytest.mark.parametrize("game, players", GAMES)
def test_play_names_a_bot_that_writes_to_its_mask(game, players, monkeypatch, capsys):
    """Before: play checked the answer against the mask the bot had set all True, and the rules'
    own refusal ended the command with a traceback."""
    code, out, err = _play(["--game", game, "--players", str(players), "--opponents", f"{H}:MaskWriter",
                            "--seat", "1", "--seed", "1"], monkeypatch, capsys)
    text = " ".join((out + err).split())
    assert re.search(rf'opponent .{H}:MaskWriter. \(seat [02]\) returned \d+, not a legal action', text), text


@pytest.mark.parametrize("game, players", GAMES)
def test_an_agent_that_raises_forfeits_naming_the_exception(game, players):
    result, messages = arena([f"{H}:Raises:where='act'", "random"], game, players)
    assert len(messages) == result.config["games"] and all("raised LookupError: boom in act" in m for m in messages)


@pytest.mark.parametrize("where", ["bind", "seed", "observation_type", "init"])
def test_arena_refuses_an_agent_whose_hooks_fail_before_any_game(where):
    with pytest.raises(ArenaArgumentError, match=f"LookupError: boom in {where}"):
        arena([f"{H}:Raises:where='{where}'", "random"])


def test_unpicklable_agents_with_two_workers():
    """fork: an object goes as it is; spawn: refused by name before any game; a spec always works."""
    result, _ = arena([E.Unpicklable(), f"{H}:Unpicklable", "random"], games=4, workers=2, chunk_size=2)
    assert result.forfeits == []
    with pytest.raises(ArenaArgumentError, match="agent 'Unpicklable' cannot be sent to worker processes"):
        arena([E.Unpicklable(), "random"], workers=2, start_method="spawn")


@pytest.mark.parametrize("game, players, spec, fits", [
    ("spacemission", 3, f"{H}:Only:players=2", False), ("spacemission", 2, f"{H}:Only:players=2", True),
    ("red_planet", 3, f"{H}:Only", False), ("red_planet", 4, f"{H}:Only:game='red_planet':players=3", False),
    ("red_planet", 3, f"{H}:Only:game='red_planet':players=3", True),
])
def test_agents_for_some_games_only_are_refused_by_their_bind(game, players, spec, fits):
    if fits:
        assert arena([spec, "random"], game, players)[0].forfeits == []
    else:
        with pytest.raises(ArenaArgumentError, match=r"rejects the configuration .*Only plays"):
            arena([spec, "random"], game, players)


# --- play and serve ---------------------------------------------------------------------------
def _play(argv, monkeypatch, capsys, text="1\n" * 400):
    return run_play(argv, monkeypatch, capsys, text)


@pytest.mark.parametrize("game, players", GAMES)
def test_play_against_third_party_agents(game, players, monkeypatch, capsys):
    argv = ["--game", game, "--players", str(players), "--opponents", f"{H}:First", "--seed", "1"]
    if game == "spacemission":
        argv += ["--max-rounds", "3"]
    code, out, err = _play(argv, monkeypatch, capsys)
    assert code == 0, err


@pytest.mark.parametrize("game, players", GAMES)
@pytest.mark.parametrize("where", ["bind", "observation_type", "seed_later", "act"])
def test_play_names_a_bot_whose_hooks_fail(where, game, players, monkeypatch, capsys):
    """Before: a bind or observation_type raising anything but ValueError/TypeError, and a seed()
    failing before a decision, ended the command with a traceback."""
    spec = f"{H}:Raises:where='{where}'"
    code, out, err = _play(["--game", game, "--players", str(players), "--opponents", spec, "--seat", "1",
                            "--seed", "1"], monkeypatch, capsys)
    if where in ("bind", "observation_type"):
        assert code == 2 and "argument --opponents" in err and f"LookupError: boom in {where}" in err, err
    else:
        text = " ".join((out + err).split())  # rich wraps long lines
        assert re.search(rf'opponent "{re.escape(spec)}" \(seat [02]\) failed: LookupError: boom in', text), text


@pytest.mark.parametrize("body", [{"players": 2, "seat": 1, "seed": 1},
                                  {"game": "red_planet", "players": 3, "seat": 1, "seed": 1}])
def test_serve_names_a_bot_whose_bind_fails(body):
    """Before: HTTP 500 'Internal Server Error' for a new game with such a bot."""
    from spacemission_cli.serve import other_games_opponents

    specs = [f"{H}:First", f"{H}:Raises:where='bind'"]
    client = web_client(specs, game_opponents=other_games_opponents(specs))
    assert client.post("/api/games", json={**body, "opponents": specs[0]}).status_code == 201
    refused(client.post("/api/games", json={**body, "opponents": specs[1]}), 400, specs[1], "LookupError: boom in bind")


def test_serve_offers_red_planet_only_the_specs_whose_bind_accepts_it():
    """Before: a Space-Mission-only agent (its bind refuses Red Planet) was offered on the
    Red Planet page, and every new game with it was refused with a 400."""
    from spacemission_cli.serve import other_games_opponents

    specs = [f"{H}:Only", f"{H}:Only:game='red_planet':players=4", f"{H}:First", f"{H}:Raises:where='bind'", "heuristic"]
    offered = other_games_opponents(specs)["red_planet"]
    assert offered == specs[1:]
    assert other_games_opponents([f"{H}:Only"]) == {"red_planet": ["random"]}
