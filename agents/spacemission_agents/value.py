"""ValueNet: a numpy value network fitted for one policy (no torch needed).

    from spacemission_agents.value import ValueNet
    net = ValueNet.load_shipped(2)                 # fitted for the shipped 2-player PPO agent
    v = net.values(obs)                            # int8 "recall" observations [N, D] -> float32 [N]

``values`` estimates, for the seat whose observation it reads, its final R-P8 rank reward
(+1 win, -1 loss, ties shared; in [-1, 1]) when every seat plays the policy the net was
fitted for (``policy_sha256``). It reads any seat's observation at any point of a game,
whether or not that seat is to act: a search bot values its leaves with it.

A value file is one ``.npz`` (``numpy.load(allow_pickle=False)``): ``active`` (int64 [A])
and ``scale`` (float32 [A]) as the policy's (input ``obs[active] * scale``), dense layers
``w0, b0, ..., wL, bL`` (weight [out, in]; ReLU after all but the last, which has one
output), the output squashed by ``tanh``, and a JSON string under ``"metadata"``:
format (``FORMAT``) and its version (``VERSION``; a newer one is refused), game, players,
rules, round limit, observation type, size and layout hash (as ppo.py's), ``policy_sha256``
(sha256 of the policy file it was fitted for), the environment version whose games it was
fitted on (``env_id``: informational and optional, as in ppo.py; files made before it lack
it) and how it was fitted (command, games, losses). The fitting script is
``python -m spacemission_training.value_fit``.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numpy as np

from spacemission_env.checks import cut_long_words, shown, shown_path
from spacemission_env.games import DEFAULT_GAME, get_game

from .model_files import (check_dense_params, check_format_version, check_game_fields, check_observation_layout,
                          layout_hash, one_blas_thread, package_version, read_npz_file, save_npz_file,
                          shipped_data_path)

__all__ = ["FORMAT", "SHIPPED_VALUES", "ValueNet", "file_sha256", "make_value_metadata"]

FORMAT = "spacemission-value-net"
VERSION = 1
SHIPPED_VALUES = {2: "value_2p.npz"}  # Space Mission: player count -> file in spacemission_agents/data


def file_sha256(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def make_value_metadata(*, policy_metadata: dict, policy_sha256: str, architecture: dict, fitting: dict) -> dict:
    """Metadata of a value net fitted for the policy with ``policy_metadata`` (its game,
    players, rules, round limit and observation type are the value net's)."""
    m = policy_metadata
    game = m.get("game", DEFAULT_GAME)
    otype = m["observation_type"]
    return {
        "format": FORMAT, "version": VERSION, "package_version": package_version(), "game": game,
        "env_id": get_game(game).description.env_id,  # informational, optional (older files lack it): VERSION stays
        "observation_type": otype, "observation_size": get_game(game).description.observation_size(otype),
        "observation_layout_hash": layout_hash(otype, game), "num_players": int(m["num_players"]),
        "rules": m["rules"], "max_rounds": int(m["max_rounds"]), "policy_sha256": policy_sha256,
        "output": "tanh: the seat's expected R-P8 rank reward in [-1, 1]", "architecture": architecture,
        "fitting": fitting,
    }


class ValueNet:
    """A numpy value network (module doc). ``ValueNet(params, metadata)``; usually built
    by :meth:`load` or :meth:`load_shipped`."""

    def __init__(self, params: dict, metadata: dict):
        self.metadata = dict(metadata)
        self._check_metadata(self.metadata, "value net")
        self.params = {k: np.asarray(v) for k, v in params.items()}
        n = check_dense_params(self.params, "value net")
        try:
            active = self.params["active"].astype(np.int64)
            scale = self.params["scale"].astype(np.float32)
            layers = [(self.params[f"w{i}"].astype(np.float32), self.params[f"b{i}"].astype(np.float32))
                      for i in range(n)]
        except KeyError as exc:
            raise ValueError(f"value net parameters lack {exc.args[0]!r} (expected active, scale, w0, b0, ...)") from None
        size = self.metadata["observation_size"]
        if n < 1 or active.ndim != 1 or scale.shape != active.shape or (active.size and (active.min() < 0 or active.max() >= size)):
            raise ValueError(f"value net parameters are inconsistent: {n} layers, active {active.shape}, scale {scale.shape}")
        fan_in = active.size
        for i, (w, b) in enumerate(layers):
            if w.ndim != 2 or w.shape[1] != fan_in or b.shape != (w.shape[0],):
                raise ValueError(f"value net layer {i}: weight {w.shape} and bias {b.shape} do not follow {fan_in} inputs")
            fan_in = w.shape[0]
        if fan_in != 1:
            raise ValueError(f"value net has {fan_in} outputs; expected 1")
        self._active = active
        self._w_t = [np.ascontiguousarray((w * scale if i == 0 else w).T) for i, (w, _) in enumerate(layers)]
        self._b = [b for _, b in layers]

    @staticmethod
    def _check_metadata(meta: dict, where: str) -> None:
        if meta.get("format") != FORMAT:
            raise ValueError(f"{where} is not a value net (format {shown(meta.get('format'))}, expected {FORMAT!r})")
        check_format_version(meta, where, VERSION)
        check_game_fields(meta, where)
        sha = meta.get("policy_sha256")
        if not (isinstance(sha, str) and len(sha) == 64 and all(c in "0123456789abcdef" for c in sha)):
            raise ValueError(f"{where}: its metadata's policy_sha256 (the policy it was fitted for) must be 64 "
                             f"lowercase hex digits, got {shown(sha)}")
        check_observation_layout(meta, where, made="fitted", remedy="refit it")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "ValueNet":
        """The value net saved at ``path``; ValueError for a missing or foreign file."""
        p = Path(path)
        arrays, meta = read_npz_file(p, "value net file", "value net", "a value net")
        cls._check_metadata(meta, f"value net {shown_path(p)}")
        try:
            return cls(arrays, meta)
        except ValueError as exc:  # the arrays: name the file
            raise ValueError(f"value net {shown_path(p)}: {cut_long_words(str(exc))}") from None

    @classmethod
    def shipped_path(cls, num_players: int) -> Path:
        if num_players not in SHIPPED_VALUES:
            raise ValueError(f"no shipped value net for {num_players}-player Space Mission; shipped: "
                             f"{sorted(SHIPPED_VALUES)} players (fit one: python -m spacemission_training.value_fit "
                             f"--players {num_players})")
        return shipped_data_path(SHIPPED_VALUES[num_players], f"{num_players}-player value net")

    @classmethod
    def load_shipped(cls, num_players: int) -> "ValueNet":
        return cls.load(cls.shipped_path(num_players))

    def save(self, path: str | os.PathLike[str]) -> Path:
        return save_npz_file(path, self.metadata, self.params)

    def check_policy(self, policy_path: str | os.PathLike[str]) -> None:
        """ValueError unless the policy file at ``policy_path`` is the one this net was fitted for."""
        have = file_sha256(policy_path)
        if have != self.metadata.get("policy_sha256"):
            raise ValueError(f"value net was fitted for the policy with sha256 {self.metadata.get('policy_sha256')}; "
                             f"{shown_path(policy_path)} has sha256 {have}")

    def values(self, observations: np.ndarray) -> np.ndarray:
        """float32 [N]: each observing seat's expected rank reward, in [-1, 1]."""
        obs = np.asarray(observations)
        if obs.ndim != 2 or obs.shape[1] != self.metadata["observation_size"]:
            raise ValueError(f"observations must have shape [N, {self.metadata['observation_size']}] "
                             f"({self.metadata['observation_type']!r}), got {list(obs.shape)}")
        x = obs[:, self._active].astype(np.float32)
        last = len(self._w_t) - 1
        with one_blas_thread():
            for i, (wt, b) in enumerate(zip(self._w_t, self._b)):
                x = x @ wt
                x += b
                if i < last:
                    np.maximum(x, 0.0, out=x)
        return np.tanh(x[:, 0])

    def __repr__(self) -> str:
        m = self.metadata
        return f"ValueNet({m['num_players']} players, {m['rules']}, policy {m['policy_sha256'][:12]})"
