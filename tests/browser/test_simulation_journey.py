"""A designer checks a design against its sample data: log in, open an
example project's Simulation tab, read the verdicts and a request, then try
another seed and import items of their own."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import expect

from modeler import services
from modeler.designfile import read_design
from tests.views.conftest import stored_design

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# Generating the sample data and running every pattern takes a few seconds.
RESULTS_TIMEOUT_MS = 60_000


def _log_in(page, username: str, password: str) -> None:
    page.goto("/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    expect(page).to_have_url(re.compile(r"/$"))


def _wait_for_every_verdict(page, count: int) -> None:
    expect(page.locator(".sim-pattern [data-verdict]")).to_have_count(
        count, timeout=RESULTS_TIMEOUT_MS
    )


def test_every_pattern_of_an_example_passes_and_shows_its_request(page, screenshot):
    owner = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "order-management.yaml").read_bytes()).design
    project = services.project_create(owner=owner, design=design)
    patterns = len(design.access_patterns)

    _log_in(page, "ada", "correct-horse-battery")
    page.click("text=Order management")
    page.click("nav.tabs >> text=Simulation")
    expect(page).to_have_url(re.compile(rf"/projects/{project.pk}/simulation/$"))

    _wait_for_every_verdict(page, patterns)
    verdicts = page.locator(".sim-pattern [data-verdict]").evaluate_all(
        "results => results.map(result => result.dataset.verdict)"
    )
    assert verdicts == ["pass"] * patterns
    expect(page.locator("[data-simulation-summary]")).to_have_text(
        f"{patterns} of {patterns} patterns pass"
    )
    panel = page.locator(".sample-data")
    expect(panel.locator(".stats")).to_contain_text("42")
    expect(panel.locator(".sample-counts tbody tr")).to_have_count(3)

    card = page.locator(".sim-pattern", has_text="Orders of a customer, newest first")
    card.locator("summary", has_text="Query request").click()
    request = card.locator(".request-grid pre").first
    expect(request).to_be_visible()
    expect(request).to_contain_text('"KeyConditionExpression"')
    expect(card.locator(".request-grid pre").nth(1)).to_contain_text(
        "aws dynamodb query"
    )
    expect(card.locator("table.items tbody tr")).to_have_count(20)
    page.evaluate("window.scrollTo(0, 0)")
    screenshot("10-simulation")
    card.evaluate("card => card.scrollIntoView()")
    screenshot("11-simulation-request", full_page=False)


def test_another_seed_and_own_items_rerun_the_patterns(page, screenshot):
    owner = User.objects.create_user("ada", password="correct-horse-battery")
    design = read_design((EXAMPLES / "social-graph.yaml").read_bytes()).design
    project = services.project_create(owner=owner, design=design)
    patterns = len(design.access_patterns)
    _log_in(page, "ada", "correct-horse-battery")
    page.goto(f"/projects/{project.pk}/simulation/")
    _wait_for_every_verdict(page, patterns)

    # A new seed: the section is swapped in place and the patterns run again.
    page.fill("#id_seed", "7")
    page.click("button:text('Regenerate')")
    expect(page.locator(".toast", has_text="seed 7")).to_be_visible()
    _wait_for_every_verdict(page, patterns)
    expect(page.locator("[data-simulation-summary]")).to_have_text(
        f"{patterns} of {patterns} patterns pass"
    )
    assert stored_design(project).sample_data.seed == 7

    # A broken file is refused with every problem, and nothing is kept.
    download = page.locator("a", has_text="Download .jsonl")
    with page.expect_download() as info:
        download.click()
    lines = Path(info.value.path()).read_text().splitlines()
    broken = "\n".join([lines[0], "{not json", lines[1], '{"PK": {"S": "x"}}'])
    page.set_input_files(
        "#id_file",
        files=[
            {
                "name": "mine.jsonl",
                "mimeType": "application/x-ndjson",
                "buffer": broken.encode(),
            }
        ],
    )
    page.click("button:text('Import items')")
    problems = page.locator(".file-problems .problem")
    expect(problems).to_have_count(2)
    expect(problems.first).to_contain_text("mine.jsonl:2")
    expect(problems.nth(1)).to_contain_text("mine.jsonl:4")
    assert not stored_design(project).sample_data.items
    screenshot("12-simulation-import-problems")

    # Two good lines are imported and counted as the user's own.
    page.set_input_files(
        "#id_file",
        files=[
            {
                "name": "mine.jsonl",
                "mimeType": "application/x-ndjson",
                "buffer": "\n".join(lines[:2]).encode(),
            }
        ],
    )
    page.click("button:text('Import items')")
    expect(page.locator(".toast", has_text="Imported 2 items")).to_be_visible()
    expect(
        page.locator(".stats div", has_text="Your items").locator("dd")
    ).to_have_text("2")
    _wait_for_every_verdict(page, patterns)
    assert len(stored_design(project).sample_data.items) == 2
