"""``spacemission``: one command for the project (subcommands are added as they land)."""
from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="spacemission", description="Space Mission: play, rate and train agents.")
    sub = ap.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("demo", help="play a seeded game between random players", add_help=False)
    args, rest = ap.parse_known_args(argv)
    if args.command == "demo":
        from spacemission_env.demo import main as demo_main

        demo_main(rest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
