"""The three example designs: the review reports what is really there and
nothing else. Each expected finding is justified below."""

from __future__ import annotations

from pathlib import Path

import pytest

from modeler.designfile import read_design
from modeler.review import review_design
from modeler.simulation import Simulation

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _review(name: str):
    design = read_design((EXAMPLES / f"{name}.yaml").read_bytes()).design
    assert design is not None
    return review_design(design, simulation=Simulation(design))


@pytest.fixture(scope="module")
def reviews():
    return {
        name: _review(name)
        for name in ("order-management", "social-graph", "device-telemetry")
    }


def test_order_management_has_its_constant_open_orders_key_and_partial_gsi_reads(
    reviews,
):
    review = reviews["order-management"]
    found = [(f.code, f.severity, f.location.name) for f in review.findings]
    assert found == [
        # GSI1 projects orderDate, status, total and shippedAt (for the
        # orders of a customer in a status), so finding a customer by email
        # returns its keys and email only: name, phone, createdAt and address
        # take a second request.
        ("fetch-back", "advice", "Find customer by email"),
        # GSI2 is KEYS_ONLY: the open orders come back as keys (and their
        # status is known from the query), their totals need BatchGetItem.
        ("fetch-back", "advice", "All open orders, oldest first"),
        # GSI2's partition key is the constant "OPEN": every open order is in
        # one partition. That is the design's intent (a small sparse working
        # set), and at 50 WCU/s and 10 RCU/s at peak it uses 5% of a
        # partition: an expert would not raise it, so nothing is said.
    ]
    open_orders = review.findings[1]
    assert "total, shippedAt of Order are not in it" in open_orders.evidence[0]
    assert open_orders.figures["requests"] == 4  # 321 open orders, 100 a batch
    assert review.passed == 8


def test_social_graph_is_clean(reviews):
    # Every read is one GetItem or one Query, writes touch one GSI with a
    # small INCLUDE projection, and even the most-followed user (Zipf picks)
    # stays far below a partition's limits.
    assert reviews["social-graph"].findings == ()


def test_device_telemetry_is_clean(reviews):
    # LSI1 caps each device's collection at 10 GB. The busiest of 1,000
    # devices grows it by about 0.07 GB a day, and readings expire 30 days
    # after they are taken (expiresAt is an `expires` generator): about
    # 2.3 GB at most, so nothing is said. GSI1 keys readings by day over ten
    # write shards, about 200 WCU/s each at peak (21% of a partition's
    # limit): already sharded enough. It projects what the day reader shows,
    # so no second read; the table and GSI1 are provisioned for the peak.
    assert reviews["device-telemetry"].findings == ()


def test_the_summary_states_the_findings_and_the_cheaper_mode(reviews):
    summary = " ".join(reviews["order-management"].summary())
    assert "0 errors, 0 warnings and 2 advice" in summary
    assert "8 of 8 access patterns" in summary
    assert "on-demand is cheaper" in summary
    assert "as of 2024-11-01" in summary


def test_a_review_without_the_simulation_is_not_a_go_ahead():
    """Cancelled, failed or past a budget: the patterns were not run, so the
    summary does not call the design deployable nor price it at $0."""
    design = read_design((EXAMPLES / "order-management.yaml").read_bytes()).design
    review = review_design(
        design, simulation_problem="Cancelled with 46,000 of 96,135 items made"
    )
    summary = " ".join(review.summary())

    assert "Not ready to deploy: it was not simulated" in summary
    assert "Not simulated: Cancelled with 46,000 of 96,135 items made" in summary
    assert "No monthly cost" in summary
    assert "Nothing stands in the way" not in summary and "$" not in summary
