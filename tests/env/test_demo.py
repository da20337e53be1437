"""`python -m spacemission_env.demo` (what `make run` calls)."""
import pytest

from spacemission_env import demo
from spacemission_env.rules import scores, winners


def test_demo_prints_score_table_and_winners(capsys):
    demo.main(["--players", "3", "--seed", "2"])
    out = capsys.readouterr().out
    state, n = demo.play(3, 2)
    assert f"{n} actions" in out and "ended by R-E1" in out
    assert "| seat | jump_gate | stations | minerals | aliens | matter | water | medals | total |" in out
    for q, row in enumerate(scores(state)):
        assert f"| {q} | " + " | ".join(str(v) for v in row.values()) + " |" in out
    assert out.strip().endswith(", ".join(f"seat {q}" for q in winners(state)))


def test_demo_rejects_bad_player_count():
    with pytest.raises(SystemExit):
        demo.main(["--players", "6"])


def test_kind_uniform_player_only_picks_legal_actions():
    state, n = demo.play(2, 5, rules="schmidt", player="kind")
    assert state.is_over and n > 0
    state, _ = demo.play(2, 5, player="uniform", max_rounds=3)
    assert state.is_over and state.round_limit and state.round == 3
