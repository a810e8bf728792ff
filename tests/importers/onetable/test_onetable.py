"""A OneTable schema (dynamodb-onetable's JSON schema) becomes a design:
its indexes the table's keys and GSIs, its models entities with their key
templates translated and typed attributes; what it cannot carry is named."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from modeler.designfile import read_design
from modeler.importers.budget import MAX_NESTING
from modeler.importers.sources import ONETABLE, read_design_source, source_kind
from modeler.review import review_design
from modeler.simulation.simulate import Simulation

HERE = Path(__file__).resolve().parent
EXAMPLES = HERE.parents[2] / "examples"
SOCIAL = json.loads((HERE / "social-graph.json").read_text())


def _read(schema: dict | str, filename: str = "schema.json"):
    text = schema if isinstance(schema, str) else json.dumps(schema)
    return read_design_source(text.encode(), filename=filename)


def _errors(found) -> list[tuple[str, str]]:
    return [(p.path, p.message) for p in found.problems if p.is_error]


# OneTable has no conditional value: a sparse key of an example (`when`) is
# written unconditionally, so the import holds its template without the
# condition. Those keys are listed here and compared by template.
SPARSE_IN_EXAMPLE = {
    "social-graph": set(),
    "order-management": {("Order", "GSI2PK"), ("Order", "GSI2SK")},
    "device-telemetry": set(),
}


@pytest.mark.parametrize("example_name", sorted(SPARSE_IN_EXAMPLE))
def test_the_schema_of_an_example_imports_to_the_examples_keys(example_name):
    filename = f"{example_name}.json"
    found = _read((HERE / filename).read_text(), filename)
    example = read_design((EXAMPLES / f"{example_name}.yaml").read_text()).design

    assert found.kind == ONETABLE and found.ok, found.problems
    (design,) = found.designs
    assert design.table.name == example.table.name
    assert design.table.partition_key == example.table.partition_key
    assert design.table.sort_key == example.table.sort_key
    assert design.table.ttl_attribute == example.table.ttl_attribute
    assert [
        (i.name, i.kind, i.partition_key, i.sort_key, i.projection)
        for i in design.table.indexes
    ] == [
        (i.name, i.kind, i.partition_key, i.sort_key, i.projection)
        for i in example.table.indexes
    ]
    sparse = SPARSE_IN_EXAMPLE[example_name]
    imported = {
        e.name: {k: t for k, t in e.keys.items() if (e.name, k) not in sparse}
        for e in design.entities
    }
    expected = {
        e.name: {k: t for k, t in e.keys.items() if (e.name, k) not in sparse}
        for e in example.entities
    }
    assert imported == expected
    for entity, key in sparse:
        got = design.entity(entity).keys[key]
        want = example.entity(entity).keys[key]
        assert (got.template, got.when) == (want.template, "")


@pytest.mark.parametrize("example_name", sorted(SPARSE_IN_EXAMPLE))
def test_the_schema_of_an_example_is_reviewed_with_no_error_or_warning(example_name):
    """The device telemetry's `expiresAt: {type: number, ttl: true}` is
    epoch seconds: not a default number (a moment in 1970, which the
    review warns DynamoDB never expires)."""
    filename = f"{example_name}.json"
    (design,) = _read((HERE / filename).read_text(), filename).designs
    review = review_design(design, simulation=Simulation(design))
    flagged = [f for f in review.findings if f.severity in ("error", "warning")]
    assert [(f.code, f.message) for f in flagged] == []


def test_the_social_graph_types_are_carried():
    design = _read(SOCIAL, "social-graph.json").designs[0]
    follow = design.entity("Follow")
    assert follow.attribute("followedAt").type == "S"  # isoDates: ISO text
    assert not design.entity("User").attribute("bio").required


def test_the_order_managements_padding_is_carried():
    design = _read((HERE / "order-management.json").read_text()).designs[0]
    assert design.entity("LineItem").keys["SK"].template == "ITEM#{lineNo:03d}"
    assert design.entity("Order").attribute("status").generator.kind == "choice"


def test_the_device_telemetrys_time_to_live_is_the_tables():
    found = _read((HERE / "device-telemetry.json").read_text())

    design = found.designs[0]
    assert design.table.ttl_attribute == "expiresAt"
    assert design.entity("Reading").attribute("expiresAt").type == "N"
    assert not [n for n in found.notes if ".ttl" in n]


def _ttl_schema(**fields: dict) -> dict:
    return {
        "indexes": {"primary": {"hash": "PK"}},
        "params": {"isoDates": True},
        "models": {
            "Session": {
                "PK": {"type": "string", "value": "SESSION#${id}"},
                "id": {"type": "string", "required": True},
                **fields,
            }
        },
    }


def test_a_ttl_date_is_epoch_seconds_even_with_iso_dates():
    """OneTable stores a `ttl: true` date as epoch seconds, so the design's
    TTL attribute is a number its check accepts (an ISO text would be
    ignored by DynamoDB)."""
    found = _read(_ttl_schema(expires={"type": "date", "ttl": True, "map": "exp"}))

    assert found.ok, found.problems
    design = found.designs[0]
    assert design.table.ttl_attribute == "exp"
    assert design.entity("Session").attribute("exp").type == "N"
    assert not [p for p in found.problems if p.code == "ttl-not-number"]


def test_a_second_ttl_attribute_is_named_not_carried():
    found = _read(
        _ttl_schema(
            expires={"type": "date", "ttl": True},
            purgeAt={"type": "number", "ttl": True},
        )
    )

    assert found.designs[0].table.ttl_attribute == "expires"
    assert (
        "models.Session.purgeAt.ttl: not carried: a table has one time-to-live "
        "attribute, and expires is already it"
    ) in found.notes


@pytest.mark.parametrize(
    ("field", "message"),
    [
        (
            {"type": "string", "ttl": True},
            "a TTL field is a date or a number (epoch seconds), not 'string'",
        ),
        ({"type": "date", "ttl": "yes"}, "expected true or false, found 'yes'"),
    ],
)
def test_a_ttl_field_that_cannot_be_one_is_refused(field, message):
    found = _read(_ttl_schema(expires=field))

    assert _errors(found) == [("models.Session.expires.ttl", message)]
    assert not found.designs


def test_what_is_not_carried_is_named():
    found = _read(SOCIAL)

    assert "models.User.userId.validate: not carried (OneTable runtime)" in found.notes
    assert any(
        n.startswith("queries: 1 saved queries not carried") for n in found.notes
    )


def test_templates_types_and_generators_are_translated():
    schema = {
        "indexes": {
            "primary": {"hash": "pk", "sort": "sk"},
            "ls1": {"type": "local", "sort": "ls1sk", "project": "keys"},
        },
        "params": {"timestamps": True},
        "models": {
            "Account": {
                "pk": {"type": "String", "value": "ACCOUNT#${id}"},
                "sk": {"type": "String", "value": "SEQ#${seq:6}{x}"},
                "ls1sk": {"type": "String", "value": "${name:10}"},
                "id": {"type": "String", "generate": "ulid"},
                "seq": {"type": "Number", "required": True},
                "name": {"type": "String", "required": True},
                "plan": {"type": "String", "enum": ["free", "pro"]},
                "tags": {"type": "Array"},
            }
        },
    }
    found = _read(schema)

    assert found.ok, found.problems
    (design,) = found.designs
    account = design.entity("Account")
    assert {k: t.template for k, t in account.keys.items()} == {
        "pk": "ACCOUNT#{id}",
        "sk": "SEQ#{seq:06d}{{x}}",
        "ls1sk": "{name}",
    }
    assert account.attribute("id").generator.kind == "ulid"
    assert account.attribute("id").required  # a key is made from it
    assert account.attribute("plan").generator.kind == "choice"
    assert account.attribute("tags").type == "L"
    assert account.attribute("created").type == "N"  # epoch seconds
    (lsi,) = design.table.indexes
    assert (lsi.kind, lsi.projection.type) == ("local", "KEYS_ONLY")
    assert any("padding of ${name}" in n for n in found.notes)


def test_a_schema_is_recognised_by_its_content():
    text = json.dumps(SOCIAL)
    assert source_kind(text) == ONETABLE
    assert source_kind(text.encode(), filename="model.json") == ONETABLE


@pytest.mark.parametrize(
    ("change", "path", "words"),
    [
        (
            lambda s: s["indexes"]["primary"].pop("hash"),
            "indexes.primary.hash",
            "is missing",
        ),
        (
            lambda s: s["models"]["User"]["PK"].update(value="USER#${nobody}"),
            "models.User.PK.value",
            "${nobody} names no field",
        ),
        (
            lambda s: s["models"]["User"]["PK"].pop("value"),
            "models.User.PK.value",
            "needs its value template",
        ),
        (
            lambda s: s["models"]["User"]["bio"].update(type="text"),
            "models.User.bio.type",
            "found 'text'",
        ),
        (
            lambda s: s["models"]["User"]["userId"].update(generate="counter"),
            "models.User.userId.generate",
            "expected 'ulid' or 'uuid'",
        ),
        (
            lambda s: s["models"].update({"<script>": {}}),
            "models.<script>",
            "a model's name",
        ),
        (
            lambda s: s["indexes"]["GSI1"].update(project="some"),
            "indexes.GSI1.project",
            "expected 'all', 'keys'",
        ),
        (lambda s: s.pop("models"), "models", "is missing"),
    ],
)
def test_bad_input_names_the_json_path(change, path, words):
    schema = copy.deepcopy(SOCIAL)
    change(schema)

    found = _read(schema)

    assert not found.designs
    ((where, message),) = _errors(found)
    assert where == path and words in message


def test_broken_json_names_line_and_column():
    found = _read('{"models": {},\n "indexes": {,}}')

    ((where, message),) = _errors(found)
    assert where == "line 2 column 14" and "is not JSON" in message


def test_a_schema_nested_past_the_limit_is_refused():
    deep: dict = {}
    inner = deep
    for _ in range(MAX_NESTING + 5):
        inner["x"] = {}
        inner = inner["x"]
    schema = copy.deepcopy(SOCIAL)
    schema["models"]["User"]["bio"]["schema"] = deep

    found = _read(schema)

    ((where, message),) = _errors(found)
    assert "nested more than" in message and not found.designs


def test_an_oversized_schema_is_refused():
    text = json.dumps(SOCIAL).encode()

    found = read_design_source(text, filename="s.json", max_bytes=100)

    ((where, message),) = _errors(found)
    assert f"the file is {len(text):,} bytes; OneTable schemas are limited to 100" in (
        message
    )
