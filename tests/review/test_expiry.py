"""A TTL attribute DynamoDB cannot act on: epoch milliseconds (the year
50,000 and more) or a lifetime in seconds (a day after 1970) keep every
item for good; the warning names the cause and the fix."""

from __future__ import annotations

from tests.review.helpers import only, review

SESSIONS = """
entities:
  Session:
    attributes:
      sessionId: {type: S, generator: uuid}
      startedAt: {type: S, generator: {timestamp: {from: 2025-01-01, to: 2025-06-30}}}
      expiresAt: {type: N, generator: GENERATOR}
    keys: {PK: "SESSION#{sessionId}", SK: "SESSION"}
    sample: {count: 30}
access_patterns:
  - name: Get a session
    operation: GetItem
    key: {PK: "SESSION#{sessionId}", SK: "SESSION"}
    expects: {entity: Session, where: {sessionId: "{sessionId}"}}
    traffic: {rps: 5, peak_rps: 10}
"""


def _review(generator: str):
    # The TTL attribute is the table's: a line added under the header's table.
    return review(
        "  ttl_attribute: expiresAt\n" + SESSIONS.replace("GENERATOR", generator)
    )


def test_a_ttl_in_epoch_milliseconds_is_a_warning_naming_the_cause() -> None:
    found = only(
        _review("{int: {min: 1767225600000, max: 1782864000000}}"), "ttl-not-seconds"
    )
    assert found.severity == "warning"
    assert found.location.name == "Session.expiresAt"
    assert "milliseconds" in found.message
    assert found.why.startswith(
        "DynamoDB reads the TTL attribute as epoch seconds, and these values "
        "are epoch milliseconds"
    )
    assert "as epoch seconds that is the year 58," in found.evidence[0]
    assert "divide the milliseconds by 1,000" in found.fix


def test_a_ttl_holding_a_lifetime_is_a_warning() -> None:
    found = only(_review("{int: {min: 3600, max: 86400}}"), "ttl-not-seconds")
    assert "long past" in found.message
    assert "the year 1970" in found.evidence[0]


def test_expiry_in_epoch_seconds_is_fine() -> None:
    for generator in (
        "{expires: {from: startedAt, days: 30}}",
        "{int: {min: 1782864000, max: 1790000000}}",
    ):
        codes = {f.code for f in _review(generator).findings}
        assert "ttl-not-seconds" not in codes, generator
