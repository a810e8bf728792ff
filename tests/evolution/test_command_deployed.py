"""`manage.py plan_migration` with the deployed side read from where it
is: a live table at an endpoint (`--endpoint-url URL --table NAME`: its
description, and a sample of its items for the entities, as `import_table`
reads them), or a Terraform configuration or CloudFormation template."""

from __future__ import annotations

import dataclasses
import io
from collections import Counter

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.designfile import dump_design
from modeler.endpoint.designs import design_load
from modeler.endpoint.server import start
from modeler.endpoint.service import Service
from modeler.engine.engine import Engine
from modeler.evolution.plan import plan_migration
from modeler.evolution.runtime import Migration
from modeler.exporters.cloudformation import export_cloudformation_yaml
from modeler.exporters.terraform import export_terraform
from modeler.infra.dynamodb import make_client
from modeler.sampledata import generate
from modeler.simulation.requests import create_table_request
from tests.evolution import revisions
from tests.evolution.revisions import smaller


def _serving(customers: int):
    """The workbench's endpoint (`serve_dynamodb`'s server) holding the
    order-management table with its sample data, as deployed."""
    design = smaller(revisions.original(), customers)
    engine = Engine()
    server = start(Service(engine), ("127.0.0.1", 0))
    engine.create_table(create_table_request(design))
    engine.load_items(design.table.name, generate(design).items, None)
    host, port = server.server_address[:2]
    yield f"http://{host}:{port}", design
    server.shutdown()
    server.server_close()


@pytest.fixture
def live():
    yield from _serving(3)


@pytest.fixture
def larger():
    yield from _serving(30)


@pytest.fixture(autouse=True)
def _credentials(monkeypatch):
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "anything")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "anything")


def _plan(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("plan_migration", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_a_live_table_as_the_deployed_side(live, tmp_path):
    url, deployed = live
    after = tmp_path / "b.yaml"
    after.write_text(dump_design(smaller(revisions.gsi_added(), 3)))
    out, err = _plan("--endpoint-url", url, "--table", deployed.table.name, str(after))
    assert "note: read" in err
    # The entities inferred from the items are known by the next design's
    # names: nothing is taken for removed and added again.
    assert "removed" not in out and "added: no existing item" not in out
    assert "LineItem: 152 items expected, 152 after" in out
    assert "GSI GSI4 added" in out
    assert "create GSI GSI4" in out
    assert "Verdict: proven on the sample data" in out
    assert "pattern Line items of a product: passes" in out


def test_a_live_table_is_proven_on_its_own_items_alone(live, tmp_path):
    url, deployed = live
    after = tmp_path / "b.yaml"
    after.write_text(dump_design(smaller(revisions.gsi_added(), 3)))
    out, _ = _plan("--endpoint-url", url, "--table", deployed.table.name, str(after))
    # The items read are the sample: none generated beside them, whose
    # made-up values would be counted, rewritten and paid for as the
    # table's own.
    live_counts = Counter(generate(deployed).entities)
    assert sum(live_counts.values()) < 1_000  # all of them read
    for entity, count in live_counts.items():
        assert f"- {entity}: {count:,} items expected, {count:,} after" in out
    assert f"LineItem: {live_counts['LineItem']:,} items rewritten" in out


def test_the_proof_runs_on_as_many_items_as_asked(larger, tmp_path):
    url, deployed = larger
    after = tmp_path / "b.yaml"
    after.write_text(dump_design(smaller(revisions.gsi_added(), 30)))
    table = deployed.table.name
    live_counts = Counter(generate(deployed).entities)
    total = sum(live_counts.values())
    assert total > 1_000
    out, err = _plan(
        "--endpoint-url", url, "--table", table, "--sample", "5000", str(after)
    )
    assert f"read {total:,} items" in err
    # All of them, not the 1,000 a project keeps of its own items.
    for entity, count in live_counts.items():
        assert f"- {entity}: {count:,} items expected, {count:,} after" in out


def test_a_live_table_that_does_not_exist_is_named(live, tmp_path):
    url, _ = live
    after = tmp_path / "b.yaml"
    after.write_text(dump_design(smaller(revisions.gsi_added(), 3)))
    with pytest.raises(CommandError, match="^Nope: .*Nope"):
        _plan("--endpoint-url", url, "--table", "Nope", str(after))


def test_with_a_table_one_design_is_given(live, tmp_path):
    url, deployed = live
    with pytest.raises(CommandError, match="give the next design B alone"):
        _plan("--endpoint-url", url, "--table", "Orders", "a.yaml", "b.yaml")
    with pytest.raises(CommandError, match="give two designs"):
        _plan("b.yaml")


@pytest.mark.parametrize(
    ("export", "suffix"),
    [(export_terraform, "tf"), (export_cloudformation_yaml, "yaml")],
    ids=["terraform", "cloudformation"],
)
def test_a_table_file_as_the_deployed_side(export, suffix, tmp_path):
    deployed = tmp_path / f"deployed.{suffix}"
    deployed.write_text(export(smaller(revisions.original(), 3)))
    after = tmp_path / "b.yaml"
    after.write_text(dump_design(smaller(revisions.gsi_added(), 3)))
    out, err = _plan(str(deployed), str(after))
    assert "Note: the deployed side has a table but no entities" in err
    assert "create GSI GSI4" in out
    assert "LineItem GSI4PK: '(none)' -> 'PRODUCT#{productId}'" in out
    assert "Verdict: proven on the sample data" in out


def test_a_table_file_whose_keys_the_next_design_lacks_is_refused(tmp_path):
    deployed = tmp_path / "deployed.tf"
    deployed.write_text(export_terraform(smaller(revisions.original(), 3)))
    after = tmp_path / "b.yaml"
    after.write_text(dump_design(smaller(revisions.partition_key_changed(), 3)))
    with pytest.raises(CommandError, match="the deployed table's key PK has no"):
        _plan(str(deployed), str(after))


@pytest.fixture
def served():
    """The table as `serve_dynamodb` serves it (`design_load`: with its tags
    and deletion protection), on an endpoint that has no backups API."""
    design = smaller(revisions.original(), 3)
    engine = Engine()
    server = start(Service(engine), ("127.0.0.1", 0))
    design_load(engine, design)
    host, port = server.server_address[:2]
    yield f"http://{host}:{port}", design
    server.shutdown()
    server.server_close()


def test_settings_the_endpoint_does_not_report_are_not_changed(served, tmp_path):
    url, deployed = served
    assert deployed.table.point_in_time_recovery
    assert deployed.table.deletion_protection and deployed.table.tags
    after = tmp_path / "b.yaml"
    after.write_text(dump_design(smaller(revisions.gsi_added(), 3)))
    out, err = _plan("--endpoint-url", url, "--table", deployed.table.name, str(after))
    assert "the table's backups could not be read" in err
    # Point-in-time recovery was not read: it is not taken as off.
    assert "point-in-time recovery: off -> on" not in out
    assert (
        "- [nothing to do to the table] point-in-time recovery: the deployed table "
        "did not say (DescribeContinuousBackups: UnknownOperationException); no "
        "change planned: check that it is on, as the new design has it"
    ) in out
    # Deletion protection and tags are read (DescribeTable, ListTagsOfResource)
    # and are as the new design has them.
    assert "deletion protection" not in out and "tags:" not in out
    assert "the table's settings" not in out
    assert "Verdict: proven on the sample data" in out


def test_settings_the_endpoint_reports_are_compared(served, tmp_path):
    url, deployed = served
    unprotected = smaller(revisions.gsi_added(), 3)
    unprotected = dataclasses.replace(
        unprotected,
        table=dataclasses.replace(
            unprotected.table, deletion_protection=False, tags=()
        ),
    )
    after = tmp_path / "b.yaml"
    after.write_text(dump_design(unprotected))
    out, _ = _plan("--endpoint-url", url, "--table", deployed.table.name, str(after))
    assert "- deletion protection: on -> off" in out
    assert "- tags: team=commerce, data-classification=internal -> none" in out


def test_a_sample_of_a_larger_table_is_scaled_to_its_item_count(larger, tmp_path):
    url, deployed = larger
    after = tmp_path / "b.yaml"
    after.write_text(dump_design(smaller(revisions.gsi_added(), 30)))
    table = deployed.table.name
    total = len(generate(deployed).items)
    out, err = _plan(
        "--endpoint-url", url, "--table", table, "--sample", "400", str(after)
    )
    assert "read 400 items" in err
    assert f"figures scaled from the 400 items read to the table's {total:,}" in err
    assert f"figures at the sample's item counts x {total / 400:g}" in out
    # Asked for, a count of one's own wins.
    out, err = _plan(
        "--endpoint-url",
        url,
        "--table",
        table,
        "--sample",
        "400",
        "--stored-items",
        "800",
        str(after),
    )
    assert "figures scaled" not in err
    assert "figures at the sample's item counts x 2\n" in out


def test_a_live_table_part_way_through_a_migration_is_refused_with_the_way_on(
    live, tmp_path
):
    # The script's rewrite has run on the live table (the GSI not created
    # yet, no cleanup): its line items hold GSI4PK and GSI4SK, keys only
    # the next design has. Read as it is now, the table would be taken for
    # a design whose items carry both designs' keys.
    url, deployed = live
    next_design = smaller(revisions.gsi_added(), 3)
    after = tmp_path / "b.yaml"
    after.write_text(dump_design(next_design))
    args = ("--endpoint-url", url, "--table", deployed.table.name, str(after))
    assert "Verdict: proven" in _plan(*args)[0]  # before it began
    spec = plan_migration(deployed, next_design, proof=False).spec
    client = make_client(endpoint_url=url, region="us-east-1")
    Migration(spec, client, workers=1, cleanup=False).run()
    with pytest.raises(CommandError) as raised:
        _plan(*args)
    assert str(raised.value) == (
        f"{deployed.table.name}: the table looks part way through a migration to "
        "the next design: 152 of the 200 items read already hold GSI4PK and "
        "GSI4SK, keys that only the next design has. Plan from the design "
        "deployed before the migration began (plan_migration A B, with A that "
        "design's file or revision): its script resumes from its checkpoint, and "
        "--verify says what is left"
    )
