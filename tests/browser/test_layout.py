"""Every section at 390, 1024, 1440 and 1920 px: the page never scrolls
sideways, nothing sits in a scroll box of its own where the page could
scroll instead (at 1024 px and wider), and key templates never break
inside a {placeholder}. Screenshots of each land in test-output/."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page

from modeler.services import projects as project_services
from tests.views.conftest import example_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct-horse-battery"
SECTIONS = {
    "overview": "",
    "table": "table/",
    "entities": "entities/Order/",
    "patterns": "patterns/",
    "simulation": "simulation/",
    "keymap": "key-map/",
    "collections": "collections/",
    "diagrams": "diagrams/",
    "review": "review/",
    "export": "export/",
    "reviews": "reviews/",
    "history": "history/",
    "share-links": "reviews/share-links/",
    "members": "members/",
}
WIDTHS = (390, 1024, 1440, 1920)
# DEBUG changes no layout: it adds django-htmx's error handler (a script)
# and Django's error pages, which no page here shows. So every width is
# measured with DEBUG off, and every section is opened once with it on, where
# the page fixture still fails on a console error or CSP violation. Each
# section is opened at the first width and measured at each width in turn
# (the layout is CSS alone: the window resized lays the page out again).
LAYOUTS = [
    pytest.param(False, WIDTHS, id="debug-off"),
    pytest.param(True, (1440,), id="debug-on-1440"),
]

# Boxes that scroll on their own (content clipped unless the user scrolls
# inside them), and how far their content runs past them.
_SCROLL_BOXES = """() => [...document.querySelectorAll('main *')].filter((el) => {
  const style = getComputedStyle(el);
  // Tables of sample items (the items grid, the item collections with a
  // column per attribute) hold every attribute: they may scroll sideways.
  const x = /(auto|scroll)/.test(style.overflowX) && el.scrollWidth > el.clientWidth + 1
    && !el.classList.contains('items-wrap')
    && !el.classList.contains('collections-wrap');
  const y = /(auto|scroll)/.test(style.overflowY)
    && el.scrollHeight > el.clientHeight + 1;
  return (x || y) && el.offsetParent !== null && !el.closest('details:not([open])')
    && el.tagName !== 'TEXTAREA' && el.tagName !== 'PRE';
}).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}#${el.id}`
  + ` ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`)"""

# The outermost elements that reach past the window's right edge.
_PAST_THE_EDGE = """() => [...document.querySelectorAll('body *')].filter((el) => {
  const beyond = (e) => e.getBoundingClientRect().right > window.innerWidth + 1;
  return beyond(el) && !(el.parentElement && beyond(el.parentElement));
}).slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`
  + ` (${Math.round(el.getBoundingClientRect().right)} px)`)"""

# In print, any box whose content runs past it is clipped on paper.
_CLIPPED = """() => [...document.querySelectorAll('main *')].filter((el) => {
  const style = getComputedStyle(el);
  const clips = (v) => v !== 'visible';
  return el.offsetParent !== null
    && !el.closest('details:not([open]), .visually-hidden')
    && el.tagName !== 'TEXTAREA' && el.tagName !== 'INPUT' && el.tagName !== 'SELECT'
    && ((clips(style.overflowX) && el.scrollWidth > el.clientWidth + 1)
      || (clips(style.overflowY) && el.scrollHeight > el.clientHeight + 1));
}).map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`
  + ` ${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`)"""

# Placeholders ({customerId}, {lineNo:03d}) drawn over two lines.
_BROKEN_PLACEHOLDERS = """() => {
  const broken = [];
  const main = document.querySelector('main');
  const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.parentElement.offsetParent) continue;
    for (const match of node.textContent.matchAll(/\\{[A-Za-z0-9_.:-]+\\}/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (tops.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""


@pytest.mark.parametrize(("debug", "widths"), LAYOUTS, indirect=["debug"])
def test_every_section_fits(page: Page, screenshot, widths: tuple[int, ...]) -> None:
    owner = User.objects.create_user("lin", password=PASSWORD)
    project = project_services.project_create(
        owner=owner, design=example_design("order-management")
    )
    page.goto("/login/")
    page.fill("#id_username", "lin")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    problems = []
    for name, path in SECTIONS.items():
        page.set_viewport_size({"width": widths[0], "height": 900})
        response = page.goto(f"/projects/{project.pk}/{path}")
        assert response.ok, f"{name}: HTTP {response.status}"
        page.wait_for_load_state("networkidle")
        for width in widths:
            page.set_viewport_size({"width": width, "height": 900})
            screenshot(f"layout-{width}-{name}")
            at = f"{name} at {width} px"
            page_width = page.evaluate("document.documentElement.scrollWidth")
            if page_width > width:
                problems.append(
                    f"{at}: the page is {page_width} px wide, past its right edge: "
                    + ", ".join(page.evaluate(_PAST_THE_EDGE))
                )
            if width >= 1024:
                problems += [f"{at}: {box}" for box in page.evaluate(_SCROLL_BOXES)]
            problems += [
                f"{at}: {text} broken over two lines"
                for text in page.evaluate(_BROKEN_PLACEHOLDERS)
            ]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("debug", [False], ids=["debug-off"], indirect=True)
def test_every_section_prints_without_clipping(page: Page, screenshot) -> None:
    """The print stylesheet: no page wider than the paper, no box that
    clips its content (a printed scroll box hides rows), for every section."""
    owner = User.objects.create_user("lin", password=PASSWORD)
    project = project_services.project_create(
        owner=owner, design=example_design("order-management")
    )
    page.goto("/login/")
    page.fill("#id_username", "lin")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.set_viewport_size({"width": 800, "height": 1100})  # about A4 at 96 dpi
    page.emulate_media(media="print")
    problems = []
    for name, path in SECTIONS.items():
        response = page.goto(f"/projects/{project.pk}/{path}")
        assert response.ok, f"{name}: HTTP {response.status}"
        page.wait_for_load_state("networkidle")
        screenshot(f"print-{name}")
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 800:
            problems.append(f"{name}: printed {width} px wide")
        problems += [f"{name}: {box}" for box in page.evaluate(_CLIPPED)]
    assert problems == [], "\n".join(problems)
