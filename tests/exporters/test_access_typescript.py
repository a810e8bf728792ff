"""The TypeScript data-access module: tsc --strict passes on it for every
shipped example and solver problem, and it sends the simulator's requests
with the AWS SDK for JavaScript v3."""

from __future__ import annotations

import json

from modeler.endpoint.server import start
from modeler.endpoint.service import Service
from modeler.exporters.access.typescript import access_filename, typescript_module
from modeler.exporters.formats import EXPORT_FORMATS
from modeler.simulation.requests import create_table_request
from tests.exporters.access_helpers import DESIGNS, UPDATE_WAYS, batch_design
from tests.exporters.helpers import EXAMPLES, example
from tests.exporters.node_helpers import compile_ts, run_node, tsc


def test_every_module_passes_tsc_strict(tmp_path):
    designs = [example(path) for path in [*DESIGNS, UPDATE_WAYS]] + [batch_design()]
    for design in designs:
        made = typescript_module(design)
        assert made.notes == ()
        (tmp_path / access_filename(design)).write_text(made.text, encoding="utf-8")
    assert len(list(tmp_path.glob("*.ts"))) == len(designs)
    batch = (tmp_path / "order-management-batch-access.ts").read_text()
    assert "new BatchWriteItemCommand({ RequestItems: requestItems })" in batch
    done = tsc(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_export_format_names_the_file_and_notes_what_has_no_function():
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    export = EXPORT_FORMATS["typescript"]
    assert export.filename(design) == "order-management-access.ts"
    made = export.make(design)
    assert "export async function* ordersOfACustomerNewestFirst(" in made.text
    assert "export async function ordersOfACustomerNewestFirstPage(" in made.text
    assert "export async function shipAnOrder(" in made.text


def test_the_tests_format_downloads_beside_the_module():
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    export = EXPORT_FORMATS["typescript-tests"]
    assert export.filename(design) == "order-management-access.test.ts"
    made = export.make(design)
    assert 'import * as access from "./order-management-access";' in made.text
    assert 'test("ordersOfACustomerNewestFirst", { skip }' in made.text


# Places 22 orders of one customer, then reads them a page at a time (the
# pattern's Limit is 20) and with the iterator; prints what it read as JSON.
_PAGING_SCRIPT = """\
import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import * as access from "./order-management-access";

const client = new DynamoDBClient({ region: "us-east-1" });

async function main(): Promise<void> {
  await client.send(new CreateTableCommand(%(table)s));
  for (let n = 1; n <= 22; n++) {
    const order: access.Order = {
      customerId: "C1",
      orderId: `O${n}`,
      orderDate: `2025-03-${String(n).padStart(2, "0")}`,
      status: "OPEN",
      total: 12.5,
    };
    await access.placeAnOrderWithItsLineItems(client, { order, lineItems: [] });
  }
  const params = { customerId: "C1" };
  const first = await access.ordersOfACustomerNewestFirstPage(client, params);
  const second = await access.ordersOfACustomerNewestFirstPage(
    client,
    params,
    first.lastEvaluatedKey,
  );
  const every: string[] = [];
  for await (const order of access.ordersOfACustomerNewestFirst(client, params)) {
    every.push(order.orderId);
  }
  console.log(
    JSON.stringify({
      first: first.items.map((order) => order.orderId),
      firstKey: first.lastEvaluatedKey ?? null,
      second: second.items.map((order) => order.orderId),
      every,
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
"""


def _run_script(tmp_path, script: str) -> dict:
    """`script` compiled beside order-management's module and run with node
    against a fresh endpoint; what it printed last, as JSON."""
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    (tmp_path / access_filename(design)).write_text(
        typescript_module(design).text, encoding="utf-8"
    )
    table = json.dumps(create_table_request(design))
    (tmp_path / "script.ts").write_text(script % {"table": table}, encoding="utf-8")
    compile_ts(tmp_path)
    server = start(Service(), ("127.0.0.1", 0))
    try:
        done = run_node(
            tmp_path / "out" / "script.js",
            cwd=tmp_path,
            env={
                "AWS_ENDPOINT_URL_DYNAMODB": server.url,
                "AWS_ACCESS_KEY_ID": "test",
                "AWS_SECRET_ACCESS_KEY": "test",
            },
        )
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout.splitlines()[-1])


def test_a_limited_query_pages_with_its_last_evaluated_key(tmp_path):
    """As the Python module's: the page function returns the
    lastEvaluatedKey the next page starts from, and the iterator reads every
    page (run with node against the endpoint)."""
    read = _run_script(tmp_path, _PAGING_SCRIPT)
    assert read["first"] == [f"O{n}" for n in range(22, 2, -1)]
    assert read["firstKey"] == {
        "PK": {"S": "CUST#C1"},
        "SK": {"S": "ORDER#2025-03-03#O3"},
    }
    assert read["second"] == ["O2", "O1"]
    assert read["every"] == read["first"] + read["second"]


# The imports and client the scripts below begin with.
_SCRIPT_HEAD = """\
import {
  CreateTableCommand,
  DynamoDBClient,
  PutItemCommand,
} from "@aws-sdk/client-dynamodb";
import * as access from "./order-management-access";

const client = new DynamoDBClient({ region: "us-east-1" });

"""

# Places order O1, then an item of another program in its GSI3 partition;
# prints what reading the order with its line items threw, and what
# recognise and asOrder make of a customer's item, as JSON.
_REFUSAL_SCRIPT = (
    _SCRIPT_HEAD
    + """\
function refusal(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error instanceof access.UnrecognisedItem
      ? { name: error.name, sk: error.item.SK }
      : String(error);
  }
  return null;
}

async function main(): Promise<void> {
  await client.send(new CreateTableCommand(%(table)s));
  const order: access.Order = {
    customerId: "C1",
    orderId: "O1",
    orderDate: "2025-03-01",
    status: "OPEN",
    total: 12.5,
  };
  await access.placeAnOrderWithItsLineItems(client, { order, lineItems: [] });
  await client.send(
    new PutItemCommand({
      TableName: access.TABLE_NAME,
      Item: access.toWire({
        PK: "NOTE#1",
        SK: "NOTE#1",
        GSI3PK: "ORDER#O1",
        GSI3SK: "NOTE#1",
      }),
    }),
  );
  let read: unknown = null;
  try {
    for await (const found of access.orderWithItsLineItems(client, { orderId: "O1" })) {
      void found;
    }
  } catch (error) {
    read =
      error instanceof access.UnrecognisedItem
        ? { name: error.name, sk: error.item.SK }
        : String(error);
  }
  const customer: access.Item = {
    PK: "CUST#C1",
    SK: "PROFILE",
    GSI1PK: "EMAIL#a@b.c",
    GSI1SK: "PROFILE",
    customerId: "C1",
    email: "a@b.c",
    name: "Ada",
    createdAt: "2025-01-01T00:00:00Z",
    address: {},
  };
  console.log(
    JSON.stringify({
      read,
      recognised: access.recognise(customer).entity,
      asOrder: refusal(() => access.asOrder(customer)),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
"""
)


def test_an_item_no_entity_of_the_pattern_describes_is_refused_by_name(tmp_path):
    """As the Python module's: an item the pattern's entities' keys do not
    describe (another program's, in the same index partition) throws
    UnrecognisedItem holding the item; a customer's item is a Customer to
    recognise and refused by asOrder."""
    shown = _run_script(tmp_path, _REFUSAL_SCRIPT)
    assert shown["read"] == {"name": "UnrecognisedItem", "sk": "NOTE#1"}
    assert shown["recognised"] == "Customer"
    assert shown["asOrder"] == {"name": "UnrecognisedItem", "sk": "PROFILE"}


# Places an item with order O1's keys but no total (as other code might);
# prints what reading the order with its line items threw, and what
# orderFromItem throws for an item lacking two attributes, as JSON.
_MALFORMED_SCRIPT = (
    _SCRIPT_HEAD
    + """\
function shown(error: unknown): unknown {
  return error instanceof access.MalformedItem
    ? {
        name: error.name,
        entity: error.entity,
        missing: error.missing,
        key: error.key,
        orderId: error.item.orderId,
        message: error.message,
      }
    : String(error);
}

async function main(): Promise<void> {
  await client.send(new CreateTableCommand(%(table)s));
  const order: access.Order = {
    customerId: "C1",
    orderId: "O1",
    orderDate: "2025-03-01",
    status: "OPEN",
    total: 12.5,
  };
  const written = access.orderToItem(order);
  delete written.total;
  await client.send(
    new PutItemCommand({ TableName: access.TABLE_NAME, Item: access.toWire(written) }),
  );
  let read: unknown = null;
  try {
    for await (const found of access.orderWithItsLineItems(client, { orderId: "O1" })) {
      void found;
    }
  } catch (error) {
    read = shown(error);
  }
  delete written.status;
  let converted: unknown = null;
  try {
    access.orderFromItem(written);
  } catch (error) {
    converted = shown(error);
  }
  console.log(
    JSON.stringify({
      read,
      converted,
      whole: access.orderFromItem(access.orderToItem(order)),
    }),
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
"""
)


def test_an_item_of_an_entity_lacking_a_required_attribute_is_refused_by_name(
    tmp_path,
):
    """As the Python module's: an item with an order's keys but no total
    throws MalformedItem naming the entity, what it lacks and its key,
    instead of becoming an Order whose total is undefined."""
    shown = _run_script(tmp_path, _MALFORMED_SCRIPT)
    key = {"PK": "CUST#C1", "SK": "ORDER#2025-03-01#O1"}
    assert shown["read"] == {
        "name": "MalformedItem",
        "entity": "Order",
        "missing": ["total"],
        "key": key,
        "orderId": "O1",
        "message": f"the Order item with key {json.dumps(key, separators=(',', ':'))}"
        " lacks total, which the design requires",
    }
    assert shown["converted"]["missing"] == ["status", "total"]
    assert shown["whole"]["total"] == 12.5
