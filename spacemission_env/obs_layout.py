"""The layout of an observation vector as named blocks, for every game's encoder
(game-neutral): a game lists its blocks ``(name, shape, meaning)`` per observation type;
the vector is their concatenation, and ``decode`` gives named views of it."""
from __future__ import annotations

import numpy as np


def block_layout(blocks) -> tuple:
    """((name, start, stop, meaning), ...) of blocks ``(name, shape, meaning)`` laid end to end."""
    out, k = [], 0
    for name, shape, meaning in blocks:
        n = int(np.prod(shape))
        out.append((name, k, k + n, meaning))
        k += n
    return tuple(out)


def decode_blocks(obs, layout: tuple, shapes: dict, observation_type: str) -> dict[str, np.ndarray]:
    """Named views of one observation [D] or a batch [N, D] (any dtype): {block name: array
    of shape ``shapes[name]`` or [N, *shape]}, views into ``obs`` (no copy) when it is a
    numpy array. ValueError for a last dimension other than D."""
    arr = np.asarray(obs)
    d = layout[-1][2]
    if arr.ndim not in (1, 2) or arr.shape[-1] != d:
        raise ValueError(f"observation_type {observation_type!r}: an observation has shape [{d}] or [N, {d}], "
                         f"got {list(arr.shape)}")
    lead = arr.shape[:-1]
    return {name: arr[..., a:b].reshape(lead + shapes[name]) for name, a, b, _ in layout}
