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


def block_span(layout, name: str) -> tuple[int, int] | None:
    """(start, stop) of block ``name`` in a layout of (name, start, stop, meaning) rows
    (``observation_layout``'s), or None where the layout has no such block."""
    return next(((a, b) for block, a, b, _ in layout if block == name), None)


def required_block_span(layout, name: str) -> tuple[int, int]:
    """:func:`block_span` of a block the layout must have (the bots' ``seat_present``, their
    player count): ValueError naming the block where the layout has none."""
    span = block_span(layout, name)
    if span is None:
        raise ValueError(f"the observation layout has no {name!r} block")
    return span


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


def layout_tables_markdown(encoding) -> list[str]:
    """The markdown tables of a game's observation blocks (``info``/``recall`` share one,
    ``seer`` adds its own after the info blocks), from ``encoding.observation_layout`` and
    ``observation_shapes``: the body of each game's generated observation page."""
    lines = []
    d_info = encoding.observation_size("info")
    info_names = {r[0] for r in encoding.observation_layout("info")}
    for kind, title in (("info", "`info` and `recall`"), ("seer", "`seer`")):
        lines += [f"## {title}", "", "| name | shape | indices | size | meaning |", "|---|---|---|---|---|"]
        shapes = encoding.observation_shapes(kind)
        if kind == "seer":
            lines.append(f"| (info blocks, recall-filled) | | 0-{d_info - 1} | {d_info} | as above |")
        for name, a, b, meaning in encoding.observation_layout(kind):
            if kind == "seer" and name in info_names:
                continue
            lines.append(f"| `{name}` | {list(shapes[name])} | {a}-{b - 1} | {b - a} | {meaning} |")
        lines.append("")
    return lines
