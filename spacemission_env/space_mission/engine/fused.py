"""One kernel call for a step, the new legal masks and the acting seats' observations.

A loop over one game (the PettingZoo AEC env, the Gymnasium env) pays numba's dispatch per array argument
(about 65 ns each on this machine) on every call: ``step``, ``legal_action_mask`` and
``observe`` each take 13-40 of them, which cost as much as the work for a batch of one.
``step_mask_observe`` does the three in one call; its results are the three functions'.
"""
from __future__ import annotations


from ...jit import njit
from .kernels import legal_mask, step_games
from .observe import observe_games


@njit
def step_mask_observe(actions, everyone, mask_out, obs_out, players, off, mode, rules_id, max_rounds,
                      rng, ring, piles, revealed, draw, draw_len, discard, discard_len, hand, hand_len, supply,
                      gate_probes, ship, collection, scanned, last_seen, last_seen_round, reservations,
                      stations, start_player, current_player, round_, actions_left, phase, pending,
                      end_triggered, terminated, round_limit, turn_len, turn_kind, turn_target, turn_ncards,
                      turn_cards, turn_tile, card_table, planet_coords, tile_counts, end_table):
    """``step_games`` on every game, then, if every action was legal, ``legal_mask`` into
    ``mask_out`` and the acting seats' observations into ``obs_out`` (``players`` [B] int64
    receives the acting seats). Returns -1, or, changing nothing, the first illegal game.
    ``everyone`` is the state's read-only ``all_games``: numba types read-only and writable
    arrays apart, so an array made here would compile ``step_games`` and ``legal_mask``
    (the largest kernels) a second time beside the ``select=None`` calls of api.py."""
    bad = step_games(actions, everyone,
                     rng, ring, piles, revealed, draw, draw_len, discard, discard_len, hand, hand_len, supply,
                     gate_probes, ship, collection, scanned, last_seen, last_seen_round, reservations, stations,
                     start_player, current_player, round_, actions_left, phase, pending, end_triggered,
                     terminated, round_limit, turn_len, turn_kind, turn_target, turn_ncards, turn_cards,
                     turn_tile, card_table, planet_coords, tile_counts, end_table, max_rounds)
    if bad >= 0:
        return bad
    legal_mask(mask_out, everyone, ring, piles, hand, hand_len, supply, ship, scanned, stations, current_player,
               phase, terminated, card_table, planet_coords)
    if mode < 0:  # no observation wanted (step_observe's observation_type=None)
        return -1
    for b in range(players.shape[0]):
        players[b] = current_player[b]
    observe_games(obs_out, players, off, mode, rules_id, max_rounds,
                  ring, piles, revealed, draw, draw_len, discard, discard_len, hand, hand_len, supply,
                  gate_probes, ship, collection, scanned, last_seen, last_seen_round, reservations, stations,
                  start_player, current_player, round_, actions_left, phase, pending, end_triggered, terminated,
                  round_limit, turn_len, turn_kind, turn_target, turn_ncards, turn_cards, turn_tile,
                  card_table, planet_coords, end_table)
    return -1
