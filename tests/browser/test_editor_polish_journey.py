"""Editor polish (issue 39, item 12) in Chromium, measured at 1920x1080,
1280x800 and a 390 px phone: the working sections use the window's width,
the key map of four indexes and the attribute grid fit (its Remove column
visible, its generators readable), the tabs keep one row, a long Undo label
stays in the header, key inputs and the pattern editor fit a phone. A skip
link reaches the section's work in one Tab; Escape from Pick… gives focus
back to Pick…; editing and adding indexes logs no htmx error (the page
fixture fails on any console error)."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect

from modeler.design import edits
from modeler.design import model as d
from modeler.editor.services import design_edit
from modeler.services import projects as project_services
from tests.views.conftest import example_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"
LONG_NAME = "OrderPlacedThroughTheCheckoutWithGiftWrapping"
# The narrowest a field may be where it is typed into (px).
GENERATOR_MIN = {1920: 400, 1280: 200, 390: 200}
KEY_TEMPLATE_MIN = 250  # on the phone: about 30 characters of a template
PHONE_INPUT_MIN = 100
REVIEW_TIMEOUT_MS = 60_000  # the review simulates every pattern first
# The loader's answer once the review is made (its slots filled).
REVIEWED = re.compile(r"(Design review of|nothing to change in) the indexes")

_PAST = """(selector) => {
  const box = document.querySelector(selector);
  if (!box) return null;
  const right = box.getBoundingClientRect().right;
  return [...box.querySelectorAll('*')].filter((el) => el.offsetParent !== null
      && !el.closest('.visually-hidden, details:not([open])')
      && el.getBoundingClientRect().right > right + 1)
    .slice(0, 3).map((el) => `${el.tagName.toLowerCase()}.${el.className}`
      + ` ${Math.round(el.getBoundingClientRect().right)} > ${Math.round(right)}`);
}"""
# The outermost elements that reach past the window's right edge.
_PAST_THE_EDGE = """() => [...document.querySelectorAll('body *')].filter((el) => {
  const beyond = (e) => e.getBoundingClientRect().right > window.innerWidth + 1;
  // Inside a box that scrolls or clips sideways (the tabs on a phone).
  const clips = (e) => /(auto|scroll|hidden)/.test(getComputedStyle(e).overflowX);
  for (let up = el.parentElement; up; up = up.parentElement) {
    if (clips(up)) return false;
  }
  return beyond(el) && !(el.parentElement && beyond(el.parentElement));
}).slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`
  + ` (${Math.round(el.getBoundingClientRect().right)} px)`)"""
_WIDTHS = """(selector) => [...document.querySelectorAll(selector)]
  .filter((el) => el.offsetParent !== null)
  .map((el) => Math.round(el.getBoundingClientRect().width))"""
_SCROLLS = """(selector) => { const el = document.querySelector(selector);
  return el ? el.scrollWidth - el.clientWidth : null; }"""


def _log_in(page: Page, username: str):  # type: ignore[no-untyped-def]
    """The order-management example with a fourth GSI and a rename by its
    owner (so Undo's label is long), signed in on `page`."""
    owner = User.objects.create_user(username, password=PASSWORD)
    project = project_services.project_create(
        owner=owner, design=example_design("order-management")
    )
    index = d.Index(
        name="GSI4",
        kind="global",
        partition_key=(d.KeyAttribute("GSI4PK"),),
        sort_key=(d.KeyAttribute("GSI4SK"),),
    )
    saved = design_edit(
        project=project,
        version=project.version,
        author=owner,
        edit=edits.IndexAdd(index=index),
    )
    order = dataclasses.replace(saved.design.entity("Order"), name=LONG_NAME)
    design_edit(
        project=project,
        version=saved.project.version,
        author=owner,
        edit=edits.EntityUpdate(name="Order", entity=order),
    )
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    return project


def _measure(page: Page, width: int, project_id: int) -> list[str]:
    problems: list[str] = []

    def fits_the_window(at: str) -> None:
        page_width = page.evaluate("document.documentElement.scrollWidth")
        if page_width > width:
            problems.append(
                f"{at}: the page is {page_width} px wide: "
                + ", ".join(page.evaluate(_PAST_THE_EDGE))
            )

    def at_least(at: str, selector: str, minimum: int) -> None:
        widths = page.evaluate(_WIDTHS, selector)
        if not widths:
            problems.append(f"{at}: no {selector}")
        elif min(widths) < minimum:
            problems.append(f"{at}: {selector} is {min(widths)} px, under {minimum}")

    at = f"entities at {width} px"
    page.goto(f"/projects/{project_id}/entities/{LONG_NAME}/")
    page.wait_for_load_state("networkidle")
    fits_the_window(at)
    problems += [f"{at}: {p}" for p in page.evaluate(_PAST, ".entity-editor")]
    problems += [f"{at}: {p}" for p in page.evaluate(_PAST, ".page-header")]
    at_least(at, ".attributes-table input[name$='-generator']", GENERATOR_MIN[width])
    remove = page.locator(".attributes-table input[name$='-delete']").first
    expect(remove).to_be_visible()
    box = remove.bounding_box()
    wrap = page.locator(".attributes-table").locator("xpath=..").bounding_box()
    if box["x"] + box["width"] > wrap["x"] + wrap["width"]:
        problems.append(f"{at}: the Remove column is cut")
    if width >= 1024:
        scrolled = page.evaluate(_SCROLLS, "div.table-wrap:has(> .attributes-table)")
        if scrolled > 1:
            problems.append(f"{at}: the attribute grid scrolls ({scrolled} px)")
        tabs = page.locator(".tabs a")
        tops = {round(tabs.nth(i).bounding_box()["y"]) for i in range(tabs.count())}
        if len(tops) > 1:
            problems.append(f"{at}: the tabs take {len(tops)} rows")
    else:
        at_least(at, ".keys-table input[name$='-template']", KEY_TEMPLATE_MIN)
    if width == 1920:
        main = page.locator("main").bounding_box()["width"]
        if main < 1800:
            problems.append(f"{at}: the page's column is {main} px of 1920")

    at = f"key map at {width} px"
    page.goto(f"/projects/{project_id}/key-map/")
    page.wait_for_load_state("networkidle")
    fits_the_window(at)
    expect(page.locator(".keymap th", has_text="GSI4SK")).to_have_count(1)
    if width >= 1024 and page.evaluate(_SCROLLS, ".keymap-wrap") > 1:
        problems.append(f"{at}: the key map scrolls sideways")

    at = f"pattern editor at {width} px"
    page.goto(f"/projects/{project_id}/patterns/1/")
    page.wait_for_load_state("networkidle")
    fits_the_window(at)
    problems += [f"{at}: {p}" for p in page.evaluate(_PAST, ".pattern-card")]
    if width < 1024:
        at_least(
            at,
            "#pattern-form input:not([type=checkbox]):not([type=hidden]), "
            "#pattern-form select",
            PHONE_INPUT_MIN,
        )
    return problems


@pytest.mark.parametrize(
    ("width", "height"), [(1920, 1080), (1280, 800), (390, 844)], ids=str
)
def test_working_sections_fit_the_window(
    page: Page, screenshot, width: int, height: int
) -> None:
    project = _log_in(page, "lin")
    page.set_viewport_size({"width": width, "height": height})
    problems = _measure(page, width, project.pk)
    screenshot(f"polish-{width}-pattern")
    assert problems == [], "\n".join(problems)


def test_skip_link_and_escape_from_the_picker(page: Page) -> None:
    project = _log_in(page, "ana")
    page.goto(f"/projects/{project.pk}/entities/Customer/")
    page.keyboard.press("Tab")
    skip = page.locator("[data-skip-link]")
    expect(skip).to_be_focused()
    expect(skip).to_be_in_viewport()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    # One Tab more lands in the entity's editor, not in the tabs or the list.
    assert page.evaluate("document.activeElement.closest('#entity-editor') !== null"), (
        page.evaluate("document.activeElement.outerHTML")
    )

    # Escape from Pick… closes the picker, focus back on Pick…, the typed
    # description still there (Escape is not the form's Discard).
    page.fill("#id_description", "People who buy")
    pick = page.locator("[data-generator-pick='1']")
    pick.click()
    expect(page.locator("#generator-picker .picker-title")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#generator-picker")).not_to_be_visible()
    expect(pick).to_be_focused()
    expect(page.locator("#id_description")).to_have_value("People who buy")


def test_index_edits_log_no_htmx_error(page: Page) -> None:
    """The review's findings fill a slot per index: the index being edited
    has its slot too (htmx logged oobErrorNoTarget for it)."""
    project = _log_in(page, "bo")
    page.goto(f"/projects/{project.pk}/table/")
    loader = page.locator("#review-loader-indexes")
    expect(loader).to_contain_text(REVIEWED, timeout=REVIEW_TIMEOUT_MS)
    page.locator("#indexes .row-actions a", has_text="Edit").first.click()
    expect(loader).to_contain_text(REVIEWED, timeout=REVIEW_TIMEOUT_MS)
    expect(page.locator("#index-0 .review-slot")).to_have_count(1)
    page.locator("#index-0 form.index-form button[type=submit]").first.click()
    expect(page.locator("#index-0 .index-summary")).to_be_visible()
    expect(loader).to_contain_text(REVIEWED, timeout=REVIEW_TIMEOUT_MS)

    page.locator("summary", has_text="Add an index").click()
    form = page.locator("details.add-panel form")
    form.locator("input[name$='-name']").first.fill("new")
    form.locator("input[name$='-pk_name_0']").fill("newPk")
    form.locator("button[type=submit]").first.click()
    expect(page.locator("#indexes .index-summary", has_text="newPk")).to_be_visible()
    expect(loader).to_contain_text(REVIEWED, timeout=REVIEW_TIMEOUT_MS)
    page.locator("#indexes li", has_text="newPk").locator("a", has_text="Edit").click()
    expect(loader).to_contain_text(REVIEWED, timeout=REVIEW_TIMEOUT_MS)
    edited = page.locator("#indexes li.index-item:has(form.index-form)")
    expect(edited.locator("input[name$='-name']").first).to_have_value("new")
    edited.locator("button[type=submit]").first.click()
    expect(page.locator("#indexes li.index-item:has(form.index-form)")).to_have_count(0)
    expect(loader).to_contain_text(REVIEWED, timeout=REVIEW_TIMEOUT_MS)


def test_a_write_pattern_shows_only_what_applies(page: Page) -> None:
    """Switched to PutItem, the pattern's form hides the index, projection
    and "What it must return"; back to Query, they are there as typed."""
    project = _log_in(page, "kai")
    page.goto(f"/projects/{project.pk}/patterns/2/")
    index = page.locator("#pattern-form [data-reads-only]").first
    promise = page.locator("#pattern-form fieldset", has_text="What it must return")
    expect(index).to_be_visible()
    expect(promise).to_be_visible()
    page.locator("#pattern-form select[data-pattern-operation]").select_option(
        "PutItem"
    )
    expect(
        page.locator("#pattern-form legend", has_text="The item it writes")
    ).to_be_visible()
    expect(index).to_be_hidden()
    expect(promise).to_be_hidden()
    expect(page.locator("#pattern-form label", has_text="Projection")).to_have_count(0)
    page.locator("#pattern-form select[data-pattern-operation]").select_option("Query")
    expect(page.locator("#pattern-form label", has_text="Projection")).to_be_visible()
    expect(index).to_be_visible()
    expect(promise).to_be_visible()


def test_a_child_copies_its_parents_key_attributes_in_one_click(page: Page) -> None:
    project = _log_in(page, "mo")
    page.goto(f"/projects/{project.pk}/entities/")
    page.fill("#id_new-name", "Note")
    page.locator("form.entity-create button[type=submit]").click()
    expect(page.locator("#entity-editor-heading")).to_contain_text("Note")
    offer = page.locator("[data-parent-refs='Customer']")
    expect(offer).to_be_hidden()
    page.select_option("#id_sample_per", "Customer")
    expect(offer).to_be_visible()
    offer.locator("button", has_text="customerId").click()
    expect(page.locator("#id_attr-0-name")).to_have_value("customerId")
    expect(page.locator("#id_attr-0-generator")).to_have_value(
        "{ref: Customer.customerId}"
    )
    templates = page.locator(".keys-table input[name$='-template']")
    templates.nth(0).fill("CUST#{customerId}")
    templates.nth(1).fill("NOTE")
    version = page.locator("[data-project-version]").first
    saved = str(int(version.inner_text()) + 1)
    page.locator("#entity-editor button[type=submit]", has_text="Save").click()
    expect(version).to_have_text(saved)
    project.refresh_from_db()
    note = project_services.project_revision_design(
        project=project, number=project.version
    ).entity("Note")
    assert note.sample.per == "Customer"
    [attribute] = note.attributes
    assert attribute.name == "customerId"
    assert (attribute.generator.kind, dict(attribute.generator.params)) == (
        "ref",
        {"value": "Customer.customerId"},
    )
