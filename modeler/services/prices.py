"""Writes and actions on projects. Each takes keyword-only arguments and
either completes or changes nothing."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from modeler.models import Project, ReviewSettings
from modeler.review.prices import Prices

PRICE_FIELDS = (
    "taken",
    "read_request_per_million",
    "write_request_per_million",
    "rcu_hour",
    "wcu_hour",
    "storage_gb_month",
)


class SettingsChanged(Exception):
    """Someone saved the cost settings since the page showed them."""

    def __init__(self, who: str, version: int) -> None:
        super().__init__(
            f"{who or 'someone'} changed the prices and items since you opened "
            "this page, so yours were not saved. The estimate and the values "
            "below are theirs; your input is kept: save again to keep yours."
        )
        self.version = version


def _settings_for_update(
    project: Project, version: int, author: AbstractBaseUser | None
) -> ReviewSettings:
    """The project's settings row, locked, if it is still at `version`."""
    row, _ = ReviewSettings.objects.select_for_update().get_or_create(project=project)
    if row.version != version:
        who = ""
        if row.updated_by_id is not None:
            mine = author is not None and row.updated_by_id == author.pk
            who = "you (in another tab)" if mine else row.updated_by.get_username()
        raise SettingsChanged(who, row.version)
    return row


@transaction.atomic
def project_cost_settings_set(
    *,
    project: Project,
    prices: Prices,
    stored_items: int | None,
    version: int = 0,
    author: AbstractBaseUser | None = None,
) -> None:
    """Keep a project's prices and item count for the cost estimate, if the
    settings are still at `version` (SettingsChanged otherwise). Prices
    equal to the site's are not copied, so the project keeps following the
    site's prices when they are updated."""
    row = _settings_for_update(project, version, author)
    own = prices != Prices.from_mapping(settings.DYNAMODB_PRICES)
    row.stored_items = stored_items
    for name in PRICE_FIELDS:
        setattr(row, name, getattr(prices, name) if own else None)
    row.region = prices.region if own else ""
    row.version += 1
    row.updated_by = author
    row.save()


@transaction.atomic
def project_cost_settings_reset(
    *, project: Project, version: int = 0, author: AbstractBaseUser | None = None
) -> None:
    """Back to the site's prices, if the settings are still at `version`;
    the item count stays."""
    row = _settings_for_update(project, version, author)
    row.region = ""
    for name in PRICE_FIELDS:
        setattr(row, name, None)
    row.version += 1
    row.updated_by = author
    row.save()
