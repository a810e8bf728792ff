"""Propose keys: the page, the proposals side by side with the design's own,
adopting one as a new revision (from the cache, or proposed again), and who
may do what. The solver takes seconds a run on the examples as they are: the
tests give them three root items of each kind."""

from __future__ import annotations

import dataclasses

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from modeler.design.model import Design
from modeler.jobs.proposals import key_proposal_run
from modeler.models import Project, Revision
from modeler.services import projects as project_services
from modeler.simulation import Simulation
from modeler.solver import propose
from tests.views.conftest import (
    example_design,
    project_with_members,
    stored_design,
    with_roots,
)

pytestmark = pytest.mark.django_db

SCRIPT = "<script>alert(1)</script>"
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture(scope="module")
def social_design() -> Design:
    return with_roots(example_design("social-graph"), 3)


@pytest.fixture
def orders(owner: User, small_design: Design) -> Project:
    return project_services.project_create(owner=owner, design=small_design)


@pytest.fixture
def social(owner: User, editor: User, viewer: User, social_design: Design) -> Project:
    return project_with_members(
        social_design, owner=owner, editor=editor, viewer=viewer
    )


def _url(project: Project) -> str:
    return reverse("propose-keys", args=[project.pk])


def _adopt_url(project: Project, number: int) -> str:
    return reverse("propose-keys-adopt", args=[project.pk, number])


def _html(response) -> str:
    return response.content.decode()


def test_the_page_says_what_proposing_does(
    owner_client: Client, viewer_client: Client, social: Project
):
    for client in (owner_client, viewer_client):
        response = client.get(_url(social))
        assert response.status_code == 200
        html = _html(response)
        assert "proposes two or three key designs" in html
        assert "Your design's own keys are not kept" in html
        assert "up to about 10 seconds" in html
        assert '<button type="submit" class="btn btn-primary">Propose</button>' in html
        assert "Proposal 1" not in html


def test_entities_and_access_patterns_link_to_it(
    viewer_client: Client, social: Project
):
    for name in ("editor-entities", "editor-patterns"):
        html = _html(viewer_client.get(reverse(name, args=[social.pk])))
        assert f'href="{_url(social)}">Propose keys</a>' in html


def test_outsiders_get_404_for_everything(outsider_client: Client, social: Project):
    assert outsider_client.get(_url(social)).status_code == 404
    assert outsider_client.post(_url(social)).status_code == 404
    response = outsider_client.post(_adopt_url(social, 1), {"version": 1})
    assert response.status_code == 404
    proposals = reverse("propose-keys-proposals", args=[social.pk]) + "?version=1"
    assert outsider_client.get(proposals).status_code == 404


def test_proposals_are_read_back_once_made_and_never_made_by_reading(
    viewer_client: Client, social: Project, monkeypatch
):
    proposals = reverse("propose-keys-proposals", args=[social.pk])
    # Reading proposals nobody asked for runs no solver: it says so.
    monkeypatch.setattr("modeler.jobs.proposals.propose", _no_solver)
    html = _html(viewer_client.get(f"{proposals}?version=1", **HTMX))
    assert "These proposals are no longer kept: propose again." in html
    assert viewer_client.get(f"{proposals}?version=x").status_code == 404
    monkeypatch.undo()

    viewer_client.post(_url(social), **HTMX)  # jobs run at once in tests
    html = _html(viewer_client.get(f"{proposals}?version=1", **HTMX))
    assert ">Proposal 1</h2>" in html and "load delay" not in html


def _no_solver(*args, **kwargs):
    raise AssertionError("the solver ran")


def test_order_management_proposals_side_by_side_with_yours(
    owner_client: Client, orders: Project
):
    project = orders
    response = owner_client.post(_url(project))

    assert response.status_code == 200
    html = _html(response)
    assert ">Yours</h2>" in html
    assert ">Proposal 1</h2>" in html and ">Proposal 2</h2>" in html
    assert "Proven: all 8 access patterns pass every draw" in html
    assert "<code>CUSTOMER#<wbr>{customerId}</code>" in html
    assert "a month at the stated traffic" in html
    assert "Query on GSI1" in html
    assert "read in reverse for newest first" in html
    assert "Adopt proposal 1" in html
    assert f'name="version" value="{project.version}"' in html
    # How each differs from the design's own, with the history's diff.
    assert "Keep yours and see the differences" in html
    assert 'class="code diff-after"' in html
    assert html.count('class="card proposal-column') == 4


def test_htmx_gets_the_proposals_alone(owner_client: Client, social: Project):
    response = owner_client.post(_url(social), **HTMX)

    html = _html(response)
    assert html.lstrip().startswith('<div id="proposals"')
    assert "<html" not in html and ">Proposal 1</h2>" in html


def test_a_viewer_can_propose_but_not_adopt(viewer_client: Client, social: Project):
    html = _html(viewer_client.post(_url(social)))
    assert ">Proposal 1</h2>" in html and "proven" in html.lower()
    assert "Adopt proposal" not in html

    response = viewer_client.post(_adopt_url(social, 1), {"version": 1})

    assert response.status_code == 403
    social.refresh_from_db()
    assert social.version == 1


def test_adopting_saves_the_proposal_as_a_new_revision(
    editor_client: Client, editor: User, social: Project
):
    editor_client.post(_url(social))
    chosen = propose(stored_design(social)).alternatives[0].design

    response = editor_client.post(_adopt_url(social, 1), {"version": 1}, follow=True)

    assert response.redirect_chain[-1][0] == reverse(
        "editor-entities", args=[social.pk]
    )
    html = _html(response)
    assert "Adopted proposal 1 as revision 2." in html
    assert "Undo: adopted key proposal 1" in html
    revision = Revision.objects.get(project=social, number=2)
    assert revision.author == editor and revision.kind == Revision.Kind.EDIT
    saved = stored_design(social)
    assert saved.table.indexes == chosen.table.indexes
    assert [e.keys for e in saved.entities] == [e.keys for e in chosen.entities]
    assert saved.access_patterns == chosen.access_patterns
    runs = Simulation(saved).run_all()
    assert runs and all(run.passed for run in runs)


def test_adopting_after_the_cache_lost_it_proposes_again(
    owner_client: Client, social: Project, monkeypatch
):
    owner_client.post(_url(social))
    chosen = propose(stored_design(social)).alternatives[1].design
    cache.clear()
    # The request does not solve: it asks a worker (here, at once).
    solved = []
    monkeypatch.setattr(
        "modeler.jobs.tasks.key_proposal_run",
        lambda **asked: solved.append(asked) or key_proposal_run(**asked),
    )

    response = owner_client.post(_adopt_url(social, 2), {"version": 1})

    assert response.status_code == 200
    html = _html(response)
    assert "These proposals were no longer kept, so they are proposed again" in html
    assert 'id="proposal-2"' in html
    assert solved == [{"project_id": social.pk, "version": 1, "keep": []}]
    social.refresh_from_db()
    assert social.version == 1  # nothing adopted yet

    response = owner_client.post(_adopt_url(social, 2), {"version": 1})

    assert response.status_code == 302
    saved = stored_design(social)
    assert [e.keys for e in saved.entities] == [e.keys for e in chosen.entities]


def test_adopting_from_an_old_version_is_refused(
    owner_client: Client, social: Project, social_design: Design
):
    owner_client.post(_url(social))
    renamed = dataclasses.replace(social_design, description="Changed since")
    project_services.project_save_design(project=social, design=renamed, version=1)

    response = owner_client.post(_adopt_url(social, 1), {"version": 1})

    assert response.status_code == 409
    assert "Someone saved this project since these proposals were made" in _html(
        response
    )
    assert "Your input is kept below" not in _html(response)
    social.refresh_from_db()
    assert social.version == 2
    assert stored_design(social).description == "Changed since"


def test_adopting_what_the_page_did_not_offer_is_refused(
    owner_client: Client, social: Project
):
    response = owner_client.post(_adopt_url(social, 9), {"version": 1})
    assert response.status_code == 404
    response = owner_client.post(_adopt_url(social, 1), {"version": 7})
    assert response.status_code == 409
    response = owner_client.post(_adopt_url(social, 1))
    assert response.status_code == 422
    assert "The page sent no version; reload it." in _html(response)
    social.refresh_from_db()
    assert social.version == 1


def test_csrf_is_enforced(owner: User, social: Project):
    client = Client(enforce_csrf_checks=True)
    client.force_login(owner)
    assert client.post(_url(social)).status_code == 403
    assert client.post(_adopt_url(social, 1), {"version": 1}).status_code == 403
    social.refresh_from_db()
    assert social.version == 1


def test_user_text_is_escaped(owner: User, social_design: Design):
    first, *rest = social_design.access_patterns
    design = dataclasses.replace(
        social_design,
        access_patterns=(dataclasses.replace(first, name=SCRIPT), *rest),
    )
    project = project_services.project_create(owner=owner, design=design)
    client = Client()
    client.force_login(owner)

    html = _html(client.post(_url(project)))

    assert ">Proposal 1</h2>" in html
    assert SCRIPT not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_a_solver_failure_is_said_on_the_page(
    owner_client: Client, social: Project, monkeypatch
):
    def broken(design: Design, **options):
        raise RuntimeError("no layout")

    monkeypatch.setattr("modeler.jobs.proposals.propose", broken)

    response = owner_client.post(_url(social), **HTMX)

    assert response.status_code == 200
    assert "No keys could be proposed (RuntimeError: no layout)." in _html(response)


def test_kept_table_keys_stay_in_the_proposals_and_the_adopted_revision(
    owner_client: Client, social: Project, social_design: Design
):
    page = _html(owner_client.get(_url(social)))
    assert 'name="keep" value="User"' in page and 'name="keep" value="Follow"' in page

    response = owner_client.post(_url(social), {"keep": ["User"]})

    html = _html(response)
    assert 'type="hidden" name="keep" value="User"' in html
    first = html[html.index('id="proposal-1"') : html.index('id="proposal-2"')]
    assert "USER#<wbr>{userId}" in first and "PROFILE" in first
    # Without keeping it, the solver names the profile after its entity.
    assert propose(social_design).best.design.entity("User").keys["SK"].template == (
        "USER"
    )
    cache.clear()  # adopting proposes again, keeping the same keys
    adopt = {"version": 1, "keep": ["User"]}
    html = _html(owner_client.post(_adopt_url(social, 1), adopt))
    assert 'type="hidden" name="keep" value="User"' in html
    owner_client.post(_adopt_url(social, 1), adopt)
    saved = stored_design(social)
    assert saved.entity("User").keys["SK"].template == "PROFILE"


def test_adopting_a_proposal_other_than_the_one_shown_is_refused(
    owner_client: Client, social: Project
):
    owner_client.post(_url(social))

    response = owner_client.post(
        _adopt_url(social, 1), {"version": 1, "digest": "not-what-was-shown"}
    )

    assert response.status_code == 409
    assert "propose again" in _html(response)
    social.refresh_from_db()
    assert social.version == 1


def test_a_refused_keep_from_htmx_lands_in_the_proposals_alone(
    owner_client: Client, social: Project
):
    response = owner_client.post(_url(social), {"keep": ["Nobody"]}, **HTMX)

    assert response.status_code == 422
    html = _html(response)
    assert html.lstrip().startswith('<div id="proposals"')
    assert "Nobody is not one of the available choices" in html


def test_keeping_an_entity_the_design_lacks_is_refused(
    owner_client: Client, social: Project
):
    response = owner_client.post(_url(social), {"keep": ["Nobody"]})

    assert response.status_code == 422
    assert "Select a valid choice. Nobody is not one of the available choices." in (
        _html(response)
    )
    assert "proposal-grid" not in _html(response)
