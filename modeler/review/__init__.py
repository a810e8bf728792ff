"""Design review: findings (scans, hot partitions, 400 KB growth, unsortable
keys, projection cost, DynamoDB's limits...) and the capacity and monthly
cost of a design at its stated traffic. Pure Python; nothing here imports
Django."""

from __future__ import annotations

from modeler.review.cost import Cost, PatternCapacity
from modeler.review.findings import (
    SEVERITIES,
    Finding,
    Location,
    findings_by_location,
    findings_by_severity,
)
from modeler.review.prices import DOCUMENTED_PRICES, Prices, PricesError
from modeler.review.review import ALSO_DESIGN_PROBLEMS, Review, review_design

__all__ = [
    "ALSO_DESIGN_PROBLEMS",
    "DOCUMENTED_PRICES",
    "SEVERITIES",
    "Cost",
    "Finding",
    "Location",
    "PatternCapacity",
    "Prices",
    "PricesError",
    "Review",
    "findings_by_location",
    "findings_by_severity",
    "review_design",
]
