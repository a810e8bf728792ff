"""A designer asks for key designs: from the Entities section to Propose
keys, the proposals side by side with their own design, the differences
of one, then adopting it and taking it back with Undo."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from modeler.services import projects as project_services
from tests.views.conftest import example_design, stored_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"
# The solver simulates and reviews each proposal: seconds of CPU.
PROPOSE_TIMEOUT_MS = 60_000


def test_propose_compare_and_adopt_the_first(page: Page, screenshot) -> None:
    owner = User.objects.create_user("grace", password=PASSWORD)
    project = project_services.project_create(
        owner=owner, design=example_design("social-graph")
    )
    page.goto("/login/")
    page.fill("#id_username", "grace")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"/projects/{project.pk}/entities/")

    page.click("text=Propose keys")
    expect(page).to_have_url(re.compile(rf"/projects/{project.pk}/propose-keys/$"))
    expect(page.locator("#propose-heading")).to_have_text("Propose keys")
    page.click("button:text-is('Propose')")
    expect(page.locator("#proposing")).to_be_visible()
    expect(page.locator("button:text-is('Propose')")).to_be_disabled()

    columns = page.locator(".proposal-column")
    expect(columns).to_have_count(4, timeout=PROPOSE_TIMEOUT_MS)
    expect(columns.locator("h2")).to_have_text(
        ["Yours", "Proposal 1", "Proposal 2", "Proposal 3"]
    )
    # Side by side: one row, left to right.
    boxes = [columns.nth(i).bounding_box() for i in range(4)]
    assert len({round(box["y"]) for box in boxes}) == 1
    assert [box["x"] for box in boxes] == sorted(box["x"] for box in boxes)
    first = columns.nth(1)
    expect(first.locator(".proposal-verdict")).to_contain_text("Proven")
    expect(first.locator(".proposal-keymap")).to_contain_text("USER#{userId}")
    expect(first.locator(".proposal-served")).to_contain_text("GetItem on the table")
    screenshot("propose-keys-01-proposals")

    first.locator("text=Differences from yours").click()
    changes = page.locator("#proposal-1-changes")
    expect(changes).to_be_visible()
    expect(changes.locator(".diff-element").first).to_be_visible()
    screenshot("propose-keys-02-differences")

    first.locator("button:text('Adopt proposal 1')").click()
    expect(page).to_have_url(re.compile(rf"/projects/{project.pk}/entities/$"))
    expect(
        page.locator(".toast", has_text="Adopted proposal 1 as revision 2.")
    ).to_be_visible()
    expect(page.locator("[data-project-version]")).to_have_text("2")
    adopted = stored_design(project)
    assert adopted.entity("User").keys["PK"].template == "USER#{userId}"
    undo = page.locator("[data-undo]")
    expect(undo).to_have_text("Undo: adopted key proposal 1")
    expect(undo).to_be_enabled()
    screenshot("propose-keys-03-adopted")
