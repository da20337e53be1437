"""``spacemission replay`` of games recorded by the arena and by ``play``."""
import io
import json
import re
import sys
from contextlib import nullcontext

import pytest
from PIL import Image

from spacemission_agents.arena import run_arena
from spacemission_cli import play, replay
from spacemission_cli._games import read_records
from spacemission_env.space_mission.components import CARD_LABELS
from spacemission_env.space_mission.rules import new_game
from tests.helpers.pictures import assert_replay_pictures_end_face_up
from tests.helpers.web import unfinished_save


@pytest.fixture(scope="module")
def arena_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("arena")
    run_arena(["random", "kind-random"], num_players=3, games=3, max_rounds=8, seed=1, out=str(out), progress=False)
    return out / "games.jsonl"


@pytest.fixture(scope="module")
def play_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("play") / "games.jsonl"
    old = sys.stdin
    sys.stdin = io.StringIO("1\n" * 2000)
    try:
        assert play.main(["--opponents", "kind-random", "--seed", "9", "--max-rounds", "6", "--record", str(path)]) == 0
    finally:
        sys.stdin = old
    return path


def run(argv, capsys):
    code = replay.main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_arena_game_replays_with_every_move_and_board(arena_file, capsys):
    records = read_records(arena_file)
    assert len(records) >= 3  # rounded up to whole deals of each lineup
    code, out, err = run([arena_file, "--game", 2], capsys)
    assert code == 0, err
    game = records[2][1]
    assert "The rebuilt game matches the record (scores" in out
    for _, _, label in game["actions"][:20]:
        assert label.split(" (")[0] in out
    assert out.count("Board after") >= 3 and "Board at the end" in out
    hand0 = new_game(3, seed=game["seed"], rules="yucata", max_rounds=8).players[1].hand
    assert "blue hand: " + "  ".join(CARD_LABELS[c] for c in hand0) in out  # everything shown without --seat


def test_seat_view_hides_what_the_seat_could_not_see(arena_file, capsys):
    game = read_records(arena_file)[0][1]
    code, out, err = run([arena_file, "--seat", 1], capsys)
    assert code == 0, err
    assert "Shown as blue (seat 1) saw it" in out
    out = out[:out.index("Board at the end")]  # a finished game ends face up (the next test)
    assert "Your hand:" in out and "red hand:" not in out and "yellow hand:" not in out
    others = [ln for ln in out.splitlines() if ln.startswith(("  red (", "  yellow ("))]
    assert others and not any("take tile" in ln or "card " in ln for ln in others)
    if any(seat != 1 and label.startswith("take tile") for seat, _, label in game["actions"]):
        assert any("reserves a tile" in ln or "takes a tile" in ln for ln in others)
    own = [ln for ln in out.splitlines() if ln.startswith("  blue (")]
    assert own and any("card " in ln for ln in own), "the seat's own moves in full"
    assert " pile: " not in out, "no pile contents in a seat's view"


def test_a_finished_game_ends_face_up_for_a_seat_as_in_play(arena_file, tmp_path, capsys):
    """``--seat S`` of a finished game: the last board and picture are the whole table, as
    ``play`` and the web page end a game (the final scoring counts every collected tile,
    R-P3..R-P7); every board before them is S's view. Before: S's view to the end, while the
    same person at ``play`` saw every hand and tile turned face up."""
    from spacemission_cli._games import Replayer
    from spacemission_env.space_mission.render import render_rgb

    def end_board(out):
        return out[out.index("Board at the end"):out.index("Final scores")]

    code, seat_out, err = run([arena_file, "--seat", 1, "--boards", "end", "--to-png", tmp_path / "seat"], capsys)
    assert code == 0, err
    code, all_out, err = run([arena_file, "--boards", "end"], capsys)
    assert code == 0, err
    start = seat_out[:seat_out.index("Board at the end")]
    assert "Your hand:" in start and "red hand:" not in start and " pile: " not in start
    assert "Board at the end: every card and tile face up" in seat_out
    assert "Board at the end: every card" not in all_out  # without --seat every board is face up anyway
    hands = [[ln for ln in end_board(out).splitlines() if " hand: " in ln or " pile: " in ln] for out in (seat_out, all_out)]
    assert len(hands[0]) > 3 and hands[0] == hands[1] and "Your hand:" not in end_board(seat_out)
    assert_replay_pictures_end_face_up(tmp_path / "seat", Replayer(read_records(arena_file)[0][1], "test"), 1, render_rgb)


def test_a_seat_replay_of_an_unfinished_save_ends_in_the_seats_view(tmp_path, capsys):
    """A game saved unfinished was never turned face up: its last board stays the seat's."""
    path, _ = unfinished_save(tmp_path / "save.json")
    code, out, err = run([path, "--seat", 1, "--boards", "end"], capsys)
    assert code == 0, err
    end = out[out.index("Board at the end"):]
    assert "face up" not in end and "Your hand:" in end and "red hand:" not in end and " pile: " not in end


def test_play_game_replays_with_seat_and_pictures(play_file, tmp_path, capsys):
    frames = tmp_path / "frames"
    code, out, err = run([play_file, "--seat", 0, "--to-png", frames, "--boards", "end"], capsys)
    assert code == 0, err
    pngs = sorted(frames.glob("turn_*.png"))
    game = read_records(play_file)[0][1]
    turns = 1 + sum(1 for i, a in enumerate(game["actions"])
                    if i + 1 == len(game["actions"]) or game["actions"][i + 1][0] != a[0])
    assert len(pngs) == turns and f"wrote {turns} pictures" in out
    with Image.open(pngs[-1]) as im:
        assert im.size == (1200, 800)
    assert "= human" in out and out.count("Board ") == 2  # --boards end: the start and the end only


@pytest.mark.parametrize("boards", ["action", "round"])
def test_board_frequency(play_file, boards, capsys):
    code, out, _ = run([play_file, "--boards", boards], capsys)
    assert code == 0
    n_actions = len(read_records(play_file)[0][1]["actions"])
    count = out.count("Board after")
    assert count == n_actions - 1 if boards == "action" else 1 <= count <= 6


def _write(path, games):
    path.write_text("".join(json.dumps(g) + "\n" for g in games))
    return path


def test_a_game_that_does_not_replay_is_reported(play_file, tmp_path, capsys):
    game = read_records(play_file)[0][1]
    bad = dict(game, actions=[list(a) for a in game["actions"]])
    bad["actions"][3][2] = "fly sideways"
    code, _, err = run([_write(tmp_path / "a.jsonl", [bad]), ], capsys)
    assert code == 1 and "action 4 of" in err and 'recorded label "fly sideways"' in err
    short = dict(game, actions=game["actions"][:-3])
    code, _, err = run([_write(tmp_path / "b.jsonl", [short])], capsys)
    assert code == 1 and "before the game is over" in err
    wrong = dict(game, scores=[dict(s, total=s["total"] + 1) for s in game["scores"]])
    code, _, err = run([_write(tmp_path / "c.jsonl", [wrong])], capsys)
    assert code == 1 and "recorded scores" in err
    seat = dict(game, actions=[[1 - a[0], a[1], a[2]] if i == 0 else a for i, a in enumerate(game["actions"])])
    code, _, err = run([_write(tmp_path / "d.jsonl", [seat])], capsys)
    assert code == 1 and "but seat" in err


@pytest.mark.parametrize("content,message", [
    ("{not json\n", "line 1: not valid JSON"),
    ('{"format": "spacemission-arena-results"}\n', "not a recorded game"),
    ("\n\n", "holds no recorded game"),
    ('{"format": "spacemission-arena-game", "version": 1, "seed": 1, "config": {"num_players": 9, "rules": "yucata",'
     ' "max_rounds": 5}, "actions": [], "scores": []}\n', "num_players"),
])
def test_malformed_files_are_argument_errors(content, message, tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    path.write_text(content)
    with pytest.raises(SystemExit) as exc:
        replay.main([str(path)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "argument FILE" in err and message in err


def test_bad_arguments(play_file, tmp_path, capsys):
    for argv, text in (([play_file, "--game", "7"], "argument --game: no game 7"),
                       ([play_file, "--seat", "2"], "argument --seat: must be a seat in 0..1"),
                       ([play_file, "--boards", "often"], "argument --boards: invalid choice"),
                       ([tmp_path / "missing.jsonl"], "argument FILE: cannot read")):
        with pytest.raises(SystemExit):
            replay.main([str(a) for a in argv])
        assert text in capsys.readouterr().err


@pytest.mark.parametrize("name", ["red_planet", "spacemission"])
def test_a_game_name_for_game_says_what_game_means_here(play_file, name, capsys):
    """play and arena take --game NAME; replay's --game K is a record's number. Before:
    'argument --game: expected an integer, got 'red_planet'', which did not say why."""
    with pytest.raises(SystemExit) as exc:
        replay.main([str(play_file), "--game", name])
    err = capsys.readouterr().err
    assert exc.value.code == 2
    assert f"argument --game: '{name}' is a game's name, but replay's --game K is the number of a recorded game" in err
    assert "each record says which game it is" in err


def test_joined_files_pick_a_game_by_line_and_refuse_an_ambiguous_number(play_file, tmp_path, capsys):
    # two runs' files joined: every game number repeats, so --game K alone cannot say which game
    game = read_records(play_file)[0][1]
    other = dict(game, actions=game["actions"][:-3])  # line 3 does not replay: picking it must show that
    path = tmp_path / "joined.jsonl"
    path.write_text(json.dumps(game) + "\n\n" + json.dumps(other) + "\n")
    for argv, text in ((["--game", str(game["game"])], f"2 games are numbered {game['game']} in {path} (lines 1, 3); "
                                                         "pick one with --line N"),
                       (["--line", "2"], f"argument --line: no recorded game on line 2 of {path}; games are on lines 1, 3"),
                       (["--line", "1", "--game", "0"], "argument --line: not allowed with argument --game")):
        with pytest.raises(SystemExit) as exc:
            replay.main([str(path), *argv])
        assert exc.value.code == 2
        assert text in capsys.readouterr().err
    code, out, _ = run([str(path), "--line", "1", "--boards", "end"], capsys)
    assert code == 0 and "(line 1)" in out
    code, _, err = run([str(path), "--line", "3", "--boards", "end"], capsys)
    assert code == 1 and f"{path} line 3" in err and "before the game is over" in err


def test_help_shows_an_example(capsys):
    with pytest.raises(SystemExit):
        replay.main(["--help"])
    assert "spacemission replay results/games.jsonl --game 3" in capsys.readouterr().out


def _cut_after_nine_actions(play_file):
    """The first game of ``play_file`` cut after its 9th action (a record without its end,
    as an arena forfeit leaves one) and that game replayed to there."""
    from spacemission_cli._games import Replayer

    game = read_records(play_file)[0][1]
    cut = dict(game, actions=game["actions"][:9])
    rebuilt = Replayer(cut, "cut")
    while not rebuilt.done:
        rebuilt.step()
    return cut, rebuilt


def test_a_forfeited_arena_game_replays_to_the_forfeit(play_file, tmp_path, capsys):
    from spacemission_env.space_mission.rules import scores

    cut, rebuilt = _cut_after_nine_actions(play_file)
    seat = rebuilt.state.current_player
    cut.update(scores=scores(rebuilt.state), rounds=rebuilt.state.round, round_limit=False, ranks=None,
               winners=[1 - seat], forfeit={"seat": seat, "agent": "cheater", "round": rebuilt.state.round,
                                            "action": 0, "reason": "returned illegal action 0"})
    del cut["ranks"]
    code, out, err = run([_write(tmp_path / "f.jsonl", [cut])], capsys)
    assert code == 0, err
    # the forfeit was "seat 1 (cheater)" among lines that name every seat by its colour
    from spacemission_cli._view import COLOUR_NAMES

    assert f"The game stopped here: {COLOUR_NAMES[seat]} (cheater) forfeited: returned illegal action 0" in out
    stray = [ln for ln in out.splitlines() if re.search(r"player_\d|\bP\d|seat \d", ln)]
    assert not stray, stray[:5]


def test_a_forfeited_games_ranks_and_winners_are_checked(play_file, tmp_path, capsys):
    """Before: the ranks and winners of a game ended by a forfeit went unchecked, so an edited
    record replayed as matching and named the forfeiting seat, or nobody, as the winner. They
    are the arena's: the forfeiting seat last, the others by their scores so far (R-P8 order)."""
    from spacemission_env.space_mission.rules import scores

    cut, rebuilt = _cut_after_nine_actions(play_file)
    seat = rebuilt.state.current_player
    ranks = [2, 1] if seat == 0 else [1, 2]
    cut.update(scores=scores(rebuilt.state), rounds=rebuilt.state.round, round_limit=False, ranks=ranks,
               winners=[1 - seat], forfeit={"seat": seat, "agent": "cheater", "round": rebuilt.state.round,
                                            "action": 0, "reason": "returned illegal action 0"})
    code, out, err = run([_write(tmp_path / "f.jsonl", [cut])], capsys)
    assert code == 0 and "ranks, winners" in " ".join(out.split()), err
    for key, value in (("ranks", ranks[::-1]), ("winners", [seat]), ("winners", [])):
        code, out, err = run([_write(tmp_path / "f.jsonl", [dict(cut, **{key: value})])], capsys)
        assert code == 1 and f"recorded {key} {value!r} but the rebuilt game gives" in err, err


def test_a_forfeited_game_shows_its_scores_so_far_as_the_seat_could_count_them(play_file, tmp_path, capsys):
    """Before: "Final scores: red X | blue Y; winner: ..." for a game stopped by a forfeit:
    never scored openly (the winner could hold fewer points), and with --seat the other
    seats' totals, which count the tiles hidden from it (R-I2, R-I4)."""
    from spacemission_cli._view import COLOUR_NAMES
    from spacemission_env.space_mission.rules import scores

    cut, rebuilt = _cut_after_nine_actions(play_file)
    s = rebuilt.state
    seat, other = s.current_player, 1 - s.current_player
    cut.update(scores=scores(s), rounds=s.round, round_limit=False, ranks=[2, 1] if seat == 0 else [1, 2],
               winners=[other], forfeit={"seat": seat, "agent": "cheater", "round": s.round, "action": 0,
                                         "reason": "returned illegal action 0"})
    path = _write(tmp_path / "f.jsonl", [cut])
    code, out, err = run([path, "--boards", "end"], capsys)
    assert code == 0 and "Final scores" not in out, out
    totals = " | ".join(f"{COLOUR_NAMES[q]} {sc['total']}" for q, sc in enumerate(cut["scores"]))
    assert f"before the final scoring. Scores so far: {totals}" in out
    assert f"Winner: {COLOUR_NAMES[other]} (the forfeiting seat ranks last" in out
    code, out, err = run([path, "--boards", "end", "--seat", str(seat)], capsys)
    out = " ".join(out.split())
    assert code == 0 and "Final scores" not in out and f"as {COLOUR_NAMES[seat]} could count them" in out
    assert f"{COLOUR_NAMES[other]} {cut['scores'][other]['total']} |" not in out  # only public points


def test_a_forfeit_is_the_seat_to_act_before_the_end(play_file, tmp_path, capsys):
    """Before: any object passed as a forfeit, and with one the game's end, ranks and winners
    went unchecked: a finished game recorded as forfeited, a forfeit by a seat not to act, or
    a game cut short with "forfeit": {} replayed as matching its record."""
    from spacemission_env.space_mission.rules import scores

    game = read_records(play_file)[0][1]
    cut, rebuilt = _cut_after_nine_actions(play_file)
    other = 1 - rebuilt.state.current_player
    cut = {k: v for k, v in cut.items() if k not in ("ranks", "winners", "rounds", "round_limit")}
    cut["scores"] = scores(rebuilt.state)
    for rec in (dict(game, forfeit={}), dict(cut, forfeit={}), dict(cut, forfeit={"seat": 7})):
        with pytest.raises(SystemExit) as exc:
            replay.main([str(_write(tmp_path / "f.jsonl", [rec]))])
        assert exc.value.code == 2
        assert f"forfeit must be null or an object, got {json.dumps(rec['forfeit'])}" in capsys.readouterr().err
    for rec, words in ((dict(game, forfeit={"seat": 0}), "records a forfeit by seat 0, but the recorded actions end "
                                                          "the game"),
                       (dict(cut, forfeit={"seat": other}), f"records a forfeit by seat {other}, but seat {1 - other} "
                                                            f"is to act where the recorded actions end")):
        code, _, err = run([_write(tmp_path / "f.jsonl", [rec]), "--boards", "end"], capsys)
        assert code == 1 and words in err, err


def test_a_seat_replay_of_an_unfinished_save_counts_only_what_the_seat_knows(tmp_path, capsys):
    """``--seat S`` of a game saved unfinished: S's own total and the others' public points
    (jump gate and stations, R-P1, R-P2), never the others' totals, which count the types of
    their collected tiles, hidden from S (R-I2, R-I4). Before: every seat's full total.
    Without --seat everything is shown, as before."""
    path, sc = unfinished_save(tmp_path / "save.json")
    code, out, err = run([path, "--seat", 1, "--boards", "end"], capsys)
    assert code == 0, err
    line = " ".join(out[out.index("Scores so far"):].split("The rebuilt game")[0].split())
    public = [x["jump_gate"] + x["stations"] for x in sc]
    assert line.startswith(f"Scores so far as blue could count them: red {public[0]} public | blue {sc[1]['total']} | "
                           f"yellow {public[2]} public (the others' tiles are hidden"), line
    assert f"red {sc[0]['total']} " not in line and f"yellow {sc[2]['total']} " not in line
    code, out, err = run([path, "--boards", "end"], capsys)
    assert code == 0, err
    assert "Scores so far: " + " | ".join(f"{c} {x['total']}" for c, x in zip(("red", "blue", "yellow"), sc)) in out


@pytest.fixture(scope="module")
def both_games(arena_file, tmp_path_factory):
    """A recorded Space Mission game and a Red Planet one (arena games.jsonl lines)."""
    out = tmp_path_factory.mktemp("rp_arena")
    run_arena(["random", "random"], num_players=3, games=1, seed=1, out=str(out), progress=False, game="red_planet")
    return [read_records(arena_file)[0][1], read_records(out / "games.jsonl")[0][1]]


LONG = "x" * 20000


@pytest.mark.parametrize("field, value", [
    ("agents", [LONG] * 2), ("agents", ["a"] * 5000), ("ranks", [LONG]), ("winners", [LONG]), ("forfeit", {"seat": LONG}),
    ("unfinished", LONG), ("game", LONG), ("seed", LONG), ("scores", [LONG]), ("rounds", LONG), ("start_player", LONG),
    ("format", LONG), ("version", LONG), ("config", "rules"), ("config", "max_rounds"), ("actions", "label")])
@pytest.mark.parametrize("which", [0, 1])
def test_a_bad_record_value_is_shown_cut(both_games, which, field, value, tmp_path, capsys):
    """Before: every message on a malformed record (replay's error, serve's 400 or the game's
    listed error) echoed the rejected value whole: 20,000 characters for a 20,000-character
    agent name; now it is cut to 80 characters, as every other rejected value."""
    rec = json.loads(json.dumps(both_games[which]))
    if field == "config":
        rec["config"][value] = LONG
    elif field == "actions":
        rec["actions"][3][2] = LONG
    else:
        rec[field] = value
    path = _write(tmp_path / "bad.jsonl", [rec])
    with pytest.raises(SystemExit) if field not in ("scores", "rounds", "actions") else nullcontext() as ended:
        code, out, err = run([path], capsys)
    if ended is not None:  # an argument error: the file is malformed
        err = capsys.readouterr().err
    err = " ".join(err.split())
    assert "x" * 81 not in err and "..." in err and len(err) < 1500, err[:300]
    from tests.helpers.web import web_client

    r = web_client().post("/api/replays?name=bad.jsonl", content=path.read_bytes())
    message = r.json().get("error") or r.json()["games"][0]["error"]
    assert "x" * 81 not in message and len(message) < 400, (r.status_code, message[:300])
    assert "..." in message or "the page replays Space Mission games only" in message, message  # not checked there


def test_a_start_player_of_another_type_is_named_as_such(both_games, tmp_path, capsys):
    """Before: a start player recorded as a string read "recorded start player 2 but seed 0
    deals start player 2", and one recorded as 2.0 was taken."""
    for rec in both_games:
        n, start = rec["config"]["num_players"], rec["start_player"]
        for value in (str(start), float(start), [start], n):
            with pytest.raises(SystemExit):
                run([_write(tmp_path / "bad.jsonl", [dict(rec, start_player=value)])], capsys)
            err = " ".join(capsys.readouterr().err.split())
            assert f"start_player must be null or a seat in 0..{n - 1}, got {json.dumps(value)}" in err, err
        code, out, err = run([_write(tmp_path / "ok.jsonl", [dict(rec, start_player=None)]), "--boards", "end"], capsys)
        assert code == 0, err


@pytest.mark.parametrize("field, value, words", [
    ("seat", 5, "seat must be the person's seat, in 0..2, got 5"),
    ("seat", "0", "seat must be the person's seat, in 0..2, got \"0\""),
    ("seat", 1, "specs must be 3 entries, the opponents' specs with null at the person's seat 1, got [null, "),
    ("specs", [None], "specs must be 3 entries, the opponents' specs with null at the person's seat 0, got [null]"),
    ("specs", [None, "random", 7], 'got [null, "random", 7]'),
    ("specs", "x" * 5000, 'got "xxxxxx')])
def test_a_save_whose_seat_or_specs_do_not_fit_is_refused_by_name(field, value, words, tmp_path, capsys):
    """A play save read as a recorded game (replay FILE, serve's upload and --replay) had its
    seat and specs unchecked: seat 5 or "0" replayed with the person's seat named "None", and
    specs too short or of another type were "IndexError: list index out of range"."""
    path, _ = unfinished_save(tmp_path / "save.json")
    data = json.loads(path.read_text())
    path.write_text(json.dumps(dict(data, **{field: value})))
    with pytest.raises(SystemExit):
        run([path], capsys)
    err = " ".join(capsys.readouterr().err.split())
    assert words in err and len(err) < 600, err
    from tests.helpers.web import refused, web_client

    refused(web_client().post("/api/replays?name=save.json", content=path.read_bytes()), 400, words)
