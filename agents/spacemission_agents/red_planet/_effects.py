"""What each action does to the projected Mars, in relative seats; private.

Every action of Red Planet that moves astronauts (towards) Mars changes the *projection*
(``View.projection``: Mars plus ship crews at their destinations) in at most two zones.
This module lists those effects for a fixed table of *virtual actions* (relative seats,
hand-piloted ships' destinations spelt out), evaluates them with a bot's zone model in one
vectorised pass, and maps the values onto the real action ids (absolute colours, M-O5,
M-O8). A model provides ``local(counts [N, M, S], zones [N, M]) -> [N, M]`` (the value of
zones holding ``counts``) and optionally ``global_delta(view, proj, ez, ed) -> [N, V]``.

Virtual actions (``VA`` offsets): ``place[k, g]`` g = 1..3 astronauts into pad slot k;
``nodest[z, g]`` g astronauts onto an empty hand-piloted ship sent to z (M-L2); ``dest[z]``
the pending ship to z (M-S4, M-L2); ``move[e]`` an Explorer step along EDGES[e] (M-O2);
``launch[k]`` (M-O4); ``seduce[k, r]`` (M-O5); ``sabotage[k]`` (M-O6); ``kill[z, r]``
(M-O8); ``pilot[k, z]`` (M-O9).
"""
from __future__ import annotations

import numpy as np

from spacemission_env.red_planet.components import (
    EXPLORER,
    FEMME_FATALE,
    PILOT,
    SABOTEUR,
    SECRET_AGENT,
    SOLDIER,
    TRAVEL_AGENT,
)

from ._common import EDGE_FROM, EDGE_TO, GROUP_SIZE, IS_OUTER, PHASE, S, View, Z, block

K = S
G = 3  # at most three astronauts board at once (M-O7)
_SIZES = (("place", K * G), ("nodest", Z * G), ("dest", Z), ("move", len(EDGE_FROM)), ("launch", K),
          ("seduce", K * S), ("sabotage", K), ("kill", Z * S), ("pilot", K * Z))
VA: dict[str, int] = {}
_n = 0
for _name, _size in _SIZES:
    VA[_name] = _n
    _n += _size
NUM_VIRTUAL = _n


def effects(view: View, pad_weight, need: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(zones int [N, V, 2], deltas float [N, V, 2, S]) of the virtual actions; unused
    effects point at the sink zone Z with a zero delta; ``pad_weight`` is a number or one
    per row [N]. With ``need`` (``needed(view)``) only the kinds some row needs are filled.
    Invalid virtual actions (an empty slot, too few free seats) get effects too; callers
    read only the needed ones."""
    N = view.N
    kinds = {name for name, size in _SIZES if need is None or need[:, VA[name]:VA[name] + size].any()}
    ez = np.full((N, NUM_VIRTUAL, 2), Z, dtype=np.int64)
    ed = np.zeros((N, NUM_VIRTUAL, 2, S))
    me = np.zeros(S)
    me[0] = 1.0
    pw = np.broadcast_to(np.asarray(pad_weight, dtype=np.float64), (N,))[:, None]  # [N, 1]
    w_slot = view.slot_weights(pad_weight)  # [N, K]
    crew_w = view.crew * w_slot[:, :, None]  # [N, K, S] weighted crew, as in the projection
    if "place" in kinds:
        # place[k, g]: g of mine aboard; a ship that fills launches (M-L3) and weighs 1
        o = VA["place"]
        for g in range(1, G + 1):
            after = view.crew + g * me
            w_after = np.where(view.free - g <= 0, 1.0, pw)[:, :, None]
            idx = o + np.arange(K) * G + (g - 1)
            ez[:, idx, 0] = view.dest
            ed[:, idx, 0] = after * w_after - crew_w
    if "nodest" in kinds:
        # nodest[z, g]: an empty hand-piloted ship gets destination z from its first placer (M-L2)
        o = VA["nodest"]
        for g in range(1, G + 1):
            idx = o + np.arange(Z) * G + (g - 1)
            ez[:, idx, 0] = np.arange(Z)[None, :]
            ed[:, idx, 0] = g * pw[:, :, None] * me
    if "dest" in kinds:
        # dest[z]: the pending ship's crew goes to z (it launches if full). A Travel Agent or
        # Soldier boards the rest of his group only after the zone is chosen (M-O7, M-O8,
        # rules.choose_destination): they go to z too
        o = VA["dest"]
        has = view.pending >= 0
        k = np.maximum(view.pending, 0)
        rows = np.arange(N)
        group = (view.phase == PHASE["destination"]) & has & np.isin(view.role, (TRAVEL_AGENT, SOLDIER))
        rest = np.where(group, GROUP_SIZE[np.maximum(view.role, 0)] - view.placed.sum(axis=1).astype(np.int64), 0)
        rest = np.minimum(np.maximum(rest, 0), view.free[rows, k])
        pcrew = view.crew[rows, k] * has[:, None] + rest[:, None] * me
        w_p = np.where(view.free[rows, k] - rest <= 0, 1.0, pw[:, 0])[:, None]
        ez[:, o:o + Z, 0] = np.arange(Z)[None, :]
        ed[:, o:o + Z, 0] = (pcrew * w_p)[:, None, :]
    if "move" in kinds:
        # move[e]: one of mine from a to b (M-O2)
        o = VA["move"]
        ne = len(EDGE_FROM)
        ez[:, o:o + ne, 0] = EDGE_FROM[None, :]
        ez[:, o:o + ne, 1] = EDGE_TO[None, :]
        ed[:, o:o + ne, 0] = -me
        ed[:, o:o + ne, 1] = me
    if "launch" in kinds:
        # launch[k]: a pad ship weighs 1 once airborne (M-O4)
        o = VA["launch"]
        ez[:, o:o + K, 0] = view.dest
        ed[:, o:o + K, 0] = view.crew * (1.0 - pw[:, :, None])
    if "seduce" in kinds:
        # seduce[k, r]: one of seat r aboard becomes one of mine (M-O5)
        o = VA["seduce"]
        for r in range(1, S):
            idx = o + np.arange(K) * S + r
            ez[:, idx, 0] = view.dest
            d = np.zeros((N, K, S))
            d[:, :, 0] = w_slot
            d[:, :, r] = -w_slot
            ed[:, idx, 0] = d
    if "sabotage" in kinds:
        # sabotage[k]: the crew is killed (M-O6)
        o = VA["sabotage"]
        ez[:, o:o + K, 0] = view.dest
        ed[:, o:o + K, 0] = -crew_w
    if "kill" in kinds:
        # kill[z, r]: one astronaut of seat r in zone z (M-O8)
        o = VA["kill"]
        for r in range(S):
            idx = o + np.arange(Z) * S + r
            ez[:, idx, 0] = np.arange(Z)[None, :]
            ed[:, idx, 0, r] = -1.0
    if "pilot" in kinds:
        # pilot[k, z]: the crew flies to z instead (M-O9)
        o = VA["pilot"]
        for z in range(Z):
            idx = o + np.arange(K) * Z + z
            same = view.dest == z
            ez[:, idx, 0] = np.where(same, Z, view.dest)
            ez[:, idx, 1] = np.where(same, Z, z)
            ed[:, idx, 0] = -crew_w * ~same[:, :, None]
            ed[:, idx, 1] = crew_w * ~same[:, :, None]
    return ez, ed


def needed(view: View) -> np.ndarray:
    """bool [N, V]: the virtual actions that can matter in each row's decision: those that
    are possible (a pad ship with free seats, an own astronaut to move, a colour aboard or
    in an outer zone ...) and belong to the decision asked (a role choice needs them all)."""
    N = view.N
    out = np.zeros((N, NUM_VIRTUAL), dtype=bool)
    phase, role = view.phase, view.role
    commit = phase == PHASE["commit"]
    relevant = {
        "place": commit | (phase == PHASE["place"]),
        "nodest": commit | (phase == PHASE["place"]),
        "dest": (phase == PHASE["setup_zone"]) | (phase == PHASE["destination"]),
        "move": commit | (phase == PHASE["ability"]) & (role == EXPLORER),
        "launch": commit | (phase == PHASE["ability"]) & (role == SECRET_AGENT),
        "seduce": commit | (phase == PHASE["ability"]) & (role == FEMME_FATALE),
        "sabotage": commit | (phase == PHASE["ability"]) & (role == SABOTEUR),
        "kill": commit | (phase == PHASE["ability"]) & (role == SOLDIER),
        "pilot": commit | (phase == PHASE["ability"]) & (role == PILOT),
    }
    g = np.arange(1, G + 1)
    possible = {
        "place": view.on_pad[:, :, None] & view.has_dest[:, :, None] & (view.free[:, :, None] >= g),
        "nodest": np.broadcast_to(((view.token_supply > 0)[:, :, None] &
                                   (view.on_pad & ~view.has_dest).any(axis=1)[:, None, None]), (N, Z, G)),
        "dest": np.broadcast_to((view.pending >= 0)[:, None], (N, Z)),
        "move": view.mars[:, EDGE_FROM, 0] > 0,
        "launch": view.on_pad,
        "seduce": view.slot_used[:, :, None] & (view.crew > 0) & (np.arange(S) > 0),
        "sabotage": view.on_pad,
        "kill": IS_OUTER[None, :, None] & (view.mars > 0),
        "pilot": view.has_dest[:, :, None] & (view.token_supply[:, None, :] > 0) &
        (view.dest[:, :, None] != np.arange(Z)),
    }
    for name, size in _SIZES:
        o = VA[name]
        out[:, o:o + size] = possible[name].reshape(N, size) & relevant[name][:, None]
    return out


def evaluate(view: View, proj: np.ndarray, model, ez: np.ndarray, ed: np.ndarray, need: np.ndarray) -> np.ndarray:
    """[N, V] change of the model's value of the projection by each virtual action that
    ``need`` (``needed(view)``) lists (0 for the others). A model's ``local(counts [M, S], rows [M], zones
    [M]) -> [M]`` values zones holding ``counts``; its optional ``global_delta(view, proj,
    rows, ez, ed) -> [P]`` adds the terms that depend on all zones."""
    N, V = ez.shape[:2]
    zr = proj.shape[1]
    base = model.local(proj.reshape(N * zr, -1), np.repeat(np.arange(N), zr), np.tile(np.arange(zr), N)).reshape(N, zr)
    r, v = np.nonzero(need)
    out = np.zeros((N, V))
    if not len(r):
        return out
    ez_f, ed_f = ez[r, v], ed[r, v]  # [P, 2], [P, 2, S]
    after = np.maximum(proj[r[:, None], ez_f] + ed_f, 0.0)
    dv = model.local(after.reshape(-1, after.shape[-1]), np.repeat(r, 2), ez_f.reshape(-1)).reshape(-1, 2)
    dv -= base[r[:, None], ez_f]
    dv[ez_f == Z] = 0.0
    out[r, v] = dv.sum(axis=1)
    if hasattr(model, "global_delta"):
        out[r, v] += model.global_delta(view, proj, r, ez_f, ed_f)
    return out


def action_values(view: View, vv: np.ndarray) -> np.ndarray:
    """[N, 243] values of the real action ids that move astronauts, from the virtual values
    ``vv`` [N, V]; every other id gets 0 (the bots value those themselves)."""
    N = view.N
    out = np.zeros((N, block("pass").stop))
    rows = np.arange(N)
    # place k: the current role boards GROUP_SIZE astronauts at once (M-O7, M-O8)
    g = GROUP_SIZE[np.maximum(view.role, 0)]
    place = vv[:, VA["place"]:VA["place"] + K * G].reshape(N, K, G)[rows, :, g - 1]
    nodest = vv[:, VA["nodest"]:VA["nodest"] + Z * G].reshape(N, Z, G)[rows, :, g - 1]
    nodest = np.where(view.token_supply > 0, nodest, -np.inf).max(axis=1)  # the first placer's best zone
    out[:, block("place")] = np.where(view.has_dest, place, nodest[:, None])
    dest = vv[:, VA["dest"]:VA["dest"] + Z]
    out[:, block("setup_zone")] = dest
    out[:, block("destination")] = dest
    out[:, block("move")] = vv[:, VA["move"]:VA["move"] + len(EDGE_FROM)]
    out[:, block("launch")] = vv[:, VA["launch"]:VA["launch"] + K]
    out[:, block("sabotage")] = vv[:, VA["sabotage"]:VA["sabotage"] + K]
    out[:, block("pilot")] = vv[:, VA["pilot"]:VA["pilot"] + K * Z]
    # colours: absolute seat c is relative seat (c - me) mod n
    c = np.arange(S)[None, :]
    rel = (c - view.me[:, None]) % view.n[:, None]  # [N, S]
    rel = np.where(c < view.n[:, None], rel, 0)
    seduce = vv[:, VA["seduce"]:VA["seduce"] + K * S].reshape(N, K, S)
    out[:, block("seduce")] = np.take_along_axis(seduce, np.broadcast_to(rel[:, None, :], (N, K, S)), 2).reshape(N, -1)
    kill = vv[:, VA["kill"]:VA["kill"] + Z * S].reshape(N, Z, S)
    out[:, block("kill")] = np.take_along_axis(kill, np.broadcast_to(rel[:, None, :], (N, Z, S)), 2).reshape(N, -1)
    return out


def virtual(vv: np.ndarray, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """The virtual values of one kind, shaped [N, *shape]."""
    o = VA[name]
    return vv[:, o:o + int(np.prod(shape))].reshape((vv.shape[0],) + shape)


def role_values(view: View, vv: np.ndarray, explorer_steps: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """(placement [N, 9], ability [N, 9]): what each role would gain if its turn came now,
    from the virtual values ``vv``: the best legal placement (M-L1, two different ships
    for the Secret Agent M-O4, one ship with enough free seats for the Travel Agent M-O7
    and the Soldier M-O8, whose placement is compulsory) and the best ability (Explorer:
    ``explorer_steps`` times its best step; the Recruiter, Scientist and Travel Agent: 0 here)."""
    N = view.N
    place = virtual(vv, "place", (K, G))
    nodest = np.where(view.token_supply[:, :, None] > 0, virtual(vv, "nodest", (Z, G)), -np.inf).max(axis=1)  # [N, G]
    a = np.where(view.has_dest[:, :, None], place, nodest[:, None, :])
    enough = (view.free[:, :, None] >= np.arange(1, G + 1)) & view.on_pad[:, :, None]
    enough &= view.supply[:, 0, None, None] >= np.arange(1, G + 1)
    a = np.where(enough, a, -np.inf)
    one = np.sort(a[:, :, 0], axis=1)[:, ::-1]  # best slots first
    best1 = np.maximum(one[:, 0], 0.0)
    two_ships = best1 + np.maximum(one[:, 1], 0.0)
    best2 = np.maximum(two_ships, np.maximum(a[:, :, 1].max(axis=1), 0.0))
    group = lambda g: np.where(np.isfinite(a[:, :, g - 1]).any(axis=1), a[:, :, g - 1].max(axis=1), 0.0)
    placement = np.stack([best1, best1, best2, two_ships, best1, best1, group(3), group(2), best2], axis=1)
    ability = np.zeros((N, 9))
    mine_there = view.mars[:, :, 0] > 0  # [N, Z]
    move = np.where(mine_there[:, EDGE_FROM], virtual(vv, "move", (len(EDGE_FROM),)), -np.inf)
    ability[:, 1] = explorer_steps * np.maximum(move.max(axis=1), 0.0)
    launch = np.where(view.on_pad & (view.free > 0), virtual(vv, "launch", (K,)), -np.inf)
    ability[:, 3] = np.maximum(launch.max(axis=1), 0.0)
    others = np.arange(S)[None, None, :] > 0
    seduce = np.where((view.crew > 0) & others & view.slot_used[:, :, None], virtual(vv, "seduce", (K, S)), -np.inf)
    ability[:, 4] = np.where(view.supply[:, 0] >= 2, np.maximum(seduce.max(axis=(1, 2)), 0.0), 0.0)
    sabotage = np.where(view.on_pad, virtual(vv, "sabotage", (K,)), -np.inf)
    ability[:, 5] = np.maximum(sabotage.max(axis=1), 0.0)
    kill = np.where((view.mars > 0) & IS_OUTER[None, :, None], virtual(vv, "kill", (Z, S)), -np.inf)
    ability[:, 7] = np.maximum(kill.max(axis=(1, 2)), 0.0)
    pilot_ok = view.has_dest[:, :, None] & (view.token_supply[:, None, :] > 0) & \
        (view.dest[:, :, None] != np.arange(Z)[None, None, :])
    pilot = np.where(pilot_ok, virtual(vv, "pilot", (K, Z)), -np.inf)
    ability[:, 8] = np.maximum(pilot.max(axis=(1, 2)), 0.0)
    return placement, ability
