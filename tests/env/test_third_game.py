"""A third game plugs into every interface without changing them (docs/games.md, "Adding
a game"): the toy game of tests/helpers/toy_game.py, written only against the protocol, is
registered under a name and then played through the PettingZoo AEC env (PettingZoo's
api_test), the Gymnasium env (Gymnasium's checker and ``gymnasium.make``), the self-play
VectorEnv, the SB3 VecEnv, the arena, ``play --game`` and ``replay`` (with a move hidden from
the other seats), the web page's API, the game-neutral agents and a tiny training run."""
from __future__ import annotations

import dataclasses
import io
import json
import sys
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from spacemission_env import games
from spacemission_env.gym_env import GameEnv
from spacemission_env.pettingzoo_env import env as aec_env
from spacemission_env.policies import RandomPolicy
from spacemission_env.vector import VectorEnv
from tests.helpers import toy_game


@pytest.fixture(autouse=True)
def third_game(monkeypatch):
    monkeypatch.setitem(games.GAMES, "last_token", "tests.helpers.toy_game")
    yield
    games._LOADED.pop("last_token", None)


def test_the_protocol_finds_the_game():
    g = games.get_game("last_token")
    assert g is toy_game.GAME and games.GameConfig(3, game="last_token").max_rounds == 15


def test_pettingzoo_api_test():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(game="last_token", num_players=3), num_cycles=200)


def test_gymnasium_checker_and_a_whole_episode():
    from gymnasium.utils.env_checker import check_env

    e = GameEnv(game="last_token", num_players=2, seat=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(e)
    obs, info = e.reset(seed=4)
    assert 10 <= obs[0] <= 14 and obs[1] == 0  # a full pile, and the learner (seat 0) acts first
    done, reward = False, 0.0
    while not done:
        obs, reward, done, _, info = e.step(int(np.flatnonzero(info["action_mask"])[-1]))
    assert reward in (-1.0, 1.0) and [s["total"] for s in info["scores"]].count(1) == 1


def test_vector_env_and_sb3_vecenv():
    venv = VectorEnv(16, num_players=3, game="last_token", seed=0)
    obs, mask, player, _ = venv.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(60):
        obs, mask, player, rewards, terminated, _, infos = venv.step(toy_game.sample_actions(mask, rng))
        if terminated.any():
            assert np.allclose(rewards[terminated].sum(axis=1), 0.0)
            assert (infos["final_scores"][terminated].sum(axis=(1, 2)) == 1).all()  # one winner
            ended += int(terminated.sum())
    assert ended >= 16
    pytest.importorskip("stable_baselines3")
    from spacemission_env.sb3 import GameVecEnv

    sb3 = GameVecEnv(4, num_players=2, game="last_token", seed=0)
    sb3.reset()
    _, rew, done, infos = sb3.step(sb3.action_masks().argmax(axis=1))
    assert sb3.action_masks().shape == (4, 3) and rew.shape == (4,)


def test_the_arena_rates_agents_of_the_third_game():
    from spacemission_agents.arena import run_arena

    result = run_arena([RandomPolicy(seed=0), RandomPolicy(by_kind=False, seed=1)], num_players=2, games=20,
                       game="last_token", progress=False)
    assert result.config["game"] == "last_token" and result.num_games == 20
    assert abs(sum(a.mean_rank for a in result.agents) / 2 - 1.5) < 1e-9


def test_gymnasium_make_and_the_random_agent_of_a_game_without_bots():
    import gymnasium

    from spacemission_agents.registry import available_agents, make_agent
    from spacemission_env import register_envs

    register_envs()
    e = gymnasium.make("LastToken-v0", num_players=2)
    _, info = e.reset(seed=1)
    assert info["action_mask"].shape == (3,)
    assert available_agents("last_token") == ["random", "ppo"]  # the game-neutral ones: no AGENTS_BY_GAME entry
    assert make_agent("random", seed=0, game="last_token").act(np.zeros(2, np.int8), np.array([0, 1, 0], bool)) == 1


def _six_players(monkeypatch):
    """The toy game for up to six players (more than Space Mission's and Red Planet's five)."""
    six = dataclasses.replace(toy_game.GAME, description=dataclasses.replace(toy_game.DESCRIPTION, max_players=6))
    monkeypatch.setitem(games._LOADED, "last_token", six)


def _hide_takes(monkeypatch):
    """The toy game with every take hidden from the other seats (as Red Planet's commits are)."""
    hidden = dataclasses.replace(toy_game.GAME, hidden_label=lambda action, state=None: "takes (hidden)")
    monkeypatch.setitem(games._LOADED, "last_token", hidden)


def test_play_and_replay_show_the_other_seats_hidden_moves_as_hidden(tmp_path, monkeypatch, capsys):
    pytest.importorskip("rich")
    from spacemission_cli import play, replay

    _hide_takes(monkeypatch)
    record = tmp_path / "games.jsonl"
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 20))  # always take one token
    assert play.main(["--game", "last_token", "--players", "3", "--seed", "2", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    assert "seat 1 (random): takes (hidden)" in out and "you: take 1" in out  # random: no heuristic bot here
    rec = json.loads(record.read_text())
    assert rec["config"]["game"] == "last_token" and rec["agents"] == ["human", "random", "random"]
    assert replay.main([str(record), "--seat", "0"]) == 0
    out = capsys.readouterr().out
    assert "seat 1 (random): takes (hidden)" in out and "seat 0 (human): take 1" in out
    assert "The rebuilt game matches the record" in out


def test_the_arena_cli_records_games_that_replay(tmp_path, capsys):
    from spacemission_cli import arena, replay

    assert arena.main(["--game", "last_token", "--agents", "random,random", "--games", "4", "--out",
                       str(tmp_path), "--no-progress"]) == 0
    capsys.readouterr()
    assert replay.main([str(tmp_path / "games.jsonl")]) == 0
    assert "The rebuilt game matches the record" in capsys.readouterr().out


def test_the_web_page_offers_the_game_and_hides_the_other_seats_moves(monkeypatch):
    from tests.helpers.web import web_client

    _hide_takes(monkeypatch)
    client = web_client()  # game_opponents left to create_app: every game of GAMES
    assert "last_token" in client.get("/api/meta").json()["games"]
    r = client.post("/api/games", json={"game": "last_token", "players": 3, "seat": 2, "seed": 1})
    assert r.status_code == 201, r.text
    g, texts = r.json(), []
    while not g["over"]:
        texts += [e["text"] for e in g["log"] if e["seat"] != 2]
        g = client.post(f"/api/games/{g['id']}/move", json={"action": g["moves"][0]["action"]}).json()
    texts += [e["text"] for e in g["log"] if e["seat"] != 2]
    assert texts and set(texts) == {"takes (hidden)"} and g["final"]["winners"]


def test_a_tiny_training_run_and_its_model_in_the_arena(tmp_path):
    pytest.importorskip("sb3_contrib")
    from spacemission_agents.arena import run_arena
    from spacemission_agents.registry import make_agent
    from spacemission_training.config import for_game
    from spacemission_training.train_ppo import train

    cfg = for_game("last_token", num_envs=8, n_steps=16, batch_size=64, epochs=1, trunk="16", pi="8", vf="8",
                   steps=256, snapshot_every=128, checkpoint_every=256, eval_every=0, final_eval_games=0,
                   threads=1, progress="lines", tensorboard=False, run_dir=str(tmp_path / "run"))
    assert (cfg.rules, cfg.max_rounds, cfg.prior, cfg.bc_teacher) == ("standard", 15, "", "")  # from the Game
    train(cfg, argv=[])
    model = make_agent(f"ppo:{tmp_path / 'run' / 'final.npz'}", game="last_token")
    result = run_arena([model, RandomPolicy(seed=1)], num_players=2, games=4, game="last_token", progress=False)
    assert result.num_games == 4


def test_training_takes_the_games_player_range(tmp_path, monkeypatch):
    """TrainConfig checks the player count against the game's own range (before: also a fixed
    2..5, which refused a six-player game that GameConfig accepts)."""
    pytest.importorskip("sb3_contrib")
    from spacemission_training.config import for_game, parse_args
    from spacemission_training.train_ppo import train

    _six_players(monkeypatch)
    tiny = dict(num_envs=8, n_steps=16, batch_size=64, epochs=1, trunk="16", pi="8", vf="8", steps=128,
                snapshot_every=128, checkpoint_every=128, eval_every=0, final_eval_games=2, threads=1,
                progress="lines", tensorboard=False)
    cfg = for_game("last_token", players=6, run_dir=str(tmp_path / "run"), **tiny)
    with pytest.raises(ValueError, match=r"num_players must be an integer in 2\.\.6 for Last Token, got 7"):
        for_game("last_token", players=7, **tiny)
    assert parse_args(["--game", "last_token", "--players", "6", "--run-dir", str(tmp_path / "other")])[0].players == 6
    train(cfg, argv=[])
    assert (tmp_path / "run" / "final.npz").is_file()


def test_bench_times_the_games_own_agents_by_default(capsys):
    """``bench --game NAME`` without --agents times the game's registered agents that need no
    model file: random alone for a game without bots of its own (before: random, greedy,
    heuristic for every game but Space Mission, which refused such a game)."""
    from spacemission_agents.registry import model_free_agents
    from spacemission_cli.main import main

    assert model_free_agents("last_token") == ["random"]
    assert model_free_agents("red_planet") == ["random", "greedy", "heuristic"]  # its default, as before
    assert main(["bench", "--game", "last_token", "--only", "agents", "--agent-batch", "8", "--seconds", "0.05",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [a["spec"] for a in out["agents"]] == ["random"] and out["players"] == 2


@pytest.mark.parametrize("backend", ["sb3", "rllib"])
def test_train_help_names_every_registered_games_players_and_rules(backend):
    """``train --help`` (both trainers) lists each registered game with its player range and
    rule sets, read from GAMES (before: fixed text naming Space Mission and Red Planet only)."""
    pytest.importorskip("torch")  # the trainers' parsers live in spacemission_training, which needs it
    if backend == "sb3":
        from spacemission_training.config import build_parser
    else:
        from spacemission_training.rllib_config import build_parser

    text = " ".join(build_parser().format_help().split())
    assert "the game, one of last_token, red_planet, spacemission (it changes" in text
    assert "the game's own range (Space Mission 2-5, Mission: Red Planet 3-5, Last Token 2-4)" in text
    assert "rule set, the game's own (Space Mission: yucata, schmidt; Mission: Red Planet: first_edition; Last Token: " \
           "standard)" in text


def test_demo_plays_the_game_and_its_help_names_it(capsys):
    """``demo --help`` lists each registered game's players and rule sets (before: fixed text
    naming Space Mission and Red Planet only), and ``demo --game NAME`` plays the game."""
    from spacemission_cli.main import main

    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "the game's own range: Space Mission 2-5, Mission: Red Planet 3-5, Last Token 2-4" in text
    assert "Mission: Red Planet: first_edition; Last Token: standard" in text
    assert main(["demo", "--game", "last_token", "--seed", "1"]) == 0
    assert "Last Token" in capsys.readouterr().out


def test_a_game_words_the_seats_its_labels_name(monkeypatch):
    """Terminal play, replay and the web page show labels through SeatWords.said. It rewrote
    any "player N" in a label by a regex of its own (Red Planet's wording), so a game whose
    labels say "player 2" of something else had them renamed, and a game naming seats another
    way was missed. Now the game's render module words them (``label_in_colours``), and a
    game without that hook keeps its labels as written."""
    import types

    from spacemission_cli._protocol_games import SeatWords

    def render_module(name: str, hook=None):
        module = types.ModuleType(name)
        module.PLAYER_NAMES = ("gold", "silver", "bronze")
        module.render_ansi_colours = module.render_ansi = lambda state, viewer=None: ""
        if hook is not None:
            module.label_in_colours = hook
        monkeypatch.setitem(sys.modules, name, module)
        return types.SimpleNamespace(render_module=name)

    plain = SeatWords(render_module("_toy_render_plain"))
    assert plain.colour(1) == "silver"
    assert plain.said("move player 2 forward") == "move player 2 forward"  # was "move bronze forward"
    own = SeatWords(render_module("_toy_render_own", lambda label: label.replace("seat#1", "silver")))
    assert own.said("block seat#1 on the bridge") == "block silver on the bridge"


def test_red_planet_words_its_targets_by_colour():
    """Red Planet's hook: the seat a label targets (rules/labels.py's seat_word) by its colour."""
    from spacemission_env.red_planet import actions as A
    from spacemission_env.red_planet.render import PLAYER_NAMES, label_in_colours
    from spacemission_env.red_planet.rules.labels import action_label, seat_word

    for kind in ("kill", "seduce"):
        ids = [a for a in range(A.NUM_ACTIONS) if A.decode(a)[0] == kind]
        assert ids, kind
        for a in ids:
            label, target = action_label(None, a), A.decode(a)[1][1]
            assert seat_word(target) in label  # the Femme Fatale's (M-O5) and the Soldier's (M-O8) targets
            assert label_in_colours(label) == label.replace(seat_word(target), PLAYER_NAMES[target])
