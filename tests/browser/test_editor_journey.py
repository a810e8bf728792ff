"""The design editor end to end in Chromium: sign up, create a project, add
a GSI, two entities with key templates (live preview, autocomplete, an
inline error), an access pattern and its request, an edit refused because
another tab saved first, and deleting after a confirmation."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from modeler import selectors
from modeler.models import Project
from tests.browser.conftest import review_settled

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _design():
    project = Project.objects.get(name="Shop")
    return selectors.project_design(project=project)


def _toast(page: Page, text: str) -> None:
    expect(page.locator(".toast", has_text=text).first).to_be_visible()


def _shot(page: Page, screenshot, name: str) -> None:
    """A full-page screenshot taken from the top, so that sticky parts (the
    top bar, the request column) sit where a reader sees them."""
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(name)


def _attribute(page: Page, row: int, name: str, kind: str, generator: str) -> None:
    page.fill(f"#id_attr-{row}-name", name)
    page.select_option(f"#id_attr-{row}-type", kind)
    page.fill(f"#id_attr-{row}-generator", generator)


def test_design_a_table_in_the_editor(page: Page, screenshot, browser, sign_up) -> None:
    sign_up("grace")
    page.fill("#id_name", "Shop")
    page.click("text=Create project")
    expect(page).to_have_url(re.compile(r"/projects/\d+/$"))
    project_url = page.url

    # Table & indexes: a tab swapped in by htmx, with its own URL.
    page.click("nav.tabs >> text=Table & indexes")
    expect(page).to_have_url(re.compile(r"/table/$"))
    expect(page.locator("#indexes-heading")).to_be_visible()
    page.click("text=Add an index")
    page.fill("#id_index-name", "GSI1")
    page.fill("#id_index-pk_name_0", "GSI1PK")
    page.fill("#id_index-sk_name_0", "GSI1SK")
    page.select_option("#id_index-projection_type", "ALL")
    page.press("#id_index-sk_name_0", "Enter")  # Enter saves
    _toast(page, "Added the index GSI1.")
    expect(page.locator(".index-item", has_text="GSI1")).to_be_visible()
    _shot(page, screenshot, "editor-01-table-and-gsi")

    # Entities: Customer with templates picked by autocomplete.
    page.click("nav.tabs >> text=Entities")
    expect(page).to_have_url(re.compile(r"/entities/$"))
    page.fill("#id_new-name", "Customer")
    page.click("text=Add entity")
    _toast(page, "Added the entity Customer")
    expect(page).to_have_url(re.compile(r"/entities/Customer/$"))
    _attribute(page, 0, "customerId", "S", "ulid")
    _attribute(page, 1, "email", "S", "{faker: email}")
    page.fill("#id_attr-0-example", "c-42")
    template = page.locator("#id_key-PK-template")
    template.click()
    template.type("CUST#{cus")
    expect(page.locator(".autocomplete li", has_text="customerId")).to_be_visible()
    template.press("Enter")
    expect(template).to_have_value("CUST#{customerId}")
    page.fill("#id_key-SK-template", "PROFILE")
    page.select_option("#id_key-GSI1PK-mode", "template")
    page.fill("#id_key-GSI1PK-template", "EMAIL#{email}")
    page.select_option("#id_key-GSI1SK-mode", "template")
    page.fill("#id_key-GSI1SK-template", "PROFILE")
    # The live preview renders the keys from the example values.
    expect(page.locator('[data-preview-key="PK"]')).to_have_text("CUST#c-42")
    expect(page.locator('[data-preview-key="GSI1SK"]')).to_have_text("PROFILE")
    # A blank example value comes from the attribute's generator.
    expect(page.locator('[data-preview-key="GSI1PK"]')).to_contain_text("@")
    _shot(page, screenshot, "editor-02-entity-live-preview")
    page.click("text=Save Customer")
    _toast(page, "Saved Customer.")
    assert _design().entity("Customer").keys["GSI1PK"].template == "EMAIL#{email}"

    # Order, with a typo the preview points at before saving.
    page.fill("#id_new-name", "Order")
    page.click("text=Add entity")
    _toast(page, "Added the entity Order")
    page.select_option("#id_sample_per", "Customer")
    page.fill("#id_sample_count", "5")
    _attribute(page, 0, "customerId", "S", "{ref: Customer.customerId}")
    _attribute(page, 1, "orderId", "S", "ulid")
    _attribute(page, 2, "orderDate", "S", "{date: {from: 2025-01-01, to: 2025-12-31}}")
    page.fill("#id_key-PK-template", "CUST#{customerId}")
    page.fill("#id_key-SK-template", "ORDER#{orderDat}")
    problem = page.locator("#key-problems-sk")
    expect(problem).to_contain_text("Unknown attribute 'orderDat'")
    expect(page.locator('[data-preview-error="SK"]')).to_be_visible()
    _shot(page, screenshot, "editor-03-inline-template-error")
    page.click("text=Save Order")  # refused, the input kept
    expect(page.locator("#id_key-SK-template_error")).to_contain_text("orderDat")
    expect(page.locator("#id_key-SK-template")).to_have_value("ORDER#{orderDat}")
    # The error is brought into view from the button, its input focused.
    expect(page.locator("#id_key-SK-template")).to_be_focused()
    expect(page.locator("#id_key-SK-template_error")).to_be_in_viewport()
    page.fill("#id_key-SK-template", "ORDER#{orderDate}#{orderId}")
    expect(problem).not_to_contain_text("orderDat")
    page.click("text=Save Order")
    _toast(page, "Saved Order.")
    assert (
        _design().entity("Order").keys["SK"].template == "ORDER#{orderDate}#{orderId}"
    )

    # An access pattern, its request shown as it is typed.
    page.click("nav.tabs >> text=Access patterns")
    page.click("text=Add an access pattern")
    page.fill("#id_new-name", "Orders of a customer, newest first")
    key = page.locator("#id_new-key-PK")
    key.click()
    key.type("CUST#{cust")
    expect(page.locator(".autocomplete li", has_text="customerId")).to_be_visible()
    key.press("Tab")
    expect(key).to_have_value("CUST#{customerId}")
    page.select_option("#id_new-sort-SK-op", "begins_with")
    page.fill("#id_new-sort-SK-value", "ORDER#")
    page.select_option("#id_new-scan_forward", "reverse")
    page.check("#pattern-form input[name='new-expects_entities'][value='Order']")
    request = page.locator("[data-request-json]")
    expect(request).to_contain_text("begins_with(#SK, :SK)")
    expect(request).to_contain_text('"ScanIndexForward": false')
    _shot(page, screenshot, "editor-04-pattern-request")
    page.click("text=Add pattern")
    _toast(page, "Added the access pattern")
    assert _design().access_patterns[0].expects.entities == ("Order",)

    # Two tabs editing one entity: the second one's save, based on an older
    # version, is refused and says who changed it.
    page.goto(project_url + "entities/Customer/")
    other = page.context.new_page()
    other.goto(project_url + "entities/Customer/")
    page.fill("#id_description", "Saved from the first tab")
    page.click("text=Save Customer")
    _toast(page, "Saved Customer.")
    other.fill("#id_description", "Typed in the second tab")
    other.click("text=Save Customer")
    expect(other.locator(".form-alert")).to_contain_text(
        "You changed entity Customer in another tab since you opened this page"
    )
    expect(other.locator("#id_description")).to_have_value("Typed in the second tab")
    other.evaluate("window.scrollTo(0, 0)")
    screenshot("editor-05-conflict", other)
    assert _design().entity("Customer").description == "Saved from the first tab"
    other.close()

    # Deleting asks first and names what depends on it.
    page.goto(project_url + "entities/Order/")
    review_settled(page)
    page.click("text=Delete Order…")
    confirm = page.locator(".confirm")
    expect(confirm).to_contain_text(
        "Access pattern 'Orders of a customer, newest first' expects it"
    )
    _shot(page, screenshot, "editor-06-delete-confirmation")
    page.keyboard.press("Escape")  # Escape cancels
    expect(page.locator(".confirm")).to_have_count(0)
    assert _design().entity("Order") is not None
    review_settled(page)
    page.click("text=Delete Order…")
    expect(page.locator("form.confirm")).to_be_visible()
    page.click("button:text('Delete Order')")
    _toast(page, "Deleted the entity Order.")
    expect(page).to_have_url(re.compile(r"/entities/$"))
    assert _design().entity("Order") is None
    page.wait_for_load_state("networkidle")


def test_sections_at_1024_px_and_read_only_for_viewers(page: Page, screenshot) -> None:
    """A viewer moves between the sections by their tabs (htmx swaps, real
    URLs, the browser's back button) on a 1024 px screen and sees the
    editor's forms disabled."""
    from django.contrib.auth.models import User

    from modeler.models import Role
    from modeler.services import members as member_services
    from modeler.services import projects as project_services
    from tests.views.conftest import example_design

    owner = User.objects.create_user("owner", password="correct-horse-battery")
    viewer = User.objects.create_user("viewer", password="correct-horse-battery")
    project = project_services.project_create(
        owner=owner, design=example_design("order-management")
    )
    member_services.membership_set(project=project, user=viewer, role=Role.VIEWER)
    page.set_viewport_size({"width": 1024, "height": 800})
    page.goto("/login/")
    page.fill("#id_username", "viewer")
    page.fill("#id_password", "correct-horse-battery")
    page.click("button[type=submit]")
    page.goto(f"/projects/{project.pk}/")

    page.click("nav.tabs >> text=Entities")
    expect(page).to_have_url(re.compile(r"/entities/$"))
    expect(page.locator("#id_key-PK-template")).to_be_disabled()
    expect(page.locator('[data-preview-key="PK"]')).to_contain_text("CUST#")
    expect(page.locator("text=Save Customer")).to_have_count(0)
    page.click("#entity-list >> text=Order")
    expect(page).to_have_url(re.compile(r"/entities/Order/$"))
    expect(
        page.locator('[data-preview-key="GSI2PK"]').or_(
            page.locator("#entity-preview", has_text="absent")
        )
    ).to_be_visible()
    _shot(page, screenshot, "editor-07-viewer-entities-1024")

    page.click("nav.tabs >> text=Access patterns")
    expect(page.locator(".pattern-card").first).to_be_visible()
    expect(page.locator("text=Add an access pattern")).to_have_count(0)
    page.locator(".pattern-request-details > summary").nth(2).click()
    expect(page.locator(".pattern-request-details").nth(2)).to_contain_text(
        "begins_with(#SK, :SK)"
    )
    _shot(page, screenshot, "editor-08-viewer-patterns-1024")
    page.go_back()
    expect(page).to_have_url(re.compile(r"/entities/Order/$"))
    page.click("nav.tabs >> text=Overview")
    expect(page.locator("#problems-heading, #table-heading").first).to_be_visible()
    page.click("nav.tabs >> text=Table & indexes")
    expect(page.locator("#id_name")).to_be_disabled()
    expect(page.locator(".index-item")).to_have_count(3)
    page.wait_for_load_state("networkidle")
