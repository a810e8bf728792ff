"""`manage.py plan_migration` with the deployed side read from where it
is: a live table at an endpoint (`--endpoint-url URL --table NAME`: its
description, and a sample of its items for the entities, as `import_table`
reads them), or a Terraform configuration or CloudFormation template."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.designfile import dump_design
from modeler.endpoint.server import start
from modeler.endpoint.service import Service
from modeler.engine.engine import Engine
from modeler.exporters.cloudformation import export_cloudformation_yaml
from modeler.exporters.terraform import export_terraform
from modeler.sampledata import generate
from modeler.simulation.requests import create_table_request
from tests.evolution import revisions
from tests.evolution.revisions import smaller


@pytest.fixture
def live():
    """The workbench's endpoint (`serve_dynamodb`'s server) holding the
    order-management table with its sample data, as deployed."""
    design = smaller(revisions.original(), 3)
    engine = Engine()
    server = start(Service(engine), ("127.0.0.1", 0))
    engine.create_table(create_table_request(design))
    engine.load_items(design.table.name, generate(design).items, None)
    host, port = server.server_address[:2]
    yield f"http://{host}:{port}", design
    server.shutdown()
    server.server_close()


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
    assert "LineItem: 162 items expected, 162 after" in out
    assert "GSI GSI4 added" in out
    assert "create GSI GSI4" in out
    assert "Verdict: proven on the sample data" in out
    assert "pattern Line items of a product: passes" in out


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
