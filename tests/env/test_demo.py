"""The ``spacemission demo`` command (spacemission_env/space_mission/demo.py): a seeded game between random
players, its score table (R-P1..R-P7) and winners (R-P8)."""
import pytest

from spacemission_env.space_mission import demo
from spacemission_env.space_mission.random_play import play
from spacemission_env.space_mission.rules import scores, winners


def test_demo_prints_score_table_and_winners(capsys):
    demo.main(["--players", "3", "--seed", "2"])
    out = capsys.readouterr().out
    state, n = play(3, 2)
    assert f"{n} actions" in out and "ended by R-E1" in out
    assert "| seat | jump_gate | stations | minerals | aliens | matter | water | medals | total |" in out
    for q, row in enumerate(scores(state)):
        assert f"| {q} | " + " | ".join(str(v) for v in row.values()) + " |" in out
    assert out.strip().endswith(", ".join(f"seat {q}" for q in winners(state)))


@pytest.mark.parametrize("argv", [["--players", "6"], ["--player", "smart"], ["--rules", "house"]])
def test_demo_rejects_bad_arguments(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        demo.main(argv)
    assert exc.value.code == 2 and "error" in capsys.readouterr().err


def test_demo_usage_names_its_command(capsys):
    """Before: 'usage: spacemission [-h] ...' (the program name alone) for `spacemission demo --help`."""
    from spacemission_cli.main import main

    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    assert capsys.readouterr().out.startswith("usage: spacemission demo [-h]")
