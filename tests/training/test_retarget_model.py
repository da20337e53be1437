"""tools/retarget_model.py: a saved model copied for another player count of its game, to
fine-tune it there (docs/training.md, "Red Planet agents for 3 and 5 players")."""
import hashlib

import numpy as np
import pytest

from spacemission_agents.arena import run_arena
from spacemission_agents.ppo import PPOAgent
from spacemission_env import GameConfig
from tests.helpers.paths import ROOT, load_tool

SOURCE = ROOT / "agents" / "spacemission_agents" / "data" / "red_planet_ppo_4p.npz"


def test_copy_changes_only_the_player_count_and_records_its_source(tmp_path):
    tool = load_tool("retarget_model")
    before = SOURCE.read_bytes()
    out = tmp_path / "rp3.npz"
    tool.retarget(str(SOURCE), 3, str(out))
    assert SOURCE.read_bytes() == before
    src, copy = PPOAgent.load(SOURCE), PPOAgent.load(out)
    assert sorted(src.params) == sorted(copy.params)
    assert all(np.array_equal(src.params[k], copy.params[k]) for k in src.params)
    assert copy.metadata["num_players"] == 3 and src.metadata["num_players"] == 4
    assert copy.metadata["training"]["retargeted_from"] == {
        "num_players": 4, "sha256": hashlib.sha256(before).hexdigest()}
    rest = {k: v for k, v in copy.metadata.items() if k not in ("num_players", "training")}
    assert rest == {k: v for k, v in src.metadata.items() if k not in ("num_players", "training")}
    # the source refuses a 3-player game; the copy plays one, every move legal (the arena checks)
    with pytest.raises(ValueError, match="trained for 4 players"):
        PPOAgent.load(SOURCE).bind(GameConfig(3, game="red_planet"))
    result = run_arena([f"ppo:{out}", "random"], num_players=3, games=3, seed=1, game="red_planet", progress=False)
    assert sum(a.games for a in result.agents) > 0 and all(a.forfeits == 0 for a in result.agents)


def test_the_fine_tune_accepts_the_copy(tmp_path):
    """``spacemission train --init-from`` refuses the 4-player file for a 3-player run and takes the copy."""
    from spacemission_training.config import for_game
    from spacemission_training.init_from import check

    out = tmp_path / "rp3.npz"
    load_tool("retarget_model").retarget(str(SOURCE), 3, str(out))
    with pytest.raises(ValueError, match="players 4; this run has players 3"):
        for_game("red_planet", players=3, init_from=str(SOURCE))  # the configuration checks the file
    assert check(for_game("red_planet", players=3, init_from=str(out))).metadata["num_players"] == 3


@pytest.mark.parametrize("players, message", [(6, "played by 3-5 players, not 6"), (4, "already a 4-player model")])
def test_counts_it_refuses(tmp_path, players, message):
    out = tmp_path / "x.npz"
    with pytest.raises(ValueError, match=message):
        load_tool("retarget_model").retarget(str(SOURCE), players, str(out))
    assert not out.exists()
