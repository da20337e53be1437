"""The cells of the notebooks that tools/make_notebook.py writes: one list of (kind, source) per
notebook, kind "markdown" or "code" (a module of data, not a script: make_notebook.py reads it)."""

QUICKSTART = [
    ("markdown", """# Space Mission quickstart

The environment, a random game, the board picture, a short arena between the bots, a
trained agent at work and what an agent observes. Run the cells top to bottom (about a
minute; the first import compiles the engine's kernels once)."""),
    ("markdown", "## The environment\n\nA PettingZoo AEC env on the fast engine: 3 players, uniformly random legal moves."),
    ("code", """import numpy as np
import spacemission_env

env = spacemission_env.env(num_players=3, rules="yucata", render_mode="rgb_array")
env.reset(seed=7)
rng = np.random.default_rng(7)
steps, picture, totals = 0, None, {}
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    if terminated or truncated:
        totals[agent] = info["scores"]["total"]  # each seat's final score, in its info at the end
    action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
    env.step(action)
    steps += 1
    if steps == 90:
        picture = env.render()  # H x W x 3 uint8: the board as it is now
print(f"{steps} steps; scores {dict(sorted(totals.items()))}; ended at the round limit: {info['round_limit']}")"""),
    ("markdown", "## The board picture\n\nPlanets in a ring around the jump gate with their coordinates, piles, probes, "
                 "stations and ships; the panel shows each player's chips, hand, tiles, score and last turn."),
    ("code", """import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(12, 8))
ax.imshow(picture)
ax.axis("off")
plt.show()"""),
    ("markdown", "## The rules engine and its JSON state\n\nThe readable reference engine: legal moves by label, "
                 "and a state that saves and loads exactly."),
    ("code", """import random
from spacemission_env.space_mission.rules import GameState, action_label, apply, legal_actions, new_game, scores, winners

state = new_game(3, seed=7, rules="schmidt")
choose = random.Random(0)
for _ in range(6):
    a = choose.choice(legal_actions(state))
    print(f"seat {state.current_player}: {action_label(a, state)}")
    apply(state, a)
assert GameState.from_json(state.to_json()) == state
while not state.is_over:
    apply(state, choose.choice(legal_actions(state)))
print("totals", [s["total"] for s in scores(state)], "winners", winners(state))"""),
    ("markdown", "## A short arena\n\nA duplicate-format round robin: every deal is played once per seat rotation, so "
                 "card and seat luck cancel. A few dozen games take seconds."),
    ("code", """import rich
from spacemission_agents import run_arena

result = run_arena(["random", "greedy", "heuristic"], num_players=2, games=16, seed=0, workers=1, progress=False)
for table in result.table():
    rich.print(table)"""),
    ("code", """names = [a.name for a in result.agents]
rates = np.array([a.win_rate for a in result.agents])
low = rates - np.array([a.win_ci_low for a in result.agents])
high = np.array([a.win_ci_high for a in result.agents]) - rates
fig, ax = plt.subplots(figsize=(6, 3))
ax.bar(names, 100 * rates, yerr=100 * np.vstack([low, high]), capsize=6, color="#5b8def")
ax.set_ylabel("win rate % (95% CI)")
ax.set_ylim(0, 100)
ax.set_title(f"{result.num_games} games, 2 players")
plt.show()"""),
    ("markdown", "## Watch an agent play\n\nThe shipped PPO agent once it is installed, else the heuristic bot. An agent "
                 "sees only its own observation and the legal-move mask."),
    ("code", """from spacemission_agents import available_agents, make_agent
from spacemission_env import GameConfig
from spacemission_env.space_mission import encoding
from spacemission_env.space_mission.rules import legal_action_mask

spec = "ppo" if "ppo" in available_agents() else "heuristic"  # the shipped PPO agent once it is installed
players = {0: make_agent(spec, seed=0), 1: make_agent("random", seed=1)}
for p in players.values():
    if hasattr(p, "bind"):
        p.bind(GameConfig(num_players=2, rules="yucata"))
state = new_game(2, seed=3)
for _ in range(12):
    seat = state.current_player
    player = players[seat]
    obs = encoding.observe(state, seat, getattr(player, "observation_type", None) or "info")
    action = player.act(obs, legal_action_mask(state))
    print(f"seat {seat} ({spec if seat == 0 else 'random'}): {action_label(action, state)}")
    apply(state, action)"""),
    ("markdown", "## What an agent observes\n\nAn int8 vector; `decode` names its blocks (docs/observation.md)."),
    ("code", """from spacemission_env import decode
from spacemission_env.space_mission.components import CARD_LABELS

obs = encoding.observe(state, 0, "info")
view = decode(obs, "info")
print(obs.shape, obs.dtype, len(view), "blocks, e.g.", list(view)[:6])
print("pile sizes by ring position:", view["pile_size"].tolist())
print("probes [position, relative seat]:", view["probes"][:, :2].tolist())
print("own hand as card features:", view["own_hand"].shape, "- the cards:", [CARD_LABELS[c] for c in state.players[0].hand])"""),
]

RED_PLANET = [
    ("markdown", """# Mission: Red Planet tour

The package's second game (3-5 players; rules in docs/red_planet/rules.md, ids `M-…`): the
PettingZoo env, the board picture, the reference rules engine and its JSON state, a short
arena between the bots and what an agent observes. Run the cells top to bottom (under a
minute; the first import compiles the engine's kernels once)."""),
    ("markdown", "## The environment\n\nThe same PettingZoo AEC env as Space Mission's, with `game=\"red_planet\"`: "
                 "4 players, uniformly random legal moves over the 243 action ids."),
    ("code", """import numpy as np
import spacemission_env

env = spacemission_env.env(game="red_planet", num_players=4, render_mode="rgb_array")
env.reset(seed=7)
rng = np.random.default_rng(7)
steps, picture, totals = 0, None, {}
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    if terminated or truncated:
        totals[agent] = info["scores"]["total"]  # each seat's final score, in its info at the end
    action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
    env.step(action)
    steps += 1
    if steps == 80:
        picture = env.render()  # H x W x 3 uint8: the board as it is now
print(f"observation {obs['observation'].shape} {obs['observation'].dtype}, actions {env.action_space(agent)}")
print(f"{steps} steps; scores {dict(sorted(totals.items()))}")
print("the last seat's score by category:", info["scores"])"""),
    ("markdown", "## The board picture\n\nMars: three central zones inside a ring of seven outer zones, with their "
                 "mineral tokens, leftover counters, discovery cards and astronauts by colour; the panel shows the "
                 "round, the launch pad's ships and crews, and each seat's supply, role cards, commit and bonus cards. "
                 "The env draws the whole table; `render.render_rgb(state, viewer=q)` draws what seat q may know "
                 "(docs/red_planet/render.md)."),
    ("code", """import matplotlib.pyplot as plt

fig, ax = plt.subplots(figsize=(13, 8))
ax.imshow(picture)
ax.axis("off")
plt.show()"""),
    ("markdown", "## The rules engine and its JSON state\n\nThe readable reference engine: legal moves by label, "
                 "the board as a seat sees it in text, and a state that saves and loads exactly (the random "
                 "generator included, so a loaded game goes on as the saved one would)."),
    ("code", """import random
from spacemission_env.red_planet.render import render_ansi
from spacemission_env.red_planet.rules import action_label, apply, from_json, is_over, legal_actions, new_game, scores, to_json, winners

state = new_game(4, seed=7)
choose = random.Random(0)
for i in range(40):
    actions = legal_actions(state)
    a = choose.choice(actions)
    if i >= 34:
        print(f"seat {state.current_player} ({len(actions)} legal): {action_label(state, a)}")
    apply(state, a)
saved = to_json(state)  # the referee's view: hidden cards, pile orders and the generator's state
print(len(saved), "characters of JSON")
print(render_ansi(state, viewer=0))  # what seat 0 may know
loaded = from_json(saved)
assert loaded == state
for game in (state, loaded):
    choose = random.Random(1)
    while not is_over(game):
        apply(game, choose.choice(legal_actions(game)))
assert loaded == state  # the loaded game went on exactly as the saved one
print("totals", [s["total"] for s in scores(state)], "winners", winners(state))"""),
    ("markdown", "## A short arena\n\nA duplicate-format tournament: every deal is played in every seat rotation, "
                 "so card and seat luck cancel. The hand-written bots, and the shipped 4-player PPO agent when it is "
                 "installed. A hundred games a lineup take seconds; the intervals (clustered by deal) are wide, and the "
                 "2,000-game ladders are in docs/red_planet/agents.md. Win % is pairwise: against every other "
                 "agent's seat in the same game, ties half."),
    ("code", """import rich
from spacemission_agents import available_agents, run_arena

bots = ["random", "greedy", "heuristic"] + (["ppo"] if "ppo" in available_agents("red_planet") else [])
result = run_arena(bots, game="red_planet", num_players=4, games=100, seed=0, workers=1, progress=False)
for table in result.table():
    rich.print(table)"""),
    ("code", """stats = result.agents
names = [a.name for a in stats]
rate, rank = np.array([a.win_rate for a in stats]), np.array([a.mean_rank for a in stats])
rate_err = [rate - [a.win_ci_low for a in stats], np.array([a.win_ci_high for a in stats]) - rate]
rank_err = [rank - [a.rank_ci_low for a in stats], np.array([a.rank_ci_high for a in stats]) - rank]
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.2))
left.bar(names, 100 * rate, yerr=100 * np.array(rate_err), capsize=6, color="#c8553d")
left.set_ylabel("pairwise win % (95% CI)")
left.set_ylim(0, 100)
right.errorbar(names, rank, yerr=rank_err, fmt="o", capsize=6, color="#c8553d")
right.set_ylabel("mean rank (95% CI), 1 = first")
right.set_ylim(4.2, 0.8)  # the first place at the top
fig.suptitle(f"{result.num_games} games, 4 players")
plt.show()"""),
    ("markdown", "## What an agent observes\n\nAn agent sees only its seat's int8 observation (`info`: seats relative "
                 "to its own, itself 0) and the legal-move mask; `encoding.decode` names its blocks "
                 "(docs/red_planet/observation.md). The seduce and kill actions name colours by absolute seat: "
                 "the `own_colour` block maps one to the other."),
    ("code", """from spacemission_agents import make_agent
from spacemission_env import GameConfig
from spacemission_env.red_planet import encoding
from spacemission_env.red_planet.rules import legal_action_mask
from spacemission_env.red_planet.rules.state import PHASES

state = from_json(saved)  # the position saved above
obs = encoding.observe(state, state.current_player, "info")
view = encoding.decode(obs, "info")
print(obs.shape, obs.dtype, len(view), "blocks, e.g.", list(view)[:8])
print("phase:", PHASES[view["phase"].argmax()], "| round:", int(view["round"][0]), "| own colour:", int(view["own_colour"].argmax()))
print("astronauts on Mars [zone, relative seat]:", view["mars"][:, :4].tolist())
print("crews on the pad [slot, relative seat]:", view["slot_crew"][:4, :4].tolist())
print("the next seat's remaining role cards:", view["roles_left"][1].tolist())
for spec in bots[1:]:
    bot = make_agent(spec, seed=0, game="red_planet")
    bot.bind(GameConfig(num_players=4, game="red_planet"))
    print(f"{spec} plays: {action_label(state, bot.act(obs, legal_action_mask(state)))}")"""),
]
