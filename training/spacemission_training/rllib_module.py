"""RLlib (new API stack) modules for every game of the package: the masked learner and the bots.

``MaskedPPOModule`` is a ``TorchRLModule`` with ``ValueFunctionAPI`` (what RLlib's PPO
needs) that reads the PettingZoo env's own observation dict: ``obs["observation"]``
(int8 [D]) and ``obs["action_mask"]`` (int8 [A], the game's action count). No observation
wrapper is needed: the module casts the int8 observation to float itself and applies the
mask, so RLlib's ``PettingZooEnv`` wrapper drives ``spacemission_env.pettingzoo_env.env``
unchanged.

Its network is the SB3 trainer's (training/spacemission_training/policy.py): the
observation's *active* features scaled into [0, 1] (``x = obs[active] * scale``), a
shared ReLU trunk, then a policy head ending in A logits and a value head ending in
one number. Illegal actions get a logit of ``FLOAT_MIN`` (about -3.4e38), so they are
never sampled and take no probability mass in PPO's ratio or entropy. ``actor_layers``
gives the actor's (weight, bias) pairs in the order of the numpy agent format
(agents/spacemission_agents/ppo.py), so an RLlib-trained policy plays without Ray.

``BotModule`` makes any agent spec (``heuristic``, ``greedy``, ``random``,
``ppo:PATH``..., of the game in ``model_config``) an RLModule that is never trained: it calls the agent's
``act_batch(observations, masks)`` and hands RLlib the actions (``Columns.ACTIONS``).
Each env runner builds its own copy from the spec, so no model is pickled to workers.
With ``runner_seeded`` in its ``model_config`` (the trainer sets it) a bot's seed also
mixes in torch's initial seed, which RLlib sets to ``seed + worker_index`` on every env
runner before it builds the modules: each runner's random bots draw their own stream, and
one run seed still gives one run.
"""
from __future__ import annotations

import numpy as np
import torch
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis.value_function_api import ValueFunctionAPI
from ray.rllib.core.rl_module.rl_module import RLModule
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.rllib.utils.torch_utils import FLOAT_MIN
from torch import nn

__all__ = ["BotModule", "MaskedPPOModule"]

OBS_KEY, MASK_KEY = "observation", "action_mask"  # the PettingZoo env's observation dict


def _mlp(sizes: list[int], last_relu: bool) -> nn.Sequential:
    layers: list[nn.Module] = []
    for i, (a, b) in enumerate(zip(sizes[:-1], sizes[1:])):
        layers.append(nn.Linear(a, b))
        if last_relu or i < len(sizes) - 2:
            layers.append(nn.ReLU())
    return nn.Sequential(*layers)


class MaskedPPOModule(TorchRLModule, ValueFunctionAPI):
    """The learner's network (module doc). ``model_config``: ``active`` (feature indices),
    ``scale`` (their scales), ``trunk``, ``pi``, ``vf`` (hidden layer sizes)."""

    def setup(self):
        cfg = self.model_config
        active = np.asarray(cfg["active"], dtype=np.int64)
        scale = np.asarray(cfg["scale"], dtype=np.float32)
        if active.ndim != 1 or scale.shape != active.shape:
            raise ValueError(f"model_config: active {active.shape} and scale {scale.shape} must be equal 1-d shapes")
        self.register_buffer("active", torch.as_tensor(active))
        self.register_buffer("scale", torch.as_tensor(scale))
        trunk = [len(active), *cfg["trunk"]]
        self.trunk = _mlp(trunk, last_relu=True)
        self.pi = _mlp([trunk[-1], *cfg["pi"], self.action_space.n], last_relu=False)
        if not self.inference_only:
            self.vf = _mlp([trunk[-1], *cfg["vf"], 1], last_relu=False)

    def get_non_inference_attributes(self) -> list[str]:
        return ["vf"]

    def _embed(self, batch) -> torch.Tensor:
        obs = batch[Columns.OBS][OBS_KEY]
        return self.trunk(obs.index_select(-1, self.active).float() * self.scale)

    def _masked_logits(self, batch, embeddings: torch.Tensor) -> torch.Tensor:
        legal = batch[Columns.OBS][MASK_KEY] > 0
        return torch.where(legal, self.pi(embeddings), torch.tensor(FLOAT_MIN, device=embeddings.device))

    def _forward(self, batch, **kwargs):
        return {Columns.ACTION_DIST_INPUTS: self._masked_logits(batch, self._embed(batch))}

    def _forward_train(self, batch, **kwargs):
        emb = self._embed(batch)
        return {Columns.ACTION_DIST_INPUTS: self._masked_logits(batch, emb), Columns.EMBEDDINGS: emb}

    def compute_values(self, batch, embeddings=None):
        if embeddings is None:
            embeddings = self._embed(batch)
        return self.vf(embeddings).squeeze(-1)

    def actor_layers(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """(weight [out, in], bias [out]) of every actor layer in order (trunk, policy
        head), float32 copies: the numpy agent's ``w0, b0, ...``."""
        linears = [m for m in (*self.trunk, *self.pi) if isinstance(m, nn.Linear)]
        return [(m.weight.detach().cpu().numpy().astype(np.float32).copy(),
                 m.bias.detach().cpu().numpy().astype(np.float32).copy()) for m in linears]


def _bot_seed(cfg: dict) -> int:
    """The agent's seed: ``cfg["seed"]``, mixed with this process's torch seed (the env
    runner's, set by RLlib) when ``cfg["runner_seeded"]`` (module doc)."""
    seed = int(cfg.get("seed", 0))
    if not cfg.get("runner_seeded", False):
        return seed
    return int(np.random.SeedSequence([seed, torch.initial_seed()]).generate_state(1)[0])


class BotModule(RLModule):
    """An agent spec as a frozen RLModule (module doc). ``model_config``: ``spec``,
    ``seed`` (and ``runner_seeded``), and the game (``game``, default Space Mission, ``num_players``, ``rules``,
    ``max_rounds``) it is bound to."""

    def setup(self):
        from spacemission_agents.arena_workers import game_config_of
        from spacemission_agents.registry import make_agent

        cfg = self.model_config
        game = cfg.get("game", "spacemission")
        self.agent = make_agent(cfg["spec"], seed=_bot_seed(cfg), game=game)
        if callable(getattr(self.agent, "bind", None)):
            self.agent.bind(game_config_of(cfg["num_players"], cfg["rules"], cfg["max_rounds"], game))
        wanted = getattr(self.agent, "observation_type", None)
        if getattr(self.agent, "uses_observation", True) and wanted not in (None, cfg["observation_type"]):
            raise ValueError(f"opponent {cfg['spec']!r} reads {wanted!r} observations; the env gives "
                             f"{cfg['observation_type']!r} (set the observation type to {wanted!r})")

    def _forward(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        x, mask = (np.asarray(v.cpu().numpy() if torch.is_tensor(v) else v) for v in (obs[OBS_KEY], obs[MASK_KEY]))
        return {Columns.ACTIONS: self.agent.act_batch(x.astype(np.int8, copy=False), mask.astype(bool))}

    def _forward_train(self, batch, **kwargs):
        raise NotImplementedError(f"{self.model_config['spec']!r} is a fixed opponent: it is never trained")

    def get_state(self, *args, **kwargs):
        return {}

    def set_state(self, state) -> None:
        pass

    def compile(self, *args, **kwargs):  # env runners call this on torch modules
        pass
