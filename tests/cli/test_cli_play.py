"""``spacemission play`` driven with piped input, in-process."""
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tests.helpers.positions import position

from spacemission_cli import play
from spacemission_cli._games import Replayer, read_records
from spacemission_cli._table import move_label
from spacemission_cli._view import board, view_from_observation
from spacemission_env.space_mission import encoding
from spacemission_env.space_mission.rules import GameState

ONES = "1\n" * 3000  # always the first move listed: tiles, discover, develop, scan, jump, fly, then top ups


def run(argv, text, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = play.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def bad_args(argv, capsys, monkeypatch, text=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    with pytest.raises(SystemExit) as exc:
        play.main(argv)
    assert exc.value.code == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("players,rules,opponents", [(2, "yucata", "kind-random"), (3, "schmidt", "random,kind-random"),
                                                     (2, "schmidt", "greedy"), (3, "yucata", "heuristic,greedy")])
def test_whole_game_from_piped_input(players, rules, opponents, tmp_path, monkeypatch, capsys):
    rec = tmp_path / "games.jsonl"
    argv = ["--players", str(players), "--rules", rules, "--opponents", opponents, "--seed", "7",
            "--record", str(rec), "--max-rounds", "40"]
    code, out, err = run(argv, ONES, monkeypatch, capsys)
    assert code == 0, err
    assert "your move> 1" in out and "Final scores" in out
    assert "Traceback" not in out + err
    ((line, game),) = read_records(rec)
    assert game["agents"][0] == "human" and game["config"] == {"game": "spacemission", "num_players": players, "rules": rules,
                                                                  "max_rounds": 40}
    replay = Replayer(game, "recorded")  # the record replays in the reference engine, labels and scores included
    person = []
    while not replay.done:
        seat, action, _label = replay.peek()
        if seat == 0:
            person.append(move_label(action, replay.state))  # cards by face, planets by name
        replay.step()
    replay.finish()
    assert person and all(f"red (you): {label}" in out for label in person[:5])
    if rules == "schmidt" and any(label.startswith("scan") for label in person):
        assert "types not shown under schmidt" in out  # R-A4c: own reservations by count only


def test_opponent_lines_never_show_hidden_information(monkeypatch, capsys):
    code, out, _ = run(["--players", "3", "--opponents", "kind-random", "--seed", "3", "--max-rounds", "30"],
                       ONES, monkeypatch, capsys)
    assert code == 0
    bot_lines = [ln for ln in out.splitlines() if ln.startswith(("  blue (", "  yellow ("))]
    assert bot_lines
    assert not any("take tile" in ln or "card " in ln for ln in bot_lines), "a tile type or a hand slot leaked"
    assert any("reserves a tile" in ln or "takes a tile" in ln for ln in bot_lines)


def test_typos_get_a_message_and_the_prompt_again(tmp_path, monkeypatch, capsys):
    rec = tmp_path / "g.jsonl"
    text = "fly\nxyz\n999\n\nhelp\nboard\nmoves\nTOP UP, DISCARDING NOTHING\n" + ONES
    code, out, _ = run(["--opponents", "random", "--seed", "11", "--seat", "1", "--record", str(rec),
                        "--max-rounds", "3"], text, monkeypatch, capsys)
    assert code == 0
    assert "'fly' is not a legal move now" in out  # on the jump gate, no fly (R-A3)
    assert "'xyz' is not a legal move now" in out and "There is no move 999" in out
    assert "save FILE" in out  # help
    ((_, game),) = read_records(rec)
    first = next(a for a in game["actions"] if a[0] == 1)
    assert first[2] == "top up, discarding nothing"  # the label, typed in capitals, chose it


def test_unique_prefix_and_ambiguous_prefix(monkeypatch, capsys):
    code, out, _ = run(["--opponents", "random", "--seed", "11", "--max-rounds", "2"],
                       "jump with card\ntop up nothing\n" + ONES, monkeypatch, capsys)
    assert code == 0
    assert "'jump with card' fits" in out and "type more of the label or the number" in out
    assert "red (you): top up, keeping every card" in out


def test_a_unique_start_of_a_label_asks_first(tmp_path, monkeypatch, capsys):
    rec = tmp_path / "g.jsonl"
    code, out, _ = run(["--opponents", "random", "--seed", "3", "--max-rounds", "2", "--record", str(rec)],
                       "1\nfly cl\nn\nfly cl\ny\n" + ONES, monkeypatch, capsys)
    assert code == 0
    assert "Play 'fly clockwise to Ruby Red'? [y/N] n" in out and "not played" in out
    assert "red (you): fly clockwise to Ruby Red" in out
    ((_, game),) = read_records(rec)
    assert [a[1] for a in game["actions"] if a[0] == 0].count(72) == 1  # played once, after the yes


def test_save_and_load_continue_identically(tmp_path, monkeypatch, capsys):
    save, rec_a, rec_b = tmp_path / "save.json", tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    argv = ["--players", "3", "--opponents", "random,kind-random", "--seed", "5", "--max-rounds", "12"]
    code, out, _ = run(argv + ["--record", str(rec_a)], "1\n" * 6 + f"save {save}\n" + ONES, monkeypatch, capsys)
    assert code == 0 and f"saved to {save}" in out
    data = json.loads(save.read_text())
    assert data["format"] == "spacemission-play-save" and data["specs"] == [None, "random", "kind-random"]
    saved_state = GameState.from_json(json.dumps(data["state"]))  # the JSON state of docs/state_json.md
    assert saved_state.num_players == 3 and not saved_state.is_over
    code, out, _ = run(["--load", str(save), "--record", str(rec_b)], ONES, monkeypatch, capsys)
    assert code == 0 and f"Continuing the game saved in {save}" in out
    (_, a), (_, b) = read_records(rec_a)[0], read_records(rec_b)[0]
    assert a["actions"] == b["actions"] and a["scores"] == b["scores"], "the bots' randomness continues too"
    # the arena's games.jsonl config (docs/arena.md), "game" included (before: left out by play)
    assert a["config"] == {"game": "spacemission", "num_players": 3, "rules": "yucata", "max_rounds": 12}
    (_, saved), = read_records(save)
    assert saved["config"] == a["config"] and saved["unfinished"]


@pytest.mark.parametrize("version", [1, 2])
def test_a_save_with_a_version_1_or_2_state_saved_mid_turn_loads_and_continues_identically(version, tmp_path,
                                                                                          monkeypatch, capsys):
    """A saved game whose state is of schema 1 or 2 (no turn records, R-I1), saved after the human's
    first action of a turn (R-T2): before, its rebuilt game (with records) never matched its state and
    the load was refused as edited; now the rest is compared and the game goes on from the rebuilt
    one. Played on, saved again mid-turn and loaded, it ends as the uninterrupted game does."""
    save, again, rec_a, rec_b = (tmp_path / f for f in ("s.json", "again.json", "a.jsonl", "b.jsonl"))
    argv = ["--opponents", "random", "--seed", "5", "--max-rounds", "6"]
    assert run(argv + ["--record", str(rec_a)], f"1\nsave {save}\n" + ONES, monkeypatch, capsys)[0] == 0
    data = json.loads(save.read_text())
    assert data["state"]["actions_left"] == 1 and data["state"]["current_player"] == 0  # mid-turn, the human's
    data["state"]["version"] = version
    if version == 1:
        data["state"]["truncated"] = data["state"].pop("round_limit")
    for pl in data["state"]["players"]:
        del pl["last_turn"]
    save.write_text(json.dumps(data))
    code, out, _ = run(["--load", str(save)], "1\n" * 5 + f"save {again}\nquit\ny\n", monkeypatch, capsys)
    assert code == 0 and f"saved to {again}" in out
    assert run(["--load", str(again), "--record", str(rec_b)], ONES, monkeypatch, capsys)[0] == 0
    (_, a), (_, b) = read_records(rec_a)[0], read_records(rec_b)[0]
    assert a["actions"] == b["actions"] and a["scores"] == b["scores"]
    data["state"]["players"][0]["supply"] -= 1  # any other edit is still refused
    data["state"]["players"][0]["gate_probes"] += 1
    save.write_text(json.dumps(data))
    assert "do not lead to its state" in bad_args(["--load", str(save)], capsys, monkeypatch)


def test_load_errors_name_the_argument(tmp_path, monkeypatch, capsys):
    missing = tmp_path / "nope.json"
    assert "argument --load" in bad_args(["--load", str(missing)], capsys, monkeypatch)
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    assert "not valid JSON" in bad_args(["--load", str(junk)], capsys, monkeypatch)
    junk.write_text(json.dumps({"format": "other"}))
    assert "not a saved game" in bad_args(["--load", str(junk)], capsys, monkeypatch)
    save = tmp_path / "s.json"
    run(["--opponents", "random", "--seed", "1"], f"1\nsave {save}\nquit\ny\n", monkeypatch, capsys)
    err = bad_args(["--load", str(save), "--players", "3"], capsys, monkeypatch)
    assert "argument --players: not allowed with --load" in err
    data = json.loads(save.read_text())
    data["state"]["players"][0]["supply"] -= 1
    data["state"]["players"][0]["gate_probes"] += 1
    save.write_text(json.dumps(data))
    assert "do not lead to its state" in bad_args(["--load", str(save)], capsys, monkeypatch)


def test_quit_asks_first_and_end_of_input_leaves(tmp_path, monkeypatch, capsys):
    rec = tmp_path / "g.jsonl"
    code, out, _ = run(["--opponents", "random", "--seed", "2", "--record", str(rec)], "quit\nn\n1\nquit\nyes\n",
                       monkeypatch, capsys)
    assert code == 0
    assert out.count("Leave the game?") == 2 and "[y/N]" in out and "going on" in out and "left the game in round" in out
    assert not rec.exists(), "an unfinished game is not recorded"
    code, out, err = run(["--opponents", "random", "--seed", "2"], "1\n", monkeypatch, capsys)
    assert code == 0 and "end of input: leaving the game" in out and "Traceback" not in err


@pytest.mark.parametrize("argv,expected", [
    (["--players", "7"], ["argument --players", "2, 3, 4, 5"]),
    (["--rules", "house"], ["argument --rules", "yucata", "schmidt"]),
    (["--opponents", "nosuchbot"], ["argument --opponents", "unknown agent 'nosuchbot'", "random"]),
    (["--opponents", "random:speed=3"], ["argument --opponents", "speed"]),
    (["--players", "3", "--opponents", "random,random,random"],
     ["argument --opponents", "3 players have 2 opponents: give one spec for all of them or 2"]),
    (["--seat", "2"], ["argument --seat", "0..1"]),
    (["--seed", "-4"], ["argument --seed", ">= 0"]),
    (["--max-rounds", "0"], ["argument --max-rounds"]),
    (["--seed", "x"], ["argument --seed", "expected an integer"]),
    (["--record", "/nonexistent/folder/g.jsonl"], ["argument --record", "folder does not exist"]),
])
def test_bad_arguments_name_the_argument_and_the_allowed_values(argv, expected, capsys, monkeypatch):
    err = bad_args(argv, capsys, monkeypatch)
    for text in expected:
        assert text in err


def test_an_agent_that_is_not_installed_fails_before_the_game(capsys, monkeypatch):
    from spacemission_agents.registry import available_agents

    # where the PPO agent is installed (the dev install, CI), hide its module as a missing
    # optional dependency would: the test runs everywhere instead of being skipped
    monkeypatch.setitem(sys.modules, "spacemission_agents.ppo", None)
    assert "ppo" not in available_agents()
    err = bad_args(["--opponents", "ppo"], capsys, monkeypatch)
    assert "argument --opponents" in err and "'ppo' is not available" in err
    assert "available: random, kind-random, greedy" in err  # what can be played instead


class SpyAgent:
    """Records what it is given; plays the first legal action."""
    seen: list = []
    observation_type = None

    def __init__(self, seed=None, view=None):
        self.observation_type = view

    def act(self, obs, mask):
        SpyAgent.seen.append((np.array(obs), np.array(mask), self.observation_type))
        return int(np.flatnonzero(mask)[0])

    def act_batch(self, obs, masks):
        return np.array([self.act(o, m) for o, m in zip(obs, masks)])


@pytest.mark.parametrize("view", ["info", "recall"])
def test_opponents_get_their_own_observation(view, tmp_path, monkeypatch, capsys):
    SpyAgent.seen = []
    rec = tmp_path / "g.jsonl"
    code, _, err = run(["--players", "3", "--opponents", f"tests.cli.test_cli_play:SpyAgent:view='{view}'", "--rules", "schmidt",
                        "--seed", "4", "--max-rounds", "6", "--record", str(rec)], ONES, monkeypatch, capsys)
    assert code == 0, err
    ((_, game),) = read_records(rec)
    replay = Replayer(game, "spy")
    k = 0
    while not replay.done:
        seat, action, _ = replay.peek()
        if seat != 0:
            obs, mask, typ = SpyAgent.seen[k]
            assert typ == view
            assert np.array_equal(obs, encoding.observe(replay.state, seat, view)), "the bot's own view, not the person's"
            k += 1
        replay.step()
    assert k == len(SpyAgent.seen) > 10


def test_schmidt_view_shows_own_reservations_by_count_only():
    from rich.console import Console

    s = position(2, rules="schmidt", ring=["Freezer", "Hazard", "Caldera", "Green Heggar", "Ruby Red", "Aurora",
                                            "Basalt", "Cinder"],
                 reservations={(2, 0): {"medal": 1, "water": 1}, (3, 1): {"alien_blue": 1}}, ships={0: 2})
    text = {}
    for typ in ("info", "recall"):
        console = Console(file=io.StringIO(), width=110)
        console.print(board(view_from_observation(encoding.observe(s, 0, typ), typ, 0, 2, "schmidt", 100)))
        text[typ] = console.file.getvalue()
    assert "types not shown under schmidt, R-A4c): Caldera 2" in text["info"]
    assert not any(t in text["info"] for t in ("1 medal", "1 water", "1 blue alien"))
    assert "your reserved tiles: Caldera 1 water, 1 medal" in text["recall"]  # R-I5: a player remembers
    assert "1 blue alien" not in text["recall"], "another seat's reservation stays hidden"


def test_help_shows_an_example(capsys):
    with pytest.raises(SystemExit):
        play.main(["--help"])
    out = capsys.readouterr().out
    assert "spacemission play --players 3 --opponents heuristic,ppo --rules yucata --seed 7" in out


def test_console_script_smoke(tmp_path):
    exe = Path(sys.executable).with_name("spacemission")
    if not exe.exists():
        pytest.skip("console script not installed next to this interpreter")
    env = dict(os.environ, COLUMNS="100")
    done = subprocess.run([str(exe), "play", "--opponents", "random", "--seed", "3", "--max-rounds", "2"],
                          input=ONES, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert "Final scores" in done.stdout
    listing = subprocess.run([str(exe), "--help"], capture_output=True, text=True, timeout=60)
    for name in ("play", "replay", "bench", "arena", "demo"):
        assert name in listing.stdout


def test_every_subcommand_help_shows_an_example(capsys):
    import importlib
    import importlib.util

    from spacemission_cli.main import COMMANDS

    for name, (module, _) in COMMANDS.items():
        if importlib.util.find_spec(module) is None:
            continue  # a subcommand whose module has not landed yet (train)
        if name == "train" and importlib.util.find_spec("torch") is None:
            continue  # without the train extra, train --help says what to install and returns 2
        with pytest.raises(SystemExit) as exc:
            importlib.import_module(module).main(["--help"])
        assert exc.value.code == 0
        assert "example" in capsys.readouterr().out.lower(), f"spacemission {name} --help shows no example"


class BrokenAgent(SpyAgent):
    def act(self, obs, mask):
        raise ZeroDivisionError("oops")


def test_a_failing_bot_ends_the_game_with_a_message(monkeypatch, capsys):
    code, out, err = run(["--opponents", "tests.cli.test_cli_play:BrokenAgent", "--seed", "1", "--seat", "1"], ONES, monkeypatch, capsys)
    assert code == 1 and "opponent 'tests.cli.test_cli_play:BrokenAgent' (seat 0) failed: ZeroDivisionError: oops" in out
    assert "Traceback" not in out + err


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_load_reads_a_named_pipe_once(game, tmp_path, monkeypatch, capsys):
    """`--load <(cat save.json)`: a pipe gives its text once. Before, play read the file to
    tell the games apart, then read it again to load it, and waited forever on the empty pipe."""
    import threading

    save, pipe = tmp_path / "save.json", tmp_path / "save.pipe"
    argv = ["--opponents", "random", "--seed", "3"] + (["--game", game] if game != "spacemission" else [])
    assert run(argv, f"1\nsave {save}\nquit\ny\n", monkeypatch, capsys)[0] == 0
    os.mkfifo(pipe)
    text = save.read_bytes()

    def feed():
        with open(pipe, "wb") as f:
            f.write(text)

    threading.Thread(target=feed, daemon=True).start()
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\ny\n"))
    result = {}
    player = threading.Thread(target=lambda: result.update(code=play.main(["--load", str(pipe)])), daemon=True)
    player.start()
    player.join(timeout=60)
    assert not player.is_alive(), "play --load waited on the pipe for a second read"
    assert result == {"code": 0}
    assert f"Continuing the game saved in {pipe}" in capsys.readouterr().out


def test_version_and_python_dash_m(capsys):
    """``spacemission --version`` prints the package's version; ``python -m spacemission_cli``
    is the same command (before: no __main__, and --version asked for a COMMAND)."""
    import subprocess

    import spacemission_env
    from spacemission_cli.main import main as cli_main

    with pytest.raises(SystemExit) as exc:
        cli_main(["--version"])
    assert exc.value.code == 0 and capsys.readouterr().out.strip() == f"spacemission {spacemission_env.__version__}"
    out = subprocess.run([sys.executable, "-m", "spacemission_cli", "--help"], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0 and "Mission: Red Planet" in out.stdout and "--version" in out.stdout
