"""``spacemission demo`` for every game of the protocol (spacemission_cli/demo.py): Space
Mission's demo as before, Red Planet's and a third game's through ``get_game``, and the
options a game does not have refused by name. Before, ``demo`` played only Space Mission
and refused ``--game`` ('unrecognized arguments')."""
import pytest

from spacemission_cli.main import main


def _out(capsys, *argv) -> str:
    assert main(["demo", *argv]) == 0
    return capsys.readouterr().out


def test_space_mission_prints_what_its_own_demo_prints(capsys):
    from spacemission_env.space_mission import demo

    demo.main(["--players", "4", "--seed", "3", "--rules", "schmidt", "--max-rounds", "30"])
    expected = capsys.readouterr().out
    assert _out(capsys, "--players", "4", "--seed", "3", "--rules", "schmidt", "--max-rounds", "30") == expected
    assert _out(capsys, "--game", "spacemission", "--players", "4", "--seed", "3", "--rules", "schmidt",
                "--max-rounds", "30") == expected
    demo.main([])
    expected = capsys.readouterr().out
    assert _out(capsys) == expected


@pytest.mark.parametrize("players, seed", [(None, 2), (5, 7)])
def test_red_planet_is_its_random_play_game(capsys, players, seed):
    from spacemission_env.red_planet.random_play import play
    from spacemission_env.red_planet.rules import scores, winners

    argv = ["--game", "red_planet", "--seed", str(seed)] + ([] if players is None else ["--players", str(players)])
    out = _out(capsys, *argv)
    n = players or 3  # the default: 3 players, rules first_edition, its ten rounds
    state, kinds = play(n, seed)
    assert out.startswith(f"Mission: Red Planet, {n} players, rules=first_edition, seed={seed}, uniform-random "
                          f"players: {sum(kinds.values())} actions, 10 rounds\n")
    assert "| seat | ice | sylvanite | celerium | ice_bonus | discovery_cards | bonus_cards | total |" in out
    for q, row in enumerate(scores(state)):
        assert f"| {q} | " + " | ".join(str(v) for v in row.values()) + " |" in out
    won = winners(state)
    assert out.strip().endswith(f"winner{'s' if len(won) > 1 else ''}: " + ", ".join(f"seat {q}" for q in won))


@pytest.mark.parametrize("argv, message", [
    (["--player", "kind"], "argument --player: 'kind' is Space Mission's player"),
    (["--rules", "yucata"], "argument --rules: unknown rules 'yucata' for Mission: Red Planet"),
    (["--max-rounds", "50"], "argument --max-rounds: max_rounds must be 10 for Mission: Red Planet"),
    (["--players", "2"], "argument --players: num_players must be an integer in 3..5 for Mission: Red Planet"),
])
def test_red_planet_refuses_what_it_does_not_have(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--game", "red_planet", *argv])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and message in err and "Traceback" not in err


@pytest.mark.parametrize("argv, message", [
    (["--rules", "first_edition"], "argument --rules: unknown rules 'first_edition' for Space Mission"),
    (["--players", "6"], "argument --players: num_players must be an integer in 2..5 for Space Mission"),
    (["--seed", "-1"], "argument --seed: must be >= 0"),
])
def test_space_mission_refuses_bad_options_by_name(capsys, argv, message):
    with pytest.raises(SystemExit) as exc:
        main(["demo", *argv])
    assert exc.value.code == 2 and message in capsys.readouterr().err


def test_a_third_game_needs_no_change(monkeypatch, capsys):
    from spacemission_env import games

    monkeypatch.setitem(games.GAMES, "last_token", "tests.helpers.toy_game")
    try:
        out = _out(capsys, "--game", "last_token", "--players", "2", "--seed", "1")
    finally:
        games._LOADED.pop("last_token", None)
    assert out.startswith("Last Token, 2 players, rules=")
    assert "| seat | " in out and "winner: seat " in out


def test_help_names_both_games(capsys):
    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    text = capsys.readouterr().out
    assert "--game {red_planet,spacemission}" in text and "spacemission demo --game red_planet" in text
