"""The Migration tab of History's compare in Chromium: from the changes of
revision 1 to 2, the tab asks a worker for the proof as it loads, shows
the verdict and the steps when it comes, and downloads the script."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from playwright.sync_api import Page, expect

from modeler.design import model as d
from modeler.jobs import migration_proofs
from modeler.models import Project
from modeler.services import projects as project_services
from modeler.services.projects import project_revision_design
from tests.browser.conftest import _watched_page
from tests.evolution import revisions

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"
# The proof makes and migrates the sample data: seconds of CPU.
PROOF_TIMEOUT_MS = 60_000


def _two_revisions_logged_in(page: Page, name: str, second: d.Design) -> Project:
    """A project of `name`'s at the example (small), then `second` as
    revision 2; `name` logged in on `page`."""
    owner = User.objects.create_user(name, password=PASSWORD)
    project = project_services.project_create(
        owner=owner, design=revisions.smaller(revisions.original(), 3)
    )
    project_services.project_save_design(
        project=project,
        design=revisions.smaller(second, 3),
        version=project.version,
        author=owner,
    )
    page.goto("/login/")
    page.fill("#id_username", name)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    return project


def test_the_migration_tab_proves_the_plan_and_downloads_the_script(
    page: Page, screenshot
) -> None:
    project = _two_revisions_logged_in(page, "jun", revisions.gsi_added())
    page.goto(f"/projects/{project.pk}/history/compare/?before=1&after=2")
    expect(page.locator("#diff-heading")).to_have_text("Revision 1 → revision 2")

    page.click("nav.compare-tabs >> text=Migration")
    expect(page).to_have_url(re.compile(r"/history/compare/migration/\?before=1"))
    expect(page.locator("nav.compare-tabs a[aria-current=page]")).to_have_text(
        "Migration"
    )
    expect(page.locator(".migration-changes")).to_contain_text("GSI4")
    verdict = page.locator(".migration-verdict")
    expect(verdict).to_contain_text(
        "Proven on the sample data.", timeout=PROOF_TIMEOUT_MS
    )
    steps = page.locator(".migration-steps tbody tr")
    expect(steps.filter(has_text="create GSI GSI4")).to_have_count(1)
    expect(steps.first).to_contain_text("dual-write")
    expect(page.locator(".migration-patterns")).to_contain_text(
        "Line items of a product: passes"
    )
    expect(page.locator(".migration-total")).to_contain_text("$")
    screenshot("history-migration-01-proven")

    with page.expect_download() as download:
        page.click("text=Download the script (Python, boto3)")
    assert download.value.suggested_filename.endswith("-r1-r2-migrate.py")
    with page.expect_download() as download:
        page.click("text=Download the table changes (Terraform, 1 stage)")
    assert download.value.suggested_filename.endswith("-r1-r2-terraform.zip")


def test_the_tab_of_a_project_deleted_meanwhile_says_so_and_stops_polling(
    browser, live_server, debug, screenshot
) -> None:
    # Watched as `page` is, but the 404 of a poll is what this test
    # expects to see.
    problems: list[str] = []
    page = _watched_page(browser, live_server.url, problems)
    owner = User.objects.create_user("ana", password=PASSWORD)
    project = project_services.project_create(
        owner=owner, design=revisions.smaller(revisions.original(), 3)
    )
    project_services.project_save_design(
        project=project,
        design=revisions.smaller(revisions.gsi_added(), 3),
        version=project.version,
        author=owner,
    )
    # A worker is proving it: the tab polls for how far it is.
    key = migration_proofs._key(
        project,
        project_revision_design(project=project, number=1),
        project_revision_design(project=project, number=2),
    )
    cache.set(migration_proofs._pending(key), ("rewriting", 10, 40), 600)
    page.goto("/login/")
    page.fill("#id_username", "ana")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"/projects/{project.pk}/history/compare/migration/?before=1&after=2")
    expect(page.locator("#migration-proof")).to_contain_text(
        "running the migration script on it, 10 of 40"
    )
    # Another member deletes the project: the next poll (the proof's or
    # the presence's, whichever comes first) says so, as every page does,
    # and the proof's poll stops.
    project_services.project_delete(project=project)
    expect(page.locator("#project-gone")).to_contain_text(
        "This project is no longer open to you"
    )
    expect(page.locator("#migration-proof")).to_contain_text("10 of 40")
    expect(page.locator('[hx-trigger*="every"]')).to_have_count(0)
    screenshot("history-migration-02-deleted", page)
    page.context.close()
    unexpected = [p for p in problems if "status of 404 (Not Found)" not in p]
    assert unexpected == [], "\n".join(unexpected)
    assert problems  # the poll's 404 was seen


def test_a_resorted_index_is_saved_the_proven_way_and_then_proven(
    page: Page, screenshot
) -> None:
    project = _two_revisions_logged_in(page, "mio", revisions.index_resorted())
    page.goto(f"/projects/{project.pk}/history/compare/migration/?before=1&after=2")
    expect(page.locator(".migration-verdict")).to_contain_text(
        "Not proven", timeout=PROOF_TIMEOUT_MS
    )
    alternative = page.locator(".migration-alternative")
    expect(alternative).to_contain_text("GSI GSI1 rebuilt beside itself as GSI4")
    expect(alternative.locator(".migration-alternative-steps li")).to_contain_text(
        ["create GSI GSI4", "delete GSI GSI1"]
    )
    screenshot("history-migration-03-alternative")
    with page.expect_download() as download:
        alternative.locator("text=Download that design").click()
    assert download.value.suggested_filename.endswith("-r1-r2-alternative.yaml")

    alternative.locator("button", has_text="Save it as revision 3").click()
    expect(page).to_have_url(
        re.compile(r"/history/compare/migration/\?before=1&after=3")
    )
    expect(page.locator("#diff-heading")).to_have_text("Revision 1 → revision 3")
    expect(page.locator(".migration-verdict")).to_contain_text(
        "Proven on the sample data.", timeout=PROOF_TIMEOUT_MS
    )
    expect(page.locator(".migration-alternative")).to_have_count(0)
    expect(
        page.locator(".migration-steps tbody tr").filter(has_text="delete GSI GSI1")
    ).to_have_count(1)
