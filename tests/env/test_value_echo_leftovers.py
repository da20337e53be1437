"""Leftovers of the "name the rejected value, cut to 80 characters" work (checks.shown):
a value whose own ``__repr__`` raises, and Mission: Red Planet's player count (M-X2)."""
from __future__ import annotations

import numpy as np
import pytest

from spacemission_env.checks import SHOWN_CHARS, shown
from spacemission_env.policies import check_policy
from spacemission_env.red_planet.errors import WrongTypeError
from spacemission_env.red_planet.rules import new_game
from spacemission_env.red_planet.rules.game import check_num_players

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


@pytest.mark.parametrize("count", [HUGE_INT, -HUGE_INT], ids=["huge", "minus_huge"])
def test_M_X2_a_count_past_the_digit_limit_is_named_not_a_digit_limit_error(count):
    """Before: ``{num_players}`` of a 5000-digit int raised Python's "Exceeds the limit
    (4300 digits) for integer string conversion" in place of the M-X2 message."""
    sign = "-" if count < 0 else ""
    with pytest.raises(ValueError, match=rf"takes 3 to 5 players \(M-X2\), got {sign}<an integer of about 5,001 digits>$"):
        new_game(count, seed=0)


def test_M_X2_a_long_value_of_another_type_is_cut():
    """Before: a 5000-character string came back whole (and a list of a huge int raised)."""
    for bad in ["3" * 5000, [HUGE_INT]]:
        with pytest.raises(WrongTypeError) as info:
            check_num_players(bad)
        message = str(info.value)
        assert message == f"num_players must be an int, got {type(bad).__name__} {shown(bad)}"
        assert len(message) < 130


def test_M_X2_messages_for_ordinary_counts_are_unchanged():
    with pytest.raises(ValueError, match=r"^Mission: Red Planet takes 3 to 5 players \(M-X2\), got 7$"):
        check_num_players(7)
    with pytest.raises(ValueError, match=r"^Mission: Red Planet takes 3 to 5 players \(M-X2\), got 2$"):
        check_num_players(np.int64(2))  # a numpy count reads as a number, as before
    with pytest.raises(WrongTypeError, match=r"^num_players must be an int, got str '3'$"):
        check_num_players("3")
    assert check_num_players(np.int8(4)) == 4 and type(check_num_players(np.int8(4))) is int
