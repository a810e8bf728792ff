"""Generators written as the design file writes them, on one line, and read
back: kept by their text, so a second reading is the same generator and a
bad text is refused every time."""

from __future__ import annotations

import pytest
from django import forms

from modeler.design import model as d
from modeler.editor.forms import generator_text, parse_generator

GENERATORS = [
    d.Generator("ulid"),
    d.Generator("faker", d.freeze({"provider": "email"})),
    d.Generator("int", d.freeze({"min": 1, "max": 9})),
    d.Generator("choice", d.freeze({"OPEN": 1, "SHIPPED": 4})),
    d.Generator("constant", d.freeze({"value": "a: b"})),
    d.Generator("list", d.freeze({"of": {"int": {"min": 1}}, "length": [1, 3]})),
]


@pytest.mark.parametrize("generator", GENERATORS)
def test_text_then_parse_gives_the_generator_back(generator: d.Generator) -> None:
    text = generator_text(generator)
    assert "\n" not in text
    assert generator_text(generator) == text
    assert parse_generator(text) == generator
    assert parse_generator(f"  {text} ") == generator  # kept, and the same


def test_a_bad_text_is_refused_every_time() -> None:
    for _ in range(2):
        with pytest.raises(forms.ValidationError, match="column"):
            parse_generator("{int: {min: 1")
        with pytest.raises(forms.ValidationError, match="one generator"):
            parse_generator("[1, 2]")
    assert parse_generator("") is None
