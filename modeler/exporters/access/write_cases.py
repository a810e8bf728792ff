"""The write patterns' cases of the generated tests (Python and
TypeScript): for each write pattern, the items the simulator drew for it
(its parameters, the entity objects a Put takes), and what the table holds
after the write as the design promises it: each written item with the
attributes the request sets and every index key its entity's templates
give for its new values (a sparse key left out where its condition no
longer holds), a deleted item gone.

The promise is worked out here on the engine: the pattern's requests sent
to a copy of the sample data, each written item read back and its keys
rendered again from the entity's templates, so that a write that forgets
an index key the templates say (an update that leaves a stale GSI key)
fails its test. Sent a second time, a write whose condition then fails
(attribute_not_exists on a Put, `status = OPEN` on an update) is expected
to raise the module's named exception."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from botocore.exceptions import ClientError

from modeler.design import model as d
from modeler.engine.client import Client
from modeler.engine.types import item_from_wire, item_to_wire, to_json_wire
from modeler.exporters.access.patterns import Argument
from modeler.keys.items import key_values
from modeler.keys.template import parse_template
from modeler.simulation import Simulation
from modeler.simulation.requests import (
    CLIENT_METHODS,
    create_table_request,
    write_action_request,
)

WRITES = (
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "TransactWriteItems",
    "BatchWriteItem",
)
_ELEMENTS = {
    "PutItem": "Put",
    "UpdateItem": "Update",
    "DeleteItem": "Delete",
    "ConditionCheck": "ConditionCheck",
}


class NoWriteTest(ValueError):
    """A write pattern that gets no test; the message says why."""


def write_case(
    design: d.Design,
    simulation: Simulation,
    pattern: d.AccessPattern,
    arguments: Sequence[Argument],
    maker: Callable[[str], str],
) -> dict[str, Any]:
    """The data of one write pattern's test, its function taking
    `arguments`: `arguments` (drawn parameter values by identifier),
    `entities` (the objects a Put takes, by argument: the items, and
    `maker(entity)`, the module's name that makes an object of an item),
    `delete`
    (the keys of items a Put re-creates, removed first as the simulator
    does), `written` (each written key with the item the table then holds,
    or None) and `refused` (whether sending it again fails a condition)."""
    run = simulation.run(pattern)
    if run.error:
        raise NoWriteTest(f"the simulator could not run it: {run.error}")
    params, plan = simulation.write_draw(pattern)
    _keyed_by_their_items(design, plan, params)
    missing = [a.name for a in arguments if not a.entity and a.name not in params]
    if missing:
        raise NoWriteTest(f"the parameter {missing[0]} has no value")
    values = {
        a.identifier: to_json_wire(params[a.name]) for a in arguments if not a.entity
    }
    puts = [a for a in arguments if a.entity]
    put_actions = [a for a in pattern.actions if a.operation == "Put"]
    entities: dict[str, Any] = {}
    for argument, action in zip(puts, put_actions, strict=True):
        items = [item for act, item in plan if act is action]
        entities[argument.identifier] = {
            "make": maker(action.entity),
            "many": argument.many,
            "items": [json_item(item) for item in items],
        }
    table_keys = [a.name for a in design.table.key_attributes]
    delete = [
        json_item({k: item[k] for k in table_keys})
        for action, item in plan
        if action.operation == "Put"
    ]
    calls = [
        (action, *write_action_request(design, action, params, item))
        for action, item in plan
    ]
    client = Client()
    client.create_table(**create_table_request(design))
    for item in simulation.items:
        client.put_item(TableName=design.table.name, Item=item_to_wire(item))
    for action, item in plan:
        if action.operation == "Put":
            key = {k: item[k] for k in table_keys}
            client.delete_item(TableName=design.table.name, Key=item_to_wire(key))
    _send(client, pattern.operation, design.table.name, calls)
    written = []
    for action, kind, request in calls:
        if kind == "ConditionCheck":
            continue
        wire_key = request.get("Key") or {k: request["Item"][k] for k in table_keys}
        found = client.get_item(
            TableName=design.table.name, Key=wire_key, ConsistentRead=True
        ).get("Item")
        expected = None
        if found is not None:
            expected = json_item(_rekeyed(design, action.entity, found))
        written.append({"key": json_item(item_from_wire(wire_key)), "item": expected})
    refused = False
    if any(a.condition for a in pattern.actions):
        try:
            _send(client, pattern.operation, design.table.name, calls)
        except ClientError as exc:
            refused = exc.response["Error"]["Code"] in (
                "ConditionalCheckFailedException",
                "TransactionCanceledException",
            )
    return {
        "arguments": values,
        "entities": entities,
        "delete": delete,
        "written": written,
        "refused": refused,
    }


def _keyed_by_their_items(
    design: d.Design, plan: list[tuple[d.Action, dict[str, Any]]], params: dict
) -> None:
    """The parameters an update or delete without a key of its own finds its
    item by (its table key templates' attributes), taken from the item the
    simulator drew for it: the generated function renders that key from
    them, where the simulator took the item's key as it is (a parameter of
    the same name may come from another action's item)."""
    for action, item in plan:
        entity = design.entity(action.entity)
        if action.operation == "Put" or action.key or entity is None:
            continue
        for key in design.table.key_attributes:
            template = entity.keys.get(key.name)
            for name in (
                parse_template(template.template).attributes if template else ()
            ):
                if name in item:
                    params[name] = item[name]


def _attributes(
    design: d.Design, entity: str, item: Mapping[str, Any]
) -> dict[str, Any]:
    """The item's own attributes: without the key attributes that are not
    attributes of its entity (those its templates make)."""
    found = design.entity(entity)
    own = {a.name for a in found.attributes} if found else set()
    keys = {a.name for a in design.table.all_key_attributes()} - own
    return {k: v for k, v in item.items() if k not in keys}


def _rekeyed(design: d.Design, entity: str, wire: Mapping[str, Any]) -> dict[str, Any]:
    """The item read back, its key attributes rendered again from the
    entity's templates: the keys the design promises for its values."""
    item = item_from_wire(wire)
    own = _attributes(design, entity, item)
    return {**own, **key_values(design, entity, own)}


def _send(
    client: Client,
    operation: str,
    table: str,
    calls: list[tuple[d.Action, str, dict[str, Any]]],
) -> None:
    if operation in ("PutItem", "UpdateItem", "DeleteItem"):
        ((_, kind, request),) = calls
        getattr(client, CLIENT_METHODS[kind])(**request)
    elif operation == "TransactWriteItems":
        client.transact_write_items(
            TransactItems=[
                {_ELEMENTS[kind]: {**request, "TableName": table}}
                for _, kind, request in calls
            ]
        )
    else:
        client.batch_write_item(
            RequestItems={
                table: [
                    {"PutRequest": {"Item": request["Item"]}}
                    if kind == "PutItem"
                    else {"DeleteRequest": {"Key": request["Key"]}}
                    for _, kind, request in calls
                ]
            }
        )


def json_item(item: Mapping[str, Any]) -> dict[str, Any]:
    return {name: to_json_wire(value) for name, value in item.items()}
