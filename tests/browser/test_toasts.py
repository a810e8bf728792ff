"""Messages shown as toasts: one message reaching two htmx responses at
once (a form's redirect and a progress poll sent before the redirect
consumed it) is shown once."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOW = """(messages) => document.body.dispatchEvent(
  new CustomEvent("showMessage", {detail: {messages}}))"""


@pytest.mark.parametrize("debug", [False], ids=["debug-off"], indirect=True)
def test_a_message_two_responses_carry_is_shown_once(page: Page) -> None:
    page.goto("/login/")
    seed = {"message": "The sample data now comes from seed 7.", "level": "success"}

    page.evaluate(SHOW, [seed])
    page.evaluate(SHOW, [seed])

    expect(page.locator(".toast", has_text="seed 7")).to_have_count(1)
    # Another message, or the same at another level, is shown beside it.
    page.evaluate(SHOW, [{**seed, "level": "warning"}, {"message": "Saved Order."}])
    expect(page.locator(".toast")).to_have_count(3)
