"""docs/red_planet/state_json.md: the example loads, round-trips and is what the code
produces; the tables list exactly the keys of ``state_to_dict`` (as tests/env/rules/
test_state_json.py checks docs/state_json.md for Space Mission).

``python -m tests.env.red_planet.test_state_json_doc`` prints the example.
"""
import json
import random
import re

from spacemission_env.red_planet import rules as G
from spacemission_env.red_planet.rules import GameState
from spacemission_env.red_planet.rules.state_json import MAX_COUNTERS, state_to_dict
from tests.helpers.doc_json import compact_json
from tests.helpers.paths import ROOT

DOC = ROOT / "docs" / "red_planet" / "state_json.md"


def example_state() -> GameState:
    """The documented example: 3 players, seed 0, 10 uniformly random legal actions."""
    s, r = G.new_game(3, seed=0), random.Random(0)
    for _ in range(10):
        G.apply(s, r.choice(G.legal_actions(s)))
    return s


def doc_example() -> str:
    return re.search(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S).group(1)


def doc_keys(section: str) -> list[str]:
    """Backticked keys in the first column of the table under ``## section``."""
    text = DOC.read_text(encoding="utf-8")
    body = text[text.index(f"## {section}\n"):]
    body = body[:body.index("\n## ", 1)] if "\n## " in body[1:] else body
    return re.findall(r"^\| `([a-z_]+)` \|", body, re.M)


def test_doc_example_loads_round_trips_and_is_what_the_code_produces():
    text = doc_example()
    loaded = G.from_json(text)
    assert state_to_dict(loaded) == json.loads(text)
    assert G.from_json(G.to_json(loaded)) == loaded
    assert loaded == example_state(), "regenerate the example: python -m tests.env.red_planet.test_state_json_doc"
    assert text == compact_json(state_to_dict(loaded)) + "\n"


def test_doc_lists_exactly_the_keys_of_state_to_dict():
    d = state_to_dict(example_state())
    assert doc_keys("Top level") == list(d)
    assert doc_keys("Players") == list(d["players"][0])
    assert doc_keys("Zones") == list(d["zones"][0])
    assert doc_keys("Ships") == list(next(iter(d["ships"].values())))
    assert doc_keys("Turn") == list(d["turn"])


def test_doc_states_the_counter_bound():
    text = DOC.read_text(encoding="utf-8")
    assert f"0..{MAX_COUNTERS}, and all of\n  them together at most {MAX_COUNTERS}" in text
    assert "10 + 20 + 50 + 5 + 4" in text and 10 + 20 + 50 + 5 + 4 == MAX_COUNTERS


def test_engine_page_links_here():
    assert "(state_json.md)" in (ROOT / "docs" / "red_planet" / "engine.md").read_text(encoding="utf-8")


if __name__ == "__main__":
    print(compact_json(state_to_dict(example_state())))
