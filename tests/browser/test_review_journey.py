"""A designer reviews a design before deploying it: open the Review tab,
read the findings and what the table will cost, then enter the prices and
the item count they expect, getting a clear error first."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from modeler.designfile import read_design
from modeler.models import ReviewSettings
from modeler.services import projects as project_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# The review simulates every pattern on the sample data first.
REVIEW_TIMEOUT_MS = 60_000


def test_review_findings_costs_and_prices(page, screenshot):
    owner = User.objects.create_user("ada", password="correct-horse-battery")
    # The telemetry example, its readings kept for 400 days rather than 30:
    # a device's collection would pass LSI1's 10 GB before they expire.
    text = (EXAMPLES / "device-telemetry.yaml").read_text()
    assert "{expires: {from: readingAt, days: 30}}" in text
    text = text.replace("days: 30}", "days: 400}")
    design = read_design(text).design
    project = project_services.project_create(owner=owner, design=design)

    page.goto("/login/")
    page.fill("#id_username", "ada")
    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")
    page.click("text=Device telemetry")
    page.click("nav.tabs >> text=Review")
    expect(page).to_have_url(
        re.compile(rf"/projects/{project.pk}/review/$"), timeout=REVIEW_TIMEOUT_MS
    )

    warnings = page.locator("#findings-warning")
    expect(warnings).to_contain_text(
        "Item collection can pass 10 GB", timeout=REVIEW_TIMEOUT_MS
    )
    expect(warnings).to_contain_text("levels off near")
    expect(page.locator(".review-summary")).to_contain_text("provisioned is cheaper")
    expect(page.locator(".capacity-table tbody tr")).to_have_count(
        len(design.access_patterns)
    )
    expect(page.locator(".cost-mode.is-cheaper h3")).to_have_text(
        "Provisioned for peak at 70%"
    )

    # A price with a stray minus sign: the form says what is wrong and keeps the input.
    page.fill("#id_stored_items", "50000000")
    page.fill("#id_wcu_hour", "-0.00065")
    page.click("text=Save prices")
    expect(page.locator(".field-invalid")).to_contain_text(
        "Ensure this value is greater than or equal to 0.", timeout=REVIEW_TIMEOUT_MS
    )
    expect(page.locator("#id_stored_items")).to_have_value("50000000")
    assert not ReviewSettings.objects.filter(project=project).exists()

    page.fill("#id_wcu_hour", "0.00065")
    page.click("text=Save prices")
    expect(page.locator(".toast")).to_contain_text(
        "uses the new settings", timeout=REVIEW_TIMEOUT_MS
    )
    expect(page.locator(".cost-mode[data-mode=storage]")).to_contain_text(
        "50,000,000 items"
    )
    assert ReviewSettings.objects.get(project=project).stored_items == 50_000_000

    page.evaluate("window.scrollTo(0, 0)")
    screenshot("review-device-telemetry")

    # A finding links to the part of the design it concerns.
    page.locator("#findings-warning .finding-location").first.click()
    expect(page).to_have_url(re.compile(rf"/projects/{project.pk}/table/#index-0$"))
