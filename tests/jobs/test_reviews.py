"""Reviews kept in the shared cache, which outlives a deploy, are read back
only by the code whose classes they hold."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from modeler.jobs.reviews import forget_reviews, review_key, review_store, review_stored
from modeler.review import DOCUMENTED_PRICES, review_design
from tests.review.helpers import design_from

# A review pickled by the code before the one finding type: its findings
# were modeler.review.findings.Finding, a module that is gone.
BEFORE_ONE_FINDING_TYPE = b"\x80\x02cmodeler.review.findings\nFinding\n)\x81."

# A scan at traffic is a finding, so the review holds one.
ORDERS = """
entities:
  Order:
    attributes:
      orderId: {type: S, generator: ulid}
    keys: {PK: "ORDER#{orderId}", SK: "ORDER"}
    sample: {count: 20}
access_patterns:
  - name: Orders, scanning
    operation: Scan
    traffic: {rps: 5, peak_rps: 20}
"""


@pytest.mark.django_db
def test_a_review_pickled_by_earlier_code_is_made_again_not_read_back():
    design = design_from(ORDERS)
    key = review_key(design, DOCUMENTED_PRICES, None)
    cache.set(f"review:{key}", BEFORE_ONE_FINDING_TYPE)
    forget_reviews()
    assert review_stored(key) is None


@pytest.mark.django_db
def test_a_review_stored_now_is_read_back_by_another_process():
    design = design_from(ORDERS)
    key = review_key(design, DOCUMENTED_PRICES, None)
    review = review_design(design)
    assert review.findings
    review_store(key, review)
    forget_reviews()  # as another process, which has only the shared cache
    assert review_stored(key) == review
