"""Leftovers of the "name the rejected value, cut to 80 characters" work (checks.shown):
a value whose own ``__repr__`` raises, and Mission: Red Planet's player count (M-X2)."""
from __future__ import annotations

import pytest

from spacemission_env.checks import SHOWN_CHARS, shown
from spacemission_env.policies import check_policy

HUGE_INT = 10**5000  # past Python's 4300-digit limit for str


class BrokenRepr:
    def __repr__(self):
        raise RuntimeError("no repr today")


class ValueErrorRepr:
    def __repr__(self):
        raise ValueError("not about integers")


class NotAStringRepr:
    def __repr__(self):
        return 42  # repr() raises TypeError: __repr__ returned non-string


@pytest.mark.parametrize("value, text", [
    (BrokenRepr(), "<a BrokenRepr object whose repr failed: RuntimeError>"),
    (ValueErrorRepr(), "<a ValueErrorRepr object whose repr failed: ValueError>"),
    (NotAStringRepr(), "<a NotAStringRepr object whose repr failed: TypeError>"),
    ([BrokenRepr()], "<a list object whose repr failed: RuntimeError>"),
])
def test_shown_describes_an_object_whose_repr_raises(value, text):
    """Before: only ValueError (an integer past the digit limit) was caught, so the
    RuntimeError of a broken ``__repr__`` replaced the message meant to name the object;
    and a ValueError of another kind read "holding an integer too long to show"."""
    assert shown(value) == text


def test_shown_keeps_its_output_for_ordinary_values():
    assert shown("abc") == "'abc'"
    assert shown(7) == "7"
    assert shown([1, 2]) == "[1, 2]"
    assert shown("x" * 500) == repr("x" * 500)[:SHOWN_CHARS - 3] + "..."
    assert shown(HUGE_INT) == "<an integer of about 5,001 digits>"
    assert shown([HUGE_INT]) == "<a list holding an integer too long to show>"


def test_shown_lets_keyboard_interrupt_pass():
    class Interrupted:
        def __repr__(self):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        shown(Interrupted())


def test_an_opponent_with_a_broken_repr_gets_the_protocol_error():
    """Before: the RuntimeError of its ``__repr__``, raised while the message was built."""
    with pytest.raises(ValueError, match=r"opponent <a BrokenRepr object whose repr failed: RuntimeError> does not "
                                         r"implement the Policy protocol"):
        check_policy(BrokenRepr())
