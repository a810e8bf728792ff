"""Two people in one access pattern or index at once, in two Chromium
profiles, in the unkind orders (issue 39 items 3-4): one deletes the
pattern or the index the other is editing, or renames it, or both change
one pattern. Nothing typed is lost and each is told who did what."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import review_settled
from tests.browser.test_editor_trust_journey import _chrome_kept
from tests.browser.test_teamwork_journey import _saved, _team
from tests.views.conftest import example_design, stored_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PATTERNS = example_design("order-management").access_patterns


def _patterns(page: Page, project) -> None:
    page.goto(f"/projects/{project.pk}/patterns/")
    review_settled(page)


def _confirm_delete(page: Page, row: str, button: str) -> None:
    """Delete… in `row`, then the confirm `button`, once the list shown
    again with the question has its findings."""
    page.locator(f"{row} a", has_text="Delete…").click()
    expect(page.locator("form.confirm")).to_be_visible()
    review_settled(page)
    page.click(f"button:text('{button}')")


def _edit_pattern(page: Page, position: int) -> None:
    page.locator(f"#pattern-{position} a", has_text="Edit").click()
    expect(page.locator("#pattern-form")).to_be_visible()


def test_saving_a_pattern_someone_deleted_keeps_the_input(
    page: Page, other_page: Page, screenshot
) -> None:
    ann, bob = page, other_page
    project = _team(ann, bob)
    name = PATTERNS[1].name
    _patterns(ann, project)
    _edit_pattern(ann, 1)
    ann.fill("#id_p1-description", "Ann's careful words")
    _patterns(bob, project)
    _confirm_delete(bob, "#pattern-1", "Delete the pattern")
    _saved(bob, f"Deleted the access pattern '{name}'.")

    ann.click("button:text('Save pattern')")

    expect(ann.locator(".form-alert")).to_contain_text(
        f"bob deleted access pattern {name} just now"
    )
    expect(ann.locator("#id_p1-description")).to_have_value("Ann's careful words")
    expect(ann.locator("#pattern-form")).to_have_count(1)
    expect(ann.locator("nav.tabs")).to_have_count(1)
    _chrome_kept(ann)
    screenshot("teamwork-patterns-01-deleted-meanwhile", ann)

    ann.click("[data-save-as-new]")
    _saved(ann, f"Added the access pattern '{name}'.")
    saved = next(p for p in stored_design(project).access_patterns if p.name == name)
    assert saved.description == "Ann's careful words"


def test_saving_a_pattern_someone_renamed_follows_it(
    page: Page, other_page: Page
) -> None:
    ann, bob = page, other_page
    project = _team(ann, bob)
    _patterns(ann, project)
    _edit_pattern(ann, 2)
    ann.fill("#id_p2-description", "Ann's words")
    _patterns(bob, project)
    _edit_pattern(bob, 2)
    bob.fill("#id_p2-name", "Orders, newest first")
    bob.click("button:text('Save pattern')")
    _saved(bob, "Saved the access pattern 'Orders, newest first'.")

    ann.click("button:text('Save pattern')")

    _saved(ann, "Saved the access pattern 'Orders, newest first'.")
    expect(ann.locator("#pattern-2 h3")).to_contain_text("Orders, newest first")
    pattern = stored_design(project).access_patterns[2]
    assert (pattern.name, pattern.description) == (
        "Orders, newest first",
        "Ann's words",
    )


def test_both_change_one_pattern_and_keep_each_others_changes(
    page: Page, other_page: Page, screenshot
) -> None:
    ann, bob = page, other_page
    project = _team(ann, bob)
    _patterns(ann, project)
    _edit_pattern(ann, 1)
    _patterns(bob, project)
    _edit_pattern(bob, 1)
    bob.fill("#id_p1-description", "Bob's words")
    bob.fill("#id_p1-rps", "9")
    bob.click("button:text('Save pattern')")
    _saved(bob, "Saved the access pattern")
    ann.fill("#id_p1-description", "Ann's words")
    ann.click("button:text('Save pattern')")

    field = ann.locator("[data-conflict-field]")
    expect(field).to_have_count(1)
    expect(field.locator(".conflict-theirs-value")).to_have_value("Bob's words")
    expect(field.locator(".conflict-mine-value")).to_have_value("Ann's words")
    screenshot("teamwork-patterns-02-fields-both-changed", ann)

    ann.click("button:text('Keep mine')")
    _saved(ann, "Saved the access pattern")
    pattern = stored_design(project).access_patterns[1]
    assert pattern.description == "Ann's words"
    assert pattern.traffic.rps == 9


def test_saving_an_index_someone_renamed_or_deleted(
    page: Page, other_page: Page, screenshot
) -> None:
    ann, bob = page, other_page
    project = _team(ann, bob)
    table = f"/projects/{project.pk}/table/"
    ann.goto(table)
    ann.locator("#index-2 a", has_text="Edit").click()
    ann.select_option("#id_index-projection_type", "KEYS_ONLY")
    bob.goto(table)
    bob.locator("#index-2 a", has_text="Edit").click()
    bob.fill("#id_index-name", "GSI9")
    bob.click("button:text('Save GSI3')")
    _saved(bob, "Saved the index GSI9.")

    ann.click("button:text('Save GSI3')")

    _saved(ann, "Saved the index GSI9.")
    index = stored_design(project).table.index("GSI9")
    assert index.projection.type == "KEYS_ONLY"

    # Now Bob deletes it while Ann edits it again.
    ann.locator("#index-2 a", has_text="Edit").click()
    ann.select_option("#id_index-projection_type", "ALL")
    bob.goto(table)
    review_settled(bob)
    _confirm_delete(bob, "#index-2", "Delete GSI9")
    _saved(bob, "Deleted the index GSI9.")

    ann.click("button:text('Save GSI9')")

    expect(ann.locator(".form-alert")).to_contain_text(
        "bob deleted index GSI9 just now"
    )
    expect(ann.locator("#id_index-projection_type")).to_have_value("ALL")
    _chrome_kept(ann)
    screenshot("teamwork-patterns-03-index-deleted-meanwhile", ann)
    ann.click("[data-save-as-new]")
    _saved(ann, "Added the index GSI9.")
    assert stored_design(project).table.index("GSI9").projection.type == "ALL"


def test_a_save_on_an_older_table_page_shows_both_parts_as_saved(
    page: Page, other_page: Page
) -> None:
    ann, bob = page, other_page
    project = _team(ann, bob)
    table = f"/projects/{project.pk}/table/"
    ann.goto(table)
    review_settled(ann)
    ann.evaluate("window.notReloaded = true")
    bob.goto(table)
    bob.locator("#index-2 a", has_text="Edit").click()
    bob.fill("#id_index-name", "GSI9")
    bob.click("button:text('Save GSI3')")
    _saved(bob, "Saved the index GSI9.")

    # Ann saves the table's tags from her page of before: the indexes
    # beside her form come as Bob left them, with no reload.
    ann.fill("#id_tags", "team=orders")
    ann.click("button:text('Save table')")
    _saved(ann, "Saved the table settings.")
    expect(ann.locator("#index-2 code.key")).to_have_text("GSI9")
    expect(ann.locator('#indexes a[href*="/indexes/GSI3/"]')).to_have_count(0)
    assert ann.evaluate("window.notReloaded") is True

    # Bob changes the table class while Ann types a TTL attribute, then
    # saves an index: her typing stays, and saving it keeps Bob's class.
    bob.goto(table)
    bob.select_option("#id_table_class", "STANDARD_INFREQUENT_ACCESS")
    bob.click("button:text('Save table')")
    _saved(bob, "Saved the table settings.")
    ann.fill("#id_ttl_attribute", "expiresAt")
    ann.locator("#index-2 a", has_text="Edit").click()
    ann.select_option("#id_index-projection_type", "KEYS_ONLY")
    ann.click("button:text('Save GSI9')")
    _saved(ann, "Saved the index GSI9.")
    expect(ann.locator("#index-2 .index-facts")).to_contain_text("KEYS_ONLY")
    expect(ann.locator("#id_ttl_attribute")).to_have_value("expiresAt")
    settings = f"/projects/{project.pk}/table/settings/"
    with ann.expect_response(lambda r: r.url.endswith(settings)) as answer:
        ann.click("button:text('Save table')")
    assert answer.value.status == 200
    saved = stored_design(project).table
    assert (saved.ttl_attribute, saved.table_class) == (
        "expiresAt",
        "STANDARD_INFREQUENT_ACCESS",
    )
    assert saved.tags == (("team", "orders"),)
    assert ann.evaluate("window.notReloaded") is True
