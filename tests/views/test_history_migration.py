"""History's compare has a Migration tab (issue 34): the plan from one
revision to the other, its steps in order with their costs, the proof's
verdict made by a worker (a GET looks it up, a POST asks for it) and the
downloads. Outsiders get 404; viewers may see, download and ask for the
proof, as they may run a simulation: nothing in the design changes."""

from __future__ import annotations

import dataclasses
import io
import re
import zipfile

import pytest
from django.core.cache import cache
from django.test import Client

from modeler.jobs import migration_proofs
from modeler.services import projects as project_services
from modeler.services.projects import project_revision_design
from tests.evolution import revisions
from tests.views.conftest import project_at_two_revisions, project_with_members

HTMX = {"HTTP_HX_REQUEST": "true"}


def _two_revisions(first, owner, editor, viewer):
    """A project at revision `first` (small), then revision 2 with a new
    GSI for a new access pattern."""
    return project_at_two_revisions(
        revisions.smaller(first, 3),
        revisions.smaller(revisions.gsi_added(), 3),
        owner=owner,
        editor=editor,
        viewer=viewer,
    )


@pytest.fixture
def migrated(owner, editor, viewer):
    """A project at revision 1 (the example, small), then revision 2 with a
    new GSI for a new access pattern."""
    return _two_revisions(revisions.original(), owner, editor, viewer)


def _url(project, tail: str = "", before: int = 1, after: int = 2) -> str:
    return (
        f"/projects/{project.pk}/history/compare/migration/{tail}"
        f"?before={before}&after={after}"
    )


def _text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode())


@pytest.mark.django_db
def test_the_tab_asks_for_the_proof_and_shows_the_proven_plan(
    migrated, viewer_client: Client
):
    page = _text(viewer_client.get(_url(migrated)))
    # A GET asks nothing: the page carries the start form, posted as it loads.
    assert 'class="answer-start"' in page
    assert "waiting for a worker" in page
    assert "Online table change" in page and "GSI4" in page
    assert cache.get(migration_proofs._pending(_key(migrated))) is None

    # The viewer may start it, as a simulation (the task runs at once here).
    response = viewer_client.post(_url(migrated), **HTMX)
    assert response.status_code == 204

    page = _text(viewer_client.get(_url(migrated)))
    assert "answer-start" not in page
    assert "<strong>Proven on the sample data</strong>." in page
    assert "Line items of a product: passes" in page
    assert "create GSI GSI4" in page
    # The steps in order: the GSI is created before the application that
    # reads it is deployed.
    assert page.index("create GSI GSI4") < page.index("application deploy")
    assert "Download the plan" in page
    assert 'aria-current="page">Migration</a>' in page


def _key(project) -> str:
    before = project_revision_design(project=project, number=1)
    after = project_revision_design(project=project, number=2)
    return migration_proofs._key(project, before, after)


@pytest.mark.django_db
def test_while_the_worker_proves_it_the_tab_shows_how_far(
    migrated, owner_client: Client
):
    cache.set(migration_proofs._pending(_key(migrated)), ("rewriting", 40, 160), 60)
    page = _text(owner_client.get(_url(migrated), **HTMX))
    assert "running the migration script on it, 40 of 160" in page
    assert 'value="25"' in page
    assert 'hx-trigger="every 1s"' in page
    # Asked again meanwhile, nothing else is queued.
    owner_client.post(_url(migrated), **HTMX)
    assert cache.get(_key(migrated)) is None


@pytest.mark.django_db
def test_a_plan_that_cannot_be_made_says_why_and_can_be_tried_again(
    migrated, owner_client: Client, monkeypatch
):
    def refuse(*args, **kwargs):
        raise migration_proofs.PlanError("the table 'Orders' has no key")

    monkeypatch.setattr(migration_proofs, "plan_migration", refuse)
    owner_client.post(_url(migrated))
    page = _text(owner_client.get(_url(migrated)))
    assert (
        "The migration cannot be planned: the table &#x27;Orders&#x27; has no key."
        in page
    )
    assert "Prove it again" in page
    monkeypatch.undo()
    response = owner_client.post(_url(migrated), {"again": "1"})
    assert response.status_code == 302
    page = _text(owner_client.get(_url(migrated)))
    assert "<strong>Proven on the sample data</strong>" in page


@pytest.mark.django_db
def test_the_downloads(migrated, viewer_client: Client):
    script = viewer_client.get(_url(migrated, "script.py"))
    assert script.status_code == 200
    assert script["Content-Disposition"].endswith('-r1-r2-migrate.py"')
    text = script.content.decode()
    compile(text, "migrate.py", "exec")  # runnable Python
    assert "--dry-run" in text and "--verify" in text

    archive = viewer_client.get(_url(migrated, "terraform.zip"))
    assert archive["Content-Type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(archive.content)) as opened:
        names = opened.namelist()
        assert names == ["01-create-gsi-gsi4.tf"]
        assert "GSI4" in opened.read(names[0]).decode()
    cloudformation = viewer_client.get(_url(migrated, "cloudformation.zip"))
    assert cloudformation.status_code == 200
    assert viewer_client.get(_url(migrated, "pulumi.zip")).status_code == 404

    # The plan as text once a worker has made it.
    assert viewer_client.get(_url(migrated, "plan.txt")).status_code == 404
    viewer_client.post(_url(migrated))
    plan = viewer_client.get(_url(migrated, "plan.txt"))
    assert plan.status_code == 200
    assert "Verdict: proven on the sample data" in plan.content.decode()


@pytest.mark.django_db
def test_outsiders_get_404_and_a_get_writes_nothing(
    migrated, outsider_client: Client, owner_client: Client
):
    for tail in ("", "script.py", "terraform.zip", "plan.txt"):
        assert outsider_client.get(_url(migrated, tail)).status_code == 404
    assert outsider_client.post(_url(migrated)).status_code == 404
    assert cache.get(migration_proofs._pending(_key(migrated))) is None
    assert owner_client.get(_url(migrated, after=9)).status_code == 404
    owner_client.get(_url(migrated))
    assert cache.get(_key(migrated)) is None


@pytest.mark.django_db
def test_the_changes_tab_links_to_the_migration(migrated, owner_client: Client):
    page = _text(
        owner_client.get(f"/projects/{migrated.pk}/history/compare/?before=1&after=2")
    )
    assert (
        f'href="/projects/{migrated.pk}/history/compare/migration/?before=1&amp;after=2"'
        in page
    )


@pytest.mark.django_db
def test_post_needs_csrf(migrated, viewer):
    client = Client(enforce_csrf_checks=True)
    client.force_login(viewer)
    assert client.post(_url(migrated)).status_code == 403


@pytest.mark.django_db
def test_a_proof_past_the_simulation_budget_names_the_setting(
    migrated, owner_client: Client, settings
):
    settings.SIMULATION_CPU_SECONDS = 0.001
    owner_client.post(_url(migrated))
    page = _text(owner_client.get(_url(migrated)))
    assert "The proof passed the 0 s CPU budget of a simulation" in page
    assert "(SIMULATION_CPU_SECONDS)" in page
    assert "Proven" not in page


@pytest.mark.django_db
def test_the_tab_shows_both_phases_and_the_patterns_of_each_revision(
    owner, editor, viewer, owner_client: Client
):
    # Making the email index sparse: the customers without a phone keep
    # their index keys until the cleanup, which the deployed version reads.
    project = project_with_members(
        revisions.smaller(revisions.original(), 3),
        owner=owner,
        editor=editor,
        viewer=viewer,
    )
    project_services.project_save_design(
        project=project,
        design=revisions.smaller(revisions.index_made_sparse(), 3),
        version=project.version,
        author=owner,
    )
    owner_client.post(_url(project))
    page = _text(owner_client.get(_url(project)))
    assert "<strong>Proven on the sample data</strong>" in page
    rewrite = page.index("Run the script: rewrite the items")
    deploy = page.index("Deploy the application version of the new design")
    cleanup = page.index("Run the script with --cleanup")
    assert rewrite < deploy < cleanup
    assert "its own checkpoint" in page
    assert (
        "Revision 1's patterns at the dual-write step, after the rewrite and "
        "before the cleanup" in page
    )
    old = page[page.index('class="small migration-old-patterns"') :]
    assert "Find customer by email: passes" in old
    plan = owner_client.get(_url(project, "plan.txt")).content.decode()
    assert "Run the script with --cleanup" in plan
    assert "- at the dual-write step, deployed pattern Find customer by email: " in plan


@pytest.mark.django_db
def test_the_script_downloaded_is_the_one_the_proof_ran(
    migrated, viewer_client: Client
):
    viewer_client.post(_url(migrated))
    state = migration_proofs.migration_proof_find(
        project=migrated,
        before=project_revision_design(project=migrated, number=1),
        after=project_revision_design(project=migrated, number=2),
    )
    assert state.plan is not None and state.plan.proven
    script = viewer_client.get(_url(migrated, "script.py")).content.decode()
    # Byte for byte: its plan's fingerprint (which its checkpoints carry)
    # and its title, which names the revisions.
    assert script == state.plan.script
    assert f"Migrate {migrated.name} from revision 1 to 2" in script


@pytest.fixture
def keyed_later(owner, editor, viewer):
    """A project whose revision 1 has no table keys yet (a schema imported
    from SQL), then revision 2 with its keys and a new GSI."""
    return _two_revisions(
        revisions.keyless(revisions.original()), owner, editor, viewer
    )


@pytest.mark.django_db
def test_a_revision_without_table_keys_is_refused_alone(
    keyed_later, viewer_client: Client
):
    page = _text(viewer_client.get(_url(keyed_later)))
    assert (
        "This migration cannot be planned: revision 1 cannot have been deployed: "
        "Customer, Order, LineItem have no table key yet" in page
    )
    # The message alone: no change planned from a key the items never had,
    # no downloads, no proof to start or start again.
    assert "written under its new key" not in page
    assert "GSI4" not in page
    assert "migration-downloads" not in page and "Download the" not in page
    assert "answer-start" not in page and "Prove it again" not in page
    assert "migration-proof" not in page
    for tail in ("script.py", "terraform.zip", "cloudformation.zip", "plan.txt"):
        assert viewer_client.get(_url(keyed_later, tail)).status_code == 404, tail

    # The other way round, the revision to deploy is the one without keys.
    page = _text(viewer_client.get(_url(keyed_later, before=2, after=1)))
    assert (
        "This migration cannot be planned: revision 1 cannot be deployed: "
        "Customer, Order, LineItem have no table key yet: propose keys" in page
    )
    assert "migration-downloads" not in page and "migration-proof" not in page


@pytest.mark.django_db
def test_an_unplannable_migration_says_the_planners_reason(
    migrated, viewer_client: Client, monkeypatch
):
    from modeler.views import history_migration

    def refuse(*args, **kwargs):
        raise history_migration.PlanError(
            "entity Order, key SK: template 'ORDER#{orderDate': unclosed {"
        )

    monkeypatch.setattr(history_migration, "plan_migration", refuse)
    page = _text(viewer_client.get(_url(migrated)))
    assert (
        "This migration cannot be planned: entity Order, key SK: template "
        "&#x27;ORDER#{orderDate&#x27;: unclosed {." in page
    )
    assert "cannot be matched" not in page
    assert "migration-downloads" not in page and "Download the" not in page


@pytest.mark.django_db
def test_two_revisions_with_the_same_table_and_items_have_nothing_to_migrate(
    owner, editor, viewer, viewer_client: Client
):
    # Revision 2 changes the design's description only: no script to
    # download, no proof asked for as the page loads.
    design = revisions.smaller(revisions.original(), 3)
    project = project_with_members(design, owner=owner, editor=editor, viewer=viewer)
    project_services.project_save_design(
        project=project,
        design=dataclasses.replace(design, description="Reworded."),
        version=project.version,
        author=owner,
    )

    page = _text(viewer_client.get(_url(project)))

    assert "Nothing to migrate: the two revisions give the same table and items" in page
    assert "Download the script" not in page
    assert "answer-start" not in page and "migration-proof" not in page
