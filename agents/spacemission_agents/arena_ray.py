"""The arena's chunks as Ray tasks: ``run_arena(..., ray="auto")``, ``spacemission arena --ray [ADDRESS]``.

Needs Ray (``pip install -e '.[ray]'``); the arena imports this module only when asked to.
The schedule, the chunks and each chunk's seeds are the local arena's (arena.py): every
chunk is one Ray task that builds the agents from their specs, plays the chunk with the
same function as a local worker (``arena_workers.run_chunk``) and returns its games. So with the
same seed and chunk size the results equal the local arena's game for game (every
recorded game and ``results.json`` but its wall-clock timing), whichever nodes played
which chunk (tests/training/test_ray_cluster.py checks this on a two-node cluster).

Agents travel by spec (a few bytes), never as pickled objects: a spec is rebuilt and
bound on the worker, once per worker process and agent list. ``ppo:PATH`` is sent with
the absolute path, so the file must be readable at that path on every node (a shared
file system, or the same checkout on each machine); ``MODULE:CLASS`` must be importable
on every node.
"""
from __future__ import annotations

from pathlib import Path

from spacemission_env.checks import cut_long_words, shown

from .registry import parse_spec, split_model_path

__all__ = ["check_address", "portable_spec", "ray_results", "reach_address"]

CONNECT_TIMEOUT_S = 10.0  # how long a HOST:PORT may take to accept a connection before Ray is asked to join it

_AGENTS: dict = {}  # per worker process: (specs, config) -> built agents


def portable_spec(spec: str) -> str:
    """``spec`` with a ``ppo:PATH`` model path made absolute (the same file from any working directory)."""
    target, path, _ = parse_spec(spec)
    if target != "ppo" or path is None:
        return spec
    params = split_model_path(spec.strip().split(":")[1:])[1]  # after the path, which may hold ':' itself
    return ":".join(["ppo", str(Path(path).expanduser().resolve()), *params])


def _agents(specs: tuple, config: tuple) -> list:
    key = (specs, config)
    if key not in _AGENTS:
        from .arena_workers import game_config_of
        from .registry import make_agent

        agents = [make_agent(s, game=config[3]) for s in specs]
        for a in agents:
            if callable(getattr(a, "bind", None)):
                a.bind(game_config_of(*config))
        _AGENTS.clear()
        _AGENTS[key] = agents
    return _AGENTS[key]


def _play_chunk(specs: tuple, names: list, config: tuple, task: dict) -> dict:
    from . import arena_play
    from .arena_workers import AGENT_INTERRUPTS, run_chunk

    # in a task only an agent raises KeyboardInterrupt: its forfeit, as in a local worker (before, Ray
    # took it for the task's cancellation: TaskCancelledError's traceback); ray.cancel ends the process
    arena_play.AGENT_FAILURES = AGENT_INTERRUPTS
    return run_chunk(_agents(specs, config), names, config, task)


def _host_port(address: str) -> tuple[str, int] | None:
    """(host, port) of a HOST:PORT or ray://HOST:PORT address, None for "", auto and local;
    ValueError for anything else (Ray would misread it, or wait minutes on a bad port)."""
    if address in ("", "auto", "local"):
        return None
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = rest.rpartition(":")
    if not sep or not host or host != host.strip() or not port.isdigit() or not 1 <= int(port) <= 65535:
        raise ValueError(f"{shown(address)} is not a Ray cluster address: expected auto, HOST:PORT (port in 1..65535), "
                         "ray://HOST:PORT, or '' (a local Ray)")
    return host.strip("[]"), int(port)


def check_address(address: str) -> None:
    """ValueError naming ``address`` when it is not one Ray can join (its form only)."""
    _host_port(address)


def reach_address(address: str | None, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """ValueError when ``address`` is malformed or nothing accepts a connection at its
    HOST:PORT within ``timeout`` s: ``ray.init`` would wait minutes there before failing.
    No address ("" or None) means what ``ray.init()`` then joins: the ``RAY_ADDRESS``
    environment variable's cluster when it is set, checked the same way and named."""
    import os
    import socket

    if not address and os.environ.get("RAY_ADDRESS"):
        try:
            return reach_address(os.environ["RAY_ADDRESS"], timeout)
        except ValueError as exc:
            raise ValueError(f"no address given, so Ray joins RAY_ADDRESS={shown(os.environ['RAY_ADDRESS'])}: {exc}") from None
    where = _host_port(address or "")
    if where is None:
        return
    try:
        socket.create_connection(where, timeout=timeout).close()
    except OSError as exc:
        raise ValueError(f"no Ray cluster answers at {shown(address)} ({cut_long_words(str(exc.strerror or exc))}); "
                         f"start one with `ray start --head` or give its address") from None


def init_ray(address: str | None) -> None:
    """Connect to the cluster at ``address`` ("auto", HOST:PORT, ray://...), or start a
    local Ray for "" (or join the one RAY_ADDRESS names). An address that is malformed
    or does not answer is an ArenaArgumentError naming ``ray``, before Ray is asked."""
    import ray

    from .arena import ArenaArgumentError

    if not ray.is_initialized():
        try:
            reach_address(address)
        except ValueError as exc:
            raise ArenaArgumentError("ray", str(exc)) from None
        ray.init(address=address or None, include_dashboard=False, log_to_driver=False, configure_logging=False)


def chunk_error_text(cause: BaseException, where: str = "a chunk") -> str:
    """The message of a chunk's error, as the arena raises it again (a RuntimeError): a
    RuntimeError's own message (the chunk's code says what failed: an agent's seed()); any
    other exception (an agent's bind failing on a node only, its module or model file
    missing there) named after the chunk ``where`` (a chunk_text) and its type. Each long run
    without a space (an agent's 5000-character name or error text, echoed) cut with
    ``cut_long_words`` (it was passed on whole; another type came as Ray's RayTaskError)."""
    text = cut_long_words(str(cause))
    if isinstance(cause, RuntimeError):
        return text
    return f"{where} failed: {type(cause).__name__}{': ' if text else ''}{text}"


CANCEL_WAIT_S = 5.0  # how long the cancelled chunks may take to end, once the arena stopped
RETRIES = 2  # Ray's retries of a chunk whose worker process ended (a node lost); then the arena stops


def ray_results(tasks: list, specs: list[str], names: list[str], config: tuple, address: str | None, report):
    """Every chunk's result in chunk order, played as Ray tasks; ``report(chunk, games)``
    when a chunk ends (the progress bar). A chunk whose worker process ended on every try
    (an agent's os._exit, the system killing it for memory) is a RuntimeError naming the
    chunk, as in a local pool (arena_workers.worker_ended_message); so is a chunk that
    failed as a whole (an agent's seed()), with the message it raised (chunk_error_text).
    The chunks still running are cancelled."""
    import ray
    from ray.exceptions import RayTaskError

    from .arena_workers import chunk_text, worker_ended_message

    init_ray(address)
    play = ray.remote(num_cpus=1, max_retries=RETRIES)(_play_chunk)
    specs_ref = tuple(portable_spec(s) for s in specs)
    refs = [play.remote(specs_ref, names, config, t) for t in tasks]
    pending, done = list(refs), {}
    index = {r: i for i, r in enumerate(refs)}
    try:
        for ref in refs:
            while ref not in done:
                ready, pending = ray.wait(pending, num_returns=1)
                for r in ready:
                    try:
                        done[r] = ray.get(r)
                    except RayTaskError as exc:  # the chunk raised: a RuntimeError's own message, as locally;
                        # another type named with its chunk (a cause Ray could not bring back: its own error)
                        cause = exc.cause if isinstance(exc.cause, BaseException) else exc
                        raise RuntimeError(chunk_error_text(cause, chunk_text(tasks[index[r]], names))) from None
                    except ray.exceptions.RayError as exc:  # WorkerCrashedError, OutOfMemoryError, a node that died
                        how = f"Ray's {type(exc).__name__}, after its retries"
                        raise RuntimeError(worker_ended_message(how, chunk_text(tasks[index[r]], names))) from None
                    report(index[r], len(tasks[index[r]]["games"]))
            yield done.pop(ref)
    finally:
        if pending:  # an error or Ctrl-C: the cluster need not play the rest
            _drop(ray, pending)


def _drop(ray, refs: list) -> None:
    """Cancel the chunks ``refs`` (ending their processes, as a local pool's terminate: a task's
    KeyboardInterrupt is an agent's) and take what they ended with: an error left untaken
    (another chunk that failed too, a cancelled one) was logged as Ray's 'Unhandled error'
    with its remote traceback under the arena's one-line error."""
    for r in refs:
        try:
            ray.cancel(r, force=True)
        except Exception:  # noqa: BLE001 - ended already, or Ray shut down
            pass
    try:
        ready, _ = ray.wait(refs, num_returns=len(refs), timeout=CANCEL_WAIT_S)
        for r in ready:
            try:
                ray.get(r)
            except Exception:  # noqa: BLE001 - the arena stopped already: the error it raised says why
                pass
    except Exception:  # noqa: BLE001 - Ray shut down
        pass
