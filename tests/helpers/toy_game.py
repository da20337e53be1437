"""A third game written only against the game protocol (spacemission_env/games.py), to show
that a game plugs into every interface without changing them: *Last Token*.

P players take turns taking 1, 2 or 3 tokens from one pile of 10 + seed % 5 tokens; whoever
takes the last token scores 1, everyone else 0. Actions: Discrete(3) (take a + 1). The
observation ("info", "recall" and "seer" alike): [tokens left, seats until the observer
acts]. The reference engine is a dict per game, the fast engine numpy arrays (a real game
would compile its hot paths with ``spacemission_env.jit.njit``).
"""
from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np

from spacemission_env.engine_common import (
    check_actions,
    check_players,
    check_select,
    rank_reward_table,
    sample_legal,
    seed_array,
)
from spacemission_env.game_description import GameDescription, RewardScheme
from spacemission_env.games import Game
from spacemission_env.obs_layout import block_layout

NUM_ACTIONS = 3
OBSERVATION_TYPES = ("info", "recall", "seer")
DESCRIPTION = GameDescription(
    name="last_token", title="Last Token", registry_name="LastToken", version=0, min_players=2, max_players=4,
    num_actions=NUM_ACTIONS, observation_sizes={t: 2 for t in OBSERVATION_TYPES}, observation_low=0,
    observation_high=14, observation_dtype="int8",
    reward_schemes={"win": RewardScheme(-1.0, 1.0, "zero_sum"), "score": RewardScheme(-1.0, 1.0, "zero_sum")},
    max_steps_per_turn=1, dynamics="sequential", chance_mode="deterministic", information="perfect")


# --- the reference engine: one dict per game ---------------------------------------------
def new_game(num_players: int, seed: int | None = None) -> dict:
    return {"num_players": num_players, "pile": 10 + (seed or 0) % 5, "current_player": 0, "winner": -1}


def legal_actions(state: dict) -> list[int]:
    return [] if state["winner"] >= 0 else [a for a in range(NUM_ACTIONS) if a + 1 <= state["pile"]]


def apply(state: dict, action: int) -> None:
    if action not in legal_actions(state):
        raise ValueError(f"action {action!r} is not legal now; legal: {legal_actions(state)}")
    state["pile"] -= action + 1
    if state["pile"] == 0:
        state["winner"] = state["current_player"]
    else:
        state["current_player"] = (state["current_player"] + 1) % state["num_players"]


rules = SimpleNamespace(
    new_game=new_game, legal_actions=legal_actions, apply=apply,
    legal_action_mask=lambda s: np.isin(np.arange(NUM_ACTIONS), legal_actions(s)),
    current_player=lambda s: s["current_player"], is_over=lambda s: s["winner"] >= 0,
    scores=lambda s: [{"total": int(q == s["winner"])} for q in range(s["num_players"])],
    to_json=lambda s, indent=None: json.dumps(s, indent=indent, sort_keys=True), from_json=json.loads)


def observe_state(state: dict, player: int | None = None, observation_type: str = "info") -> np.ndarray:
    p = state["current_player"] if player is None else player
    return np.array([state["pile"], (p - state["current_player"]) % state["num_players"]], dtype=np.int8)


def observation_layout(observation_type: str = "info") -> list:
    """The named blocks (what a PPO model's layout hash is made of; no ``seat_present`` block)."""
    DESCRIPTION.observation_size(observation_type)
    return list(block_layout([("pile", (1,), "tokens left"), ("wait", (1,), "seats until the observer acts")]))


encoding = SimpleNamespace(OBSERVATION_TYPES=OBSERVATION_TYPES, observe=observe_state,
                           decode=lambda obs, observation_type="info": {"pile": obs[..., 0], "wait": obs[..., 1]},
                           observation_layout=observation_layout)


# --- the fast engine: arrays over a batch --------------------------------------------------
class BatchState:
    def __init__(self, batch_size: int, num_players: int):
        self.batch_size, self.num_players = batch_size, num_players
        self.pile = np.zeros(batch_size, np.int8)
        self.current_player = np.zeros(batch_size, np.int8)
        self.winner = np.full(batch_size, -1, np.int8)

    @property
    def terminated(self) -> np.ndarray:
        return self.winner >= 0

    def take(self, rows) -> "BatchState":
        out = BatchState(len(rows), self.num_players)
        out.pile, out.current_player, out.winner = self.pile[rows], self.current_player[rows], self.winner[rows]
        return out

    def copy(self) -> "BatchState":
        return self.take(np.arange(self.batch_size))


def init(batch_size: int, num_players: int, seeds=0) -> BatchState:
    st = BatchState(batch_size, num_players)
    st.pile[:] = 10 + seed_array(seeds, batch_size) % np.uint64(5)
    return st


def reset_finished(st: BatchState, seeds) -> np.ndarray:
    done = st.terminated.copy()
    fresh = init(st.batch_size, st.num_players, seeds)
    st.pile[done], st.current_player[done], st.winner[done] = fresh.pile[done], 0, -1
    return done


def legal_action_mask(st: BatchState, out=None, select=None) -> np.ndarray:
    sel = check_select(st, select)
    mask = (np.arange(NUM_ACTIONS)[None, :] + 1 <= st.pile[:, None]) | st.terminated[:, None]
    if out is None:
        out = mask
    else:
        out[sel] = mask[sel]
    return out


def step(st: BatchState, actions, select=None) -> None:
    a, sel = check_actions(st, actions), check_select(st, select) & ~st.terminated
    legal = legal_action_mask(st)
    bad = sel & ~((a >= 0) & (a < NUM_ACTIONS) & legal[np.arange(st.batch_size), np.clip(a, 0, NUM_ACTIONS - 1)])
    if bad.any():
        g = int(np.flatnonzero(bad)[0])
        raise ValueError(f"game {g}: action {int(a[g])} is not legal now (legal: {np.flatnonzero(legal[g]).tolist()})")
    st.pile[sel] -= (a[sel] + 1).astype(np.int8)
    won = sel & (st.pile == 0)
    st.winner[won] = st.current_player[won]
    moved = sel & ~won
    st.current_player[moved] = (st.current_player[moved] + 1) % st.num_players


def observation_size(observation_type: str = "info") -> int:
    return DESCRIPTION.observation_size(observation_type)


def observe(st: BatchState, player=None, observation_type: str = "info", out=None) -> np.ndarray:
    observation_size(observation_type)
    p = check_players(st, player)
    obs = np.stack([st.pile, (p - st.current_player) % st.num_players], axis=1).astype(np.int8)
    if out is not None:
        out[:] = obs
        return out
    return obs


def scores(st: BatchState) -> np.ndarray:
    won = (st.winner[:, None] == np.arange(st.num_players)[None, :])
    return won.astype(np.int16)[..., None]  # one column, the total


def rewards(st: BatchState) -> np.ndarray:
    total = scores(st)[..., -1]
    better = (total[:, None, :] > total[:, :, None]).sum(axis=2)
    tied = (total[:, None, :] == total[:, :, None]).sum(axis=2)
    return np.where(st.terminated[:, None], rank_reward_table(st.num_players)[better, tied], 0.0).astype(np.float32)


def sample_actions(mask, rng=None, out=None) -> np.ndarray:
    m = np.asarray(mask, dtype=np.bool_)
    rng = rng if rng is not None else np.random.default_rng()
    out = np.empty(m.shape[0], np.int64) if out is None else out
    sample_legal(m, rng.random(m.shape[0]), out)
    return out


def to_reference(st: BatchState, i: int) -> dict:
    return {"num_players": st.num_players, "pile": int(st.pile[i]), "current_player": int(st.current_player[i]),
            "winner": int(st.winner[i])}


def from_reference(states) -> BatchState:
    st = BatchState(len(states), states[0]["num_players"])
    for i, s in enumerate(states):
        st.pile[i], st.current_player[i], st.winner[i] = s["pile"], s["current_player"], s["winner"]
    return st


engine = SimpleNamespace(**{n: globals()[n] for n in (
    "init", "step", "legal_action_mask", "observe", "scores", "rewards", "reset_finished", "sample_actions",
    "to_reference", "from_reference", "observation_size")}, BatchState=BatchState)


def render_ansi(state: dict, viewer: int | None = None) -> str:
    return f"Last Token: {state['pile']} tokens left, seat {state['current_player']} to take"


def render_rgb(state: dict, viewer: int | None = None) -> np.ndarray:
    img = np.zeros((20, 20 * 15, 3), np.uint8)
    img[:, : 20 * state["pile"]] = 255
    return img


GAME = Game(
    description=DESCRIPTION, engine=engine, encoding=encoding, rules=rules, score_names=("total",), score_scale=1.0,
    rule_sets=("standard",), default_max_rounds=15, max_rounds_limit=15,
    action_label=lambda action, state=None: f"take {int(action) + 1}", action_table=lambda: [("0-2", "take", "")],
    render_module=__name__, env_class_prefix="LastToken")
