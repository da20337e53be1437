"""Scoring of Mission: Red Planet: the distributions after rounds 5 and 8 (M-P1, M-P2),
the final scoring after round 10 (M-P3) with the discovery cards (M-E2..M-E10) and the
bonus cards (M-E11..M-E19), the score breakdown and the winners (M-P4).

Only astronauts on Mars count, never those on ships. A zone's counters (its pot and its
leftover) are of the zone's mineral type.
"""
from __future__ import annotations

from ..components import (
    CARD_KIND,
    CELERIUM,
    CENTRAL_ZONES,
    EVENT_PARAM,
    FINAL_BASE,
    ICE,
    ICE_BONUS,
    MINERAL_VALUE,
    MISSION_OF,
    MISSION_ZONES,
    NUM_MINERALS,
    NUM_ZONES,
    SECOND_DISTRIBUTION_BASE,
    SYLVANITE,
)
from .state import NONE, GameState, check_state

CATEGORIES = ("ice", "sylvanite", "celerium", "ice_bonus", "discovery_cards", "bonus_cards", "total")


def leaders(counts: list[int]) -> list[int]:
    """Seats with the most, at least one (an empty count has no leader)."""
    top = max(counts)
    return [q for q, c in enumerate(counts) if c == top] if top > 0 else []


def present(state: GameState, zone: int, player: int) -> bool:
    """"Present": at least one own astronaut in the zone (M-E7..M-E12, M-E17)."""
    return state.mars[zone][player] > 0


def distribution_after_round_5(state: GameState) -> None:
    """M-P1: per zone, a single leader gets one counter of the zone's type; a tie for most
    lays it in the zone as leftover; an empty zone gives nothing."""
    for z in range(NUM_ZONES):
        top = leaders(state.mars[z])
        if len(top) == 1:
            state.players[top[0]].counters[state.mineral[z]] += 1
        elif top:
            state.leftover[z] += 1


def share_pot(state: GameState, zone: int, pot: int) -> int:
    """A single leader takes the pot; k tied leaders floor(pot/k) each. Returns what is
    not handed out (the remainder; the whole pot in an empty zone)."""
    top = leaders(state.mars[zone])
    if not top:
        return pot
    for q in top:
        state.players[q].counters[state.mineral[zone]] += pot // len(top)
    return pot % len(top)


def distribution_after_round_8(state: GameState) -> None:
    """M-P2: pot = 2 + leftover; the remainder stays; an empty zone adds nothing and
    keeps its leftover."""
    for z in range(NUM_ZONES):
        if leaders(state.mars[z]):
            state.leftover[z] = share_pot(state, z, SECOND_DISTRIBUTION_BASE + state.leftover[z])


def cards_on_mars(state: GameState, kind: str) -> list[int]:
    """Zones holding a discovery card of ``kind``."""
    return [z for z in range(NUM_ZONES) if state.discovery[z] != NONE and CARD_KIND[state.discovery[z]] == kind]


def radiation(state: GameState, zone: int) -> None:
    """M-E8: the player(s) with the most astronauts here remove all of theirs (not killed:
    not to the LiSM)."""
    for q in leaders(state.mars[zone]):
        state.players[q].removed += state.mars[zone][q]
        state.mars[zone][q] = 0


def faulty_analysis(state: GameState, zone: int) -> None:
    """M-E2: the zone's mineral token is replaced by the top of the pool (it may be of the
    same type); the old token goes under the pool; leftovers take the new type. No token:
    no effect."""
    if state.mineral[zone] != NONE:
        old = state.mineral[zone]
        state.mineral[zone] = state.mineral_pool.pop()
        state.mineral_pool.insert(0, old)


def final_pot(state: GameState, zone: int) -> int:
    """M-P3 step 2: base 3 (M-E4: 2, M-E6: 5) plus leftover; M-E5: nothing at all."""
    kind = CARD_KIND[state.discovery[zone]] if state.discovery[zone] != NONE else None
    if kind == "mine_disaster":
        return 0
    base = EVENT_PARAM[kind].get("final_base", FINAL_BASE) if kind else FINAL_BASE
    return base + state.leftover[zone]


def final_scoring(state: GameState) -> None:
    """M-P3 steps 1-3 (the points of steps 4-6 are read from the final state by ``scores``)."""
    # 1. discovery cards revealed: M-E8, then M-E2
    for z in cards_on_mars(state, "radiation"):
        radiation(state, z)
    for z in cards_on_mars(state, "faulty_analysis"):
        faulty_analysis(state, z)
    # 2. the final pots; the remainder is lost
    for z in range(NUM_ZONES):
        if leaders(state.mars[z]):
            share_pot(state, z, final_pot(state, z))
            state.leftover[z] = 0  # the remainder is lost (an empty zone keeps its leftover, unscored)
    # 3. M-E10 (counters); M-E7, M-E9 are points (scores); then M-E13. M-E3 (pretty rock)
    # has no effect: nothing scores it. The vein's one counter is the spec's own rule, not a
    # reconstructed value, so it is written here rather than read from the data file.
    for z in cards_on_mars(state, "sylvanite_vein"):
        for q in range(state.num_players):
            if present(state, z, q):
                state.players[q].counters[SYLVANITE] += 1
    for pl in state.players:
        pl.counters[ICE] += sum(EVENT_PARAM["ice_blocks"]["counters"] for c in pl.bonus if CARD_KIND[c] == "ice_blocks")


def discovery_points(state: GameState, player: int) -> int:
    """M-E7 (6 per present player), M-E9 (1 per own astronaut)."""
    pts = 0
    for z in cards_on_mars(state, "mosses"):
        pts += EVENT_PARAM["mosses"]["points"] if present(state, z, player) else 0
    for z in cards_on_mars(state, "meteorites"):
        pts += EVENT_PARAM["meteorites"]["points"] * state.mars[z][player]
    return pts


def ice_bonus(state: GameState) -> list[int]:
    """M-P3 step 5: most ice counters scores 9, tied leaders share it rounded down; nobody
    scores it without ice."""
    top = leaders([pl.counters[ICE] for pl in state.players])
    return [ICE_BONUS // len(top) if q in top else 0 for q in range(state.num_players)]


def sole_most(values: list[int], player: int) -> bool:
    """"He alone has the most" (at least one)."""
    top = leaders(values)
    return top == [player]


def nobody_more(values: list[int], player: int) -> bool:
    """"Nobody has more" (ties score; at least one)."""
    return player in leaders(values)


def bonus_card_points(state: GameState, player: int, card: int) -> int:
    """M-E11..M-E19 on the final state."""
    kind, n = CARD_KIND[card], state.num_players
    pts = EVENT_PARAM[kind].get("points", 0)
    zones_present = [z for z in range(NUM_ZONES) if present(state, z, player)]
    if kind == "secret_mission":  # M-E11
        return pts if all(present(state, z, player) for z in MISSION_ZONES[MISSION_OF[card]]) else 0
    if kind == "top_secret_mission":  # M-E12
        return pts * sum(1 for z in zones_present if not any(present(state, z, q) for q in range(n) if q != player))
    if kind == "celerium":  # M-E14
        return pts if sole_most([pl.counters[CELERIUM] for pl in state.players], player) else 0
    if kind == "sylvanite":  # M-E15
        return pts if sole_most([pl.counters[SYLVANITE] for pl in state.players], player) else 0
    if kind == "memorial":  # M-E16
        return pts * state.players[player].lism
    if kind == "good_planning":  # M-E17
        return pts * len(zones_present)
    if kind == "colonisation":  # M-E18
        return pts if nobody_more([sum(state.mars[z][q] for z in range(NUM_ZONES)) for q in range(n)], player) else 0
    if kind == "strategic_zones":  # M-E19
        return pts if nobody_more([sum(state.mars[z][q] for z in CENTRAL_ZONES) for q in range(n)], player) else 0
    return 0  # M-E13 Eisblöcke: counters, given in final_scoring


def scores(state: GameState) -> list[dict]:
    """Score per seat by category (CATEGORIES): counters by type (M-P3 step 4) always;
    the ice bonus, discovery and bonus cards (steps 3, 5, 6) once the game is over."""
    check_state(state)
    over = state.phase == "over"
    ice = ice_bonus(state) if over else [0] * state.num_players
    out = []
    for q, pl in enumerate(state.players):
        row = {name: pl.counters[t] * MINERAL_VALUE[t] for t, name in zip(range(NUM_MINERALS), CATEGORIES)}
        row["ice_bonus"] = ice[q]
        row["discovery_cards"] = discovery_points(state, q) if over else 0
        row["bonus_cards"] = sum(bonus_card_points(state, q, c) for c in pl.bonus) if over else 0
        row["total"] = sum(row.values())
        out.append(row)
    return out


def winners(state: GameState) -> list[int]:
    """M-P4: the highest total; tied players share the win."""
    totals = [row["total"] for row in scores(state)]
    return [q for q, t in enumerate(totals) if t == max(totals)]
