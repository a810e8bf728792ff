"""Two people in one project at once, in two Chromium profiles, in the
unkind orders: one deletes or renames the entity the other is editing, both
change the same entity, one undoes after the other changed it. Nothing
typed is lost, each is told who did what, and the page is updated in
place."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from modeler.models import Role
from modeler.services import members as member_services
from tests.browser.conftest import _watched_page, review_settled
from tests.browser.test_editor_trust_journey import PASSWORD, _chrome_kept, _log_in
from tests.browser.test_editor_trust_journey import _project as _new_project
from tests.views.conftest import example_design, stored_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _team(ann: Page, bob: Page):
    project = _new_project("ann")
    member = User.objects.create_user("bob", password=PASSWORD)
    member_services.membership_set(project=project, user=member, role=Role.EDITOR)
    _log_in(ann, "ann")
    _log_in(bob, "bob")
    return project


def _saved(page: Page, text: str) -> None:
    expect(page.locator(".toast", has_text=text).first).to_be_visible()


def test_saving_an_entity_someone_deleted_keeps_the_input(
    page: Page, other_page: Page, screenshot
) -> None:
    ann, bob = page, other_page
    project = _team(ann, bob)
    entities = f"/projects/{project.pk}/entities/"
    ann.goto(entities + "LineItem/")
    ann.fill("#id_description", "Ann's careful words")
    bob.goto(entities + "LineItem/")
    review_settled(bob)
    bob.click("text=Delete LineItem…")
    expect(bob.locator("form.confirm")).to_be_visible()
    bob.click("button:text('Delete LineItem')")
    _saved(bob, "Deleted the entity LineItem.")

    ann.click("text=Save LineItem")

    expect(ann.locator(".form-alert")).to_contain_text(
        "bob deleted entity LineItem just now"
    )
    expect(ann.locator("#id_description")).to_have_value("Ann's careful words")
    # One workspace: not a second copy nested in the editor's place.
    expect(ann.locator("nav.tabs")).to_have_count(1)
    expect(ann.locator("#entity-editor")).to_have_count(1)
    _chrome_kept(ann)
    screenshot("teamwork-01-deleted-meanwhile", ann)

    ann.click("[data-save-as-new]")
    _saved(ann, "Added LineItem.")
    assert stored_design(project).entity("LineItem").description == (
        "Ann's careful words"
    )


def test_saving_an_entity_someone_renamed_follows_it(
    page: Page, other_page: Page
) -> None:
    ann, bob = page, other_page
    project = _team(ann, bob)
    entities = f"/projects/{project.pk}/entities/"
    ann.goto(entities + "Order/")
    ann.evaluate("window.notReloaded = true")
    ann.fill("#id_description", "Ann's orders")
    bob.goto(entities + "Order/")
    bob.fill("#id_name", "Purchase")
    bob.click("text=Save Order")
    _saved(bob, "Saved Purchase.")

    ann.click("text=Save Order")

    _saved(ann, "Saved Purchase.")
    expect(ann).to_have_url(re.compile(rf"{entities}Purchase/$"))
    expect(ann.locator("#id_name")).to_have_value("Purchase")
    # The list beside the form names it as Bob did, with no reload.
    expect(ann.locator("#entity-list [aria-current=page]")).to_contain_text("Purchase")
    expect(ann.locator('#entity-list a[href$="/entities/Order/"]')).to_have_count(0)
    assert ann.evaluate("window.notReloaded") is True
    design = stored_design(project)
    assert design.entity("Order") is None
    assert design.entity("Purchase").description == "Ann's orders"


def test_both_change_one_entity_and_keep_each_others_changes(
    page: Page, other_page: Page, screenshot
) -> None:
    ann, bob = page, other_page
    project = _team(ann, bob)
    url = f"/projects/{project.pk}/entities/Order/"
    ann.goto(url)
    bob.goto(url)
    # Bob adds an attribute and rewrites the description.
    bob.fill("#id_description", "Bob's orders")
    blank = len(example_design("order-management").entity("Order").attributes)
    bob.fill(f"#id_attr-{blank}-name", "giftWrap")
    bob.select_option(f"#id_attr-{blank}-type", "BOOL")
    bob.click("text=Save Order")
    _saved(bob, "Saved Order.")
    # Ann changes the description too, from the page she opened before.
    ann.fill("#id_description", "Ann's orders")
    ann.click("text=Save Order")

    field = ann.locator("[data-conflict-field=description]")
    expect(field.locator(".conflict-theirs-value")).to_have_value("Bob's orders")
    expect(field.locator(".conflict-mine-value")).to_have_value("Ann's orders")
    # Only the field both changed is asked; his attribute is in her form.
    expect(ann.locator("[data-conflict-field]")).to_have_count(1)
    expect(ann.locator(f"#id_attr-{blank}-name")).to_have_value("giftWrap")
    screenshot("teamwork-02-fields-both-changed", ann)

    ann.click("button:text('Keep mine')")
    _saved(ann, "Saved Order.")
    order = stored_design(project).entity("Order")
    assert order.description == "Ann's orders"
    assert "giftWrap" in [a.name for a in order.attributes]


def test_undo_passes_over_what_a_teammate_changed_in_place(
    page: Page, other_page: Page, screenshot
) -> None:
    ann, bob = page, other_page
    project = _team(ann, bob)
    entities = f"/projects/{project.pk}/entities/"
    original = example_design("order-management").entity("Order").description
    ann.goto(entities + "Order/")
    ann.fill("#id_description", "Ann's orders")
    ann.click("text=Save Order")
    _saved(ann, "Saved Order.")
    ann.click("#entity-list >> text=Customer")
    expect(ann.locator("#id_name")).to_have_value("Customer")
    ann.fill("#id_description", "Ann's customers")
    ann.click("text=Save Customer")
    _saved(ann, "Saved Customer.")
    # Bob changes the Customer Ann just changed.
    bob.goto(entities + "Customer/")
    bob.fill("#id_description", "Bob's customers")
    bob.click("text=Save Customer")
    _saved(bob, "Saved Customer.")

    # Ann is told where she is looking, naming who and what.
    _saved(ann, "bob changed entity Customer (description)")
    # Her Undo offered the Customer change: refused once, then the button
    # offers the older change it can undo, and says why.
    ann.evaluate("window.notReloaded = true")
    undo = ann.locator("[data-undo]")
    undo.click()
    expect(undo).to_have_text("Undo: changed entity Order (description)")
    expect(ann.locator("[data-undo-skipped]")).to_contain_text("changed since by bob")
    screenshot("teamwork-03-undo-passes-over", ann)
    undo.click()
    _saved(ann, "Undid: changed entity Order (description).")
    expect(undo).to_be_disabled()
    # In place, as a save: the page was not loaded again.
    assert ann.evaluate("window.notReloaded") is True
    design = stored_design(project)
    assert design.entity("Order").description == original
    assert design.entity("Customer").description == "Bob's customers"


def test_a_project_deleted_while_open_is_said_and_keeps_the_input(
    page: Page, browser, live_server, debug, screenshot
) -> None:
    ann = page
    # Bob's page is watched as `page` is, but the 404s of its poll and save
    # are what this test expects it to meet.
    problems: list[str] = []
    bob = _watched_page(browser, live_server.url, problems)
    project = _team(ann, bob)
    bob.goto(f"/projects/{project.pk}/entities/LineItem/")
    bob.fill("#id_description", "Bob's careful words")
    ann.goto(f"/projects/{project.pk}/delete/")
    ann.click("main button[type=submit]")
    expect(ann).to_have_url(re.compile(r"/$"))

    # Bob's next presence poll learns it: a notice, not Django's 404 page
    # in place of the editor (DEBUG), nor silence (production).
    notice = bob.locator("#project-gone")
    expect(notice).to_contain_text("no longer open to you: it was deleted")
    expect(bob.locator("#id_description")).to_have_value("Bob's careful words")
    _chrome_kept(bob)
    bob.click("text=Save LineItem")
    expect(notice).to_have_count(1)
    expect(bob.locator("#id_description")).to_have_value("Bob's careful words")
    # The polls stopped: nothing of the page polls any more.
    assert bob.locator('[hx-trigger*="every"]').count() == 0
    screenshot("teamwork-05-project-deleted-meanwhile", bob)
    bob.context.close()
    unexpected = [p for p in problems if "status of 404 (Not Found)" not in p]
    assert unexpected == [], "\n".join(unexpected)
