"""The key-design solver on the shipped examples with their keys removed,
and what it says of needs it cannot serve."""

from __future__ import annotations

import functools
import importlib
import io
import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.core.management import CommandError, call_command

from modeler.design import model as d
from modeler.designfile import dump_design, read_design
from modeler.solver import Proposal, propose, strip_keys
from modeler.solver.report import key_map

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
NAMES = ("order-management", "social-graph", "device-telemetry")
PROBLEMS = Path(__file__).resolve().parent / "problems"


def example(name: str) -> d.Design:
    return read_design((EXAMPLES / f"{name}.yaml").read_text()).design


@functools.cache
def proposed(name: str) -> Proposal:
    """The example's proposal without its keys (the solver is deterministic:
    tests share one run per example)."""
    return propose(strip_keys(example(name)))


@pytest.mark.parametrize("name", NAMES)
def test_each_example_without_its_keys_is_solved_with_no_more_indexes(name):
    hand_made = example(name)
    bare = strip_keys(hand_made)
    assert not bare.table.indexes
    assert all(not e.keys for e in bare.entities)

    proposal = proposed(name)

    best = proposal.best
    assert best is not None and best.proven, [best.failed, best.findings]
    assert best.index_count <= len(hand_made.table.indexes)
    assert not proposal.unserved
    # Every read is one request against one partition: GetItem or Query.
    reads = [p for p in best.design.access_patterns if p.is_read]
    assert reads and {p.operation for p in reads} <= {"GetItem", "Query"}
    # Each alternative shown is proven too, and they differ.
    assert all(a.proven for a in proposal.alternatives)
    dumped = [dump_design(a.design) for a in proposal.alternatives]
    assert len(set(dumped)) == len(dumped)


@pytest.mark.parametrize(
    "path", sorted(PROBLEMS.glob("*.yaml")), ids=lambda path: path.stem
)
def test_each_corpus_problem_is_solved_within_the_budget(path):
    hand_made = read_design(path.read_text()).design

    proposal = propose(strip_keys(hand_made))

    best = proposal.best
    assert best is not None and best.proven, [best.failed, best.findings]
    assert best.index_count <= len(hand_made.table.indexes)


def test_the_budget_stops_the_search_before_a_check_that_would_pass_it(monkeypatch):
    """The budget is read on the process's CPU clock; here a clock that each
    check moves on by 4 s, so the test does not depend on the machine."""
    module = importlib.import_module("modeler.solver.propose")

    clock = [0.0]
    checked = module._checked

    def slow_check(*args, **kwargs):
        clock[0] += 4.0
        return checked(*args, **kwargs)

    monkeypatch.setattr(module, "time", SimpleNamespace(process_time=lambda: clock[0]))
    monkeypatch.setattr(module, "_checked", slow_check)

    # 0 -> 4 -> 8: a third check would end at 12 s, past the 10 s budget.
    proposal = propose(strip_keys(example("social-graph")), budget=10)
    assert proposal.out_of_time
    assert proposal.checked == 2 and proposal.elapsed == 8.0
    assert proposal.best.proven

    # With room for all three, the search is not cut short.
    clock[0] = 0.0
    proposal = propose(strip_keys(example("social-graph")), budget=20)
    assert not proposal.out_of_time and proposal.checked == 3


def test_the_same_input_gives_the_same_proposals():
    first = proposed("social-graph")
    second = propose(strip_keys(example("social-graph")))
    assert [dump_design(a.design) for a in first.alternatives] == [
        dump_design(a.design) for a in second.alternatives
    ]
    assert [a.reasons for a in first.alternatives] == [
        a.reasons for a in second.alternatives
    ]


def test_orders_of_a_customer_are_a_reverse_query_of_a_date_sorted_key():
    best = proposed("order-management").best
    pattern = next(
        p
        for p in best.design.access_patterns
        if p.name.startswith("Orders of a customer,")
    )
    assert pattern.operation == "Query" and pattern.scan_forward is False
    order = best.design.entity("Order")
    sort_name = pattern.key[1].attribute
    assert order.keys[sort_name].template.startswith("ORDER#{orderDate}")
    assert any("read in reverse for newest first" in r for r in best.reasons)


def test_the_open_orders_index_is_sparse_and_shipping_leaves_it():
    best = proposed("order-management").best
    order = best.design.entity("Order")
    sparse = {name: t for name, t in order.keys.items() if t.when}
    assert sparse and {t.when for t in sparse.values()} == {"status = OPEN"}
    ship = next(p for p in best.design.access_patterns if p.name == "Ship an order")
    assert set(ship.actions[0].remove) == set(sparse)
    # The index keyed by the status is written again with the new status.
    written = dict(ship.actions[0].set)
    assert any(v.endswith("#SHIPPED") for n, v in written.items() if n not in sparse)


def test_a_strongly_consistent_read_gets_a_local_index():
    best = proposed("device-telemetry").best
    metric = next(
        p
        for p in best.design.access_patterns
        if p.name == "One metric of a device over time"
    )
    if metric.index != d.TABLE_INDEX:
        assert best.design.table.index(metric.index).kind == "local"


def test_what_no_key_can_serve_is_said_with_the_reason():
    design = strip_keys(example("order-management"))
    patterns = list(design.access_patterns)
    mixed = replace(
        patterns[2],
        name="Orders by date, cheapest first",
        expects=replace(patterns[2].expects, order_by=("-orderDate", "total")),
    )
    unknown = replace(
        patterns[0],
        name="Customer by nickname",
        expects=d.Expectation(
            entities=("Customer",), where=(d.Predicate("nickname", "=", ("{n}",)),)
        ),
    )
    by_address = replace(
        patterns[0],
        name="Customers at an address",
        expects=d.Expectation(
            entities=("Customer",),
            where=(d.Predicate("address", "=", ("{address}",)),),
        ),
    )
    design = replace(
        design, access_patterns=tuple(patterns) + (mixed, unknown, by_address)
    )

    proposal = propose(design)

    reasons = {f.location.name: f.message for f in proposal.unserved}
    assert reasons[by_address.name].startswith(
        "address (M) of Customer cannot be placed in a key"
    )
    assert "one sort key reads in one direction" in reasons[mixed.name]
    assert "nickname is not an attribute of Customer" in reasons[unknown.name]
    # The rest is still served, and the best proposal says what it leaves.
    best = proposal.best
    assert not best.proven
    assert ("Customer by nickname", "not served") in best.served_by()


def test_key_map_lists_each_entity_under_the_key_attributes():
    best = proposed("social-graph").best
    table = key_map(best.design)
    assert table.columns[:2] == ("PK", "SK")
    rows = dict(table.rows)
    assert rows["User"][:2] == ("USER#{userId}", "USER")


def test_propose_keys_command_prints_the_proposals_and_writes_the_best(tmp_path):
    out = tmp_path / "proposed.yaml"
    stdout = io.StringIO()
    call_command(
        "propose_keys",
        str(EXAMPLES / "social-graph.yaml"),
        "--alternatives",
        "2",
        "-o",
        str(out),
        stdout=stdout,
    )
    text = stdout.getvalue()
    assert "Yours: 1 index" in text
    assert "Proposal 1: 1 index" in text and "Proposal 3" not in text
    assert "proven: all 6 access patterns pass every draw" in text
    assert "'Followers of a user' is one Query of" in text
    written = read_design(out.read_text()).design
    assert written.entity("Follow").keys
    call_command("simulate", str(out), stdout=io.StringIO())


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--alternatives", "0"], "--alternatives: expected a number from 1 to 5"),
        (["--budget", "0"], "--budget: expected a positive number"),
    ],
)
def test_propose_keys_refuses_bad_arguments(arguments, message):
    with pytest.raises(CommandError, match=message):
        call_command("propose_keys", str(EXAMPLES / "social-graph.yaml"), *arguments)


def test_the_users_own_items_are_keyed_by_each_proposal():
    hand_made = example("social-graph")
    item = {
        "PK": {"S": "USER#u00000001"},
        "SK": {"S": "PROFILE"},
        "userId": {"S": "u00000001"},
        "displayName": {"S": "Ada"},
        "joinedAt": {"S": "2024-01-01T00:00:00Z"},
        "verified": {"BOOL": True},
    }
    design = replace(
        hand_made,
        sample_data=replace(hand_made.sample_data, items=(d.freeze(item),)),
    )

    best = propose(design, alternatives=1).best

    (own,) = best.design.sample_data.items
    assert d.thaw(own)["displayName"] == {"S": "Ada"}
    assert d.thaw(own)["SK"] == {"S": "USER"}
    assert any("Your 1 own item is keyed" in r for r in best.reasons)
    assert best.proven


def test_kept_table_keys_stay_and_the_rest_is_proposed_around_them():
    design = example("order-management")

    best = propose(design, alternatives=1, keep=["Customer", "Order"]).best

    assert best.proven
    for name in ("Customer", "Order"):
        for key in ("PK", "SK"):
            assert best.design.entity(name).keys[key] == design.entity(name).keys[key]
    # The orders of a customer are still read from the kept collection.
    orders = next(
        p
        for p in best.design.access_patterns
        if p.name == "Orders of a customer, newest first"
    )
    assert orders.index == d.TABLE_INDEX
    assert orders.key[0].values == ("CUST#{customerId}",)


@pytest.mark.parametrize(
    ("keep", "message"),
    [
        ("Nope", "--keep: no entity 'Nope' to keep the keys of; its entities: "),
        ("Customer,Order", None),
    ],
)
def test_propose_keys_keep_names_entities_with_table_keys(tmp_path, keep, message):
    source = tmp_path / "design.yaml"
    if message is None:
        bare = strip_keys(example("order-management"))
        source.write_text(dump_design(bare))
        message = "--keep: Customer has no table keys to keep (PK and SK)"
    else:
        source.write_text((EXAMPLES / "order-management.yaml").read_text())
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("propose_keys", str(source), "--keep", keep)


def test_a_design_stated_by_needs_alone_is_read_and_solved(tmp_path):
    text = dump_design(strip_keys(example("social-graph")))
    assert "needs:" in text and "indexes:" not in text
    source = tmp_path / "needs.yaml"
    source.write_text(text)
    stdout = io.StringIO()

    call_command("propose_keys", str(source), "--alternatives", "1", stdout=stdout)

    output = stdout.getvalue()
    assert "Yours:" not in output  # nothing keyed to compare with
    assert "Proposal 1: 1 index" in output and "proven" in output


def test_a_day_partition_too_hot_for_one_partition_is_write_sharded():
    """The meter readings of a day, without the hand-made design's shard:
    every reading of the day would go to one partition (3,000 WCU at peak)."""
    bare = strip_keys(
        read_design((PROBLEMS / "time-series-hot-key.yaml").read_text()).design
    )
    reading = bare.entity("Reading")
    reading = replace(
        reading, attributes=tuple(a for a in reading.attributes if a.name != "shard")
    )
    patterns = tuple(
        replace(
            p,
            name="Readings of a day",
            description="",
            parameters=(),
            expects=replace(
                p.expects,
                where=tuple(w for w in p.expects.where if w.attribute != "shard"),
            ),
        )
        if p.name == "Readings of one day shard"
        else p
        for p in bare.access_patterns
    )
    bare = replace(
        bare,
        entities=tuple(reading if e.name == "Reading" else e for e in bare.entities),
        access_patterns=patterns,
    )

    best = propose(bare).best

    assert best.proven and not best.sharding
    shard = best.design.entity("Reading").attribute("shard")
    assert shard.generator.kind == "int" and dict(shard.generator.params) == {
        "min": 0,
        "max": 7,
    }
    day = next(p for p in best.design.access_patterns if p.name == "Readings of a day")
    assert any(w.attribute == "shard" for w in day.expects.where)
    assert "shards 0 to 7" in day.description
    assert any("8 queries in parallel" in r for r in best.reasons)


def test_a_design_with_no_reads_gets_no_proposal_but_says_why():
    bare = strip_keys(example("social-graph"))
    writes = tuple(p for p in bare.access_patterns if p.expects is None)
    proposal = propose(replace(bare, access_patterns=writes))
    assert proposal.alternatives == () and proposal.best is None
    assert proposal.nothing.startswith("No read access pattern states what it reads")


@pytest.mark.parametrize(
    "pick", ["{pick: Course.courseId}", "{pick: {from: Course.courseId}}"]
)
def test_a_pick_in_either_form_points_at_the_picked_entity(pick):
    """`{pick: Course.courseId}` is the short form of `{pick: {from: ...}}`:
    both make the enrolment an edge identified by the student and the
    course, not an item named by the course id alone (which would key a
    course's many enrolments as one item)."""
    from modeler.solver.needs import needs_of, relations_of

    text = f"""\
format: single-table-workbench/v1
name: Enrolments
table: {{name: enrolments, partition_key: PK, sort_key: SK}}
entities:
  Student:
    attributes:
      studentId: {{type: S, generator: ulid}}
    sample: {{count: 20}}
  Course:
    attributes:
      courseId: {{type: S, generator: ulid}}
    sample: {{count: 5}}
  Enrolment:
    attributes:
      studentId: {{type: S, generator: {{ref: Student.studentId}}}}
      courseId: {{type: S, generator: {pick}}}
    sample: {{per: Student, count: 3}}
access_patterns:
  - name: Students of a course
    needs: {{entity: Enrolment, where: {{courseId: "{{courseId}}"}}}}
    traffic: {{rps: 5, peak_rps: 10}}
"""
    design = read_design(text).design
    relations = relations_of(design, needs_of(design)[0])
    assert relations.identity["Enrolment"] == ("studentId", "courseId")
    assert relations.owner[("Enrolment", "courseId")] == "Course"
