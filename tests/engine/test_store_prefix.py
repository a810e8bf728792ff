"""begins_with on a sort key reads exactly the entries whose value begins
with the prefix, whatever its last character or byte (the store searches up
to the prefix with its last one raised, or tests entries when there is no
such value), in large partitions (their kept keys) and small ones, on one
sort attribute and on the last of several."""

from __future__ import annotations

from unittest import mock

import pytest

from modeler.engine import store
from modeler.engine.expressions import SortCondition
from modeler.engine.schema import table_spec
from modeler.engine.table import Table
from tests.engine.helpers import index, table_request

TOP = "\U0010ffff"
TEXTS = ["", "a", "a\x00", "ab", "a" + TOP, "a" + TOP + "b", "b", "\xff", "\xff\x00"]
TEXTS += [TOP, TOP + "a", TOP + TOP, "\ud7ff", "\ud7ff!", "\ue000"]
BINARIES = [b"", b"a", b"a\x00", b"a\xff", b"a\xff\x01", b"b", b"\xff", b"\xff\xff"]


def _table(kind: str) -> Table:
    return Table(
        table_spec(
            table_request(
                types={"SK": kind, "G1": "S", "G2": kind},
                gsis=[index("Multi", "GP", ["G1", "G2"])],
            )
        )
    )


@pytest.mark.parametrize("keyed", [False, True])
@pytest.mark.parametrize(("kind", "values"), [("S", TEXTS), ("B", BINARIES)])
def test_begins_with_reads_what_a_filter_reads(
    kind: str, values: list, keyed: bool
) -> None:
    with mock.patch.object(store, "KEYED_ENTRIES", 2 if keyed else 10**9):
        table = _table(kind)
        stored = [v for v in values if v]
        for value in stored:
            item = {"PK": "p", "SK": value, "GP": "g", "G1": "x", "G2": value}
            table.write(table.get(item), item, table.check_item(item))
            # An update finds its entry: a large partition then keeps its keys.
            table.write(table.get(item), item, table.check_item(item))
        multi = table.indexes["Multi"]
        for prefix in values:
            want = sorted(v for v in stored if v.startswith(prefix))
            condition = SortCondition("SK", "begins_with", (prefix,))
            got = [i["SK"] for i in table.query(None, "p", [condition]).items]
            assert got == want
            backwards = table.query(None, "p", [condition], forward=False).items
            assert [i["SK"] for i in backwards] == want[::-1]
            on_last = [
                SortCondition("G1", "=", ("x",)),
                SortCondition("G2", "begins_with", (prefix,)),
            ]
            got = [i["G2"] for i in table.query(multi, "g", on_last).items]
            assert got == want
