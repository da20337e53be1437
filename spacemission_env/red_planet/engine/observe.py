from ...engine.jit import njit


@njit
def observe_games(out, players, mode, g):
    out[:] = 0
