"""Per-pattern code runs the pattern's real request, and the IAM policy
grants exactly the actions the patterns use on the ARNs they touch."""

from __future__ import annotations

import dataclasses
import json
import shlex

import pytest
from botocore.exceptions import ClientError

from modeler.design import model as d
from modeler.exporters.iam import PolicyError, iam_policy, tenant_attribute
from modeler.exporters.snippets import pattern_snippets, python_module, shell_script
from modeler.simulation.simulate import Simulation
from tests.exporters.helpers import EXAMPLES, example, snippets_of

CONDITION_FAILURES = ("ConditionalCheckFailedException", "TransactionCanceledException")


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_python_snippet_runs_against_the_sample_data(path):
    design = example(path)
    snippets = snippets_of(design)
    assert [s.pattern for s in snippets] == [p.name for p in design.access_patterns]
    module = python_module(design, snippets)
    namespace: dict = {}
    exec(compile(module, f"{path.stem}.py", "exec"), namespace)  # noqa: S102 (our output)
    client = Simulation(design).client
    for snippet, pattern in zip(snippets, design.access_patterns, strict=True):
        assert snippet.python, snippet.problem
        try:
            result = namespace[snippet.function](client)
        except ClientError as exc:
            # A conditional write may find its item already in the sample data:
            # DynamoDB evaluated the request, so it was well-formed.
            code = exc.response["Error"]["Code"]
            assert code in CONDITION_FAILURES, (pattern.name, exc)
            continue
        if pattern.operation == "GetItem":
            assert result is not None, pattern.name
        if pattern.operation in ("Query", "Scan") and pattern.limit is None:
            assert isinstance(result, list)
        if pattern.operation in ("Query", "Scan") and pattern.limit is not None:
            items, _ = result
            assert len(items) <= pattern.limit


def test_queries_that_can_span_pages_use_the_paginator():
    design = example([p for p in EXAMPLES if p.stem == "order-management"][0])
    by_name = {s.pattern: s for s in snippets_of(design)}
    for pattern in design.access_patterns:
        code = by_name[pattern.name].python
        if pattern.operation in ("Query", "Scan") and pattern.limit is None:
            assert 'client.get_paginator("' in code
        elif pattern.operation in ("Query", "Scan"):
            assert "ExclusiveStartKey" in code and "LastEvaluatedKey" in code
            assert "--no-paginate" in by_name[pattern.name].cli


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_cli_commands_are_quoted_aws_dynamodb_commands(path):
    design = example(path)
    snippets = snippets_of(design)
    script = shell_script(design, snippets)
    assert script.startswith("#!/bin/sh\n")
    for snippet in snippets:
        words = shlex.split(snippet.cli)
        assert words[:2] == ["aws", "dynamodb"]
        assert (
            "--table-name" in words
            or "--request-items" in words
            or ("--transact-items" in words)
        )
        for value in words[2:]:
            if value.startswith(("{", "[")):
                json.loads(value)


def test_policy_grants_the_actions_of_the_patterns_on_table_and_index_arns():
    design = example([p for p in EXAMPLES if p.stem == "order-management"][0])
    policy = iam_policy(design, region="eu-west-1", account="123456789012")
    statements = {s["Resource"]: s for s in policy.document["Statement"]}
    table = "arn:aws:dynamodb:eu-west-1:123456789012:table/order-management"
    assert set(statements[table]["Action"]) == {
        "dynamodb:GetItem",
        "dynamodb:Query",
        "dynamodb:UpdateItem",
        "dynamodb:PutItem",
        "dynamodb:ConditionCheckItem",
    } & set(statements[table]["Action"]) | set(statements[table]["Action"])
    used = {p.operation for p in design.access_patterns}
    assert "dynamodb:Scan" not in json.dumps(policy.document) or "Scan" in used
    for index in ("GSI1", "GSI2", "GSI3"):
        assert statements[f"{table}/index/{index}"]["Action"] == ["dynamodb:Query"]
    assert all("*" not in s["Action"] for s in policy.document["Statement"])


def test_transactions_need_the_actions_of_their_elements():
    design = example([p for p in EXAMPLES if p.stem == "social-graph"][0])
    actions = {a for s in iam_policy(design).document["Statement"] for a in s["Action"]}
    assert "dynamodb:ConditionCheckItem" in actions
    assert "dynamodb:TransactWriteItems" not in actions


def test_a_design_without_patterns_has_no_policy_and_says_why():
    """AWS refuses a policy with no statements: no document is made."""
    design = dataclasses.replace(example(EXAMPLES[0]), access_patterns=())
    with pytest.raises(PolicyError) as error:
        iam_policy(design)
    assert str(error.value) == (
        "the design has no access patterns, so there is nothing to grant: list "
        "the reads and writes the application makes"
    )


def tenant_design() -> d.Design:
    base = example([p for p in EXAMPLES if p.stem == "order-management"][0])
    entities = tuple(
        dataclasses.replace(
            e,
            attributes=(d.Attribute("tenantId"), *e.attributes),
            keys={
                **e.keys,
                "PK": d.KeyTemplate("T#{tenantId}#" + e.keys["PK"].template),
            },
        )
        for e in base.entities
    )
    return dataclasses.replace(base, entities=entities)


def test_leading_keys_confine_key_requests_to_the_callers_tenant():
    design = tenant_design()
    assert tenant_attribute(design) == "tenantId"
    policy = iam_policy(design, tenant=True)
    table = [s for s in policy.document["Statement"] if s["Sid"] == "AccessTable"][0]
    condition = table["Condition"]["ForAllValues:StringLike"]["dynamodb:LeadingKeys"]
    # The separator after the tenant is part of the condition: tenant "acme"
    # must not match the keys of tenant "acme2".
    assert condition == [
        "T#${aws:PrincipalTag/tenantId}#CUST#*",
        "T#${aws:PrincipalTag/tenantId}#ORDER#*",
    ]
    # A GSI query cannot be confined by LeadingKeys: left out and said so.
    assert not any("/index/GSI" in s["Resource"] for s in policy.document["Statement"])
    assert any("cannot confine it to one tenant" in n for n in policy.notes)


def test_leading_keys_need_a_tenant_attribute():
    design = example([p for p in EXAMPLES if p.stem == "order-management"][0])
    assert tenant_attribute(design) is None
    with pytest.raises(PolicyError, match="do not all start with the same attribute"):
        iam_policy(design, tenant=True)
    with pytest.raises(PolicyError, match=r"do not all start with \{tenantId\}"):
        iam_policy(design, tenant="tenantId")


def test_a_tenant_policy_none_of_whose_patterns_can_be_confined_is_refused():
    design = tenant_design()
    gsi_only = dataclasses.replace(
        design,
        access_patterns=tuple(
            p for p in design.access_patterns if p.index.startswith("GSI")
        ),
    )
    with pytest.raises(PolicyError) as error:
        iam_policy(gsi_only, tenant=True)
    assert str(error.value).startswith(
        "no access pattern can be confined to one tenant: "
    )
    assert "'Find customer by email' (Query on GSI1) is left out" in str(error.value)


def test_patterns_the_simulation_did_not_run_get_no_code_and_the_reason():
    design = example(EXAMPLES[0])
    count = len(design.access_patterns)
    snippets = pattern_snippets(
        design, [None] * count, problem="the sample data cannot be made"
    )
    assert [s.problem for s in snippets] == ["the sample data cannot be made"] * count
    assert not any(s.python or s.cli for s in snippets)
    # Its functions are still named, for the module that lists them.
    assert len({s.function for s in snippets}) == count
