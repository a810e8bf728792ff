"""A project every view test can use: the order-management example, owned
by `owner`, with `editor` and `viewer` as members, and a logged-in client
for each user."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client

from modeler import selectors
from modeler.design import model as d
from modeler.design.model import Design, freeze
from modeler.designfile import read_design
from modeler.models import Project, Role
from modeler.services import members as member_services
from modeler.services import projects as project_services

EXAMPLES = Path(settings.BASE_DIR) / "examples"


def example_design(name: str) -> Design:
    result = read_design((EXAMPLES / f"{name}.yaml").read_bytes())
    assert result.design is not None, result.problems
    return result.design


@pytest.fixture(scope="session")
def order_design() -> Design:
    """Read once: parsing and checking the file costs more than writing it."""
    return example_design("order-management")


def with_roots(design: Design, count: int) -> Design:
    """The design with `count` items of each root entity (children keep
    their counts per parent), so its sample data is quick to make."""
    entities = tuple(
        e
        if e.sample.per
        else dataclasses.replace(
            e, sample=dataclasses.replace(e.sample, count=d.Count("fixed", count))
        )
        for e in design.entities
    )
    return dataclasses.replace(design, entities=entities)


@pytest.fixture(scope="session")
def small_design(order_design: Design) -> Design:
    """The order-management example with three customers: about a hundred
    items instead of eight thousand."""
    return with_roots(order_design, 3)


def project_with_members(
    design: Design, *, owner: User, editor: User, viewer: User
) -> Project:
    """A project of this design owned by `owner`, with `editor` and
    `viewer` as members."""
    project = project_services.project_create(owner=owner, design=design)
    member_services.membership_set(project=project, user=editor, role=Role.EDITOR)
    member_services.membership_set(project=project, user=viewer, role=Role.VIEWER)
    return project


def project_at_two_revisions(
    first: Design, second: Design, *, owner: User, editor: User, viewer: User
) -> Project:
    """A project of `first` with its members (`project_with_members`), then
    `second` saved by the owner as revision 2."""
    project = project_with_members(first, owner=owner, editor=editor, viewer=viewer)
    project_services.project_save_design(
        project=project, design=second, version=project.version, author=owner
    )
    project.refresh_from_db()
    assert project.version == 2
    return project


@pytest.fixture
def project(owner: User, editor: User, viewer: User, order_design: Design) -> Project:
    return project_with_members(order_design, owner=owner, editor=editor, viewer=viewer)


def stored_design(project: Project) -> Design:
    """The project's design as saved now (the object may be out of date)."""
    project.refresh_from_db()
    return selectors.project_design(project=project)


def store_own_items(project: Project, items: list[dict]) -> None:
    """Give the project these items of the user's own, as a new revision."""
    design = stored_design(project)
    project_services.project_save_design(
        project=project,
        design=dataclasses.replace(
            design,
            sample_data=dataclasses.replace(
                design.sample_data, items=tuple(freeze(i) for i in items)
            ),
        ),
        version=project.version,
    )


def logged_in(user: User, **kwargs: bool) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


@pytest.fixture
def owner_client(owner: User) -> Client:
    return logged_in(owner)


@pytest.fixture
def editor_client(editor: User) -> Client:
    return logged_in(editor)


@pytest.fixture
def viewer_client(viewer: User) -> Client:
    return logged_in(viewer)


@pytest.fixture
def outsider_client(outsider: User) -> Client:
    return logged_in(outsider)
