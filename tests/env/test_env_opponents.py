"""The opponent protocol's optional hooks in the single-learner envs (Gymnasium and SB3):
``observation_type`` (each opponent gets the int8 observation of its own type) and
``bind(GameConfig)`` (called once per distinct policy at construction)."""
import dataclasses

import numpy as np
import pytest

import spacemission_env
from spacemission_env.space_mission import engine
from spacemission_env.games import GameConfig
from spacemission_env.space_mission.encoding import OBSERVATION_TYPES
from spacemission_env.gym_env import SpaceMissionEnv
from spacemission_env.policies import BasePolicy, RandomPolicy

sb3 = pytest.importorskip("stable_baselines3")
from spacemission_env.sb3 import SpaceMissionVecEnv  # noqa: E402


class Watcher(BasePolicy):
    """Plays the first legal action; checks every observation it receives against the
    engine's view of the acting seat, of its observation type, at that moment."""

    def __init__(self, observation_type=None):
        self.observation_type = observation_type
        self.env = None  # set after construction
        self.checked = 0
        self.bound = []

    def bind(self, config):
        self.bound.append(config)

    def _expected(self, kind):
        st = self.env.batch_state
        if isinstance(self.env, SpaceMissionEnv):
            return engine.observe(st, observation_type=kind)
        cp = st.current_player.astype(np.int64)
        need = (cp != self.env.seats) & ~st.terminated
        k = [id(p) for p in self.env._policies].index(id(self))  # the games where this policy acts
        mine = self.env._opp_table[(cp - self.env.seats - 1) % self.env.num_players] == k
        return engine.observe(st, observation_type=kind)[need & mine]

    def act_batch(self, observations, action_masks):
        kind = self.observation_type or self.env.observation_type
        assert observations.dtype == np.int8, "opponents always get int8"
        assert observations.shape[1] == engine.observation_size(kind)
        assert (observations == self._expected(kind)).all()
        self.checked += len(observations)
        return np.argmax(np.asarray(action_masks), axis=1)


def _make(kind, **kwargs):
    return SpaceMissionEnv(**kwargs) if kind == "gym" else SpaceMissionVecEnv(3, seed=0, **kwargs)


def _play(env, steps=40):
    if isinstance(env, SpaceMissionEnv):
        _, info = env.reset(seed=0)
        for _ in range(steps):
            _, _, term, _, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
            if term:
                _, info = env.reset()
    else:
        env.reset()
        for _ in range(steps):
            env.step(np.argmax(env.action_masks(), axis=1))


@pytest.mark.parametrize("kind", ["gym", "sb3"])
@pytest.mark.parametrize("opponent_type", [None, *OBSERVATION_TYPES])
def test_each_opponent_gets_its_observation_type(kind, opponent_type):
    env_type = OBSERVATION_TYPES[0]
    w = Watcher(opponent_type)
    env = _make(kind, num_players=2, opponents=w, observation_type=env_type, observation_dtype="float32",
                max_rounds=6)
    w.env = env
    _play(env)
    assert w.checked > 0
    assert env.opponent_observation_types == [opponent_type or env_type]


@pytest.mark.parametrize("kind", ["gym", "sb3"])
def test_mixed_observation_types_in_one_game(kind):
    kinds = list(OBSERVATION_TYPES)
    a, b = Watcher(kinds[-1]), Watcher(None)
    env = _make(kind, num_players=3, opponents=[a, b], seat=0, max_rounds=6)
    a.env = b.env = env
    _play(env)
    assert a.checked > 0 and b.checked > 0


@pytest.mark.parametrize("kind", ["gym", "sb3"])
def test_bad_observation_type_is_rejected_at_construction(kind):
    w = Watcher("x-ray")
    with pytest.raises(ValueError, match=r"opponent .*Watcher.* asks for observation_type 'x-ray'"):
        _make(kind, num_players=2, opponents=w)


@pytest.mark.parametrize("kind", ["gym", "sb3"])
def test_bind_is_called_once_per_distinct_policy_with_the_game(kind):
    shared, other = Watcher(), Watcher()
    _make(kind, num_players=4, rules="schmidt", max_rounds=30, opponents=[shared, other, shared])
    assert shared.bound == [GameConfig(4, "schmidt", 30)] and other.bound == [GameConfig(4, "schmidt", 30)]


@pytest.mark.parametrize("kind", ["gym", "sb3"])
def test_bind_can_refuse_the_game_and_its_error_propagates(kind):
    class TwoPlayerModel(BasePolicy):
        def bind(self, config):
            if config.num_players != 2:
                raise ValueError(f"this model was trained for 2 players, not {config.num_players}")

        def act(self, observation, action_mask):
            return int(np.flatnonzero(action_mask)[0])

    _make(kind, num_players=2, opponents=TwoPlayerModel())
    with pytest.raises(ValueError, match="trained for 2 players, not 3"):
        _make(kind, num_players=3, opponents=TwoPlayerModel())


@pytest.mark.parametrize("kind", ["gym", "sb3"])
def test_bind_may_choose_the_observation_type(kind):
    class Teacher(Watcher):
        def bind(self, config):
            self.observation_type = OBSERVATION_TYPES[-1]

    t = Teacher()
    env = _make(kind, num_players=2, opponents=t, max_rounds=4)
    t.env = env
    assert env.opponent_observation_types == [OBSERVATION_TYPES[-1]]
    _play(env, steps=10)
    assert t.checked > 0


def test_game_config():
    c = GameConfig(3, "schmidt", 50)
    assert spacemission_env.GameConfig is GameConfig
    assert (c.num_players, c.rules, c.max_rounds) == (3, "schmidt", 50)
    assert GameConfig() == GameConfig(2, "yucata", 100)
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.num_players = 4
    for bad in ({"num_players": 6}, {"rules": "x"}, {"max_rounds": 0}):
        with pytest.raises(ValueError):
            GameConfig(**bad)
    assert SpaceMissionEnv(num_players=3).config == GameConfig(3)
    assert SpaceMissionVecEnv(1, num_players=3, rules="schmidt").config == GameConfig(3, "schmidt")


class MaskOnly(BasePolicy):
    """Declares that it reads only the mask; records what it receives."""

    uses_observation = False

    def __init__(self):
        self.shapes = set()

    def act_batch(self, observations, action_masks):
        self.shapes.add(np.asarray(observations).shape[1:])
        return np.argmax(np.asarray(action_masks), axis=1)


@pytest.mark.parametrize("kind", ["gym", "sb3"])
def test_opponents_that_read_only_the_mask_get_an_empty_observation(kind):
    """Both single-learner envs skip the observation of a uses_observation=False opponent,
    and the games are the same as with an opponent that gets it (the same first-legal play)."""
    blind, sighted = MaskOnly(), Watcher()
    traces = []
    for policy in (blind, sighted):
        env = _make(kind, num_players=3, opponents=policy)
        policy.env = env
        _play(env, steps=30)
        traces.append(engine.observe(env.batch_state, observation_type="seer").copy())
    assert blind.shapes == {(0,)} and sighted.checked > 0
    assert (traces[0] == traces[1]).all()


class FailsAtCall(BasePolicy):
    """Plays the first legal action; raises at its ``fail_at``-th call."""

    def __init__(self, fail_at):
        self.fail_at, self.calls = fail_at, 0

    def act_batch(self, observations, masks):
        self.calls += 1
        if self.calls == self.fail_at:
            raise LookupError("opponent bug")
        return np.argmax(masks, axis=1)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("kind", ["gym", "sb3"])
def test_an_opponent_that_raises_stops_the_env_until_reset(kind, game):
    """The exception keeps its type and names the opponent; the game it left waiting on
    that opponent takes no learner action (one was played as the opponent's move) until
    reset(), which starts a playable game."""
    players = 3
    bad = FailsAtCall(fail_at=4)
    kwargs = dict(num_players=players, opponents=[bad, FailsAtCall(0)], game=game)
    env = SpaceMissionEnv(seat=0, **kwargs) if kind == "gym" else SpaceMissionVecEnv(2, seat=0, seed=0, **kwargs)
    if kind == "gym":
        env.reset(seed=0)
        step = lambda: env.step(int(np.argmax(env.action_masks())))  # noqa: E731
    else:
        env.reset()
        step = lambda: env.step(np.argmax(env.action_masks(), axis=1))  # noqa: E731
    with pytest.raises(LookupError, match="opponent bug") as exc:
        for _ in range(20):
            step()
    assert any("FailsAtCall" in n and "reset()" in n for n in getattr(exc.value, "__notes__", ["FailsAtCall reset()"]))
    waiting = env.batch_state.current_player.copy()
    assert (waiting != 0).any()  # a game waits on the opponent that failed
    with pytest.raises(ValueError, match="reset"):
        step()
    assert np.array_equal(env.batch_state.current_player, waiting)
    env.reset(**({"seed": 1} if kind == "gym" else {}))
    step()


class ReturnsIllegal(BasePolicy):
    def act_batch(self, observations, masks):
        return np.argmin(masks, axis=1)  # a 0 in every mask: an illegal id


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("make", [lambda: FailsAtCall(fail_at=1), ReturnsIllegal], ids=["raises", "illegal"])
def test_a_stopped_gym_episode_hands_out_the_no_decision_mask(game, make):
    """Before: once an opponent raised or returned an illegal action, the Gymnasium env's
    ``action_masks()`` gave that opponent's legal actions (its buffer held them), a mask of
    another seat in an episode that takes no learner action; now all True, as at any end."""
    env = SpaceMissionEnv(num_players=3, seat=2, opponents=make(), game=game)
    with pytest.raises((LookupError, ValueError)):  # the first opponent move stops the episode
        env.reset(seed=0)
        for _ in range(20):
            env.step(int(np.argmax(env.action_masks())))
    assert env.action_masks().all()
    with pytest.raises(ValueError, match="reset"):
        env.step(0)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("when", ["reset", "step"])
def test_sb3_masks_are_refused_while_an_opponent_failure_waits_for_reset(game, when):
    """Before: once an opponent raised (in reset() or in a step), ``action_masks()`` still
    gave the learners' masks of the games before that call, while the games waited on the
    opponent (a failed reset() even gave the masks of the games it replaced). Now it raises
    as step does, and reset() brings them back."""
    bad = FailsAtCall(fail_at=1 if when == "reset" else 3)
    env = SpaceMissionVecEnv(2, num_players=3, seat=2, seed=0, opponents=bad, game=game)
    with pytest.raises(LookupError, match="opponent bug"):
        env.reset()
        for _ in range(20):
            env.step(np.argmax(env.action_masks(), axis=1))
    with pytest.raises(ValueError, match=r"an opponent failed .*call reset\(\) before action_masks\(\)"):
        env.action_masks()
    with pytest.raises(ValueError, match=r"an opponent failed .*call reset\(\) before action_masks\(\)"):
        env.env_method("action_masks")
    env.reset()
    assert env.action_masks().any(axis=1).all()


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("failure", ["bad index", "raises"])
@pytest.mark.parametrize("when", ["reset", "auto-reset"])
def test_sb3_a_failed_opponent_sampler_stops_the_env_until_reset(game, failure, when):
    """Before: when opponent_sampler raised or returned a bad assignment, in reset() or when
    games ended inside a step, the new games were left with no opponent moves played, yet
    action_masks() gave the old masks and the next step played the learner's action in the
    seat of whichever opponent was to act. Now the env refuses both, naming the sampler,
    until reset(), which brings it back."""
    calls = []

    def sampler(rng, n):
        calls.append(n)
        if len(calls) == (2 if when == "reset" else 3):
            if failure == "raises":
                raise LookupError("sampler bug")
            return np.full((n, 2), 5)
        return np.zeros((n, 2), dtype=np.int64)

    env = SpaceMissionVecEnv(2, num_players=3, seat=1, seed=0, opponents=[RandomPolicy(seed=1)],
                             opponent_sampler=sampler, game=game, max_rounds=1 if game == "spacemission" else None)
    env.reset()
    exc = LookupError if failure == "raises" else ValueError
    with pytest.raises(exc, match="sampler bug|holds pool index 5"):
        if when == "reset":
            env.reset()
        else:
            for _ in range(2000):
                env.step(np.argmax(env.action_masks(), axis=1))
    state = {name: getattr(env.batch_state, name).copy() for name in ("current_player", "terminated")}
    for call in (env.action_masks, lambda: env.step(np.zeros(2, dtype=np.int64))):
        with pytest.raises(ValueError, match=r"^the opponent sampler failed in the last step or reset \(see that "
                                             r"error\): call reset\(\)"):
            call()
    assert all((getattr(env.batch_state, name) == v).all() for name, v in state.items())
    env.reset()
    assert env.action_masks().any(axis=1).all() and (env.batch_state.current_player == 1).all()


@pytest.mark.parametrize("kind", ["gym", "sb3"])
@pytest.mark.parametrize("opponent, needle", [(FailsAtCall, "FailsAtCall is a class, not a policy object"),
                                              ("random", "is a string: opponents are policy objects")])
def test_a_class_or_a_spec_string_as_opponent_is_named(kind, opponent, needle):
    with pytest.raises(ValueError, match=needle):
        _make(kind, num_players=2, opponents=opponent)
    if kind == "sb3":  # an opponent pool checks each policy the same way
        with pytest.raises(ValueError, match=needle):
            SpaceMissionVecEnv(2, num_players=2, opponents=[opponent], opponent_sampler=lambda rng, n: 0)


class LongRepr(BasePolicy):
    """An opponent whose repr is 5000 characters, that answers 5000 characters."""

    def __init__(self, answer):
        self.answer = answer

    def __repr__(self) -> str:
        return "LongRepr(" + "r" * 5000 + ")"

    def act_batch(self, observations, masks):
        return self.answer(masks)


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
@pytest.mark.parametrize("kind", ["gym", "sb3"])
@pytest.mark.parametrize("answer", [lambda m: "x" * 5000, lambda m: np.argmin(m, axis=1)], ids=["str", "illegal"])
def test_an_opponents_answer_and_repr_are_named_cut(kind, game, answer):
    """Before: the Gym env named the opponent by its whole repr (5000 characters) and act's
    check of a batch of one echoed a 5000-character answer whole; now both are cut (checks.shown)."""
    env = _make(kind, num_players=3, opponents=[LongRepr(answer), RandomPolicy(seed=0)], seat=2, game=game)
    with pytest.raises((TypeError, ValueError)) as info:
        _play(env, steps=5)
    message = str(info.value)
    assert len(message) < 600 and "r" * 100 not in message and "x" * 100 not in message, message[:600]
