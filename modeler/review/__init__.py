"""Design review: findings (scans, hot partitions, 400 KB growth, unsortable
keys, projection cost, DynamoDB's limits...) and the capacity and monthly
cost of a design at its stated traffic. Pure Python; nothing here imports
Django. Its findings are the design's one type, `modeler.design.findings`."""

from __future__ import annotations

from modeler.review.cost import Cost, PatternCapacity
from modeler.review.prices import DOCUMENTED_PRICES, Prices, PricesError
from modeler.review.review import Review, review_design

__all__ = [
    "DOCUMENTED_PRICES",
    "Cost",
    "PatternCapacity",
    "Prices",
    "PricesError",
    "Review",
    "review_design",
]
