"""Corrupted JSON states of both games, one field at a time, and the property every one
of them must satisfy (the state-JSON corruption fuzz).

``positions_sm`` / ``positions_rp`` play seeded random games of the reference engines and
keep states at many points (setup, early, mid game, tile decisions, the end; every player
count, Space Mission's rule sets and round limits). ``variants(doc, rng)`` yields
``(label, corrupted document)`` pairs, each one edit away from ``doc``:

- a scalar replaced: integers +-1, negative, huge (2**63, 10**30), float, bool, str, null;
  booleans flipped or given as 0/1/"true"; strings misspelt; nulls given as 0 / -1;
- a list element dropped, duplicated, appended, replaced; two elements swapped;
- a key removed, added, misspelt;
- a list element copied or moved to another list of the same kind (a card in two places,
  a card missing, conservation kept but the card elsewhere);
- one unit moved between two integer fields of one object (conservation kept);
- the turn fields (phase, current player, start player, round, actions left, pending)
  set to every other value.

``check(game, doc)`` loads a variant: it must either raise ValueError (or TypeError)
with a message that starts with the game's prefix, or give a state that passes the
invariants, serialises back to the same document, and runs in both engines alike
(state, mask, observations, a few seeded random steps). It returns "loaded" or
"refused" and raises AssertionError (with the label) otherwise.
"""
from __future__ import annotations

import copy
import json
import random
from dataclasses import dataclass
from typing import Callable

import numpy as np

HUGE = (2**63, 10**30)


# --- positions ---------------------------------------------------------------------------
def positions_sm(per_config: int = 2, seed: int = 0):
    """Space Mission reference states: 2-5 players x both rule sets, round limits 100 and
    3, stopped at random points of kind-uniform random play (tile decisions and finished
    games included)."""
    from spacemission_env.space_mission.random_play import kind_uniform_action
    from spacemission_env.space_mission.rules import game as G, new_game

    r = random.Random(seed)
    out = []
    k = 0
    for n in (2, 3, 4, 5):
        for rules in ("yucata", "schmidt"):
            for max_rounds in (100, 3):
                for _ in range(per_config):
                    k += 1
                    s = new_game(n, seed=1000 + k, rules=rules, max_rounds=max_rounds)
                    stop = r.choice([0, 3, 20, 60, 150, 10**6])
                    tile = r.random() < 0.3
                    t = 0
                    while not s.is_over and (t < stop or (tile and s.phase != "tile" and t < stop + 40)):
                        G.apply(s, kind_uniform_action(s, r))
                        t += 1
                    out.append(s)
    return out


def positions_rp(per_count: int = 6, seed: int = 0):
    """Red Planet reference states: 3-5 players, stopped in every phase of random play."""
    from spacemission_env.red_planet.rules import apply, is_over, legal_actions, new_game

    r = random.Random(seed)
    out = []
    k = 0
    for n in (3, 4, 5):
        for i in range(per_count):
            k += 1
            s = new_game(n, seed=2000 + k)
            stop = r.choice([0, 2, 8, 30, 80, 150, 250, 10**6])
            t = 0
            while not is_over(s) and t < stop:
                apply(s, r.choice(legal_actions(s)))
                t += 1
            out.append(s)
    return out


# --- the corruptions ---------------------------------------------------------------------
def _paths(node, prefix=()):
    yield prefix, node
    if isinstance(node, dict):
        for key, child in node.items():
            yield from _paths(child, prefix + (key,))
    elif isinstance(node, list):
        for i, child in enumerate(node):
            yield from _paths(child, prefix + (i,))


def _shape(path) -> tuple:
    return tuple("*" if isinstance(k, int) else k for k in path)


def _copied(tree):
    """A deep copy of a JSON document (dicts, lists and immutable scalars, as copy.deepcopy
    makes it), in half of copy.deepcopy's time: the fuzz copies its documents about 20,000
    times a run. Any other object is left to copy.deepcopy."""
    kind = type(tree)
    if kind is dict:
        return {k: _copied(v) for k, v in tree.items()}
    if kind is list:
        return [_copied(v) for v in tree]
    if tree is None or kind in (int, float, str, bool):
        return tree
    return copy.deepcopy(tree)


def _at(doc, path):
    node = doc
    for key in path[:-1]:
        node = node[key]
    return node


def _replaced(doc, path, value):
    d = _copied(doc)
    _at(d, path)[path[-1]] = value
    return d


def _scalar_values(v) -> list:
    if type(v) is bool:
        return [not v, int(v), "true" if v else "false", None]
    if type(v) is int:
        return [v + 1, v - 1, -v - 1, *HUGE, float(v), v + 0.5, bool(v & 1), str(v), None]
    if type(v) is str:
        return [v + "x", v.upper() if v.upper() != v else v.lower(), "", None, 0, [v]]
    if v is None:
        return [0, -1, "null", False, []]
    return [None]


def variants(doc: dict, rng: random.Random, per_kind: int | None = None):
    """(label, corrupted copy of ``doc``), one edit each; ``per_kind`` samples at most that
    many edits of each kind of field (paths with list indices wildcarded), else all."""
    paths = [(p, v) for p, v in _paths(doc) if p]
    by_shape: dict[tuple, list] = {}
    for p, v in paths:
        by_shape.setdefault(_shape(p), []).append((p, v))
    chosen = []
    for shape in sorted(by_shape, key=str):
        group = by_shape[shape]
        chosen += group if per_kind is None else rng.sample(group, min(per_kind, len(group)))
    for p, v in chosen:
        name = "/".join(map(str, p))
        parent = _at(doc, p)
        if not isinstance(v, (dict, list)):
            for new in _scalar_values(v):
                yield f"{name} = {new!r}", _replaced(doc, p, new)
        if isinstance(parent, dict):  # a key removed, misspelt
            d = _copied(doc)
            del _at(d, p)[p[-1]]
            yield f"{name} removed", d
            d = _copied(doc)
            node = _at(d, p)
            node[p[-1] + "_"] = node.pop(p[-1])
            yield f"{name} misspelt", d
        else:  # a list element dropped, duplicated, appended twice
            d = _copied(doc)
            del _at(d, p)[p[-1]]
            yield f"{name} dropped", d
            d = _copied(doc)
            _at(d, p).insert(p[-1], _copied(v))
            yield f"{name} duplicated", d
            if len(parent) > 1:
                j = rng.randrange(len(parent))
                if parent[j] != v:
                    d = _copied(doc)
                    node = _at(d, p)
                    node[p[-1]], node[j] = node[j], node[p[-1]]
                    yield f"{name} swapped with [{j}]", d
        if isinstance(v, dict):
            d = _copied(doc)
            _at(d, p + ("x",))["extra"] = 1
            yield f"{name}/extra added", d
        if isinstance(v, list):
            d = _copied(doc)
            _at(d, p + (0,)).append(_copied(v[-1]) if v else 0)
            yield f"{name} appended", d
    d = _copied(doc)
    d["extra"] = 1
    yield "extra key added", d
    yield from _moves(doc, paths, rng, per_kind)
    yield from _transfers(doc, paths, rng, per_kind)


def _moves(doc, paths, rng, per_kind):
    """A string element of one list copied or moved to another list holding strings of the
    same kind (cards, roles, minerals): a card in two places, a card elsewhere."""
    lists = [(p, v) for p, v in paths if isinstance(v, list) and v and all(isinstance(x, str) for x in v)]
    pairs = [(a, b) for a in lists for b in lists if a[0] != b[0]]
    empty = [p for p, v in paths if isinstance(v, list) and not v]
    pairs += [(a, (p, [])) for a in lists for p in empty]
    if per_kind is not None:
        pairs = rng.sample(pairs, min(len(pairs), 4 * per_kind))
    for (pa, va), (pb, _vb) in pairs:
        i = rng.randrange(len(va))
        for move in (False, True):
            d = _copied(doc)
            a, b = _at(d, pa + (0,)), _at(d, pb + (0,))
            item = a[i]
            if move:
                del a[i]
            b.insert(rng.randrange(len(b) + 1), item)
            yield f"{'/'.join(map(str, pa))}[{i}] {'moved' if move else 'copied'} to {'/'.join(map(str, pb))}", d


def _transfers(doc, paths, rng, per_kind):
    """One unit moved between two integer fields of one object (or one list): totals kept."""
    parents: dict[tuple, list] = {}
    for p, v in paths:
        if type(v) is int:
            parents.setdefault(p[:-1], []).append(p)
    pairs = [(a, b) for group in parents.values() for a in group for b in group if a != b]
    if per_kind is not None:
        pairs = rng.sample(pairs, min(len(pairs), 4 * per_kind))
    for a, b in pairs:
        d = _copied(doc)
        _at(d, a)[a[-1]] -= 1
        _at(d, b)[b[-1]] += 1
        yield f"1 from {'/'.join(map(str, a))} to {'/'.join(map(str, b))}", d


def turn_variants(doc: dict, game: str):
    """The turn fields set to every other value they can take."""
    n = doc["num_players"]
    seats = list(range(n))
    if game == "sm":
        fields = {"current_player": seats, "start_player": seats, "actions_left": [0, 1, 2],
                  "phase": ["main", "tile"], "pending": [None, "scan", "develop", "discover"],
                  "round": [1, 2, doc["round"] - 1, doc["round"] + 1, doc["max_rounds"]],
                  "max_rounds": [doc["round"], doc["round"] + 1, 10**9],
                  "end_triggered": [True, False], "is_over": [True, False], "round_limit": [True, False]}
    else:
        from spacemission_env.red_planet.rules.state import PHASES
        fields = {"current_player": seats + [None], "start_player": seats, "phase": list(PHASES),
                  "round": list(range(1, 11))}
    for key, values in fields.items():
        for v in values:
            if v != doc[key]:
                yield f"{key} = {v!r}", dict(doc, **{key: v})
    if game == "rp":
        for key, values in {"role": [None, "Pilot", "Explorer", "Scientist"], "steps_left": [0, 1, 2, 3],
                            "last_actor": seats + [None], "pending_slot": seats + [None]}.items():
            for v in values:
                if v != doc["turn"][key]:
                    yield f"turn/{key} = {v!r}", dict(doc, turn=dict(doc["turn"], **{key: v}))
        for q in seats:
            for key, values in {"acted": [True, False], "commit": [None, "Pilot", "Explorer"]}.items():
                for v in values:
                    if v != doc["players"][q][key]:
                        players = _copied(doc["players"])
                        players[q][key] = v
                        yield f"players/{q}/{key} = {v!r}", dict(doc, players=players)


# --- the property ------------------------------------------------------------------------
@dataclass
class Game:
    name: str
    prefix: tuple[str, ...]  # every refusal message starts with one of these
    from_json: Callable
    from_dict: Callable
    check: Callable  # state -> None, the invariants
    lockstep: Callable  # (state, seed) -> None, both engines alike
    canonical: Callable = lambda doc: doc  # the written form of an accepted document


def _sm_canonical(doc: dict) -> dict:
    """Space Mission's documented freedoms of form that load unchanged in meaning: zero tile
    counts may be written, a seat without reservations may be given as {}, scanned
    positions and last visits may come in any order (docs/state_json.md)."""
    d = _copied(doc)
    counts = lambda tiles: {k: v for k, v in tiles.items() if v != 0}  # noqa: E731
    for entry in d["ring"]:
        entry["pile"] = counts(entry["pile"])
        entry["reservations"] = {q: counts(t) for q, t in entry["reservations"].items() if counts(t)}
    for pl in d["players"]:
        pl["collection"] = counts(pl["collection"])
        pl["scanned"] = sorted(pl["scanned"])
        pl["last_visits"] = sorted(({**v, "pile": counts(v["pile"])} for v in pl["last_visits"]),
                                   key=lambda v: v["position"])
    return d


def _sm_lockstep(s, seed: int, steps: int = 3) -> None:
    from spacemission_env.space_mission import engine
    from spacemission_env.space_mission.rules import game as G
    from tests.helpers.lockstep import same

    r = random.Random(seed)
    ref = s.copy()
    st = engine.from_reference([s])
    same(ref, st, observations=True)
    for k in range(steps):
        if ref.is_over:
            break
        legal = G.legal_actions(ref)
        assert legal, "a running game with no legal action"
        a = r.choice(legal)
        G.apply(ref, a)
        engine.step(st, np.array([a]))
        same(ref, st, observations=k == steps - 1)


def _rp_lockstep(s, seed: int, steps: int = 3) -> None:
    from spacemission_env.red_planet import encoding as E
    from spacemission_env.red_planet import engine
    from spacemission_env.red_planet import rules as R

    def same(ref, st, observations):
        assert engine.to_reference(st, 0) == ref
        if not R.is_over(ref):
            assert np.array_equal(engine.legal_action_mask(st)[0], R.legal_action_mask(ref))
        if observations:
            for t in E.OBSERVATION_TYPES:
                for q in range(ref.num_players):
                    assert np.array_equal(engine.observe(st, q, t)[0], E.observe(ref, q, t)), (t, q)

    r = random.Random(seed)
    ref = s.copy()
    st = engine.from_reference([s])
    same(ref, st, True)
    for k in range(steps):
        if R.is_over(ref):
            break
        legal = R.legal_actions(ref)
        if not legal and ref.phase == "place":  # a placement with nothing left to board: loads (see
            break  # red_planet/rules/state.py, check_can_act), both engines agree that nothing is legal
        assert legal, "a running game with no legal action"
        a = r.choice(legal)
        R.apply(ref, a)
        engine.step(st, np.array([a]))
        R.check_invariants(ref)
        same(ref, st, k == steps - 1)


def sm_game() -> Game:
    from spacemission_env.space_mission.rules import GameState
    from spacemission_env.space_mission.rules.state import check_history, check_invariants, check_turn
    from spacemission_env.space_mission.rules.state_json import state_from_dict

    def check(s):
        check_invariants(s)
        check_turn(s)
        check_history(s)

    return Game("space mission", ("game state",), GameState.from_json, state_from_dict, check, _sm_lockstep,
                _sm_canonical)


def rp_game() -> Game:
    from spacemission_env.red_planet.rules import check_invariants, from_json
    from spacemission_env.red_planet.rules.state_json import state_from_dict

    return Game("red planet", ("red planet state",), from_json, state_from_dict, check_invariants, _rp_lockstep)


def check(game: Game, label: str, doc: dict, seed: int = 0, engines: bool = True) -> str:
    """The property of one variant; "loaded" or "refused"."""
    text = json.dumps(doc)
    before = _copied(doc)
    try:
        game.from_dict(doc)
    except (ValueError, TypeError):
        pass
    except Exception as exc:  # noqa: BLE001 - the point of the fuzz
        raise AssertionError(f"{label}: {type(exc).__name__} from state_from_dict: {exc}") from exc
    assert doc == before, f"{label}: state_from_dict changed its argument"
    try:
        s = game.from_json(text)
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        assert msg.startswith(game.prefix), f"{label}: message without the state prefix: {msg!r}"
        assert len(msg) < 2000, f"{label}: message of {len(msg)} characters"
        return "refused"
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(f"{label}: {type(exc).__name__} from from_json: {exc}") from exc
    try:
        game.check(s)
        back = json.loads(s.to_json())
        doc = game.canonical(doc)
        assert back == doc, f"does not serialise back to the same JSON: {_diff(doc, back)}"
        assert game.from_json(s.to_json()) == s
        if engines:
            game.lockstep(s, seed)
    except Exception as exc:  # noqa: BLE001
        raise AssertionError(f"{label}: loaded, but {type(exc).__name__}: {exc}") from exc
    return "loaded"


def _diff(a, b, path=""):
    if type(a) is not type(b) or not isinstance(a, (dict, list)):
        return f"{path or '/'}: {a!r} -> {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k, "<absent>") != b.get(k, "<absent>"):
                return _diff(a.get(k, "<absent>"), b.get(k, "<absent>"), f"{path}/{k}")
    if len(a) != len(b):
        return f"{path}: {len(a)} entries -> {len(b)}"
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return _diff(x, y, f"{path}/{i}")
    return path


def fuzz(game_name: str, per: int, per_kind: int | None, seed: int) -> dict:
    """{"loaded": n, "refused": m} over every variant of ``per`` positions per
    configuration of ``game_name`` ("sm" or "rp"), each checked by ``check``."""
    game, positions = (sm_game(), positions_sm) if game_name == "sm" else (rp_game(), positions_rp)
    r = random.Random(seed)
    counts = {"loaded": 0, "refused": 0}
    for i, s in enumerate(positions(per, seed=seed)):
        doc = json.loads(s.to_json())
        for label, d in [*variants(doc, r, per_kind), *turn_variants(doc, game_name)]:
            counts[check(game, label, d, seed=i)] += 1
    return counts
