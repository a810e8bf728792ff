"""Exports of a design stated by what its patterns need: the table exports
carry no patterns and do not mind them; those that read patterns leave the
unkeyed ones out and say so, or refuse with the reason."""

from __future__ import annotations

import dataclasses
import json

import pytest

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.exporters.formats import EXPORT_FORMATS
from modeler.exporters.iam import PolicyError, iam_policy
from modeler.exporters.nosql_workbench import export_notes, export_workbench
from modeler.sampledata import SampleDataError
from modeler.simulation.simulate import NO_KEY_YET
from tests.exporters.helpers import snippets_of

DESIGN = """\
format: single-table-workbench/v1
name: Orders
table: {name: orders, partition_key: PK, sort_key: SK}
entities:
  Order:
    attributes:
      customerId: {type: S, generator: ulid}
      orderId: {type: S, generator: ulid}
    keys: {PK: "CUST#{customerId}", SK: "ORDER#{orderId}"}
access_patterns:
  - name: Orders of a customer
    operation: Query
    key: {PK: "CUST#{customerId}"}
    expects: {entity: Order, where: {customerId: "{customerId}"}}
  - name: Orders by id
    needs: {entity: Order, where: {orderId: "{orderId}"}}
"""


@pytest.fixture(scope="module")
def mixed() -> d.Design:
    design = read_design(DESIGN).design
    assert design is not None
    return design


@pytest.fixture(scope="module")
def keyless(mixed) -> d.Design:
    """Nothing keyed yet: the entity has no keys and the pattern no key."""
    return dataclasses.replace(
        mixed,
        entities=tuple(dataclasses.replace(e, keys={}) for e in mixed.entities),
        access_patterns=mixed.access_patterns[1:],
    )


@pytest.mark.parametrize(
    "name",
    ["yaml", "terraform", "cloudformation-yaml", "cloudformation-json", "cli-json"],
)
def test_the_table_exports_take_a_design_with_nothing_keyed_yet(name, keyless):
    text = EXPORT_FORMATS[name].render(keyless)
    assert "orders" in text


def test_nosql_workbench_carries_the_table_and_notes_the_patterns(keyless):
    model = json.loads(export_workbench(keyless))
    assert [t["TableName"] for t in model["DataModel"]] == ["orders"]
    assert "1 access pattern(s): NoSQL Workbench models have no access patterns" in (
        export_notes(keyless)
    )
    with pytest.raises(SampleDataError, match="Order has no table key yet"):
        export_workbench(keyless, generated=2)


def test_the_iam_policy_leaves_an_unkeyed_pattern_out_with_a_note(mixed):
    policy = iam_policy(mixed)
    (statement,) = policy.document["Statement"]
    assert statement["Action"] == ["dynamodb:Query"]
    assert policy.notes == (
        "'Orders by id' is left out: it has no key yet, so the operation and "
        "the table or index it reads are not known",
    )


def test_the_iam_policy_of_patterns_without_keys_refuses_and_says_why(keyless):
    with pytest.raises(PolicyError, match="no access pattern has a key yet"):
        iam_policy(keyless)


def test_the_tenant_policy_says_unkeyed_patterns_apart_from_unconfinable_ones(
    mixed,
):
    """A Scan reads every tenant's items: it cannot be confined; 'Orders by
    id' has no key yet, which is another reason."""
    scan = d.AccessPattern("All orders", "Scan")
    design = dataclasses.replace(
        mixed, access_patterns=(scan, mixed.access_patterns[1])
    )
    with pytest.raises(PolicyError) as refused:
        iam_policy(design, tenant="customerId")
    message = str(refused.value)
    assert message.startswith("no access pattern can be confined to one tenant: ")
    confinement = message.split(". 'Orders by id'")[0]
    assert "no key yet" not in confinement
    assert message.endswith(
        ". 'Orders by id' is left out: it has no key yet, so the operation and "
        "the table or index it reads are not known"
    )


def test_code_snippets_give_an_unkeyed_pattern_no_code_and_the_reason(mixed):
    keyed, unkeyed = snippets_of(mixed)
    assert keyed.python
    assert (unkeyed.operation, unkeyed.python, unkeyed.problem) == (
        "no key yet",
        "",
        NO_KEY_YET,
    )
