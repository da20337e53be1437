"""agents/spacemission_agents/arena.py: a short duplicate-format arena of random vs kind-random (2 and 3
players): the schedule, the statistics, the files, replays of the recorded games in the
reference engine, and results identical for any worker count."""
import copy
import csv
import dataclasses
import json
import os
from collections import Counter

import numpy as np
import pytest

from spacemission_agents.arena import ArenaArgumentError, lineups, run_arena, seatings
from spacemission_env.space_mission import rules

AGENTS = ["random", "kind-random"]


@pytest.fixture(scope="module")
def two(tmp_path_factory):
    out = tmp_path_factory.mktemp("arena2")
    return run_arena(AGENTS, num_players=2, games=23, seed=3, out=out, chunk_size=8, progress=False), out


@pytest.fixture(scope="module")
def three(tmp_path_factory):
    out = tmp_path_factory.mktemp("arena3")
    return run_arena(AGENTS, num_players=3, games=10, seed=1, max_rounds=30, out=out, chunk_size=16, progress=False), out


def test_lineups_and_seatings():
    assert lineups(2, 2) == [(0, 1)]
    assert lineups(3, 2) == [(0, 1), (0, 2), (1, 2)]
    assert lineups(4, 3) == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)]
    assert lineups(2, 3) == [(0, 0, 1), (0, 1, 1)]  # fewer agents than seats: every agent in every lineup
    assert lineups(2, 5) == [(0, 0, 0, 0, 1), (0, 0, 0, 1, 1), (0, 0, 1, 1, 1), (0, 1, 1, 1, 1)]
    assert seatings((0, 1, 2)) == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert seatings((0, 0, 1)) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]
    assert len(seatings((0, 1, 2, 3), "permutations")) == 24
    assert sorted(seatings((0, 0, 1), "permutations")) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]


def test_duplicate_schedule_two_players(two):
    result, _ = two
    g = result.games
    # 23 games per pair round up to 12 deals x 2 seatings
    assert result.config["deals_per_lineup"] == 12 and result.num_games == 24 == result.config["games_per_lineup"]
    by_seed = {}
    for s, seats in zip(g.seeds.tolist(), g.seats.tolist()):
        by_seed.setdefault(s, []).append(tuple(seats))
    assert len(by_seed) == 12
    assert all(sorted(v) == [(0, 1), (1, 0)] for v in by_seed.values())
    assert sorted(by_seed) == [3 * 2**32 + d for d in range(12)]  # deal seeds: seed * 2**32 + deal


def test_duplicate_schedule_three_players(three):
    result, _ = three
    g = result.games
    assert result.config["lineups"] == [["random", "random", "kind-random"], ["random", "kind-random", "kind-random"]]
    assert result.config["deals_per_lineup"] == 4 and result.num_games == 2 * 4 * 3
    for lineup in (0, 1):
        rows = g.lineup == lineup
        per_seed = Counter(g.seeds[rows].tolist())
        assert set(per_seed.values()) == {3}  # each deal once per rotation
        seats = g.seats[rows]
        for agent in (0, 1):  # every agent sits every seat equally often
            counts = (seats == agent).sum(axis=0)
            assert len(set(counts.tolist())) == 1


@pytest.mark.parametrize("fixture", ["two", "three"])
def test_statistics_are_consistent(fixture, request):
    result, _ = request.getfixturevalue(fixture)
    ab, ba = result.pair("random", "kind-random"), result.pair("kind-random", "random")
    assert ab.win_rate + ba.win_rate == pytest.approx(1.0)
    assert ab.wins == ba.losses and ab.ties == ba.ties and ab.games == ba.games == result.num_games
    for p in (ab, ba):
        assert 0 <= p.ci_low <= p.win_rate <= p.ci_high <= 1 and p.ci_high - p.ci_low > 0
        assert p.mean_score["total"] == pytest.approx(sum(v for k, v in p.mean_score.items() if k != "total"), abs=1e-3)
    for a in result.agents:
        assert a.rank_ci_low <= a.mean_rank <= a.rank_ci_high
        assert a.win_ci_low <= a.win_rate <= a.win_ci_high
        assert a.ordinal == pytest.approx(a.mu - 3 * a.sigma)
        assert a.forfeits == 0
    assert ba.win_rate > 0.5 and result.agent("kind-random").mu > result.agent("random").mu
    P = result.config["num_players"]
    # the mean ranks of all seats average to the middle place
    ranks, _ = result.games.ranks()
    assert ranks.mean() == pytest.approx((P + 1) / 2)


def test_win_counts_match_the_recorded_games(two):
    result, out = two
    games = [json.loads(line) for line in open(out / "games.jsonl")]
    wins = ties = 0
    for g in games:
        seat = g["agents"].index("kind-random")
        if g["winners"] == [seat]:
            wins += 1
        elif len(g["winners"]) == 2:
            ties += 1
    p = result.pair("kind-random", "random")
    assert (p.wins, p.ties) == (wins, ties)
    rl = [g["round_limit"] for g in games]
    assert p.round_limit_share == pytest.approx(np.mean(rl))


@pytest.mark.parametrize("fixture", ["two", "three"])
def test_recorded_games_replay_in_the_reference_engine(fixture, request):
    result, out = request.getfixturevalue(fixture)
    lines = open(out / "games.jsonl").read().splitlines()
    assert len(lines) == result.num_games
    for k, line in enumerate(lines):
        g = json.loads(line)
        assert g["format"] == "spacemission-arena-game" and g["game"] == k
        c = g["config"]
        s = rules.new_game(c["num_players"], seed=g["seed"], rules=c["rules"], max_rounds=c["max_rounds"])
        assert s.start_player == g["start_player"]
        assert g["agents"] == [result.config["agents"][i] for i in result.games.seats[k]]
        for seat, action, label in g["actions"]:
            assert s.current_player == seat
            assert rules.action_label(action, s) == label
            rules.apply(s, action)
        assert s.is_over and g["forfeit"] is None
        assert rules.scores(s) == g["scores"]
        assert rules.winners(s) == g["winners"]
        assert (s.round, s.round_limit) == (g["rounds"], g["round_limit"])


def test_files_written(two):
    result, out = two
    data = json.loads((out / "results.json").read_text())
    assert data["format"] == "spacemission-arena-results" and data["totals"]["games"] == 24
    assert data["config"]["agents"] == AGENTS
    assert {(p["agent"], p["opponent"]) for p in data["pairs"]} == {("random", "kind-random"), ("kind-random", "random")}
    assert [a["name"] for a in data["agents"]] == AGENTS and "timing" in data
    with open(out / "pairs.csv") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 2 and float(rows[0]["win_rate"]) == pytest.approx(result.pair(rows[0]["agent"], rows[0]["opponent"]).win_rate)
    assert "score_total" in rows[0] and "opponent_score_medals" in rows[0]
    with open(out / "agents.csv") as fh:
        agents = list(csv.DictReader(fh))
    assert [a["name"] for a in agents] == AGENTS and float(agents[1]["mu"]) == pytest.approx(result.agents[1].mu)
    assert (out / "arena.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"



def test_a_plot_that_cannot_be_written_leaves_no_figure_open(two, tmp_path):
    """A failed arena.png (a full disk, a removed directory) closes its figure: pyplot keeps
    every open figure, so a long notebook or sweep would hold each failed one."""
    import matplotlib.pyplot as plt

    from spacemission_agents.arena_output import plot_png

    result, _ = two
    before = len(plt.get_fignums())
    for _ in range(3):
        with pytest.raises(OSError):
            plot_png(result, tmp_path / "gone" / "arena.png")
    assert len(plt.get_fignums()) == before

def test_the_plot_legend_names_bar_and_whiskers_and_cell_text_stands_out(two, tmp_path, monkeypatch):
    """arena.png: the ratings legend called the bar "mu +- 2 sigma" (the bar is mu, the whiskers
    the +-2 sigma), and the win-rate cells wrote black text on the dark red and dark green ends
    of the scale (0.0 and 1.0, the commonest rates), hard to read at the picture's size."""
    from matplotlib.colors import to_rgb
    from matplotlib.figure import Figure

    from spacemission_agents.arena_output import plot_png

    result, _ = two
    result = copy.copy(result)  # the ends of the scale, where black text was unreadable
    result.pairs = {pair: dataclasses.replace(p, win_rate=float(i % 2)) for i, (pair, p) in enumerate(result.pairs.items())}
    figures = []
    monkeypatch.setattr(Figure, "savefig", lambda fig, *a, **k: figures.append(fig))
    plot_png(result, tmp_path / "arena.png")
    (fig,) = figures
    heat, ratings = fig.axes[:2]  # then the colour bar
    assert sorted(t.get_text() for t in ratings.get_legend().get_texts()) == ["mu (bar), +- 2 sigma (whiskers)",
                                                                             "ordinal (mu - 3 sigma)"]
    image = heat.get_images()[0]
    texts = heat.texts
    assert len(texts) == len(result.pairs)
    for t in texts:
        j, i = (round(v) for v in t.get_position())
        cell = np.array(image.cmap(image.norm(image.get_array()[i, j]))[:3])
        ink = np.array(to_rgb(t.get_color()))
        weights = np.array([0.299, 0.587, 0.114])
        assert abs(weights @ cell - weights @ ink) > 0.3, (t.get_text(), cell, ink)


def test_results_identical_for_any_worker_count(tmp_path):
    kw = dict(num_players=3, games=15, seed=7, max_rounds=25, chunk_size=5, progress=False)
    one = run_arena(AGENTS + ["random"], workers=1, out=tmp_path / "w1", **kw)
    two = run_arena(AGENTS + ["random"], workers=2, out=tmp_path / "w2", **kw)
    assert len(range(0, one.num_games, 5)) > 2  # several chunks, spread over both workers
    assert one.to_dict(timing=False) == two.to_dict(timing=False)
    assert (tmp_path / "w1" / "games.jsonl").read_bytes() == (tmp_path / "w2" / "games.jsonl").read_bytes()
    assert two.timing["workers"] == 2
    one_chunk = run_arena(AGENTS + ["random"], workers=2, **{**kw, "chunk_size": 100})
    assert one_chunk.timing["workers"] == 1, "one chunk is played here: no pool starts (before: said 2)"


@pytest.mark.parametrize("start_method", ["fork", "spawn"])
def test_many_chunks_start_each_worker_and_build_each_agent_once(tmp_path, start_method):
    """An arena of many chunks (100 here) with 2 workers plays in 2 worker processes started once
    (the pool never replaces one) and builds each agent once per process, not per chunk: in the
    arena's own process (to check it), and with spawn once in each worker (fork inherits the
    parent's); the results and games equal one worker's. Checked this session; pinned here."""
    builds = tmp_path / "builds.txt"
    played = tmp_path / "builds.txt.played"
    agents = [f"tests.helpers.external_agents:Counts:path={builds}", "random"]
    kw = dict(games=400, seed=3, max_rounds=3, chunk_size=4, progress=False)
    many = run_arena(agents, workers=2, start_method=start_method, out=tmp_path / "w2", **kw)
    assert many.num_games == 400 and many.timing["workers"] == 2  # 100 chunks of 4 games
    built, playing = builds.read_text().split(), played.read_text().split()
    assert built[0] == str(os.getpid()) and len(set(built)) == len(built) == (1 if start_method == "fork" else 3)
    assert len(set(playing)) == len(playing) == 2 and str(os.getpid()) not in playing
    if start_method == "spawn":
        assert sorted(playing) == sorted(built[1:])
    builds.unlink()
    played.unlink()
    one = run_arena(agents, workers=1, out=tmp_path / "w1", **kw)
    assert builds.read_text().split() == played.read_text().split() == [str(os.getpid())]
    assert one.to_dict(timing=False) == many.to_dict(timing=False)
    assert (tmp_path / "w1" / "games.jsonl").read_bytes() == (tmp_path / "w2" / "games.jsonl").read_bytes()


@pytest.mark.slow
def test_results_identical_with_spawned_workers(tmp_path):
    kw = dict(num_players=2, games=40, seed=2, chunk_size=8, progress=False, out=None)
    one = run_arena(AGENTS, workers=1, **kw)
    spawned = run_arena(AGENTS, workers=2, start_method="spawn", **kw)
    assert one.to_dict(timing=False) == spawned.to_dict(timing=False)


def test_agent_objects_and_seed_changes_the_deals():
    from spacemission_agents.random_agents import KindRandomAgent, RandomAgent

    kw = dict(num_players=2, games=4, max_rounds=10, progress=False)
    by_obj = run_arena([RandomAgent(), KindRandomAgent()], seed=4, **kw)
    by_spec = run_arena(AGENTS, seed=4, **kw)
    assert by_obj.config["agents"] == AGENTS  # the agents' own names
    assert by_obj.to_dict(timing=False)["agents"][0]["win_rate"] == by_spec.to_dict(timing=False)["agents"][0]["win_rate"]
    assert (by_obj.games.scores == by_spec.games.scores).all()
    other = run_arena(AGENTS, seed=5, **kw)
    assert not np.array_equal(other.games.seeds, by_spec.games.seeds)


class _Recorder:
    """Kind-random play that keeps every observation and mask it is shown."""

    uses_observation = True

    def __init__(self, name, observation_type):
        from spacemission_agents.random_agents import KindRandomAgent

        self.name, self.observation_type, self.seen = name, observation_type, []
        self._play = KindRandomAgent(0)

    def seed(self, s):
        self._play.seed(s)

    def act(self, observation, mask):
        return int(self.act_batch(observation[None], mask[None])[0])

    def act_batch(self, observations, masks):
        self.seen.extend(zip(np.array(observations), np.array(masks)))
        return self._play.act_batch(None, masks)


def test_each_agent_sees_its_own_seat_only(tmp_path):
    from spacemission_env.space_mission import encoding

    a, b = _Recorder("info-bot", "info"), _Recorder("seer-bot", "seer")
    result = run_arena([a, b], num_players=2, games=2, max_rounds=6, chunk_size=1, out=tmp_path, progress=False,
                       allow_seer=True)
    assert result.config["seer_agents"] == ["seer-bot"]
    queues = {"info-bot": iter(a.seen), "seer-bot": iter(b.seen)}
    types = {"info-bot": "info", "seer-bot": "seer"}
    decisions = 0
    for line in open(tmp_path / "games.jsonl"):
        g = json.loads(line)
        s = rules.new_game(2, seed=g["seed"], max_rounds=6)
        for seat, action, _ in g["actions"]:
            name = g["agents"][seat]
            obs, mask = next(queues[name])
            assert (obs == encoding.observe(s, player=seat, observation_type=types[name])).all()
            assert (mask == rules.legal_action_mask(s).astype(bool)).all()
            rules.apply(s, action)
            decisions += 1
    assert decisions == len(a.seen) + len(b.seen) > 0


@pytest.mark.parametrize("game", ["spacemission", "red_planet"])
def test_an_agent_asking_for_the_seer_view_is_refused_unless_allowed(game):
    """Found by the audit of what bots see: any agent (MODULE:Class, ppo:PATH of a model trained
    on "seer") could set observation_type = "seer" and be rated on the whole state, every hand,
    pile and the deck order, without a word in the results."""
    players = 2 if game == "spacemission" else 3
    with pytest.raises(ArenaArgumentError, match="'seer', the whole state") as info:
        run_arena([_Recorder("seer-bot", "seer"), "random"], num_players=players, games=1, game=game, progress=False)
    assert info.value.argument == "agents"
    with pytest.raises(ArenaArgumentError, match="allow_seer must be True or False"):
        run_arena(["random", "random"], games=1, progress=False, allow_seer="yes")
    result = run_arena(["random", "kind-random"], games=2, max_rounds=3, progress=False)
    assert result.config["seer_agents"] == []


def test_no_record_removes_an_earlier_runs_games(tmp_path):
    """Found by a new-user review: with record=False an earlier run's games.jsonl stayed beside
    the new results.json, and replaying it showed games of other agents and seeds."""
    out = tmp_path / "out"
    run_arena(["random", "greedy"], games=2, seed=1, out=out, progress=False)
    assert (out / "games.jsonl").is_file()
    result = run_arena(["random", "kind-random"], games=2, seed=2, out=out, record=False, progress=False,
                       overwrite=True)
    assert not (out / "games.jsonl").exists() and (out / "results.json").is_file()
    assert result.config["agents"] == ["random", "kind-random"]


def test_out_with_an_earlier_runs_results_needs_overwrite(tmp_path):
    """Before: a run into an out directory replaced an earlier run's results silently (the
    trainers refuse a run_dir that holds a run). Now ArenaArgumentError names out, the files
    and overwrite, before any agent is built, and leaves them; overwrite=True replaces them."""
    out = tmp_path / "out"
    run_arena(["random", "greedy"], games=2, seed=1, out=out, progress=False)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    with pytest.raises(ArenaArgumentError, match=r"already holds an earlier arena run's files \(results.json, pairs.csv, "
                                                 r"agents.csv, arena.png, games.jsonl\).*overwrite=True") as info:
        run_arena(["random", "no-such-agent"], games=2, seed=2, out=out, progress=False)
    assert info.value.argument == "out"
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    with pytest.raises(ArenaArgumentError, match="overwrite must be True or False"):
        run_arena(["random", "greedy"], games=2, out=tmp_path / "new", progress=False, overwrite="yes")
    result = run_arena(["random", "kind-random"], games=2, seed=2, out=out, progress=False, overwrite=True)
    assert json.loads((out / "results.json").read_text())["config"]["agents"] == result.config["agents"]


def test_save_into_a_folder_with_results_needs_overwrite(tmp_path):
    """Before: ArenaResult.save(out) replaced an earlier run's results silently, while
    run_arena(out=...) refused such a folder without overwrite. Now save refuses it the same
    way (ArenaArgumentError naming out, the files and overwrite=True) before writing anything;
    overwrite=True replaces the four files it writes and leaves a games.jsonl alone."""
    out = tmp_path / "out"
    run_arena(["random", "greedy"], games=2, seed=1, out=out, progress=False)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    other = run_arena(["random", "kind-random"], games=2, seed=2, progress=False)
    with pytest.raises(ArenaArgumentError, match=r"already holds an earlier arena run's files \(results.json, pairs.csv, "
                                                 r"agents.csv, arena.png\): saving would replace them.*overwrite=True") as info:
        other.save(out)
    assert info.value.argument == "out"
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before
    with pytest.raises(ArenaArgumentError, match="overwrite must be True or False, got 'yes'"):
        other.save(tmp_path / "new", overwrite="yes")
    assert not (tmp_path / "new").exists()
    with pytest.raises(ArenaArgumentError, match="exists and is a file"):
        other.save(out / "games.jsonl")
    paths = other.save(out, overwrite=True)
    assert sorted(p.name for p in paths.values()) == ["agents.csv", "arena.png", "pairs.csv", "results.json"]
    assert json.loads((out / "results.json").read_text())["config"]["agents"] == ["random", "kind-random"]
    assert (out / "games.jsonl").read_bytes() == before["games.jsonl"]
    assert sorted(p.name for p in other.save(tmp_path / "fresh").values()) == sorted(p.name for p in paths.values())
