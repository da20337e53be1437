"""Ship a trained model: copy a run's ``final.npz`` into the package (agents/spacemission_agents/data/) as the
pretrained model of its game for its player count (SHIPPED_BY_GAME), with a card beside it (the file's name
with ``.json``: the
model's metadata, including the training command, its size and sha256).

    python tools/ship_model.py runs/ship2p/final.npz
"""
from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from spacemission_agents.ppo import SHIPPED_BY_GAME, PPOAgent
from spacemission_env.checks import UsageParser  # every command's parser: echoed values cut

DATA = Path(__file__).resolve().parent.parent / "agents" / "spacemission_agents" / "data"
MAX_BYTES = 5 * 1024 * 1024


def main(argv=None) -> None:
    ap = UsageParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", help="a saved PPOAgent (.npz), e.g. RUN_DIR/final.npz")
    args = ap.parse_args(argv)
    try:
        agent = PPOAgent.load(args.model)  # refuses files that do not fit the installed package
    except ValueError as e:
        ap.error(str(e))
    players = agent.metadata["num_players"]
    shipped = SHIPPED_BY_GAME[agent.game]
    if players not in shipped:
        raise SystemExit(f"no shipped slot for {players}-player {agent.game} models; slots: {sorted(shipped)}")
    src = Path(args.model)
    if src.stat().st_size > MAX_BYTES:
        raise SystemExit(f"{src} is {src.stat().st_size:,} bytes; the package ships at most {MAX_BYTES:,}")
    dest = DATA / shipped[players]
    shutil.copyfile(src, dest)
    card = {"file": dest.name, "bytes": dest.stat().st_size,
            "sha256": hashlib.sha256(dest.read_bytes()).hexdigest(), "metadata": agent.metadata,
            "strength": "docs/training.md (arena tables with the commands that produced them)"}
    dest.with_suffix(".json").write_text(json.dumps(card, indent=1) + "\n")
    print(f"shipped {dest} ({card['bytes']:,} bytes) and {dest.with_suffix('.json').name}")


if __name__ == "__main__":
    main()
