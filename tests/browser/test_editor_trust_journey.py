"""The editor keeps what the user typed, in Chromium, with DEBUG on (the
README's `make run`) and off: a refused edit shows its reason beside the
field with the page's header, tabs and styles kept; Enter saves; leaving a
form with unsaved input asks first, and the answer decides."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from modeler.services import members as member_services
from modeler.services import projects as project_services
from tests.views.conftest import example_design, stored_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"


def _log_in(page: Page, username: str) -> None:
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")


def _project(username: str = "lin"):
    owner = User.objects.create_user(username, password=PASSWORD)
    return project_services.project_create(
        owner=owner, design=example_design("order-management")
    )


def _chrome_kept(page: Page) -> None:
    """The refusal did not replace the document: header, tabs and styles."""
    expect(page.locator("header.topbar")).to_be_visible()
    expect(page.locator("nav.tabs")).to_be_visible()
    assert page.evaluate("document.styleSheets.length") > 0
    assert (
        page.evaluate("getComputedStyle(document.body).fontFamily") != "Times New Roman"
    )


def test_refusals_render_in_place(page: Page, screenshot) -> None:
    project = _project()
    _log_in(page, "lin")
    base = f"/projects/{project.pk}/"

    # A table name DynamoDB refuses.
    page.goto(base + "table/")
    page.fill("#id_name", "x y")
    page.click("text=Save table")
    expect(page.locator("#id_name_error, .field-invalid").first).to_contain_text("x y")
    _chrome_kept(page)
    expect(page.locator("#id_name")).to_have_value("x y")
    screenshot("trust-01-table-name-refused")

    # Leaving the refused input asks first (accepted here, to go on).
    page.on("dialog", lambda dialog: dialog.accept())
    # An index named G (DynamoDB wants at least 3 characters).
    page.goto(base + "table/")
    page.click("summary:text('Add an index')")
    page.fill("#id_index-name", "G")
    page.click("button:text('Add index')")
    expect(page.locator("form.index-form .field-invalid").first).to_be_visible()
    _chrome_kept(page)
    expect(page.locator("#id_index-name")).to_have_value("G")

    # An entity key template naming an attribute the entity lacks.
    page.goto(base + "entities/Customer/")
    page.fill("#id_key-PK-template", "X#{nope}")
    page.click("text=Save Customer")
    expect(page.locator("#id_key-PK-template_error")).to_contain_text("nope")
    _chrome_kept(page)
    expect(page.locator("#id_key-PK-template")).to_have_value("X#{nope}")

    # A pattern whose partition key is emptied.
    page.goto(base + "patterns/0/")
    key = page.locator("#id_p0-key-PK")
    key.fill("")
    page.click("button:text('Save pattern')")
    expect(page.locator("#pattern-form .field-invalid").first).to_be_visible()
    _chrome_kept(page)
    screenshot("trust-02-pattern-key-refused")
    assert stored_design(project).table.name == "order-management"


def test_enter_saves_the_entity(page: Page) -> None:
    project = _project()
    _log_in(page, "lin")
    page.goto(f"/projects/{project.pk}/entities/Customer/")
    rows = page.locator("input.attr-name").count()
    page.fill("#id_description", "Pressed Enter to save")
    page.press("#id_key-PK-template", "Enter")
    expect(page.locator(".toast", has_text="Saved Customer.").first).to_be_visible()
    assert stored_design(project).entity("Customer").description == (
        "Pressed Enter to save"
    )
    # No blank rows were added on the way.
    assert page.locator("input.attr-name").count() == rows


def test_leaving_unsaved_input_asks_first(page: Page) -> None:
    project = _project()
    _log_in(page, "lin")
    page.goto(f"/projects/{project.pk}/entities/Customer/")
    questions: list[str] = []

    def answer(accept: bool):
        def on_dialog(dialog) -> None:
            questions.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        return on_dialog

    # A tab click with an unsaved description: the user stays, input kept.
    page.fill("#id_description", "Not saved yet")
    page.once("dialog", answer(False))
    page.click("nav.tabs >> text=Access patterns")
    expect(page).to_have_url(re.compile(r"/entities/Customer/$"))
    expect(page.locator("#id_description")).to_have_value("Not saved yet")
    assert questions == ["Your changes to entity Customer are not saved. Leave them?"]

    # Another entity, then Escape: asked each time, and staying keeps it.
    page.once("dialog", answer(False))
    page.click("#entity-list >> text=Order")
    expect(page.locator("#id_description")).to_have_value("Not saved yet")
    page.locator("#id_description").focus()
    page.once("dialog", answer(False))
    page.keyboard.press("Escape")
    expect(page.locator("#id_description")).to_have_value("Not saved yet")
    assert len(questions) == 3

    # A form typed back to what was saved is not unsaved: no question.
    original = stored_design(project).entity("Customer").description
    page.fill("#id_description", original)
    page.click("#entity-list >> text=Order")
    expect(page).to_have_url(re.compile(r"/entities/Order/$"))
    assert len(questions) == 3

    # Leaving on purpose: the input is gone, nothing was saved.
    page.fill("#id_description", "Typed on Order")
    page.once("dialog", answer(True))
    page.click("nav.tabs >> text=Access patterns")
    expect(page).to_have_url(re.compile(r"/patterns/$"))
    assert stored_design(project).entity("Order").description != "Typed on Order"

    # A refused save keeps the input unsaved, even untouched since.
    page.goto(f"/projects/{project.pk}/entities/Customer/")
    page.fill("#id_key-PK-template", "X#{nope}")
    page.click("text=Save Customer")
    expect(page.locator("#id_key-PK-template_error")).to_be_visible()
    page.once("dialog", answer(False))
    page.click("nav.tabs >> text=Overview")
    expect(page.locator("#id_key-PK-template")).to_have_value("X#{nope}")
    assert len(questions) == 5

    # The Discard changes link is the user deciding: no question.
    page.click("text=Discard changes")
    expect(page.locator("#id_key-PK-template")).not_to_have_value("X#{nope}")
    assert len(questions) == 5


def test_two_people_edit_at_once(page: Page, other_page: Page, screenshot) -> None:
    """Two people on the same version: different entities both save; the
    same entity shows the other person's version beside the input as typed,
    and Keep mine or Take theirs decides."""
    from modeler.models import Role

    project = _project("ann")
    bob = User.objects.create_user("bob", password=PASSWORD)
    member_services.membership_set(project=project, user=bob, role=Role.EDITOR)
    ann, other = page, other_page
    _log_in(ann, "ann")
    _log_in(other, "bob")
    base = f"/projects/{project.pk}/entities/"

    # Different entities, both from version 1: both land.
    ann.goto(base + "Customer/")
    other.goto(base + "Order/")
    ann.fill("#id_description", "Customers, by Ann")
    ann.click("text=Save Customer")
    expect(ann.locator(".toast", has_text="Saved Customer.").first).to_be_visible()
    other.fill("#id_description", "Orders, by Bob")
    other.click("text=Save Order")
    expect(other.locator(".toast", has_text="Saved Order.").first).to_be_visible()
    design = stored_design(project)
    assert design.entity("Customer").description == "Customers, by Ann"
    assert design.entity("Order").description == "Orders, by Bob"

    # The same entity: Bob sees Ann's version beside his input.
    ann.goto(base + "Customer/")
    other.goto(base + "Customer/")
    ann.fill("#id_description", "Ann's second thoughts")
    ann.click("text=Save Customer")
    expect(ann.locator(".toast", has_text="Saved Customer.").first).to_be_visible()
    other.fill("#id_description", "Bob's own words")
    other.click("text=Save Customer")
    expect(other.locator(".form-alert")).to_contain_text(
        "ann changed entity Customer since you opened this page"
    )
    theirs = other.locator("[data-conflict-field=description]")
    expect(other.locator(".conflict-fields")).to_contain_text(
        "You and ann both changed"
    )
    expect(theirs.locator(".conflict-theirs-value")).to_have_value(
        "Ann's second thoughts"
    )
    expect(theirs.locator(".conflict-mine-value")).to_have_value("Bob's own words")
    expect(other.locator("#id_description")).to_have_value("Bob's own words")
    screenshot("trust-03-conflict-both-versions", other)
    assert stored_design(project).entity("Customer").description == (
        "Ann's second thoughts"
    )

    # Keep mine: Bob's input replaces Ann's, and the history keeps both.
    other.click("button:text('Keep mine')")
    expect(other.locator(".toast", has_text="Saved Customer.").first).to_be_visible()
    assert stored_design(project).entity("Customer").description == ("Bob's own words")

    # Take theirs: Bob's input goes, Ann's version is what he sees.
    ann.goto(base + "Customer/")
    other.goto(base + "Customer/")
    ann.fill("#id_description", "Ann wins this one")
    ann.click("text=Save Customer")
    expect(ann.locator(".toast", has_text="Saved Customer.").first).to_be_visible()
    other.fill("#id_description", "Bob tries again")
    other.click("text=Save Customer")
    expect(other.locator(".conflict-theirs-value")).to_have_value("Ann wins this one")
    other.click("button:text('Take theirs')")
    expect(other.locator("#id_description")).to_have_value("Ann wins this one")
    expect(other.locator(".conflict")).to_have_count(0)
    assert stored_design(project).entity("Customer").description == (
        "Ann wins this one"
    )


def test_undo_and_redo_of_edits(page: Page, screenshot) -> None:
    """The header's Undo names the user's latest change and follows each
    save; Undo and Redo (buttons or Ctrl+Z / Ctrl+Shift+Z) take it back and
    make it again."""
    project = _project()
    _log_in(page, "lin")
    page.goto(f"/projects/{project.pk}/entities/Customer/")
    undo = page.locator("[data-undo]")
    expect(undo).to_be_disabled()
    page.fill("#id_description", "Described once")
    page.click("text=Save Customer")
    expect(undo).to_have_text("Undo: changed entity Customer (description)")
    screenshot("trust-04-undo-button")

    undo.click()
    expect(
        page.locator(".toast", has_text="Undid: changed entity Customer")
    ).to_be_visible()
    original = example_design("order-management").entity("Customer").description
    expect(page.locator("#id_description")).to_have_value(original)
    expect(page.locator("[data-redo]")).to_have_text(
        "Redo: changed entity Customer (description)"
    )
    # Ctrl+Shift+Z outside a field redoes.
    page.locator("h1").click()
    page.keyboard.press("Control+Shift+Z")
    expect(page.locator("#id_description")).to_have_value("Described once")
    assert stored_design(project).entity("Customer").description == "Described once"
    # Ctrl+Z outside a field undoes.
    page.locator("h1").click()
    page.keyboard.press("Control+z")
    expect(page.locator("#id_description")).to_have_value(original)
    assert stored_design(project).entity("Customer").description == original


def test_the_generator_picker(page: Page, screenshot) -> None:
    """Pick… beside an attribute: the kind, its fields, five sample values;
    Use writes the generator into the row and Save keeps it."""
    project = _project()
    _log_in(page, "lin")
    page.goto(f"/projects/{project.pk}/entities/Order/")
    row = next(
        i
        for i in range(page.locator("input.attr-name").count())
        if page.locator(f"#id_attr-{i}-name").input_value() == "total"
    )
    page.click(f"[data-generator-pick='{row}']")
    dialog = page.locator("#generator-picker")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Sample generator for total")
    expect(dialog.locator("[data-generator-samples] li")).to_have_count(5)
    dialog.locator("select[name=kind]").select_option("int")
    expect(dialog.locator("[data-generator-result]")).to_have_text(
        "{int: {min: 1, max: 5}}"
    )
    dialog.locator("input[name=high]").fill("9")
    expect(dialog.locator("[data-generator-result]")).to_have_text(
        "{int: {min: 1, max: 9}}"
    )
    values = dialog.locator("[data-generator-samples] code").all_inner_texts()
    assert len(values) == 5 and all(1 <= int(v) <= 9 for v in values)
    screenshot("trust-05-generator-picker")
    dialog.locator("button:text('Use this generator')").click()
    expect(dialog).to_be_hidden()
    expect(page.locator(f"#id_attr-{row}-generator")).to_have_value(
        "{int: {min: 1, max: 9}}"
    )
    page.click("text=Save Order")
    expect(page.locator(".toast", has_text="Saved Order.").first).to_be_visible()
    generator = stored_design(project).entity("Order").attribute("total").generator
    assert (generator.kind, dict(generator.params)) == ("int", {"max": 9, "min": 1})


def test_the_generator_picker_keeps_what_is_typed_while_it_answers(
    page: Page,
) -> None:
    """Typing on while the picker's answer to the first keystroke is on its
    way: that answer does not overwrite the field; the picker ends on what
    was typed."""
    project = _project()
    _log_in(page, "lin")
    page.goto(f"/projects/{project.pk}/entities/Order/")
    row = next(
        i
        for i in range(page.locator("input.attr-name").count())
        if page.locator(f"#id_attr-{i}-name").input_value() == "total"
    )
    page.click(f"[data-generator-pick='{row}']")
    dialog = page.locator("#generator-picker")
    dialog.locator("select[name=kind]").select_option("int")
    expect(dialog.locator("[data-generator-result]")).to_have_text(
        "{int: {min: 1, max: 5}}"
    )
    # The answer to high=9 comes 1.5 s late; "0" is typed while it is away.
    page.evaluate(
        """() => {
          const open = XMLHttpRequest.prototype.open;
          const send = XMLHttpRequest.prototype.send;
          XMLHttpRequest.prototype.open = function (method, url, ...rest) {
            this.sentTo = String(url);
            return open.call(this, method, url, ...rest);
          };
          XMLHttpRequest.prototype.send = function (...args) {
            if (/[?&]high=9(&|$)/.test(this.sentTo)) {
              document.documentElement.dataset.lateSent = "yes";
              setTimeout(() => {
                this.addEventListener("loadend", () => {
                  // After htmx's own handler of this answer has run.
                  const flags = document.documentElement.dataset;
                  setTimeout(() => { flags.lateDone = "yes"; });
                });
                send.apply(this, args);
              }, 1500);
              return;
            }
            return send.apply(this, args);
          };
        }"""
    )
    high = dialog.locator("input[name=high]")
    high.fill("9")
    # (Flags on <html> that expect waits on: wait_for_function would eval,
    # which the CSP refuses.)
    expect(page.locator("html")).to_have_attribute("data-late-sent", "yes")
    high.press("End")
    high.press_sequentially("0")
    expect(page.locator("html")).to_have_attribute("data-late-done", "yes")
    expect(dialog.locator("[data-generator-result]")).to_have_text(
        "{int: {min: 1, max: 90}}"
    )
    expect(dialog.locator("input[name=high]")).to_have_value("90")


def test_answers_out_of_order_leave_the_last_choice(page: Page) -> None:
    """A section tab clicked, then another before the first answered: when
    the first answer comes last, the page still shows the second section
    under its URL."""
    project = _project()
    _log_in(page, "lin")
    page.goto(f"/projects/{project.pk}/entities/Order/")
    # The browser sends the request for Access patterns 1.5 s late, so its
    # answer comes after the Key map's.
    page.evaluate(
        """() => {
          const open = XMLHttpRequest.prototype.open;
          const send = XMLHttpRequest.prototype.send;
          XMLHttpRequest.prototype.open = function (method, url, ...rest) {
            this.sentTo = String(url);
            return open.call(this, method, url, ...rest);
          };
          XMLHttpRequest.prototype.send = function (...args) {
            if (this.sentTo.includes("/patterns/")) {
              window.lateAnswers = (window.lateAnswers || 0) + 1;
              setTimeout(() => {
                this.addEventListener("loadend", () => {
                  // After htmx's own handler of this answer has run.
                  const flags = document.documentElement.dataset;
                  setTimeout(() => { flags.lateDone = "yes"; });
                });
                send.apply(this, args);
              }, 1500);
              return;
            }
            return send.apply(this, args);
          };
        }"""
    )
    page.click("nav.tabs >> text=Access patterns")
    page.click("nav.tabs >> text=Key map")
    expect(page).to_have_url(re.compile(r"/key-map/$"))
    # (A flag on <html> that expect waits on: wait_for_function would eval,
    # which the CSP refuses.)
    expect(page.locator("html")).to_have_attribute("data-late-done", "yes")
    assert page.evaluate("window.lateAnswers") == 1
    expect(page).to_have_url(re.compile(r"/key-map/$"))
    expect(page.locator("nav.tabs [aria-current=page]")).to_have_text("Key map")
    expect(page.locator("#pattern-list")).to_have_count(0)


def test_presence_and_saves_by_others_are_announced(
    page: Page, other_page: Page
) -> None:
    from modeler.models import Role

    project = _project("ann")
    bob = User.objects.create_user("bob", password=PASSWORD)
    member_services.membership_set(project=project, user=bob, role=Role.EDITOR)
    _log_in(page, "ann")
    _log_in(other_page, "bob")
    page.goto(f"/projects/{project.pk}/entities/Customer/")
    other_page.goto(f"/projects/{project.pk}/entities/Order/")
    other_page.fill("#id_description", "Bob's change")
    other_page.click("text=Save Order")
    expect(other_page.locator(".toast", has_text="Saved Order.").first).to_be_visible()
    # Ann's page asks again when it gets the focus (and every 20 s).
    page.evaluate("() => window.dispatchEvent(new Event('focus'))")
    expect(page.locator("[data-others]")).to_contain_text("bob")
    expect(page.locator("[data-saved-since]")).to_contain_text(
        "bob saved: changed entity Order (description)"
    )
    # Bob's own save is not announced to him.
    other_page.evaluate("() => window.dispatchEvent(new Event('focus'))")
    expect(other_page.locator("[data-others]")).to_contain_text("ann")
    expect(other_page.locator("[data-saved-since]")).to_have_count(0)
