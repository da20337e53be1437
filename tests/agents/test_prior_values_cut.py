"""A model file whose heuristic prior has a bad parameter: PPOAgent.load echoed the whole
prior (every parameter, ~1,900 characters for one unknown name) and whatever value was bad,
whole (a 500-character string, a foreign kind, step or game); the heuristic bots echoed a
bad parameter's value and unknown names whole. Now each value is cut (checks.shown) and an
unknown name is named without the rest of the prior."""
from __future__ import annotations

import pytest

from spacemission_agents.heuristic import HeuristicAgent
from spacemission_agents.model_files import save_npz_file
from spacemission_agents.ppo import PPOAgent
from spacemission_agents.red_planet.heuristic import HeuristicBot
from spacemission_agents.registry import make_agent

LONG = "x" * 500


@pytest.fixture(scope="module")
def shipped():
    agent = make_agent("ppo")
    assert agent.metadata["prior"]["kind"] == "heuristic"  # the shipped model has the prior
    return agent


def _prior_cases(prior: dict) -> dict:
    return {
        "an unknown parameter": ({**prior, "params": {**prior["params"], LONG: 1.0}}, "got unknown parameters ["),
        "a parameter's value": ({**prior, "params": {**prior["params"], "end_bonus": LONG}},
                                "parameter end_bonus must be a finite number, got 'xxx"),
        "params not an object": ({**prior, "params": [LONG]}, "params must be an object of heuristic parameters"),
        "the kind": ({**prior, "kind": LONG}, "unknown policy prior kind 'xxx"),
        "the step": ({**prior, "step_points": LONG}, "policy prior coded with step 'xxx"),
        "the game": ({**prior, "game": LONG}, "no heuristic prior for game 'xxx"),
    }


@pytest.mark.parametrize("case", list(_prior_cases({"params": {}})))
def test_a_model_files_bad_prior_parameter_is_named_cut(shipped, tmp_path, case):
    prior, needle = _prior_cases(shipped.metadata["prior"])[case]
    path = save_npz_file(tmp_path / "m.npz", {**shipped.metadata, "prior": prior}, shipped.params)
    with pytest.raises(ValueError) as exc:
        PPOAgent.load(path)
    text = str(exc.value)
    assert needle in text
    assert LONG not in text and "..." in text
    assert "'params'" not in text and "0.45" not in text  # not the whole prior, with its values: what is wrong
    assert len(text) < 800 + len(str(path))  # the unknown name's message lists the known ones (~500)


@pytest.mark.parametrize("bot", [HeuristicAgent, HeuristicBot])
def test_the_heuristic_bots_cut_a_bad_parameter(bot):
    with pytest.raises(TypeError) as exc:
        bot(**{LONG: 1.0})
    assert f"{bot.__name__} got unknown parameters ['xxx" in str(exc.value) and LONG not in str(exc.value)
    name = next(iter(bot(seed=0).params))
    with pytest.raises(ValueError) as exc:
        bot(**{name: LONG})
    assert f"parameter {name} must be a finite number, got 'xxx" in str(exc.value) and LONG not in str(exc.value)
