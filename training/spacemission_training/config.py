"""Every hyperparameter of a training run in one dataclass, read from defaults, then an
optional config file (TOML or JSON, the same keys), then command-line flags (each field
is a flag: ``num_envs`` -> ``--num-envs``). The resolved values, the command line and
the package versions are saved with the run (``run_dir/config.json``)."""
from __future__ import annotations

import contextvars
import numbers
import os
import platform
import re
import sys
from dataclasses import dataclass, field, fields

from spacemission_env.checks import INDEX_LIMIT, SettingTypeError, check_batch_memory, cut_long_words, shown
from spacemission_env.env_common import MIN_ENV_BYTES

from .device import DEVICE_PATTERN
from .run_paths import check_cache_file, check_path_kind, check_path_name

__all__ = ["GAME_DEFAULTS", "TrainConfig", "bind_agent_specs", "for_game", "game_defaults", "versions"]

# the command line and the options files (parse_args, read_options_file, ...) are config_cli.py's;
# they were this module's, and are still importable from it (__getattr__ below)
_CLI_NAMES = frozenset({"EXAMPLES", "RESUME_OVERRIDES", "add_options", "build_parser", "field_help", "from_file",
                        "options_named", "parse_args", "read_options_file", "resume_config"})


def __getattr__(name: str):
    """The names that moved to config_cli.py (``from .config import parse_args`` still works);
    imported when first asked for, as config_cli imports this module."""
    if name in _CLI_NAMES:
        from . import config_cli

        return getattr(config_cli, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# set while a resumed run's configuration is built (TrainConfig.resumed): the files read only
# at a run's start (init_from, bc_cache, the opponents' and bc_teacher's agents) are not checked
_RESUMING: contextvars.ContextVar[bool] = contextvars.ContextVar("resuming", default=False)

MAX_SEED = 2**32 - 2  # numpy's global seed takes < 2**32, and the run also seeds with seed + 1
# eval_seed is an arena seed (0..2**32 - 1, spacemission_agents.arena.SEED_LIMIT; 0..2**31 - 1 before
# 2026-11-27), and the SB3 trainer's final evaluation plays eval_seed + 1: a larger one was accepted and
# the run died at its first evaluation
MAX_EVAL_SEED = 2**32 - 2


def spec_file(spec: str, game: str) -> str | None:
    """The model file an agent spec reads (``ppo:PATH``), or None (a named bot, or a spec that
    does not parse: its check names it elsewhere)."""
    from spacemission_agents.registry import parse_spec

    try:
        return parse_spec(spec, game)[1] or None
    except ValueError:
        return None


def at_least(cfg, low, *names) -> list[tuple[bool, str]]:
    """(ok, message) per field of ``cfg`` that must be >= ``low``: each names the field and its value."""
    return [(getattr(cfg, k) >= low, f"{k} must be >= {low}, got {getattr(cfg, k)!r}") for k in names]


def above(cfg, low, *names) -> list[tuple[bool, str]]:
    """(ok, message) per field of ``cfg`` that must be > ``low``."""
    return [(getattr(cfg, k) > low, f"{k} must be > {low}, got {getattr(cfg, k)!r}") for k in names]


# torch threads: OpenMP failed to start 20,000 here, and 100,000 crashed the run (a segfault in
# the network's orthogonal initialisation) after it had written its config.json
MAX_THREADS = 1024


def threads_at_most(cfg) -> tuple[bool, str]:
    """(ok, message): ``threads`` at most MAX_THREADS."""
    return (cfg.threads <= MAX_THREADS, f"threads must be in 1..{MAX_THREADS} (torch's threads: far more failed to "
                                        f"start in OpenMP, or crashed it), got {cfg.threads!r}")


def seed_range_message(cfg) -> str:
    """The message of a ``seed`` outside 0..MAX_SEED or an ``eval_seed`` outside
    0..MAX_EVAL_SEED (the same range), naming the value(s)."""
    bad = [f"{n}={getattr(cfg, n)}" for n, top in (("seed", MAX_SEED), ("eval_seed", MAX_EVAL_SEED))
           if not 0 <= getattr(cfg, n) <= top]
    return (f"seed and eval_seed must be in 0..{MAX_SEED} (numpy's global seed is below 2**32 and the run also uses "
            f"seed + 1; eval_seed is an arena seed, below 2**32, and the final evaluation plays eval_seed + 1), "
            f"got {', '.join(bad)}")


def seeds_in_range(cfg) -> bool:
    """``seed`` in 0..MAX_SEED and ``eval_seed`` in 0..MAX_EVAL_SEED."""
    return 0 <= cfg.seed <= MAX_SEED and 0 <= cfg.eval_seed <= MAX_EVAL_SEED


def _h(text: str, **kw):
    return field(metadata={"help": text}, **kw)


def check_field_types(cfg) -> None:
    """Each field of the configuration dataclass ``cfg`` as its annotation says (``int``,
    ``float``, ``str``, ``bool``), as a config file may give anything: a whole number
    written as a float (1e6 steps) becomes an int, an int a float. A value of another type
    (``num_envs="8"``, ``lr=None``, ``steps=1.5``) is a checks.SettingTypeError (a
    ValueError and a TypeError, as the env's settings raise), one of the right type that
    no field holds (a float's nan or inf, an int past int64) a ValueError; each names the
    option and the value."""
    for f in fields(cfg):
        v = getattr(cfg, f.name)
        finite = True  # a float field's number, once it is one: finite (else a ValueError, not a wrong type)
        if f.type == "bool":
            ok = isinstance(v, bool)
        elif f.type == "str":
            ok = isinstance(v, str)
        elif isinstance(v, bool) or not isinstance(v, numbers.Real):  # numpy numbers too
            ok = False
        elif f.type == "int":
            try:
                ok = isinstance(v, numbers.Integral) or float(v).is_integer()
            except OverflowError:  # a whole Fraction past float's range: still a whole number
                ok = v == int(v)  # type: ignore[call-overload]  # (numbers.Real's stubs: no __int__; every Real has one)
            if ok and abs(v) > INDEX_LIMIT:  # type: ignore[operator]  # the step counters, numpy and torch hold int64
                raise ValueError(f"option {f.name} must be an integer in -{INDEX_LIMIT}..{INDEX_LIMIT}, got {shown(v)}")
            if ok:
                v = int(v)  # type: ignore[call-overload]
        else:  # float
            ok = True
            try:
                v = float(v)
            except OverflowError:  # an int past float's range (a config file's 400 digits)
                finite = False
            else:
                finite = v == v and abs(v) != float("inf")
        if not ok or not finite:
            kind = {"int": "an integer", "float": "a finite number", "str": "a string", "bool": "true or false"}[f.type]  # type: ignore[index]  # a str (PEP 563)
            error = SettingTypeError if not ok else ValueError
            raise error(f"option {f.name} must be {kind}, got {shown(getattr(cfg, f.name))}")
        setattr(cfg, f.name, v)


def bind_agent_specs(specs: list[tuple[str, str]], config) -> list:
    """The agents of ``specs`` ((option, spec) pairs), each made for ``config``'s game and
    bound to it; ValueError "option OPTION: ..." for the first that cannot play it. The
    trainers call it before a run starts: the pool is built after run_dir is written, the
    evaluations after hours of training."""
    from spacemission_agents.registry import make_agent

    agents = []
    for option, spec in specs:
        try:
            agent = make_agent(spec, game=config.game)
            bind = getattr(agent, "bind", None)  # an optional hook: a MODULE:CLASS agent may have none
            if callable(bind):
                bind(config)
        except (ValueError, TypeError) as exc:  # the agent's message may echo a long spec whole
            raise ValueError(f"option {option}: {cut_long_words(str(exc))}") from None
        agents.append(agent)
    return agents


@dataclass
class TrainConfig:
    # the game
    # game, players and rules: {games}, {players}, {rules} are each registered game's (field_help)
    game: str = _h("the game, one of {games} (it changes the defaults shown for it below)", default="spacemission")
    players: int = _h("players per game, the game's own range ({players}); the learner takes one seat, opponents "
                      "the others", default=2)
    rules: str = _h("rule set, the game's own ({rules})", default="yucata")
    max_rounds: int = _h("round limit (R-E3)", default=100)
    observation_type: str = _h("the learner's observation: info, recall or seer", default="recall")
    # budget and machine
    steps: int = _h("learner decisions to train for (env steps over all games), rounded up to whole rollouts "
                    "of num_envs x n_steps", default=3_000_000)
    seed: int = _h("seed of everything (env, pool, torch, numpy): same seed, same machine -> same weights", default=0)
    threads: int = _h("torch threads, 1..1024 (1 is fastest for these small networks on a busy 2-core machine)",
                      default=1)
    device: str = _h("torch device of the network: cpu, cuda, cuda:N, or auto (cuda when torch sees one, else cpu); "
                     "the default network is fastest on cpu (docs/training.md, 'On a GPU'); a resume may change it",
                     default="cpu")
    run_dir: str = _h("output directory (default: runs/ppo-<P>p-s<seed>; another game's: "
                      "runs/ppo-<game>-<P>p-s<seed>)", default="")
    # environment and reward
    num_envs: int = _h("games played in parallel (one engine batch)", default=256)
    reward: str = _h("win (rank reward) or score (score margin / 50)", default="win")
    shaping: bool = _h("potential-based shaping with the provisional score (docs/interfaces.md)", default=True)
    shaping_gamma: float = _h("shaping's discount; 0 means the learner's gamma (the only value that leaves "
                              "optimal policies unchanged)", default=0.0)
    # PPO (sb3-contrib MaskablePPO)
    n_steps: int = _h("steps per game between updates (rollout = num_envs * n_steps)", default=128)
    batch_size: int = _h("minibatch size", default=4096)
    epochs: int = _h("passes over each rollout", default=4)
    lr: float = _h("Adam learning rate (linearly annealed to lr * lr_final)", default=2e-4)
    lr_final: float = _h("final learning rate as a fraction of lr", default=0.25)
    gamma: float = _h("discount per learner decision", default=0.995)
    gae_lambda: float = _h("GAE lambda", default=0.95)
    clip: float = _h("PPO clip range", default=0.2)
    ent_coef: float = _h("entropy bonus", default=0.003)
    vf_coef: float = _h("value loss weight", default=0.5)
    max_grad_norm: float = _h("gradient norm clip", default=0.5)
    target_kl: float = _h("stop an update's epochs when the KL exceeds 1.5x this (0: off)", default=0.03)
    # network
    trunk: str = _h("shared layer sizes after the input, comma-separated", default="256")
    pi: str = _h("policy head layer sizes", default="128")
    vf: str = _h("value head layer sizes", default="128")
    prior: str = _h("policy prior: 'heuristic' (the heuristic bot's plan values as an input and a bias on the "
                    "logits, agents/spacemission_agents/ppo_prior.py) or '' (none)", default="heuristic")
    prior_beta: float = _h("initial weight of the prior's plan values (per point) in the logits", default=3.0)
    # warm start: behaviour cloning
    bc_teacher: str = _h("agent spec to clone before PPO ('' to start from scratch)", default="heuristic")
    bc_samples: int = _h("teacher decisions recorded", default=250_000)
    bc_epochs: int = _h("passes over the teacher data", default=6)
    bc_lr: float = _h("learning rate of the cloning phase", default=1e-3)
    bc_batch: int = _h("minibatch of the cloning phase", default=1024)
    bc_cache: str = _h("an .npz file for the teacher data: loaded when it holds data collected with the same "
                       "settings (the ppo:PATH and init_from model files by their content, the prior by its "
                       "parameters, the environment version), else collected and saved there (its folder made; one that cannot be written is "
                       "refused before the run); another game's cache is refused ('' : not kept)",
                       default="")
    # fine-tuning a saved model instead of cloning a teacher
    init_from: str = _h("a model file (.npz, a PPOAgent) to fine-tune: its actor is loaded exactly (input features, "
                        "layers, prior_beta) and only a value head is fitted, on bc_samples decisions that the loaded "
                        "policy plays (bc_epochs passes); bc_teacher is then unused ('': a fresh network)", default="")
    # opponents
    opponents: str = _h("opponent groups and weights, NAME=WEIGHT,...: agent specs and 'self' (snapshots of the "
                        "learner); a ',' ends an item right after =NUMBER, unless what follows holds '/' before "
                        "any ':' (a path's: the ppo:PATH goes on), so a ppo:PATH may hold ',' and '='",
                        default="heuristic=0.35,greedy=0.15,self=0.4,kind-random=0.05,random=0.05")
    snapshot_every: int = _h("steps between snapshots added to the pool", default=250_000)
    max_snapshots: int = _h("snapshots kept (the oldest is replaced)", default=10)
    snapshot_temperature: float = _h("snapshots sample their moves at this temperature (0: greedy)", default=1.0)
    priority: float = _h("prioritized opponents: weight x (1 - learner's score) ** priority (0: off)", default=1.0)
    # evaluation, logs, checkpoints
    eval_every: int = _h("steps between arena evaluations (0: only at the end)", default=500_000)
    eval_games: int = _h("arena games per opponent in each evaluation", default=200)
    eval_opponents: str = _h("opponents of the evaluations, comma-separated specs", default="random,greedy,heuristic")
    eval_seed: int = _h("arena seed of the evaluations (the same deals every time; 0..4294967294, the final "
                        "evaluation plays eval_seed + 1)", default=2024)
    final_eval_games: int = _h("arena games per opponent in the evaluation at the end", default=400)
    checkpoint_every: int = _h("steps between checkpoints (run_dir/checkpoints/last.pt)", default=500_000)
    checkpoint_models: bool = _h("also save the actor at every checkpoint as run_dir/checkpoints/step_<N>.npz "
                                 "(a PPOAgent file: checkpoints can be compared in the arena)", default=False)
    tensorboard: bool = _h("write TensorBoard event files (run_dir/tb)", default=True)
    progress: str = _h("progress display: auto (a bar on a terminal), bar, lines", default="auto")
    stop_after_steps: int = _h("stop (as if killed) once this many steps are done, after checkpointing (tests)",
                               default=0)

    def __post_init__(self):
        from spacemission_env.games import GameConfig, get_game

        check_field_types(self)
        game = get_game(self.game)  # ValueError naming an unknown game
        # the game's own ranges of players, rules and rounds (GameConfigError naming the bad field)
        GameConfig(self.players, self.rules, self.max_rounds, game=game.name)
        checks = [
            *at_least(self, 1, "steps", "num_envs", "n_steps", "batch_size"),
            # a minibatch of one has no advantage spread to normalise: NaN logits, a crash in the first update
            (self.batch_size != 1, "batch_size must be >= 2 (PPO normalises the advantages within a minibatch)"),
            (0 < self.gamma <= 1, f"gamma must be in (0, 1], got {self.gamma!r}"),
            (0 <= self.gae_lambda <= 1, f"gae_lambda must be in [0, 1], got {self.gae_lambda!r}"),
            (0 <= self.shaping_gamma <= 1, f"shaping_gamma must be in [0, 1] (0: the learner's gamma), got "
                                           f"{self.shaping_gamma!r}"),
            (self.lr > 0, f"lr must be > 0, got {self.lr!r}"),
            (0 < self.lr_final <= 1, f"lr_final must be in (0, 1], got {self.lr_final!r}"),
            *at_least(self, 1, "snapshot_every", "checkpoint_every", "threads"),
            threads_at_most(self),
            *at_least(self, 0, "eval_every"),
            (re.fullmatch(DEVICE_PATTERN, self.device) is not None,
             f"device must be cpu, cuda, cuda:N or auto, got {shown(self.device)}"),
            (self.progress in ("auto", "bar", "lines"), f"progress must be auto, bar or lines, got {shown(self.progress)}"),
            *at_least(self, 0, "bc_samples", "bc_epochs", "stop_after_steps"),
            (self.prior in ("", "heuristic"), f"prior must be 'heuristic' or '' (none), got {shown(self.prior)}"),
            (self.prior_beta == self.prior_beta and abs(self.prior_beta) < 1e3,
             f"prior_beta must be a finite number (|prior_beta| < 1000), got {self.prior_beta!r}"),
            *at_least(self, 1, "epochs", "bc_batch", "max_snapshots"),
            *above(self, 0, "clip", "max_grad_norm", "bc_lr"),
            *at_least(self, 0, "ent_coef", "vf_coef", "target_kl", "snapshot_temperature"),
            (0 <= self.priority < 100, f"priority must be in [0, 100) (0: off), got {self.priority!r}"),
            (seeds_in_range(self), seed_range_message(self)),
            (self.eval_games >= 1 or not self.eval_every, f"eval_games must be >= 1 (eval_every 0: no evaluations "
                                                          f"before the end), got {self.eval_games!r}"),
            (self.final_eval_games >= 0, f"final_eval_games must be >= 0 (0: no evaluation at the end), got "
                                         f"{self.final_eval_games!r}"),
            (self.reward in ("win", "score"), f"reward must be win or score, got {shown(self.reward)}"),
            (self.observation_type in game.encoding.OBSERVATION_TYPES,
             f"observation_type must be one of {', '.join(game.encoding.OBSERVATION_TYPES)}, got "
             f"{shown(self.observation_type)}"),
        ]
        if self.prior == "heuristic":
            from spacemission_agents.ppo_prior import prior_observation_type

            wanted = prior_observation_type(game.name)  # ValueError naming a game without a prior
            checks.append((self.observation_type == wanted, f"the heuristic prior reads the {wanted!r} observation, "
                                                          f"got observation_type {shown(self.observation_type)}"))
        for ok, message in checks:
            if not ok:
                raise ValueError(f"bad training configuration: {message}")
        check_batch_memory(self.num_envs, MIN_ENV_BYTES, "num_envs")  # before the run's folder is written
        for name in ("trunk", "pi", "vf"):
            self.layers(name)
        if self.prior == "heuristic" and not self.layers("trunk"):  # the prior's inputs join the trunk's output
            raise ValueError(f"trunk: a policy with the heuristic prior needs at least one trunk layer, got "
                             f"{shown(self.trunk)} (or --prior '' for none)")
        check_path_kind("run_dir", self.run_dir, directory=True)
        resuming = _RESUMING.get()
        if not resuming:  # read only at a run's start (a resumed run has them in its checkpoint)
            check_path_kind("bc_cache", self.bc_cache, directory=False)
            check_cache_file(self.bc_cache, game.name)
            if self.init_from:
                from .init_from import check

                check_path_name("init_from", self.init_from)
                check(self)  # ValueError naming what does not fit the run
        self._check_agents(resuming)

    @classmethod
    def resumed(cls, **values) -> TrainConfig:
        """The configuration of a resumed run: checked as any other, except for the files
        only read at a run's start (``init_from``, ``bc_cache``, the ``opponents``' and
        ``bc_teacher``'s agents: the checkpoint holds the actor and the pickled pool), which
        may have moved or changed since without harm."""
        token = _RESUMING.set(True)
        try:
            return cls(**values)
        finally:
            _RESUMING.reset(token)

    def start_files(self) -> list[tuple[str, str]]:
        """(option, path) of the files this run reads only at its start: ``init_from`` and the
        model files of ``ppo:PATH`` agents among ``opponents`` and ``bc_teacher``."""
        from .pool import SELF, parse_weights

        specs = [("opponents", g) for g in parse_weights(self.opponents) if g != SELF]
        if self.bc_teacher and self.bc_samples and not self.init_from:
            specs.append(("bc_teacher", self.bc_teacher))
        out = [("init_from", self.init_from)] if self.init_from else []
        return out + [(option, path) for option, spec in specs if (path := spec_file(spec, self.game))]

    def _check_agents(self, resuming: bool = False) -> None:
        """ValueError naming the option whose agent specs (opponents, eval_opponents, bc_teacher)
        name no agent that plays this game: found now, not after the run has started (the
        pool is built after run_dir is written, evaluations after hours of training).
        ``resuming``: only eval_opponents' agents are made (a resumed run's pool is in its
        checkpoint, and the teacher played before its first one)."""
        from spacemission_env.games import GameConfig

        from .pool import SELF, parse_weights

        try:
            groups = parse_weights(self.opponents)
        except ValueError as exc:  # parse_weights cuts the values it names (checks.shown)
            raise ValueError(f"option opponents: {exc}") from None
        specs = [] if resuming else [("opponents", g) for g in groups if g != SELF]
        if self.eval_every or self.final_eval_games:
            evals = [("eval_opponents", s.strip()) for s in self.eval_opponents.split(",") if s.strip()]
            if not evals:  # ",," or "": the evaluations would play nobody
                raise ValueError(f"option eval_opponents: {shown(self.eval_opponents)} names no agent, but there are "
                                 f"evaluations (eval_every {self.eval_every}, final_eval_games {self.final_eval_games})")
            specs += evals
        if self.bc_teacher and self.bc_samples and not self.init_from and not resuming:
            specs.append(("bc_teacher", self.bc_teacher))
        bind_agent_specs(specs, GameConfig(self.players, self.rules, self.max_rounds, game=self.game))

    def layers(self, name: str) -> list[int]:
        text = str(getattr(self, name)).strip()
        try:
            sizes = [int(x) for x in text.split(",") if x.strip()]
        except ValueError:
            raise ValueError(f"{name} must be comma-separated layer sizes such as 256,128, got {shown(text)}") from None
        if any(s < 1 for s in sizes) or (name != "trunk" and not sizes and not self.layers("trunk")):
            raise ValueError(f"{name}: layer sizes must be positive, got {shown(text)}")
        return sizes

    @property
    def env_gamma(self) -> float:
        return self.shaping_gamma or self.gamma

    def as_dict(self) -> dict:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# the defaults that differ from Space Mission's for each other game (--game NAME applies
# them under the config file and the flags): its rule set and length, the observation its
# heuristic prior reads (ppo_prior.py), its own bots, and a budget for its slower engine
GAME_DEFAULTS: dict[str, dict] = {
    "spacemission": {},
    "red_planet": dict(rules="first_edition", max_rounds=10, observation_type="info", players=4,
                       opponents="heuristic=0.35,greedy=0.2,random=0.05,self=0.4", num_envs=128, n_steps=64,
                       batch_size=2048, bc_samples=40_000, snapshot_every=50_000, eval_every=0, eval_games=100,
                       final_eval_games=100, checkpoint_every=50_000),
}


def game_defaults(game: str) -> dict:
    """The values ``--game NAME`` puts in place of Space Mission's defaults: GAME_DEFAULTS,
    or for a game of the protocol without an entry there, what its ``Game`` says (rule set,
    length, fewest players) with no heuristic prior or teacher and the game-neutral
    ``random`` and ``self`` as opponents (ValueError naming the option and an unknown game;
    checks.SettingTypeError for a value that is not a string: a config file's ``game = [1]``
    was 'unhashable type')."""
    if not isinstance(game, str):
        raise SettingTypeError(f"option game must be a string, got {shown(game)}")
    if game not in GAME_DEFAULTS:
        from spacemission_env.games import get_game

        try:
            g = get_game(game)  # ValueError naming an unknown game and the known ones
        except ValueError as exc:
            raise ValueError(f"option game: {exc}") from None
        types = g.observation_types
        return dict(game=g.name, rules=g.rule_sets[0], max_rounds=g.default_max_rounds,
                    players=g.description.min_players, observation_type="recall" if "recall" in types else types[0],
                    prior="", bc_teacher="", opponents="random=0.5,self=0.5", eval_opponents="random")
    return dict(GAME_DEFAULTS[game], game=game)


def for_game(game: str, **values) -> TrainConfig:
    """A configuration of ``game`` with its defaults (GAME_DEFAULTS) under ``values``."""
    return TrainConfig(**{**game_defaults(game), **values})


def versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    import spacemission_env

    out = {"python": sys.version.split()[0], "platform": platform.platform(), "cpu_count": os.cpu_count(),
           "spacemission_env": spacemission_env.__version__}  # the code running, installed or not
    for name in ("numpy", "numba", "torch", "stable_baselines3", "sb3_contrib", "gymnasium"):
        try:
            out[name] = version(name.replace("_", "-") if name.startswith(("stable", "sb3")) else name)
        except PackageNotFoundError:
            out[name] = None
    # the float kernels torch chose for this CPU (DEFAULT, AVX2, AVX512, ...): one seed trains the
    # same weights on one machine, other weights where torch chooses other kernels
    try:
        import torch

        out["torch_cpu_capability"] = torch.backends.cpu.get_cpu_capability()
    except (ImportError, AttributeError):  # no torch, or one before 2.1
        out["torch_cpu_capability"] = None
    return out


def config_from_dict(d: dict, resuming: bool = False) -> TrainConfig:
    """A configuration from its saved values (``resuming``: as TrainConfig.resumed builds it)."""
    values = {**game_defaults(d.get("game", "spacemission")), **d}
    return TrainConfig.resumed(**values) if resuming else TrainConfig(**values)
