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
