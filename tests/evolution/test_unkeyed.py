"""A design whose entities have no table keys yet (a schema imported from
SQL, before keys were proposed) was never deployed and cannot be: the
planner refuses it up front, naming the side and the entities, instead
of planning every item "written under its new key" from a key it never
had; the command says the same."""

from __future__ import annotations

import dataclasses
import io
from types import MappingProxyType

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.designfile import dump_design
from modeler.evolution.plan import plan_migration
from modeler.evolution.spec import PlanError
from modeler.services import projects as project_services
from tests.evolution import revisions
from tests.evolution.revisions import keyless, smaller

ENTITIES = "Customer, Order, LineItem"


def test_a_deployed_side_without_table_keys_is_refused_up_front():
    with pytest.raises(PlanError) as raised:
        plan_migration(
            keyless(revisions.original()),
            revisions.original(),
            proof=False,
            sides=("revision 1", "revision 2"),
        )
    assert str(raised.value).startswith(
        f"revision 1 cannot have been deployed: {ENTITIES} have no table key yet"
    )
    # With the proof too: refused before any sample data is made.
    with pytest.raises(PlanError, match="the deployed design cannot have been"):
        plan_migration(keyless(revisions.original()), revisions.original())


def test_a_next_design_without_table_keys_is_refused_up_front():
    with pytest.raises(PlanError) as raised:
        plan_migration(
            revisions.original(),
            keyless(revisions.original()),
            proof=False,
            sides=("revision 1", "revision 2"),
        )
    assert str(raised.value).startswith(
        f"revision 2 cannot be deployed: {ENTITIES} have no table key yet: propose keys"
    )


def test_an_entity_lacking_one_table_key_is_named_with_the_key():
    original = revisions.original()
    entities = tuple(
        dataclasses.replace(
            e, keys=MappingProxyType({k: t for k, t in e.keys.items() if k != "SK"})
        )
        if e.name == "Order"
        else e
        for e in original.entities
    )
    with pytest.raises(PlanError) as raised:
        plan_migration(
            dataclasses.replace(original, entities=entities), original, proof=False
        )
    assert str(raised.value).startswith(
        "the deployed design cannot have been deployed: Order has no template "
        "for the table key SK yet"
    )


def test_designs_with_their_keys_are_planned():
    plan = plan_migration(revisions.original(), revisions.gsi_added(), proof=False)
    assert plan.changes


@pytest.mark.django_db
def test_the_command_says_why_for_revisions_and_for_files(owner, tmp_path):
    project = project_services.project_create(
        owner=owner, design=smaller(keyless(revisions.original()), 3)
    )
    project, problems = project_services.project_save_design(
        project=project,
        design=smaller(revisions.original(), 3),
        version=project.version,
        author=owner,
    )
    assert project.version == 2, problems
    with pytest.raises(CommandError) as raised:
        call_command(
            "plan_migration",
            f"{project.pk}@1",
            f"{project.pk}@2",
            stdout=io.StringIO(),
        )
    assert str(raised.value).startswith(
        "the migration cannot be planned: revision 1 cannot have been deployed: "
        f"{ENTITIES} have no table key yet"
    )
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(dump_design(smaller(revisions.original(), 3)))
    b.write_text(dump_design(smaller(keyless(revisions.original()), 3)))
    with pytest.raises(CommandError) as raised:
        call_command("plan_migration", str(a), str(b), stdout=io.StringIO())
    assert str(raised.value).startswith(
        "the migration cannot be planned: b.yaml cannot be deployed: "
        f"{ENTITIES} have no table key yet"
    )
