"""Values as CloudFormation and Terraform write them: booleans as true or
'true', whole numbers as numbers or text.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any


def loose_boolean(value: Any) -> Any:
    """CloudFormation and Terraform write booleans as true or as 'true'; any
    other value is kept, for the design check to name."""
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    return value


def value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():  # not inf or nan
        value = int(value)
    return str(value)


def cooldown_seconds(value: Any) -> int | None:
    """A cooldown: whole seconds, 0 included."""
    if isinstance(value, str) and value.strip() == "0":
        return 0
    if not isinstance(value, bool) and value == 0:
        return 0
    return whole_number(value)


def whole_number(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, float) and not value.is_integer():  # inf and nan too
        return None
    if isinstance(value, Decimal) and not (
        value.is_finite() and value == value.to_integral_value()
    ):
        return None
    if isinstance(value, (int, float, Decimal)) and value >= 1:
        return int(value)
    return None
