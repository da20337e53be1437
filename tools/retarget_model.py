"""Copy a saved PPO model for another player count of its game, to fine-tune it there
(``spacemission train --players N --init-from OUT``), which refuses a file of another count.

A game's observation layout is the same at every player count (absent seats' blocks are
zeros; the layout hash is per game and observation type), so the actor reads any count's
observations. Only the model's ``num_players`` changes; its ``training`` record keeps
where it came from (``retargeted_from``: the source file's player count and sha256).

    python tools/retarget_model.py agents/spacemission_agents/data/red_planet_ppo_4p.npz 3 runs/rp3_from4.npz
"""
from __future__ import annotations

import copy
from pathlib import Path

from spacemission_agents.ppo import PPOAgent
from spacemission_agents.value import file_sha256
from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.games import get_game


def retarget(src: str, players: int, out: str) -> PPOAgent:
    """The model at ``src`` with ``num_players`` set to ``players``, written to ``out``;
    ValueError for a count its game does not have, a count the model already has, or an
    ``out`` that is a folder, not an .npz file, or ``src`` itself."""
    agent = PPOAgent.load(src)  # refuses files that do not fit the installed package
    if Path(out).is_dir():
        raise ValueError(f"{out} is a folder; name the copy's file (.npz)")
    if Path(out).suffix != ".npz":  # numpy would add .npz, writing another file than the one named
        raise ValueError(f"{out} does not end in .npz")
    if Path(out).resolve() == Path(src).resolve():
        raise ValueError(f"{out} is the model itself; write the copy to another file")
    game = get_game(agent.game)
    d = game.description
    if not d.min_players <= players <= d.max_players:
        raise ValueError(f"{d.title} is played by {d.min_players}-{d.max_players} players, not {players}")
    was = agent.metadata["num_players"]
    if players == was:
        raise ValueError(f"{src} is already a {players}-player model")
    meta = copy.deepcopy(agent.metadata)
    meta["num_players"] = int(players)
    training = meta.get("training") if isinstance(meta.get("training"), dict) else {}
    meta["training"] = {**training, "retargeted_from": {"num_players": was, "sha256": file_sha256(src)}}
    copied = PPOAgent(agent.params, meta)
    copied.save(out)
    return copied


def main(argv=None) -> None:
    ap = UsageParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", help="a saved PPOAgent (.npz)")
    ap.add_argument("players", type=int, help="the player count of the copy")
    ap.add_argument("out", help="where to write the copy (.npz)")
    args = ap.parse_args(argv)
    try:
        retarget(args.model, args.players, args.out)
    except ValueError as e:
        ap.error(str(e))
    print(f"wrote {args.out}: {args.model} for {args.players} players")


if __name__ == "__main__":
    main()
