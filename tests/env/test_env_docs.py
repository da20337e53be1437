"""The throughput figures have one source: docs/interfaces.md quotes benchmarks/env_speed.py's
recorded output (each figure once), and the README links there instead of repeating them."""
import re
import subprocess
import sys

import pytest
from tests.helpers.paths import ROOT

DOCS = (ROOT / "docs" / "interfaces.md").read_text()
README = (ROOT / "README.md").read_text()
LINE = re.compile(r"^(?P<name>\w+)\s+(?P<figure>[\d,]+) (?P<unit>\w+)/s\s+\(runs: \[(?P<runs>[\d, ]+)\]\)$")
NAMES = {"aec_env_2p", "aec_env_4p", "pz_benchmark_2p", "gym_env_2p", "gym_env_4p", "sb3_vecenv_2p", "sb3_vecenv_4p",
         "vector_env_2p"}


def recorded_block() -> list[str]:
    section = DOCS[DOCS.index("## Throughput"):]
    block = re.search(r"```text\n(.*?)```", section, flags=re.S)
    assert block, "docs/interfaces.md: the Throughput section must hold the recorded output in a ```text block"
    return block.group(1).strip().splitlines()


def test_docs_record_the_benchmark_output():
    lines = recorded_block()
    assert lines[0].startswith("python ") and "load average" in lines[0]
    figures = {}
    for line in lines[1:]:
        m = LINE.match(line)
        assert m, f"not a line of env_speed.py's output: {line!r}"
        runs = [int(r) for r in m["runs"].split(",")]
        assert int(m["figure"].replace(",", "")) == max(runs), "the figure is the best run"
        figures[m["name"]] = m["figure"]
    assert set(figures) == NAMES
    for name, figure in figures.items():
        assert DOCS.count(figure) == 1, f"{name}'s figure {figure} must be quoted once"
    assert "benchmarks/env_speed.py" in DOCS[DOCS.index("## Throughput"):]


def test_readme_quotes_no_throughput_figure_and_links_the_docs():
    assert not re.search(r"\d[\d,.]*\s*[kM]?\s*(agent|learner)?[- ]?(env-)?steps/s", README)
    assert "docs/interfaces.md#throughput" in README


def test_the_benchmark_prints_lines_of_that_format():
    code = ("import sys; sys.argv = ['env_speed', '--only', 'vector', '--seconds', '0.05', '--repeats', '1', "
            "'--num-envs', '8']; exec(open('benchmarks/env_speed.py').read())")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.strip().splitlines()
    assert lines[0].startswith("python ") and LINE.match(lines[1]) and LINE.match(lines[1])["name"] == "vector_env_2p"


@pytest.mark.parametrize("which", ["aec_red_planet", "gym_red_planet"])
def test_the_red_planet_figures_run_on_request_and_as_a_baseline_child(which):
    """``--only aec_red_planet`` (``gym_red_planet``) times Red Planet's AEC (Gymnasium) env; a
    ``--baseline`` comparison runs each figure in a child given ``--figure`` alone, which found
    no Red Planet figure (KeyError)."""
    for argv in (["--only", which], ["--figure", f"{which}_3p"]):
        code = (f"import sys; sys.argv = ['env_speed', *{argv!r}, '--seconds', '0.05', '--repeats', '1']; "
                "exec(open('benchmarks/env_speed.py').read())")
        out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        names = [LINE.match(line)["name"] for line in out.stdout.strip().splitlines()[1:]]
        assert names == ([f"{which}_{p}p" for p in (3, 4, 5)] if argv[0] == "--only" else [f"{which}_3p"]), out.stdout
