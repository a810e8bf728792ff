"""PutItem's, UpdateItem's and DeleteItem's member checks: the quick test
that lets a valid request through agrees with the full checks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modeler.engine import constraints
from modeler.engine.errors import ValidationException

members = st.fixed_dictionaries(
    {},
    optional={
        "TableName": st.one_of(
            st.sampled_from(["Shop", "ab", "a" * 255, "a" * 256, "", "bad name"]),
            st.sampled_from(["arn:aws:dynamodb:eu-west-3:1:table/x", "S\u00e9"]),
            st.none(),
            st.integers(),
        ),
        "Item": st.one_of(st.none(), st.just({"PK": {"S": "x"}})),
        "Key": st.one_of(st.none(), st.just({"PK": {"S": "x"}})),
        "ReturnConsumedCapacity": st.sampled_from(["TOTAL", "INDEXES", "NONE", "x"]),
        "ConditionalOperator": st.sampled_from(["OR", "AND", "XOR"]),
        "ReturnValues": st.sampled_from(["ALL_NEW", "NONE", "ALL", "UPDATED_OLD"]),
        "ReturnItemCollectionMetrics": st.sampled_from(["SIZE", "NONE", "ALL"]),
        "ReturnValuesOnConditionCheckFailure": st.sampled_from(["ALL_OLD", "X"]),
    },
)


def _full_check_passes(kind: str, request: dict) -> bool:
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(constraints, "_item_write_passes", lambda *_: False)
        try:
            constraints.check_item_write(kind, request)
        except ValidationException:
            return False
    return True


@pytest.mark.parametrize("kind", ["Put", "Update", "Delete"])
@given(request=members)
def test_the_quick_pass_agrees_with_the_full_checks(kind: str, request: dict) -> None:
    full = _full_check_passes(kind, request)
    quick = constraints._item_write_passes(kind, request)
    # It never lets through what the full checks refuse; it leaves to them
    # what is not a plain table name (which they let pass, or refuse).
    assert quick == full if type(request.get("TableName")) is str else not quick


@pytest.mark.parametrize("kind", ["Put", "Update", "Delete"])
@pytest.mark.parametrize(
    "name",
    ["Shop", "ab", "abc", "a" * 255, "a" * 256, "", "bad name", "arn:x", "S\u00e9"],
)
def test_table_names_pass_as_the_full_checks_pass_them(kind: str, name: str) -> None:
    request = {"TableName": name, "Item" if kind == "Put" else "Key": {}}
    full = _full_check_passes(kind, request)
    assert constraints._item_write_passes(kind, request) == full
