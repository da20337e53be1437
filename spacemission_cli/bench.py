"""``spacemission bench``: how fast this machine runs the batched engine, an environment and
the bots (the installed package only; the benchmarks/ scripts of the repository go further)."""
from __future__ import annotations

import argparse
import json
import sys
import time

from spacemission_env.checks import shown

from ._args import UsageParser, int_arg

EXAMPLE = """examples:
  spacemission bench                                   all three, about 2 s each
  spacemission bench --only engine --batch 4096 --players 4
  spacemission bench --only agents --agents random,greedy,heuristic --seconds 1 --json
  spacemission bench --game red_planet --players 4        Red Planet: engines, VectorEnv, AEC env, bots

engine: random legal play on the game's batched engine (mask, acting player's observation,
  step, finished games restarted), in agent-steps (decisions) per second, with the same
  loop on its reference engine and the ratio; with --pgx-python (Space Mission only),
  pgx's connect-four at the same batch size (JAX on the CPU, from that interpreter) and
  the ratio, measured alternately in this run;
env: random play through the PettingZoo AEC env (spacemission_env.env(game=...), wrappers
  on), one game at a time, in agent-steps per second (every other game than Space Mission:
  the self-play VectorEnv too);
agents: each bot's decisions per second on positions from real games, one act() at a
  time and act_batch() on --agent-batch positions (spacemission_agents.arena_speed).

each game's engines (--game):
{engines}"""

PARTS = ("engine", "env", "agents")
DEFAULT_AGENTS = ("random", "kind-random", "greedy", "heuristic")  # those installed; search and ppo on request
DEFAULT_BATCH, DEFAULT_AGENT_BATCH = 1024, 256


def refuse_unused_options(args, ap) -> None:
    """A usage error for an option given for a part that --only leaves out (before: ignored
    without a word, a bad --agents spec too), then the sizes' defaults filled in."""
    batch_parts = ("engine",) if args.game == "spacemission" else ("engine", "env")
    for option, given, parts in (("--agents", args.agents is not None, ("agents",)),
                                 ("--agent-batch", args.agent_batch is not None, ("agents",)),
                                 ("--batch", args.batch is not None, batch_parts),
                                 ("--pgx-python", args.pgx_python is not None, ("engine",))):
        if given and not any(p in args.only for p in parts):
            ap.error(f"argument {option}: applies to {' and '.join(parts)}, which --only {','.join(args.only)} "
                     f"does not measure")
    args.batch = DEFAULT_BATCH if args.batch is None else args.batch
    args.agent_batch = DEFAULT_AGENT_BATCH if args.agent_batch is None else args.agent_batch


# --seconds, per figure (a run times several: the engines, the env, each agent): below the lower bound
# a loop may end before its first step (1e-9 s was a ZeroDivisionError); past the upper one (1e9 s was
# accepted) a run never ends in practice, and no figure gets steadier
MIN_SECONDS, MAX_SECONDS = 0.01, 600.0


def _positive(kind):
    def parse(text: str):
        if kind is int:
            value = int_arg(text)  # 'expected an integer', a 5000-digit value named cut
        else:
            try:
                value = kind(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"expected a number, got {shown(text)}") from None
        if not 0 < value < float("inf"):  # nan and inf too: a time of nan or inf s measures nothing or never ends
            raise argparse.ArgumentTypeError(f"must be {'a positive integer' if kind is int else '> 0 and finite'}, "
                                             f"got {shown(text)}")
        return value
    return parse


def _seconds(text: str) -> float:
    value = _positive(float)(text)
    if not MIN_SECONDS <= value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"must be {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds per figure (a run times "
                                         f"several), got {shown(text)}")
    return value


def _parts(text: str) -> list[str]:
    parts = [p.strip() for p in text.split(",") if p.strip()]
    bad = [p for p in parts if p not in PARTS]
    if bad or not parts:
        raise argparse.ArgumentTypeError(f"unknown part {bad[0] if bad else text!r}; choose from {', '.join(PARTS)} "
                                         "(comma-separated)")
    return parts


def _engines_text() -> str:
    """Each registered game's batched and reference engine modules."""
    from spacemission_env.games import GAMES, get_game

    lines = []
    for name in GAMES:
        g = get_game(name)
        batched, reference = getattr(g.engine, "__name__", None), getattr(g.rules, "__name__", None)
        lines.append(f"  {g.description.title}: " + (f"batched {batched}, reference {reference}" if batched and reference
                                                      else f"the engines of {GAMES[name]}"))
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    from spacemission_env.space_mission.config import RULE_SETS

    from ._help import fewest_players, player_range, player_ranges, rule_sets_by_game

    ap = UsageParser(prog="spacemission bench", description="How fast this machine runs the batched engine, an environment and the bots.",
                     epilog=EXAMPLE.format(engines=_engines_text()),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", type=_parts, default=list(PARTS), metavar="PART[,PART]",
                    help=f"what to measure: {', '.join(PARTS)} (default all)")
    from spacemission_env.games import GAMES, get_game

    ap.add_argument("--game", choices=sorted(GAMES), default="spacemission",
                    help="the game (default spacemission); every other game: its fast and reference engine, "
                         "VectorEnv, AEC env and its bots")
    low, high = player_range()  # each game's own range is checked once the game is known
    ap.add_argument("--players", type=_positive(int), choices=range(low, high + 1), metavar="N",
                    help=f"players per game, the game's own range: {player_ranges()} (default: the game's "
                         f"fewest, {fewest_players()})")
    sets = sorted({r for name in GAMES for r in get_game(name).rule_sets}, key=lambda r: (r not in RULE_SETS, r))
    ap.add_argument("--rules", choices=sets, help=f"the game's rule set (default: its first; "
                                                  f"{rule_sets_by_game()})")
    ap.add_argument("--batch", type=_positive(int), default=None, metavar="B",
                    help=f"games in the engine's batch (default {DEFAULT_BATCH}; Space Mission: engine only, every "
                         f"other game: its engine and VectorEnv)")
    ap.add_argument("--agents", metavar="SPEC[,SPEC]",
                    help=f"bots to time (default: in Space Mission those of {', '.join(DEFAULT_AGENTS)} that are "
                         f"installed; in every other game its registered agents that play without a model file, "
                         f"e.g. random, greedy, heuristic)")
    ap.add_argument("--agent-batch", type=_positive(int), default=None, metavar="B",
                    help=f"rows per act_batch call (default {DEFAULT_AGENT_BATCH})")
    ap.add_argument("--seconds", type=_seconds, default=2.0, metavar="T",
                    help=f"time per measurement, {MIN_SECONDS:g} to {MAX_SECONDS:g} (default 2)")
    ap.add_argument("--pgx-python", metavar="PATH",
                    help="an interpreter with pgx and jax installed (never a dependency of this project): "
                         "also time pgx's connect-four at --batch and print the ratio")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of tables")
    return ap


def reference_speed(players: int, rules: str, seconds: float, seed: int = 0) -> dict:
    """The engine loop's work (mask, observation, apply) on the reference engine, one game at a time."""
    import random

    import numpy as np

    from spacemission_env.space_mission import encoding
    from spacemission_env.space_mission.rules import game as G

    rnd = random.Random(seed)
    s = G.new_game(players, seed=seed, rules=rules)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in range(50):
            mask = G.legal_action_mask(s)
            encoding.observe(s)
            G.apply(s, rnd.choice(np.flatnonzero(mask).tolist()))
            steps += 1
            if s.is_over:
                games += 1
                seed += 1
                s = G.new_game(players, seed=seed, rules=rules)
    el = time.perf_counter() - t0
    return {"agent_steps_per_s": steps / el, "games_per_s": games / el, "steps": steps, "games": games}


PGX_CHILD = r"""
import json, time
import jax, jax.numpy as jnp, pgx
from pgx.experimental import auto_reset
B, seconds = {B}, {seconds}
env = pgx.make({game!r})
init = jax.jit(jax.vmap(env.init))
step = jax.vmap(auto_reset(env.step, env.init))

@jax.jit
def one(state, key):
    k1, k2 = jax.random.split(key)
    action = jax.random.categorical(k1, jnp.where(state.legal_action_mask, 0.0, -jnp.inf), axis=-1)
    state = step(state, action, jax.random.split(k2, B))
    return state, state.observation, state.legal_action_mask

key = jax.random.PRNGKey(0)
state = init(jax.random.split(key, B))
for _ in range(5):
    key, k = jax.random.split(key)
    state, obs, mask = one(state, k)
jax.block_until_ready(state)
steps, t0 = 0, time.perf_counter()
while time.perf_counter() - t0 < seconds:
    for _ in range(50):
        key, k = jax.random.split(key)
        state, obs, mask = one(state, k)
    jax.block_until_ready(state)
    steps += 50 * B  # auto_reset restarts finished games inside the step: every game runs
el = time.perf_counter() - t0
print(json.dumps({{"game": {game!r}, "batch": B, "agent_steps_per_s": steps / el, "seconds": el,
                  "pgx": pgx.__version__, "jax": jax.__version__}}))
"""


def pgx_speed(python: str, batch: int, seconds: float, game: str = "connect_four") -> dict:
    """pgx's random play at ``batch`` (a random legal action from the mask, step, the new
    state's observation and mask, auto-reset), in a child process of ``python``, on the CPU."""
    import os
    import subprocess

    env = dict(os.environ, JAX_PLATFORMS="cpu")
    for var in ("PYTHONPATH", "VIRTUAL_ENV"):
        env.pop(var, None)
    out = subprocess.run([python, "-c", PGX_CHILD.format(B=batch, seconds=seconds, game=game)], env=env,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"pgx benchmark failed under {python}: {out.stderr.strip()[-1500:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def engine_speed(batch: int, players: int, rules: str, seconds: float, seed: int = 0) -> dict:
    """Agent-steps per second of random play on the batched engine (benchmarks/engine_speed.py's loop)."""
    from spacemission_env.games import GameConfig, get_game

    from ._bench_game import engine_speed as protocol_engine_speed

    out = protocol_engine_speed(get_game("spacemission"), GameConfig(players, rules), batch, seconds, seed)
    return {"batch": batch, "players": players, "rules": rules, **{k: v for k, v in out.items() if k != "batch"}}


def env_speed(players: int, rules: str, seconds: float, seed: int = 0) -> dict:
    """Agent-steps per second of random play through the PettingZoo AEC env, one game at a time."""
    import numpy as np

    from spacemission_env import env

    e = env(num_players=players, rules=rules)
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    while e.agents:  # warm-up: a whole game, so every kernel the loop calls (the scoring too) is compiled or loaded
        obs, _, terminated, truncated, _ = e.last()
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    e.reset(seed=seed + 1)
    steps = games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for _ in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                e.step(int(legal[int(rng.random() * legal.size)]))
            steps += 1
            if steps % 256 == 0 and time.perf_counter() - t0 >= seconds:
                break
        else:
            games += 1
            e.reset()
    elapsed = time.perf_counter() - t0
    return {"env": "pettingzoo AEC env()", "players": players, "rules": rules, "agent_steps_per_s": steps / elapsed,
            "games_per_s": games / elapsed, "seconds": elapsed}


def _agent_specs(text: str | None) -> list[str]:
    if text is not None:  # every entry, an empty one too: made_agents refuses it, as arena does (it was skipped)
        from ._bench_game import given_specs

        return given_specs(text)
    from spacemission_agents.registry import available_agents

    installed = set(available_agents())
    return [a for a in DEFAULT_AGENTS if a in installed]


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    from rich.console import Console
    from rich.table import Table

    from spacemission_env.games import get_game

    own = get_game(args.game).rule_sets  # --rules offers every game's: refuse another game's here
    if args.rules is not None and args.rules not in own:
        which = "Space Mission" if args.game == "spacemission" else f"--game {args.game}"
        ap.error(f"argument --rules: {args.rules!r} is not a rule set of {which} (its rule sets: {', '.join(own)})")
    if args.game != "spacemission" and args.pgx_python:  # before: accepted and never run
        ap.error(f"argument --pgx-python: pgx's connect-four is timed beside Space Mission's batched engine only, "
                 f"not with --game {args.game}")
    refuse_unused_options(args, ap)
    if args.game != "spacemission":
        return _bench_other_game(args, ap)
    if args.rules is None:
        args.rules = "yucata"
    if args.players is None:
        args.players = 2
    from spacemission_env.games import GameConfig, get_game

    from ._bench_game import check_sizes, made_agents

    check_sizes(args, ap, get_game("spacemission"), batch_parts=("engine",))  # env plays one game
    agents = []
    if "agents" in args.only:
        specs = _agent_specs(args.agents)
        if not specs:
            ap.error("argument --agents: no agent to time")
        agents = made_agents(specs, GameConfig(args.players, args.rules), ap)
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=110)
    out: dict = {}
    if "engine" in args.only:
        out["engine"] = engine_speed(args.batch, args.players, args.rules, args.seconds)
        out["reference"] = reference_speed(args.players, args.rules, args.seconds)
        out["engine"]["x_reference"] = out["engine"]["agent_steps_per_s"] / out["reference"]["agent_steps_per_s"]
        if args.pgx_python:
            try:
                out["pgx"] = pgx_speed(args.pgx_python, args.batch, args.seconds)
            except (OSError, RuntimeError) as exc:
                ap.error(f"argument --pgx-python: {exc}")
            out["engine"]["x_pgx_connect_four"] = out["engine"]["agent_steps_per_s"] / out["pgx"]["agent_steps_per_s"]
    if "env" in args.only:
        out["env"] = env_speed(args.players, args.rules, args.seconds)
    if agents:
        from spacemission_agents.arena_speed import decision_speed

        out["agents"] = [dict(decision_speed(agent, num_players=args.players, rules=args.rules, batch=args.agent_batch,
                                             seconds=args.seconds / 2, bind=False), spec=spec) for spec, agent in agents]
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    title = f"{args.players} players, rules {args.rules}, about {args.seconds:g} s per figure"
    if "engine" in out or "env" in out:
        t = Table(title=f"Random play: {title}")
        for col in ("what", "agent-steps/s", "games/s", "engine / this"):
            t.add_column(col, justify="left" if col == "what" else "right")
        if "engine" in out:
            e = out["engine"]
            t.add_row(f"batched engine, {e['batch']} games", f"{e['agent_steps_per_s']:,.0f}", f"{e['games_per_s']:,.1f}",
                      "1")
            r = out["reference"]
            t.add_row("reference engine (rules), 1 game", f"{r['agent_steps_per_s']:,.0f}", "", f"{e['x_reference']:,.0f}")
            if "pgx" in out:
                g = out["pgx"]
                t.add_row(f"pgx {g['pgx']} connect_four (JAX CPU), {g['batch']} games", f"{g['agent_steps_per_s']:,.0f}",
                          "", f"{e['x_pgx_connect_four']:.2f}")
        if "env" in out:
            e = out["env"]
            ratio = f"{out['engine']['agent_steps_per_s'] / e['agent_steps_per_s']:,.0f}" if "engine" in out else ""
            t.add_row(f"{e['env']}, 1 game", f"{e['agent_steps_per_s']:,.0f}", f"{e['games_per_s']:,.1f}", ratio)
        console.print(t)
    if agents:
        t = Table(title=f"Bot decisions per second: {title}, positions from kind-random games")
        for col in ("agent", "act() /s", f"act_batch({args.agent_batch}) /s", "act() /CPU s", "act_batch /CPU s"):
            t.add_column(col, justify="left" if col == "agent" else "right")
        for r in out["agents"]:
            t.add_row(r["spec"], f"{r['single_per_s']:,.0f}", f"{r['batched_per_s']:,.0f}",
                      f"{r['single_per_cpu_s']:,.0f}", f"{r['batched_per_cpu_s']:,.0f}")
        console.print(t)
    console.print("Wall-clock figures depend on what else the machine runs; per-CPU-second figures are steadier.")
    return 0


def _bench_other_game(args, ap) -> int:
    """Every figure for a game of the protocol other than Space Mission, in one run."""
    from rich.console import Console

    from ._bench_game import print_tables, run

    out = run(args, ap)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    console = Console(highlight=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=110)
    print_tables(out, args, console)
    console.print("Wall-clock figures depend on what else the machine runs.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
