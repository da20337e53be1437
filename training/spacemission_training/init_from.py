"""Fine-tuning a saved agent (``--init-from PATH``): PPO starts from the actor of a numpy
PPOAgent file (agents/spacemission_agents/ppo.py) instead of a cloned one.

A model file holds the actor only (its input features ``active`` and ``scale``, the
trunk, the policy head, the action layer and, with the heuristic prior, ``prior_beta``);
the value head is not exported. So a run that starts from a file

1. checks that the file fits the run (``check``: the game, the observation type, the
   prior, the architecture, the player count, the rules and the round limit; a
   ValueError names the field and both values);
2. builds the network with the file's input features and copies the actor in exactly
   (``load_actor``: the exported actor equals the file before any PPO update,
   tests/training/test_init_from.py);
3. fits the value head alone (bc.pretrain with ``value_only``): the loaded policy plays
   the learner's seat (sampling at temperature 1, as PPO's rollouts do) for
   ``bc_samples`` decisions and the value head (trunk frozen, being the actor's too)
   learns their Monte-Carlo returns, so the first PPO updates see advantages from a
   critic of this policy rather than a random one.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from spacemission_agents.ppo import PPOAgent
from spacemission_env.checks import cut, cut_long_words, shown, shown_path

__all__ = ["check", "load_actor", "teacher_spec"]


def check(cfg) -> PPOAgent:
    """The agent saved at ``cfg.init_from``, after checking that it fits ``cfg`` (a
    TrainConfig); ValueError naming the mismatch otherwise."""
    path = cfg.init_from
    if Path(path).is_dir():  # it read "no model file at" the folder, which is there
        raise ValueError(f"option init_from: {shown_path(path)} is a directory, not a model file (an .npz, e.g. a run's "
                         f"final.npz)")
    if not Path(path).is_file():
        raise ValueError(f"option init_from: no model file at {shown_path(path)}")
    with open(path, "rb") as f:
        if f.read(4) != b"PK\x03\x04":  # an .npz is a zip archive
            raise ValueError(f"option init_from: {shown_path(path)} is not an .npz model file (a numpy PPOAgent file, "
                             f"e.g. a run's final.npz)")
    try:
        agent = PPOAgent.load(path)  # ValueError for a file that is not a model or of another layout
    except ValueError as exc:
        raise ValueError(f"option init_from: {cut_long_words(str(exc))}") from None
    meta = agent.metadata
    where = f"option init_from: {shown_path(path)}"
    have_prior = (meta.get("prior") or {}).get("kind", "")
    arch = meta.get("architecture", {})
    pairs = [
        ("game", agent.game, cfg.game),
        ("observation_type", meta["observation_type"], cfg.observation_type),
        ("prior", have_prior, cfg.prior),
        ("players", meta["num_players"], cfg.players),
        ("rules", meta["rules"], cfg.rules),
        ("max_rounds", meta["max_rounds"], cfg.max_rounds),
        *((name, list(arch.get(name, [])), cfg.layers(name)) for name in ("trunk", "pi", "vf")),
    ]
    for name, theirs, ours in pairs:
        if theirs != ours:
            raise ValueError(f"{where} is a model with {name} {shown(theirs)}; this run has {name} {shown(ours)} "
                             f"(set --{name.replace('_', '-')} to match, or start from another file)")
    if cfg.prior:  # the env computes the codes with this package's prior: the file's must be the same
        from spacemission_agents.ppo_prior import HeuristicPrior, make_prior

        theirs = HeuristicPrior.from_description(meta["prior"]).describe()
        ours = make_prior(cfg.prior, game=cfg.game).describe()
        if theirs != ours:
            raise ValueError(f"{where} was trained with other heuristic prior parameters than this package's "
                             f"({_differences(theirs, ours)})")
    return agent


def _differences(theirs: dict, ours: dict) -> str:
    """The keys whose values differ between two prior descriptions (their ``params`` read as
    keys of their own), each with both values (the file's first, each cut: checks.shown), so
    a mismatch message names every difference and nothing else; "none" for a key one lacks."""
    def flat(desc: dict) -> dict:
        params = desc.get("params")
        return {**{k: v for k, v in desc.items() if k != "params"}, **(params if isinstance(params, dict) else {})}

    a, b = flat(theirs), flat(ours)
    missing = object()
    out = []
    for key in [*a, *(k for k in b if k not in a)]:
        x, y = a.get(key, missing), b.get(key, missing)
        if x != y:
            out.append(f"{cut(str(key))} {'none' if x is missing else shown(x)} against "
                       f"{'none' if y is missing else shown(y)}")
    return "; ".join(out)


def teacher_spec(cfg) -> str:
    """The agent spec that plays the learner's seat for the value fit."""
    return f"ppo:{cfg.init_from}"


def load_actor(policy, agent: PPOAgent) -> None:
    """Copy ``agent``'s actor into the torch ``policy`` (built with the agent's ``active``
    and ``scale``; policy.actor_layers' order): the features, every actor layer and
    ``prior_beta``. The value head is left as built."""
    from .policy import actor_modules

    fx = policy.pi_features_extractor
    if not (np.array_equal(fx.active.cpu().numpy(), agent.params["active"])
            and np.array_equal(fx.scale.cpu().numpy(), agent.params["scale"])):
        raise ValueError("init_from: the network was built with other input features than the model file's")
    layers = actor_modules(policy)
    if sum(1 for k in agent.params if k.startswith("w")) != len(layers):
        raise ValueError(f"init_from: the model file has a different number of actor layers than this network "
                         f"({len(layers)})")
    with torch.no_grad():
        for i, m in enumerate(layers):
            w, b = agent.params[f"w{i}"], agent.params[f"b{i}"]
            if tuple(m.weight.shape) != w.shape or tuple(m.bias.shape) != b.shape:
                raise ValueError(f"init_from: layer {i} of the model file is {w.shape}, the network's is "
                                 f"{tuple(m.weight.shape)}")
            m.weight.copy_(torch.tensor(w))
            m.bias.copy_(torch.tensor(b))
        if "prior_beta" in agent.params:
            policy.action_net.beta.copy_(torch.tensor(agent.params["prior_beta"]))
