"""JSON from outside (saved games, records, request bodies, config files), parsed with one
failure: ``ValueError("not valid JSON: ...")``. ``json.loads`` itself also raises
RecursionError for deep nesting and a ValueError for integers of too many digits; callers
put their own subject in front ("game state is not valid JSON: ...").

A message naming a value read from JSON names it in JSON's words: :func:`json_shown` writes
it as JSON (``null``, ``true``, ``{"a": 1}``, ``"3"``), cut as ``checks.shown`` cuts, and
:func:`json_kind` names its type as JSON does (object, array, string, number, boolean, null)."""
from __future__ import annotations

import json
import sys

from .checks import SHOWN_CHARS, cut, is_int, shown

__all__ = ["LongNumber", "json_kind", "json_shown", "parse_json"]


class LongNumber:
    """An integer of a JSON document kept as its count of digits (a ``parse_int`` of
    :func:`parse_json` may give it for digits no field could take: the spacemission serve API's
    request bodies), so that the field's check names it rather than Python's limit on
    converting digits: "a number of 5000 digits"."""

    def __init__(self, digits: int):
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number of {self.digits} digits"


def json_kind(value) -> str:
    """JSON's name for the type of ``value``, a value read from JSON (``type(value).__name__``
    says dict, list, str, int, float, NoneType): object, array, string, number, boolean or
    null; for anything else, its Python type's name."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if is_int(value) or isinstance(value, (float, LongNumber)):
        return "number"
    for kind, name in ((str, "string"), (dict, "object"), ((list, tuple), "array")):
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _escaped(text: str) -> str:
    # a string as JSON writes it, whose characters that print as nothing or move the text
    # (U+2028, a bidi override, DEL: what repr escapes) are \u escapes as well
    return "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in json.dumps(text, ensure_ascii=False))


def json_shown(value, limit: int = SHOWN_CHARS) -> str:
    """``value``, a value read from JSON, written as JSON (``null``, ``true``, ``{"a": 1}``,
    ``[1, 2]``, ``"3"``; ``repr`` would say None, True, {'a': 1}, '3') and cut to ``limit``
    characters as :func:`~spacemission_env.checks.shown` cuts: the message naming a rejected
    value speaks the language its sender wrote it in. Written only up to the limit (a 16 KiB
    body, a list nested thousands deep); an integer past Python's digit limit, a LongNumber
    and anything that is no JSON value are described as ``shown`` describes them."""
    parts, size = [], 0

    def put(text: str) -> bool:  # True once past the limit: nothing more is written
        nonlocal size
        parts.append(text)
        size += len(text)
        return size > limit

    def write(v) -> bool:
        if isinstance(v, dict):
            return (put("{") or any((k and put(", ")) or write(key) or put(": ") or write(item)
                                    for k, (key, item) in enumerate(v.items())) or put("}"))
        if isinstance(v, (list, tuple)):
            return put("[") or any((k and put(", ")) or write(item) for k, item in enumerate(v)) or put("]")
        if v is None or isinstance(v, bool):
            return put(json.dumps(v))
        if isinstance(v, str):
            return put(_escaped(v[:limit]))  # the rest would be cut
        if is_int(v):
            try:
                return put(str(int(v)))
            except ValueError:  # past Python's digit limit for str: described (shown)
                return put(shown(v, limit))
        if isinstance(v, float):
            return put(json.dumps(float(v)))
        return put(shown(v, limit))  # a LongNumber, or no JSON value

    write(value)
    return cut("".join(parts), limit)


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
            raise ValueError(f"the key {json_shown(key)} appears more than once in an object")
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
