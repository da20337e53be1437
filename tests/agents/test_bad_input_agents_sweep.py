"""Bad input on the agents side, found by the second robustness sweep: each test failed
before its fix. Masks of another width, configs the Space Mission bots cannot play,
PPO observations that are not a batch, constructors and bind hooks that fail in
unexpected ways, arena arguments checked only once games were played, and actions
beyond int64 that the arena reported as another number."""
from types import SimpleNamespace

import numpy as np
import pytest

from spacemission_agents.arena import ArenaArgumentError, run_arena
from spacemission_agents.greedy import GreedyAgent
from spacemission_agents.heuristic import HeuristicAgent
from spacemission_agents.ppo import PPOAgent
from spacemission_agents.random_agents import KindRandomAgent
from spacemission_agents.registry import make_agent
from spacemission_agents.search import SearchAgent
from spacemission_env.games import GameConfig, get_game
from spacemission_env.space_mission import engine


@pytest.fixture(scope="module")
def recall():
    """(recall observations [2, D], masks [2, 100]) of two fresh 2-player games."""
    st = engine.init(2, 2, seeds=0)
    return engine.observe(st, observation_type="recall"), engine.legal_action_mask(st)


# --- masks of another width -------------------------------------------------------------
@pytest.mark.parametrize("make", [GreedyAgent, HeuristicAgent, lambda: SearchAgent(iterations=2, prior=None)],
                         ids=["greedy", "heuristic", "search"])
@pytest.mark.parametrize("width", [1, 99, 243])
def test_space_mission_bots_refuse_masks_of_another_width(make, width, recall):
    """Before: greedy/heuristic read past a narrow mask (actions outside it, or -1 when
    only id 150 of a Red Planet-wide mask was legal); search returned that id 150."""
    obs, mask = recall
    m = np.zeros((2, width), dtype=bool)
    m[:, min(width - 1, 150)] = True
    bot = make()
    with pytest.raises(ValueError, match=r"action masks must have shape \[N, 100\], got \(2, " + str(width)):
        bot.act_batch(obs, m)
    with pytest.raises(ValueError, match="100"):
        bot.act(obs[0], m[0])
    assert bot.act_batch(obs, mask).shape == (2,)  # the right width still plays


# --- bind -------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", [GreedyAgent, HeuristicAgent])
def test_space_mission_bots_bind_refuses_player_counts_and_non_configs(cls):
    """Before: bind kept any object, 7 or 1 players, and a mapping naming red_planet."""
    bot = cls()
    good = GameConfig(3)
    bot.bind(good)
    for n in (1, 6, 7, 2.5, True, "3"):
        for config in (SimpleNamespace(num_players=n, rules="yucata", max_rounds=100), {"num_players": n}):
            # a count of the wrong type: a TypeError too (games.GameConfigTypeError), as GameConfig's
            words = r"plays 2 to 5 players, got num_players=" if type(n) is int else \
                rf"^{cls.name}: num_players must be an integer in 2\.\.5 for Space Mission, got "
            with pytest.raises(TypeError if type(n) is not int else ValueError, match=words):
                bot.bind(config)
            assert bot.config is good
    with pytest.raises(ValueError, match=r"plays Space Mission \('spacemission'\), not Mission: Red Planet \('red_planet'\)"):
        bot.bind({"num_players": 3, "game": "red_planet"})
    assert bot.config is good
    for config in (None, 3, "red_planet", {"players": 3}):
        with pytest.raises(TypeError, match=r"bind needs a game configuration \(a GameConfig"):
            bot.bind(config)
        assert bot.config is good
    bot.bind({"num_players": 4, "rules": "yucata", "max_rounds": 100})  # a mapping is a config too
    assert bot.config["num_players"] == 4


# --- PPO observations -----------------------------------------------------------------
def test_ppo_names_observations_that_are_not_a_batch(recall):
    """Before: None gave TypeError "object of type 'NoneType' has no len()", and one
    vector [D] was blamed on the masks ("action masks must have shape [1491, 100]")."""
    obs, mask = recall
    agent = PPOAgent.load_shipped(2)
    d = obs.shape[1]
    with pytest.raises(ValueError, match=rf"observations must have shape \[N, {d}\] \('recall'\), got \[\]"):
        agent.act_batch(None, mask)
    with pytest.raises(ValueError, match=rf"observations must have shape \[N, {d}\] \('recall'\), got \[\]"):
        agent.act(None, mask[0])
    with pytest.raises(ValueError, match=rf"observations must have shape \[N, {d}\] \('recall'\), got \[{d}\]"):
        agent.act_batch(obs[0], mask)
    assert agent.act_batch(obs, mask).shape == (2,)


# --- registry -------------------------------------------------------------------------
class Exploding:
    """A factory that fails with neither ValueError nor TypeError."""

    def __init__(self, seed=None):
        raise RuntimeError("no GPU here")


@pytest.mark.parametrize("spec, match", [
    (f"{__name__}:Exploding", r"agent spec '.*:Exploding': RuntimeError: no GPU here"),
    ("asyncio:get_running_loop", r"agent spec 'asyncio:get_running_loop': RuntimeError: no running event loop"),
])
def test_make_agent_names_the_spec_whatever_the_constructor_raises(spec, match):
    """Before: the RuntimeError escaped make_agent unwrapped (and the arena's agents check)."""
    with pytest.raises(ValueError, match=match):
        make_agent(spec, seed=1)
    with pytest.raises(ArenaArgumentError, match=match) as info:
        run_arena(["random", spec], games=2, progress=False)
    assert info.value.argument == "agents"


# --- arena arguments ------------------------------------------------------------------
class Counting(KindRandomAgent):
    """Counts its decisions: an error found before any game leaves it at 0."""

    calls = 0

    def act_batch(self, observations, action_masks):
        Counting.calls += len(action_masks)
        return super().act_batch(observations, action_masks)


class BindBoom(KindRandomAgent):
    name = "bindboom"

    def bind(self, config):
        raise RuntimeError("weights missing")


def _arena(**kwargs):
    args = dict(agents=[Counting(), "random"], games=2, max_rounds=3, progress=False)
    args.update(kwargs)
    Counting.calls = 0
    with pytest.raises(ArenaArgumentError) as info:
        run_arena(**args)
    assert Counting.calls == 0
    return info.value


def test_arena_out_that_cannot_be_a_directory(tmp_path, monkeypatch):
    """Before: out="" wrote every result file into the working directory; an out under a
    file raised NotADirectoryError after the agents were built."""
    monkeypatch.chdir(tmp_path)
    err = _arena(out="")
    assert err.argument == "out" and "empty" in str(err)
    assert list(tmp_path.iterdir()) == []
    f = tmp_path / "notes.txt"
    f.write_text("keep me")
    err = _arena(out=f / "sub" / "deeper")
    assert err.argument == "out" and f"{str(f)!r} is a file" in str(err)
    assert f.read_text() == "keep me" and list(tmp_path.iterdir()) == [f]


@pytest.mark.parametrize("kwargs, argument, match", [
    (dict(log=3), "log", "log must be None or a function"),
    (dict(log="stderr"), "log", "log must be None or a function"),
    (dict(record="no"), "record", "record must be True or False, got 'no'"),
    (dict(progress="no"), "progress", "progress must be True or False, got 'no'"),
])
def test_arena_checks_log_record_and_progress_before_any_game(kwargs, argument, match, tmp_path):
    """Before: log=3 failed with "'int' object is not callable" at the first forfeit, after
    games were played; record="no" recorded and progress="no" showed a bar."""
    err = _arena(out=tmp_path / "out", **kwargs)
    assert err.argument == argument and match in str(err)
    assert not (tmp_path / "out").exists()


def test_arena_reports_any_bind_failure_as_an_agents_error(tmp_path):
    """Before: a bind raising RuntimeError escaped run_arena as a bare RuntimeError."""
    err = _arena(agents=[Counting(), BindBoom()], out=tmp_path / "out")
    assert err.argument == "agents"
    assert "agent 'bindboom' failed to bind" in str(err) and "RuntimeError: weights missing" in str(err)
    assert not (tmp_path / "out").exists()


# --- actions beyond int64 -----------------------------------------------------------------
class Huge(KindRandomAgent):
    name = "huge"

    def __init__(self, value, seed=None):
        super().__init__(seed)
        self.value = value

    def act_batch(self, observations, action_masks):
        return np.full(len(action_masks), self.value)


@pytest.mark.parametrize("value, shown", [(np.uint64(2**64 - 1), "18446744073709551615"), (1e30, "1e+30"),
                                          (-1e30, "-1e+30")])
def test_arena_names_actions_beyond_int64_as_returned(value, shown):
    """Before: the cast to int64 wrapped, so the forfeit named action -1 (for 2**64 - 1)
    or -9223372036854775808 (for 1e30, with a RuntimeWarning)."""
    messages = []
    with np.errstate(invalid="raise"):
        result = run_arena([Huge(value), "random"], games=2, max_rounds=3, progress=False, log=messages.append)
    assert len(result.forfeits) == 2 == len(messages)
    for f in result.forfeits:
        assert f["agent"] == "huge" and f["action"] is None
        assert f"act_batch returned action {shown}, far outside the action ids" in f["message"]


# --- mask values other than 0 and 1 -------------------------------------------------------
def _game_rows(game: str, players: int, otype: str):
    from spacemission_env.games import get_game

    eng = get_game(game).engine
    st = eng.init(3, players, seeds=1)
    return eng.observe(st, observation_type=otype), eng.legal_action_mask(st)


@pytest.mark.parametrize("game, players, spec", [
    ("spacemission", 2, "random"), ("spacemission", 2, "kind-random"), ("spacemission", 2, "greedy"),
    ("spacemission", 2, "heuristic"), ("spacemission", 2, "ppo"), ("spacemission", 2, "search:iterations=2"),
    ("spacemission", 2, "netsearch:iterations=2"), ("red_planet", 4, "random"), ("red_planet", 4, "greedy"),
    ("red_planet", 4, "heuristic"), ("red_planet", 4, "ppo"),
])
@pytest.mark.parametrize("value", [np.nan, 2.0, -1.0, 0.5])
def test_every_bot_refuses_mask_values_other_than_0_and_1(game, players, spec, value):
    """Before: a NaN, 2, -1 or 0.5 in a mask counted as legal (bots played ids that were
    not); now the mask check (policies.check_masks) names the value, row and action. 0/1
    numbers of any dtype and bools still play."""
    bot = make_agent(spec, seed=0, game=game)
    bot.bind(GameConfig(players, game=game))
    otype = getattr(bot, "observation_type", None) or "info"
    obs, mask = _game_rows(game, players, otype)
    legal = bot.act_batch(obs, mask.astype(np.float32))
    assert mask[np.arange(3), legal].all()
    bad = mask.astype(np.float32)
    col = int(np.flatnonzero(~mask[1])[0])
    bad[1, col] = value
    with pytest.raises(ValueError, match=rf"only 0 and 1 \(or bool\), got {value!r} at row 1, action {col}"):
        bot.act_batch(obs, bad)


@pytest.mark.parametrize("game, spec", [("spacemission", "ppo"), ("spacemission", "search"),
                                        ("spacemission", "netsearch"), ("spacemission", "heuristic"),
                                        ("red_planet", "ppo")])
@pytest.mark.parametrize("config", [None, 3, "spacemission"])
def test_bind_names_what_is_not_a_configuration(game, spec, config):
    """Before: search, netsearch and PPO raised AttributeError from deep inside bind;
    require_game (what every game-specific bind calls first) now names the agent."""
    bot = make_agent(spec, game=game)
    with pytest.raises(TypeError, match=r"bind needs a game configuration \(a GameConfig"):
        bot.bind(config)


@pytest.mark.parametrize("game, spec, n", [("red_planet", "heuristic", 4), ("red_planet", "random", 4),
                                           ("spacemission", "greedy", 2), ("spacemission", "random", 2)])
def test_bind_refuses_rules_and_round_limits_the_game_does_not_have(game, spec, n):
    """Before: the bots (and RandomPolicy) kept rules="bogus" or a Red Planet game of 7
    rounds; now the rest of a configuration, where given, is checked as GameConfig does."""
    bot = make_agent(spec, game=game)
    good = GameConfig(n, game=game)
    bot.bind(good)
    for config, message in ((SimpleNamespace(num_players=n, rules="bogus", game=game), "unknown rules 'bogus'"),
                            (SimpleNamespace(num_players=n, max_rounds=0, game=game), "max_rounds must be")):
        with pytest.raises(ValueError, match=message):
            bot.bind(config)
        assert getattr(bot, "config", good) is good  # the bots keep the last good one (RandomPolicy keeps none)
    if game == "red_planet":  # a fixed length: ten rounds and no other (M-X1)
        with pytest.raises(ValueError, match="max_rounds must be 10"):
            bot.bind({"num_players": n, "max_rounds": 7})


@pytest.mark.parametrize("game, n, other, other_game", [("spacemission", 3, "greedy", "red_planet"),
                                                        ("red_planet", 4, "heuristic", "spacemission")])
def test_ppo_bind_takes_what_the_games_other_bots_take(game, n, other, other_game):
    """PPOAgent.bind goes through games.bind_players's checks (bind_config), as the game's
    other bots' do: the same configurations bind and the same ones are refused, with the same
    error and message after the bot's name. Before: it took only an object with every
    GameConfig field (require_game, then config.rules): a mapping was "bind needs a game
    configuration", an object with num_players alone an AttributeError ('rules'), and such an
    object was taken for Space Mission's by the Red Planet model."""
    ppo, bot = make_agent("ppo", game=game), make_agent(other, game=game)
    d = get_game(game).description
    for config in ({"num_players": n}, {"num_players": n, "game": game, "rules": get_game(game).rule_sets[0],
                                        "max_rounds": get_game(game).default_max_rounds},
                   SimpleNamespace(num_players=n), SimpleNamespace(num_players=n, game=game)):
        ppo.bind(config)
        bot.bind(config)
        assert ppo.metadata["num_players"] == n and ppo.game == game
    for config in ({"num_players": d.max_players + 1}, {"num_players": n, "game": other_game}, {"players": n},
                   {"num_players": n, "rules": "bogus"}, {"num_players": str(n)}, {"num_players": n, "game": [game]},
                   SimpleNamespace(num_players=n, game=other_game), None):
        errors = []
        for b, who in ((ppo, "PPO model 'ppo'"), (bot, bot.name if game == "spacemission" else type(bot).__name__)):
            with pytest.raises((TypeError, ValueError)) as info:
                b.bind(config)
            errors.append((type(info.value), str(info.value).replace(who, "WHO")))
        assert errors[0] == errors[1], config
        assert ppo.metadata["num_players"] == n  # a refused configuration leaves the model as it was


@pytest.mark.parametrize("spec", ["search:iterations=1", "netsearch:iterations=1"])
def test_the_search_bots_bind_what_the_games_other_bots_take(spec):
    """SearchAgent and NetSearchAgent bind through games.bind_config, as greedy and the PPO
    models do: the same configurations bind (a mapping, num_players alone) and the same ones
    are refused with the same error after the bot's name. Before: require_game, then
    config.rules: a mapping was "bind needs a game configuration", an object with
    num_players alone an AttributeError ('rules')."""
    search, greedy = make_agent(spec), make_agent("greedy")
    who = type(search).__name__
    for config in ({"num_players": 2}, {"num_players": 2, "game": "spacemission", "rules": "yucata", "max_rounds": 100},
                   SimpleNamespace(num_players=2), SimpleNamespace(num_players=2, game="spacemission")):
        search.bind(config)
        greedy.bind(config)
        assert search.config == (2, "yucata", 100)
    for config in ({"num_players": 6}, {"num_players": 2, "game": "red_planet"}, {"players": 2},
                   {"num_players": 2, "rules": "bogus"}, {"num_players": "2"}, {"num_players": 2, "game": ["spacemission"]},
                   SimpleNamespace(num_players=2, game="red_planet"), None):
        errors = []
        for b, name in ((search, who), (greedy, greedy.name)):
            with pytest.raises((TypeError, ValueError)) as info:
                b.bind(config)
            errors.append((type(info.value), str(info.value).replace(name, "WHO")))
        assert errors[0] == errors[1], config
        assert search.config == (2, "yucata", 100)  # a refused configuration leaves the bot as it was
