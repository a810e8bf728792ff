"""Small files that ask an importer for far more work than their size: the
audit's (locals that double a text, conditions that nest twice over, a big
NoSQL Workbench model, deep nesting) and others of the same families. The
tests import each within the budgets, and bench/import_budget.py times them
through the commands."""

from __future__ import annotations

import json
from typing import Any

_TABLE_TF = """
resource "aws_dynamodb_table" "t" {{
  name         = "{name}"
  billing_mode = {billing}
  hash_key     = "PK"
  tags         = {tags}
  attribute {{
    name = "PK"
    type = "S"
  }}
}}
"""


def _terraform(
    locals_: list[str], *, name: str = "t", billing: str = '"PAY_PER_REQUEST"'
) -> str:
    body = "locals {\n" + "".join(f"  {line}\n" for line in locals_) + "}\n"
    return body + _TABLE_TF.format(name=name, billing=billing, tags="{}")


def tf_doubling_locals(levels: int = 60, seed: str = "ab") -> str:
    """The audit's 2.3 KB configuration: each local is the one before
    twice, so the last is `seed` 2**levels times."""
    lines = [f'l0 = "{seed}"'] + [
        f'l{i} = "${{local.l{i - 1}}}${{local.l{i - 1}}}"' for i in range(1, levels + 1)
    ]
    return _terraform(lines, name=f"${{local.l{levels}}}")


def tf_fanout_locals(levels: int = 60) -> str:
    """Locals that each name the one before twice over but stay empty: 2**60
    evaluations unless each is evaluated once; the table is `fan`."""
    lines = ['l0 = ""'] + [
        f'l{i} = "${{local.l{i - 1}}}${{local.l{i - 1}}}"' for i in range(1, levels + 1)
    ]
    return _terraform(lines, name=f"fan${{local.l{levels}}}")


def tf_doubling_lists(levels: int = 60) -> str:
    """Each local a list of the one before twice."""
    lines = ['l0 = ["ab"]'] + [
        f'l{i} = ["${{local.l{i - 1}}}", "${{local.l{i - 1}}}"]'
        for i in range(1, levels + 1)
    ]
    return _terraform(lines, name="lists", billing=f'"${{local.l{levels}}}"')


def tf_many_chains(chains: int = 120, levels: int = 20) -> str:
    """About 100 KB: many chains of doubling locals, each used by a tag."""
    lines = []
    for c in range(chains):
        lines.append(f'c{c}_0 = "abcdefgh"')
        lines += [
            f'c{c}_{i} = "${{local.c{c}_{i - 1}}}${{local.c{c}_{i - 1}}}"'
            for i in range(1, levels + 1)
        ]
    body = "locals {\n" + "".join(f"  {line}\n" for line in lines) + "}\n"
    tags = "{\n" + "".join(
        f'    t{c} = "${{local.c{c}_{levels}}}"\n' for c in range(chains)
    )
    return body + _TABLE_TF.format(
        name="chains", billing='"PAY_PER_REQUEST"', tags=tags + "  }"
    )


def tf_cycle() -> str:
    """local.a -> local.b -> local.c -> local.a, as the billing mode."""
    return _terraform(
        ['a = "${local.b}"', 'b = "${local.c}"', 'c = "${local.a}"'],
        name="cycle",
        billing='"${local.a}"',
    )


def tf_nested(levels: int) -> str:
    """A tag nested `levels` lists deep."""
    return _TABLE_TF.format(
        name="deep",
        billing='"PAY_PER_REQUEST"',
        tags="{ deep = " + "[" * levels + '"x"' + "]" * levels + " }",
    )


def _template(
    properties: dict[str, Any] | None = None, **sections: Any
) -> dict[str, Any]:
    table = {
        "TableName": "t",
        "BillingMode": "PAY_PER_REQUEST",
        "AttributeDefinitions": [{"AttributeName": "PK", "AttributeType": "S"}],
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}],
        **(properties or {}),
    }
    return {
        "AWSTemplateFormatVersion": "2010-09-09",
        **sections,
        "Resources": {"Table": {"Type": "AWS::DynamoDB::Table", "Properties": table}},
    }


def cfn_nested_conditions(levels: int = 45) -> str:
    """The audit's 3.2 KB template: each condition is Fn::And of the one
    before, twice; the table is `tableA` when the last holds."""
    conditions: dict[str, Any] = {"C0": {"Fn::Equals": ["a", "a"]}}
    for i in range(1, levels + 1):
        previous = {"Condition": f"C{i - 1}"}
        conditions[f"C{i}"] = {"Fn::And": [previous, previous]}
    name = {"Fn::If": [f"C{levels}", "tableA", "tableB"]}
    return json.dumps(_template({"TableName": name}, Conditions=conditions))


def cfn_condition_cycle() -> str:
    conditions = {
        "A": {"Fn::Not": [{"Condition": "B"}]},
        "B": {"Fn::Or": [{"Condition": "C"}, {"Fn::Equals": ["x", "y"]}]},
        "C": {"Condition": "A"},
    }
    billing = {"Fn::If": ["A", "PAY_PER_REQUEST", "PROVISIONED"]}
    return json.dumps(_template({"BillingMode": billing}, Conditions=conditions))


def cfn_doubling_mappings(levels: int = 60) -> str:
    """Mapping entries that each join the one before twice."""
    entries: dict[str, Any] = {"v0": "ab"}
    for i in range(1, levels + 1):
        previous = {"Fn::FindInMap": ["M", "k", f"v{i - 1}"]}
        entries[f"v{i}"] = {"Fn::Join": ["", [previous, previous]]}
    name = {"Fn::FindInMap": ["M", "k", f"v{levels}"]}
    return json.dumps(_template({"TableName": name}, Mappings={"M": {"k": entries}}))


def cfn_long_join() -> str:
    """A 50,000-character parameter joins 20,000 values: a gigabyte."""
    parameters = {
        "Glue": {"Type": "String", "Default": "x" * 50_000},
        "Many": {"Type": "String", "Default": "," * 20_000},
    }
    name = {
        "Fn::Join": [{"Ref": "Glue"}, {"Fn::Split": [",", {"Ref": "Many"}]}],
    }
    return json.dumps(_template({"TableName": name}, Parameters=parameters))


def cfn_long_sub() -> str:
    """A text that names a 50,000-character variable 2,000 times."""
    name = {"Fn::Sub": ["${v}" * 2_000, {"v": "y" * 50_000}]}
    return json.dumps(_template({"TableName": name}))


def cfn_tagged(tags: int) -> str:
    """A plain table with many tags: work for the resolver, no harm."""
    listed = [{"Key": f"k{n}", "Value": "v"} for n in range(tags)]
    return json.dumps(_template({"Tags": listed}))


def cfn_nested(levels: int) -> str:
    """A property nested `levels` lists deep, as JSON (written as text:
    json.dumps recurses)."""
    text = json.dumps(_template({"Extra": "DEEP"}))
    return text.replace('"DEEP"', "[" * levels + '"x"' + "]" * levels)


def workbench_model(
    facets: list[dict[str, Any]] | None = None,
    items: list[dict[str, Any]] | None = None,
    **table: Any,
) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "TableName": "model",
        "KeyAttributes": {
            "PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
            "SortKey": {"AttributeName": "SK", "AttributeType": "S"},
        },
        "BillingMode": "PAY_PER_REQUEST",
        **table,
    }
    if facets is not None:
        spec["TableFacets"] = facets
    if items is not None:
        spec["TableData"] = items
    return {
        "ModelName": "Hostile",
        "ModelMetadata": {"Version": "3.0"},
        "DataModel": [spec],
    }


def nwb_facets_keyed_alike(facets: int = 300, items: int = 20) -> str:
    """The audit's 844 KB model: 6,000 items in 300 facets whose keys are
    alike (`KIND7#00003`), so every facet's inferred templates collide with
    every other's."""
    out = []
    for f in range(facets):
        data = [
            {
                "PK": {"S": f"KIND{f}#{n:05d}"},
                "SK": {"S": f"KIND{f}#META"},
                "name": {"S": f"name {f} {n}"},
                "createdAt": {"S": f"2024-01-{n % 28 + 1:02d}"},
                "count": {"N": str(n)},
            }
            for n in range(items)
        ]
        out.append(
            {
                "FacetName": f"Kind{f}",
                "KeyAttributeAlias": {"PartitionKeyAlias": "PK", "SortKeyAlias": "SK"},
                "TableData": data,
                "NonKeyAttributes": ["name", "createdAt", "count"],
            }
        )
    return json.dumps(workbench_model(out), separators=(",", ":"))


def nwb_kinds_by_shape(items: int = 6_000) -> str:
    """Items with no facets and no type attribute whose keys are each a
    word of their own: as many kinds of key as items, each pair compared."""
    letters = "abcdefghijklmnopqrstuvwxyz"

    def word(n: int) -> str:
        out = ""
        n += 26 * 26
        while n:
            n, r = divmod(n, 26)
            out += letters[r]
        return out

    data = [
        {"PK": {"S": word(n)}, "SK": {"S": word(n + 1)}, "v": {"S": "x"}}
        for n in range(items)
    ]
    return json.dumps(workbench_model(items=data), separators=(",", ":"))


def nested_map(levels: int) -> str:
    """A DynamoDB JSON map value nested `levels` maps deep, as text (too
    deep for json.dumps to write)."""
    return '{"M": {"a": ' * levels + '{"S": "x"}' + "}}" * levels


def nwb_nested_item(levels: int) -> str:
    item = '{"PK": {"S": "a"}, "SK": {"S": "b"}, "deep": ' + nested_map(levels) + "}"
    model = json.dumps(workbench_model(items=[]))
    return model.replace('"TableData": []', f'"TableData": [{item}]')


def items_nested(levels: int) -> str:
    """A line of DynamoDB JSON with a map nested `levels` maps deep."""
    return '{"PK": {"S": "a"}, "SK": {"S": "b"}, "deep": ' + nested_map(levels) + "}\n"
