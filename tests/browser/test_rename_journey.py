"""A rename in the review meeting's numbers, in Chromium: an entity renamed
in the editor, then History's compare of the two revisions says the change
costs the same and changes no verdict or finding, and its key map marks no
cell; a template changed after it is the one cell marked (issue 39 item
1)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_editor_trust_journey import _log_in, _project
from tests.views.conftest import stored_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _saved(page: Page, text: str) -> None:
    expect(page.locator(".toast", has_text=text).first).to_be_visible()


def _unchanged_figures(page: Page) -> None:
    consequences = page.locator("#history-consequences")
    # The two reviews are simulated after the page shows.
    expect(page.locator(".consequence-sentence strong")).to_have_text(
        "This change costs the same on demand.", timeout=60_000
    )
    expect(consequences).not_to_contain_text("verdict changed")
    expect(consequences).not_to_contain_text("Findings gone")
    expect(consequences).not_to_contain_text("New findings")


def test_a_rename_changes_no_figure_of_the_compare(page: Page, screenshot) -> None:
    project = _project("rita")
    _log_in(page, "rita")
    page.goto(f"/projects/{project.pk}/entities/Order/")
    page.fill("#id_name", "Purchase")
    page.click("text=Save Order")
    _saved(page, "Saved Purchase.")

    page.click("nav.tabs >> text=History")
    page.locator("#revision-2 a", has_text="Changes").click()
    expect(page.locator("#diff-heading")).to_have_text("Revision 1 → revision 2")
    expect(page.locator("section.diff-element h3").first).to_contain_text(
        "entity Purchase"
    )
    _unchanged_figures(page)
    # No template changed: the key map's diff has nothing to mark.
    expect(page.locator(".diff-keymap")).to_have_count(0)
    expect(page.locator(".keymap-cell.is-changed")).to_have_count(0)
    screenshot("rename-01-compare-costs-the-same")

    # One template of the renamed entity changed: that cell alone is marked.
    page.goto(f"/projects/{project.pk}/entities/Purchase/")
    page.fill("#id_key-GSI3SK-template", "#PURCHASE")
    page.click("text=Save Purchase")
    _saved(page, "Saved Purchase.")
    page.goto(f"/projects/{project.pk}/history/")
    page.fill("#compare-before", "1")
    page.fill("#compare-after", "3")
    page.locator("#history-compare button").click()
    expect(page.locator("#diff-heading")).to_have_text("Revision 1 → revision 3")
    marked = page.locator(".keymap-cell.is-changed")
    expect(marked).to_have_count(1)
    expect(marked).to_have_text("changed: #PURCHASE")
    row = page.locator(".diff-keymap tr", has=marked)
    expect(row.locator("th")).to_have_text("Purchase")
    screenshot("rename-02-one-cell-marked")
    assert stored_design(project).entity("Purchase").keys["GSI3SK"].template == (
        "#PURCHASE"
    )
