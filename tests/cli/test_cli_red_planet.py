"""``spacemission play / replay / bench / serve --game red_planet``: Mission: Red Planet through
the command line, driven with piped input, in-process."""
import io
import json
import re
import sys

import pytest
from spacemission_agents.arena import run_arena

from spacemission_cli import bench, play, replay
from spacemission_cli._games import read_records
from spacemission_cli._protocol_games import Replayer, record_game
from spacemission_env.red_planet import actions as A
from spacemission_env.red_planet.components import ROLE_NAMES
from tests.helpers.pictures import assert_replay_pictures_end_face_up

ONES = "1\n" * 1000  # always the first move listed
COLOURS = ("red", "blue", "yellow")  # seats 0-2 as play and replay name them


def run_play(argv, text, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = play.main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def run_replay(argv, capsys, text=""):
    old = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        code = replay.main([str(a) for a in argv])
    finally:
        sys.stdin = old
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def arena_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("rp_arena")
    run_arena(["random", "random"], num_players=3, games=2, seed=1, out=str(out), progress=False, game="red_planet")
    return out / "games.jsonl"


def test_whole_game_against_bots_is_recorded_and_replays(tmp_path, monkeypatch, capsys):
    path = tmp_path / "games.jsonl"
    code, out, err = run_play(["--game", "red_planet", "--opponents", "random,greedy", "--seed", 5, "--seat", 1,
                               "--record", path], ONES, monkeypatch, capsys)
    assert code == 0, err
    assert "Mission: Red Planet, 3 players, seed 5. You are blue, seat 1; red: random, yellow: greedy" in out
    assert "blue's view" in out and "Your moves:" in out and "   1  " in out
    (_, rec), = read_records(path)
    assert rec["config"]["game"] == "red_planet" and rec["agents"] == ["random", "human", "greedy"]
    rebuilt = Replayer(rec, "test")
    while not rebuilt.done:
        rebuilt.step()
    assert rebuilt.finish() == ["scores", "rounds", "round_limit", "ranks", "winners"]
    header = next(line for line in out.splitlines() if "ice_bonus" in line)
    for name in ("ice", "sylvanite", "celerium", "discovery_cards", "bonus_cards", "total", "rank"):
        assert name in header
    you = next(line for line in out.splitlines() if line.startswith("│ blue (you) "))
    assert you.split("│")[-3].strip() == str(rec["scores"][1]["total"])
    assert "The end: every card face up" in out and "recorded as game 0" in out


def test_the_person_commits_without_seeing_earlier_commits(monkeypatch, capsys):
    """Seat 2 commits last in round 1 (start player 0 with this seed): nothing shown before its
    commit names the roles seats 0 and 1 committed (M-R3, M-I4)."""
    code, out, _ = run_play(["--game", "red_planet", "--opponents", "random", "--seed", 5, "--seat", 2], ONES,
                            monkeypatch, capsys)
    assert code == 0
    lines = out.splitlines()
    first_commit = next(i for i, line in enumerate(lines) if "phase commit: yellow to act" in line)
    start = max(i for i in range(first_commit) if lines[i].startswith("  you: "))
    prompt = next(i for i in range(first_commit, len(lines)) if lines[i].startswith("your move>"))
    shown = [ln for ln in lines[start:prompt] if not re.match(r"\s+\d+  commit the ", ln)]  # minus the moves list
    bot_commits = [ln for ln in shown if ln.startswith(("  red (", "  blue ("))]
    assert len(bot_commits) == 2 and all("commits a role (hidden" in ln for ln in bot_commits)
    others = [ln for ln in shown if "| commit " in ln and "bonus: 1 hidden" in ln]  # seats 0 and 1
    assert len(others) == 2 and all("commit chosen (hidden)" in ln for ln in others)
    assert not any(role in ln for ln in shown for role in ROLE_NAMES)
    assert not any(ln.startswith(("  red (", "  blue (")) and ("commit the" in ln or "keep " in ln) for ln in lines)


def test_save_and_load_continue_the_same_game(tmp_path, monkeypatch, capsys):
    whole, saved, cont = tmp_path / "whole.jsonl", tmp_path / "save.json", tmp_path / "cont.jsonl"
    argv = ["--game", "red_planet", "--opponents", "random", "--seed", 8, "--players", 4]
    assert run_play(argv + ["--record", whole], ONES, monkeypatch, capsys)[0] == 0
    code, out, _ = run_play(argv, "1\n" * 6 + f"save {saved}\nquit\ny\n", monkeypatch, capsys)
    assert code == 0 and f"saved to {saved}" in out
    (_, part), = read_records(saved)
    assert part["unfinished"] and part["ranks"] is None
    assert run_play(["--load", saved, "--record", cont], ONES, monkeypatch, capsys)[0] == 0
    assert read_records(cont)[0][1]["actions"] == read_records(whole)[0][1]["actions"]


def test_save_asks_before_overwriting_another_file(tmp_path, monkeypatch, capsys):
    """Before: Red Planet's save wrote over any existing file without asking; Space Mission's
    asked (test_cli_play_table.py). Now both ask, and saving again to the same file does not."""
    saved = tmp_path / "notes.txt"
    saved.write_text("keep me")
    argv = ["--game", "red_planet", "--opponents", "random", "--seed", 8]
    code, out, _ = run_play(argv, f"save {saved}\nn\nquit\ny\n", monkeypatch, capsys)
    assert code == 0 and f"{saved} exists. Overwrite it? [y/N] n" in out and "not saved" in out
    assert saved.read_text() == "keep me"
    code, out, _ = run_play(argv, f"save {saved}\ny\n1\nsave {saved}\nquit\ny\n", monkeypatch, capsys)
    assert code == 0 and out.count("Overwrite it?") == 1 and out.count(f"saved to {saved}") == 2
    assert read_records(saved)[0][1]["unfinished"]


def test_bad_arguments_name_the_problem(tmp_path, monkeypatch, capsys):
    for argv, text in ((["--players", 2], "argument --players: num_players must be an integer in 3..5"),
                       (["--opponents", "random,random,random"], "argument --opponents: 3 players have 2 opponents"),
                       (["--opponents", "kind-random"], "argument --opponents: "),
                       (["--max-rounds", 5], "argument --max-rounds: max_rounds must be 10"),
                       (["--seat", 3], "argument --seat: must be a seat in 0..2")):
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        with pytest.raises(SystemExit) as exc:
            play.main(["--game", "red_planet"] + [str(a) for a in argv])
        assert exc.value.code == 2 and text in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "spacemission-arena-game", "version": 1, "seed": 1, "actions": [],
                               "scores": [], "config": {"game": "red_planet", "num_players": 3}}) + "\n")
    with pytest.raises(SystemExit):
        play.main(["--load", str(bad)])
    assert "argument --load: " in capsys.readouterr().err


def test_arena_records_replay_as_everyone_and_as_one_seat(arena_file, capsys):
    rec = read_records(arena_file)[1][1]
    assert record_game(rec) == "red_planet"
    code, out, err = run_replay([arena_file, "--game", 1], capsys)
    assert code == 0, err
    assert "Mission: Red Planet, 3 players" in out and "The rebuilt game matches the record (scores" in out
    assert sum(1 for ln in out.splitlines() if MOVE.match(ln) and "commit the" in ln) == 30  # 3 x 10 rounds
    code, out, err = run_replay([arena_file, "--game", 1, "--seat", 0, "--boards", "end"], capsys)
    assert code == 0, err
    moves = [ln for ln in out.splitlines() if MOVE.match(ln)]
    own, others = [ln for ln in moves if ln.startswith("  red ")], [ln for ln in moves if not ln.startswith("  red ")]
    assert sum("commit the" in ln for ln in own) == 10 and not any("commit the" in ln for ln in others)
    assert sum("commits a role (hidden" in ln for ln in others) == 20
    assert sum("keep " in ln for ln in own) == 1 and sum("keeps one bonus card" in ln for ln in others) == 2
    assert out.count("Board ") == 2 and "red's view" in out


MOVE = re.compile(r"  (red|blue|yellow) \(random(#2)?\): ")  # a move line of the replay


def test_a_finished_game_ends_face_up_for_a_seat_as_in_play(arena_file, tmp_path, capsys):
    """``--seat S`` of a finished game: the last board and ``--to-png`` picture are the whole
    table, as ``play`` and the web page end a game (M-I3: hidden "until all is revealed at the
    end"); the boards before are S's view. Before: S's view to the end (other seats' setup and
    bonus cards hidden), while the same person at ``play`` saw every card face up."""
    from spacemission_env.red_planet.render import render_rgb

    def end_board(out):
        return out[out.index("Board at the end"):].split("\n", 1)[1].split("Scores")[0]

    frames = tmp_path / "frames"
    code, seat_out, err = run_replay([arena_file, "--game", 1, "--boards", "end", "--seat", 0, "--to-png", frames], capsys)
    assert code == 0, err
    code, all_out, err = run_replay([arena_file, "--game", 1, "--boards", "end"], capsys)
    assert code == 0, err
    start = seat_out[:seat_out.index("Board at the end")]
    assert "red's view" in start and "setup cards: 3 hidden" in start
    assert "Board at the end: every card face up" in seat_out and "whole table: every card shown" in end_board(seat_out)
    assert end_board(seat_out) == end_board(all_out) and "hidden" not in end_board(seat_out)
    assert_replay_pictures_end_face_up(frames, Replayer(read_records(arena_file)[1][1], "test"), 0, render_rgb)


def test_the_replay_names_every_seat_by_its_colour(arena_file, capsys):
    # the replay (read by people) said "seat 0 (random)" in its own lines and score table, and
    # printed the env's board: "player_0 (red)" rows, "P0:2" astronauts, "by P2", "player_1 to
    # act", "seat 0's view", and a Soldier's target as "kill a player 2 astronaut": four names
    # for one seat. Now, as play, every seat is its colour; the record keeps its labels
    rec = read_records(arena_file)[0][1]
    targets = [label for _, _, label in rec["actions"] if re.search(r"\bplayer \d\b", label)]
    assert targets, "a seed-1 random game has a Soldier's or Femme Fatale's target"
    for argv in ([], ["--seat", 2]):
        code, out, err = run_replay([arena_file, "--boards", "turn", *argv], capsys)
        assert code == 0, err
        lines = out.splitlines()
        assert "Seats: " + ", ".join(f"{COLOURS[q]} ({a})" for q, a in enumerate(rec["agents"])) in lines, lines[:3]
        stray = [ln for ln in lines if re.search(r"player_\d|\bP\d|seat \d|player \d", ln)]
        assert stray == (["Shown as yellow (seat 2) saw it: its own view of the board; the other seats' hidden "
                          "choices stay hidden."] if argv else []), stray[:5]
        assert sum(1 for ln in lines if MOVE.match(ln)) == len(rec["actions"])
        assert any(re.search(r"(kill|replace) an? (red|blue|yellow) astronaut", ln) for ln in lines if MOVE.match(ln))
        assert any(re.search(r"\b(red|blue|yellow):\d", ln) for ln in lines)
        assert any(ln.startswith("│ red (random) ") for ln in lines) and "The rebuilt game matches the record" in out
    assert "yellow's view" in out


def test_step_walks_forward_and_back(arena_file, capsys):
    code, out, _ = run_replay([arena_file, "--step"], capsys, text="n\nn\nb\nq\n")
    assert code == 0
    titles = [ln.split(" of ")[0] for ln in out.splitlines() if ln.startswith("Board after turn")]
    assert titles == ["Board after turn 1", "Board after turn 2", "Board after turn 3", "Board after turn 2"]
    assert "back to turn 2" in out and out.rstrip().endswith("stopped")


def _write(path, games):
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    return path


def test_records_that_do_not_replay_or_are_malformed(arena_file, tmp_path, capsys):
    rec = read_records(arena_file)[0][1]
    bad = dict(rec, actions=[list(a) for a in rec["actions"]])
    bad["actions"][4][2] = "commit the Astronaut"
    code, _, err = run_replay([_write(tmp_path / "a.jsonl", [bad])], capsys)
    assert code == 1 and "action 5 of" in err and 'recorded label "commit the Astronaut"' in err
    short = dict(rec, actions=rec["actions"][:-2])
    code, _, err = run_replay([_write(tmp_path / "b.jsonl", [short])], capsys)
    assert code == 1 and "end before the game is over" in err
    for config, message in (({"game": "red_planet", "num_players": 2}, "num_players must be an integer in 3..5"),
                            ({"game": "tom_tube", "num_players": 3}, 'game must be one of red_planet, spacemission, got "tom_tube"'),
                            ({"game": "red_planet", "num_players": 3, "max_rounds": 7}, "max_rounds must be 10")):
        path = _write(tmp_path / "c.jsonl", [dict(rec, config=config)])
        with pytest.raises(SystemExit) as exc:
            replay.main([str(path)])
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert "argument FILE" in err and message in err


@pytest.mark.parametrize("key, value", [("round_limit", True), ("round_limit", "false"), ("round_limit", [1, 2]),
                                        ("rounds", None), ("rounds", 9), ("ranks", None), ("winners", None)])
def test_a_recorded_result_field_must_be_the_rebuilt_games(key, value, arena_file, tmp_path, capsys):
    """Found by a third-party client review: Red Planet's replay never checked round_limit
    (a game of ten rounds never ends at a round limit) and skipped any result field recorded
    as null; Space Mission's replay refuses both."""
    rec = read_records(arena_file)[0][1]
    assert rec["round_limit"] is False and run_replay([_write(tmp_path / "ok.jsonl", [rec])], capsys)[0] == 0
    code, _, err = run_replay([_write(tmp_path / "bad.jsonl", [dict(rec, **{key: value})])], capsys)
    assert code == 1 and f"recorded {key} {json.dumps(value)} but the rebuilt game gives" in err


def test_old_records_without_a_game_are_space_missions():
    assert record_game({"config": {"num_players": 2, "rules": "yucata", "max_rounds": 100}}) == "spacemission"
    assert record_game({"config": {"game": "red_planet"}}) == "red_planet"


def test_bench_prints_every_figure_in_one_run(capsys):
    assert bench.main(["--game", "red_planet", "--seconds", "0.2", "--batch", "64", "--agents", "random",
                       "--agent-batch", "16", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "red_planet" and out["players"] == 3 and out["engine"]["batch"] == 64
    for key in ("engine", "reference", "vector", "env"):
        assert out[key]["agent_steps_per_s"] > 0
    assert out["engine"]["x_reference"] == pytest.approx(
        out["engine"]["agent_steps_per_s"] / out["reference"]["agent_steps_per_s"])
    assert [r["spec"] for r in out["agents"]] == ["random"] and out["agents"][0]["batched_per_s"] > 0
    with pytest.raises(SystemExit):
        bench.main(["--game", "red_planet", "--agents", "kind-random"])
    assert "argument --agents" in capsys.readouterr().err


def test_bench_names_its_rule_set_and_refuses_pgx_python(capsys):
    """The figures name the rule set they were measured with (the game's --rules, passed to
    the game's configuration: before, a game of several rule sets was timed with its first
    whatever --rules said), and --pgx-python, which times pgx beside Space Mission's engine
    only, is refused rather than accepted and never run."""
    assert bench.main(["--game", "red_planet", "--rules", "first_edition", "--only", "agents", "--agents", "random",
                       "--seconds", "0.1", "--agent-batch", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "first_edition"
    assert bench.main(["--game", "red_planet", "--only", "agents", "--agents", "random", "--seconds", "0.1",
                       "--agent-batch", "4"]) == 0
    assert "Mission: Red Planet, 3 players, rules first_edition, about 0.1 s per figure" in " ".join(
        capsys.readouterr().out.split())  # the title wraps
    with pytest.raises(SystemExit) as exc:
        bench.main(["--game", "red_planet", "--only", "agents", "--pgx-python", "python3"])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert "argument --pgx-python: pgx's connect-four is timed beside Space Mission's batched engine only, not with " \
           "--game red_planet" in err



@pytest.mark.parametrize("agents", [",", " , ,"])
def test_bench_refuses_agents_that_name_none(capsys, agents):
    """--agents of commas alone names no agent: refused, as arena refuses an empty spec
    (Red Planet's timed no agent and printed no agents table, silently)."""
    with pytest.raises(SystemExit) as exc:
        bench.main(["--game", "red_planet", "--only", "agents", "--agents", agents, "--seconds", "0.1"])
    assert exc.value.code == 2
    assert "argument --agents: agent spec must be a non-empty string" in capsys.readouterr().err

def test_the_page_lists_red_planet_records_as_not_shown(arena_file):
    from spacemission_cli.web.replays import ReplayLibrary

    lib = ReplayLibrary()
    assert lib.load_file(arena_file) >= 2
    games = lib.listing("file")["games"]
    assert all("the page replays Space Mission games only" in g["error"] for g in games)


def test_hidden_kinds_are_action_kinds():
    from spacemission_env.red_planet.protocol import HIDDEN_KINDS

    assert set(HIDDEN_KINDS) <= set(A.ACTION_KINDS)


@pytest.mark.parametrize("argv, message", [
    (["--rules", "first_edition"], "argument --rules: unknown rules 'first_edition' for Space Mission"),
    (["--game", "red_planet", "--rules", "yucata"], "argument --rules: unknown rules 'yucata' for Mission: Red Planet"),
])
def test_play_checks_the_rule_set_per_game(argv, message, capsys):
    with pytest.raises(SystemExit) as info:
        play.main(argv + ["--seed", "1"])
    assert info.value.code == 2 and message in capsys.readouterr().err


def test_a_forfeit_recorded_on_a_finished_game_is_refused(arena_file, tmp_path, capsys):
    """Before: any object passed as a forfeit, and with one the finished game's ranks and
    winners went unchecked."""
    game = read_records(arena_file)[0][1]
    path = tmp_path / "f.jsonl"
    path.write_text(json.dumps(dict(game, forfeit={"seat": 0, "reason": "x"})) + "\n")
    code, _, err = run_replay([path, "--boards", "end"], capsys)
    assert code == 1 and "records a forfeit by seat 0, but the recorded actions end the game" in err, err


def test_a_seat_replay_of_an_unfinished_save_shows_only_public_scores(arena_file, tmp_path, capsys):
    """A game saved unfinished in round 9 (after M-P1 and M-P2 handed out counters), every seat
    holding a bonus card: the scores at the save, with or without ``--seat``, are the counters'
    values only, public by M-I1; the ice bonus, discovery and bonus cards (some hidden, M-I2,
    M-I3) are scored only at the end (M-P3) and show 0. A guard: this already held."""
    rec = read_records(arena_file)[0][1]
    rebuilt = Replayer(dict(rec, actions=rec["actions"]), "test")
    while rebuilt.state.round < 9:
        rebuilt.step()
    state = rebuilt.state
    assert all(pl.bonus for pl in state.players) and any(any(pl.counters) for pl in state.players)
    cut = dict(rec, actions=rec["actions"][:rebuilt.index], scores=rebuilt.game.rules.scores(state), ranks=None,
               winners=None, unfinished=True)
    for key in ("rounds", "round_limit"):
        cut.pop(key, None)
    path = _write(tmp_path / "save.jsonl", [cut])
    values = (1, 2, 3)  # ice, sylvanite, celerium (M-P3 step 4)
    for argv in ([path, "--seat", 1, "--boards", "end"], [path, "--boards", "end"]):
        code, out, err = run_replay(argv, capsys)
        assert code == 0, err
        table = out[out.index("Scores at the save (unfinished)"):]
        for q, pl in enumerate(state.players):
            cells = next(ln for ln in table.splitlines() if f"│ {COLOURS[q]} (" in ln).split("│")[2:-2]
            points = [c * v for c, v in zip(pl.counters, values)]
            assert [int(c) for c in cells] == points + [0, 0, 0, sum(points)], (q, cells)


def test_a_seat_replay_of_a_forfeited_game_shows_every_seats_counters(tmp_path, capsys):
    """A game stopped by a forfeit has no final scoring: its scores are the counters so far,
    public to every seat (M-I1), so ``--seat`` shows every seat's (Space Mission's replay hides
    the others' totals: they count hidden tiles, R-I4). Before, the table was titled "Scores",
    as a finished game's."""
    out = tmp_path / "arena"
    run_arena(["random", "random", "tests.helpers.external_agents:Returns:after=40"], num_players=3, games=1, seed=1,
              out=str(out), progress=False, game="red_planet")
    rec = json.loads((out / "games.jsonl").read_text().splitlines()[0])
    assert rec["forfeit"]["round"] > 5 and any(sc["total"] for sc in rec["scores"]), rec["forfeit"]  # M-P1 paid out
    assert all(sc["ice_bonus"] == sc["discovery_cards"] == sc["bonus_cards"] == 0 for sc in rec["scores"])
    assert replay.main([str(out / "games.jsonl"), "--game", str(rec["game"]), "--seat", "0", "--boards", "end"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Scores at the forfeit (before the final scoring: counters so far)" in text, text
    for q, sc in enumerate(rec["scores"]):
        assert re.search(rf"{COLOURS[q]} \(.*?│ +{sc['ice']} │ +{sc['sylvanite']} │ +{sc['celerium']} │", text), text
    f = rec["forfeit"]["seat"]  # the arena's ranks: the forfeiting seat last; checked by the replay
    assert rec["ranks"][f] == 3 and f not in rec["winners"] and "ranks, winners" in text, text
    for key, value in (("ranks", [1, 1, 1]), ("winners", [f])):
        path = tmp_path / f"{key}.jsonl"
        path.write_text(json.dumps(dict(rec, **{key: value})) + "\n")
        assert replay.main([str(path)]) == 1
        assert f"recorded {key} {value!r} but the rebuilt game gives" in capsys.readouterr().err


def test_play_names_every_seat_by_its_colour(monkeypatch, capsys):
    # Red Planet's play said "seat 0 (random)" in its own lines, "player_0 (red)", "P0:1", "by P0"
    # and "seat 1's view" on the board, and "seat 0 (random)" in the final table; now, as Space
    # Mission's play, a seat is its colour everywhere ("red (random)", "red:1", "blue's view"),
    # and "seat 1" is said once, at the start, beside the colour
    code, out, err = run_play(["--game", "red_planet", "--opponents", "random,greedy", "--seed", 5, "--seat", 1],
                              ONES, monkeypatch, capsys)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Mission: Red Planet, 3 players, seed 5. You are blue, seat 1; red: random, yellow: greedy")
    assert any(ln.startswith("  red (random): ") for ln in lines) and any(ln.startswith("  yellow (greedy): ") for ln in lines)
    assert any("red's view" not in ln and "blue's view" in ln for ln in lines)
    assert any(ln.startswith("│ red (random) ") for ln in lines) and any(ln.startswith("│ yellow (greedy) ") for ln in lines)
    assert any(re.search(r"\b(red|blue|yellow):\d", ln) for ln in lines)
    stray = [ln for ln in lines[1:] if re.search(r"player_\d|\bP\d|seat \d", ln)]
    assert not stray, stray[:5]


def test_play_names_a_soldier_or_femme_fatale_target_by_its_colour(monkeypatch, capsys):
    # the bots' and the person's Soldier and Femme Fatale moves read "kill a player 3 astronaut"
    # beside "green (random)" and "green:2" on the board; now "kill a green astronaut" (the
    # recorded label keeps "player 3": replay checks it, and the record still replays)
    code, out, err = run_play(["--game", "red_planet", "--opponents", "random", "--seed", 7, "--players", 4],
                              ONES, monkeypatch, capsys)
    assert code == 0, err
    assert re.search(r"\(random\): Soldier: kill a (red|blue|yellow|green) astronaut in ", out), out[-2000:]
    assert re.search(r"Femme Fatale: replace a (red|blue|yellow|green) astronaut on ", out)
    assert not re.search(r"\bplayer \d", out), re.findall(r".{30}\bplayer \d.{20}", out)[:3]


def test_a_target_typed_as_shown_or_as_recorded_is_the_same_move(monkeypatch, capsys):
    # the moves list shows "kill a red astronaut"; typing that label (or the recorded one,
    # "kill a player 0 astronaut") plays the move (seed 1: the person's Soldier in round 2)
    soldier = "1\ncommit the soldier (m-r3)\n1\n1\n1\ncommit the soldier (m-r3)\n1\n"
    for typed in ("Soldier: kill a red astronaut in Rim 7", "soldier: KILL a player 0 astronaut in rim 7"):
        code, out, err = run_play(["--game", "red_planet", "--opponents", "random", "--seed", 1],
                                  soldier + typed + "\nquit\ny\n", monkeypatch, capsys)
        assert code == 0, err
        assert "   1  Soldier: kill a red astronaut in Rim 7" in out
        assert "  you: Soldier: kill a red astronaut in Rim 7" in out and "is not a legal move" not in out, typed
