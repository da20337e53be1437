from ...engine.jit import njit


@njit
def observe_games(out, players, mode, s):
    out[:] = 0
