"""Every page that lists or runs access patterns, for a design stated by
what its patterns need: the unkeyed pattern is labelled "no key yet", an
entity without keys makes the sample data say which, and nothing fails."""

from __future__ import annotations

import dataclasses

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from modeler.design import model as d
from modeler.models import Project, Role
from modeler.services import members as member_services
from modeler.services import projects as project_services
from modeler.simulation.simulate import NO_KEY_YET
from tests.unkeyed import orders_of_a_customer_needs

NEEDS = orders_of_a_customer_needs("Orders <b>newest</b> first")
PAGES = [
    "project-detail",
    "editor-patterns",
    "simulation-page",
    "review-page",
    "keymap-page",
    "keymap-verdicts",
    "diagrams-page",
    "collections-page",
    "export-page",
]


def _project(owner: User, viewer: User, design: d.Design) -> Project:
    project = project_services.project_create(owner=owner, design=design)
    member_services.membership_set(project=project, user=viewer, role=Role.VIEWER)
    return project


@pytest.fixture
def mixed(owner: User, viewer: User, order_design: d.Design) -> Project:
    """The example with one more pattern, stated by what it needs."""
    design = dataclasses.replace(
        order_design, access_patterns=(*order_design.access_patterns, NEEDS)
    )
    return _project(owner, viewer, design)


@pytest.fixture
def keyless(owner: User, viewer: User, order_design: d.Design) -> Project:
    """Entities without keys, and a pattern without a key."""
    order = order_design.entity("Order")
    design = dataclasses.replace(
        order_design,
        table=dataclasses.replace(order_design.table, indexes=()),
        entities=(dataclasses.replace(order, keys={}, sample=d.SampleSettings()),),
        access_patterns=(NEEDS,),
        sample_data=d.SampleData(),
    )
    return _project(owner, viewer, design)


@pytest.mark.django_db
@pytest.mark.parametrize("page", PAGES)
def test_pages_show_an_unkeyed_pattern_among_keyed_ones(
    viewer_client: Client, mixed: Project, page: str
):
    response = viewer_client.get(reverse(page, args=[mixed.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "<b>newest</b>" not in html


@pytest.mark.django_db
@pytest.mark.parametrize("page", PAGES)
def test_pages_of_a_design_with_nothing_keyed_yet_answer(
    viewer_client: Client, keyless: Project, page: str
):
    response = viewer_client.get(reverse(page, args=[keyless.pk]))
    assert response.status_code == 200
    assert "<b>newest</b>" not in response.content.decode()


@pytest.mark.django_db
def test_the_lists_label_the_pattern_no_key_yet(viewer_client: Client, mixed: Project):
    for page in ("project-detail", "editor-patterns", "simulation-page"):
        html = viewer_client.get(reverse(page, args=[mixed.pk])).content.decode()
        assert "no key yet" in html, page
        assert "Orders &lt;b&gt;newest&lt;/b&gt; first" in html, page


@pytest.mark.django_db
def test_the_simulation_of_an_unkeyed_pattern_says_it_has_no_key_yet(
    viewer_client: Client, mixed: Project, order_design: d.Design
):
    last = len(order_design.access_patterns)  # the unkeyed pattern, added last
    response = viewer_client.get(reverse("simulation-pattern", args=[mixed.pk, last]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "no key yet" in html
    assert NO_KEY_YET.replace("'", "&#x27;") in html


@pytest.mark.django_db
def test_without_keys_simulation_and_review_name_the_entity(
    viewer_client: Client, keyless: Project
):
    for page in ("simulation-page", "review-page"):
        html = viewer_client.get(reverse(page, args=[keyless.pk])).content.decode()
        assert "Order has no table key yet" in html, page
    html = viewer_client.get(
        reverse("simulation-pattern", args=[keyless.pk, 0])
    ).content.decode()
    assert "Order has no table key yet" in html
    html = viewer_client.get(reverse("present", args=[keyless.pk, 0])).content.decode()
    assert "no key yet" in html
