"""A user changes their password and their email address from the account
page, reached from their name in the header, then logs in again with the
new password; a stranger's wrong passwords for that user, through the same
proxy, pause the stranger only."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core import mail
from playwright.sync_api import expect

from tests.browser.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEW_PASSWORD = "a-quite-new-battery"


def test_change_the_password_and_the_address(page, screenshot, sign_up):
    sign_up("grace")
    page.click("header >> text=grace")
    expect(page).to_have_url(re.compile(r"/account/$"))
    expect(page.locator("h1")).to_have_text("Your account")
    expect(page.locator(".account-email")).to_have_text("grace@example.com")
    screenshot("01-account-page")

    # A wrong current password is refused beside its field; the rest stays.
    page.fill("#id_old_password", "not-my-password")
    page.fill("#id_new_password1", NEW_PASSWORD)
    page.fill("#id_new_password2", NEW_PASSWORD)
    page.click("button:text('Change the password')")
    expect(
        page.locator(".field-invalid", has_text="That is not your current password.")
    ).to_be_visible()
    screenshot("02-wrong-current-password")
    page.fill("#id_old_password", PASSWORD)
    page.fill("#id_new_password1", NEW_PASSWORD)
    page.fill("#id_new_password2", NEW_PASSWORD)
    page.click("button:text('Change the password')")
    expect(page.locator(".toast", has_text="Your password is changed.")).to_be_visible()
    # Still logged in, in this browser.
    expect(page.locator("h1")).to_have_text("Your account")

    page.fill("#id_email", "grace.hopper@example.com")
    page.fill("#id_password", NEW_PASSWORD)
    page.click("button:text('Send a confirmation link')")
    expect(
        page.locator(".toast", has_text="We have sent a link to grace.hopper@")
    ).to_be_visible()
    # Nothing changes before the link is opened.
    expect(page.locator(".account-email")).to_have_text("grace@example.com")
    [message] = [m for m in mail.outbox if m.to == ["grace.hopper@example.com"]]
    link = re.search(r"https?://[^/\s]+(/account/email/confirm/\S+)", message.body)[1]

    page.goto(link)
    expect(page.locator("h1")).to_have_text("Confirm your new address")
    screenshot("03-confirm-the-address")
    page.click("button:text('Use this address')")
    expect(page).to_have_url(re.compile(r"/account/$"))
    expect(page.locator(".account-email")).to_have_text("grace.hopper@example.com")
    expect(
        page.locator(".toast", has_text="Your address is now grace.hopper@")
    ).to_be_visible()
    assert User.objects.get(username="grace").email == "grace.hopper@example.com"
    screenshot("04-address-changed")

    page.click("button:text('Log out')")
    expect(page).to_have_url(re.compile(r"/login/$"))
    page.fill("#id_username", "grace")
    page.fill("#id_password", NEW_PASSWORD)
    page.click("button:text('Log in')")
    expect(page.locator("h1")).to_have_text("Projects")


def test_a_stranger_behind_the_proxy_is_paused_and_the_owner_is_not(
    page, other_page, screenshot, sign_up, settings
):
    sign_up("grace")
    page.click("button:text('Log out')")
    expect(page).to_have_url(re.compile(r"/login/$"))
    # Both come through one proxy, which appends the address it saw.
    settings.TRUSTED_PROXY_COUNT = 1
    other_page.set_extra_http_headers({"X-Forwarded-For": "198.51.100.7"})
    page.set_extra_http_headers({"X-Forwarded-For": "203.0.113.9"})

    stranger = other_page
    stranger.goto("/login/")
    for _ in range(settings.AXES_FAILURE_LIMIT):
        stranger.fill("#id_username", "grace")
        stranger.fill("#id_password", "a-guess")
        with stranger.expect_navigation():
            stranger.click("button:text('Log in')")
    expect(stranger.locator("h1")).to_have_text("Too many failed logins")
    expect(stranger.locator("[role=alert]")).to_contain_text(
        "Logging in as this username from your address is paused after 5 wrong "
        "passwords. Try again in 15 minutes."
    )
    screenshot("05-paused-login", stranger)

    page.goto("/login/")
    page.fill("#id_username", "grace")
    page.fill("#id_password", PASSWORD)
    page.click("button:text('Log in')")
    expect(page.locator("h1")).to_have_text("Projects")
