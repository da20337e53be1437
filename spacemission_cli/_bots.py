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


SEER_HELP = "--allow-seer lets it play"


def bot_interrupts():
    """The arena's ``agent_interrupts`` (spacemission_agents.arena_workers), for play and
    serve while they build their bots in the main thread: a real Ctrl-C raises ArenaStopped
    (a KeyboardInterrupt: the user's stop), so a KeyboardInterrupt that a bot's constructor
    raises is the bot's failure (:func:`make_bot`); SIGINT's handler is put back after."""
    from spacemission_agents.arena_workers import agent_interrupts

    return agent_interrupts()


def bot_failures() -> tuple:
    """What a bot may raise that is its own failure here, as the arena counts them
    (``arena_play.AGENT_FAILURES`` of the moment: any exception and SystemExit, and
    KeyboardInterrupt where a real Ctrl-C raises ArenaStopped instead, under
    :func:`bot_interrupts`); in a thread other than the main one (a server's request), where
    no Ctrl-C arrives, KeyboardInterrupt too. A real Ctrl-C (ArenaStopped) is caught first by
    the callers, as the user's stop."""
    import threading

    from spacemission_agents import arena_play
    from spacemission_agents.arena_workers import AGENT_INTERRUPTS

    return arena_play.AGENT_FAILURES if threading.current_thread() is threading.main_thread() else AGENT_INTERRUPTS


def make_bot(spec: str, seed: int, game: str = "spacemission"):
    """``make_agent(spec, seed=seed, game=game)`` for play and serve, where a SystemExit or
    KeyboardInterrupt of the agent's constructor (or of its module, as it loads) is a
    ValueError naming the spec, as in the arena (``make_spec_agent``): an agent whose
    ``__init__`` calls ``sys.exit()`` ended ``play`` without a word and ``serve`` at its start,
    or left a server's request unanswered. A KeyboardInterrupt is the agent's where no Ctrl-C
    can raise one (:func:`bot_failures`): in a thread other than the main one (a server's
    request), or in the main thread under the arena's ``agent_interrupts`` (where a real
    Ctrl-C raises ArenaStopped, which passes: the user's stop); in the main thread under
    Python's own SIGINT handler it passes too (the user's Ctrl-C, as in the arena)."""
    from spacemission_agents.arena_workers import make_spec_agent

    return make_spec_agent(spec, game, seed=seed, failures=bot_failures())


def bind_bot(agent, spec: str, config, observation_types, hint: str = "", allow_seer: bool = False,
             seer_help: str = SEER_HELP) -> str:
    """Bind ``agent`` (made from ``spec``) to ``config`` and return the observation type it
    asks for; ValueError naming the spec for a refusal (``hint`` appended), a failing
    ``bind`` or ``observation_type``, a type not in ``observation_types``, or a whole-state
    type (the arena's WHOLE_STATE_VIEWS, "seer") unless ``allow_seer``: a bot playing a person
    on it would see the person's hand and every hidden card (R-I4, M-I3), as the arena
    refuses it unless allow_seer (``seer_help`` says how to allow it)."""
    from spacemission_agents.arena_files import ArenaStopped

    if callable(getattr(agent, "bind", None)):
        try:
            agent.bind(config)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"agent {spec!r} refuses this game: {exc}{hint}") from exc
        except ArenaStopped:  # the user's Ctrl-C (bot_interrupts)
            raise
        except bot_failures() as exc:  # noqa: BLE001 - any failure of a bot's bind (a sys.exit too) is named, never a traceback
            raise ValueError(f"agent {spec!r} failed to bind to this game: {type(exc).__name__}: {exc}") from exc
    try:
        observation_type = getattr(agent, "observation_type", None) or "info"
    except ArenaStopped:
        raise
    except bot_failures() as exc:  # noqa: BLE001 - a property of the bot's own
        raise ValueError(f"agent {spec!r}: reading its observation_type failed: {type(exc).__name__}: {exc}") from exc
    if not isinstance(observation_type, str) or observation_type not in observation_types:
        raise ValueError(f"agent {spec!r} asks for observation_type {observation_type!r}; "
                         f"expected one of {tuple(observation_types)}")
    if not allow_seer:
        check_not_seer(spec, observation_type, seer_help)
    return observation_type


def seer_note(bots: dict) -> str | None:
    """The line a person is told when bots of ``bots`` (seat -> an object with ``spec`` and
    ``observation_type``) see the whole state, allowed with --allow-seer; None when none does."""
    from spacemission_agents.arena import WHOLE_STATE_VIEWS

    seers = [f"seat {q} ({b.spec})" for q, b in sorted(bots.items()) if getattr(b, "observation_type", None) in WHOLE_STATE_VIEWS]
    return (f"Note: {', '.join(seers)} {'sees' if len(seers) == 1 else 'see'} the whole state (--allow-seer): "
            "your hand and every hidden card.") if seers else None


def check_not_seer(spec: str, observation_type, seer_help: str = SEER_HELP) -> None:
    """ValueError naming ``spec`` when ``observation_type`` is a whole-state view (the
    arena's WHOLE_STATE_VIEWS): against a person such a bot cheats."""
    from spacemission_agents.arena import WHOLE_STATE_VIEWS

    if observation_type in WHOLE_STATE_VIEWS:
        raise ValueError(f"agent {spec!r} asks for observation_type {observation_type!r}, the whole state (every "
                         f"hand, pile and the deck order): playing you it would see your cards and every hidden one; "
                         f"{seer_help}")


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
