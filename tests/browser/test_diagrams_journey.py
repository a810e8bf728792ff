"""A review session: the team opens the key map, checks every pattern's
verdict, walks the item collections of the table and a sparse index,
draws the collections of one partition and the design overview, and
downloads a diagram."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from modeler.designfile import read_design
from modeler.services import projects as project_services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# Generating the sample data and simulating every pattern takes a few seconds.
SLOW_MS = 60_000


def _log_in(page, username: str, password: str) -> None:
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    expect(page).to_have_url(re.compile(r"/$"))


def test_a_review_session_walks_the_key_map_collections_and_diagrams(
    page, screenshot, tmp_path
):
    owner = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "order-management.yaml").read_bytes()).design
    project = project_services.project_create(owner=owner, design=design)
    _log_in(page, "ada", "correct-horse-battery")
    page.goto(f"/projects/{project.pk}/")

    # Key map, with the verdicts filled in by the simulator.
    page.click("nav.tabs >> text=Key map")
    expect(page).to_have_url(re.compile(rf"/projects/{project.pk}/key-map/$"))
    keymap = page.locator("table.keymap")
    expect(keymap.locator("tbody tr")).to_have_count(3)
    expect(keymap).to_contain_text("ORDER#{orderDate}#{orderId}")
    expect(keymap.locator(".keymap-absent").first).to_be_visible()
    expect(page.locator(".pattern-map .verdict-pass")).to_have_count(
        len(design.access_patterns), timeout=SLOW_MS
    )
    expect(page.locator(".pattern-map")).to_contain_text(
        "#PK = :PK AND begins_with(#SK, :SK)"
    )
    keymap.locator("summary", has_text="6 attributes").first.click()
    expect(keymap.locator(".keymap-attributes ul").first).to_contain_text("customerId")
    screenshot("20-key-map")

    # Item collections of the table, then of the sparse GSI2.
    page.click("nav.tabs >> text=Item collections")
    expect(page).to_have_url(re.compile(rf"/projects/{project.pk}/collections/$"))
    expect(page.locator(".partition-header").first).to_be_visible(timeout=SLOW_MS)
    first_keys = page.locator(".partition-key").all_inner_texts()
    assert first_keys == sorted(first_keys)
    screenshot("21-item-collections-table")
    page.select_option("#id_index", "GSI2")
    expect(page).to_have_url(re.compile(r"index=GSI2"))
    expect(page.locator(".partition-key")).to_have_text(["OPEN"])
    expect(page.locator(".absent-count")).to_contain_text("not in this index")
    expect(page.locator(".attribute-cell").first).to_contain_text("PK")
    page.click("nav.pagination >> text=Next")
    expect(page.locator(".pagination")).to_contain_text("Page 2 of")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot("22-item-collections-gsi2")

    # One partition drawn from its row in the table.
    page.select_option("#id_index", "table")
    page.select_option("#id_entity", "Order")
    expect(page).to_have_url(re.compile(r"entity=Order"))
    partition = page.locator(".partition-key").first.inner_text()
    page.locator(".partition-header a", has_text="Diagram").first.click()
    expect(page).to_have_url(re.compile(rf"/projects/{project.pk}/diagrams/\?"))
    diagram = page.locator(".diagram svg")
    expect(diagram).to_be_visible()
    expect(diagram).to_contain_text(partition)
    screenshot("23-diagram-partition")

    # The design overview, and a download.
    page.locator(".diagram-kind label", has_text="Design overview").click()
    expect(page.locator(".diagram-results h2")).to_have_text("Design overview")
    expect(page.locator(".diagram svg")).to_contain_text("Find customer by email")
    # The key templates are drawn whole: SVG text shows no HTML inside it.
    expect(
        page.locator(".diagram svg text", has_text="CUST#{customerId}")
    ).not_to_have_count(0)
    expect(page.locator(".diagram svg span")).to_have_count(0)
    with page.expect_download() as download:
        page.locator(".diagram-results a", has_text="SVG").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "order-management-overview.svg"
    assert saved.read_text().startswith("<svg")
    screenshot("24-diagram-overview")


def test_diagrams_zoom_fit_and_pan(page) -> None:
    owner = User.objects.create_user("zoe", password="correct-horse-battery")
    design = read_design((EXAMPLES / "order-management.yaml").read_bytes()).design
    project = project_services.project_create(owner=owner, design=design)
    _log_in(page, "zoe", "correct-horse-battery")
    page.goto(f"/projects/{project.pk}/diagrams/?kind=overview")
    svg = page.locator("[data-diagram] svg")
    expect(svg).to_be_visible(timeout=SLOW_MS)
    natural = page.evaluate(
        "() => document.querySelector('[data-diagram] svg').viewBox.baseVal.width"
    )
    page.click("button:text('Actual size')")
    expect(svg).to_have_attribute("width", str(round(natural)))
    page.click("[data-zoom='in']")
    expect(svg).to_have_attribute("width", str(round(natural * 1.25)))
    page.click("button:text('Fit')")
    box = page.locator("[data-diagram]").bounding_box()
    assert svg.bounding_box()["width"] <= box["width"] + 1
    # Zoomed in, a drag pans the view.
    page.click("button:text('Actual size')")
    for _ in range(3):
        page.click("[data-zoom='in']")
    diagram = page.locator("[data-diagram]")
    box = diagram.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 100)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 200, box["y"] + 50, steps=5)
    page.mouse.up()
    assert diagram.evaluate("element => element.scrollLeft") > 0
