"""One history, several uses: every save is a revision with its author and
summary; each user undoes and redoes their own changes; any revision can be
restored or named, and nothing is ever destroyed."""

from __future__ import annotations

import dataclasses

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from modeler import selectors
from modeler.design import model as d
from modeler.design.edits import EntityUpdate
from modeler.editor.services import design_edit
from modeler.models import Revision
from modeler.services import history as history_services
from modeler.services import projects as project_services
from tests.views.conftest import stored_design


def _changed(project, user, entity: str, **changes):
    project.refresh_from_db()
    found = stored_design(project).entity(entity)
    return design_edit(
        project=project,
        version=project.version,
        author=user,
        edit=EntityUpdate(entity, dataclasses.replace(found, uid="", **changes)),
    )


def _describe(project, user, entity: str, text: str):
    return _changed(project, user, entity, description=text)


def _rename(project, user, entity: str, new: str):
    return _changed(project, user, entity, name=new)


def _undo(project, user):
    state = history_services.undo_state(project=project, user=user)
    return history_services.revision_undo(
        project=project, user=user, number=state.undo.number
    )


def _redo(project, user):
    state = history_services.undo_state(project=project, user=user)
    return history_services.revision_redo(
        project=project, user=user, number=state.redo.number
    )


@pytest.mark.django_db
def test_every_save_is_a_revision_with_author_time_and_summary(project, owner):
    _rename(project, owner, "Order", "Purchase")

    latest, first = selectors.revision_list(project=project)
    assert (first.number, first.kind, first.summary) == (
        1,
        "create",
        "created the design",
    )
    assert (latest.number, latest.kind, latest.author) == (2, "edit", owner)
    assert latest.summary.startswith("renamed entity Order to Purchase")
    assert latest.created >= first.created


@pytest.mark.django_db
def test_a_new_project_has_nothing_to_undo(project, owner):
    state = history_services.undo_state(project=project, user=owner)
    assert (state.undo, state.redo) == (None, None)
    with pytest.raises(history_services.HistoryError, match="no change to undo"):
        history_services.revision_undo(project=project, user=owner, number=1)


@pytest.mark.django_db
def test_undo_and_redo_a_rename(project, owner, order_design):
    _rename(project, owner, "Order", "Purchase")
    assert history_services.undo_state(
        project=project, user=owner
    ).undo_label.startswith("Undo: renamed entity Order to Purchase")

    _undo(project, owner)

    assert stored_design(project) == order_design
    state = history_services.undo_state(project=project, user=owner)
    assert state.undo is None
    assert state.redo_label.startswith("Redo: renamed entity Order to Purchase")

    _redo(project, owner)

    assert stored_design(project).entity("Purchase") is not None
    state = history_services.undo_state(project=project, user=owner)
    assert state.undo_label.startswith("Undo: renamed entity Order to Purchase")
    assert state.redo is None
    kinds = [r.kind for r in selectors.revision_list(project=project)]
    assert kinds == ["redo", "undo", "edit", "create"]


@pytest.mark.django_db
def test_undo_takes_back_only_the_users_own_change(project, owner, editor):
    _describe(project, owner, "Customer", "owner's")
    _describe(project, editor, "Order", "editor's")

    _undo(project, owner)

    design = stored_design(project)
    assert design.entity("Customer").description != "owner's"
    assert design.entity("Order").description == "editor's"


@pytest.mark.django_db
def test_undo_of_a_change_someone_changed_again_is_refused(project, owner, editor):
    _describe(project, owner, "Customer", "owner's")
    _describe(project, editor, "Customer", "editor's")
    before = project.revisions.count()

    with pytest.raises(project_services.EditConflict) as raised:
        _undo(project, owner)

    assert raised.value.message.startswith("editor changed entity Customer since")
    assert project.revisions.count() == before
    assert stored_design(project).entity("Customer").description == "editor's"


@pytest.mark.django_db
def test_a_new_change_after_an_undo_clears_the_redo(project, owner):
    _describe(project, owner, "Customer", "one")
    _undo(project, owner)
    _describe(project, owner, "Order", "two")

    state = history_services.undo_state(project=project, user=owner)
    assert state.redo is None
    assert state.undo_label == "Undo: changed entity Order (description)"


@pytest.mark.django_db
def test_an_undo_offered_by_an_older_page_is_refused(project, owner):
    _describe(project, owner, "Customer", "one")
    offered = history_services.undo_state(project=project, user=owner).undo.number
    _describe(project, owner, "Order", "two")

    with pytest.raises(history_services.HistoryError, match="latest change is now"):
        history_services.revision_undo(project=project, user=owner, number=offered)


@pytest.mark.django_db
def test_fifty_five_changes_undo_back_to_the_start(project, owner, order_design):
    for i in range(55):
        _describe(project, owner, ("Customer", "Order", "LineItem")[i % 3], f"v{i}")

    for _ in range(55):
        _undo(project, owner)

    assert stored_design(project) == order_design
    assert history_services.undo_state(project=project, user=owner).undo is None


@pytest.mark.django_db
def test_restore_brings_back_a_revision_as_a_new_one(project, owner, order_design):
    _rename(project, owner, "Order", "Purchase")
    history_services.revision_label_set(
        project=project, number=1, label=" as imported "
    )

    history_services.revision_restore(project=project, user=owner, number=1)

    assert stored_design(project) == order_design
    latest = selectors.revision_list(project=project)[0]
    assert (latest.number, latest.kind) == (3, "restore")
    assert latest.summary == "restored revision 1 (as imported)"
    assert selectors.revision_design(project=project, number=2).entity("Purchase")


@pytest.mark.django_db
def test_a_revision_keeps_unchanged_items_once(project, owner):
    item = d.freeze({"PK": {"S": "CUST#1"}, "SK": {"S": "PROFILE"}})
    design = stored_design(project)
    project_services.project_save_design(
        project=project,
        design=dataclasses.replace(
            design, sample_data=dataclasses.replace(design.sample_data, items=(item,))
        ),
        version=project.version,
    )
    _describe(project, owner, "Customer", "x")

    latest, with_items, _ = Revision.objects.order_by("-number")
    assert latest.items_id == with_items.items_id is not None
    assert stored_design(project).sample_data.items == (item,)


@pytest.mark.django_db
def test_a_save_of_one_entity_takes_few_queries(project, owner):
    project.refresh_from_db()
    found = stored_design(project).entity("Customer")
    with CaptureQueriesContext(connection) as queries:
        design_edit(
            project=project,
            version=project.version,
            author=owner,
            edit=EntityUpdate(
                "Customer", dataclasses.replace(found, description="x", uid="")
            ),
        )
    assert len(queries) <= 10, [q["sql"] for q in queries]
