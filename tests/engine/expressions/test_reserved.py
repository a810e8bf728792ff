"""DynamoDB's reserved words (Developer Guide, "Reserved words in
DynamoDB")."""

from __future__ import annotations

import pytest

from modeler.engine.errors import ValidationException
from modeler.engine.expressions import RESERVED_WORDS, parse_condition
from modeler.engine.expressions.reserved import is_reserved


def test_the_documented_list():
    assert len(RESERVED_WORDS) == 573
    assert {"ABORT", "STATUS", "NAME", "DATA", "TTL", "ZONE"} <= RESERVED_WORDS
    # DynamoDB's own misspellings are part of the list.
    assert {"FLATTERN", "INNTER", "LOGED"} <= RESERVED_WORDS
    assert all(word == word.upper() for word in RESERVED_WORDS)


@pytest.mark.parametrize("word", ["status", "Status", "STATUS", "sTaTuS"])
def test_any_letter_case_is_reserved(word):
    assert is_reserved(word)
    with pytest.raises(ValidationException, match=f"reserved keyword: {word}$"):
        parse_condition(f"{word} = :v", None, {":v": "x"})


@pytest.mark.parametrize("word", ["PK", "SK", "GSI1PK", "statuses", "entity_type"])
def test_common_key_names_are_not_reserved(word):
    assert not is_reserved(word)
    parse_condition(f"{word} = :v", None, {":v": "x"})
