"""The History section in Chromium: a change saved, the revision listed,
compared with the one before (its consequences loaded after), named, and
the old revision restored."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from modeler.services import projects as project_services
from tests.views.conftest import example_design, stored_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"


def test_history_compare_name_and_restore(page: Page, screenshot) -> None:
    owner = User.objects.create_user("ines", password=PASSWORD)
    project = project_services.project_create(
        owner=owner, design=example_design("order-management")
    )
    original = stored_design(project).entity("Customer").description
    page.goto("/login/")
    page.fill("#id_username", "ines")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"/projects/{project.pk}/entities/Customer/")
    page.fill("#id_description", "Customers who ordered at least once")
    page.click("text=Save Customer")
    expect(page.locator(".toast", has_text="Saved Customer.").first).to_be_visible()

    page.click("nav.tabs >> text=History")
    expect(page).to_have_url(re.compile(r"/history/$"))
    row = page.locator("#revision-2")
    expect(row).to_contain_text("changed entity Customer (description)")
    expect(row).to_contain_text("ines")
    row.locator("text=Changes").click()
    expect(page.locator("#diff-heading")).to_have_text("Revision 1 → revision 2")
    expect(page.locator(".diff-after")).to_contain_text(
        "Customers who ordered at least once"
    )
    expect(page.locator(".consequence-sentence")).to_contain_text(
        "This change costs the same on demand.", timeout=60_000
    )
    screenshot("history-01-compare")

    page.click("text=All revisions")
    page.locator("#revision-1 summary").click()
    page.fill("#label-1", "as imported")
    page.locator("#revision-1 button:text('Name')").click()
    expect(page.locator(".toast", has_text="Named revision 1")).to_be_visible()
    expect(page.locator("#revision-1 .revision-label")).to_have_text("as imported")
    page.locator("#revision-1 summary").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button:text('Restore revision 1')")
    expect(
        page.locator(".toast", has_text="Restored revision 1 as revision 3")
    ).to_be_visible()
    expect(page.locator("#revision-3")).to_contain_text(
        "restored revision 1 (as imported)"
    )
    screenshot("history-02-restored")
    assert stored_design(project).entity("Customer").description == original
