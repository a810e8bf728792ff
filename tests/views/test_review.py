"""The Review section: findings by severity with links, the capacity and
cost table, the meeting summary, and the prices owners and editors set."""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from modeler.conversion import design_from_project
from modeler.design import model as d
from modeler.design_check import limits
from modeler.designfile import read_design
from modeler.jobs import runner
from modeler.jobs.runner import forget_runs
from modeler.models import Project, ReviewSettings, SimulationJob
from modeler.services import projects as project_services
from modeler.views.review import review_findings_by_location
from tests.views.conftest import logged_in
from tests.views.starting import start_jobs

SCRIPT = "<script>alert(1)</script>"

VALID = {
    "region": "eu-west-1",
    "taken": "2025-06-01",
    "read_request_per_million": "0.25",
    "write_request_per_million": "1.25",
    "rcu_hour": "0.00026",
    "wcu_hour": "0.0013",
    "storage_gb_month": "0.5",
    "stored_items": "2000000",
    "version": "0",
}
SITE = {
    "region": "us-east-1",
    "taken": "2024-11-01",
    "read_request_per_million": "0.125",
    "write_request_per_million": "0.625",
    "rcu_hour": "0.00013",
    "wcu_hour": "0.00065",
    "storage_gb_month": "0.25",
    "stored_items": "",
    "version": "0",
}


def _page(project: Project) -> str:
    return reverse("review-page", args=[project.pk])


def _prices(project: Project) -> str:
    return reverse("review-prices", args=[project.pk])


def _html(response: HttpResponse) -> str:
    return response.content.decode()


def test_the_page_shows_findings_costs_summary_and_the_price_form(
    owner_client: Client, project: Project
):
    start_jobs(owner_client, project)
    response = owner_client.get(_page(project))
    html = _html(response)
    assert response.status_code == 200
    assert "<html" in html
    assert 'aria-current="page">Review</a>' in html
    # The findings of the example, under Advice, linked to their patterns.
    assert 'id="findings-advice"' in html and 'id="findings-error"' not in html
    assert "Needs a second request for unprojected attributes" in html
    pattern_url = reverse("editor-patterns", args=[project.pk]) + "#pattern-5"
    assert f'href="{pattern_url}">' in html
    # The summary and the cost of every pattern.
    assert "0 errors, 0 warnings and 2 advice." in html
    assert "8 of 8 access patterns return exactly what they promise" in html
    assert "Place an order with its line items" in html
    # Its 20 WCU: the transaction's items on the table and on three GSIs
    # (the order its sample draws is OPEN, so it is in the open-orders GSI2).
    assert "20 WCU" in html
    assert '<span class="units-split">table 8, GSI1 2, GSI2 2, GSI3 8</span>' in html
    assert "<strong>On demand is cheaper</strong>" in html
    assert "Prices for us-east-1 as of 2024-11-01 (the site's)" in html
    assert 'name="rcu_hour"' in html and "Save prices" in html


def test_htmx_gets_the_section_partial(owner_client: Client, project: Project):
    response = owner_client.get(_page(project), headers={"HX-Request": "true"})
    html = _html(response)
    assert response.status_code == 200
    assert "<html" not in html
    assert html.lstrip().startswith('<div id="review">')


def test_a_viewer_reads_the_prices_without_a_form(
    viewer_client: Client, project: Project
):
    start_jobs(viewer_client, project)
    html = _html(viewer_client.get(_page(project)))
    assert "Needs a second request for unprojected attributes" in html
    assert 'name="rcu_hour"' not in html
    assert "$0.00013 per RCU-hour" in html
    assert "Owners and editors can change these." in html


def test_outsiders_get_404_and_visitors_the_login(
    outsider_client: Client, project: Project
):
    assert outsider_client.get(_page(project)).status_code == 404
    assert outsider_client.post(_prices(project), VALID).status_code == 404
    response = Client().get(_page(project))
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_an_editor_sets_the_projects_prices_and_item_count(
    editor_client: Client, project: Project, monkeypatch
):
    forget_runs()
    ran = []
    real = runner._run
    monkeypatch.setattr(runner, "_run", lambda *a: ran.append(1) or real(*a))
    start_jobs(editor_client, project)
    before = _html(editor_client.get(_page(project)))
    assert "2,000,000 items" not in before
    patterns = len(ran)
    assert patterns == 8

    response = editor_client.post(_prices(project), VALID)

    assert response.status_code == 302
    assert response["Location"] == _page(project)
    row = ReviewSettings.objects.get(project=project)
    assert (row.region, row.taken, row.rcu_hour, row.stored_items) == (
        "eu-west-1",
        dt.date(2025, 6, 1),
        Decimal("0.00026"),
        2_000_000,
    )
    start_jobs(editor_client, project)
    html = _html(editor_client.get(_page(project)))
    assert "Prices for eu-west-1 as of 2025-06-01 (this project's)" in html
    assert "2,000,000 items" in html
    # Reads and writes cost twice the site's prices: $396.17247 a month on
    # demand (the open orders' second read included) becomes $792.34494.
    assert "$792.34" in html
    # New prices make a new review in a new job; the patterns are not run
    # again.
    assert SimulationJob.objects.filter(project=project).count() == 2
    assert len(ran) == patterns


def test_the_sites_own_prices_are_not_copied(owner_client: Client, project: Project):
    owner_client.post(_prices(project), {**SITE, "stored_items": "5000"})
    row = ReviewSettings.objects.get(project=project)
    assert row.taken is None and row.rcu_hour is None
    assert row.stored_items == 5000
    start_jobs(owner_client, project)
    assert "(the site's)" in _html(owner_client.get(_page(project)))


def test_invalid_prices_keep_the_input_and_change_nothing(
    owner_client: Client, project: Project
):
    tomorrow = (dt.date.today() + dt.timedelta(days=2)).isoformat()
    response = owner_client.post(
        _prices(project),
        {**VALID, "rcu_hour": "-1", "taken": tomorrow, "region": SCRIPT},
    )
    html = _html(response)
    assert response.status_code == 422
    assert "Ensure this value is greater than or equal to 0." in html
    assert "The prices cannot be taken in the future." in html
    assert 'value="-1"' in html
    assert f'value="{tomorrow}"' in html
    assert escape(SCRIPT) in html and SCRIPT not in html
    assert not ReviewSettings.objects.filter(project=project).exists()


def test_htmx_invalid_prices_answer_the_section_with_the_errors(
    owner_client: Client, project: Project
):
    response = owner_client.post(
        _prices(project),
        {**VALID, "storage_gb_month": "lots"},
        headers={"HX-Request": "true"},
    )
    html = _html(response)
    assert response.status_code == 422
    assert "<html" not in html
    assert "Enter a number." in html
    assert 'value="lots"' in html


def test_viewers_cannot_change_prices(viewer_client: Client, project: Project):
    assert viewer_client.post(_prices(project), VALID).status_code == 403
    reset = reverse("review-prices-reset", args=[project.pk])
    assert viewer_client.post(reset).status_code == 403
    assert not ReviewSettings.objects.filter(project=project).exists()


def test_reset_goes_back_to_the_sites_prices_and_keeps_the_item_count(
    owner_client: Client, project: Project
):
    owner_client.post(_prices(project), VALID)
    start_jobs(owner_client, project)
    html = _html(owner_client.get(_page(project)))
    assert "Use the site's prices (as of 2024-11-01)" in html

    response = owner_client.post(
        reverse("review-prices-reset", args=[project.pk]), {"version": 1}
    )

    assert response.status_code == 302
    row = ReviewSettings.objects.get(project=project)
    assert row.taken is None and row.stored_items == 2_000_000
    start_jobs(owner_client, project)
    assert "(the site's)" in _html(owner_client.get(_page(project)))


def test_two_people_saving_prices_do_not_overwrite_each_other(
    owner_client: Client, editor_client: Client, project: Project
):
    """Both opened the page at the same settings; the second save is refused
    with the first one's values shown beside the input as typed, and saving
    again (at the version now shown) keeps it."""
    assert editor_client.post(_prices(project), VALID).status_code == 302
    mine = {**VALID, "region": "ap-south-1", "rcu_hour": "0.0003"}

    response = owner_client.post(_prices(project), mine)

    assert response.status_code == 409
    html = _html(response)
    assert "editor changed the prices and items since you opened this page" in html
    assert "The prices and items saved now (by editor)" in html
    assert 'value="ap-south-1"' in html  # the input as typed
    assert '<input type="hidden" name="version" value="1"' in html
    row = ReviewSettings.objects.get(project=project)
    assert (row.region, row.version) == ("eu-west-1", 1)

    response = owner_client.post(_prices(project), {**mine, "version": "1"})

    assert response.status_code == 302
    row.refresh_from_db()
    assert (row.region, row.version, row.updated_by.username) == (
        "ap-south-1",
        2,
        "owner",
    )
    # A reset from a page showing older settings is refused too.
    stale = owner_client.post(
        reverse("review-prices-reset", args=[project.pk]), {"version": 1}
    )
    assert stale.status_code == 302
    row.refresh_from_db()
    assert row.region == "ap-south-1"


@pytest.mark.parametrize("name", ["review-prices", "review-prices-reset"])
def test_posts_need_the_csrf_token(project: Project, owner: User, name: str):
    client = logged_in(owner, enforce_csrf_checks=True)
    assert client.post(reverse(name, args=[project.pk]), VALID).status_code == 403


def test_the_page_takes_only_get(owner_client: Client, project: Project):
    assert owner_client.post(_page(project)).status_code == 405
    assert owner_client.get(_prices(project)).status_code == 405


HOSTILE = """\
format: single-table-workbench/v1
name: Hostile
table: {name: hostile, partition_key: PK, sort_key: SK}
entities:
  Thing:
    attributes:
      id: {type: S, generator: ulid}
      kind: {type: S, generator: {choice: [A, B]}}
    keys: {PK: "T#{id}", SK: "T"}
    sample: {count: 20}
access_patterns:
  - name: "<script>alert(1)</script>"
    operation: Scan
    filter: 'kind = "A"'
    expects: {entity: Thing, where: {kind: A}}
    traffic: {rps: 5, peak_rps: 10}
"""


def test_user_text_is_escaped_and_findings_link_to_their_pattern(owner: User):
    design = read_design(HOSTILE).design
    project = project_services.project_create(owner=owner, design=design)
    client = logged_in(owner)
    start_jobs(client, project)
    html = _html(client.get(_page(project)))
    assert SCRIPT not in html
    assert escape(SCRIPT) in html
    assert 'id="findings-error"' in html
    assert "No index can serve this pattern" in html
    assert reverse("editor-patterns", args=[project.pk]) + "#pattern-0" in html
    assert reverse("simulation-pattern", args=[project.pk, 0]) in html


def test_findings_by_location_for_the_other_sections(project: Project):
    # The design as every process reads it (the views' `design_for`).
    design = design_from_project(project)
    start_jobs(logged_in(project.owner), project)
    found, job = review_findings_by_location(project=project, design=design)
    assert found is not None  # made by the job started above
    (row,) = found[("pattern", "All open orders, oldest first")]
    assert row.finding.code == "fetch-back"
    assert row.url == reverse("editor-patterns", args=[project.pk]) + "#pattern-5"
    assert ("index", "GSI2") not in found
    assert ("entity", "Order") not in found


def test_a_new_project_without_patterns_says_what_the_review_needs(owner: User):
    project = project_services.project_create(
        owner=owner, design=project_services.new_design(name="Empty")
    )
    client = logged_in(owner)
    start_jobs(client, project)
    html = _html(client.get(_page(project)))
    assert "No findings yet." in html
    assert reverse("editor-patterns", args=[project.pk]) in html
    assert "No sample items to measure sizes from." in html


def test_a_design_the_simulator_cannot_load_is_reviewed_without_it(owner: User):
    text = HOSTILE.replace("{count: 20}", "{count: 5000000}").replace(
        '"<script>alert(1)</script>"', "All things of a kind"
    )
    # Stored before the site's limit on sample items was lowered below it.
    with limits.configured(limits.DesignLimits(sample_items=10**8)):
        design = read_design(text).design
    project = project_services.project_create(owner=owner, design=design)
    client = logged_in(owner)
    start_jobs(client, project)
    html = _html(client.get(_page(project)))
    assert "Only what the design alone shows was checked" in html
    # Its job holds it to the limit as it is now, before making any item.
    assert (
        "The sample data cannot be made: a count of 5,000,000 items; this "
        "workbench allows at most 100,000 (setting SAMPLE_MAX_ITEMS)."
    ) in html
    # The Scan needs no simulation to be found.
    assert "No index can serve this pattern" in html
    assert "Not simulated:" in html


def test_patterns_without_traffic_are_named_beside_the_cost(
    owner_client: Client, project: Project
):
    """At 0 requests a second a pattern costs $0: the cost says which ones,
    and a new pattern starts at the stated 1 request a second."""
    assert "state no traffic" not in _html(owner_client.get(_page(project)))

    design = design_from_project(project)
    quiet = dataclasses.replace(
        design.access_patterns[1], traffic=d.Traffic(rps=0.0, peak_rps=0.0)
    )
    patterns = list(design.access_patterns)
    patterns[1] = quiet
    project_services.project_save_design(
        project=project,
        design=dataclasses.replace(design, access_patterns=tuple(patterns)),
        version=project.version,
    )
    start_jobs(owner_client, project)
    html = _html(owner_client.get(_page(project)))
    assert "1 access pattern states no traffic (0 requests a second)" in html
    assert f"<strong>{escape(quiet.name)}</strong>" in html

    new = _html(owner_client.get(reverse("editor-pattern-create", args=[project.pk])))
    assert re.search(r'<input[^>]*name="new-rps"[^>]*value="1.0"', new)
    assert "A new pattern starts at 1 request a second" in new
