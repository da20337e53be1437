"""What a play test of the terminal found, fixed in the shared view model (``_table``) and the
terminal ``play``: cards by face, whole labels or a confirmed start, top up by naming the
cards, fly with its destination, one name per tile type, the discard pile's cards, everything
face up at the end, save and quit, help, replays of unfinished games, clearer messages, undo."""
import io
import json
import sys

import pytest
from rich.console import Console

from spacemission_cli import play, replay
from spacemission_cli._table import Table, legal_moves, top_up_move
from spacemission_cli._view import board
from spacemission_env.space_mission.components import CARD_LABELS
from spacemission_env.space_mission.rules import action_label, new_game

ONES = "1\n" * 3000


def run(module, argv, text, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    code = module.main(argv)
    out = capsys.readouterr()
    return code, out.out, out.err


def test_top_up_by_card_face_discards_exactly_those(tmp_path, monkeypatch, capsys):
    s = new_game(2, seed=3)
    hand = [CARD_LABELS[c] for c in s.players[s.current_player].hand]
    move = top_up_move(f"top up {hand[3].lower()} {hand[1]}", legal_moves(s))
    assert action_label(move.action, s) == f"top up, discarding card 1 ({hand[1]}), card 3 ({hand[3]})"
    with pytest.raises(ValueError, match="'J9' is not a card in your hand"):
        top_up_move("top up J9", legal_moves(s))
    assert top_up_move("top up nothing", legal_moves(s)).cards == ()
    assert top_up_move("jump", legal_moves(s)) is None


def test_the_move_list_fits_a_terminal(monkeypatch, capsys):
    code, out, _ = run(play, ["--opponents", "random", "--seed", "3", "--max-rounds", "3"], ONES, monkeypatch, capsys)
    assert code == 0
    assert "or discard cards first: top up CARDS" in out
    lists = [block.split("your move>")[0] for block in out.split("Your moves (")[1:]]
    numbered = [ln for block in lists for ln in block.splitlines() if ln[:6].strip().isdigit()]
    assert numbered and not any("top up, discarding" in ln for ln in numbered)  # not every subset of the hand
    assert max(len([ln for ln in b.splitlines() if ln[:6].strip().isdigit()]) for b in lists) <= 16


def test_moves_say_where_they_go_and_tiles_have_one_name(monkeypatch, capsys):
    code, out, _ = run(play, ["--opponents", "random", "--seed", "3", "--max-rounds", "4"], "1\nfly clockwise\n" + ONES,
                       monkeypatch, capsys)
    assert code == 0
    assert "red (you): fly clockwise to Ruby Red" in out
    assert "your ship is on Ruby Red" in out  # the status between two actions
    assert "mineral_" not in out and "alien_" not in out and "matter_" not in out  # "red mineral" everywhere
    assert "discard pile (" in out and "J2/S2" in out.split("discard pile (")[2]  # the discard pile's cards


def test_the_end_shows_everything(monkeypatch, capsys):
    code, out, _ = run(play, ["--players", "3", "--opponents", "greedy", "--seed", "4", "--max-rounds", "6"], ONES,
                       monkeypatch, capsys)
    assert code == 0
    end = out.split("The end: every card and tile face up")[1]
    assert "blue hand:" in end and "yellow hand:" in end and "pile:" in end
    # the scores under the hands are the final ones (they read "provisional score" after the game)
    assert end.count("  final score ") == 3 and "provisional" not in end


def test_save_then_quit_and_overwrite_ask(tmp_path, monkeypatch, capsys):
    save = tmp_path / "s.json"
    save.write_text("keep me")
    code, out, _ = run(play, ["--opponents", "random", "--seed", "1"], f"save {save}\nn\nquit\nn\nsave {save}\ny\nquit\ny\n",
                       monkeypatch, capsys)
    assert code == 0
    assert f"{save} exists. Overwrite it? [y/N] n" in out and "not saved" in out
    assert "It is not saved" in out  # the first quit: the file was kept as it was
    assert f"It is saved in {save}" in out
    assert json.loads(save.read_text())["format"] == "spacemission-play-save"
    code, out, _ = run(replay, [str(save), "--boards", "end"], "", monkeypatch, capsys)  # an unfinished game replays
    assert code == 0 and "saved unfinished here" in out


def test_help_explains_coordinates_and_rules(monkeypatch, capsys):
    code, out, _ = run(play, ["--opponents", "random", "--seed", "1"], "help\nquit\ny\n", monkeypatch, capsys)
    assert "Coordinates:" in out and "J4 S2 L2,3" in out and "a turn is two actions" in out
    assert "top up J2/S1 S1" in out and "undo" in out


def test_undo_in_the_terminal(tmp_path, monkeypatch, capsys):
    rec = tmp_path / "g.jsonl"
    code, out, _ = run(play, ["--opponents", "random", "--seed", "3", "--max-rounds", "2", "--record", str(rec)],
                       "1\nundo\nundo\n" + ONES, monkeypatch, capsys)
    assert code == 0
    assert "took back: jump with J2/S2 to Green Heggar" in out and "nothing to undo" in out
    (game,) = [json.loads(line) for line in rec.read_text().splitlines()]
    first, second = [a for a in game["actions"] if a[0] == 0][:2]
    assert first[2] == "jump with card 0 (J2/S2) to Green Heggar"  # played again after the undo ("1")
    assert second[2] != first[2]  # and the undone copy is not in the record


def test_table_undo_restores_the_state_exactly():
    from spacemission_env.space_mission.rules.state_json import state_to_dict

    s = new_game(2, seed=3)
    table = Table(s, s.current_player, 3, [None, "x"] if s.current_player == 0 else ["x", None], {})
    before = state_to_dict(table.state)
    jump = next(m for m in table.moves() if m.kind == "jump")
    table.play(jump.action)
    assert table.can_undo
    table.undo()
    assert state_to_dict(table.state) == before and table.actions == [] and table.log == []
    up = next(m for m in table.moves() if m.kind == "top_up" and m.cards)
    table.play(up.action)  # new cards seen: no undo
    assert not table.can_undo
    with pytest.raises(ValueError, match="nothing to undo"):
        table.undo()


@pytest.mark.parametrize("text,words", [
    ('{"format": "spacemission-arena-game", "x": "abc', ["line 1: not valid JSON: Unterminated string starting at: line 1"]),
])
def test_replay_messages(text, words, tmp_path, monkeypatch, capsys):
    path = tmp_path / "g.jsonl"
    path.write_text(text)
    with pytest.raises(SystemExit):
        replay.main([str(path)])
    err = capsys.readouterr().err
    for w in words:
        assert w in err
    assert "at at" not in err


def test_an_illegal_recorded_id_is_described_by_what_it_means(tmp_path, monkeypatch, capsys):
    code, _, _ = run(play, ["--opponents", "random", "--seed", "3", "--max-rounds", "2", "--record", str(tmp_path / "g.jsonl")],
                     ONES, monkeypatch, capsys)
    rec = json.loads((tmp_path / "g.jsonl").read_text())
    seat, _, _ = rec["actions"][0]
    rec["actions"][0][1] = 73  # fly counter-clockwise, impossible from the jump gate
    (tmp_path / "bad.jsonl").write_text(json.dumps(rec))
    code, out, err = run(replay, [str(tmp_path / "bad.jsonl")], "", monkeypatch, capsys)
    assert code == 1 and "action 73 (fly counter-clockwise) is not legal" in err and "recorded label" in err


@pytest.mark.parametrize("argv", [["--max-rounds", "30", "--opponents", "ppo"], ["--rules", "schmidt", "--opponents", "ppo"]])
def test_a_refused_ppo_names_the_shipped_models(argv, monkeypatch, capsys):
    pytest.importorskip("spacemission_agents.ppo")
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(SystemExit):
        play.main(argv)
    err = capsys.readouterr().err
    assert "no shipped PPO model fits this game" in err
    assert "the shipped PPO models play 2, 3, 4 and 5 players, rules yucata, max_rounds 100" in err


def test_last_turns_do_not_wrap_at_80_columns():
    from spacemission_cli._view import view_from_observation
    from spacemission_env.space_mission import encoding
    from spacemission_env.space_mission.rules import apply, legal_actions

    s = new_game(3, seed=2)
    for _ in range(40):  # a few turns of long, discarding top ups
        apply(s, max(a for a in legal_actions(s) if a < 32) if s.phase == "main" else legal_actions(s)[0])
    console = Console(file=io.StringIO(), width=80)
    console.print(board(view_from_observation(encoding.observe(s, 0, "info"), "info", 0, 3, s.rules, s.max_rounds)))
    lines = console.file.getvalue().splitlines()
    turns = [i for i, ln in enumerate(lines) if "'s last turn:" in ln]
    assert len(turns) == 3 and turns[-1] - turns[0] <= 4  # one or two lines each, not six


def test_a_refused_ppo_file_is_not_given_the_shipped_models_hint(monkeypatch, capsys):
    """Before: any spec starting with 'ppo' got the shipped models' list, so a Red Planet
    model given to Space Mission's play read '... not Space Mission; the shipped PPO models
    play 2, 3, 4 and 5 players, rules yucata ... (ppo:PATH loads one of yours)'."""
    pytest.importorskip("spacemission_agents.ppo")
    from pathlib import Path

    import spacemission_agents

    model = Path(spacemission_agents.__file__).parent / "data" / "red_planet_ppo_4p.npz"
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    with pytest.raises(SystemExit):
        play.main(["--players", "4", "--opponents", f"ppo:{model}"])
    err = capsys.readouterr().err
    assert "plays Mission: Red Planet ('red_planet'), not Space Mission" in err
    assert "the shipped PPO models" not in err
