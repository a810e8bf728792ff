"""The write patterns' part of the generated TypeScript tests: each write
pattern's test and the helpers they share, as the Python ones
(python_write_tests); their data is `write_cases`. The tests share one
table: each write test loads the sample data again after it, so that the
other tests find it as the simulator did."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from modeler.exporters.access.typescript import TsPattern
from modeler.exporters.literals import comment_text, typescript_string


def drawn_parameters(code: TsPattern) -> str:
    """The expression of what the simulator drew for the pattern's function
    (its `params`), or nothing when the function takes none."""
    if not code.arguments:
        return ""
    name = typescript_string(code.function)
    return f"parameters<Parameters<typeof access.{code.function}>[1]>({name})"


def ts_write_test(code: TsPattern, case: Mapping[str, Any]) -> str:
    """One write pattern's test, naming only identifiers the module made."""
    pattern = code.pattern
    name = typescript_string(code.function)
    given = drawn_parameters(code)
    passed = ", given" if given else ""
    entities = sorted({a.entity for a in pattern.actions})
    promise = f"{pattern.name}: writes {', '.join(entities)}"
    lines = [
        f"// {comment_text(promise)}.",
        f"test({name}, {{ skip }}, async () => {{",
        "  try {",
        *([f"    const given = {given};"] if given else []),
        f"    await removeRecreated({name});",
        f"    await access.{code.function}(client{passed});",
        f"    await checkWritten({name});",
    ]
    if case["refused"] and pattern.operation == "TransactWriteItems":
        # Refused for its condition, not for another reason.
        lines += [
            "    await assert.rejects(",
            f"      access.{code.function}(client{passed}),",
            "      (error: unknown) =>",
            "        error instanceof access.TransactionCanceled &&",
            "        error.conditionFailed,",
            "    );",
        ]
    elif case["refused"]:
        lines += [
            "    await assert.rejects(",
            f"      access.{code.function}(client{passed}),",
            "      access.ConditionFailed,",
            "    );",
        ]
    lines += ["  } finally {", "    await reloadTable();", "  }", "});"]
    return "\n".join(lines) + "\n"


TS_WRITE_HELPERS = r"""
/** The sample items the pattern's Put re-creates, removed first (as the
 * workbench's simulator does). */
async function removeRecreated(name: string): Promise<void> {
  for (const key of DATA.patterns[name]?.delete ?? []) {
    await client.send(
      new DeleteItemCommand({ TableName: access.TABLE_NAME, Key: wireItem(key) }),
    );
  }
}

/** Each written item read back by its key: what the design promises, with
 * every index key its templates give (a deleted item gone). */
async function checkWritten(name: string): Promise<void> {
  for (const written of DATA.patterns[name]?.written ?? []) {
    const { Item } = await client.send(
      new GetItemCommand({
        TableName: access.TABLE_NAME,
        Key: wireItem(written.key),
        ConsistentRead: true,
      }),
    );
    const shown = JSON.stringify(written.key);
    if (written.item === null) {
      assert.equal(Item, undefined, `not deleted: ${shown}`);
    } else {
      assert.ok(Item !== undefined, `not written: ${shown}`);
      assert.deepStrictEqual(access.fromWire(Item), native(written.item), shown);
    }
  }
}

/** The sample data as the other tests find it. */
async function reloadTable(): Promise<void> {
  await client.send(new DeleteTableCommand({ TableName: access.TABLE_NAME }));
  await loadTable();
}
"""
