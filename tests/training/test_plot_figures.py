"""The learning-curve plot closes its figure even when the file cannot be written: pyplot
keeps every open figure, so a sweep that plots many runs would hold each failed one."""
import pytest

pytest.importorskip("matplotlib")

from spacemission_training.logs import HEADER, plot_curves  # noqa: E402


def test_a_curve_that_cannot_be_written_leaves_no_figure_open(tmp_path):
    import matplotlib.pyplot as plt

    (tmp_path / "metrics.csv").write_text(",".join(HEADER) + "\n10,1.0,eval/random/win_rate,0.5\n")
    before = len(plt.get_fignums())
    for _ in range(3):
        with pytest.raises(OSError):
            plot_curves(tmp_path, path=tmp_path / "gone" / "learning_curve.png")
    assert len(plt.get_fignums()) == before
    assert plot_curves(tmp_path).read_bytes()[:4] == b"\x89PNG"


def test_the_final_evaluation_and_the_game_are_on_the_curve(tmp_path, monkeypatch):
    """Before: only ``eval/`` rows were drawn, so a run with --eval-every 0 (Red Planet's
    default) had an empty evaluation panel although its final evaluation was in metrics.csv,
    and the title was the folder's name alone, not the game."""
    import json

    from matplotlib.figure import Figure

    rows = ["100,1.0,games/random/score,0.9", "200,2.0,final/random/win_rate,0.75",
            "200,2.0,final/random/ci_low,0.5", "200,2.0,final/random/ci_high,0.9"]
    (tmp_path / "metrics.csv").write_text(",".join(HEADER) + "\n" + "\n".join(rows) + "\n")
    (tmp_path / "config.json").write_text(json.dumps({"config": {"game": "red_planet", "players": 4}}))
    seen = {}

    def savefig(fig, path, **kwargs):
        ax = fig.axes[0]
        seen["points"] = [(list(line.get_xdata()), list(line.get_ydata())) for line in ax.lines]
        seen["labels"] = ax.get_legend_handles_labels()[1]
        seen["title"] = fig._suptitle.get_text()

    monkeypatch.setattr(Figure, "savefig", savefig)
    plot_curves(tmp_path)
    assert ([200], [0.75]) in seen["points"] and seen["labels"] == ["vs random (final)"]
    assert seen["title"] == f"{tmp_path.name}: Mission: Red Planet, 4 players"
