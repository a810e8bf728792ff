"""Faker, as the sample data uses it: imported when first needed, with its
clock pinned and its weighted tables drawn from quickly. Both the values
(`modeler.sampledata.values`) and the check of a design's Faker arguments
(`modeler.sampledata.faker_arguments`) take it from here."""

from __future__ import annotations

import datetime as dt
import functools
import itertools
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

# Faker's date and time providers count from the clock (`time` is a time of
# day up to now, `date_this_year` a day of this year): they count from this
# moment instead, so a seed gives the same values whatever day it runs.
FAKER_NOW = dt.datetime(2026, 6, 30, tzinfo=dt.UTC)


class _StandIn(type):
    """The metaclass of a stand-in for a datetime class: values of the real
    class still pass Faker's isinstance checks."""

    def __instancecheck__(cls, value: object) -> bool:
        return isinstance(value, cls.__mro__[1])

    def __subclasscheck__(cls, subclass: type) -> bool:
        return issubclass(subclass, cls.__mro__[1])


class _PinnedDatetime(dt.datetime, metaclass=_StandIn):
    @classmethod
    # Returns the real datetime Faker expects, not the stand-in (Self).
    def now(cls, tz: dt.tzinfo | None = None) -> dt.datetime:  # type: ignore[override]  # see above
        if tz is None:
            return FAKER_NOW.replace(tzinfo=None)
        return FAKER_NOW.astimezone(tz)


class _PinnedDate(dt.date, metaclass=_StandIn):
    @classmethod
    # Returns the real date Faker expects, not the stand-in (Self).
    def today(cls) -> dt.date:  # type: ignore[override]  # see above
        return FAKER_NOW.date()


@functools.cache
def faker_class() -> type:
    """Faker, imported when a generator first needs it (a tenth of a second:
    a design without Faker generators, or an export, goes without), with
    its clock pinned: Faker's date and time providers read the clock through
    their module's `datetime` and `dtdate` names and the machine's time
    zone, and all three are pinned (this process uses Faker for sample data
    only)."""
    from faker import Faker
    from faker.providers import BaseProvider
    from faker.providers import date_time as faker_dates

    # Pinning replaces the module's names and a provider method on purpose,
    # which the checker refuses (a class name, a method).
    faker_dates.datetime = _PinnedDatetime  # type: ignore[misc]  # pinned clock
    faker_dates.dtdate = _PinnedDate  # type: ignore[misc]  # pinned clock
    faker_dates._get_local_timezone = lambda: dt.UTC
    if not hasattr(BaseProvider.random_elements, "faker_random_elements"):
        BaseProvider.random_elements = _weighted_quickly(  # type: ignore[method-assign]  # see above
            BaseProvider.random_elements
        )
    return Faker


def _weighted_quickly(random_elements: Callable[..., Any]) -> Callable[..., Any]:
    """Faker's `random_elements`, with the weights of a weighted table (the
    thousands of first and last names, of street suffixes...) added up once
    per table instead of on every draw: Faker passes them to
    `random.choices(weights=...)`, which adds them up again each time, and
    that was most of the time a name took. `random.choices` given the same
    sums (`cum_weights`) draws the same random numbers and picks the same
    elements, so every value stays the one Faker gives."""

    def quick(
        self: Any,
        elements: Any = ("a", "b", "c"),
        length: int | None = None,
        unique: bool = False,
        use_weighting: bool | None = None,
    ) -> Any:
        weighting = self.__use_weighting__ if use_weighting is None else use_weighting
        if unique or not weighting or type(elements) is not OrderedDict:
            return random_elements(self, elements, length, unique, use_weighting)
        random = self.generator.random
        if length is None:
            length = random.randint(1, len(elements))
        sums = getattr(elements, "_workbench_sums", None)
        if sums is None or len(sums[0]) != len(elements):
            sums = (tuple(elements), list(itertools.accumulate(elements.values())))
            # Kept on Faker's table itself (an OrderedDict): it lives as long.
            elements._workbench_sums = sums  # type: ignore[attr-defined]  # see above
        return random.choices(sums[0], cum_weights=sums[1], k=length)

    # Marks the wrapper, so that a second call does not wrap it again.
    quick.faker_random_elements = random_elements  # type: ignore[attr-defined]  # see above
    return quick
