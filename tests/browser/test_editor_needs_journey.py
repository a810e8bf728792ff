"""A pattern stated by what it needs, in Chromium: choosing "Not keyed
yet" hides the index and the key condition (and brings them back when a
keyed operation is chosen again), the expectation fields state what it
needs, and the saved pattern is listed as having no key yet."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from modeler.design import model as d
from tests.browser.test_editor_details_journey import _project_of, _shot
from tests.views.conftest import stored_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_state_a_pattern_by_what_it_needs(page: Page, screenshot) -> None:
    project = _project_of(page, "noor", "order-management")
    page.goto(f"/projects/{project.pk}/patterns/")
    page.click("text=Add an access pattern")
    page.fill("#id_new-name", "Big orders of a customer")
    expect(page.locator("#id_new-index")).to_be_visible()
    page.select_option("#id_new-operation", "needs")
    expect(page.locator("#id_new-index")).to_be_hidden()
    expect(page.locator("#pattern-op-new [data-unkeyed-note]")).to_be_visible()
    expect(page.locator("#pattern-op-new .pattern-keys")).to_have_count(0)
    expect(page.locator("#id_new-filter")).to_be_hidden()
    page.check("#pattern-form input[name='new-expects_entities'][value='Order']")
    page.fill("#id_new-where-0-attribute", "customerId")
    page.fill("#id_new-where-0-value", "{customerId}")
    page.fill("#id_new-order_by", "-total")
    page.fill("#id_new-limit", "10")
    expect(page.locator("#pattern-request")).to_contain_text(
        "the pattern is stated by what it needs"
    )
    _shot(page, screenshot, "editor-needs-01-not-keyed-yet")
    # A keyed operation brings the index and key back; needs again hides them.
    page.select_option("#id_new-operation", "Query")
    expect(page.locator("#id_new-index")).to_be_visible()
    expect(page.locator("#pattern-op-new .pattern-keys")).to_be_visible()
    page.select_option("#id_new-operation", "needs")
    expect(page.locator("#id_new-index")).to_be_hidden()
    page.click("text=Add pattern")
    expect(
        page.locator(".toast", has_text="Added the access pattern").first
    ).to_be_visible()
    pattern = stored_design(project).access_patterns[-1]
    assert (pattern.name, pattern.keyed, pattern.limit) == (
        "Big orders of a customer",
        False,
        10,
    )
    assert pattern.expects == d.Expectation(
        ("Order",), (d.Predicate("customerId", "=", ("{customerId}",)),), ("-total",)
    )
    card = page.locator(".pattern-card", has_text="Big orders of a customer")
    expect(card.locator(".badge").first).to_have_text("no key yet")
    _shot(page, screenshot, "editor-needs-02-listed")
