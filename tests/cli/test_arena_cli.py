"""`spacemission arena` and the command's dispatch (`spacemission demo` still works)."""
import json
import re

import pytest

from spacemission_cli.main import COMMANDS, main


def test_arena_command_writes_results(tmp_path, capsys):
    out = tmp_path / "results"
    code = main(["arena", "--agents", "random,kind-random", "--players", "3", "--games", "3", "--max-rounds", "8",
                 "--seed", "2", "--out", str(out), "--no-progress"])
    assert code == 0
    text = capsys.readouterr().out
    assert "random vs kind-random" in text and "6 games" in text and f"written to {out}" in text
    for f in ("results.json", "pairs.csv", "agents.csv", "arena.png", "games.jsonl"):
        assert (out / f).is_file()
    data = json.loads((out / "results.json").read_text())
    assert data["config"]["num_players"] == 3 and data["config"]["seed"] == 2 and data["config"]["max_rounds"] == 8
    assert len((out / "games.jsonl").read_text().splitlines()) == 6


def test_no_record(tmp_path):
    assert main(["arena", "--agents", "random,kind-random", "--games", "2", "--max-rounds", "3", "--out", str(tmp_path),
                 "--no-record", "--no-progress"]) == 0
    assert (tmp_path / "results.json").is_file() and not (tmp_path / "games.jsonl").exists()


def test_no_record_without_out_is_a_usage_error(tmp_path, capsys, monkeypatch):
    """--no-record only turns off the games.jsonl of --out: without --out it meant nothing and was
    accepted (the arena played on, writing nothing either way). Now a usage error names both
    flags, before any game, as --overwrite without --out is refused."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exc:
        main(["arena", "--agents", "random,kind-random", "--games", "2", "--max-rounds", "3", "--no-record",
              "--no-progress"])
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert "argument --no-record: only with --out" in captured.err and "games" not in captured.out
    assert list(tmp_path.iterdir()) == []


def test_title_counts_one_deal_and_one_lineup_in_the_singular(capsys):
    """2 agents, 2 players, 2 games: one deal, two seatings, one lineup. Before: '(1 deals x
    2 seatings x 1 lineups)'."""
    assert main(["arena", "--agents", "random,kind-random", "--games", "2", "--max-rounds", "3", "--no-progress"]) == 0
    assert "2 games (1 deal x 2 seatings x 1 lineup), seed 0" in capsys.readouterr().out


@pytest.mark.parametrize("args, message", [
    (["--agents", "random,nope"], "argument --agents: unknown agent 'nope'"),
    (["--agents", "random"], "argument --agents: agents must list at least 2 agents"),
    (["--agents", "random,kind-random", "--players", "7"], r"argument --players: num_players must be an integer in 2..5"),
    (["--agents", "random,kind-random", "--games", "0"], "argument --games: games must be a positive integer"),
    (["--agents", "random,kind-random", "--games", "many"], "argument --games: expected an integer, got 'many'"),
    (["--agents", "random,kind-random", "--workers", "0"], "argument --workers: workers must be a positive integer"),
    (["--agents", "random,kind-random", "--rules", "classic"], "argument --rules: invalid choice: 'classic'"),
    (["--agents", "random,search:budget=-1"], "argument --agents: "),
    (["--players", "2"], "the following arguments are required: --agents"),
])
def test_bad_arguments_name_the_option(args, message, capsys):
    with pytest.raises(SystemExit) as info:
        main(["arena", *args])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "usage: spacemission arena" in err
    import re
    assert re.search(message, err), err


def test_out_that_is_a_file(tmp_path, capsys):
    f = tmp_path / "x"
    f.write_text("")
    with pytest.raises(SystemExit):
        main(["arena", "--agents", "random,kind-random", "--out", str(f)])
    assert "argument --out: out must be a directory" in capsys.readouterr().err


def test_help_shows_an_example_and_the_commands(capsys):
    with pytest.raises(SystemExit) as info:
        main(["arena", "--help"])
    assert info.value.code == 0
    text = capsys.readouterr().out
    assert "spacemission arena --agents random,greedy,heuristic,search --players 2 --games 1000" in text
    assert "spacemission arena --game red_planet --agents random,greedy,heuristic,ppo --players 4" in text  # both games
    assert "search:budget=0.1" in text
    with pytest.raises(SystemExit):
        main(["--help"])
    text = capsys.readouterr().out
    assert all(name in text for name in COMMANDS)
    with pytest.raises(SystemExit) as info:
        main(["fly"])
    assert info.value.code == 2 and f"unknown command 'fly'; expected one of {', '.join(COMMANDS)}" in capsys.readouterr().err


def test_demo_still_forwards(capsys):
    assert main(["demo", "--players", "2", "--seed", "3", "--max-rounds", "5"]) == 0
    assert "Space Mission, 2 players" in capsys.readouterr().out


def test_progress_bar_only_on_a_terminal(monkeypatch, capsys):
    from spacemission_agents.arena import run_arena

    run_arena(["random", "kind-random"], games=4, max_rounds=5)  # captured stderr: not a terminal, no bar
    assert "games/s" not in capsys.readouterr().err
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich treats the stream as a terminal
    run_arena(["random", "kind-random"], games=16, max_rounds=5, chunk_size=4)
    err = capsys.readouterr().err
    assert "16/16" in err and "games/s" in err and "left" in err
    run_arena(["random", "kind-random"], games=4, max_rounds=5, progress=False)
    assert "games/s" not in capsys.readouterr().err


def test_a_slow_rate_is_not_rounded_to_zero(monkeypatch, capsys):
    """Found by a third-party client review: the summary said '2 games in 12.2 s (0 games/s'."""
    from spacemission_agents.arena_output import games_per_s

    assert games_per_s(0.164) == "0.2 games/s" and games_per_s(9.94) == "9.9 games/s"
    assert games_per_s(10.4) == "10 games/s" and games_per_s(12345.6) == "12,346 games/s"
    import spacemission_agents.arena as arena

    real = arena.run_arena

    def slow(*args, **kwargs):
        result = real(*args, **kwargs)
        result.timing["games_per_s"] = 0.164
        return result

    monkeypatch.setattr(arena, "run_arena", slow)
    assert main(["arena", "--agents", "random,random", "--games", "2"]) == 0
    assert "(0.2 games/s, 1 worker)" in capsys.readouterr().out


def test_ctrl_c_stops_with_130_and_says_what_is_left(tmp_path, capsys, monkeypatch):
    """Before: Ctrl-C ended `spacemission arena` with a KeyboardInterrupt traceback (train and play
    stop with 130 and a line). Now: 130, a line saying no results were written and that
    games.jsonl keeps the finished chunks' games, which it does."""
    import signal

    import spacemission_agents.arena_workers as arena

    played = []
    real = arena.play_chunk

    def interrupted_in_the_second_chunk(*args, **kwargs):
        if played:
            raise KeyboardInterrupt
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(arena, "play_chunk", interrupted_in_the_second_chunk)
    out = tmp_path / "out"
    assert main(["arena", "--agents", "random,kind-random", "--games", "8", "--chunk-size", "4", "--max-rounds", "3",
                 "--no-progress", "--out", str(out)]) == 130
    err = capsys.readouterr().err
    assert "Traceback" not in err and "interrupted: the arena was not finished and no results were written" in err
    assert f"{out / 'games.jsonl'} keeps the games of the chunks that finished" in err and "--overwrite" in err
    assert sorted(p.name for p in out.iterdir()) == ["games.jsonl"]
    assert len((out / "games.jsonl").read_text().splitlines()) == 4
    # the pool's workers leave Ctrl-C to the parent, which stops them (each printed a traceback)
    before = signal.getsignal(signal.SIGINT)
    try:
        arena._init_worker([], [], (2, "yucata", 3, "spacemission"), None)
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, before)
        arena._WORKER.clear()


def test_sigterm_stops_like_ctrl_c_with_143(tmp_path):
    """Before: SIGTERM (kill, a scheduler's stop) killed `spacemission arena` without a word,
    and its pool's workers played their chunks on, then printed BrokenPipeError tracebacks.
    Now it stops as Ctrl-C does, with 143 (128 + 15), as `spacemission train` does. The signal
    comes from inside the second chunk, in a process of its own."""
    import os
    import subprocess
    import sys

    from tests.helpers.paths import ROOT

    out = tmp_path / "out"
    code = f"""
import os, signal, sys
import spacemission_agents.arena_workers as arena
from spacemission_cli.main import main
real, played = arena.play_chunk, []
def play(*args, **kwargs):
    if played:
        os.kill(os.getpid(), signal.SIGTERM)
    played.append(1)
    return real(*args, **kwargs)
arena.play_chunk = play
sys.exit(main(["arena", "--agents", "random,kind-random", "--games", "8", "--chunk-size", "4", "--max-rounds", "3",
               "--no-progress", "--out", {str(out)!r}]))
"""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(ROOT / p) for p in ("agents", "training", ".")))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 143, proc.stderr[-2000:]
    assert "interrupted: the arena was not finished and no results were written" in proc.stderr
    assert "Traceback" not in proc.stderr and sorted(p.name for p in out.iterdir()) == ["games.jsonl"]
    assert len((out / "games.jsonl").read_text().splitlines()) == 4


def test_a_worker_that_ends_is_an_error_line_not_a_traceback(capsys):
    """Before: the RuntimeError of a chunk that failed as a whole (here a worker process that an
    agent ended) left the command as a traceback through the pool's internals. Now one error
    line and status 1."""
    code = main(["arena", "--agents", "tests.agents.test_arena_errors:ProcessEnder,kind-random", "--games", "4",
                 "--chunk-size", "2", "--workers", "2", "--start-method", "fork", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "spacemission arena: error: the arena stopped: a worker process ended (exit code 7)" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("workers", [1, 2])
def test_an_agent_that_crashes_in_native_code_leaves_its_traceback(workers, tmp_path):
    """Before: an agent crashing the process (SIGSEGV, as a crash in native code) with --workers 1
    ended `spacemission arena` with no word at all (-11; a shell adds 'Segmentation fault'); in a
    worker process the arena's error named the chunk and said 'workers=1 (--workers 1, without
    --ray) shows which agent and game', which it did not. Now the command and its worker processes
    turn Python's faulthandler on: the Python traceback, the agent's act_batch in it, is printed
    on stderr (with --workers 2 before the error line naming the chunk, which says so). Spawned
    workers, so that nothing is inherited from this test's process."""
    import os
    import subprocess
    import sys

    from tests.helpers.paths import ROOT

    env = dict(os.environ, PYTHONPATH=os.pathsep.join(str(ROOT / p) for p in ("agents", "training", ".")))
    env.pop("PYTHONFAULTHANDLER", None)
    argv = ["arena", "--agents", "tests.helpers.external_agents:Ends:code=-11,kind-random", "--games", "4",
            "--chunk-size", "2", "--max-rounds", "3", "--no-progress", "--workers", str(workers)]
    if workers > 1:
        argv += ["--start-method", "spawn"]
    proc = subprocess.run([sys.executable, "-m", "spacemission_cli.main", *argv], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    err = proc.stderr
    assert "Fatal Python error: Segmentation fault" in err, err[-2000:]
    assert re.search(r'external_agents\.py", line \d+ in act_batch', err), err[-2000:]
    if workers == 1:  # the arena's own process: nothing runs after the crash but the faulthandler
        assert proc.returncode == -11, err[-2000:]
    else:
        assert proc.returncode == 1, err[-2000:]
        # the last line (the other worker, which crashed too, may have been stopped in the middle of its
        # own traceback's line: the error line then follows that part of a line)
        start = err.index("spacemission arena: error: the arena stopped: a worker process ended (killed by signal "
                          "SIGSEGV) in the middle of chunk ")
        line = err[start:].strip()
        assert "\n" not in line and line.endswith("its Python traceback (faulthandler) is printed above, the agent's "
                                                  "code in it; chunk_size=1 (--chunk-size 1) narrows it down to one "
                                                  "game and its lineup"), line
        assert err.index("Fatal Python error") < start


AGENT = "tests.helpers.external_agents:Interrupts"


@pytest.fixture
def sigint_as(request):
    """SIGINT's handler for the test: Python's default (a terminal's Ctrl-C raises
    KeyboardInterrupt) or SIG_IGN (a command started in the background by a non-interactive
    shell, as CI runs the suite), put back after."""
    import signal

    handler = {"default": signal.default_int_handler, "ignored": signal.SIG_IGN}[request.param]
    before = signal.signal(signal.SIGINT, handler)
    yield handler
    signal.signal(signal.SIGINT, before)


@pytest.mark.parametrize("sigint_as", ["default", "ignored"], indirect=True)
def test_an_agents_keyboard_interrupt_with_one_worker_is_its_forfeit_not_ctrl_c(sigint_as, capsys):
    """Before: with one worker (the agents in the command's own process) an agent raising
    KeyboardInterrupt in act_batch stopped the arena as the user's Ctrl-C (status 130, 'interrupted'),
    while in a worker process it forfeited. Now the arena tells them apart (a real Ctrl-C raises
    ArenaStopped from the arena's own SIGINT handler): the agent forfeits, as with workers, the
    same results for any --workers; and the handler is put back."""
    import signal

    from spacemission_agents.arena import run_arena

    code = main(["arena", "--agents", f"{AGENT},kind-random", "--games", "2", "--max-rounds", "3", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert f"agent '{AGENT}' forfeits game 0" in err and "raised KeyboardInterrupt" in err and "interrupted" not in err
    assert signal.getsignal(signal.SIGINT) is sigint_as  # put back
    results = [run_arena([AGENT, "kind-random"], games=4, chunk_size=2, max_rounds=3, workers=w, progress=False,
                         start_method="fork", log=lambda m: None) for w in (1, 2)]
    assert [f["reason"] for f in results[0].forfeits] == ["raised KeyboardInterrupt: "] * 4
    assert results[0].forfeits == results[1].forfeits


def test_an_agents_keyboard_interrupt_in_seed_with_one_worker_is_its_error(capsys):
    """Before: an agent's seed() raising KeyboardInterrupt (before the first game) stopped the
    command as Ctrl-C (130). Now it is the agent's failure: a usage error naming the agent."""
    with pytest.raises(SystemExit) as info:
        main(["arena", "--agents", f"{AGENT}:where=seed,kind-random", "--games", "2", "--no-progress"])
    assert info.value.code == 2
    assert (f"argument --agents: agent '{AGENT}:where=seed' failed in seed() (the arena seeds each agent with a "
            f"63-bit integer): KeyboardInterrupt") in capsys.readouterr().err


@pytest.mark.parametrize("where, raised", [("init", "KeyboardInterrupt"), ("exit", "SystemExit: 3")])
def test_an_agent_interrupting_or_exiting_in_its_constructor_is_a_usage_error(where, raised, capsys):
    """Before: an agent spec whose constructor raised KeyboardInterrupt (no Ctrl-C pressed)
    stopped the command as the user's Ctrl-C (130, 'interrupted: the arena was not finished'),
    and one calling sys.exit(3) ended it with status 3 and no word (make_agent names only an
    Exception of the constructor). Now both are the agent's failure, as in bind() or seed(): a
    usage error naming the agent spec, before any game."""
    spec = f"{AGENT}:where={where}"
    with pytest.raises(SystemExit) as info:
        main(["arena", "--agents", f"kind-random,{spec}", "--games", "2", "--no-progress"])
    err = capsys.readouterr().err
    assert info.value.code == 2, err
    assert f"argument --agents: agent spec '{spec}' failed as it was built: {raised}" in err, err
    assert "interrupted" not in err


@pytest.mark.parametrize("sigint_as", ["default"], indirect=True)
def test_a_real_ctrl_c_while_an_agent_acts_still_stops_with_130(sigint_as, capsys):
    """The other side: a real SIGINT (Ctrl-C) that arrives while an agent's act_batch runs is the
    user's, not the agent's: 130 and the 'interrupted' line, no forfeit."""
    code = main(["arena", "--agents", f"{AGENT}:where=signal,kind-random", "--games", "2", "--max-rounds", "3",
                 "--no-progress"])
    err = capsys.readouterr().err
    assert code == 130, err
    assert "interrupted: the arena was not finished" in err and "forfeit" not in err
