"""The search bots' actions on fixed positions (agents/spacemission_agents/search.py and
netsearch.py): with ``iterations`` and a seed a bot's action is a deterministic function of
its observation, so a change meant to make a decision cheaper (decoding the observation
once, setting up less) must give the same actions. tests/agents/data/search_actions.json
holds the positions, each a deal and the moves that lead to it (HeuristicAgent self-play,
yucata rules, 2-5 players, early, middle and late in the game), and the actions of each
bot configuration below, recorded with the code as it was before such changes:

    PYTHONPATH=agents:training:. python tests/agents/test_search_actions_fixed.py --record

rewrites the file (do so only when a change is *meant* to change the bots' play, and say so).
"""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from spacemission_agents.netsearch import NetSearchAgent
from spacemission_agents.search import SearchAgent
from spacemission_env.games import GameConfig
from spacemission_env.space_mission import engine

DATA = Path(__file__).parent / "data" / "search_actions.json"
# name -> (class, parameters); every one with an iterations budget (play independent of the clock)
BOTS = {
    "search": (SearchAgent, {"iterations": 48, "seed": 5}),
    "search-halving": (SearchAgent, {"iterations": 24, "seed": 5, "prior": "heuristic", "select": "halving",
                                     "heuristic_steps": 2}),
    "search-every-action": (SearchAgent, {"iterations": 24, "seed": 5, "prior": None, "rollout": "kind-random",
                                          "depth": 3}),
    "netsearch": (NetSearchAgent, {"iterations": 16, "seed": 5}),
    "netsearch-turn": (NetSearchAgent, {"iterations": 16, "seed": 5, "until": "turn", "depth": 12, "mix": 0.5}),
}
STAGES = (0.1, 0.5, 0.9)  # where in a game its positions are taken (share of its moves)


def _replay(players: int, deal: int, moves: list[int]):
    st = engine.init(1, players, seeds=deal)
    for a in moves:
        engine.step(st, np.array([a], np.int64))
    return engine.observe(st, observation_type="recall")[0], engine.legal_action_mask(st)[0]


def _positions(data: dict):
    for game in data["games"]:
        for ply in game["plies"]:
            yield game["players"], game["deal"], ply, _replay(game["players"], game["deal"], game["moves"][:ply])


def _actions(name: str, data: dict) -> list[int]:
    cls, kw = BOTS[name]
    bots, out = {}, []
    for players, _, _, (obs, mask) in _positions(data):
        if players not in bots:
            bots[players] = cls(**kw)
            bots[players].bind(GameConfig(players))
        out.append(int(bots[players].act_batch(obs[None], mask[None])[0]))
    return out


def _record() -> dict:
    from spacemission_agents.heuristic import HeuristicAgent

    games = []
    for players in (2, 3, 4, 5):
        for deal in (11, 12):
            st, bot, moves, choice = engine.init(1, players, seeds=deal), HeuristicAgent(seed=0), [], []
            while not st.terminated[0]:
                mask = engine.legal_action_mask(st)
                choice.append(int(mask[0].sum()) > 1)
                moves.append(int(bot.act_batch(engine.observe(st, observation_type="recall"), mask)[0]))
                engine.step(st, np.array(moves[-1:], np.int64))
            plies = [next(p for p in range(int(s * len(moves)), len(moves)) if choice[p]) for s in STAGES]
            games.append({"players": players, "deal": deal, "plies": plies, "moves": moves[:plies[-1]]})
    data = {"games": games}
    data["actions"] = {name: _actions(name, data) for name in BOTS}
    return data


def test_the_positions_are_decisions():
    data = json.loads(DATA.read_text())
    assert sorted({g["players"] for g in data["games"]}) == [2, 3, 4, 5]
    for players, _, _, (_, mask) in _positions(data):
        assert mask.sum() > 1  # a choice to make, not a forced move


@pytest.mark.parametrize("name", list(BOTS))
def test_same_actions_as_recorded(name):
    data = json.loads(DATA.read_text())
    assert _actions(name, data) == data["actions"][name]


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    DATA.parent.mkdir(exist_ok=True)
    record = _record()
    text = json.dumps({k: v for k, v in record.items() if k != "games"}, separators=(",", ":"))
    games = ",\n".join(json.dumps(g, separators=(",", ":")) for g in record["games"])
    DATA.write_text(text[:-1] + ',"games":[\n' + games + "\n]}\n")
    print(f"{DATA}: {sum(len(g['plies']) for g in record['games'])} positions, {len(BOTS)} bots")
