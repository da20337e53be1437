"""The network PPO trains, and its export to the numpy-only :class:`PPOAgent`.

Architecture (``Architecture``): the observation (int8 ``[D]``) is reduced to its
*active* features (those seen non-zero in a sample of games: in 2-player games 40% of
the 1491 features are padding for absent seats) and scaled feature-wise into [0, 1]
(``x = obs[active] * scale``); a shared trunk of ``trunk`` ReLU layers follows, then
separate policy (``pi``) and value (``vf``) heads (ReLU), the policy ending in 100
logits and the value in one number. The first layer dominates the cost on a CPU, so
dropping dead inputs and sharing it between actor and critic roughly triples the
updates per second against SB3's default two separate MLPs on the full input.

With a heuristic prior (``--prior heuristic``, training/spacemission_training/prior.py) the input also holds
the heuristic's per-action codes, the policy head's logits get ``beta * codes / 10``
added, and the exported agent carries the prior's description and ``prior_beta``.

SB3 pieces: ``ObsTrunk`` is the (shared) features extractor, ``net_arch=dict(pi=...,
vf=...)`` the heads, ``activation_fn=nn.ReLU``. ``to_agent`` copies the actor (trunk,
policy head, action layer) into numpy arrays; the value head is not exported (the
agent only acts).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field

import numpy as np
import torch
from gymnasium import spaces
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from spacemission_agents.ppo import PPOAgent, make_metadata
from spacemission_env.games import get_game

__all__ = ["Architecture", "ObsTrunk", "actor_layers", "actor_modules", "feature_stats", "policy_kwargs", "to_agent"]


@dataclass
class Architecture:
    trunk: list[int] = field(default_factory=lambda: [256])
    pi: list[int] = field(default_factory=lambda: [128])
    vf: list[int] = field(default_factory=lambda: [128])

    def to_dict(self) -> dict:
        return asdict(self)


def feature_stats(num_players: int, rules: str, max_rounds: int, observation_type: str, seed: int = 0,
                  games: int = 256, extra: np.ndarray | None = None,
                  game: str = "spacemission") -> tuple[np.ndarray, np.ndarray]:
    """(active feature indices int64 [A], scale float32 [A]) from the observations of
    ``games`` kind-random games (uniform over legal ids where the game's engine has no
    kinds) played to their end (every decision of every seat),
    plus the rows of ``extra`` (e.g. behaviour-cloning data). A feature is active if it
    is ever non-zero there; its scale is 1 / its maximum."""
    from spacemission_env.games import GameConfig

    g = get_game(game)
    engine = g.engine
    by_kind = {"by_kind": True} if g.name == "spacemission" else {}
    rng = np.random.default_rng(seed)
    st = g.new_batch(games, GameConfig(num_players, rules, max_rounds, game=g.name),
                     seeds=rng.integers(0, 2**62, size=games, dtype=np.int64).astype(np.uint64))
    top = np.zeros(g.description.observation_size(observation_type), dtype=np.int64)
    while not st.terminated.all():
        live = ~st.terminated
        top = np.maximum(top, engine.observe(st, observation_type=observation_type)[live].max(axis=0))
        mask = engine.legal_action_mask(st)  # all-True rows for finished games
        engine.step(st, engine.sample_actions(mask, rng, **by_kind), select=live)
    if extra is not None and len(extra):
        top = np.maximum(top, np.asarray(extra).max(axis=0))
    active = np.flatnonzero(top > 0).astype(np.int64)
    return active, (1.0 / top[active]).astype(np.float32)


class ObsTrunk(BaseFeaturesExtractor):
    """Active features, scaled, then the shared ReLU trunk (module doc)."""

    active: torch.Tensor  # buffers (register_buffer): the kept feature columns and their scales
    scale: torch.Tensor

    def __init__(self, observation_space: spaces.Box, active, scale, trunk: list[int]):
        sizes = [len(active), *trunk]
        super().__init__(observation_space, sizes[-1])
        self.register_buffer("active", torch.as_tensor(np.asarray(active, dtype=np.int64)))
        self.register_buffer("scale", torch.as_tensor(np.asarray(scale, dtype=np.float32)))
        layers: list[nn.Module] = []
        for a, b in zip(sizes[:-1], sizes[1:]):
            layers += [nn.Linear(a, b), nn.ReLU()]
        self.trunk = nn.Sequential(*layers)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        x = observations.index_select(1, self.active).float() * self.scale
        return self.trunk(x)


def policy_kwargs(arch: Architecture, active: np.ndarray, scale: np.ndarray, prior_beta: float | None = None,
                  num_actions: int = 100) -> dict:
    """MaskablePPO's ``policy_kwargs`` for ``arch`` with the given input features (for
    ``PriorMaskablePolicy`` when ``prior_beta`` is given; ``num_actions``: the game's action count,
    the number of prior codes after the observation)."""
    if prior_beta is not None:
        from .prior import PriorTrunk

        return dict(features_extractor_class=PriorTrunk,
                    features_extractor_kwargs=dict(active=active.tolist(), scale=scale.tolist(), trunk=list(arch.trunk),
                                                   num_actions=int(num_actions)),
                    heads=dict(pi=list(arch.pi), vf=list(arch.vf)), prior_beta=float(prior_beta),
                    share_features_extractor=True)
    return dict(features_extractor_class=ObsTrunk,
                features_extractor_kwargs=dict(active=active.tolist(), scale=scale.tolist(), trunk=list(arch.trunk)),
                net_arch=dict(pi=list(arch.pi), vf=list(arch.vf)), activation_fn=nn.ReLU,
                share_features_extractor=True)


def _linears(module: nn.Module) -> list[nn.Linear]:
    return [m for m in module.modules() if isinstance(m, nn.Linear)]


def actor_modules(policy) -> list[nn.Linear]:
    """Every actor layer in order: the trunk, the policy head, the action layer."""
    fx = policy.pi_features_extractor
    head = getattr(policy.action_net, "linear", policy.action_net)  # PriorHead or a plain Linear
    return _linears(fx.trunk) + _linears(policy.mlp_extractor.policy_net) + [head]


def actor_layers(policy) -> list[tuple[np.ndarray, np.ndarray]]:
    """(weight [out, in], bias [out]) of every actor layer in order, as float32 numpy."""
    return [(m.weight.detach().cpu().numpy().astype(np.float32).copy(),
             m.bias.detach().cpu().numpy().astype(np.float32).copy()) for m in actor_modules(policy)]


def to_agent(policy, *, game: str = "spacemission", observation_type: str, num_players: int, rules: str, max_rounds: int,
             arch: Architecture, training: dict | None = None, temperature: float = 0.0, name: str = "ppo",
             prior=None) -> PPOAgent:
    """A numpy :class:`PPOAgent` with the actor of a MaskablePPO ``policy`` (a copy: later
    updates of the policy do not change it); ``prior``: the HeuristicPrior the policy was
    trained with, or None."""
    fx = policy.pi_features_extractor
    meta = make_metadata(game=game, observation_type=observation_type, num_players=num_players, rules=rules,
                         max_rounds=max_rounds, architecture={**arch.to_dict(), "activation": "relu"},
                         training=training or {}, prior=None if prior is None else prior.describe())
    params = {"active": fx.active.cpu().numpy().copy(), "scale": fx.scale.cpu().numpy().copy()}
    if prior is not None:
        params["prior_beta"] = policy.action_net.beta.detach().cpu().numpy().astype(np.float32).copy()
    for i, (w, b) in enumerate(actor_layers(policy)):
        params[f"w{i}"], params[f"b{i}"] = w, b
    return PPOAgent(params, meta, temperature=temperature, name=name)
