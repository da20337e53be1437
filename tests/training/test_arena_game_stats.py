"""tools/arena_game_stats.py: per-agent figures from an arena's games.jsonl (used for the
exploitability section of docs/training.md)."""
import json

import pytest

from spacemission_agents.arena import run_arena
from tests.helpers.paths import load_tool


def test_stats_of_a_small_arena(tmp_path):
    tool = load_tool("arena_game_stats")
    run_arena(["random", "greedy"], num_players=2, games=4, seed=3, out=tmp_path, progress=False)
    out = tool.stats([str(tmp_path / "games.jsonl")])
    assert set(out) == {"random", "greedy"}
    assert out["random"]["win_share"] + out["greedy"]["win_share"] == pytest.approx(1.0)
    games = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    for seat_name in out:
        s = out[seat_name]
        assert s["games"] == 4 and sum(s["kind_share"].values()) == pytest.approx(1.0)
        assert s["rounds"] == pytest.approx(sum(g["rounds"] for g in games) / 4)
    assert tool.kind_of(0) == "top_up" and tool.kind_of(89) == "discover" and tool.kind_of(99) == "tile"
    with pytest.raises(ValueError, match="outside"):
        tool.kind_of(100)


def test_forfeited_games_are_left_out_of_the_mean_scores(tmp_path):
    """Before: a forfeited game's provisional scores counted in the "mean final score", which
    the arena's own mean scores leave out. Now the same means as the arena's."""
    from spacemission_agents.random_agents import RandomAgent

    class Quitter(RandomAgent):
        name = "quitter"
        chunks = 0  # seed() is called once per chunk (and once before the first): every other game is quit

        def seed(self, seed=None):
            Quitter.chunks += 1
            super().seed(seed)

        def act_batch(self, observations, action_masks):
            if Quitter.chunks % 2:
                raise RuntimeError("tired")
            return super().act_batch(observations, action_masks)

    tool = load_tool("arena_game_stats")
    result = run_arena([Quitter(), "greedy"], num_players=2, games=6, seed=3, out=tmp_path, progress=False,
                       chunk_size=1, log=lambda m: None)
    assert 0 < len(result.forfeits) < 6
    out = tool.stats([str(tmp_path / "games.jsonl")])
    for name in ("quitter", "greedy"):
        assert out[name]["games"] == 6
        assert out[name]["score"]["total"] == pytest.approx(result.agent(name).mean_score["total"], abs=1e-4)  # 4 decimals
