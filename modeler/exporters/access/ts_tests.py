"""The node:test module shipped beside the TypeScript data-access module:
for every read pattern, the sample data the simulator checks it on (a
slice), the parameters the simulator drew and the items its own check
expects; the tests load the data into a new table once, call each
pattern's function and compare what it returns with those items, turned
into the same objects.

The data sits in the file as JSON inside one string literal (ASCII only),
so hostile values stay text; the code names only identifiers the module
made."""

from __future__ import annotations

import json
from dataclasses import dataclass

from modeler.design import model as d
from modeler.exporters.access.cases import pattern_cases
from modeler.exporters.access.ts_write_tests import (
    TS_WRITE_HELPERS,
    drawn_parameters,
    ts_write_test,
)
from modeler.exporters.access.typescript import (
    TsPattern,
    TypeScriptModule,
    access_filename,
    typescript_module,
)
from modeler.exporters.literals import comment_text, typescript_string


@dataclass(frozen=True)
class GeneratedTsTests:
    text: str
    tested: tuple[str, ...]  # the functions a test calls
    notes: tuple[str, ...]


def ts_tests_filename(design: d.Design) -> str:
    return access_filename(design).removesuffix(".ts") + ".test.ts"


def generated_ts_tests(
    design: d.Design, module: TypeScriptModule | None = None
) -> GeneratedTsTests:
    """The tests of `design`'s TypeScript module (made here unless given).
    Raises SampleDataError when the design cannot make its items."""
    module = module or typescript_module(design)
    names = module.names
    cases = pattern_cases(
        design, module.patterns, lambda entity: names[entity].from_item
    )
    tests = cases.tests(_test, ts_write_test)
    text = (
        _header(
            design, access_filename(design).removesuffix(".ts"), writes=cases.writes
        )
        + "\nconst DATA: Data = JSON.parse(\n  "
        + typescript_string(json.dumps(cases.data, sort_keys=True, ensure_ascii=True))
        + ",\n);\n\n"
        + _HELPERS
        + (TS_WRITE_HELPERS if cases.writes else "")
        + "".join("\n" + t for t in tests)
    )
    return GeneratedTsTests(text, tuple(c.function for c in cases.tested), cases.notes)


def _header(design: d.Design, name: str, *, writes: bool) -> str:
    title = comment_text(" ".join(design.name.split()))
    commands = sorted(
        [
            "BatchWriteItemCommand",
            "CreateTableCommand",
            "DeleteTableCommand",
            "DescribeTableCommand",
            "DynamoDBClient",
        ]
        + (["DeleteItemCommand", "GetItemCommand"] if writes else [])
    )
    return (
        f"// Tests of {name} for the design “{title}”, generated with it by the\n"
        "// single-table workbench.\n"
        "//\n"
        "// For each read pattern: the sample data the workbench checked it on, "
        "loaded\n"
        "// into a new table; the function called with the parameters the "
        "simulator\n"
        "// drew; what it returns compared with the items the pattern promises.\n"
        "// For each write pattern: the function called with the parameters and\n"
        "// items the simulator drew; each written item read back by its key and\n"
        "// compared with what the design promises (its attributes, every index "
        "key\n"
        "// its templates give, a deleted item gone); sent again, a write whose\n"
        "// condition then fails throws the module's named error. Each write test\n"
        "// loads the sample data again after it.\n"
        "//\n"
        "// Run them (node --test, after tsc) against DynamoDB Local or `manage.py\n"
        "// serve_dynamodb` started without a design, named by "
        "AWS_ENDPOINT_URL_DYNAMODB:\n"
        "// they create the table and delete it after.\n\n"
        'import { after, before, test } from "node:test";\n'
        'import { strict as assert } from "node:assert";\n'
        'import { isDeepStrictEqual } from "node:util";\n'
        "import {\n"
        + "".join(f"  {c},\n" for c in commands)
        + "  type AttributeValue,\n"
        "  type BatchWriteItemCommandOutput,\n"
        "  type CreateTableCommandInput,\n"
        "  type WriteRequest,\n"
        '} from "@aws-sdk/client-dynamodb";\n'
        f"import * as access from {typescript_string('./' + name)};\n"
    )


_HELPERS = r"""type Json = Record<string, unknown>;
interface Made {
  make: string;
  many: boolean;
  items: Record<string, Json>[];
}
interface Case {
  arguments: Record<string, Json>;
  expected?: Record<string, Json>[];
  entities?: Record<string, Made>;
  delete?: Record<string, Json>[];
  written?: { key: Record<string, Json>; item: Record<string, Json> | null }[];
}
interface Data {
  table: CreateTableCommandInput;
  items: Record<string, Json>[];
  patterns: Record<string, Case>;
}

const endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB;
const skip = endpoint === undefined ? "AWS_ENDPOINT_URL_DYNAMODB is not set" : false;
const client = new DynamoDBClient({
  endpoint,
  region: process.env.AWS_REGION ?? "us-east-1",
});

/** A DynamoDB JSON value as the SDK takes it: binary values as bytes. */
function attribute(wire: Json): AttributeValue {
  const [[kind, value]] = Object.entries(wire);
  if (kind === "B") return { B: new Uint8Array(Buffer.from(String(value), "base64")) };
  if (kind === "BS") {
    const members = value as string[];
    return { BS: members.map((m) => new Uint8Array(Buffer.from(m, "base64"))) };
  }
  if (kind === "L") return { L: (value as Json[]).map(attribute) };
  if (kind === "M") return { M: wireItem(value as Record<string, Json>) };
  return { [kind as string]: value } as unknown as AttributeValue;
}

function wireItem(item: Record<string, Json>): access.Wire {
  return Object.fromEntries(
    Object.entries(item).map(([name, value]) => [name, attribute(value)]),
  );
}

function native(item: Record<string, Json>): access.Item {
  return access.fromWire(wireItem(item));
}

function expected<T>(name: string, convert: (item: access.Item) => T): T[] {
  return (DATA.patterns[name]?.expected ?? []).map((item) => convert(native(item)));
}

/** The parameters the simulator drew for the pattern, and for a write the
 * entity objects it takes. */
function parameters<T>(name: string): T {
  const given = DATA.patterns[name];
  const makers = access as unknown as Record<string, (item: access.Item) => unknown>;
  const objects = Object.entries(given?.entities ?? {}).map(([argument, made]) => {
    const make = makers[made.make];
    if (make === undefined) throw new Error(`the module has no ${made.make}`);
    const found = made.items.map((item) => make(native(item)));
    return [argument, made.many ? found : found[0]];
  });
  return { ...native(given?.arguments ?? {}), ...Object.fromEntries(objects) } as T;
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
}

/** Each item found is one the pattern promises, none twice. */
function within<T>(found: T[], promised: T[]): void {
  found.forEach((item, n) => {
    assert.ok(
      promised.some((p) => isDeepStrictEqual(p, item)),
      `not promised: ${JSON.stringify(item)}`,
    );
    assert.ok(
      !found.slice(0, n).some((f) => isDeepStrictEqual(f, item)),
      `twice: ${JSON.stringify(item)}`,
    );
  });
}

/** The same items, in any order (the pattern promises no order). */
function sameItems<T>(found: T[], promised: T[]): void {
  assert.equal(found.length, promised.length);
  within(found, promised);
}

/** A new table holding the sample items. */
async function loadTable(): Promise<void> {
  await client.send(new CreateTableCommand(DATA.table));
  for (;;) {
    const { Table } = await client.send(
      new DescribeTableCommand({ TableName: access.TABLE_NAME }),
    );
    const indexes = Table?.GlobalSecondaryIndexes ?? [];
    if (
      Table?.TableStatus === "ACTIVE" &&
      indexes.every((index) => index.IndexStatus === "ACTIVE")
    ) {
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const writes: WriteRequest[] = DATA.items.map((item) => ({
    PutRequest: { Item: wireItem(item) },
  }));
  for (let start = 0; start < writes.length; start += 25) {
    let unprocessed: Record<string, WriteRequest[]> | undefined = {
      [access.TABLE_NAME]: writes.slice(start, start + 25),
    };
    while (unprocessed !== undefined && Object.keys(unprocessed).length > 0) {
      const response: BatchWriteItemCommandOutput = await client.send(
        new BatchWriteItemCommand({ RequestItems: unprocessed }),
      );
      unprocessed = response.UnprocessedItems;
    }
  }
}

before(async () => {
  if (skip) return;
  await loadTable();
});

after(async () => {
  if (skip) return;
  await client.send(new DeleteTableCommand({ TableName: access.TABLE_NAME }));
  client.destroy();
});
"""


def _test(code: TsPattern, expects: d.Expectation) -> str:
    pattern = code.pattern
    name = typescript_string(code.function)
    drawn = drawn_parameters(code)
    arguments = f", {drawn}" if drawn else ""
    lines = [
        f"// {_promise(pattern, expects)}",
        f"test({name}, {{ skip }}, async () => {{",
        f"  const promised = expected({name}, access.{code.converter});",
    ]
    if pattern.operation == "GetItem":
        lines += [
            f"  const found = await access.{code.function}(client{arguments});",
            "  assert.deepStrictEqual(found === undefined ? [] : [found], promised);",
        ]
    elif pattern.limit is not None:
        lines.append(
            f"  const found = (await access.{code.page}(client{arguments})).items;"
        )
        if expects.order_by:
            lines.append(
                f"  assert.deepStrictEqual(found, promised.slice(0, {pattern.limit}));"
            )
        else:
            lines += [
                f"  assert.equal(found.length, Math.min({pattern.limit}, "
                "promised.length));",
                "  within(found, promised);",
            ]
    else:
        lines.append(
            f"  const found = await collect(access.{code.function}(client{arguments}));"
        )
        if expects.order_by:
            lines.append("  assert.deepStrictEqual(found, promised);")
        else:
            lines.append("  sameItems(found, promised);")
    lines.append("});")
    return "\n".join(lines) + "\n"


def _promise(pattern: d.AccessPattern, expects: d.Expectation) -> str:
    said = f"{pattern.name}: {', '.join(expects.entities)}"
    if expects.where:
        said += " where " + " and ".join(
            f"{p.attribute} {p.operator} {' '.join(p.values)}" for p in expects.where
        )
    if expects.order_by:
        said += ", by " + ", ".join(expects.order_by)
    if pattern.limit is not None:
        said += f", at most {pattern.limit}"
    return comment_text(said) + "."
