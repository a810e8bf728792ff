"""NoSQL Workbench models: every real file imports, an export re-imports to
the same design (on what the format carries), bad files are refused with a
clear message."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import UTC, datetime

import pytest
import yaml
from hypothesis import HealthCheck, given, settings

from modeler.design import model as d
from modeler.design.model import thaw
from modeler.designfile import dump_design, entity_document, read_design
from modeler.engine.types import item_from_wire
from modeler.exporters.nosql_workbench import (
    carried,
    export_notes,
    export_workbench,
    workbench_model,
)
from modeler.importers.workbench import looks_like_workbench, read_workbench
from modeler.sampledata.recognise import EntityRecogniser
from tests.exporters.helpers import EXAMPLES, FIXTURES, WORKBENCH_FIXTURES, example
from tests.exporters.strategies import designs


def fixture(name: str):
    result = read_workbench((FIXTURES / name).read_bytes())
    assert result.ok, result.all_problems
    return result


def entity_keys(design):
    return {e.name: {k: v.template for k, v in e.keys.items()} for e in design.entities}


@pytest.mark.parametrize("path", WORKBENCH_FIXTURES, ids=lambda p: p.stem)
def test_every_fixture_imports_to_designs_that_read_back(path):
    result = read_workbench(path.read_bytes())
    assert result.ok, result.all_problems
    assert not [p for p in result.all_problems if p.is_error]
    for design in result.designs:
        again = read_design(dump_design(design))
        assert again.design == design
        assert design.entities and design.sample_data.items
        recogniser = EntityRecogniser(design)
        known = [
            recogniser.entity_of(item_from_wire(thaw(i)))
            for i in design.sample_data.items
        ]
        assert sum(k is not None for k in known) >= len(known) - 1


def test_fixtures_cover_every_version():
    versions = {read_workbench(p.read_bytes()).version for p in WORKBENCH_FIXTURES}
    assert versions == {"1.0", "2.0", "3.0"}


def test_a_model_with_two_tables_gives_a_design_per_table():
    result = fixture("BankModel.json")
    assert [t.table_name for t in result.tables] == [
        "PaymentScheduler",
        "TransactionHistory",
    ]
    assert [d.name for d in result.designs] == [
        "Bank — PaymentScheduler",
        "Bank — TransactionHistory",
    ]
    history = result.designs[1]
    assert [i.name for i in history.table.indexes] == [
        "QueryAll_byTime",
        "Query_TransactionID",
    ]
    assert (
        entity_keys(history)["TransactionHistory"]["TransactionID"] == "{transactionID}"
    )


def test_facets_become_entities_with_templates_inferred_from_their_items():
    design = fixture("AnOnlineShop_facets.json").designs[0]
    keys = entity_keys(design)
    assert list(keys)[:3] == ["customer", "product", "warehouse"]
    assert keys["customer"] == {"PK": "c#{cId:05d}", "SK": "c#{cId:05d}"}
    assert keys["warehouseItem"]["GSI2-PK"] == "w#{wId:05d}"
    assert keys["payment"]["SK"] == "pmn#{pmnId:05d}"
    customer = design.entity("customer")
    assert {a.name for a in customer.attributes} >= {"Email", "Name", "cId"}
    # Version 1.0 keeps each facet's table data on the facet.
    assert len(design.sample_data.items) >= 14


def test_aliases_and_attribute_values_name_the_placeholders():
    design = fixture("ConnectedVehiclesSchema.json").designs[0]
    keys = entity_keys(design)
    assert keys["Vehicle"]["PK"] == "VIN#{vehicle_id}"
    assert keys["User"]["PK"] == "ID#{user_name}"
    assert design.table.billing_mode == "PROVISIONED"
    assert design.table.capacity.read == 5


def test_nested_maps_written_as_plain_json_become_dynamodb_json():
    design = fixture("ConnectedVehiclesSchema.json").designs[0]
    autodrive = next(
        i for i in design.sample_data.items if i["SK"]["S"] == "FEATURE#AUTODRIVE"
    )
    assert dict(autodrive["autonomous_driving"]["M"]["is_enabled"]) == {"BOOL": True}
    assert dict(autodrive["autonomous_driving"]["M"]["version"]) == {
        "S": "v0.000.1 beta"
    }


def test_without_facets_items_are_grouped_by_their_key_prefix():
    result = fixture("ChatSystemSchema.json")
    design = result.designs[0]
    assert entity_keys(design) == {
        "User": {
            "PK": "User:{userId}",
            "SK": "{skValue}",
            "RoomID": "{roomID}",
            "CreatedAt": "{createdAt}",
        },
        "Room": {"PK": "Room:{roomId}", "SK": "meta"},
    }
    notes = " ".join(result.tables[0].notes)
    assert (
        "auto scaling kept: the table: reads 1 to 10 units at 70%, writes 1 to 10 "
        "units at 70%"
    ) in notes
    assert "RoomID_Comment_IDX has no capacity of its own" in notes


def test_labs_model_schema_and_type_attribute_give_the_entities():
    result = fixture("Hospital.json")
    design = result.designs[0]
    names = [e.name for e in design.entities]
    assert names[:2] == ["patient", "treatment"]
    assert "doctor" in names and "room" in names
    notes = " ".join(result.tables[0].notes)
    # The modeler's own template does not fit its data: said, not hidden.
    assert "'{timestamp}#{treatmentId}' of SK does not match" in notes
    assert "admission was merged into treatment" in notes
    assert [i.name for i in design.table.indexes] == ["GSI1", "GSI2", "GSI3", "GSI4"]


def test_plain_attribute_keys_of_a_version_1_model():
    design = fixture("DeviceStateLog_7.json").designs[0]
    keys = entity_keys(design)["DeviceStateLog"]
    assert keys["State#Date"] == "{State}#{date}"
    assert keys["Operator"] == "{operator}"
    assert keys["EscalatedTo"] == "{escalatedTo}"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_export_of_an_example_reimports_to_the_same_design(path):
    design = example(path)
    text = export_workbench(design)
    model = json.loads(text)
    assert model["ModelMetadata"]["Version"] == "3.0"
    (table,) = model["DataModel"]
    assert [f["FacetName"] for f in table["TableFacets"]] == [
        e.name for e in design.entities
    ]
    result = read_workbench(text)
    assert result.ok, result.all_problems
    assert result.designs == [carried(design)]
    assert any("access pattern" in n for n in export_notes(design))


@pytest.mark.parametrize("path", WORKBENCH_FIXTURES, ids=lambda p: p.stem)
def test_export_of_an_imported_fixture_reimports_to_the_same_design(path):
    for design in read_workbench(path.read_bytes()).designs:
        again = read_workbench(export_workbench(design))
        assert again.designs == [carried(design)]


def test_facets_hold_their_entitys_sample_items_with_templates_as_aliases():
    design = fixture("AnOnlineShop_facets.json").designs[0]
    model = workbench_model(design, now=datetime(2026, 1, 2, 15, 4, tzinfo=UTC))
    assert model["ModelMetadata"]["DateCreated"] == "Jan 02, 2026, 03:04 PM"
    (table,) = model["DataModel"]
    customer = table["TableFacets"][0]
    assert customer["KeyAttributeAlias"] == {
        "PartitionKeyAlias": "c#{cId:05d}",
        "SortKeyAlias": "c#{cId:05d}",
    }
    assert {i["PK"]["S"] for i in customer["TableData"]} == {
        "c#12345",
        "c#23456",
        "c#54321",
    }
    # As in AWS's own 3.0 models, the items are in the facets only.
    assert table["TableData"] == []
    facets = sum(len(f["TableData"]) for f in table["TableFacets"])
    assert facets == len(design.sample_data.items)


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(designs())
def test_export_then_import_gives_the_carried_design(generated):
    design = read_design(dump_design(generated)).design
    assert design is not None
    result = read_workbench(export_workbench(design))
    assert result.ok, result.all_problems
    assert result.designs == [carried(design)]


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(designs())
def test_the_models_entities_are_the_design_files_without_writing_yaml(generated):
    # The ModelSchema section carries each entity as the design file writes
    # it; it is built from the entity, no longer by writing the whole design
    # as YAML and reading it back (two thirds of the export's time).
    design = read_design(dump_design(generated)).design
    assert design is not None
    written = yaml.safe_load(dump_design(design))["entities"]
    assert {e.name: entity_document(e) for e in design.entities} == written
    model = workbench_model(design)
    assert model["ModelSchema"]["entities"].keys() == written.keys()
    for name, extra in model["ModelSchema"]["entities"].items():
        assert extra["sample"] == written[name]["sample"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"not json at all", "not valid JSON at line 1, column 1"),
        (b'{"ModelName": "x", "DataModel": [', "not valid JSON at line 1"),
        (b"[1, 2]", "expected a NoSQL Workbench model (a JSON object"),
        (b'{"ModelName": "x"}', "DataModel: is missing"),
        (
            b'{"ModelName": "x", "DataModel": []}',
            "expected a list of at least one table",
        ),
        (
            b'{"ModelName": "x", "ModelMetadata": {"Version": "4.0"}, '
            b'"DataModel": [{}]}',
            "unknown version '4.0'",
        ),
        (b'{"ModelName": "x", "DataModel": [{"TableName": "t1"}]}', "KeyAttributes"),
        (
            b'{"ModelName": "x", "DataModel": [{"TableName": "orders", "KeyAttributes":'
            b' {"PartitionKey": {"AttributeName": "PK", "AttributeType": "BOOL"}}}]}',
            "'BOOL' is not one of S, N, B",
        ),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_bad_files_are_refused_with_a_clear_message(content, message):
    result = read_workbench(content)
    assert not result.ok
    assert not result.designs
    text = "; ".join(f"{p.path}: {p.message}" for p in result.all_problems)
    assert message in text


def test_an_oversize_file_is_refused_before_it_is_parsed():
    result = read_workbench(b"{" + b" " * 2000 + b"}", max_bytes=1000)
    assert not result.ok
    assert result.problems[0].message == (
        "the file is 2,002 bytes; model files are limited to 1,000 bytes"
    )


def test_workbench_files_are_told_from_design_yaml():
    for path in WORKBENCH_FIXTURES:
        assert looks_like_workbench(path.read_bytes())
    for path in EXAMPLES:
        assert not looks_like_workbench(path.read_bytes())
    assert not looks_like_workbench(b'{"format": "single-table-workbench/v1"}')


def test_items_without_the_table_key_are_left_out_and_listed():
    model = {
        "ModelName": "Tiny",
        "DataModel": [
            {
                "TableName": "tiny",
                "KeyAttributes": {
                    "PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}
                },
                "TableData": [
                    {"PK": {"S": "A#1"}, "n": {"N": 5}},
                    {"other": {"S": "no key"}},
                    {"PK": {"S": "A#2"}, "bad": {"X": 1}},
                ],
            }
        ],
    }
    result = read_workbench(json.dumps(model))
    assert result.ok, result.all_problems
    (table,) = result.tables
    assert len(result.designs[0].sample_data.items) == 1
    assert dict(result.designs[0].sample_data.items[0]["n"]) == {"N": "5"}
    assert any("2 item(s) left out" in n and "has no PK" in n for n in table.notes)


def test_generated_items_fill_each_facet_and_import_as_sample_items():
    design = example([p for p in EXAMPLES if p.stem == "order-management"][0])
    model = workbench_model(design, generated=3)
    (table,) = model["DataModel"]
    for facet in table["TableFacets"]:
        assert 1 <= len(facet["TableData"]) <= 3, facet["FacetName"]
    result = read_workbench(json.dumps(model))
    assert result.ok, result.all_problems
    (imported,) = result.designs
    assert len(imported.sample_data.items) == sum(
        len(f["TableData"]) for f in table["TableFacets"]
    )
    assert imported.entities == carried(design).entities


def test_sample_data_formats_lsis_and_gsi_settings_are_read():
    model = {
        "ModelName": "Shop",
        "ModelMetadata": {"Version": "3.0", "Author": "someone"},
        "DataModel": [
            {
                "TableName": "shop",
                "KeyAttributes": {
                    "PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
                    "SortKey": {"AttributeName": "SK", "AttributeType": "S"},
                },
                "NonKeyAttributes": [
                    {"AttributeName": "email", "AttributeType": "S"},
                    {"AttributeName": "updatedAt", "AttributeType": "S"},
                    {"AttributeName": "byDate", "AttributeType": "S"},
                ],
                "GlobalSecondaryIndexes": [
                    {
                        "IndexName": "ByEmail",
                        "KeyAttributes": {
                            "PartitionKey": {
                                "AttributeName": "email",
                                "AttributeType": "S",
                            }
                        },
                        "Projection": {
                            "ProjectionType": "INCLUDE",
                            "NonKeyAttributes": ["updatedAt"],
                        },
                        "ProvisionedThroughput": {
                            "ReadCapacityUnits": 3,
                            "WriteCapacityUnits": 2,
                        },
                    }
                ],
                "LocalSecondaryIndexes": [
                    {
                        "IndexName": "ByDate",
                        "KeyAttributes": {
                            "PartitionKey": {
                                "AttributeName": "PK",
                                "AttributeType": "S",
                            },
                            "SortKey": {
                                "AttributeName": "byDate",
                                "AttributeType": "S",
                            },
                        },
                        "Projection": {"ProjectionType": "KEYS_ONLY"},
                    }
                ],
                "TableData": [
                    {
                        "PK": {"S": "USER#1"},
                        "SK": {"S": "PROFILE"},
                        "email": {"S": "a@example.com"},
                        "updatedAt": {"S": "2024-01-01T00:00:00Z"},
                        "byDate": {"S": "2024-01-01"},
                    },
                    {
                        "PK": {"S": "USER#2"},
                        "SK": {"S": "PROFILE"},
                        "email": {"S": "b@example.com"},
                        "updatedAt": {"S": "2024-02-01T00:00:00Z"},
                        "byDate": {"S": "2024-02-01"},
                    },
                ],
                "SampleDataFormats": {
                    "updatedAt": ["date", "ISO 8601 date and time"],
                    "email": ["identifiers", "Email"],
                    "shoeSize": ["fashion", "Shoe size"],
                },
                "BillingMode": "PROVISIONED",
                "ProvisionedCapacitySettings": {
                    "ProvisionedThroughput": {
                        "ReadCapacityUnits": 10,
                        "WriteCapacityUnits": 4,
                    }
                },
            }
        ],
    }
    result = read_workbench(json.dumps(model))
    assert result.ok, result.all_problems
    design = result.designs[0]
    gsi, lsi = design.table.indexes
    assert (gsi.name, gsi.projection.type, gsi.projection.attributes) == (
        "ByEmail",
        "INCLUDE",
        ("updatedAt",),
    )
    assert (gsi.capacity.read, gsi.capacity.write) == (3, 2)
    assert (lsi.kind, lsi.sort_key[0].name) == ("local", "byDate")
    assert (design.table.capacity.read, design.table.capacity.write) == (10, 4)
    entity = design.entities[0]
    assert {k: v.template for k, v in entity.keys.items()} == {
        "PK": "USER#{userId}",
        "SK": "PROFILE",
        "email": "{emailValue}",
        "byDate": "{byDateValue}",
    }
    generators = {a.name: a.generator for a in entity.attributes if a.generator}
    assert generators["updatedAt"].kind == "timestamp"
    # The key's format goes to the attribute that fills the key.
    assert (generators["emailValue"].kind, dict(generators["emailValue"].params)) == (
        "faker",
        {"value": "email"},
    )
    notes = " ".join(result.tables[0].notes)
    assert "fashion / Shoe size" in notes and "Author 'someone'" in notes


def test_an_lsi_is_exported_as_an_lsi():
    design = example(next(p for p in EXAMPLES if p.stem == "device-telemetry"))
    model = json.loads(export_workbench(design))
    (table,) = model["DataModel"]
    assert [i["IndexName"] for i in table["LocalSecondaryIndexes"]] == ["LSI1"]
    assert table["LocalSecondaryIndexes"][0]["KeyAttributes"]["PartitionKey"] == {
        "AttributeName": "PK",
        "AttributeType": "S",
    }
    assert not any("multi-attribute" in note for note in export_notes(design))
    (again,) = read_workbench(json.dumps(model)).designs
    assert [(i.name, i.kind) for i in again.table.indexes] == [
        ("GSI1", "global"),
        ("LSI1", "local"),
    ]


def test_key_attributes_listed_in_an_include_projection_are_left_out():
    # AWS's recurring payments sample lists its keys among NonKeyAttributes,
    # which DynamoDB refuses: the import leaves them out and says so.
    model = {
        "ModelName": "Payments",
        "ModelMetadata": {"Version": "3.0"},
        "DataModel": [
            {
                "TableName": "payments",
                "KeyAttributes": {
                    "PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
                    "SortKey": {"AttributeName": "SK", "AttributeType": "S"},
                },
                "NonKeyAttributes": [
                    {"AttributeName": "GSI1PK", "AttributeType": "S"},
                    {"AttributeName": "amount", "AttributeType": "N"},
                ],
                "GlobalSecondaryIndexes": [
                    {
                        "IndexName": GSI,
                        "KeyAttributes": {
                            "PartitionKey": {
                                "AttributeName": "GSI1PK",
                                "AttributeType": "S",
                            }
                        },
                        "Projection": {
                            "ProjectionType": "INCLUDE",
                            "NonKeyAttributes": PROJECTED,
                        },
                    }
                    for GSI, PROJECTED in (
                        ("ByDay", ["PK", "SK", "GSI1PK", "amount"]),
                        ("KeysOnly", ["PK", "GSI1PK"]),
                    )
                ],
            }
        ],
    }
    result = read_workbench(json.dumps(model))
    assert result.ok, result.all_problems
    (design,) = result.designs
    (notes,) = [table.notes for table in result.tables]
    by_day, keys_only = design.table.indexes
    assert by_day.projection == d.Projection("INCLUDE", ("amount",))
    assert keys_only.projection.type == "KEYS_ONLY"
    assert (
        "index ByDay: the key attributes PK, SK, GSI1PK left out of its INCLUDE "
        "projection, as every index projects the keys"
    ) in notes
    assert any(
        note.startswith("index KeysOnly:") and note.endswith("so it is KEYS_ONLY")
        for note in notes
    )


def test_an_include_projection_with_a_name_that_is_not_text_is_refused():
    """A number among NonKeyAttributes was dropped without a word, so the
    index projected less than the model said; it is now refused where it
    stands, as the CloudFormation and Terraform imports refuse it."""
    model = {
        "ModelName": "Payments",
        "ModelMetadata": {"Version": "3.0"},
        "DataModel": [
            {
                "TableName": "payments",
                "KeyAttributes": {
                    "PartitionKey": {"AttributeName": "PK", "AttributeType": "S"},
                },
                "GlobalSecondaryIndexes": [
                    {
                        "IndexName": "ByAmount",
                        "KeyAttributes": {
                            "PartitionKey": {
                                "AttributeName": "amount",
                                "AttributeType": "N",
                            }
                        },
                        "Projection": {
                            "ProjectionType": "INCLUDE",
                            "NonKeyAttributes": ["status", 7],
                        },
                    }
                ],
            }
        ],
    }
    result = read_workbench(json.dumps(model))
    assert not result.ok
    assert [(p.path, p.message) for p in result.all_problems] == [
        (
            "DataModel[0].GlobalSecondaryIndexes[0].Projection.NonKeyAttributes",
            "expected a list of names",
        )
    ]


def test_two_attributes_of_one_sample_data_format_import():
    """One generator shared by two attributes was written as a YAML alias,
    which the design reader refuses: the model could not be imported."""
    model = {
        "ModelName": "Events",
        "ModelMetadata": {"Version": "3.0"},
        "DataModel": [
            {
                "TableName": "events",
                "KeyAttributes": {
                    "PartitionKey": {"AttributeName": "PK", "AttributeType": "S"}
                },
                "NonKeyAttributes": [
                    {"AttributeName": "startsOn", "AttributeType": "S"},
                    {"AttributeName": "endsOn", "AttributeType": "S"},
                ],
                "SampleDataFormats": {
                    "startsOn": ["date", "ISO 8601 date"],
                    "endsOn": ["date", "ISO 8601 date"],
                },
                "TableData": [
                    {
                        "PK": {"S": "EV#1"},
                        "startsOn": {"S": "2025-01-01"},
                        "endsOn": {"S": "2025-01-02"},
                    }
                ],
            }
        ],
    }
    result = read_workbench(json.dumps(model))
    assert result.ok, result.all_problems
    (entity,) = result.designs[0].entities
    kinds = {a.name: a.generator.kind for a in entity.attributes if a.generator}
    assert kinds == {"startsOn": "date", "endsOn": "date"}


def test_the_social_network_sample_gives_each_kind_of_item_its_entity():
    # Every key of this AWS sample starts with a one-letter prefix and its
    # kinds differ by a word after the user's id: eight kinds, not one.
    result = fixture("SocialNetworkSchema.json")
    assert entity_keys(result.designs[0]) == {
        "Info": {"PK": "u#{uId:05d}", "SK": '"info"'},
        "Count": {"PK": "u#{uId:05d}", "SK": '"count"'},
        "Follower": {"PK": "u#{uId:05d}#follower", "SK": "u#{uId2:05d}"},
        "Following": {"PK": "u#{uId:05d}#following", "SK": "u#{uId2:05d}"},
        "Post": {"PK": "u#{uId:05d}#post", "SK": "p#{pId:05d}"},
        "Likelist": {"PK": "p#{pId:05d}#likelist", "SK": "u#{uId:05d}"},
        "Likecount": {"PK": "p#{pId:05d}#likecount", "SK": '"count"'},
        "Timeline": {"PK": "u#{uId:05d}#timeline", "SK": "p#{pId:05d}#u#{uId2:05d}"},
    }


def _key(name: str) -> dict[str, str]:
    return {"AttributeName": name, "AttributeType": "S"}


def _small_model(items: list[dict], *, sort: bool = True, **gsis: tuple) -> str:
    """A one-table 3.0 model of string keys PK (and SK) holding `items`,
    with a GSI per keyword: its partition key and optional sort key."""
    table: dict = {
        "TableName": "small",
        "KeyAttributes": {"PartitionKey": _key("PK")}
        | ({"SortKey": _key("SK")} if sort else {}),
        "TableData": items,
    }
    if gsis:
        table["GlobalSecondaryIndexes"] = [
            {
                "IndexName": name,
                "KeyAttributes": {"PartitionKey": _key(keys[0])}
                | ({"SortKey": _key(keys[1])} if len(keys) > 1 else {}),
                "Projection": {"ProjectionType": "ALL"},
            }
            for name, keys in gsis.items()
        ]
    model = {"ModelName": "Small", "ModelMetadata": {"Version": "3.0"}}
    return json.dumps(model | {"DataModel": [table]})


def _strings(**values: str) -> dict[str, dict[str, str]]:
    return {k: {"S": v} for k, v in values.items()}


def test_an_access_list_keeps_its_edges_apart_from_the_nodes():
    # Users, groups and resources keyed by their own id, and the edges
    # between them (a member of a group, a privilege on a resource) with an
    # inverted index: each kind of edge is an entity of its own.
    items = [
        _strings(PK="U1", SK="U1", name="Ann"),
        _strings(PK="U2", SK="U2", name="Bob"),
        _strings(PK="G1", SK="G1", name="Admins"),
        _strings(PK="R1", SK="R1", name="Reports"),
        _strings(PK="G1", SK="U1"),
        _strings(PK="G1", SK="U2"),
        _strings(PK="R1", SK="U1", privilege="read"),
        _strings(PK="R1", SK="G1", privilege="write"),
    ]
    result = read_workbench(_small_model(items, Inverted=("SK", "PK")))
    assert result.ok, result.all_problems
    (design,) = result.designs
    assert entity_keys(design) == {
        "U": {"PK": "U{uId}", "SK": "U{uId}"},
        "G": {"PK": "G{gId}", "SK": "G{gId}"},
        "R": {"PK": "R{rId}", "SK": "R{rId}"},
        "G_U": {"PK": "G{gId}", "SK": "U{uId}"},
        "R_U": {"PK": "R{rId}", "SK": "U{uId}"},
        "R_G": {"PK": "R{rId}", "SK": "G{gId}"},
    }
    assert [i.name for i in design.table.indexes] == ["Inverted"]


def test_a_sparse_index_is_not_explained_by_ids():
    # In AWS's complaint management sample only some comments have an
    # agent (a sparse index). Each comment has its own comm_id: that is no
    # condition; the complaint's state, which repeats, is.
    result = fixture("ComplaintManagementSchema.json")
    entities = {e.name: e for e in result.designs[0].entities}
    assert set(entities) == {"Comm", "Metadata"}
    when = entities["Comm"].keys["agentID"].when
    assert when == "complaint_state in (assigned, investigating, resolved)"
    # Escalation times are unique per item: no condition, and the note says
    # what to do.
    assert not entities["Metadata"].keys["escalated_to"].when
    notes = " ".join(result.tables[0].notes)
    assert "until you add a `when` condition" in notes


def test_the_gaming_and_session_samples_give_one_entity_per_sort_key_prefix():
    games = fixture("GamePlayerProfilesSchema.json").designs[0]
    assert [e.name for e in games.entities] == [
        "Metadata",
        "Friends",
        "Items",
        "Equipments",
        "Tasks",
        "Activities",
    ]
    sessions = fixture("SessionManagementSchema.json").designs[0]
    assert entity_keys(sessions) == {
        "Child": {"PK": "suuid#{suuidId}", "SK": "child#suuid#{suuidId2}"},
        "C": {"PK": "suuid#{suuidId}", "SK": "c#{cId}"},
    }


def test_the_type_attribute_of_an_entity_is_its_name_in_generated_items():
    # Two items of each kind are too few to infer a constant from, but the
    # type attribute names the kind: generated items say the same.
    items = [
        _strings(PK="a1", type="Author", name="Ann"),
        _strings(PK="a2", type="Author", name="Bob"),
        _strings(PK="b1", type="Book", title="Dune"),
        _strings(PK="b2", type="Book", title="Emma"),
    ]
    result = read_workbench(_small_model(items, sort=False))
    assert result.ok, result.all_problems
    generators = {
        e.name: {a.name: a.generator for a in e.attributes}["type"]
        for e in result.designs[0].entities
    }
    assert {name: g.kind for name, g in generators.items()} == {
        "Author": "constant",
        "Book": "constant",
    }
    assert {name: dict(g.params) for name, g in generators.items()} == {
        "Author": {"value": "Author"},
        "Book": {"value": "Book"},
    }


def test_a_facets_own_key_names_are_kept_and_written_back():
    # AWS's gaming sample names its keys per facet (`playerID`,
    # `ITEMS#ItemID`): the design keeps the names beside the templates it
    # infers, and the export writes them back as the facet's aliases.
    design = fixture("GamePlayerProfilesSchema.json").designs[0]
    items = design.entity("Items").keys
    assert (items["PK"].template, items["PK"].alias) == (
        "player{playerId:03d}",
        "playerID",
    )
    assert (items["SK"].template, items["SK"].alias) == (
        "ITEMS#{itemsId:03d}",
        "ITEMS#ItemID",
    )
    assert "alias: ITEMS#ItemID" in dump_design(design)
    (table,) = workbench_model(design)["DataModel"]
    facets = {f["FacetName"]: f["KeyAttributeAlias"] for f in table["TableFacets"]}
    assert facets["Items"] == {
        "PartitionKeyAlias": "playerID",
        "SortKeyAlias": "ITEMS#ItemID",
    }
    # A model whose aliases are its key names (`PK`, `SK`) keeps none.
    vehicles = fixture("ConnectedVehiclesSchema.json").designs[0]
    assert not any(k.alias for e in vehicles.entities for k in e.keys.values())


def test_several_constants_in_an_index_key_are_one_kind_and_its_attribute():
    # Orders keyed in an index by their status (OPEN, SHIPPED, CLOSED): one
    # kind whose index key is its status, beside the customers' profiles.
    items = [
        {
            "PK": {"S": f"CUST#{n % 2}"},
            "SK": {"S": f"ORDER#{n:03d}"},
            "GSI1PK": {"S": status},
            "status": {"S": status},
            "total": {"N": str(10 + n)},
        }
        for n, status in enumerate(["OPEN", "SHIPPED", "CLOSED", "OPEN", "SHIPPED"])
    ] + [
        {"PK": {"S": f"CUST#{n}"}, "SK": {"S": "PROFILE"}, "name": {"S": "Ann"}}
        for n in range(2)
    ]
    result = read_workbench(_small_model(items, ByStatus=("GSI1PK",)))
    assert result.ok, result.all_problems
    assert entity_keys(result.designs[0]) == {
        "Order": {
            "PK": "CUST#{custId}",
            "SK": "ORDER#{orderId:03d}",
            "GSI1PK": "{status}",
        },
        "Profile": {"PK": "CUST#{custId}", "SK": "PROFILE"},
    }


def test_the_import_says_which_generators_it_inferred_and_from_how_many_values():
    items = [
        _strings(
            PK=f"T#{n:02d}",
            status=["OPEN", "DONE", "OPEN"][n % 3],
            due=f"2025-03-{n + 1:02d}",
        )
        for n in range(12)
    ]
    result = read_workbench(_small_model(items, sort=False))
    assert result.ok, result.all_problems
    assert (
        "all items: generators inferred from the values (and how many values they "
        "come from): due: dates from 2025-03-01 to 2025-03-12 (from 12); status: "
        "one of 2 values, each as often as seen (from 12)"
    ) in result.tables[0].notes
    # One value is no numbering: no generator is made from it.
    (design,) = read_workbench(
        _small_model([_strings(PK="T#01", owner="ann1")], sort=False)
    ).designs
    (entity,) = design.entities
    assert entity.attribute("owner").generator is None


def test_the_tables_scaling_policy_settings_go_through_a_model():
    design = example([p for p in EXAMPLES if p.stem == "device-telemetry"][0])
    scaling = d.AutoScaling(
        d.ScalingRange(2, 80, 50, scale_in_cooldown=300, disable_scale_in=True),
        d.ScalingRange(1, 20, 70, scale_out_cooldown=0),
    )
    table = replace(
        design.table,
        capacity=replace(design.table.capacity, auto_scaling=scaling),
    )
    design = replace(design, table=table)
    (model,) = workbench_model(design)["DataModel"]
    settings = model["ProvisionedCapacitySettings"]
    assert settings["AutoScalingRead"]["ScalingPolicyConfiguration"] == {
        "TargetValue": 50,
        "DisableScaleIn": True,
        "ScaleInCooldown": 300,
    }
    assert settings["AutoScalingWrite"]["ScalingPolicyConfiguration"] == {
        "TargetValue": 70,
        "ScaleOutCooldown": 0,
    }
    (imported,) = read_workbench(export_workbench(design)).designs
    assert imported.table.capacity == table.capacity
