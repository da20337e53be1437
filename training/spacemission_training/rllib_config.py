"""The RLlib trainer's configuration (``RLlibConfig``, checked when built) and its command
line (``parse_args``, ``resume_config``): what ``spacemission train --backend rllib`` reads
before anything runs. The run itself is rllib.py; docs/training.md, "Training on Ray"."""
from __future__ import annotations

import argparse
import re
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path

from spacemission_env.checks import UsageParser, cut_long_words, shown, shown_path

from .config import (TrainConfig, above, at_least, bind_agent_specs, check_field_types, seed_range_message,
                     seeds_in_range, threads_at_most)
from .config_cli import add_options, parse_run_options, read_options_file
from .device import DEVICE_PATTERN
from .lifecycle import add_version_change_flag
from .rllib_checkpoint import RESUME_OVERRIDES, find_checkpoint
from .run_paths import check_path_kind, check_resume_dir

__all__ = ["EXAMPLES", "RLlibConfig", "build_parser", "game_defaults", "parse_args", "resume_config"]


RUNNER_SEED_LIMIT = 2**32 - 1  # the largest seed numpy's global generator takes (RLlib's env runners seed it)


def _h(text: str, **kw):
    return field(metadata={"help": text}, **kw)


def _same(name: str, **default):
    """The SB3 trainer's option ``name`` (its help, and its default unless given)."""
    f = TrainConfig.__dataclass_fields__[name]
    return field(default=default.get("default", f.default), metadata={"help": f.metadata["help"]})


@dataclass
class RLlibConfig:
    # the game
    game: str = _same("game")
    players: int = _same("players")
    rules: str = _same("rules")
    max_rounds: int = _same("max_rounds")
    observation_type: str = _h("observation of every seat: the bots read 'recall' (Space Mission), 'info' (Red Planet)",
                               default="recall")
    reward: str = _same("reward")
    shaping: bool = _same("shaping")
    # budget and cluster
    steps: int = _h("env steps sampled (all seats' decisions) to train for", default=1_000_000)
    seed: int = _h("seed of RLlib, the feature sample and the seat draws", default=0)
    run_dir: str = _h("output directory (default runs/rllib-<P>p-s<seed>; another game's: "
                      "runs/rllib-<game>-<P>p-s<seed>)", default="")
    num_env_runners: int = _h("Ray actors that play games (0: sample in the driver)", default=2)
    address: str = _h("Ray cluster to join: 'auto' (the one started on this machine by `ray start`), "
                      "HOST:PORT, or '' (start a local Ray)", default="")
    threads: int = _h("torch threads of the learner, 1..1024", default=1)
    device: str = _h("torch device of the learner (PPO's updates): cpu, cuda, cuda:N or auto (cuda when torch "
                     "sees one, else cpu); the env runners play on CPUs; a resume may change it", default="cpu")
    # PPO
    train_batch: int = _h("env steps per update (train_batch_size_per_learner)", default=4000)
    minibatch: int = _h("minibatch size", default=1000)
    epochs: int = _same("epochs")
    lr: float = _h("Adam learning rate", default=3e-4)
    gamma: float = _same("gamma")
    gae_lambda: float = _same("gae_lambda")
    clip: float = _same("clip")
    ent_coef: float = _same("ent_coef")
    vf_coef: float = _same("vf_coef")
    max_grad_norm: float = _same("max_grad_norm")
    # network (the SB3 trainer's default sizes)
    trunk: str = _same("trunk")
    pi: str = _same("pi")
    vf: str = _same("vf")
    # opponents
    opponents: str = _same("opponents")
    snapshot_every: int = _h("steps between snapshots (the oldest slot is replaced)", default=100_000)
    max_snapshots: int = _h("snapshot slots", default=4)
    # evaluation, logs, checkpoints
    eval_every: int = _h("steps between arena evaluations (0: only at the start and the end)", default=0)
    eval_games: int = _same("eval_games")
    eval_opponents: str = _same("eval_opponents")
    eval_seed: int = _same("eval_seed")
    checkpoint_every: int = _h("steps between checkpoints", default=200_000)
    tensorboard: bool = _same("tensorboard")
    progress: str = _same("progress")

    def layers(self, name: str) -> list[int]:
        """TrainConfig.layers: "256,128" -> [256, 128], ValueError naming the option."""
        return TrainConfig.layers(self, name)  # type: ignore[arg-type]  # it reads only the option named

    def __post_init__(self):
        from spacemission_env.games import GameConfig, GameConfigError, get_game

        from .pool import parse_weights

        check_field_types(self)
        try:  # the game's own ranges (players, rules, round limit), named by GameConfig
            self.game = get_game(self.game).name
            GameConfig(self.players, self.rules, self.max_rounds, game=self.game)
            if self.observation_type not in get_game(self.game).observation_types:
                raise ValueError(f"observation_type must be one of {get_game(self.game).observation_types}, "
                                 f"got {shown(self.observation_type)}")
        except GameConfigError as exc:  # keeps its field: the command line names the option
            raise GameConfigError(exc.field, f"bad RLlib training configuration: {exc}") from None
        except (ValueError, TypeError) as exc:
            raise ValueError(f"bad RLlib training configuration: {exc}") from None
        checks = [  # one field a check, named with its value
            *at_least(self, 1, "steps", "train_batch", "minibatch"),
            (self.minibatch <= self.train_batch, f"minibatch must be in 1..train_batch ({self.train_batch}), got "
                                                 f"{self.minibatch!r}"),
            *at_least(self, 1, "epochs", "threads", "snapshot_every", "checkpoint_every", "max_snapshots"),
            threads_at_most(self),
            *at_least(self, 0, "num_env_runners", "eval_every", "eval_games", "ent_coef", "vf_coef"),
            (0 < self.gamma <= 1, f"gamma must be in (0, 1], got {self.gamma!r}"),
            (0 <= self.gae_lambda <= 1, f"gae_lambda must be in [0, 1], got {self.gae_lambda!r}"),
            *above(self, 0, "lr", "clip", "max_grad_norm"),
            (re.fullmatch(DEVICE_PATTERN, self.device) is not None,
             f"device must be cpu, cuda, cuda:N or auto, got {shown(self.device)}"),
            (self.progress in ("auto", "bar", "lines"), f"progress must be auto, bar or lines, got {shown(self.progress)}"),
            (seeds_in_range(self), seed_range_message(self)),
            # RLlib seeds env runner k's numpy (np.random.seed: below 2**32) with seed + k, k in 1..num_env_runners
            # (0: the driver's): a larger seed passed here and every env runner died as Ray started them
            (self.num_env_runners < 0 or self.seed + self.num_env_runners <= RUNNER_SEED_LIMIT,
             f"seed must be in 0..{RUNNER_SEED_LIMIT - max(self.num_env_runners, 0)} with num_env_runners="
             f"{self.num_env_runners} (RLlib seeds env runner k's numpy with seed + k, below 2**32), got "
             f"seed={self.seed}"),
            (self.reward in ("win", "score"), f"reward must be win or score, got {shown(self.reward)}"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(f"bad RLlib training configuration: {message}")
        parse_weights(self.opponents)  # its messages cut the values they name (checks.shown)
        for name in ("trunk", "pi", "vf"):
            self.layers(name)
        from spacemission_agents.arena_ray import check_address

        try:
            check_address(self.address)
        except ValueError as exc:
            raise ValueError(f"option address: {cut_long_words(str(exc))}") from None
        check_path_kind("run_dir", self.run_dir, directory=True)
        self._check_agents()

    def _check_agents(self) -> None:
        """ValueError naming the option whose agent specs (the bots of opponents, and
        eval_opponents when there are evaluations) name no agent of this game, or a bot that
        reads another observation than observation_type: found now, not on the env runners
        or at the first evaluation, after Ray has started."""
        from spacemission_env.games import GameConfig

        from .pool import SELF, parse_weights

        specs = [("opponents", g) for g, w in parse_weights(self.opponents).items() if g != SELF and w > 0]
        if self.eval_games:
            evals = [("eval_opponents", s.strip()) for s in self.eval_opponents.split(",") if s.strip()]
            if not evals:  # ",," or "": the evaluations would play nobody
                raise ValueError(f"option eval_opponents: {shown(self.eval_opponents)} names no agent, but there are "
                                 f"evaluations (eval_games {self.eval_games})")
            specs += evals
        agents = bind_agent_specs(specs, GameConfig(self.players, self.rules, self.max_rounds, game=self.game))
        for (option, spec), agent in zip(specs, agents):
            wanted = getattr(agent, "observation_type", None)  # as BotModule checks on the env runners
            if option == "opponents" and getattr(agent, "uses_observation", True) and wanted not in (
                    None, self.observation_type):
                raise ValueError(f"option opponents: {shown(spec)} reads {wanted!r} observations; observation_type is "
                                 f"{shown(self.observation_type)}")

    def as_dict(self) -> dict:
        return asdict(self)


# --- command line ---------------------------------------------------------------------------------
EXAMPLES = """examples:
  spacemission train --backend rllib --steps 200000 --num-env-runners 2      # local Ray, 2 env runners
  ray start --head --num-cpus 8                                             # then, on every other machine:
  ray start --address HEAD_IP:6379 --num-cpus 8
  spacemission train --backend rllib --address auto --num-env-runners 15     # on the head node
  spacemission train --backend rllib --resume runs/rllib-2p-s0 --steps 400000
  spacemission train --backend rllib --game red_planet --players 4 --steps 200000  # the other game
docs/training.md, "Training on Ray"."""

def build_parser(prog: str = "spacemission train --backend rllib") -> argparse.ArgumentParser:
    ap = UsageParser(prog=prog, description="Multi-agent PPO self-play on Ray RLlib (new API stack) on the "
                     "PettingZoo env, with action masking, bots and snapshots of the learner as opponents.",
                     epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", default=None, help=".json or .toml file with any of the options below")
    ap.add_argument("--resume", default=None, metavar="RUN_DIR",
                    help=f"continue the run in RUN_DIR from its last checkpoint ({', '.join(RESUME_OVERRIDES)} may change)")
    add_version_change_flag(ap)
    add_options(ap, RLlibConfig)  # as the SB3 trainer's
    return ap


def game_defaults(game: str) -> dict:
    """What ``--game NAME`` puts in place of Space Mission's defaults: the SB3 trainer's
    GAME_DEFAULTS for the options this trainer has (rules, round limit, observation type,
    players, opponents, intervals), ValueError naming an unknown game."""
    from .config import game_defaults as sb3_defaults

    names = {f.name for f in fields(RLlibConfig)}
    return {k: v for k, v in sb3_defaults(game).items() if k in names}


def parse_args(argv: list[str] | None = None) -> tuple[RLlibConfig, str | None]:
    """(config, resume run dir or None). Precedence: defaults < the game's defaults
    (``--game``, from the file or the flags) < --config file < flags."""
    names = {f.name for f in fields(RLlibConfig)}
    return parse_run_options(build_parser(), argv, RLlibConfig, lambda path: read_options_file(path, names),
                             game_defaults, resume_config, RESUME_OVERRIDES)


def resume_config(ap, run_dir: str, flags: dict, config_file: str | None) -> RLlibConfig:
    """The configuration of the RLlib run in ``run_dir`` (its config.json) with the options a
    resume may change (RESUME_OVERRIDES) from the ``--config`` file and ``flags`` (a flag wins
    over the file); a usage error for a folder that holds
    no RLlib run (naming the SB3 trainer's ``--resume`` for one of its runs), or a flag or
    ``--config`` option that differs from the saved value (one equal to it is accepted, so the
    command that started a run, with ``--resume`` added, continues it)."""
    names = {f.name for f in fields(RLlibConfig)}
    check_resume_dir(ap, run_dir)
    d = Path(run_dir)
    path = d / "config.json"
    if find_checkpoint(d) is None and (d / "checkpoints" / "last.pt").is_file():
        ap.error(f"--resume: {shown_path(run_dir)} is a run of the SB3 trainer (checkpoints/last.pt), not an RLlib run: "
                 f"resume it with spacemission train --resume {run_dir}")
    if not path.is_file():
        ap.error(f"--resume: no run in {shown_path(run_dir)} "
                 f"({'config.json missing' if d.is_dir() else 'no such directory'})")
    if find_checkpoint(d) is None:
        ap.error(f"--resume: no RLlib checkpoint in {shown_path(run_dir)} (checkpoints/rllib with its loop.json missing): "
                 f"nothing to resume; the run stopped before its first checkpoint: start it afresh after removing "
                 f"{shown_path(run_dir)}")
    try:
        saved = RLlibConfig(**read_options_file(str(path), names)).as_dict()
    except (ValueError, TypeError) as exc:
        ap.error(f"--resume: {path}: {exc}" if str(path) not in str(exc) else f"--resume: {exc}")
    given = {**(read_options_file(config_file, names) if config_file else {}), **flags}
    if given.get("run_dir") and Path(given["run_dir"]).resolve() == d.resolve():
        given["run_dir"] = saved["run_dir"]  # the run's own folder, however written
    bad = sorted(k for k, v in given.items() if k not in RESUME_OVERRIDES and v != saved.get(k))
    if bad:
        ap.error(f"--resume continues the saved configuration ({path}); only {', '.join(RESUME_OVERRIDES)} may be "
                 f"changed, got " + ", ".join(f"{k} {shown(given[k])} (saved: {shown(saved.get(k))})" for k in bad))
    # the options a resume may change, from the file and the flags (a flag wins), checked as
    # any configuration is (their types and ranges) by RLlibConfig
    return RLlibConfig(**{**saved, **{k: v for k, v in given.items() if k in RESUME_OVERRIDES}})
