"""The table's settings a migration changes in place (billing mode, TTL,
stream, point-in-time recovery) are each an online change, made by the
plan's first step with the call each needs (UpdateTable changes neither
TTL nor backups), before any GSI is created; the stages set them in one
stage of their own; and with a new table they need no step at all (it is
created with them)."""

from __future__ import annotations

import dataclasses

import pytest

from modeler.design import model as d
from modeler.evolution import changes as c
from modeler.evolution.iac import iac_files, table_stages
from modeler.evolution.plan import DEPLOY, plan_migration
from modeler.exporters.cloudformation import export_cloudformation_yaml
from modeler.exporters.terraform import export_terraform
from tests.evolution import revisions
from tests.evolution.revisions import smaller

LOW = d.Capacity(10, 5)
STREAM_STEP = (
    "UpdateTable: the table's stream, in an update of its own (UpdateTable "
    "changes the stream or the capacity, one at a time)"
)


def _with(design: d.Design, **fields) -> d.Design:
    return dataclasses.replace(
        design, table=dataclasses.replace(design.table, **fields)
    )


def _provisioned(design: d.Design) -> d.Design:
    indexes = tuple(dataclasses.replace(i, capacity=LOW) for i in design.table.indexes)
    return _with(
        design,
        billing_mode="PROVISIONED",
        capacity=d.Capacity(50, 20),
        indexes=indexes,
    )


BILLING = [
    "GSI GSI1 capacity: none -> 10 RCU / 5 WCU",
    "GSI GSI2 capacity: none -> 10 RCU / 5 WCU",
    "GSI GSI3 capacity: none -> 10 RCU / 5 WCU",
    "billing mode: PAY_PER_REQUEST -> PROVISIONED (DynamoDB allows one switch "
    "per 24 hours)",
    "provisioned capacity: none -> 50 RCU / 20 WCU",
]

# (before, after, the changes planned, the call that makes them, what the
# Terraform stage sets)
CASES = {
    "billing": (
        lambda o: o,
        _provisioned,
        BILLING,
        "UpdateTable",
        'billing_mode                = "PROVISIONED"',
    ),
    "billing back": (
        _provisioned,
        lambda o: o,
        [
            "GSI GSI1 capacity: 10 RCU / 5 WCU -> none",
            "GSI GSI2 capacity: 10 RCU / 5 WCU -> none",
            "GSI GSI3 capacity: 10 RCU / 5 WCU -> none",
            "billing mode: PROVISIONED -> PAY_PER_REQUEST (DynamoDB allows one "
            "switch per 24 hours)",
            "provisioned capacity: 50 RCU / 20 WCU -> none",
        ],
        "UpdateTable",
        'billing_mode                = "PAY_PER_REQUEST"',
    ),
    "TTL on": (
        lambda o: o,
        lambda o: _with(o, ttl_attribute="expiresAt"),
        ["TTL attribute: off -> expiresAt"],
        "UpdateTimeToLive",
        'attribute_name = "expiresAt"',
    ),
    "stream": (
        lambda o: o,
        lambda o: _with(o, stream_view_type="NEW_AND_OLD_IMAGES"),
        ["stream: off -> NEW_AND_OLD_IMAGES"],
        "UpdateTable",
        'stream_view_type            = "NEW_AND_OLD_IMAGES"',
    ),
    "PITR": (
        lambda o: _with(o, point_in_time_recovery=False),
        lambda o: o,
        ["point-in-time recovery: off -> on"],
        "UpdateContinuousBackups",
        "point_in_time_recovery {\n    enabled = true",
    ),
}


@pytest.mark.parametrize("case", CASES)
def test_a_setting_is_an_online_change_made_by_the_first_step(case):
    make_before, make_after, whats, call, terraform = CASES[case]
    before = make_before(revisions.original())
    after = make_after(revisions.original())
    plan = plan_migration(before, after, proof=False)
    assert [(ch.category, ch.what, ch.setting) for ch in plan.changes] == [
        (c.ONLINE, what, True) for what in whats
    ]
    assert [(s.kind, s.title, s.details) for s in plan.steps] == [
        (c.ONLINE, f"{call}: the table's settings", tuple(whats)),
        (
            DEPLOY,
            "Deploy the application version of the new design (its access "
            "patterns; writes in the new shape only)",
            (),
        ),
    ]
    # Nothing is rewritten: a setting costs no request units.
    assert plan.write_units == plan.read_units == 0
    assert plan.spec["copy"] is False
    # The stages: the table as the new design has it, in one update.
    stages = table_stages(before, after)
    assert [s.title for s in stages] == ["the table's settings"]
    assert stages[0].table == after.table
    ((name, text),) = iac_files(before, after, "terraform")
    assert name == "01-the-table-s-settings.tf"
    assert terraform in text


def test_settings_of_several_calls_come_before_a_new_gsi():
    before = _with(revisions.original(), point_in_time_recovery=False)
    after = _provisioned(
        _with(
            revisions.gsi_added(),
            ttl_attribute="expiresAt",
            stream_view_type="NEW_IMAGE",
        )
    )
    plan = plan_migration(before, after, proof=False)
    settings = BILLING[:3] + ["GSI GSI4 added (GSI4PK / GSI4SK, INCLUDE productId)"]
    online = [ch.what for ch in plan.changes if ch.category == c.ONLINE]
    assert online[:4] == settings
    first, second = plan.steps[:2]
    assert first.title == (
        "UpdateTable, UpdateTimeToLive, UpdateContinuousBackups: the table's settings"
    )
    assert first.details == (
        *BILLING,
        "TTL attribute: off -> expiresAt",
        "point-in-time recovery: off -> on",
    )
    # UpdateTable changes the capacity or the stream, one at a time.
    assert second.title == STREAM_STEP
    assert second.details == ("stream: off -> NEW_IMAGE",)
    # The settings first, then the rewrite of the line items' GSI4 keys,
    # then the index over them, then the application that reads it.
    titles = [s.title.split(":")[0] for s in plan.steps]
    assert titles[:6] == [
        "UpdateTable, UpdateTimeToLive, UpdateContinuousBackups",
        "UpdateTable",
        "Deploy an application version that writes items in both the old and "
        "the new shape",
        "Run the script",
        "UpdateTable",
        "Deploy the application version of the new design (its access patterns; "
        "writes in the new shape only)",
    ]
    assert plan.steps[4].title.startswith("UpdateTable: create GSI GSI4")
    stages = table_stages(before, after)
    assert [s.title for s in stages] == [
        "the table's settings",
        "the table's stream",
        "create GSI GSI4",
    ]
    # The first stage has the settings but not yet the stream nor the new
    # index; the second adds the stream alone.
    assert stages[0].table.billing_mode == "PROVISIONED"
    assert stages[0].table.stream_view_type == ""
    assert stages[1].table == dataclasses.replace(
        stages[0].table, stream_view_type="NEW_IMAGE"
    )
    assert stages[0].table.index("GSI4") is None
    assert stages[2].table.index("GSI4") is not None


def test_with_a_new_table_the_settings_need_no_step():
    before = revisions.original()
    after = _with(
        revisions.partition_key_changed(),
        stream_view_type="NEW_AND_OLD_IMAGES",
        ttl_attribute="expiresAt",
    )
    plan = plan_migration(before, after, proof=False)
    notes = [
        (ch.category, ch.setting)
        for ch in plan.changes
        if ch.what.startswith(("stream:", "TTL attribute:"))
    ]
    assert notes == [(c.NOTHING, False), (c.NOTHING, False)]
    assert not any("the table's settings" in s.title for s in plan.steps)
    (stage,) = table_stages(before, after)
    assert stage.title == "create table order-management-v2"
    assert stage.table.stream_view_type == "NEW_AND_OLD_IMAGES"
    assert stage.table.ttl_attribute == "expiresAt"


def test_a_change_of_settings_alone_is_proven_and_writes_nothing():
    before = smaller(revisions.original(), 3)
    after = _with(before, ttl_attribute="expiresAt", point_in_time_recovery=False)
    plan = plan_migration(before, after)
    assert plan.proven, plan.verdict
    assert plan.proof.tally.counts["written"] == 0
    assert plan.steps[0].title == (
        "UpdateTimeToLive, UpdateContinuousBackups: the table's settings"
    )


def test_a_ttl_moved_to_another_attribute_is_turned_off_then_on_an_hour_later():
    """UpdateTimeToLive cannot change the attribute of an enabled TTL, and
    takes one change per table per hour: the first stage turns TTL off
    (written as disabled, not left out, which would leave it on), a later
    one turns it on for the new attribute, and the plan says to wait."""
    before = _with(revisions.original(), ttl_attribute="expiresAt")
    after = _with(revisions.original(), ttl_attribute="ttl")
    plan = plan_migration(before, after, proof=False)
    moved = (
        "TTL attribute: expiresAt -> ttl (TTL is turned off, then on: each once "
        "per hour at most)"
    )
    assert [ch.what for ch in plan.changes] == [moved]
    assert [(s.kind, s.title, s.details) for s in plan.steps] == [
        (
            c.ONLINE,
            "UpdateTimeToLive: the table's settings",
            (
                "TTL attribute: expiresAt -> off (DynamoDB cannot move an enabled "
                "TTL: it is turned on for ttl at least an hour later)",
            ),
        ),
        (
            c.ONLINE,
            "UpdateTimeToLive: turn TTL on for ttl, at least an hour after it was "
            "turned off (DynamoDB takes one TTL change per table per hour); until "
            "then no item expires",
            (moved,),
        ),
        (
            DEPLOY,
            "Deploy the application version of the new design (its access "
            "patterns; writes in the new shape only)",
            (),
        ),
    ]
    stages = table_stages(before, after)
    assert [(s.title, s.table.ttl_attribute, s.ttl_off) for s in stages] == [
        ("the table's settings", "", "expiresAt"),
        ("enable TTL on ttl at least an hour later", "ttl", ""),
    ]
    assert stages[1].table == after.table
    (off, off_text), (on, on_text) = iac_files(before, after, "terraform")
    assert (off, on) == (
        "01-the-table-s-settings.tf",
        "02-enable-ttl-on-ttl-at-least-an-hour-later.tf",
    )
    assert (
        'ttl {\n    attribute_name = "expiresAt"\n    enabled        = false\n  }'
        in off_text
    )
    assert '"ttl"' not in off_text
    assert 'ttl {\n    attribute_name = "ttl"\n    enabled        = true\n  }' in (
        on_text
    )
    (_, off_text), (_, on_text) = iac_files(before, after, "cloudformation")
    assert (
        "TimeToLiveSpecification:\n        AttributeName: expiresAt\n        "
        "Enabled: false" in off_text
    )
    assert (
        "TimeToLiveSpecification:\n        AttributeName: ttl\n        "
        "Enabled: true" in on_text
    )


def test_the_ttl_moved_is_turned_on_after_the_new_gsis_and_before_removals():
    """The hour's wait holds back no GSI: TTL goes on for the new attribute
    after the creations (and their backfills), before the deletions, and
    every stage until then writes the old attribute's TTL disabled."""
    before = _with(revisions.original(), ttl_attribute="expiresAt")
    gsi1, _, gsi3 = before.table.indexes
    after = _with(revisions.gsi_added(), ttl_attribute="ttl")
    after = _with(after, indexes=(gsi1, gsi3, after.table.index("GSI4")))
    stages = table_stages(before, after)
    assert [(s.title, s.ttl_off) for s in stages] == [
        ("the table's settings", "expiresAt"),
        ("create GSI GSI4", "expiresAt"),
        ("enable TTL on ttl at least an hour later", ""),
        ("delete GSI GSI2", ""),
    ]
    plan = plan_migration(before, after, proof=False)
    titles = [s.title.split(" ")[0:3] for s in plan.steps if s.kind == c.ONLINE]
    assert titles == [
        ["UpdateTimeToLive:", "the", "table's"],
        ["UpdateTable:", "create", "GSI"],
        ["UpdateTimeToLive:", "turn", "TTL"],
        ["UpdateTable:", "delete", "GSI"],
    ]


def test_ttl_turned_off_is_written_disabled():
    """Without a ttl block the Terraform provider leaves TTL as it is, so
    the stage that turns it off says so."""
    before = _with(revisions.original(), ttl_attribute="expiresAt")
    after = revisions.original()
    (stage,) = table_stages(before, after)
    assert (stage.table.ttl_attribute, stage.ttl_off) == ("", "expiresAt")
    ((_, text),) = iac_files(before, after, "terraform")
    assert 'attribute_name = "expiresAt"\n    enabled        = false' in text
    ((_, text),) = iac_files(before, after, "cloudformation")
    assert "AttributeName: expiresAt\n        Enabled: false" in text
    # A table that never had TTL gets no block.
    assert "ttl {" not in export_terraform(after)
    assert "TimeToLiveSpecification" not in export_cloudformation_yaml(after)


@pytest.mark.parametrize(
    "make_after",
    [
        _provisioned,
        lambda o: _with(o, table_class="STANDARD_INFREQUENT_ACCESS"),
    ],
    ids=["billing", "table class"],
)
def test_a_stream_change_is_an_update_of_its_own(make_after):
    """UpdateTable changes the capacity or the stream, not both in a call:
    the stream comes in a stage and a step of its own, after the rest."""
    before = revisions.original()
    after = make_after(_with(before, stream_view_type="NEW_AND_OLD_IMAGES"))
    stages = table_stages(before, after)
    assert [s.title for s in stages] == ["the table's settings", "the table's stream"]
    assert stages[0].table == dataclasses.replace(after.table, stream_view_type="")
    assert stages[1].table == after.table
    (_, first), (second_name, second) = iac_files(before, after, "terraform")
    assert second_name == "02-the-table-s-stream.tf"
    assert "stream_enabled" not in first
    assert 'stream_view_type            = "NEW_AND_OLD_IMAGES"' in second
    (_, first), (_, second) = iac_files(before, after, "cloudformation")
    assert "StreamSpecification" not in first
    assert "StreamSpecification:\n        StreamViewType: NEW_AND_OLD_IMAGES" in (
        second
    )
    plan = plan_migration(before, after, proof=False)
    assert [s.title for s in plan.steps[:2]] == [
        "UpdateTable: the table's settings",
        STREAM_STEP,
    ]
    assert plan.steps[1].details == ("stream: off -> NEW_AND_OLD_IMAGES",)
    assert "stream" not in " ".join(plan.steps[0].details)


def test_a_stream_changed_with_settings_of_other_calls_stays_in_their_stage():
    """TTL and backups are not UpdateTable's: the stream goes with them."""
    before = _with(revisions.original(), point_in_time_recovery=False)
    after = _with(
        revisions.original(), stream_view_type="NEW_IMAGE", ttl_attribute="expiresAt"
    )
    assert [s.title for s in table_stages(before, after)] == ["the table's settings"]
    plan = plan_migration(before, after, proof=False)
    assert plan.steps[0].title == (
        "UpdateTimeToLive, UpdateTable, UpdateContinuousBackups: the table's settings"
    )
    assert len(plan.steps) == 2


def test_a_stream_of_another_view_type_is_turned_off_then_on():
    """UpdateTable cannot enable a stream on a table that has one: a new
    view type is a stream turned off, then on again, each an update of its
    own, and the plan says the new stream has a new ARN."""
    before = _with(revisions.original(), stream_view_type="NEW_IMAGE")
    after = _with(revisions.original(), stream_view_type="NEW_AND_OLD_IMAGES")
    stages = table_stages(before, after)
    assert [(s.title, s.table.stream_view_type) for s in stages] == [
        ("the table's stream off (on again next)", ""),
        ("the table's stream", "NEW_AND_OLD_IMAGES"),
    ]
    assert stages[1].table == after.table
    (_, off), (_, on) = iac_files(before, after, "terraform")
    assert "stream_enabled" not in off and "stream_view_type" not in off
    assert 'stream_view_type            = "NEW_AND_OLD_IMAGES"' in on
    (_, off), (_, on) = iac_files(before, after, "cloudformation")
    assert "StreamSpecification" not in off
    assert "StreamViewType: NEW_AND_OLD_IMAGES" in on
    plan = plan_migration(before, after, proof=False)
    what = "stream: NEW_IMAGE -> NEW_AND_OLD_IMAGES"
    assert [(s.title, s.details) for s in plan.steps[:2]] == [
        (
            "UpdateTable: turn the stream (NEW_IMAGE) off, in an update of its own "
            "(DynamoDB cannot change the view type of an enabled stream: it is "
            "turned on as NEW_AND_OLD_IMAGES next)",
            (what,),
        ),
        (
            "UpdateTable: turn the stream on as NEW_AND_OLD_IMAGES: a new stream "
            "with a new ARN, point its consumers at it (changes made while it was "
            "off are in neither stream)",
            (what,),
        ),
    ]
    assert len(plan.steps) == 3
