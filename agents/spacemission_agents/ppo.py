"""PPOAgent: a trained PPO policy that plays with numpy only (no torch needed).

    from spacemission_agents.ppo import PPOAgent
    agent = PPOAgent.load_shipped()              # the pretrained 2-player agent (agents/spacemission_agents/data/)
    agent = PPOAgent.load("runs/x/final.npz")    # any saved one; make_agent("ppo:PATH") does this
    action = agent.act(observation, mask)        # or act_batch(observations [N, D], masks [N, 100])

A model file is one ``.npz`` (``numpy.load(allow_pickle=False)`` reads it): the actor's
arrays and a JSON string of metadata under ``"metadata"``:

* ``active`` (int64 [A]) and ``scale`` (float32 [A]): the network's input is
  ``obs[active] * scale`` (the observation's active features scaled into [0, 1]);
* ``w0, b0, ..., wL, bL``: dense layers (weight [out, in], bias [out]); ReLU after every
  layer but the last, whose 100 outputs are the action logits (docs/actions.md ids);
* with a heuristic prior (metadata ``"prior"``, agents/spacemission_agents/ppo_prior.py, the
  game's heuristic bot): ``prior_beta``
  (float32 [1]); the input is ``obs[active] * scale`` followed by ``1 + codes / 80`` (the
  heuristic's per-action codes) and the logits get ``prior_beta * codes / 10`` added.

The metadata (``make_metadata``) names the package version, the observation type, the
observation size and a hash of its layout (``layout_hash``), the dtype the network reads
(int8 observations as float32), the action count, the game (players, rules, round
limit), the architecture and how it was trained (command, steps, seed), the environment
version it was trained on (``env_id``, e.g. ``"SpaceMission-v3"``: informational, an optional key
that files made before it lack and that no reader checks, so the format version stayed 3), and the
version of this file format (``version``: ``VERSION``; not the environment's). ``load`` refuses a file
whose observation layout or action count differs from the installed package's, or of a
format version newer than ``VERSION`` (the checks every model-like file gets, value nets'
too, are in model_files.py); ``bind`` (called by every environment and the arena) refuses a
game other than the one the model was trained for, with a ValueError naming both.

Acting: greedy by default (the legal action with the highest logit); ``temperature > 0``
samples from ``softmax(logits / temperature)`` over the legal actions with the agent's
own generator (``seed``). The forward pass is a few numpy matrix products, checked equal
to the torch network it was exported from (tests/agents/test_agents_ppo.py, and with a prior
tests/agents/test_ppo_prior.py); a model with the heuristic prior also runs the heuristic bot's
numba kernel on the observations (no torch either way), which makes up most of its cost.
"""
from __future__ import annotations

import copy
import hashlib
import os
import threading
from collections import OrderedDict
from pathlib import Path

import numpy as np

from spacemission_env.checks import cut_long_words, shown, shown_path
from spacemission_env.games import DEFAULT_GAME, BindConfig, bind_config, get_game
from spacemission_env.engine_common import check_seat_present
from spacemission_env.env_common import check_seed
from spacemission_env.obs_layout import block_span
from spacemission_env.policies import BasePolicy, check_masks

from .model_files import (check_dense_params, check_format_version, check_game_fields, check_observation_layout,
                          layout_hash, observation_layout, one_blas_thread, package_version, plain_value, read_npz_file,
                          save_npz_file, shipped_data_path)
from .ppo_prior import FLOOR_CODE, STEP_POINTS

__all__ = ["FORMAT", "PPOAgent", "SHIPPED", "SHIPPED_BY_GAME", "layout_hash", "make_metadata", "package_version"]

FORMAT = "spacemission-ppo-policy"
VERSION = 3  # 2: optional heuristic prior; 3: the game (older files, without it, are Space Mission's)
SHIPPED = {2: "ppo_2p.npz", 3: "ppo_3p.npz", 4: "ppo_4p.npz", 5: "ppo_5p.npz"}  # Space Mission: player count -> file in spacemission_agents/data
SHIPPED_BY_GAME = {"spacemission": SHIPPED, "red_planet": {3: "red_planet_ppo_3p.npz", 4: "red_planet_ppo_4p.npz",
                                                           5: "red_planet_ppo_5p.npz"}}

_LOADED: OrderedDict = OrderedDict()  # (class, file's sha256) -> the agent first loaded from it (PPOAgent.load)
_LOADED_MAX = 4  # model files kept (about 3.6 MB each); the least recently loaded is dropped
_LOADED_LOCK = threading.Lock()
_LOADED_FILE_BYTES = 64 << 20  # larger files are read for each agent (not hashed first)


def make_metadata(*, observation_type: str, num_players: int, rules: str, max_rounds: int, architecture: dict,
                  training: dict, prior: dict | None = None, game: str = DEFAULT_GAME) -> dict:
    """The metadata a saved model carries (module doc); ``prior``: a
    ``HeuristicPrior.describe()`` or None."""
    g = get_game(game)
    return {
        "format": FORMAT, "version": VERSION, "package_version": package_version(), "game": g.name,
        "env_id": g.description.env_id,
        "observation_type": observation_type, "observation_size": g.description.observation_size(observation_type),
        "observation_layout_hash": layout_hash(observation_type, g.name),
        "observation_dtype": "int8 observations, read as float32: x = obs[active] * scale",
        "num_actions": g.num_actions, "num_players": int(num_players), "rules": rules, "max_rounds": int(max_rounds),
        "architecture": architecture, "training": training, "prior": prior,
    }


def _check_temperature(t) -> float:
    ok = not isinstance(t, bool) and isinstance(t, (int, float, np.integer, np.floating))
    try:
        ok = ok and np.isfinite(float(t)) and t >= 0
    except OverflowError:  # an int past float's range (10**400): not a finite float
        ok = False
    if not ok:
        raise ValueError(f"temperature must be a finite number >= 0 (0: greedy), got {shown(t)}")
    return float(t)


class PPOAgent(BasePolicy):
    """A numpy policy network that implements the opponent protocol (module doc).

    ``PPOAgent(params, metadata, temperature=0.0, seed=None, name="ppo")``; usually built
    by :meth:`load`, :meth:`load_shipped` or the training code."""

    uses_observation = True

    def __init__(self, params: dict, metadata: dict, *, temperature: float = 0.0, seed: int | None = None,
                 name: str = "ppo"):
        self.metadata = dict(metadata)
        self._check_metadata(self.metadata, "model")
        self.params = {k: np.asarray(v) for k, v in params.items()}
        n = check_dense_params(self.params, "model", ("prior_beta",))
        try:
            layers = [(self.params[f"w{i}"], self.params[f"b{i}"]) for i in range(n)]
            active = self.params["active"].astype(np.int64)
            scale = self.params["scale"].astype(np.float32)
        except KeyError as exc:
            raise ValueError(f"model parameters lack {exc.args[0]!r} (expected active, scale, w0, b0, ...)") from None
        size = self.metadata["observation_size"]
        self._num_actions = get_game(self.game).num_actions
        self._prior = None
        if self.metadata.get("prior") is not None:
            from .ppo_prior import HeuristicPrior

            try:
                self._prior = HeuristicPrior.from_description(self.metadata["prior"])
            except TypeError as exc:  # parameters the heuristic bot does not have (named, cut: not the whole prior)
                raise ValueError(f"model prior: {exc}") from None
            if self._prior.game != self.game:
                raise ValueError(f"model for {self.game!r} names the heuristic prior of {shown(self._prior.game)}")
            if self._prior.observation_type != self.metadata["observation_type"]:
                raise ValueError(f"model prior reads {shown(self._prior.observation_type)} observations; the model's "
                                 f"observation_type is {self.metadata['observation_type']!r}")
            beta = np.asarray(self.params.get("prior_beta", np.zeros(0)))
            if beta.shape != (1,) or not np.isfinite(beta).all():
                raise ValueError(f"model with a prior needs a finite prior_beta of shape [1], got shape {beta.shape}")
        elif "prior_beta" in self.params:
            raise ValueError("model parameters hold prior_beta but its metadata names no prior")
        if n < 1 or active.ndim != 1 or scale.shape != active.shape or (active.size and (active.min() < 0 or active.max() >= size)):
            raise ValueError(f"model parameters are inconsistent: {n} layers, active {active.shape}, scale {scale.shape}")
        fan_in = active.size + (self._num_actions if self._prior is not None else 0)
        for i, (w, b) in enumerate(layers):
            if w.ndim != 2 or w.shape[1] != fan_in or b.shape != (w.shape[0],):
                raise ValueError(f"model layer {i}: weight {w.shape} and bias {b.shape} do not follow {fan_in} inputs")
            fan_in = w.shape[0]
        if fan_in != self._num_actions:
            raise ValueError(f"model has {fan_in} outputs; the action space has {self._num_actions}")
        self._prepare()
        self.temperature = _check_temperature(temperature)
        self.name = name
        self._shipped_players: str | int | None = None  # set by load_shipped(num_players=None): bind picks the model
        self.seed(seed)

    def _prepare(self) -> None:
        """The arrays the forward pass uses: transposed weights, the first one with the
        input scaling folded in (and, with a prior, the prior input's ``1 + codes / 80``
        folded into its columns and its bias), derived from ``params``; rebuilt after
        unpickling."""
        n = sum(1 for k in self.params if k.startswith("w"))
        scale = self.params["scale"].astype(np.float32)
        self._active = self.params["active"].astype(np.int64)
        w = [self.params[f"w{i}"].astype(np.float32) for i in range(n)]
        self._b = [self.params[f"b{i}"].astype(np.float32) for i in range(n)]
        has_prior = "prior_beta" in self.params
        if has_prior:
            a = scale.size
            self._b[0] = self._b[0] + w[0][:, a:].sum(axis=1)
            scale = np.concatenate([scale, np.full(w[0].shape[1] - a, 1.0 / -FLOOR_CODE, np.float32)])
        w[0] = w[0] * scale
        self._w_t = [np.ascontiguousarray(m.T) for m in w]
        self._beta = float(self.params["prior_beta"][0]) if has_prior else 0.0
        # the seat_present block (1 for each seat in the game, from the observer on): where an
        # observation says how many players its game has (_check_players)
        # (None where the game's layout has no such block: the player count is then not checked)
        layout = observation_layout(self.metadata["observation_type"], self.game)
        self._seat_block = block_span(layout, "seat_present")

    def __getstate__(self) -> dict:  # snapshots are pickled into checkpoints: keep only the source arrays
        return {k: v for k, v in self.__dict__.items() if k not in ("_w_t", "_b", "_active", "_beta", "_seat_block")}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._prepare()

    # --- metadata and loading ----------------------------------------------------------
    @staticmethod
    def _check_metadata(meta: dict, where: str) -> None:
        if meta.get("format") != FORMAT:
            raise ValueError(f"{where} is not a Space Mission PPO policy (format {shown(meta.get('format'))}, "
                             f"expected {FORMAT!r})")
        check_format_version(meta, where, VERSION)
        game = meta.get("game", DEFAULT_GAME)
        check_game_fields(meta, where)
        check_observation_layout(meta, where)
        num_actions = get_game(game).num_actions
        if meta.get("num_actions") != num_actions:
            raise ValueError(f"{where} has {plain_value(meta.get('num_actions'))} actions; {game!r} has {num_actions}")

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, temperature: float = 0.0, seed: int | None = None,
             name: str | None = None) -> "PPOAgent":
        """The model saved at ``path`` (.npz). ValueError for a missing file, a file that is
        not a model, or one made for another observation layout or action space. Agents
        loaded from files of the same contents share their arrays,
        read-only (``_LOADED``): a server's hundreds of live games with a ``ppo`` seat hold
        one copy of the weights, not 3.6 MB per seat."""
        p = Path(path)
        _check_temperature(temperature)
        name = name or f"ppo:{p.name}"
        try:  # by content: a file written again (a training run's final.npz) is read again
            key = (cls, hashlib.sha256(p.read_bytes()).hexdigest()) if p.stat().st_size <= _LOADED_FILE_BYTES else None
        except OSError:  # missing, a directory, unreadable: read_npz_file names the problem
            key = None
        with _LOADED_LOCK:
            proto = _LOADED.get(key) if key is not None else None
            if proto is not None:
                _LOADED.move_to_end(key)
        if proto is None:
            proto = cls._read(p)
            if key is not None:
                proto._freeze()
                with _LOADED_LOCK:
                    _LOADED[key] = proto
                    while len(_LOADED) > _LOADED_MAX:
                        _LOADED.popitem(last=False)
        return proto._twin(temperature, seed, name)

    @classmethod
    def _read(cls, p: Path) -> "PPOAgent":
        arrays, meta = read_npz_file(p, "PPO model file", "model file", "a Space Mission PPO policy")
        cls._check_metadata(meta, f"model {shown_path(p)}")
        try:
            return cls(arrays, meta, name=f"ppo:{p.name}")
        except ValueError as exc:  # the arrays: name the file
            raise ValueError(f"model {shown_path(p)}: {cut_long_words(str(exc))}") from None

    def _freeze(self) -> None:
        """Make the arrays read-only: they are shared by every agent loaded from the file."""
        for a in [*self.params.values(), *self._w_t, *self._b, self._active]:
            a.flags.writeable = False

    def _twin(self, temperature: float, seed: int | None, name: str) -> "PPOAgent":
        """A new agent on this one's arrays (shared, read-only) with its own metadata, heuristic
        prior (it keeps state between calls), generator, temperature and name."""
        agent = object.__new__(type(self))
        agent.__dict__.update(self.__dict__)
        agent.metadata, agent.params = copy.deepcopy(self.metadata), dict(self.params)
        agent._w_t, agent._b = list(self._w_t), list(self._b)
        if self._prior is not None:
            from .ppo_prior import HeuristicPrior

            agent._prior = HeuristicPrior.from_description(self.metadata["prior"])
        agent.temperature, agent.name, agent._shipped_players = _check_temperature(temperature), name, None
        agent.seed(seed)
        return agent

    @classmethod
    def shipped_path(cls, num_players: int = 2, game: str = DEFAULT_GAME) -> Path:
        """The shipped model file of ``game`` for ``num_players`` (SHIPPED_BY_GAME);
        ValueError naming the player counts that have one."""
        shipped = SHIPPED_BY_GAME.get(get_game(game).name, {})
        if num_players not in shipped:
            raise ValueError(f"no shipped PPO model for {num_players}-player {get_game(game).description.title} "
                             f"({game!r}); shipped: {sorted(shipped)} players (train one: spacemission train "
                             f"--game {game} --players {num_players}, then ppo:PATH)")
        return shipped_data_path(shipped[num_players], f"{num_players}-player PPO model")

    @classmethod
    def load_shipped(cls, num_players: int | None = None, *, temperature: float = 0.0,
                     seed: int | None = None, game: str = DEFAULT_GAME) -> "PPOAgent":
        """The pretrained model of ``game`` shipped in the package (agents/spacemission_agents/data/,
        card beside it). ``num_players=None``: the one for the fewest players, replaced at
        ``bind`` by the shipped model for the game's player count; ValueError there when
        none fits."""
        shipped = SHIPPED_BY_GAME.get(get_game(game).name, {})
        first = min(shipped) if shipped else 0
        agent = cls.load(cls.shipped_path(first if num_players is None else num_players, game),
                         temperature=temperature, seed=seed, name="ppo")
        agent._shipped_players = "auto" if num_players is None else num_players
        return agent

    def save(self, path: str | os.PathLike[str]) -> Path:
        """Write the model (params + metadata) to ``path`` (.npz, compressed)."""
        return save_npz_file(path, self.metadata, self.params)

    # --- the opponent protocol ---------------------------------------------------------
    @property
    def game(self) -> str:
        """The game the model plays (files without one are Space Mission's)."""
        return self.metadata.get("game", DEFAULT_GAME)

    @property
    def observation_type(self) -> str:  # type: ignore[override]  # read-only (BasePolicy: a class attribute)
        return self.metadata["observation_type"]

    def bind(self, config: BindConfig) -> None:
        """Refuse a game the model was not trained for (ValueError naming both). ``config``:
        what the other bots of the game take (games.bind_players, with the same errors): a
        GameConfig, any object with its fields or a mapping with those keys, ``num_players``
        required (``game`` left out: the model's; ``rules`` / ``max_rounds``: the game's
        defaults)."""
        m = self.metadata
        config = bind_config(config, self.game, f"PPO model {shown(self.name)}")
        other = None
        if self._shipped_players == "auto" and config.num_players != m["num_players"]:
            other = type(self).load_shipped(config.num_players, temperature=self.temperature, game=self.game)
            m = other.metadata  # taken below once it fits: a refused game leaves the agent as it was
        want = (m["num_players"], m["rules"], m["max_rounds"])
        have = (config.num_players, config.rules, config.max_rounds)
        if have != want and self._shipped_players is not None and have[0] == want[0]:
            raise ValueError(f"no shipped PPO model fits this game ({have[0]} players, rules {have[1]!r}, max_rounds "
                             f"{have[2]}): the shipped {self.game!r} models play rules {want[1]!r} with max_rounds "
                             f"{want[2]} (train one: spacemission train --game {self.game} --players {have[0]} "
                             f"--rules {have[1]} --max-rounds {have[2]}, then ppo:PATH)")
        if have != want:
            raise ValueError(f"PPO model {shown(self.name)} was trained for {want[0]} players, rules {want[1]!r}, "
                             f"max_rounds {want[2]}; this game has {have[0]} players, rules {have[1]!r}, "
                             f"max_rounds {have[2]}")
        if other is not None:
            self.__dict__.update({k: v for k, v in other.__dict__.items() if k not in ("_rng", "name")})
            self._shipped_players = "auto"

    def seed(self, seed: int | None = None) -> None:
        self._rng = np.random.default_rng(check_seed(seed))

    @property
    def prior(self):
        """The model's :class:`~spacemission_agents.ppo_prior.HeuristicPrior`, or None."""
        return self._prior

    def _check_players(self, obs: np.ndarray) -> None:
        """ValueError unless every row is an observation of a game with the model's player
        count: the observation has the same size for every count, so a 2-player model given
        a 3-player game's observations played on, reading them as a 2-player game's. Two
        columns of the seat_present block (1 for each seat in the game) tell, once the block
        is that of a game of the game's player counts (engine_common.check_seat_present, as
        the other bots check it: a row no engine writes is refused as such, and the count
        named below is a real one); a game without the block is not checked."""
        if self._seat_block is None:
            return
        start, stop = self._seat_block
        d = get_game(self.game).description
        check_seat_present(obs[:, start:stop], f"PPO model {shown(self.name)}", d.min_players, d.max_players)
        n = self.metadata["num_players"]
        ok = obs[:, start + n - 1] == 1
        if start + n < stop:
            ok &= obs[:, start + n] == 0
        if not ok.all():
            row = int(np.flatnonzero(~ok)[0])
            raise ValueError(f"PPO model {shown(self.name)} plays {n}-player games, but observation row {row} is of a "
                             f"{int(obs[row, start:stop].sum())}-player game (its seat_present block); bind the "
                             f"agent to the game (agent.bind(GameConfig(...))): the shipped 'ppo' then takes the "
                             f"model for the game's player count")

    def logits(self, observations: np.ndarray, action_masks: np.ndarray | None = None) -> np.ndarray:
        """float32 [N, 100] action logits for int8 (or float) observations [N, D]. A model
        with a prior needs the masks too (the heuristic plans over the legal actions)."""
        obs = np.asarray(observations)
        if obs.ndim != 2 or obs.shape[1] != self.metadata["observation_size"]:
            raise ValueError(f"observations must have shape [N, {self.metadata['observation_size']}] "
                             f"({self.observation_type!r}), got {list(obs.shape)}")
        self._check_players(obs)
        codes = None
        if self._prior is not None:
            if action_masks is None:
                raise ValueError("this model has a heuristic prior: logits(observations, action_masks) needs the masks")
            codes = self._prior(obs.astype(np.int8, copy=False), action_masks)
        return self._forward(obs, codes)

    def _forward(self, obs: np.ndarray, codes: np.ndarray | None) -> np.ndarray:
        """The logits of checked observations [N, D] and, with a prior, its int8 codes [N, A]."""
        x = obs[:, self._active].astype(np.float32)
        if codes is not None:
            codes = codes.astype(np.float32)
            x = np.concatenate([x, codes], axis=1)  # scaled to 1 + codes / 80 by the first layer (_prepare)
        last = len(self._w_t) - 1
        with one_blas_thread():
            for i, (wt, b) in enumerate(zip(self._w_t, self._b)):
                x = x @ wt
                x += b
                if i < last:
                    np.maximum(x, 0.0, out=x)
        if codes is not None:
            x += (self._beta * STEP_POINTS) * codes
        return x

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        observations = np.asarray(observations)
        if observations.ndim != 2:
            raise ValueError(f"observations must have shape [N, {self.metadata['observation_size']}] "
                             f"({self.observation_type!r}), got {list(observations.shape)}")
        masks = np.asarray(action_masks)
        if masks.ndim != 2 or masks.shape[1] != self._num_actions or len(masks) != len(observations):
            raise ValueError(f"action masks must have shape [{len(observations)}, {self._num_actions}], "
                             f"got {list(masks.shape)}")
        legal = check_masks(masks)  # 0/1 or bool values only
        if not legal.any(axis=1).all():
            raise ValueError(f"an action mask has no legal action (rows {np.flatnonzero(~legal.any(axis=1))[:8].tolist()})")
        z = np.where(legal, self.logits(observations, legal), -np.inf)
        if self.temperature == 0.0:
            return np.argmax(z, axis=1).astype(np.int64)
        z = (z - z.max(axis=1, keepdims=True)) / self.temperature
        p = np.exp(z)
        cdf = np.cumsum(p, axis=1)
        u = (1.0 - self._rng.random(len(z)))[:, None] * cdf[:, -1:]  # in (0, total]: never an illegal id
        a = (cdf < u).sum(axis=1)
        return np.minimum(a, self._num_actions - 1).astype(np.int64)

    def _act_planned(self, obs: np.ndarray, legal: np.ndarray, plan_values: np.ndarray) -> np.ndarray:
        """act_batch's greedy actions for rows a caller has checked (int8 observations [N, D],
        bool masks ``legal`` [N, A] with a legal action in each) whose heuristic plan values
        [N, A] (the bot's ``last_values`` for these rows) it has computed already, with a bot
        that plans as the prior's does (``prior.shares_plans_with``): the search bot's prior
        plans the very decision it asks this model about, so the model does not plan it again.
        The same actions as act_batch (tests/agents/test_search_actions_fixed.py); only a
        greedy model with a prior, and nothing is checked here."""
        assert self._prior is not None and self.temperature == 0.0, "_act_planned: a greedy model with a prior only"
        self._check_players(obs)
        z = np.where(legal, self._forward(obs, self._prior._code(plan_values, legal)), -np.inf)
        return np.argmax(z, axis=1).astype(np.int64)

    def __repr__(self) -> str:
        m = self.metadata
        t = f", temperature={self.temperature}" if self.temperature else ""
        p = ", heuristic prior" if self._prior is not None else ""
        g = "" if self.game == DEFAULT_GAME else f"{self.game}, "
        return f"PPOAgent({self.name!r}, {g}{m['num_players']} players, {m['rules']}{p}{t})"
