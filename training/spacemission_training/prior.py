"""Training with a heuristic prior (``--prior heuristic``; agents/spacemission_agents/ppo_prior.py says what the
prior is and why).

* ``PriorVecEnv`` wraps the GameVecEnv: every observation the learner gets is its
  int8 observation followed by the game's action count of int8 prior codes of that position (the heuristic
  bot run on the learner's own observation and mask), so SB3's rollout buffer, the
  cloning data and the checkpoints hold what the policy reads. A terminal observation in
  ``infos`` (never bootstrapped: R-E3 is a real end) gets floor codes: no decision is
  pending there.
* ``PriorTrunk`` (the features extractor) reads ``obs[active] * scale`` and
  ``1 + codes / 80`` into the shared trunk and passes the codes on; ``PriorMlpExtractor``
  gives the policy head's output with the codes appended and the value head's output;
  ``PriorHead`` (the action net) adds ``beta * codes / 10`` to a linear layer's logits,
  ``beta`` a learned scalar that starts at ``--prior-beta``. At initialisation the linear
  layer's output is near 0 (SB3's 0.01-gain init), so the policy starts as the
  heuristic's softmax; the numpy PPOAgent computes the same function.
"""
from __future__ import annotations

import inspect

import numpy as np
import torch
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from stable_baselines3.common.vec_env import VecEnvWrapper
from torch import nn

from spacemission_agents.ppo_prior import FLOOR_CODE, STEP_POINTS
from spacemission_env.space_mission.actions import NUM_ACTIONS

__all__ = ["PriorHead", "PriorMaskablePolicy", "PriorMlpExtractor", "PriorTrunk", "PriorVecEnv", "augmented_box"]


def augmented_box(box: spaces.Box, num_actions: int = NUM_ACTIONS) -> spaces.Box:
    """The int8 observation space followed by the ``num_actions`` prior codes (FLOOR_CODE..0)."""
    low = np.concatenate([np.broadcast_to(box.low, box.shape), np.full(num_actions, FLOOR_CODE)]).astype(np.int8)
    high = np.concatenate([np.broadcast_to(box.high, box.shape), np.zeros(num_actions)]).astype(np.int8)
    return spaces.Box(low, high, dtype=np.int8)


class PriorVecEnv(VecEnvWrapper):
    """The learner's observations with the prior codes appended (module doc)."""

    def __init__(self, venv, prior):
        if venv.observation_space.dtype != np.int8:
            raise ValueError(f"PriorVecEnv needs int8 observations, got {venv.observation_space.dtype}")
        if getattr(venv, "observation_type", None) != prior.observation_type:
            raise ValueError(f"the {prior.kind} prior reads {prior.observation_type!r} observations; the env gives "
                             f"{getattr(venv, 'observation_type', None)!r}")
        if venv.action_space.n != prior.num_actions:
            raise ValueError(f"the {prior.game} prior codes {prior.num_actions} actions; the env has {venv.action_space.n}")
        super().__init__(venv, observation_space=augmented_box(venv.observation_space, prior.num_actions))
        self.prior = prior

    def _augment(self, obs: np.ndarray) -> np.ndarray:
        return np.concatenate([obs, self.prior(obs, self.venv.action_masks())], axis=1)  # type: ignore[attr-defined]  # a GameVecEnv: masked

    def reset(self):
        return self._augment(self.venv.reset())  # type: ignore[arg-type]  # VecEnvObs: an array here (int8 Box, __init__)

    def step_wait(self):
        obs, rewards, dones, infos = self.venv.step_wait()
        for i in np.flatnonzero(dones):
            last = infos[i].get("terminal_observation")
            if last is not None:
                infos[i]["terminal_observation"] = np.concatenate(
                    [last, np.full(self.prior.num_actions, FLOOR_CODE, np.int8)])
        return self._augment(obs), rewards, dones, infos  # type: ignore[arg-type]  # VecEnvObs: an array here (int8 Box, __init__)

    def action_masks(self) -> np.ndarray:
        return self.venv.action_masks()  # type: ignore[attr-defined]  # a GameVecEnv (VecEnv declares none)

    # VecEnvWrapper's attribute forwarding recurses on an unpickled, still empty object:
    # pickle (checkpoints) goes through plain dicts.
    def __getstate__(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "class_attributes"}  # rebuilt: holds mappingproxies

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.class_attributes = dict(inspect.getmembers(self.__class__))


def _mlp(sizes: list[int]) -> nn.Sequential:
    layers: list[nn.Module] = []
    for a, b in zip(sizes[:-1], sizes[1:]):
        layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers)


class PriorTrunk(BaseFeaturesExtractor):
    """Active features, scaled, and the prior's inputs into the shared trunk; the codes passed on."""

    active: torch.Tensor  # buffers (register_buffer): the kept feature columns and their scales
    scale: torch.Tensor

    def __init__(self, observation_space: spaces.Box, active, scale, trunk: list[int], num_actions: int = NUM_ACTIONS):
        if not trunk:
            raise ValueError("a policy with a prior needs at least one trunk layer (--trunk)")
        self.obs_size = observation_space.shape[0] - num_actions
        super().__init__(observation_space, trunk[-1] + num_actions)
        self.register_buffer("active", torch.as_tensor(np.asarray(active, dtype=np.int64)))
        self.register_buffer("scale", torch.as_tensor(np.asarray(scale, dtype=np.float32)))
        self.trunk = _mlp([len(active) + num_actions, *trunk])

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        codes = observations[:, self.obs_size:].float()
        x = torch.cat([observations.index_select(1, self.active).float() * self.scale, 1.0 + codes / -FLOOR_CODE], 1)
        return torch.cat([self.trunk(x), codes], 1)


class PriorMlpExtractor(nn.Module):
    """Policy and value heads on the trunk's output; the policy latent carries the codes."""

    def __init__(self, trunk_dim: int, pi: list[int], vf: list[int], num_actions: int = NUM_ACTIONS):
        super().__init__()
        self.trunk_dim = trunk_dim
        self.policy_net = _mlp([trunk_dim, *pi])
        self.value_net = _mlp([trunk_dim, *vf])
        self.latent_dim_pi = (pi[-1] if pi else trunk_dim) + num_actions
        self.latent_dim_vf = vf[-1] if vf else trunk_dim

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        t = self.trunk_dim
        return torch.cat([self.policy_net(features[:, :t]), features[:, t:]], 1)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.value_net(features[:, :self.trunk_dim])


class PriorHead(nn.Module):
    """logits = linear(policy latent) + beta * codes * STEP_POINTS (the plan values in points)."""

    def __init__(self, latent_dim: int, beta: float, num_actions: int = NUM_ACTIONS):
        super().__init__()
        self.num_actions = num_actions
        self.linear = nn.Linear(latent_dim, num_actions)
        self.beta = nn.Parameter(torch.tensor([float(beta)]))

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        h, codes = latent[:, :-self.num_actions], latent[:, -self.num_actions:]
        return self.linear(h) + self.beta * STEP_POINTS * codes


class PriorMaskablePolicy(MaskableActorCriticPolicy):
    """MaskableActorCriticPolicy with PriorMlpExtractor and PriorHead (module doc);
    ``prior_beta`` and ``heads`` (``dict(pi=[...], vf=[...])``) are its extra arguments."""

    def __init__(self, *args, prior_beta: float = 3.0, heads: dict | None = None, **kwargs):
        self._prior_beta = float(prior_beta)
        self._heads = heads or {"pi": [128], "vf": [128]}
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        n = self.action_space.n  # type: ignore[attr-defined]  # Discrete (the games' action ids)
        # (in MlpExtractor's place: the same latent_dim_pi/vf and forward_actor/critic)
        self.mlp_extractor = PriorMlpExtractor(self.features_dim - n, list(self._heads["pi"]), list(self._heads["vf"]), n)  # type: ignore[assignment]

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        n = self.action_space.n  # type: ignore[attr-defined]  # Discrete
        head = PriorHead(self.mlp_extractor.latent_dim_pi - n, self._prior_beta, n)
        if self.ortho_init:  # the linear part as SB3 initialises an action net: near-zero logits
            head.linear.apply(lambda m: self.init_weights(m, gain=0.01))
        self.action_net = head
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)  # type: ignore[call-arg]  # as SB3's own _build
