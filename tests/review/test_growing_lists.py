"""A list that grows past what the sample data should make (a trail of
2,400 GPS points) is reviewed, not refused: its generator makes a `sample`
of its elements, and the review sizes the item at `max` and tells the day
it reaches 400 KB at `per_day` elements a day."""

from __future__ import annotations

from modeler.design_check import check_design
from modeler.designfile import dump_design, read_design
from tests.review.helpers import HEADER, design_from, only, review_of

TRIPS = """\
entities:
  Trip:
    attributes:
      tripId: {type: S, generator: uuid}
      points:
        type: L
        generator:
          list:
            of:
              map:
                fields:
                  lat: {decimal: {min: -90, max: 90, places: 6}}
                  lon: {decimal: {min: -180, max: 180, places: 6}}
                  at: {timestamp: {from: 2025-01-01, to: 2025-12-31}}
                  cell: {faker: {provider: bothify, text: "CELL-????????-????????"}}
                  road: {faker: {provider: bothify, text: "?????????? ??????????"}}
                  note: {faker: {provider: bothify, text: "???????????????????????"}}
                  hash: {faker: {provider: hexify, text: "HASH"}}
            min: 2400
            max: 2400
            GROWTH
    keys: {PK: "TRIP#{tripId}", SK: "TRIP"}
    sample: {count: 5}
access_patterns:
  - name: Get a trip
    operation: GetItem
    key: {PK: "TRIP#{tripId}", SK: "TRIP"}
    expects: {entity: Trip, where: {tripId: "{tripId}"}}
    traffic: {rps: 5, peak_rps: 10}
"""
GROWTH = "sample: 20\n            per_day: 200"
# A hash of the point's fix: 64 hex digits.
HASH = "^" * 64


def test_a_list_of_2400_elements_without_a_sample_is_refused_with_the_way_out() -> None:
    result = read_design(HEADER + TRIPS.replace("HASH", HASH).replace("GROWTH", ""))
    [problem] = [p for p in result.problems if p.is_error]
    assert "at most 1,000" in problem.message
    assert "(sample: 50)" in problem.message


def test_a_growing_list_is_reviewed_with_the_day_it_reaches_400_kb() -> None:
    design = design_from(TRIPS.replace("HASH", HASH).replace("GROWTH", GROWTH))
    assert not [p for p in check_design(design) if p.is_error]
    review = review_of(design)
    found = only(review, "item-size")
    assert found.severity == "error"
    # One finding about the list, not also "can grow" and "large value".
    assert [f.code for f in review.findings if f.location.name == "Trip.points"] == [
        "item-size"
    ]
    assert found.location.name == "Trip.points"
    # 2,400 points of about 200 bytes: past 400 KB at about 2,000 of them,
    # on day 11 at 200 a day.
    assert found.figures["bytes"] > 409_600
    fits = found.figures["elements_that_fit"]
    assert 1_500 < fits < 2_400
    assert found.figures["day"] == -(-fits // 200)
    assert f"on day {found.figures['day']:,.0f} at 200 elements a day" in found.why
    assert found.why.startswith("points keeps growing inside one item")
    assert "its own item" in found.fix


def test_the_sample_makes_only_the_sampled_elements() -> None:
    from modeler.sampledata import generate

    design = design_from(TRIPS.replace("HASH", HASH).replace("GROWTH", GROWTH))
    items = generate(design).items
    assert items and all(len(item["points"]) == 20 for item in items)


def test_sample_and_per_day_are_checked() -> None:
    for growth, field in (
        ("sample: 0", "sample"),
        ("sample: 3000", "sample"),
        ("sample: 20\n            per_day: -1", "per_day"),
    ):
        result = read_design(
            HEADER + TRIPS.replace("HASH", HASH).replace("GROWTH", growth)
        )
        [problem] = [p for p in result.problems if p.is_error]
        assert problem.path.endswith(f".{field}"), problem


def test_the_design_file_keeps_sample_and_per_day() -> None:
    design = design_from(TRIPS.replace("HASH", HASH).replace("GROWTH", GROWTH))
    again = read_design(dump_design(design)).design
    params = again.entity("Trip").attribute("points").generator.params
    assert params["sample"] == 20 and params["per_day"] == 200


APPEND = """\
  - name: Record a point
    operation: UpdateItem
    entity: Trip
    append: {points: "{point}"}
    parameters:
      point: {type: S, example: "48.85,2.35"}
    traffic: {rps: 0.05, peak_rps: 1}
"""


def test_the_day_comes_from_the_appends_when_per_day_is_not_declared() -> None:
    """No per_day: 'Record a point' appends 0.05 points a second over the 5
    trips of the sample, 864 points a trip a day."""
    design = design_from(
        TRIPS.replace("HASH", HASH).replace("GROWTH", "sample: 20") + APPEND
    )
    found = only(review_of(design), "item-size")
    assert found.figures["per_day"] == 864
    fits = found.figures["elements_that_fit"]
    assert found.figures["day"] == -(-fits // 864)
    assert f"on day {found.figures['day']:,.0f} at 864 elements a day" in found.why
    assert (
        "('Record a point': 0.05 appends a second over the 5 Trip items of "
        "the sample, one element each)" in " ".join(found.evidence)
    )


def test_a_declared_per_day_is_kept_over_the_appends() -> None:
    design = design_from(TRIPS.replace("HASH", HASH).replace("GROWTH", GROWTH) + APPEND)
    found = only(review_of(design), "item-size")
    assert found.figures["per_day"] == 200
