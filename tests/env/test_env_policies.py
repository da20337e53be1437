"""policies.py: the Policy protocol, RandomPolicy (legal, uniform, seeded), opponent lists."""
import re
import numpy as np
import pytest

from spacemission_env.policies import BasePolicy, Policy, RandomPolicy, resolve_opponents, seed_policies


def _masks(n, rng):
    m = rng.random((n, 100)) < 0.1
    m[np.arange(n), rng.integers(0, 100, n)] = True
    return m


def test_random_policy_plays_legal_actions_uniformly():
    rng = np.random.default_rng(0)
    masks = _masks(500, rng)
    p = RandomPolicy(seed=1)
    for dtype in (np.bool_, np.int8):
        a = p.act_batch(np.zeros((500, 3), np.int8), masks.astype(dtype))
        assert a.shape == (500,) and masks[np.arange(500), a].all()
    row = np.zeros(100, dtype=np.int8)
    row[[4, 40, 90]] = 1
    counts = np.bincount([p.act(None, row) for _ in range(3000)], minlength=100)[[4, 40, 90]]
    assert counts.min() > 850  # ~1000 each
    batch_counts = np.bincount(p.act_batch(None, np.tile(row, (3000, 1))), minlength=100)[[4, 40, 90]]
    assert batch_counts.min() > 850


def test_random_policy_seeding_and_errors():
    masks = _masks(50, np.random.default_rng(1))
    assert (RandomPolicy(seed=3).act_batch(None, masks) == RandomPolicy(seed=3).act_batch(None, masks)).all()
    p = RandomPolicy(seed=3)
    first = p.act_batch(None, masks)
    p.seed(3)
    assert (p.act_batch(None, masks) == first).all()
    with pytest.raises(ValueError):
        RandomPolicy(seed=-1)
    with pytest.raises(ValueError, match="no legal"):
        p.act(None, np.zeros(100, np.int8))
    with pytest.raises(ValueError, match="row 1"):
        p.act_batch(None, np.vstack([masks[0], np.zeros(100, bool)]))
    with pytest.raises(ValueError):
        p.act_batch(None, np.ones((3, 99), bool))
    kind = RandomPolicy(seed=3, by_kind=True)
    chosen = kind.act_batch(None, masks)
    assert masks[np.arange(len(masks)), chosen].all()
    with pytest.raises(ValueError, match="row 1"):
        kind.act_batch(None, np.vstack([masks[0], np.zeros(100, bool)]))


def test_protocol_and_base_policy():
    class First(BasePolicy):
        def act(self, observation, action_mask):
            return int(np.flatnonzero(action_mask)[0])

    class Last(BasePolicy):
        def act_batch(self, observations, action_masks):
            return np.array([np.flatnonzero(m)[-1] for m in action_masks])

    m = np.zeros((2, 100), bool)
    m[:, [5, 7]] = True
    assert isinstance(RandomPolicy(), Policy) and isinstance(First(), Policy)
    assert First().act_batch(None, m).tolist() == [5, 5]
    assert Last().act(np.zeros(4), m[0]) == 7
    with pytest.raises(NotImplementedError):
        BasePolicy().act(None, m[0])
    assert Last().act(None, m[0]) == 7  # policies that ignore the observation may be given None
    with pytest.raises(ValueError, match=r"Last.act takes one observation \[D\] and one mask \[num_actions\]"):
        Last().act(np.zeros((1, 4)), m[0])
    with pytest.raises(ValueError, match="got shapes"):
        Last().act(np.zeros(4), m)


def test_resolve_and_seed_opponents():
    assert len(resolve_opponents(None, 4)) == 3
    p = RandomPolicy()
    assert resolve_opponents(p, 3) == [p, p]
    with pytest.raises(ValueError):
        resolve_opponents([p], 3)
    with pytest.raises(ValueError):
        resolve_opponents("random", 2)
    a, b = RandomPolicy(), RandomPolicy()
    m = np.ones((20, 100), bool)
    seed_policies([a, b, a], np.random.SeedSequence(5))
    x = (a.act_batch(None, m), b.act_batch(None, m))
    seed_policies([a, b, a], np.random.SeedSequence(5))
    y = (a.act_batch(None, m), b.act_batch(None, m))
    assert all((u == v).all() for u, v in zip(x, y))
    assert not (x[0] == x[1]).all(), "distinct policies get distinct seeds"


def test_one_random_policy_serves_every_game_bound_or_not():
    """Found by a new-user review: an unbound RandomPolicy drew with Space Mission's sampler,
    so the README's learner loop failed on RedPlanet-v2 (mask must have shape [B, 100]), and
    one policy shared by a Red Planet env and a Space Mission env failed in the first env once
    the second had bound it. Uniform draws now follow the mask's width: the draws of a policy
    bound to the game are unchanged."""
    import gymnasium

    from spacemission_env.games import GameConfig, get_game

    rp = get_game("red_planet")
    mask = np.zeros(rp.num_actions, dtype=np.int8)
    mask[[5, 200]] = 1
    bound, unbound = RandomPolicy(seed=4), RandomPolicy(seed=4)
    bound.bind(GameConfig(3, game="red_planet"))
    draws = [unbound.act(None, mask) for _ in range(20)]
    assert draws == [bound.act(None, mask) for _ in range(20)] and set(draws) == {5, 200}

    shared = RandomPolicy(seed=0)
    red = gymnasium.make("RedPlanet-v2", num_players=3, opponents=shared, seat=2)
    gymnasium.make("SpaceMission-v3", num_players=2, opponents=shared)  # binds the shared policy to Space Mission
    obs, info = red.reset(seed=0)
    for _ in range(5):  # the opponents (seats 0, 1) move between these steps
        obs, reward, terminated, truncated, info = red.step(int(np.flatnonzero(info["action_mask"])[0]))
        assert not terminated


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_random_policy_act_draws_what_sample_actions_draws(game):
    """act's one-row draw (no batch buffers) picks the id engine.sample_actions picks from
    the same generator state, and leaves the generator where sample_actions leaves it:
    the envs' trajectories for a seed depend on both."""
    from spacemission_env.games import get_game

    eng = get_game(game).engine
    width = get_game(game).num_actions
    masks_rng = np.random.default_rng(7)
    for seed in range(40):
        policy, twin = RandomPolicy(seed=seed), np.random.default_rng(seed)
        for _ in range(50):
            density = masks_rng.choice([0.0, 0.02, 0.3, 1.0])
            mask = masks_rng.random(width) < density
            mask[masks_rng.integers(width)] = True  # at least one legal id (a lone one included)
            as_given = mask.astype(np.int8) if masks_rng.random() < 0.5 else mask
            assert policy.act(None, as_given) == eng.sample_actions(mask[None], twin)[0]
        assert policy._rng.random() == twin.random()


def test_random_policy_act_refuses_bad_masks_and_keeps_its_generator():
    policy = RandomPolicy(seed=3)
    state = policy._rng.bit_generator.state
    bad = np.zeros(100, np.int8)
    bad[5] = 2
    for mask, words in ((np.zeros(100, bool), "no legal action"), (bad, "only 0 and 1"),
                        (np.ones((1, 100), bool), "one vector"), (np.ones(7, bool), "shape [B, 100]")):
        with pytest.raises(ValueError, match=re.escape(words)):
            policy.act(None, mask)
        assert policy._rng.bit_generator.state == state


def test_check_masks_one_pass_over_int8_masks_still_refuses_what_is_not_0_or_1():
    """check_masks reads an int8/uint8 mask in one pass (its bytes' max): a -1 (byte 255) and
    a 2 are still refused, naming the first bad entry."""
    from spacemission_env.engine_common import check_masks

    ok = np.array([[0, 1, 1], [1, 0, 0]], np.int8)
    assert check_masks(ok).dtype == np.bool_ and check_masks(ok).tolist() == ok.astype(bool).tolist()
    assert check_masks(np.zeros((0, 3), np.uint8)).shape == (0, 3)
    for dtype, value in ((np.int8, -1), (np.int8, 2), (np.uint8, 2), (np.uint8, 255)):
        bad = ok.astype(dtype)
        bad[1, 2] = value
        with pytest.raises(ValueError, match=re.escape(f"got {value!r} at row 1, action 2")):
            check_masks(bad)
