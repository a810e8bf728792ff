"""An attribute retyped under its name: a line number that becomes the
zero-padded string its keys showed ("001"). The deployed version decodes
it as a number until the new one is deployed, so the rewrite keeps the
number, the cleanup retypes it, and the plan says who reads both types
when."""

from __future__ import annotations

import functools
from decimal import Decimal
from typing import Any

from modeler.design import model as d
from modeler.evolution import changes as c
from modeler.evolution.plan import DEPLOY, plan_migration, plan_text
from modeler.evolution.proof import loaded_client, prove, table_items
from modeler.evolution.runtime import Migration, Tally
from tests.evolution.revisions import _edited, smaller

# A pattern of the deployed design that filters on the line number.
LINES_FROM = (
    "  - name: Place an order with its line items\n",
    "  - name: Lines of an order from a line on\n"
    "    operation: Query\n"
    '    key: {PK: "ORDER#{orderId}", SK: {begins_with: "ITEM#"}}\n'
    "    filter: 'lineNo >= {fromLine}'\n"
    "    parameters:\n"
    '      fromLine: {type: N, example: "2"}\n'
    "    expects:\n"
    '      {entity: LineItem, where: {orderId: "{orderId}", lineNo: {">=": '
    '"{fromLine}"}}}\n'
    "    traffic: {rps: 1, peak_rps: 2}\n"
    "  - name: Place an order with its line items\n",
)
LINE_NO_N = "      lineNo: {type: N, generator: sequence}"
LINE_NO_S = "      lineNo: {type: S, generator: {sequence: {width: 3}}}"


@functools.cache
def deployed() -> d.Design:
    return smaller(_edited(LINES_FROM))


@functools.cache
def line_no_text(sort_key: str = "ITEM#{lineNo}") -> d.Design:
    """lineNo becomes a string, "001" as the keys showed it."""
    return smaller(
        _edited(
            (LINE_NO_N, LINE_NO_S),
            ('      SK: "ITEM#{lineNo:03d}"', f'      SK: "{sort_key}"'),
            ('      GSI3SK: "ITEM#{lineNo:03d}"', '      GSI3SK: "ITEM#{lineNo}"'),
        )
    )


def _line_items(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [item for item in items if "lineNo" in item]


def test_a_number_retyped_to_its_padded_text_is_kept_until_the_cleanup():
    before, after = deployed(), line_no_text()
    plan = plan_migration(before, after)
    assert [ch.what for ch in plan.changes] == [
        "LineItem.lineNo retyped from N to S (zero-padded to 3 characters, as its "
        "keys show it): the old type kept until the cleanup, since the deployed "
        "version reads it"
    ]
    # 'ITEM#{lineNo:03d}' of a number and 'ITEM#{lineNo}' of "001" are the
    # same key: nothing moves.
    assert not any(ch.moves for ch in plan.changes)
    assert plan.proven, plan.verdict
    old = dict((name, passed) for name, passed, _ in plan.proof.old_patterns)
    assert old["Lines of an order from a line on"] is True
    lines = _line_items(plan.proof.items_after)
    assert lines and all(isinstance(i["lineNo"], str) for i in lines)
    assert all(i["SK"] == f"ITEM#{i['lineNo']}" for i in lines)
    assert {i["lineNo"] for i in lines} >= {"001", "002"}
    # The rewrite wrote nothing to the line items; the cleanup retyped each.
    assert "LineItem" not in plan.proof.tally.by_entity
    assert plan.proof.cleanup_tally.by_entity["LineItem"] == len(lines)


def test_the_plan_orders_the_deploys_that_read_both_types():
    plan = plan_migration(deployed(), line_no_text())
    deploys = [s for s in plan.steps if s.kind == DEPLOY]
    cleanup = next(s for s in plan.steps if "--cleanup" in s.title)
    order = plan.steps.index
    dual_write, new_version, reads_new_only = deploys
    assert order(dual_write) < order(new_version) < order(cleanup)
    assert order(cleanup) < order(reads_new_only)
    assert "reads LineItem.lineNo as either N or S and still writes " in (
        dual_write.title
    )
    assert "LineItem.lineNo as N (the deployed version reads only that)" in (
        dual_write.title
    )
    assert dual_write.dual_read and dual_write.dual_write
    assert "until the cleanup has run it reads LineItem.lineNo as either N or S" in (
        new_version.title
    )
    assert new_version.dual_read
    assert "retype LineItem.lineNo to S" in cleanup.title
    assert "reads LineItem.lineNo as S only" in reads_new_only.title
    assert not reads_new_only.dual_read
    assert "5. [application deploy] Deploy the application version of the new " in (
        plan_text(plan)
    )


def test_the_rewrite_phase_leaves_the_number_the_deployed_version_reads():
    before, after = deployed(), line_no_text()
    plan = plan_migration(before, after, proof=False)
    client, _ = loaded_client(before, after, plan.spec)
    table = plan.spec["source_table"]
    start = table_items(client, table)
    Migration(plan.spec, client, workers=1).run()
    assert table_items(client, table) == start
    cleaned = Migration(plan.spec, client, workers=1, cleanup=True).run()
    assert cleaned.counts["failed"] == 0
    lines = _line_items(table_items(client, table))
    assert all(isinstance(i["lineNo"], str) for i in lines)
    again = Migration(plan.spec, client, workers=1, cleanup=True).run()
    assert again.counts["written"] == 0


def test_a_rewrite_that_retypes_in_place_breaks_the_deployed_readers():
    before, after = deployed(), line_no_text()
    plan = plan_migration(before, after, proof=False)

    def retypes_early(client: Any, cleanup: bool) -> Tally:
        # What the rewrite did before: the new type at the dual-write step.
        return Migration(plan.spec, client, workers=1, cleanup=True).run()

    plan.proof = prove(before, after, plan.spec, run=retypes_early)
    lines = plan.proof.counts_before["LineItem"]
    old = {name: detail for name, passed, detail in plan.proof.old_patterns}
    assert old["Lines of an order from a line on"] == (
        f"fails: LineItem.lineNo is S on {lines:,} items, the design reads N"
    )
    assert old["Order with its line items"].startswith("fails: LineItem.lineNo is S")
    assert old["Get customer profile"].startswith("passes")
    assert not plan.proven
    assert "Lines of an order from a line on" in plan.verdict


def test_items_that_move_and_are_retyped_get_the_new_type_at_the_cleanup():
    # The new items are put beside the old ones with the number; the
    # cleanup finds them in the new shape and retypes them there.
    before, after = deployed(), line_no_text("LINE#{lineNo}")
    plan = plan_migration(before, after)
    assert plan.proven, plan.verdict
    lines = _line_items(plan.proof.items_after)
    assert lines and all(i["SK"] == f"LINE#{i['lineNo']}" for i in lines)
    assert all(isinstance(i["lineNo"], str) for i in lines)
    moved = [ch for ch in plan.changes if ch.moves]
    assert [ch.category for ch in moved] == [c.REWRITE]


def test_the_cleanup_retypes_what_the_dual_writing_version_wrote_meanwhile():
    before, after = deployed(), line_no_text("LINE#{lineNo}")
    plan = plan_migration(before, after, proof=False)
    client, _ = loaded_client(before, after, plan.spec)
    table = plan.spec["source_table"]
    Migration(plan.spec, client, workers=1).run()
    # A line placed by the dual-writing version, in the new shape with the
    # number the deployed version reads.
    item = {
        "PK": {"S": "ORDER#NEW"},
        "SK": {"S": "LINE#007"},
        "GSI3PK": {"S": "ORDER#NEW"},
        "GSI3SK": {"S": "ITEM#007"},
        "orderId": {"S": "NEW"},
        "lineNo": {"N": "7"},
        "productId": {"S": "PRD-00001"},
        "productName": {"S": "Lamp"},
        "quantity": {"N": "1"},
        "price": {"N": "10"},
    }
    client.put_item(TableName=table, Item=item)
    Migration(plan.spec, client, workers=1, cleanup=True).run()
    found = client.get_item(TableName=table, Key={"PK": item["PK"], "SK": item["SK"]})[
        "Item"
    ]
    assert found["lineNo"] == {"S": "007"}
    assert Decimal(found["quantity"]["N"]) == 1
