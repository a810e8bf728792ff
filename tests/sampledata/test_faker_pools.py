"""Faker's values are kept per seeded provider for the process: sample data
made again gives the items a first generation gives, byte for byte."""

from __future__ import annotations

import importlib

import pytest

from modeler.sampledata import faker_pools, generate, values
from modeler.sampledata.fakers import faker_class
from tests.sampledata.helpers import example

generate_module = importlib.import_module("modeler.sampledata.generate")


@pytest.fixture
def no_kept_pools() -> None:
    faker_pools.FAKER_POOLS.clear()


def _made(design, **kwargs):
    # Entities kept from an earlier generation would not ask Faker at all.
    generate_module.forget_kept_items()
    dataset = generate(design, **kwargs)
    return [list(item.items()) for item in dataset.items], dataset.entities


def test_kept_values_give_the_items_a_fresh_faker_gives(no_kept_pools) -> None:
    design = example("order-management")
    cold = _made(design, items=20_000)
    assert faker_pools.FAKER_POOLS
    assert _made(design, items=20_000) == cold
    faker_pools.FAKER_POOLS.clear()
    assert _made(design, items=20_000) == cold


def test_a_pool_begun_by_a_smaller_data_set_goes_on_as_faker_would(
    no_kept_pools,
) -> None:
    design = example("order-management")
    cold = _made(design, items=20_000)
    faker_pools.FAKER_POOLS.clear()
    _made(design, items=300)
    assert any(
        0 < len(p.values) < values.FAKER_POOL for p in faker_pools.FAKER_POOLS.values()
    )
    assert _made(design, items=20_000) == cold


def test_another_seed_has_its_own_pool(no_kept_pools) -> None:
    design = example("order-management")
    one, other = _made(design, seed=1, items=3000), _made(design, seed=2, items=3000)
    assert one != other
    assert _made(design, seed=1, items=3000) == one


def test_a_value_too_large_keeps_its_place_in_the_pool(no_kept_pools) -> None:
    made = iter(["a", "b" * 200_000, "c"])
    pool = faker_pools.FakerPool(lambda: next(made), {})
    assert pool.value(0) == "a"
    assert isinstance(pool.value(1), faker_pools.FakerValueTooLarge)
    assert isinstance(pool.value(1), faker_pools.FakerValueTooLarge)
    assert pool.value(2) == "c"


def test_a_pool_whose_provider_fails_is_not_kept(no_kept_pools) -> None:
    pool = faker_pools.faker_pool("1:Thing.v:pyint", "pyint", {"min_value": 0})
    assert faker_pools.faker_pool("1:Thing.v:pyint", "pyint", {"min_value": 0}) is pool
    pool.kwargs = {"min_value": 5, "max_value": 1}
    with pytest.raises(ValueError):
        pool.value(0)
    assert not faker_pools.FAKER_POOLS


def test_an_unknown_provider_has_no_pool(no_kept_pools) -> None:
    assert faker_pools.faker_pool("1:x", "no_such_provider", {}) is None


@pytest.mark.parametrize(
    "provider", ["name", "email", "street_address", "city", "company", "word"]
)
def test_weights_added_up_once_give_the_values_faker_gives(provider) -> None:
    faker = faker_class()
    from faker.providers import BaseProvider

    quick = BaseProvider.random_elements
    fake = faker("en_US")
    fake.seed_instance("same")
    made = [getattr(fake, provider)() for _ in range(300)]
    try:
        BaseProvider.random_elements = quick.faker_random_elements
        fake.seed_instance("same")
        assert [getattr(fake, provider)() for _ in range(300)] == made
    finally:
        BaseProvider.random_elements = quick
