"""Players' names as the web table accepts them (deepsix.web.credentials.clean_name)."""

from __future__ import annotations

import pytest

from deepsix import ParseError
from deepsix.web.credentials import MAX_NAME, clean_name


def test_a_name_is_folded_and_cut_to_the_longest_allowed() -> None:
    assert clean_name("  Ann \t  Lee ", "North") == "Ann Lee"
    assert clean_name("x" * (MAX_NAME + 5), "North") == "x" * MAX_NAME


def test_no_name_is_the_seats_name() -> None:
    assert clean_name(None, "North") == "North"
    assert clean_name("", "North") == "North"
    assert clean_name("   ", "North") == "North"


@pytest.mark.parametrize("name", [7, ["Ann"], b"Ann", "Ann\x00", "A\u200bnn\x1b[31m"])
def test_a_name_that_is_not_printable_text_is_a_typed_error(name: object) -> None:
    with pytest.raises(ParseError, match="a player's name must be"):
        clean_name(name, "North")
