"""A review meeting in Chromium, as three people hold it: comments written
from the part of the revision they are about, who an @mention reached,
unread counts in the header, approvals that follow the owner's rule and
the design's content, the revision presented slide by slide on a 16:9
screen, and the minutes and pages as they print."""

from __future__ import annotations

import dataclasses
import io
import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, expect
from pypdf import PdfReader

from modeler.design import model as d
from modeler.models import Role
from modeler.services import history as history_services
from modeler.services import members as member_services
from modeler.services import projects as project_services
from tests.views.conftest import example_design, stored_design, with_roots
from tests.views.test_history_services import _describe, _rename

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"


def _log_in(page: Page, username: str) -> None:
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    expect(page.locator(".topbar-user")).to_have_text(username)


def _team(design: d.Design | None = None):
    """olga owns the project, ed edits it, vi views it; dee has no email
    address, as the demo account."""
    owner = User.objects.create_user("olga", "olga@example.com", PASSWORD)
    editor = User.objects.create_user("ed", "ed@example.com", PASSWORD)
    viewer = User.objects.create_user("vi", "vi@example.com", PASSWORD)
    dee = User.objects.create_user("dee", "", PASSWORD)
    project = project_services.project_create(
        owner=owner, design=design or with_roots(example_design("order-management"), 3)
    )
    member_services.membership_set(project=project, user=editor, role=Role.EDITOR)
    member_services.membership_set(project=project, user=viewer, role=Role.VIEWER)
    member_services.membership_set(project=project, user=dee, role=Role.VIEWER)
    return project, owner, editor, viewer


def _open_review(page: Page, project, title: str = "Key design review") -> str:
    page.goto(f"/projects/{project.pk}/reviews/")
    page.fill("#id_title", title)
    page.click("text=Open the review")
    expect(page.locator("#session-heading")).to_have_text(title)
    return page.url


# --- Item 7: comments from the element, who was told, unread counts ----------------


def test_a_comment_from_an_elements_control_tells_who_was_notified(
    page: Page, other_page: Page, screenshot
) -> None:
    project, *_ = _team()
    _log_in(page, "olga")
    review_url = _open_review(page, project)

    _log_in(other_page, "vi")
    other_page.goto(review_url)
    pattern = other_page.locator(
        "section[aria-label='Access pattern All open orders, oldest first']"
    )
    pattern.locator("summary", has_text="Comment").click()
    box = pattern.get_by_label(
        "Comment on access pattern All open orders, oldest first"
    )
    box.fill("@olga @dee @nobody: should this read GSI2 at all?")
    pattern.locator("button", has_text="Comment").click()
    expect(
        other_page.locator(".toast", has_text="Comment added. Emailed olga.")
    ).to_be_visible()
    expect(
        other_page.locator(
            ".toast",
            has_text="Not notified (@dee: their account has no email address; "
            "@nobody: no member of this project has that username)",
        )
    ).to_be_visible()
    # The comment is under the pattern it is about.
    pattern = other_page.locator(
        "section[aria-label='Access pattern All open orders, oldest first']"
    )
    expect(pattern.locator(".comment-thread")).to_contain_text("should this read GSI2")
    screenshot("meeting-01-comment-from-the-pattern", other_page)

    # A key map cell's control.
    # (GSI1SK holds the same template as SK: the cell is found by its key.)
    cell = other_page.locator(
        "td.keymap-cell",
        has=other_page.locator(
            "summary[title='Comment on key template SK of entity Order']"
        ),
    )
    expect(cell).to_contain_text("ORDER#{orderDate}#{orderId}")
    cell.locator("summary").click()
    cell.locator("textarea").fill("Date first: good for the newest-first query.")
    cell.locator("button", has_text="Comment").click()
    expect(
        other_page.locator(
            "section[aria-label='Comments on key template SK of entity Order']"
        )
    ).to_contain_text("Date first")

    # The owner sees two unread comments in the header of any project page.
    page.goto(f"/projects/{project.pk}/entities/")
    expect(page.locator("nav.tabs [data-header-unread]")).to_contain_text("2")
    page.click("nav.tabs >> text=Overview")
    expect(page.locator("nav.tabs [data-header-unread]")).to_contain_text("2")
    screenshot("meeting-02-unread-in-the-header")
    page.goto(review_url)
    expect(page.locator("nav.tabs [data-header-unread]")).to_have_count(0)


# --- Item 8: changed since by content; approval by someone else ---------------------


def test_the_owners_rule_and_a_restore_of_the_approved_revision(
    page: Page, other_page: Page, screenshot
) -> None:
    project, *_ = _team()
    _log_in(page, "olga")
    page.goto(f"/projects/{project.pk}/reviews/")
    page.check("input[name=approval_by_other]")
    page.click("button:text('Save the rule')")
    expect(
        page.locator(".toast", has_text="Approvals now need someone other")
    ).to_be_visible()

    _log_in(other_page, "ed")
    other_page.goto(f"/projects/{project.pk}/entities/Customer/")
    other_page.fill("#id_description", "Ed's change")
    other_page.click("text=Save Customer")
    expect(
        other_page.locator(".toast", has_text="Saved Customer.").first
    ).to_be_visible()
    review_url = _open_review(other_page, project)
    approve = other_page.locator("button", has_text="Approve revision 2")
    expect(approve).to_be_disabled()
    expect(other_page.locator("[data-approval-refusal]")).to_contain_text(
        "You saved revision 2, and this project needs an approval by someone other"
    )
    screenshot("meeting-03-the-author-cannot-approve", other_page)

    page.goto(review_url)
    page.click("button:text('Approve revision 2')")
    expect(page.locator("[data-review-status]")).to_have_text("Approved")

    # A change, then its undoing by a restore of revision 2.
    other_page.goto(f"/projects/{project.pk}/entities/Customer/")
    other_page.fill("#id_description", "Changed after the approval")
    other_page.click("text=Save Customer")
    expect(
        other_page.locator(".toast", has_text="Saved Customer.").first
    ).to_be_visible()
    page.goto(f"/projects/{project.pk}/")
    expect(page.locator("[data-changed-since-approval]")).to_contain_text(
        "Changed since the approved revision 2"
    )
    page.goto(f"/projects/{project.pk}/history/")
    page.locator("#revision-2 summary").click()
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button:text('Restore revision 2')")
    expect(page.locator(".toast", has_text="Restored revision 2")).to_be_visible()
    page.goto(f"/projects/{project.pk}/")
    expect(page.locator("h1")).to_have_text(project.name)
    expect(page.locator("[data-changed-since-approval]")).to_have_count(0)
    page.goto(review_url)
    expect(page.locator("[data-changed-since]")).to_have_count(0)


# --- Item 9: presentation -----------------------------------------------------------

SLIDE_FITS = """() => {
  const slide = document.querySelector('[data-slide]:not([hidden])');
  const outside = [...slide.querySelectorAll('*')].filter((e) => {
    const r = e.getBoundingClientRect();
    return r.width && r.height
      && (r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5);
  }).map((e) => e.tagName + '.' + e.className);
  const code = slide.querySelector('.slide-code code');
  // Where the lowest line of text ends (the slide itself fills the screen).
  const text = Math.max(...[...slide.querySelectorAll('h1, h2, p, li, tr, pre')]
    .filter((e) => e.getClientRects().length)
    .map((e) => e.getBoundingClientRect().bottom));
  return {
    position: Number(slide.dataset.slide),
    height: document.scrollingElement.scrollHeight,
    width: document.scrollingElement.scrollWidth,
    bottom: slide.getBoundingClientRect().bottom,
    outside,
    code: code ? parseFloat(getComputedStyle(code).fontSize) : null,
    text: Math.round(text),
    header: [...document.querySelectorAll('.topbar')]
      .some((e) => e.getClientRects().length > 0),
  };
}"""


def _presented_design() -> d.Design:
    """The example, with a customer's orders around its profile, a long
    pattern name and description, and a pattern that fails."""
    design = with_roots(example_design("order-management"), 3)
    entities = tuple(
        dataclasses.replace(
            e, sample=dataclasses.replace(e.sample, count=d.Count("fixed", 19))
        )
        if e.name == "Order"
        else e
        for e in design.entities
    )
    patterns = list(design.access_patterns)
    patterns[1] = dataclasses.replace(
        patterns[1],
        name="Find a customer by the email address they signed up with, to "
        "log them in and to merge their guest orders into their account",
        description="Runs at every login and at every checkout of a guest; "
        "the address is unique across customers. " * 3,
    )
    # The newest first, promised oldest first: it fails with its reasons.
    patterns[2] = dataclasses.replace(patterns[2], scan_forward=True)
    return dataclasses.replace(
        design, entities=entities, access_patterns=tuple(patterns)
    )


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)], ids=["720p", "1080p"])
def test_every_slide_of_the_reviews_revision_fits_the_screen(
    page: Page, screenshot, size
) -> None:
    project, owner, editor, _ = _team(_presented_design())
    page.set_viewport_size({"width": size[0], "height": size[1]})
    _log_in(page, "olga")
    review_url = _open_review(page, project)
    # The design moves on after the review opened: the deck stays revision 1's.
    design = stored_design(project)
    renamed = dataclasses.replace(design.access_patterns[0], name="Renamed later")
    project_services.project_save_design(
        project=project,
        design=dataclasses.replace(
            design, access_patterns=(renamed, *design.access_patterns[1:])
        ),
        version=project.version,
        author=editor,
    )
    page.goto(review_url)
    page.click("text=Present revision 1")
    expect(page).to_have_url(re.compile(r"/reviews/\d+/present/0/$"))
    expect(page.locator("[data-slide='0'] [data-verdict]")).to_be_visible()
    # The first key press after loading moves on.
    page.keyboard.press("ArrowRight")
    expect(page).to_have_url(re.compile(r"/present/1/$"))
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(re.compile(r"/present/0/$"))

    count = len(design.access_patterns)
    heights = []
    for position in range(count):
        slide = page.locator(f"[data-slide='{position}']")
        expect(slide).to_be_visible()
        expect(slide.locator("[data-verdict]")).to_be_visible()
        fits = page.evaluate(SLIDE_FITS)
        assert fits["position"] == position
        assert fits["height"] <= size[1], fits
        assert fits["width"] <= size[0], fits
        assert fits["outside"] == [], fits
        assert not fits["header"], "the site's header is on the slide"
        if fits["code"] is not None:
            # Readable from the back of a room: 2.2% of the screen's height
            # (24 px at 1080p), where the old page had 11.7 px.
            assert fits["code"] >= 0.022 * size[1] - 0.1, fits
        heights.append(f"{fits['text']} px (code {fits['code'] or '-'} px)")
        screenshot(f"present-{size[1]}p-{position}", full_page=False)
        if position + 1 < count:
            page.keyboard.press("ArrowRight")
    print(f"at {size[0]}x{size[1]}, each slide's text ends at: {heights}")

    # The deck is revision 1's, not today's.
    first = page.locator("[data-slide='0']")
    expect(first.locator("h1")).to_have_text("Get customer profile")
    expect(page.locator("h1", has_text="Renamed later")).to_have_count(0)
    # The GetItem slide: the profile returned, marked, after its orders
    # counted in one row rather than listed.
    page.goto(page.url.rsplit("/present/", 1)[0] + "/present/0/")
    rows = page.locator("[data-slide='0'] .slide-table tbody tr")
    expect(rows.first).to_contain_text("items not returned")
    expect(page.locator("[data-slide='0'] tr[data-returned]")).to_contain_text(
        "PROFILE"
    )
    expect(page.locator("[data-slide='0'] tr[data-returned]")).to_contain_text(
        "✓ returned"
    )
    assert rows.count() <= 8
    # Leave goes back to the review.
    page.click("[data-slide='0'] [data-leave]")
    expect(page).to_have_url(review_url)


# --- Item 10: print and the minutes --------------------------------------------------

CONTROLS_SHOWN = """() => [...document.querySelectorAll(
    'button, input:not([type=hidden]), select, textarea, form, .btn, summary.btn')]
  .filter((e) => e.getClientRects().length).map((e) => e.outerHTML.slice(0, 80))"""

WORDS_BROKEN = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll('td, th')) {
    // Sample items (the items grid, the item collections) are data, not words.
    if (!cell.getClientRects().length) continue;
    if (cell.closest('.items, .collections, .keymap-cell')) continue;
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.parentElement.closest('code, pre, .mono, svg')) continue;
      for (const word of node.textContent.matchAll(/[A-Za-z]{3,}/g)) {
        const range = document.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const lines = new Set([...range.getClientRects()]
          .filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) {
          broken.push(`${word[0]} in ${cell.closest('table').className} `
            + `${node.parentElement.tagName}.${node.parentElement.className}`);
        }
      }
    }
  }
  return broken;
}"""


WIDER_THAN_A4 = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > 794.5)
  .map((e) => `${e.tagName}.${e.className} `
    + `${Math.round(e.getBoundingClientRect().right)}`)
  .slice(0, 8)"""


def _pdf_pages(page: Page) -> list[str]:
    return [
        p.extract_text() for p in PdfReader(io.BytesIO(page.pdf(format="A4"))).pages
    ]


def test_pages_print_without_controls_blank_pages_or_broken_words(
    page: Page, screenshot
) -> None:
    project, owner, editor, _ = _team()
    history_services.revision_label_set(project=project, number=1, label="first")
    for n in range(3):
        _describe(project, editor, "Customer", f"Change {n}")
    # A4's width: what the printout lays out.
    page.set_viewport_size({"width": 794, "height": 1123})
    _log_in(page, "olga")
    review_url = _open_review(page, project)
    base = f"/projects/{project.pk}"
    for path, ready in (
        (f"{base}/history/compare/?before=1&after=4", ".diff-element"),
        (review_url, "#reviewed-findings .reviewed-element"),
        (f"{base}/review/", ".capacity-table"),
        # The map as printed once its verdicts have come (they load after
        # the page: printed before, the columns are laid out otherwise).
        (f"{base}/key-map/", "#pattern-map:not([hx-get]) .pattern-map"),
        (f"{base}/collections/?index=GSI1", ".attribute-cell"),
        (f"{base}/history/", "#revision-1"),
        (f"{base}/reviews/", "#reviews-heading"),
    ):
        page.goto(path)
        expect(page.locator(ready).first).to_be_visible()
        page.emulate_media(media="print")
        assert page.evaluate(CONTROLS_SHOWN) == [], path
        assert page.evaluate(WORDS_BROKEN) == [], path
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 794, (path, width, page.evaluate(WIDER_THAN_A4))
        page.emulate_media(media="screen")

    # The diff's first printed page holds the diff, not only the header.
    page.goto(f"{base}/history/compare/?before=1&after=4")
    expect(page.locator(".diff-element").first).to_be_visible()
    page.emulate_media(media="print")
    pages = _pdf_pages(page)
    assert "Revision 1 → revision 4" in pages[0], pages[0][:200]
    print(
        f"the diff prints on {len(pages)} pages; "
        f"the first holds {len(pages[0])} characters"
    )


def test_a_wide_collection_diagram_prints_in_readable_strips(page: Page) -> None:
    project, *_ = _team()
    _log_in(page, "olga")
    page.goto(
        f"/projects/{project.pk}/diagrams/?kind=collections&index=table&partitions=3"
    )
    drawing = page.locator("[data-diagram] > svg")
    expect(drawing).to_be_visible()
    natural = page.evaluate(
        "document.querySelector('[data-diagram] > svg').viewBox.baseVal.width"
    )
    page.set_viewport_size({"width": 794, "height": 1123})
    page.emulate_media(media="print")
    strips = page.locator("[data-print-strips] svg")
    expect(strips.first).to_be_visible()
    scales = page.evaluate(
        """() => [...document.querySelectorAll('[data-print-strips] svg')].map(
          (s) => s.getBoundingClientRect().width / s.viewBox.baseVal.width)"""
    )
    covered = page.evaluate(
        """() => { const s = [...document.querySelectorAll('[data-print-strips] svg')];
          const last = s[s.length - 1].viewBox.baseVal; return last.x + last.width; }"""
    )
    # Where the whole drawing at the page's width would print at under
    # half its size, each strip is printed at more than 80%, and the
    # strips cover the drawing.
    assert 794 / natural < 0.5
    assert min(scales) > 0.8 * 4 / 3 * 0.9, scales  # px per point, 90% of 80%
    assert covered >= natural
    print(
        f"a {natural:.0f} pt wide diagram prints in {len(scales)} strips "
        f"at {min(scales) * 0.75:.0%}"
    )


def test_the_minutes_of_one_review(page: Page, other_page: Page, screenshot) -> None:
    project, owner, editor, viewer = _team()
    _log_in(page, "olga")
    _open_review(page, project, "Another review")
    page.fill("#whole-body", "From another review: not in these minutes.")
    page.click("#comment-form button")
    expect(page.locator(".toast", has_text="Comment added.")).to_be_visible()
    review_url = _open_review(page, project)
    order = page.locator("section[aria-label='Entity Order']")
    order.locator("summary", has_text="Comment").first.click()
    order.locator("textarea").first.fill("Why is the date in the sort key?")
    order.locator("button", has_text="Comment").first.click()
    expect(page.locator(".toast", has_text="Comment added.")).to_be_visible()
    _log_in(other_page, "ed")
    other_page.goto(review_url)
    thread = other_page.locator(".comment-thread").first
    thread.locator("summary:text('Reply')").click()
    thread.locator("textarea").fill("So that a customer's orders sort by date.")
    thread.locator("button:text('Reply')").click()
    expect(other_page.locator(".comment-reply")).to_contain_text("sort by date")
    other_page.locator(".comment-thread").first.locator(
        "button:text('Resolve')"
    ).click()
    page.goto(review_url)
    page.click("button:text('Approve revision 1')")
    expect(page.locator("[data-review-status]")).to_have_text("Approved")
    # Order is renamed after: the minutes name it as at revision 1.
    _rename(project, editor, "Order", "Purchase")

    page.click("text=Minutes")
    expect(page.locator("[data-minutes-status]")).to_contain_text("Approved by olga")
    expect(page).to_have_url(re.compile(r"/minutes/$"))
    body = page.locator("body")
    expect(body).to_contain_text("Why is the date in the sort key?")
    expect(body).to_contain_text("So that a customer's orders sort by date.")
    expect(page.locator("h3", has_text="Entity Order")).to_be_visible()
    expect(body).not_to_contain_text("From another review")
    expect(page.locator("[data-minutes-thread]")).to_contain_text("resolved")
    expect(
        page.locator("[data-pack-finding] ul[aria-label=Evidence] li").first
    ).to_be_visible()
    assert page.locator("[data-pack-collections] svg").count() >= 4
    screenshot("meeting-04-minutes")
    page.emulate_media(media="print")
    pages = _pdf_pages(page)
    assert "Key design review" in pages[0] and "Approved" in pages[0]
