"""The bots' per-decision seeds of ``play`` and ``serve`` (``spacemission_cli._bots.seed_for``,
docs/play.md: a bot is reseeded before each decision from the game seed, the seat and the
number of actions so far)."""
from spacemission_cli._bots import seed_for


def test_every_game_seed_gives_the_bots_their_own_seeds():
    """Regression: the game seed was taken modulo 2**63, so seeds s and s + 2**63 (both
    accepted by ``play --seed``: 0..2**64-1) gave every bot the same seeds."""
    for s in (0, 5, 2**63 - 1):
        assert seed_for(s, 0, 5) != seed_for(s + 2**63, 0, 5)
    assert len({seed_for(s, 1, 3) for s in (0, 1, 2**31 - 1, 2**63 - 1, 2**63, 2**64 - 1)}) == 6


def test_seeds_below_2_63_are_the_ones_saved_games_were_played_with():
    """Pinned: a saved game (seed < 2**63, as ``serve`` took before and the printed random seeds) goes
    on with the bots' moves of before."""
    assert seed_for(7, 1) == 3317731564112288844
    assert seed_for(7, 1, 12) == 5892455773017884471
    assert seed_for(2**63 - 1, 0, 5) == 2471311070453612110
    assert all(0 <= seed_for(s, 2, 9) < 2**63 for s in (0, 2**63, 2**64 - 1))
