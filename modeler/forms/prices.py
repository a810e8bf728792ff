"""The Review section's form: the prices of the cost estimate and the
table's item count."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone

from modeler.review import Prices, PricesError

MAX_STORED_ITEMS = 10**15


def money_text(amount: Decimal) -> str:
    """A price as written: 0.00013, 10, 0.5 (no exponent, no trailing
    zeros)."""
    return format(amount.normalize(), "f")


def _money(label: str) -> forms.DecimalField:
    return forms.DecimalField(
        label=label,
        min_value=0,
        max_digits=14,
        decimal_places=8,
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
    )


class CostSettingsForm(forms.Form):
    region = forms.CharField(label="Region", max_length=40)
    taken = forms.DateField(
        label="Prices taken on",
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text="The date you looked the prices up.",
    )
    read_request_per_million = _money("On-demand reads ($ per million RRU)")
    write_request_per_million = _money("On-demand writes ($ per million WRU)")
    rcu_hour = _money("Provisioned reads ($ per RCU-hour)")
    wcu_hour = _money("Provisioned writes ($ per WCU-hour)")
    storage_gb_month = _money("Storage ($ per GB-month)")
    # The version of the settings the page showed (0: never saved).
    version = forms.IntegerField(min_value=0, widget=forms.HiddenInput)
    stored_items = forms.IntegerField(
        label="Items in the table",
        required=False,
        min_value=0,
        max_value=MAX_STORED_ITEMS,
        help_text="For the storage cost. Empty: as many as the sample data.",
    )

    @classmethod
    def for_settings(
        cls, prices: Prices, stored_items: int | None, version: int = 0
    ) -> CostSettingsForm:
        initial: dict[str, Any] = {
            "region": prices.region,
            "taken": prices.taken,
            "stored_items": stored_items,
            "version": version,
        }
        for name in (
            "read_request_per_million",
            "write_request_per_million",
            "rcu_hour",
            "wcu_hour",
            "storage_gb_month",
        ):
            initial[name] = money_text(getattr(prices, name))
        return cls(initial=initial)

    def clean_region(self) -> str:
        return self.cleaned_data["region"].strip()

    def clean_taken(self) -> dt.date:
        taken = self.cleaned_data["taken"]
        if taken > timezone.localdate():
            raise forms.ValidationError("The prices cannot be taken in the future.")
        return taken

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors:
            try:
                data["prices"] = Prices.from_mapping(data)
            except PricesError as exc:
                self.add_error(
                    exc.field_name if exc.field_name in self.fields else None,
                    exc.message,
                )
        return data
