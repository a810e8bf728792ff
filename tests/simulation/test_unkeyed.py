"""A pattern stated by what it needs is not run, and a design whose
entities have no keys yet makes no sample data, saying which entity."""

from __future__ import annotations

import dataclasses

import pytest

from modeler.design import model as d
from modeler.sampledata import SampleDataError, generate
from modeler.simulation import Simulation
from modeler.simulation.simulate import NO_KEY_YET
from tests.simulation.test_simulate import example
from tests.unkeyed import orders_of_a_customer_needs

NEEDS = orders_of_a_customer_needs()


def with_needs(design: d.Design) -> d.Design:
    return dataclasses.replace(design, access_patterns=(*design.access_patterns, NEEDS))


def test_an_unkeyed_pattern_is_not_run_and_says_why():
    simulation = Simulation(with_needs(example("order-management")))
    runs = simulation.run_all()
    run = runs[-1]
    assert run.pattern is NEEDS
    assert not run.passed
    assert run.error == NO_KEY_YET
    assert run.verdict.reasons == (NO_KEY_YET,)
    assert (run.calls, run.pages, run.drawn) == ([], 0, True)
    assert all(r.passed for r in runs[:-1]), "the keyed patterns still run"


def test_an_entity_without_keys_names_itself_when_sample_data_is_made():
    design = example("order-management")
    keyless = dataclasses.replace(
        design,
        entities=tuple(
            dataclasses.replace(e, keys={}) if e.name == "Order" else e
            for e in design.entities
        ),
    )
    with pytest.raises(SampleDataError, match="^Order has no table key yet: "):
        generate(keyless)
    with pytest.raises(SampleDataError, match="propose keys"):
        Simulation(with_needs(keyless))
