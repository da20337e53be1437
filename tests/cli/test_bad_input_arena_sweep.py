"""`spacemission arena --out` values that cannot be a directory: a usage error naming
--out, not a traceback, and nothing written (second robustness sweep; each test failed
before its fix)."""
import pytest

from spacemission_cli.main import main

FAST = ["arena", "--agents", "random,kind-random", "--games", "2", "--max-rounds", "3", "--no-progress"]


def test_out_under_a_file_is_a_usage_error(tmp_path, capsys):
    """Before: NotADirectoryError escaped as a traceback once the agents were built."""
    f = tmp_path / "notes.txt"
    f.write_text("keep me")
    with pytest.raises(SystemExit) as info:
        main([*FAST, "--out", str(f / "results")])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "usage: spacemission arena" in err and "argument --out: out must be a directory" in err
    assert "is a file" in err and f.read_text() == "keep me" and list(tmp_path.iterdir()) == [f]


def test_empty_out_is_a_usage_error(tmp_path, monkeypatch, capsys):
    """Before: --out "" (an unset shell variable) wrote results.json, pairs.csv, agents.csv,
    arena.png and games.jsonl into the working directory, over any files of those names."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main([*FAST, "--out", ""])
    assert info.value.code == 2
    assert "argument --out: out must be a directory path, got an empty one" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("earlier", ["results.json", "games.jsonl"])
def test_out_with_an_earlier_runs_results_is_refused_before_any_game(tmp_path, capsys, monkeypatch, earlier):
    """Before: --out silently replaced an earlier run's files (`spacemission train` refuses a
    run_dir that holds a run). Now a usage error names the file and --overwrite, before any
    game, and the files stay as they were; --overwrite replaces them."""
    import spacemission_agents.arena_workers as arena

    out = tmp_path / "results"
    out.mkdir()
    (out / earlier).write_text("an earlier run's\n")
    (out / "notes.txt").write_text("not the arena's\n")

    def no_games(*args, **kwargs):
        raise AssertionError("a game was played")

    monkeypatch.setattr(arena, "play_chunk", no_games)
    with pytest.raises(SystemExit) as info:
        main([*FAST, "--out", str(out)])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --out:" in err and f"already holds an earlier arena run's files ({earlier})" in err and "--overwrite" in err
    assert sorted(p.name for p in out.iterdir()) == sorted([earlier, "notes.txt"])
    assert (out / earlier).read_text() == "an earlier run's\n"
    monkeypatch.undo()
    assert main([*FAST, "--out", str(out), "--overwrite", "--no-record"]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["agents.csv", "arena.png", "notes.txt", "pairs.csv", "results.json"]


@pytest.mark.parametrize("overwrite", [[], ["--overwrite"]])
def test_out_with_a_folder_named_as_a_result_file_is_a_usage_error(tmp_path, capsys, overwrite):
    """Before: a folder named results.json (or games.jsonl) in --out failed after every agent was
    built, with IsADirectoryError's traceback (at the --overwrite unlink, or at the write)."""
    (tmp_path / "games.jsonl").mkdir()
    with pytest.raises(SystemExit) as info:
        main([*FAST, "--out", str(tmp_path), *overwrite])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --out:" in err and "holds a folder named games.jsonl, where the arena writes that file" in err
    assert [p.name for p in tmp_path.iterdir()] == ["games.jsonl"] and (tmp_path / "games.jsonl").is_dir()
