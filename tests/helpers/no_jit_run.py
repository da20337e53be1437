"""Short games of both batched engines, a few bot decisions and determinized worlds,
recorded as named arrays: tests/env/engine/test_no_jit.py runs :func:`record` compiled
and, in a subprocess with ``NUMBA_DISABLE_JIT=1``, as plain Python
(``python -m tests.helpers.no_jit_run OUT.npz``), and compares the two."""
from __future__ import annotations

import sys

import numpy as np

OBSERVATION_TYPES = ("info", "recall", "seer")


def _engine_games(out: dict, E, tag: str, num_players: int, steps: int, **config) -> None:
    """Random play of 3 games with every API call on the way: masks (also with ``select``),
    each observation type (acting seat and a fixed seat), scores, rewards, step and
    step_observe in turn, reset_finished, take/copy and to_reference/from_reference."""
    st = E.init(3, num_players, seeds=11, **config)
    rng = np.random.default_rng(5)
    for t in range(steps):
        mask = E.legal_action_mask(st)
        out[f"{tag}/mask{t}"] = mask
        out[f"{tag}/mask_select{t}"] = E.legal_action_mask(st, select=np.array([True, False, True]))
        for kind in OBSERVATION_TYPES:
            out[f"{tag}/obs{t}{kind}"] = E.observe(st, observation_type=kind)
            out[f"{tag}/obs_seat{t}{kind}"] = E.observe(st, player=t % num_players, observation_type=kind)
        out[f"{tag}/scores{t}"] = E.scores(st)
        out[f"{tag}/rewards{t}"] = E.rewards(st)
        actions = E.sample_actions(mask, rng)
        out[f"{tag}/actions{t}"] = actions
        if t % 2:
            E.step(st, actions)
        else:
            kind = OBSERVATION_TYPES[t % 3]
            mask_out = np.empty_like(mask)
            obs_out = np.empty((st.batch_size, E.observation_size(kind)), np.int8)
            E.step_observe(st, actions, mask_out, obs_out, observation_type=kind)
            out[f"{tag}/fused{t}"] = np.concatenate([mask_out.astype(np.int8), obs_out], axis=1)
        out[f"{tag}/reset{t}"] = E.reset_finished(st, np.arange(3) + 100 + t)
        out[f"{tag}/state{t}"] = _flat(st)
    out[f"{tag}/take"] = _flat(st.take(np.array([2, 0])))
    out[f"{tag}/copy"] = _flat(st.copy())
    out[f"{tag}/reference"] = _flat(E.from_reference([E.to_reference(st, i) for i in (1, 2)]))


def _flat(st) -> np.ndarray:
    return np.concatenate([np.asarray(a).ravel().astype(np.int64) for a in st.arrays()])


def _space_mission_bots(out: dict, steps: int) -> None:
    """Greedy and heuristic decisions along a 3-player game, one search decision per
    rollout kind and determinized worlds (the numba-compiled bots and determinizer)."""
    from spacemission_agents.registry import make_agent
    from spacemission_env.space_mission import engine as E
    from spacemission_env.space_mission.determinize import sample_worlds_from_observation

    st = E.init(2, 3, seeds=7, rules="schmidt", max_rounds=3)
    bots = {name: make_agent(name, seed=1) for name in ("greedy", "heuristic")}
    for t in range(steps):
        mask, obs = E.legal_action_mask(st), E.observe(st, observation_type="recall")
        actions = {name: bot.act_batch(obs, mask) for name, bot in bots.items()}
        for name, a in actions.items():
            out[f"bots/{name}{t}"] = a
        E.step(st, actions["greedy" if t % 2 else "heuristic"])
    for rollout in ("greedy", "kind-random"):
        out[f"bots/search-{rollout}"] = make_agent(f"search:iterations=4:rollout={rollout}", seed=3).act_batch(obs, mask)
    worlds = sample_worlds_from_observation(obs[0], 3, "schmidt", 3, k=3, rng=np.random.default_rng(2),
                                            player=int(st.current_player[0]))
    out["bots/worlds"] = _flat(worlds)


def record() -> dict:
    from spacemission_env.red_planet import engine as red_planet
    from spacemission_env.space_mission import engine as space_mission

    out: dict = {}
    for n, rules in ((2, "yucata"), (5, "schmidt")):  # 2 players to the round limit: finished games and resets
        _engine_games(out, space_mission, f"sm{n}", n, 60 if n == 2 else 20, rules=rules, max_rounds=2)
    for n in (3, 4, 5):  # 3 players to the end of a game (M-X1)
        _engine_games(out, red_planet, f"rp{n}", n, 130 if n == 3 else 20)
    _space_mission_bots(out, 6)
    return {k: np.asarray(v) for k, v in out.items()}


if __name__ == "__main__":
    np.savez(sys.argv[1], **record())
