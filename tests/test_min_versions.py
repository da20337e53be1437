"""pyproject.toml's lower bounds and docs/dependencies.md agree: the page's table names exactly
the bounded requirements of the core and every extra, and tools/test_mindeps.py (which installs
the oldest releases and runs the tests against them, not run here) pins every bound of the core."""
import re

from tests.helpers.paths import ROOT, load_tool, pyproject


ROW = re.compile(r"^\| `([^`]+)` \| ([\w-]+) \|", re.M)


def bounded_requirements() -> dict[str, str]:
    """{requirement: extra ("core" for the dependencies)} of every requirement with a lower bound."""
    project = pyproject()["project"]
    groups = {"core": project["dependencies"], **project["optional-dependencies"]}
    return {req: extra for extra, reqs in groups.items() for req in reqs
            if ">=" in req and not req.startswith(project["name"])}


def test_the_table_names_every_lower_bound_of_pyproject():
    table = dict(ROW.findall((ROOT / "docs" / "dependencies.md").read_text()))
    assert table == bounded_requirements()


def test_the_script_pins_every_core_bound_at_its_oldest_release():
    tool = load_tool("test_mindeps")
    pins = tool.pins()
    project = pyproject()["project"]
    for req in project["dependencies"]:
        name, bound = re.match(r"([\w-]+)>=([\d.]+)", req).groups()
        assert f"{name}=={bound}.*" in pins, (req, pins)
    assert "torch==2.0.*" not in pins  # the train extra is not pinned (the local CPU build is used)
