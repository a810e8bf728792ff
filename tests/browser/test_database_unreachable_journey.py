"""A save made while the database restarts, in Chromium: the form keeps
what was typed and says that nothing was saved, whether the save itself
met the restart (the form comes back with the reason) or the request could
not even load the page (a toast; the form is left as it is). Once the
database is back, the same Save saves."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.db import OperationalError
from playwright.sync_api import expect

from modeler.services import projects as project_services
from tests.browser.conftest import _watched_page
from tests.views.conftest import example_design, stored_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"
UNREACHABLE = "The database could not be reached; nothing was saved. Try again."
# Chromium's line for the 503 answers this test asks for.
_UNAVAILABLE = re.compile(r"status of 503\b")


def _dropped(*args, **kwargs):
    raise OperationalError("terminating connection due to administrator command")


def test_a_save_during_a_database_restart_keeps_the_input(
    browser, live_server, debug, monkeypatch
):
    owner = User.objects.create_user("ada", password=PASSWORD)
    project = project_services.project_create(
        owner=owner, design=example_design("order-management")
    )
    problems: list[str] = []
    page = _watched_page(browser, live_server.url, problems)
    page.goto("/login/")
    page.fill("#id_username", "ada")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.goto(f"/projects/{project.pk}/table/")
    page.fill("#id_ttl_attribute", "expiresAt")

    # The save meets the restart: the form comes back, as typed, saying so.
    with monkeypatch.context() as restarting:
        restarting.setattr(project_services, "project_edit", _dropped)
        page.click("text=Save table")
        expect(page.locator(".form-alert")).to_contain_text(UNREACHABLE)
    expect(page.locator("#id_ttl_attribute")).to_have_value("expiresAt")

    # The request cannot load the page at all: a toast, the form untouched.
    with monkeypatch.context() as down:
        down.setattr("modeler.views.editor.load", _dropped)
        page.click("text=Save table")
        expect(page.locator("#toasts .toast-error")).to_contain_text(UNREACHABLE)
    expect(page.locator("#id_ttl_attribute")).to_have_value("expiresAt")
    expect(page.locator("header.topbar")).to_be_visible()

    # Back: the same button saves.
    page.click("text=Save table")
    expect(page.locator("#toasts")).to_contain_text("Saved the table settings.")
    assert stored_design(project).table.ttl_attribute == "expiresAt"
    page.context.close()
    assert [p for p in problems if not _UNAVAILABLE.search(p)] == []
