"""The trainer over the game protocol: a tiny Mission: Red Planet run end to end (its model
loads, plays legal moves in the arena and refuses Space Mission), Space Mission's defaults
unchanged by ``--game``, and the heuristic prior checked against the game's observation."""
import json
from dataclasses import fields

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch  # noqa: E402

from spacemission_agents.arena import run_arena  # noqa: E402
from spacemission_agents.ppo import PPOAgent  # noqa: E402
from spacemission_agents.registry import make_agent  # noqa: E402
from spacemission_env.games import GameConfig, get_game  # noqa: E402
from spacemission_env.sb3 import GameVecEnv  # noqa: E402
from spacemission_training.config import GAME_DEFAULTS, TrainConfig, for_game, parse_args  # noqa: E402
from spacemission_training.train_ppo import train  # noqa: E402

TINY_RP = dict(num_envs=8, n_steps=32, batch_size=128, epochs=1, trunk="32", pi="16", vf="16", bc_teacher="random",
               bc_samples=200, bc_epochs=1, opponents="random=0.7,self=0.3", snapshot_every=256, eval_every=0,
               final_eval_games=0, checkpoint_every=10_000, steps=512, threads=1, progress="lines",
               tensorboard=False)


@pytest.fixture(scope="module")
def red_planet_run(tmp_path_factory):
    before = torch.get_num_threads()
    run_dir = tmp_path_factory.mktemp("rp") / "run"
    summary = train(for_game("red_planet", run_dir=str(run_dir), **TINY_RP), argv=[])
    torch.set_num_threads(before)
    return run_dir, summary


def test_a_tiny_red_planet_run_exports_a_red_planet_model(red_planet_run):
    run_dir, summary = red_planet_run
    assert summary["steps"] >= TINY_RP["steps"]
    on_disk = json.loads((run_dir / "summary.json").read_text())
    assert on_disk["game"] == "red_planet" and on_disk["players"] == 4  # before: neither was named
    agent = PPOAgent.load(run_dir / "final.npz")
    assert agent.game == "red_planet"
    assert agent.metadata["num_actions"] == 243 and agent.metadata["observation_size"] == get_game("red_planet").description.observation_size("info")
    assert agent.metadata["num_players"] == 4
    assert agent.prior is not None and agent.prior.game == "red_planet"  # Red Planet's default: its heuristic prior
    assert agent.metadata["prior"]["game"] == "red_planet" and agent.params["prior_beta"].shape == (1,)
    assert json.loads((run_dir / "config.json").read_text())["config"]["game"] == "red_planet"


def test_the_red_planet_model_plays_legal_moves_in_the_env_and_the_arena(red_planet_run):
    agent = PPOAgent.load(red_planet_run[0] / "final.npz")
    env = GameVecEnv(6, num_players=4, game="red_planet", opponents=make_agent("random", seed=2, game="red_planet"),
                     seed=3)
    obs = env.reset()
    for _ in range(30):
        masks = env.action_masks()
        actions = agent.act_batch(obs, masks)
        assert masks[np.arange(len(actions)), actions].all()
        obs, _, _, _ = env.step(actions)
    res = run_arena([agent, "random"], num_players=4, games=4, game="red_planet", seed=1, progress=False,
                    record=False, log=lambda msg: None)
    me = res.config["agents"][0]
    assert res.agent(me).games > 0


def test_models_refuse_the_other_game(red_planet_run):
    red = PPOAgent.load(red_planet_run[0] / "final.npz")
    with pytest.raises(ValueError, match="Red Planet"):
        red.bind(GameConfig(4, game="spacemission"))
    space = PPOAgent.load_shipped(2)
    with pytest.raises(ValueError, match="Space Mission"):
        space.bind(GameConfig(4, game="red_planet"))
    red.bind(GameConfig(4, game="red_planet"))  # its own game is accepted


def test_a_model_file_without_a_game_is_space_missions():
    agent = PPOAgent.load_shipped(2)
    meta = {k: v for k, v in agent.metadata.items() if k != "game"}
    old = PPOAgent(agent.params, meta)
    assert old.game == "spacemission"
    with pytest.raises(ValueError, match="Space Mission"):
        old.bind(GameConfig(4, game="red_planet"))


def test_space_mission_defaults_are_unchanged():
    cfg, resume = parse_args([])
    assert resume is None and cfg == TrainConfig() and cfg.game == "spacemission"
    expected = dict(players=2, rules="yucata", max_rounds=100, observation_type="recall", prior="heuristic",
                    num_envs=256, n_steps=128, bc_teacher="heuristic", bc_samples=250_000,
                    opponents="heuristic=0.35,greedy=0.15,self=0.4,kind-random=0.05,random=0.05")
    assert {k: getattr(cfg, k) for k in expected} == expected
    assert GAME_DEFAULTS["spacemission"] == {}


def test_game_flag_applies_the_games_defaults_under_the_flags():
    cfg, _ = parse_args(["--game", "red_planet", "--num-envs", "32"])
    assert (cfg.game, cfg.prior, cfg.rules, cfg.max_rounds, cfg.players) == ("red_planet", "heuristic", "first_edition",
                                                                             10, 4)
    assert cfg.num_envs == 32
    others = {f.name for f in fields(TrainConfig)} - set(GAME_DEFAULTS["red_planet"]) - {"game", "num_envs"}
    assert all(getattr(cfg, k) == getattr(TrainConfig(), k) for k in others)


def test_the_heuristic_prior_reads_the_games_observation(capsys):
    assert for_game("red_planet", prior="heuristic").observation_type == "info"
    with pytest.raises(ValueError, match="the heuristic prior reads the 'info' observation"):
        for_game("red_planet", prior="heuristic", observation_type="recall")
    with pytest.raises(ValueError, match="the heuristic prior reads the 'recall' observation"):
        TrainConfig(prior="heuristic", observation_type="info")
    with pytest.raises(SystemExit):
        parse_args(["--game", "red_planet", "--prior", "heuristic", "--observation-type", "recall"])
    assert "the heuristic prior reads the 'info' observation" in capsys.readouterr().err


def test_a_configuration_outside_the_game_is_refused():
    with pytest.raises(ValueError, match="num_players"):
        for_game("red_planet", players=2)
    with pytest.raises(ValueError, match="unknown game"):
        TrainConfig(game="chess")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_shipped_red_planet_models_load_by_name_for_every_player_count(players):
    """One shipped model per player count (3 and 5: the 4-player model fine-tuned there,
    docs/training.md), each with its card; ``make_agent("ppo")`` binds the one for the game's count."""
    from spacemission_agents.ppo import SHIPPED_BY_GAME

    path = PPOAgent.shipped_path(players, game="red_planet")
    assert path.name == SHIPPED_BY_GAME["red_planet"][players] and path.stat().st_size <= 5 * 1024 * 1024
    card = json.loads(path.with_suffix(".json").read_text())
    assert card["metadata"]["game"] == "red_planet" and card["metadata"]["num_players"] == players
    assert card["metadata"]["training"]["command"].startswith("spacemission train")
    assert card["metadata"]["training"]["config"]["game"] == "red_planet"
    assert card["metadata"]["training"]["config"]["players"] == players
    agent = make_agent("ppo", game="red_planet")
    agent.bind(GameConfig(players, game="red_planet"))
    assert (agent.game, agent.metadata["num_players"]) == ("red_planet", players)
    with pytest.raises(ValueError, match="Red Planet"):
        make_agent("ppo", game="red_planet").bind(GameConfig(2, game="spacemission"))


@pytest.mark.parametrize("cache_game, run_game", [("spacemission", "red_planet"), (None, "red_planet"),
                                                  ("red_planet", "spacemission")])
def test_a_bc_cache_of_the_other_game_is_refused_before_the_run(tmp_path, capsys, cache_game, run_game):
    """Before: the run found the cache's settings unlike its own, collected its own teacher
    data and saved it over the other game's cache without a word (a Space Mission cache
    given to a Red Planet run was lost). A cache whose settings name no game is Space
    Mission's (written before the trainer took --game)."""
    from spacemission_training import bc
    from spacemission_training.train_ppo import main

    path = tmp_path / "teacher.npz"
    settings = {"seed": 1} if cache_game is None else {"game": cache_game, "seed": 1}
    bc.save_cache(str(path), settings, {"action": np.zeros(3, np.int64), "games": 1, "seconds": 0.0})
    before = path.read_bytes()
    have = cache_game or "spacemission"
    with pytest.raises(ValueError, match=rf"option bc_cache: {str(path)!r} holds teacher data of .*\({have!r}\), "
                                         rf"not of .*\({run_game!r}\), this run's game"):
        for_game(run_game, bc_cache=str(path))
    run_dir = tmp_path / "run"
    with pytest.raises(SystemExit) as exc:
        main(["--game", run_game, "--bc-cache", str(path), "--run-dir", str(run_dir)])
    assert exc.value.code == 2 and "holds teacher data of" in capsys.readouterr().err
    assert not run_dir.exists() and path.read_bytes() == before
    for_game(have, bc_cache=str(path))  # its own game's runs read it (or collect anew where the settings differ)


def test_a_resumed_models_card_names_the_command_that_started_the_run(tmp_path):
    """Before: final.npz's metadata (and the card tools/ship_model.py writes from it) held
    the last process's command only: the shipped Red Planet card read 'spacemission train
    --resume runs/rpp1 --steps 3200000 --progress lines', which names neither the game nor
    any option of the run."""
    run_dir = tmp_path / "run"
    start = ["--game", "red_planet", "--steps", "256", "--run-dir", str(run_dir)]
    train(for_game("red_planet", **{**TINY_RP, "steps": 256}, run_dir=str(run_dir)), argv=start)
    extend = ["--resume", str(run_dir), "--steps", "512"]
    cfg, resume = parse_args(extend)
    train(cfg, resume=resume, argv=extend)
    training = PPOAgent.load(run_dir / "final.npz").metadata["training"]
    assert training["command"] == " ".join(["spacemission", "train", *start])
    assert training["resumed"] == [" ".join(["spacemission", "train", *extend])]
    assert training["steps"] == 512 and training["config"]["steps"] == 512


def test_run_commands_reads_both_trainers_config_json(tmp_path):
    """The helper both trainers' exports use (the RLlib trainer's final.npz recorded its
    last process's command too); without a readable config.json, this process's command."""
    from spacemission_training.lifecycle import run_commands

    start = ["spacemission", "train", "--backend", "rllib", "--game", "red_planet"]
    again = ["spacemission", "train", "--backend", "rllib", "--resume", "runs/x", "--steps", "9"]
    assert run_commands(tmp_path, again) == {"command": " ".join(again)}
    (tmp_path / "config.json").write_text(json.dumps({"command": start, "config": {}}))
    assert run_commands(tmp_path, start) == {"command": " ".join(start)}
    (tmp_path / "config.json").write_text(json.dumps({"command": start, "resumed": [{"command": again, "step": 4}]}))
    assert run_commands(tmp_path, again) == {"command": " ".join(start), "resumed": [" ".join(again)]}
