"""A design review in Chromium: the owner opens a review on the current
revision with a member, both comment on an entity, the member replies, the
owner approves; after a later change the comment shows as outdated and the
Overview says the design changed since the approved revision. (The
presentation of a review: test_review_meeting_journey.py.)"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from modeler.models import Role
from modeler.services import members as member_services
from modeler.services import projects as project_services
from tests.views.conftest import example_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"


def _log_in(page: Page, username: str) -> None:
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")


def test_a_whole_review(page: Page, other_page: Page, screenshot) -> None:
    owner = User.objects.create_user("olga", password=PASSWORD)
    member = User.objects.create_user("mo", password=PASSWORD)
    project = project_services.project_create(
        owner=owner, design=example_design("order-management")
    )
    member_services.membership_set(project=project, user=member, role=Role.VIEWER)
    _log_in(page, "olga")
    _log_in(other_page, "mo")

    page.goto(f"/projects/{project.pk}/")
    page.click("nav.tabs >> text=Reviews")
    expect(page).to_have_url(re.compile(r"/reviews/$"))
    page.fill("#id_title", "Key design review")
    page.check(f"input[name=participants][value='{member.pk}']")
    page.click("text=Open the review")
    expect(page.locator("#session-heading")).to_have_text("Key design review")
    review_url = page.url

    other_page.goto(review_url)
    order = other_page.locator("section[aria-label='Entity Order']")
    order.locator("summary", has_text="Comment").first.click()
    order.locator("textarea").first.fill("Should the SK start with the date?")
    order.locator("button", has_text="Comment").first.click()
    expect(other_page.locator(".toast", has_text="Comment added.")).to_be_visible()

    page.goto(review_url)
    thread = page.locator(".comment-thread").first
    expect(thread).to_contain_text("Should the SK start with the date?")
    thread.locator("summary:text('Reply')").click()
    thread.locator("textarea").fill("ORDER# first keeps other kinds apart.")
    thread.locator("button:text('Reply')").click()
    expect(page.locator(".comment-reply")).to_contain_text("keeps other kinds apart")
    page.click("button:text('Approve revision 1')")
    expect(page.locator("[data-review-status]")).to_have_text("Approved")
    screenshot("review-01-approved")

    # A later change: the comment is outdated, the Overview says so.
    page.goto(f"/projects/{project.pk}/entities/Order/")
    page.fill("#id_description", "Changed after the review")
    page.click("text=Save Order")
    expect(page.locator(".toast", has_text="Saved Order.").first).to_be_visible()
    other_page.goto(review_url)
    expect(other_page.locator(".comment-thread").first).to_contain_text("outdated")
    other_page.goto(f"/projects/{project.pk}/")
    expect(other_page.locator("[data-changed-since-approval]")).to_contain_text(
        "Changed since the approved revision 1"
    )
    screenshot("review-02-changed-since", other_page)
