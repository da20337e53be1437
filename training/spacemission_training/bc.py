"""Warm start: behaviour cloning from a teacher bot, with the value head fitted to
Monte-Carlo returns, so that PPO starts from a policy that already plays and from a
critic that already knows what positions are worth.

1. ``collect(...)``: the teacher plays the learner's seat of a SpaceMissionVecEnv (the
   batched engine) against opponents drawn from a pool of bots, exactly the env PPO then
   trains in (same rewards, shaping and discount); every decision is recorded as
   (observation, mask, teacher action, game) and, once its game has ended, the discounted
   return from it (``G_t = r_t + gamma G_{t+1}`` with PPO's gamma, ``return_gamma``;
   decisions of games still running at the end are dropped).
2. ``pretrain(policy, data, ...)``: minimises ``cross-entropy(teacher action | masked
   logits) + vf_coef * (V - G)^2`` over the data for a few epochs (Adam, minibatches in a
   seeded order), holding out whole games to report the agreement with the teacher and
   the value loss. (A slice of decisions held out would be from games the value head has
   learnt by heart: its loss read 0.07 where new games give 0.72.)

Without step 2's value fit the first PPO updates see advantages computed from a random
critic, which pushes the cloned policy around before the critic has caught up.
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import numpy as np
import torch

from spacemission_env.checks import cut_long_words, shown_path
from spacemission_env.games import get_game
from spacemission_env.sb3 import GameVecEnv

from .pool import OpponentPool

__all__ = ["collect", "holdout_split", "load_cache", "pretrain", "save_cache"]


def collect(teacher, pool: OpponentPool, *, num_envs: int, samples: int, num_players: int, rules: str,
            max_rounds: int, observation_type: str, reward: str, shaping: bool, gamma: float, seed: int,
            wrap=None, game: str = "spacemission", return_gamma: float | None = None) -> dict:
    """Teacher decisions against ``pool``: {"obs" int8 [M, D], "mask" bool [M, A],
    "action" int64 [M], "ret" float32 [M], "game" int64 [M] (which recorded game each
    decision is from), "games", "seconds"} with M <= ``samples``. ``gamma`` is the env's
    (its shaping's); the returns are discounted by ``return_gamma``, the critic's (default
    ``gamma``). ``wrap(venv)``: the wrapper the learner's env has (prior.PriorVecEnv), so the
    recorded observations are what the learner reads; the teacher still gets its own view."""
    t0 = time.perf_counter()
    engine = get_game(game).engine
    base = GameVecEnv(num_envs, game=game, num_players=num_players, rules=rules, max_rounds=max_rounds,
                      observation_type=observation_type, reward=reward, shaping=shaping, gamma=gamma,
                      seed=seed, opponents=pool.policies, opponent_sampler=pool.sample)
    venv = wrap(base) if wrap is not None else base
    base_d = base.observation_size
    num_actions = base.num_actions
    teacher_type = getattr(teacher, "observation_type", None) or observation_type
    steps = -(-samples // num_envs) + 200  # extra steps, so that most recorded games get to end
    obs = venv.reset()
    D = obs.shape[1]
    all_obs = np.zeros((steps, num_envs, D), dtype=np.int8)
    all_mask = np.zeros((steps, num_envs, num_actions), dtype=np.bool_)
    all_act = np.zeros((steps, num_envs), dtype=np.int64)
    all_rew = np.zeros((steps, num_envs), dtype=np.float32)
    all_done = np.zeros((steps, num_envs), dtype=np.bool_)
    games = 0
    for t in range(steps):
        mask = venv.action_masks()
        # the teacher sees its own observation type, computed from the env's engine state
        teacher_obs = obs[:, :base_d] if teacher_type == observation_type else engine.observe(
            base.batch_state, observation_type=teacher_type)
        actions = np.asarray(teacher.act_batch(teacher_obs, mask), dtype=np.int64)
        all_obs[t], all_mask[t], all_act[t] = obs, mask, actions
        obs, rew, done, infos = venv.step(actions)
        all_rew[t], all_done[t] = rew, done
        games += int(done.sum())
    # discounted returns backwards; valid only where the game ended within the recording
    discount = gamma if return_gamma is None else return_gamma
    ret = np.zeros((steps, num_envs), dtype=np.float32)
    valid = np.zeros((steps, num_envs), dtype=np.bool_)
    g = np.zeros(num_envs, dtype=np.float32)
    ended = np.zeros(num_envs, dtype=np.bool_)
    for t in range(steps - 1, -1, -1):
        d = all_done[t]
        g = all_rew[t] + discount * g * (~d)
        ended |= d
        ret[t], valid[t] = g, ended
    # game k of env slot e: the games that slot finished before this decision
    started = np.concatenate([np.zeros((1, num_envs), np.int64), np.cumsum(all_done[:-1], axis=0)])
    game_id = started * num_envs + np.arange(num_envs)
    keep = valid.reshape(-1)
    idx = np.flatnonzero(keep)[:samples]
    return {"obs": all_obs.reshape(-1, D)[idx], "mask": all_mask.reshape(-1, num_actions)[idx],
            "action": all_act.reshape(-1)[idx], "ret": ret.reshape(-1)[idx], "game": game_id.reshape(-1)[idx],
            "games": games, "seconds": time.perf_counter() - t0}


def save_cache(path, settings: dict, data: dict) -> None:
    """Keep the teacher data (``--bc-cache``) with the settings that produced it."""
    arrays = {k: v for k, v in data.items() if isinstance(v, np.ndarray)}
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)  # a missing folder (the trainer checked it can be made)
    tmp = path.with_name(path.name + ".tmp")  # written whole, then renamed: a run killed meanwhile leaves no cut cache
    with open(tmp, "wb") as f:  # to ``path`` as named: numpy would add .npz to another suffix (never found again)
        np.savez(f, settings=np.array(json.dumps(settings, sort_keys=True)), games=np.array(data["games"]),
                 seconds=np.array(data["seconds"]), **arrays)  # type: ignore[arg-type]  # numpy's stubs: arrays' names could be allow_pickle
    os.replace(tmp, path)


def load_cache(path, settings: dict) -> dict | None:
    """The cached teacher data if ``path`` holds data made with ``settings``, else None
    (also for a cache written before decisions carried their game)."""
    if not Path(path).is_file():
        return None
    try:  # a cut, empty or foreign file (check_cache_file refused it at the configuration already)
        with np.load(path, allow_pickle=False) as z:
            if str(z["settings"]) != json.dumps(settings, sort_keys=True) or "game" not in z.files:
                return None
            return {"obs": z["obs"], "mask": z["mask"], "action": z["action"], "ret": z["ret"], "game": z["game"],
                    "games": int(z["games"]), "seconds": 0.0}
    except Exception as exc:  # noqa: BLE001 - a cut or damaged member: numpy and zipfile raise anything
        raise ValueError(f"option bc_cache: {shown_path(path)} cannot be read as teacher data ({type(exc).__name__}: "
                         f"{cut_long_words(str(exc))}); delete it or give another path") from None


def holdout_split(data: dict, holdout: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(held-out, training) decision indices: whole games, in a random order, until about
    ``holdout`` of the decisions are held out (decisions alone where ``data`` has no
    "game", or holding out the first game would leave none to train on); none below 21
    decisions."""
    n = len(data["action"])
    order = rng.permutation(n)
    n_test = max(1, int(n * holdout)) if n > 20 else 0
    if n_test and "game" in data:
        ids, counts = np.unique(data["game"], return_counts=True)
        pick = rng.permutation(len(ids))
        held = ids[pick[:int(np.searchsorted(np.cumsum(counts[pick]), n_test)) + 1]]
        if len(held) < len(ids):
            out = np.isin(data["game"], held)
            order = np.concatenate([order[out[order]], order[~out[order]]])
            n_test = int(out.sum())
    return order[:n_test], order[n_test:]


def pretrain(policy, data: dict, *, epochs: int, lr: float, batch_size: int, vf_coef: float, seed: int,
             holdout: float = 0.05, log=None, value_only: bool = False) -> dict:
    """Fit the policy to the teacher's actions and the value head to the returns (module
    doc). Returns the final statistics (``bc/accuracy`` and ``bc/test_value_loss`` on the
    held-out games: about ``holdout`` of the decisions, whole games where ``data`` has
    "game", else decisions; losses).
    ``value_only``: fit the value head alone (its own layers; the shared trunk and the
    actor stay exactly as they are), for a policy loaded from a model file."""
    rng = np.random.default_rng(seed)
    test, train = holdout_split(data, holdout, rng)
    n_test = len(test)
    params = (list(policy.mlp_extractor.value_net.parameters()) + list(policy.value_net.parameters())
              if value_only else list(policy.parameters()))
    opt = torch.optim.Adam(params, lr=lr)
    device = policy.device  # the teacher's data goes where the network is (--device)
    obs_t = torch.as_tensor(data["obs"], device=device)
    mask_t = torch.as_tensor(data["mask"], device=device)
    act_t = torch.as_tensor(data["action"], device=device)
    ret_t = torch.as_tensor(data["ret"], device=device)
    stats: dict = {}
    policy.set_training_mode(True)
    for epoch in range(epochs):
        perm = train[rng.permutation(len(train))]
        ce_sum = v_sum = 0.0
        for lo in range(0, len(perm), batch_size):
            b = torch.as_tensor(perm[lo:lo + batch_size], device=device)
            if value_only:  # the trunk's output is a constant here: no gradient reaches the actor
                with torch.no_grad():
                    features = policy.extract_features(obs_t[b], policy.vf_features_extractor)
                values = policy.value_net(policy.mlp_extractor.forward_critic(features))
                ce = torch.zeros((), device=device)
            else:
                values, log_prob, _ = policy.evaluate_actions(obs_t[b], act_t[b], action_masks=mask_t[b])
                ce = -log_prob.mean()
            v = torch.nn.functional.mse_loss(values.flatten(), ret_t[b])
            loss = vf_coef * v if value_only else ce + vf_coef * v
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(params, 1.0)
            opt.step()
            ce_sum += float(ce.detach()) * len(b)
            v_sum += float(v.detach()) * len(b)
        stats = {"bc/value_loss": v_sum / max(len(perm), 1), "bc/epoch": epoch + 1}
        if not value_only:
            stats["bc/cross_entropy"] = ce_sum / max(len(perm), 1)
        if n_test:
            stats.update(_agreement(policy, obs_t[test], mask_t[test], act_t[test], ret_t[test]))
        if log is not None:
            log(stats)
    policy.set_training_mode(False)
    return stats


@torch.no_grad()
def _agreement(policy, obs, mask, act, ret) -> dict:
    policy.set_training_mode(False)
    dist = policy.get_distribution(obs, action_masks=mask)
    pred = dist.distribution.logits.argmax(dim=1)
    values = policy.predict_values(obs).flatten()
    policy.set_training_mode(True)
    return {"bc/accuracy": float((pred == act).float().mean()),
            "bc/test_value_loss": float(torch.nn.functional.mse_loss(values, ret)),
            "bc/return_variance": float(ret.var()) if len(ret) > 1 else 0.0}
