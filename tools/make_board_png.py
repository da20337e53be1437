"""Writes docs/images/board.png: the board picture of a seeded game between bots, a few rounds in.

    .venv/bin/python tools/make_board_png.py [--agents heuristic,greedy,kind-random] [--seed 7] [--rounds 7]

Each bot acts through the agent protocol on its own observation (as in ``spacemission play``);
the picture is taken at the start of the first turn of round ``--rounds`` (render.save_png).
"""
from __future__ import annotations

from pathlib import Path

from spacemission_cli.play import Opponent
from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut
from spacemission_env.games import GameConfig
from spacemission_env.space_mission.render import save_png
from spacemission_env.space_mission.rules import apply, new_game

OUT = Path(__file__).resolve().parent.parent / "docs" / "images" / "board.png"


def main(argv=None) -> None:
    ap = UsageParser(description=__doc__.splitlines()[0])
    ap.add_argument("--agents", default="heuristic,greedy,kind-random", help="one spec per seat (default 3 players)")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=7, help="the round whose start is pictured")
    ap.add_argument("--rules", default="yucata")
    ap.add_argument("--out", default=str(OUT))
    args = ap.parse_args(argv)
    specs = args.agents.split(",")
    if Path(args.out).is_dir():
        ap.error(f"--out {args.out!r} is a folder; give the picture's file name")
    try:
        state = new_game(len(specs), seed=args.seed, rules=args.rules)
        config = GameConfig(len(specs), args.rules, state.max_rounds)
        bots = [Opponent(spec, q, args.seed, config) for q, spec in enumerate(specs)]
    except ValueError as e:
        ap.error(str(e))
    if not 1 <= args.rounds <= state.max_rounds:
        ap.error(f"--rounds must be in 1..{state.max_rounds} (the round limit), got {args.rounds}")
    ply = 0
    while not state.is_over and not (state.round >= args.rounds and state.current_player == state.start_player
                                     and state.actions_left == 2 and state.phase == "main"):
        apply(state, bots[state.current_player].act(state, ply))
        ply += 1
    save_png(state, args.out)
    print(f"wrote {args.out}: {', '.join(specs)}, seed {args.seed}, round {state.round}, {ply} actions")


if __name__ == "__main__":
    main()
