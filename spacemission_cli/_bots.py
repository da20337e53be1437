"""The opponents of ``spacemission play`` (both games): their per-decision seeds and their
binding to the game, one home for Space Mission's session and the protocol games' one."""
from __future__ import annotations


def seed_for(seed: int, *parts: int) -> int:
    """A per-seat, per-decision agent seed: a loaded game asks its bots the same questions
    with the same randomness as the uninterrupted game. Every game seed (0..2**64-1) gives
    its own seeds: the seed goes to ``SeedSequence`` whole (it was taken modulo 2**63, so
    seeds s and s + 2**63 gave the bots the same seeds; below 2**63 nothing changed)."""
    import numpy as np  # on first use: the command's start imports no numpy

    # int() before the shift: NumPy 1.x refuses np.uint64 >> int (no common type)
    return int(np.random.SeedSequence([int(seed), *parts]).generate_state(1, np.uint64)[0]) >> 1


def bind_bot(agent, spec: str, config, observation_types, hint: str = "") -> str:
    """Bind ``agent`` (made from ``spec``) to ``config`` and return the observation type it
    asks for; ValueError naming the spec for a refusal (``hint`` appended), a failing
    ``bind`` or ``observation_type``, or a type not in ``observation_types``."""
    if callable(getattr(agent, "bind", None)):
        try:
            agent.bind(config)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"agent {spec!r} refuses this game: {exc}{hint}") from exc
        except Exception as exc:  # noqa: BLE001 - any failure of a bot's bind is named, never a traceback
            raise ValueError(f"agent {spec!r} failed to bind to this game: {type(exc).__name__}: {exc}") from exc
    try:
        observation_type = getattr(agent, "observation_type", None) or "info"
    except Exception as exc:  # noqa: BLE001 - a property of the bot's own
        raise ValueError(f"agent {spec!r}: reading its observation_type failed: {type(exc).__name__}: {exc}") from exc
    if not isinstance(observation_type, str) or observation_type not in observation_types:
        raise ValueError(f"agent {spec!r} asks for observation_type {observation_type!r}; "
                         f"expected one of {tuple(observation_types)}")
    return observation_type


def refuse_imported_bots(specs, game: str, trusted: bool) -> None:
    """A saved game is data: an opponent it names by an import path (``MODULE:CLASS``) would
    import and run that module's code as the file is loaded. ValueError naming the first
    such spec, unless ``trusted`` (``play --trust-load``); registered names and ``ppo:PATH``
    (a numpy file, read without pickle) are always allowed. ``None`` entries (the person)
    are skipped; a malformed spec is left to the bot's own construction to name."""
    from spacemission_agents.registry import parse_spec

    if trusted:
        return
    for spec in specs:
        if spec is None:
            continue
        try:
            target = parse_spec(spec, game)[0]
        except ValueError:
            continue
        if ":" in target:
            raise ValueError(f"the saved game names opponent {spec!r} by an import path, which would import and run "
                             f"{target.partition(':')[0]!r}; loading a file runs no code it names unless you add "
                             f"--trust-load (only for files you trust)")
