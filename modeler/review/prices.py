"""DynamoDB prices as settings: each set of prices carries the date it was
taken, so a cost estimate says how old its prices are.

The defaults are the us-east-1 list prices of the standard table class
(shared/DOMAIN.md): on-demand request units since November 2024,
provisioned capacity per hour, storage per GB-month (free tier aside).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, fields
from decimal import Decimal, InvalidOperation
from typing import Any

HOURS_PER_MONTH = 730  # AWS's pricing convention: 8,760 hours / 12
SECONDS_PER_MONTH = HOURS_PER_MONTH * 3600
BYTES_PER_GB = 1024**3
STORAGE_OVERHEAD_BYTES = 100  # billed per item and per index entry
TARGET_UTILIZATION = 0.70  # provisioned capacity is sized for peak at 70%


class PricesError(ValueError):
    """Prices that cannot be used: says which field and what was expected."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(f"{field_name}: {message}")
        self.field_name = field_name
        self.message = message


@dataclass(frozen=True)
class Prices:
    """US dollars. Request units per million, capacity units per hour."""

    read_request_per_million: Decimal
    write_request_per_million: Decimal
    rcu_hour: Decimal
    wcu_hour: Decimal
    storage_gb_month: Decimal
    taken: dt.date
    region: str = "us-east-1"

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> Prices:
        """Prices from settings or a form; every field is required, money
        is a number of 0 or more, `taken` an ISO date not in the future."""
        out: dict[str, Any] = {}
        for item in fields(cls):
            name = item.name
            if name not in values:
                if name == "region":
                    continue
                raise PricesError(name, "is required")
            value = values[name]
            if name == "taken":
                out[name] = _date(value)
            elif name == "region":
                out[name] = str(value).strip() or "us-east-1"
            else:
                out[name] = _money(name, value)
        return cls(**out)

    def as_mapping(self) -> dict[str, Any]:
        return {
            "read_request_per_million": str(self.read_request_per_million),
            "write_request_per_million": str(self.write_request_per_million),
            "rcu_hour": str(self.rcu_hour),
            "wcu_hour": str(self.wcu_hour),
            "storage_gb_month": str(self.storage_gb_month),
            "taken": self.taken.isoformat(),
            "region": self.region,
        }


def _money(name: str, value: Any) -> Decimal:
    try:
        amount = Decimal(str(value).strip())
    except InvalidOperation:
        raise PricesError(name, f"'{value}' is not a number") from None
    if not amount.is_finite() or amount < 0:
        raise PricesError(name, "must be a number of 0 or more")
    return amount


def _date(value: Any) -> dt.date:
    if isinstance(value, dt.datetime):
        value = value.date()
    if not isinstance(value, dt.date):
        try:
            value = dt.date.fromisoformat(str(value).strip())
        except ValueError:
            raise PricesError(
                "taken", f"'{value}' is not a date; expected YYYY-MM-DD"
            ) from None
    return value


# The documented prices (shared/DOMAIN.md), in effect since 2024-11-01.
DOCUMENTED_PRICES = Prices(
    read_request_per_million=Decimal("0.125"),
    write_request_per_million=Decimal("0.625"),
    rcu_hour=Decimal("0.00013"),
    wcu_hour=Decimal("0.00065"),
    storage_gb_month=Decimal("0.25"),
    taken=dt.date(2024, 11, 1),
)
