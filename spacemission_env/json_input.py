"""JSON from outside (saved games, records, request bodies, config files), parsed with one
failure: ``ValueError("not valid JSON: ...")``. ``json.loads`` itself also raises
RecursionError for deep nesting and a ValueError for integers of too many digits; callers
put their own subject in front ("game state is not valid JSON: ...")."""
from __future__ import annotations

import json
import sys

__all__ = ["parse_json"]


def _no_constant(name: str):
    raise ValueError(f"{name} is not a JSON value")  # Python's json writes and reads it; JSON has none


def _int_of_digits(digits: str) -> int:
    # Python's own refusal past its digit limit ends "use sys.set_int_max_str_digits()",
    # advice for a programmer, not for whoever wrote the document
    limit = sys.get_int_max_str_digits()
    count = len(digits) - digits.startswith("-")
    if limit and count > limit:
        raise ValueError(f"an integer of {count} digits (at most {limit})")
    return int(digits)


def _unique_keys(pairs: list) -> dict:
    out = {}
    for key, value in pairs:
        if key in out:  # RFC 8259 leaves a repeated name to each parser: ambiguous, refused
            raise ValueError(f"the key {key!r} appears more than once in an object")
        out[key] = value
    return out


def parse_json(text: str | bytes, parse_int=None):
    """The value of a JSON document; ValueError starting "not valid JSON: " for anything
    that is not one (syntax, bytes that are not UTF-8, too deep, integers too long, and
    the NaN, Infinity and -Infinity that Python's json module would read), and for an object
    that repeats a key (Python's json module keeps the last: the document is ambiguous).
    ``parse_int``: as json.loads's (a caller's own reading of integers' digits)."""
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=_unique_keys,
                          parse_int=parse_int or _int_of_digits)
    except RecursionError:
        raise ValueError("not valid JSON: nested too deeply") from None
    except ValueError as exc:  # JSONDecodeError, UnicodeDecodeError, an integer of too many digits
        raise ValueError(f"not valid JSON: {exc}") from None
