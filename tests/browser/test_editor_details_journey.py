"""The editor's finer settings in Chromium: an Order's Zipf sample count
switched to uniform (the fields follow the choice), an attribute's presence
behind its disclosure, a pattern whose form follows its operation (htmx,
the typed filter kept across the switch), and the design review's findings
appearing beside the entity and the pattern they concern."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from modeler.designfile import read_design
from modeler.services import projects as project_services
from tests.views.conftest import stored_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
REVIEW_TIMEOUT_MS = 60_000  # the review simulates every pattern first


def _shot(page: Page, screenshot, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(name)


def _project_of(page: Page, username: str, example: str):  # type: ignore[no-untyped-def]
    """A project of the example owned by a new user, signed in on `page`."""
    owner = User.objects.create_user(username, password="correct-horse-battery")
    design = read_design((EXAMPLES / f"{example}.yaml").read_bytes()).design
    project = project_services.project_create(owner=owner, design=design)
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")
    return project


def test_sample_counts_attribute_details_operations_and_findings(
    page: Page, screenshot
) -> None:
    project = _project_of(page, "lin", "order-management")

    # Entities: Order's Zipf count, switched to uniform.
    page.goto(f"/projects/{project.pk}/entities/Order/")
    expect(page.locator("#id_sample_s")).to_be_visible()
    expect(page.locator("#id_sample_min")).to_be_hidden()
    page.select_option("#id_sample_distribution", "uniform")
    expect(page.locator("#id_sample_min")).to_be_visible()
    expect(page.locator("#id_sample_s")).to_be_hidden()
    page.fill("#id_sample_min", "1")
    page.fill("#id_sample_max", "4")
    # shippedAt (row 5) is on half the items: set it to 30%.
    page.locator("#id_attr-5-presence").locator("xpath=ancestor::details").locator(
        "summary"
    ).click()
    page.fill("#id_attr-5-presence", "0.3")
    # The review's findings arrive after the section (none on entities).
    expect(page.locator("#review-loader-entities")).to_contain_text(
        "finds nothing to change in the entities", timeout=REVIEW_TIMEOUT_MS
    )
    _shot(page, screenshot, "editor-details-01-entity-sample-and-presence")
    page.click("text=Save Order")
    expect(page.locator(".toast", has_text="Saved Order.").first).to_be_visible()
    order = stored_design(project).entity("Order")
    assert (order.sample.count.distribution, order.sample.count.high) == (
        "uniform",
        4,
    )
    assert order.attribute("shippedAt").presence == 0.3

    # Access patterns: a Query turned into a transaction and back.
    page.goto(f"/projects/{project.pk}/patterns/")
    expect(page.locator("#review-pattern-1 summary .badge")).to_be_visible(
        timeout=REVIEW_TIMEOUT_MS
    )
    page.locator("#review-pattern-1 summary").click()
    expect(page.locator("#review-pattern-1 .finding").first).to_be_visible()
    _shot(page, screenshot, "editor-details-02-pattern-findings")
    # The table's indexes are reviewed too: the example's sparse GSI2 of
    # open orders is far from any limit, so nothing is raised on them.
    page.goto(f"/projects/{project.pk}/table/")
    expect(page.locator("#review-loader-indexes")).to_contain_text(
        "finds nothing to change in the indexes", timeout=REVIEW_TIMEOUT_MS
    )
    expect(page.locator("#indexes .review-findings-inline")).to_have_count(0)
    _shot(page, screenshot, "editor-details-03-index-findings")
    page.goto(f"/projects/{project.pk}/patterns/")
    page.locator("#pattern-2 >> text=Edit").click()
    page.fill("#id_p2-filter", "total > 100")
    page.select_option("#id_p2-operation", "TransactWriteItems")
    expect(
        page.locator("#pattern-op-p2 legend", has_text="Its actions")
    ).to_be_visible()
    expect(page.locator("#pattern-op-p2 .pattern-keys")).to_have_count(0)
    page.select_option("#id_p2-action-0-operation", "ConditionCheck")
    page.select_option("#id_p2-action-0-entity", "Customer")
    page.fill("#id_p2-action-0-key-PK", "CUST#{customerId}")
    page.fill("#id_p2-action-0-key-SK", "PROFILE")
    expect(page.locator("#pattern-request")).to_contain_text("ConditionCheck")
    _shot(page, screenshot, "editor-details-04-pattern-actions")
    page.select_option("#id_p2-operation", "Query")
    expect(page.locator("#pattern-op-p2 .pattern-keys")).to_be_visible()
    expect(page.locator("#id_p2-filter")).to_have_value("total > 100")


def test_auto_scaling_fields_follow_the_choice_and_save(page: Page, screenshot) -> None:
    project = _project_of(page, "kim", "device-telemetry")

    page.goto(f"/projects/{project.pk}/table/")
    expect(page.locator("#id_auto_scaling")).to_have_value("default")
    expect(page.locator("#id_read_min")).to_be_hidden()
    page.select_option("#id_auto_scaling", "custom")
    expect(page.locator("#id_read_min")).to_be_visible()
    page.fill("#id_read_min", "2")
    page.fill("#id_read_max", "40")
    page.fill("#id_read_target", "60")
    _shot(page, screenshot, "editor-details-05-table-auto-scaling")
    page.click('button:text-is("Save table")')
    expect(
        page.locator(".toast", has_text="Saved the table settings.").first
    ).to_be_visible()
    capacity = stored_design(project).table.capacity
    assert capacity.scaling("read") is not None
    assert (capacity.scaling("read").maximum, capacity.scaling("write")) == (40, None)
    # On demand, the capacity and its auto scaling do not apply.
    page.select_option("#id_billing_mode", "PAY_PER_REQUEST")
    expect(page.locator("#id_auto_scaling")).to_be_disabled()
