"""A new user's first minutes: sign up, create a project, import a design,
read it, delete a project after confirming."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from modeler.models import Project

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
PROJECT_URL = re.compile(r"/projects/\d+/$")


def test_sign_up_create_import_view_and_delete(page, screenshot, sign_up):
    sign_up("ada")
    expect(page).to_have_url(re.compile(r"/$"))
    assert page.locator("h1").inner_text() == "Projects"
    screenshot("01-empty-project-list")

    page.fill("#id_name", "Scratch pad")
    page.click("text=Create project")
    expect(page).to_have_url(PROJECT_URL)
    assert page.locator("h1").inner_text() == "Scratch pad"
    assert page.locator(".toast").first.inner_text() == "Created Scratch pad."

    page.click("text=Projects")
    page.set_input_files("#import_file", str(EXAMPLES / "order-management.yaml"))
    page.click("button:text('Import')")
    expect(page).to_have_url(PROJECT_URL)
    assert page.locator("h1").inner_text() == "Order management"
    assert page.locator(".entity-chip", has_text="LineItem").first.is_visible()
    assert page.locator(
        "code", has_text="ORDER#{orderDate}#{orderId}"
    ).first.is_visible()
    screenshot("02-design-overview")

    # A broken file is refused with its problems, and the text is kept.
    page.click("text=Projects")
    broken = (
        (EXAMPLES / "social-graph.yaml")
        .read_text()
        .replace("FOLLOWS#{followedId}", "FOLLOWS#{folowedId}")
    )
    page.fill("#import_text", broken)
    page.click("button:text('Import')")
    problem = page.locator(".problem", has_text="unknown attribute 'folowedId'")
    assert problem.is_visible()
    assert "entities.Follow.keys.SK" in problem.inner_text()
    assert page.locator("#import_text").input_value() == broken
    assert Project.objects.filter(name="Social graph").count() == 0
    screenshot("03-import-problems")

    # Deleting asks first, saying what goes with the project; cancelling
    # keeps it.
    page.locator("tr", has_text="Scratch pad").locator("text=Delete…").click()
    assert "cannot be undone" in page.locator("main").inner_text()
    screenshot("04-delete-confirmation")
    page.click("text=Cancel")
    assert Project.objects.filter(name="Scratch pad").exists()
    page.click("text=Projects")
    page.locator("tr", has_text="Scratch pad").locator("text=Delete…").click()
    page.click("button:text('Delete project')")
    page.wait_for_selector(".toast:text('Deleted Scratch pad.')")
    assert not Project.objects.filter(name="Scratch pad").exists()
    assert page.locator("tr", has_text="Order management").is_visible()
