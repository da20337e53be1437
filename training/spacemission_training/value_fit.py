"""Fit a value network for a shipped (or saved) PPO policy: the value a search bot reads
at its leaves (agents/spacemission_agents/value.py has the file format).

    python -m spacemission_training.value_fit --players 2 --games 1536 \
        --out agents/spacemission_agents/data/value_2p.npz

1. **Data.** The policy plays every seat of ``--games`` games in the batched engine
   (``act_batch`` on each acting seat's "recall" observation); with probability
   ``--explore`` a decision is sampled from the policy's softmax instead of its argmax,
   so the net also sees positions a search's other candidates lead to. After every step,
   the observation of *each* seat is recorded with probability ``--keep`` (seats not to
   act included), reduced to the policy's active features.
2. **Target**: that seat's final R-P8 rank reward (engine.rewards, in [-1, 1]).
3. **Fit**: an MLP (``--hidden``, ReLU, tanh output) on ``obs[active] * scale`` by MSE
   with Adam; the last ``--holdout`` share of the games (whole games, rounded) is held out
   for the validation loss and the epoch with the lowest one is kept; ``--holdout 0`` holds
   out none (the last epoch is kept, the validation MSE is null in the card). A holdout that
   leaves no game to train on, or rounds to no game, is refused before the games are played.
   Exported to numpy (ValueNet), with a card beside the file.

``--cache FILE`` keeps the positions of step 1 with the settings that made them (players,
the policy file's sha256, games, seed, explore, keep, observation type, rules, round
limit); a later run reads them only when its settings are the same, and is refused naming
each setting that differs otherwise.

``--observation-type seer`` (default ``recall``) fits a *perfect-information* value net
instead: it reads each seat's "seer" observation (the whole state: the recall blocks,
then every pile, hand, collection and reservation), for a search that values the
leaves of its sampled worlds. Its inputs are the policy's active recall features (the
policy's scaling) and the ``seer_*`` features of the game's seats that are ever
non-zero in the data (scaled by 1 / their maximum there). ``--target margin`` fits
``0.5 * rank reward + 0.5 * tanh(lead / 10)`` (the seat's points minus the best
rival's: the value NetSearchAgent gives a finished game) instead of the rank reward.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch

from spacemission_agents.ppo import PPOAgent
from spacemission_agents.value import ValueNet, file_sha256, make_value_metadata
from spacemission_env.checks import UsageParser, check_memory, count_text, cut, shown, shown_path  # echoed values: cut
from spacemission_env.json_input import parse_json
from spacemission_env.space_mission import engine

from .lifecycle import env_id
from .run_paths import file_above, folder_write_problem, path_lookup_problem

__all__ = ["cache_settings", "collect", "fit", "load_cache", "main", "save_cache", "seer_columns", "to_value_net"]

MARGIN_POINTS = 10.0  # ``--target margin``: tanh(lead / this), as NetSearchAgent's finished games


def cache_settings(args, policy: PPOAgent, policy_sha256: str) -> dict:
    """What the positions of ``--cache`` depend on: kept in the file with them, and a cache
    made with other settings is refused (``check_cache``)."""
    return {"players": args.players, "policy_sha256": policy_sha256, "games": args.games, "seed": args.seed,
            "explore": args.explore, "keep": args.keep, "observation_type": args.observation_type,
            "rules": policy.metadata["rules"], "max_rounds": policy.metadata["max_rounds"],
            # the targets are the games' rank rewards: another environment version's may differ (docs/versioning.md)
            "env_id": env_id(policy.game)}


def save_cache(path: Path, settings: dict, data: dict) -> None:
    """The positions with the settings that made them (written to ``path`` as named: numpy
    would add ``.npz`` to another suffix, and the next run would not find the file), its
    folder made if missing (main checked before the games that it can be)."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as f:
        np.savez(f, settings=np.array(json.dumps(settings, sort_keys=True)), **data)


def load_cache(path: Path, settings: dict) -> dict:
    """The positions kept in ``path``; ValueError naming ``--cache`` and each setting that
    differs from ``settings`` (the positions would be another fit's), or a file without them."""
    try:
        with np.load(path, allow_pickle=False) as z:
            if not hasattr(z, "files"):  # a single .npy array
                raise ValueError("a .npy array, not an .npz archive")
            data = {k: z[k] for k in z.files}
    except Exception as exc:  # noqa: BLE001 - numpy and zipfile raise anything on a cut or foreign file
        raise ValueError(f"--cache {shown_path(path)} is not a positions file of value_fit ({type(exc).__name__}: "
                         f"{cut(str(exc))})") from None
    if "settings" not in data:
        raise ValueError(f"--cache {shown_path(path)} holds no settings (written by an earlier value_fit, or not by "
                         f"value_fit): its positions cannot be matched to this fit; delete it or give another --cache")
    try:
        theirs = parse_json(str(data.pop("settings")))
        problem = None if isinstance(theirs, dict) else f"a JSON {type(theirs).__name__}, not an object"
    except ValueError as exc:  # "not valid JSON: ..."
        problem = str(exc)
    if problem is not None:
        raise ValueError(f"--cache {shown_path(path)}: its settings are {cut(problem)}; not a positions file of "
                         f"value_fit: delete it or give another --cache")
    diff = sorted(k for k in set(theirs) | set(settings) if theirs.get(k) != settings.get(k))
    if diff:
        raise ValueError(f"--cache {shown_path(path)} holds positions made with other settings: "
                         + ", ".join(f"{cut(str(k))} {shown(theirs.get(k))} in the cache, {shown(settings.get(k))} now"
                                     for k in diff)
                         + "; delete it or give another --cache")
    return data


def seer_columns(num_players: int, active: np.ndarray) -> np.ndarray:
    """Columns of the "seer" observation a seer value net may read: the policy's ``active``
    ones (the recall blocks open the seer observation), then every ``seer_*`` feature of the
    ``num_players`` seats in the game (relative seats beyond them are padding)."""
    from spacemission_env import decode
    from spacemission_env.space_mission.encoding import observation_size

    v = decode(np.arange(observation_size("seer"), dtype=np.int64), "seer")
    n = num_players
    extra = [v["seer_piles"], v["seer_draw_cards"], v["seer_hands"][:n], v["seer_collections"][:n],
             v["seer_reservations"][:, :n], v["seer_last_visit_pile"][:n]]
    return np.concatenate([np.asarray(active, np.int64)] + [e.ravel() for e in extra])


SEED_STRIDE = 1_000_003  # game g of seed s plays the engine seed s * SEED_STRIDE + g (below 2**64)


def collect(policy: PPOAgent, games: int, *, seed: int, explore: float, keep: float, batch: int = 256,
            rules: str = "yucata", max_rounds: int = 100, observation_type: str = "recall") -> dict:
    """Self-play positions: {"x" int8 [M, A] (active features), "y" float32 [M], "game" int64 [M]};
    with ``observation_type="seer"``, "x" holds the seer_columns of each seat's seer
    observation, and "lead" float32 [M] (the seat's final points minus the best rival's)
    and "columns" (seer_columns) are added."""
    n = policy.metadata["num_players"]
    rng = np.random.default_rng(seed)
    xs, gs, seats = [], [], []
    ys = np.zeros((games, n), np.float32)
    leads = np.zeros((games, n), np.float32)
    active = policy._active if observation_type == "recall" else seer_columns(n, policy._active)
    for g0 in range(0, games, batch):
        b = min(batch, games - g0)
        # in uint64 (int64 arithmetic overflowed from seed 2**63 / 1,000,003 on); the same seeds below that
        st = engine.init(b, n, seeds=np.uint64(seed * SEED_STRIDE + g0) + np.arange(b, dtype=np.uint64), rules=rules,
                         max_rounds=max_rounds)
        while not st.terminated.all():
            live = ~st.terminated
            mask = engine.legal_action_mask(st)
            obs = engine.observe(st, observation_type="recall")
            act = np.zeros(b, np.int64)
            z = np.where(mask[live], policy.logits(obs[live], mask[live]), -np.inf)
            greedy = np.argmax(z, axis=1)
            p = np.exp(z - z.max(axis=1, keepdims=True))
            p /= p.sum(axis=1, keepdims=True)
            sampled = (p.cumsum(axis=1) < rng.random((len(p), 1))).sum(axis=1).clip(0, 99)
            sampled = np.where(mask[live][np.arange(len(p)), sampled], sampled, greedy)
            act[live] = np.where(rng.random(len(p)) < explore, sampled, greedy)
            engine.step(st, act, select=live)
            for s in range(n):
                pick = np.flatnonzero(live & (rng.random(b) < keep))
                if pick.size:
                    xs.append(engine.observe(st, player=s, observation_type=observation_type)[pick][:, active])
                    gs.append(g0 + pick)
                    seats.append(np.full(pick.size, s))
        ys[g0:g0 + b] = engine.rewards(st)
        points = engine.scores(st)[..., 7].astype(np.float32)  # [b, n]
        for s in range(n):
            leads[g0:g0 + b, s] = points[:, s] - np.delete(points, s, axis=1).max(axis=1)
        print(f"  games {g0 + b}/{games}", file=sys.stderr, flush=True)
    game, seat = np.concatenate(gs), np.concatenate(seats)
    out = {"x": np.concatenate(xs), "y": ys[game, seat], "game": game}
    if observation_type != "recall":
        out.update(lead=leads[game, seat], columns=active)
    return out


def held_out_games(games: int, holdout: float) -> int:
    """How many of ``games`` (the last ones) are held out for validation: ``holdout`` of
    them, rounded (none with ``holdout`` 0). ValueError naming ``--holdout`` and ``--games``
    when that leaves no game to train on, or when a holdout above 0 rounds to no game (a
    validation asked for but empty: give more games, or ``--holdout 0`` for none)."""
    held = int(round(holdout * games))
    if held >= games:
        raise ValueError(f"--holdout {holdout} of --games {games} holds out {held} game(s), leaving none to train on: "
                         f"give more games or a smaller --holdout")
    if holdout > 0 and held == 0:
        raise ValueError(f"--holdout {holdout} of --games {games} holds out no game (the validation would be empty): "
                         f"give more games, a larger --holdout, or --holdout 0 for no validation")
    return held


def fit(data: dict, scale: np.ndarray, hidden: list[int], *, holdout: float, epochs: int, lr: float, seed: int,
        weight_decay: float = 1e-4, batch: int = 1024, games: int | None = None):
    """(torch model, train MSE, validation MSE) fitted on ``data`` (collect): the last
    ``holdout`` of the games (held_out_games) are held out and the epoch with the lowest
    validation MSE is kept (whole games are held out: positions of one game are strongly
    correlated, and a net that memorises games does not generalise); with ``holdout`` 0 the
    last epoch is kept and the validation MSE is None. ``games``: how many were played
    (default: the last one with a position kept); ValueError when none is left to train on."""
    torch.manual_seed(seed)
    games = int(data["game"].max()) + 1 if games is None else games
    val = data["game"] >= games - held_out_games(games, holdout)
    x = torch.as_tensor(data["x"].astype(np.float32) * scale)
    y = torch.as_tensor(data["y"])
    layers, fan = [], x.shape[1]
    for h in hidden:
        layers += [torch.nn.Linear(fan, h), torch.nn.ReLU()]
        fan = h
    layers.append(torch.nn.Linear(fan, 1))
    model = torch.nn.Sequential(*layers)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    tr, va = np.flatnonzero(~val), np.flatnonzero(val)
    gen = np.random.default_rng(seed)

    def loss_on(idx):
        if not len(idx):
            return float("nan")
        with torch.no_grad():
            return float(torch.nn.functional.mse_loss(torch.tanh(model(x[idx]))[:, 0], y[idx]))

    best = (loss_on(va) if va.size else np.inf, {k: v.clone() for k, v in model.state_dict().items()})
    if not tr.size:  # held_out_games leaves a game to train on; a game may still have no position kept
        raise ValueError("no position to train on: the training games have no kept position (raise --keep or --games)")
    for ep in range(epochs):
        for g in opt.param_groups:
            g["lr"] = lr * (1 - ep / epochs)
        perm = gen.permutation(tr)
        for lo in range(0, len(perm), batch):
            b = torch.as_tensor(perm[lo:lo + batch])
            loss = torch.nn.functional.mse_loss(torch.tanh(model(x[b]))[:, 0], y[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        if not va.size:  # no validation: the last epoch is kept
            print(f"  epoch {ep + 1}: train MSE {loss_on(tr[:50_000]):.4f}", file=sys.stderr, flush=True)
            continue
        v = loss_on(va)
        print(f"  epoch {ep + 1}: train MSE {loss_on(tr[:50_000]):.4f}, validation MSE {v:.4f}",
              file=sys.stderr, flush=True)
        if v < best[0]:
            best = (v, {k: t.clone() for k, t in model.state_dict().items()})
    if va.size:
        model.load_state_dict(best[1])
    return model, loss_on(tr), (loss_on(va) if va.size else None)


def _rounded(value: float | None) -> float | None:
    """A loss for the card: rounded, None (JSON null) for none or a non-finite one (JSON has no NaN)."""
    return None if value is None or not np.isfinite(value) else round(value, 5)


def to_value_net(model: torch.nn.Sequential, active: np.ndarray, scale: np.ndarray, metadata: dict) -> ValueNet:
    linear = [m for m in model if isinstance(m, torch.nn.Linear)]
    params = {"active": active.astype(np.int64), "scale": scale.astype(np.float32)}
    for i, m in enumerate(linear):
        params[f"w{i}"] = m.weight.detach().numpy().astype(np.float32)
        params[f"b{i}"] = m.bias.detach().numpy().astype(np.float32)
    return ValueNet(params, metadata)


def main(argv=None) -> None:
    ap = UsageParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--policy", default=None, help="policy .npz (default: the shipped one for --players)")
    ap.add_argument("--games", type=int, default=1536)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--explore", type=float, default=0.1)
    ap.add_argument("--keep", type=float, default=0.5)
    ap.add_argument("--hidden", default="256,64")
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--holdout", type=float, default=0.1)
    ap.add_argument("--weight-decay", type=float, default=1e-4)
    ap.add_argument("--observation-type", choices=("recall", "seer"), default="recall",
                    help="the observation the value net reads (seer: the full state; module doc)")
    ap.add_argument("--target", choices=("rank", "margin"), default="rank",
                    help="rank: the final rank reward; margin: 0.5 rank + 0.5 tanh(lead / 10) (seer data only)")
    ap.add_argument("--cache", type=Path, default=None,
                    help="positions file: read if it exists (refused when made with other settings: players, "
                         "policy file, games, seed, explore, keep, observation type), else written")
    ap.add_argument("--out", type=Path, required=True,
                    help="the value net (.npz); its card is written beside it as .json")
    args = ap.parse_args(argv)
    for option, value in (("--out", args.out), ("--cache", args.cache), ("--policy", args.policy)):
        problem = None if value is None else path_lookup_problem(value)
        if problem:
            ap.error(f"{option} {shown_path(value)} is not a usable path ({problem})")
    for ok, message in ((args.games >= 1, f"--games must be >= 1, got {args.games}"),
                        (args.epochs >= 1, f"--epochs must be >= 1, got {args.epochs}"),
                        (0 <= args.seed and args.seed * SEED_STRIDE + args.games <= 2**64,
                         f"--seed must be in 0..{(2**64 - args.games) // SEED_STRIDE:,} (the engine seeds of the games "
                         f"are seed * {SEED_STRIDE:,} + game, below 2**64), got {shown(args.seed)}"),
                        (0 <= args.explore <= 1, f"--explore must be in [0, 1], got {args.explore}"),
                        (0 < args.keep <= 1, f"--keep must be in (0, 1], got {args.keep}"),
                        (0 <= args.holdout < 1, f"--holdout must be in [0, 1), got {args.holdout}"),
                        (0 < args.lr < float("inf"), f"--lr must be a finite number > 0, got {args.lr}"),
                        (0 <= args.weight_decay < float("inf"), f"--weight-decay must be >= 0, got {args.weight_decay}"),
                        (not args.out.is_dir(), f"--out {shown_path(args.out)} is a directory, not a file"),
                        # numpy would add .npz to another suffix; the card goes beside it as .json
                        (args.out.suffix == ".npz", f"--out {shown_path(args.out)} must end in .npz (the value net; "
                                                    f"its card is written beside it as .json)"),
                        (args.cache is None or not args.cache.is_dir(),
                         f"--cache {shown_path(args.cache)} is a directory, not a file"),
                        (args.target == "rank" or args.observation_type == "seer",
                         "--target margin needs --observation-type seer (its data records the lead)")):
        if not ok:
            ap.error(message)
    try:
        held_out_games(args.games, args.holdout)  # before the games are played
    except ValueError as exc:
        ap.error(str(exc))
    try:
        hidden = [int(h) for h in args.hidden.split(",") if h.strip()]
    except ValueError:
        hidden = [0]
    if not hidden or min(hidden) < 1:
        ap.error(f"--hidden must be comma-separated positive layer sizes such as 256,64, got {shown(args.hidden)}")
    torch.set_num_threads(1)
    try:
        path = Path(args.policy) if args.policy else PPOAgent.shipped_path(args.players)
        policy = PPOAgent.load(path)
    except ValueError as exc:
        ap.error(f"--policy: {exc}")
    if policy.game != "spacemission":
        ap.error(f"--policy: {shown_path(path)} is a {policy.game!r} policy; value nets are fitted for Space Mission "
                 f"ones")
    if policy.metadata["num_players"] != args.players:
        ap.error(f"--policy: {shown_path(path)} is a {policy.metadata['num_players']}-player policy, not "
                 f"{args.players}")
    sizes = [int(policy._active.size), *hidden, 1]  # the inputs: the policy's features at the least (seer adds)
    weights = sum((a + 1) * b for a, b in zip(sizes, sizes[1:]))
    try:  # before the games: the fit failed after them, torch unable to allocate the first layer
        check_memory(f"--hidden {cut(args.hidden)}: a network of {count_text(weights)} weights (with their gradients "
                     f"and AdamW's two moments) needs", 16 * weights, "give smaller layer sizes")
    except ValueError as exc:
        ap.error(str(exc))
    policy_sha256 = file_sha256(path)
    settings = cache_settings(args, policy, policy_sha256)
    # every argument is checked before anything is made: a refused --cache (below) left the
    # folder of --out behind, made before it was read
    for option, target in (("--out", args.out), ("--cache", args.cache)):
        if target is None:
            continue
        # a file in the way of its folder (before: found when the file was written, after the
        # games and the fit)
        blocking = file_above(target)
        if blocking is not None:
            ap.error(f"{option} {shown_path(target)}: its folder cannot be made ({shown_path(blocking)} is a file)")
        # and one that cannot be made or written in (a read-only place failed as late); the
        # check leaves nothing behind: the folders are made when their files are written
        problem = folder_write_problem(target.parent)
        if problem:
            ap.error(f"{option} {shown_path(target)}: its folder cannot be written ({problem})")
    cpu0 = time.process_time()
    data = None
    if args.cache is not None and args.cache.is_file():
        try:
            data = load_cache(args.cache, settings)
        except ValueError as exc:
            ap.error(str(exc))
        if args.observation_type == "seer" and "columns" not in data:
            ap.error(f"--cache {shown_path(args.cache)} holds recall positions, not seer ones")
    if data is None:
        data = collect(policy, args.games, seed=args.seed, explore=args.explore, keep=args.keep,
                       rules=policy.metadata["rules"], max_rounds=policy.metadata["max_rounds"],
                       observation_type=args.observation_type)
        if args.cache is not None:
            save_cache(args.cache, settings, data)
    cpu_play = time.process_time() - cpu0
    scale = policy.params["scale"].astype(np.float32)
    active = policy.params["active"]
    if args.observation_type == "seer":
        a = active.size  # the policy's features, then the seer ones ever non-zero in the data
        top = data["x"][:, a:].max(axis=0).astype(np.float32)
        used = np.flatnonzero(top > 0)
        data["x"] = np.concatenate([data["x"][:, :a], data["x"][:, a + used]], axis=1)
        active = np.concatenate([data["columns"][:a], data["columns"][a + used]])
        scale = np.concatenate([scale, 1.0 / top[used]]).astype(np.float32)
        if args.target == "margin":
            data["y"] = (0.5 * data["y"] + 0.5 * np.tanh(data["lead"] / MARGIN_POINTS)).astype(np.float32)
    try:
        model, train_mse, val_mse = fit(data, scale, hidden, holdout=args.holdout, epochs=args.epochs, lr=args.lr,
                                        seed=args.seed, weight_decay=args.weight_decay, games=args.games)
    except ValueError as exc:  # no position kept in the training games
        ap.error(str(exc))
    command = "python -m spacemission_training.value_fit " + " ".join(argv if argv is not None else sys.argv[1:])
    fitting = {"command": command, "games": args.games, "positions": int(len(data["y"])), "seed": args.seed,
               "explore": args.explore, "keep": args.keep, "epochs": args.epochs, "lr": args.lr, "weight_decay": args.weight_decay,
               "holdout": args.holdout, "train_mse": _rounded(train_mse), "validation_mse": _rounded(val_mse),
               "constant_mse": round(float(np.mean(data["y"] ** 2)), 5),
               "cpu_s_play": round(cpu_play, 1), "cpu_s_total": round(time.process_time() - cpu0, 1)}
    policy_meta = policy.metadata
    if args.observation_type != "recall":  # the default's metadata and card stay as they were
        fitting.update(target=args.target, inputs=int(active.size))
        policy_meta = {**policy.metadata, "observation_type": args.observation_type}
    meta = make_value_metadata(policy_metadata=policy_meta, policy_sha256=policy_sha256,
                               architecture={"hidden": hidden, "activation": "relu", "output": "tanh"},
                               fitting=fitting)
    net = to_value_net(model, active, scale, meta)
    out = net.save(args.out)
    card = {"file": out.name, "bytes": out.stat().st_size, "sha256": file_sha256(out), "policy": path.name,
            "metadata": meta}
    out.with_suffix(".json").write_text(json.dumps(card, indent=1, allow_nan=False) + "\n")
    print(json.dumps(fitting, allow_nan=False))
    print(f"-> {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
