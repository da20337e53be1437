"""json_input.json_shown and json_kind: a message naming a value read from JSON writes it as
JSON and names its type in JSON's words (before, the web API said ``None``, ``True``,
``{'a': 1}``, ``'3'`` and ``NoneType``, ``dict``, ``str``), cut as checks.shown cuts."""
from __future__ import annotations

import json

import pytest

from spacemission_env.checks import SHOWN_CHARS, shown
from spacemission_env.json_input import LongNumber, json_kind, json_shown


@pytest.mark.parametrize("value, text, kind", [
    (None, "null", "null"), (True, "true", "boolean"), (False, "false", "boolean"),
    ({"a": 1}, '{"a": 1}', "object"), ([1, 2], "[1, 2]", "array"), ("3", '"3"', "string"),
    (1.5, "1.5", "number"), (-7, "-7", "number"), (1e300, "1e+300", "number"),
    ({"a": [None, {"b": False}], "c": ""}, '{"a": [null, {"b": false}], "c": ""}', "object"),
    ('say "hi"\n', '"say \\"hi\\"\\n"', "string"), ("é", '"é"', "string"),
    ("\u2028\u202e\x7f", '"\\u2028\\u202e\\u007f"', "string"),  # what prints as nothing or moves the text
    ("\ud800", '"\\ud800"', "string"),  # a lone surrogate (JSON may escape one): UTF-8 could not encode it
    (LongNumber(5000), "a number of 5000 digits", "number"),
])
def test_a_value_is_written_as_json_and_its_type_named_as_json_names_it(value, text, kind):
    assert json_shown(value) == text
    assert json_kind(value) == kind
    if not isinstance(value, LongNumber) and "\\u" not in text:
        assert json.loads(text) == value  # what the sender wrote, read back


@pytest.mark.parametrize("value", ["x" * 5000, list(range(5000)), {str(k): k for k in range(5000)}])
def test_a_long_value_is_cut_as_shown_cuts(value):
    text = json_shown(value)
    assert len(text) == SHOWN_CHARS and text.endswith("...")
    assert text[:-3] == json.dumps(value)[:SHOWN_CHARS - 3]


def test_a_value_past_pythons_digit_limit_or_nested_thousands_deep_does_not_raise():
    assert json_shown(10**5000) == shown(10**5000) == "<an integer of about 5,001 digits>"
    assert json_shown([-10**5000]) == "[-<an integer of about 5,001 digits>]"
    deep = []
    for _ in range(100_000):  # repr and json.dumps raise RecursionError
        deep = [deep]
    assert json_shown(deep) == "[" * (SHOWN_CHARS - 3) + "..."
    assert json_kind(10**5000) == "number" and json_kind(deep) == "array"
