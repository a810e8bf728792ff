"""The generator picker's form: every kind it offers, opened on a
generator, gives that generator back unchanged; a kind missing what it
needs says which field and what."""

from __future__ import annotations

from typing import Any

import pytest

from modeler.design import model as d
from modeler.editor.forms import parse_generator
from modeler.editor.forms.generator import KINDS, GeneratorPickerForm

GENERATORS = [kind.example for kind in KINDS] + [
    "{faker: {provider: email}}",
    "{choice: [A, B]}",
    "{int: {min: -3, max: 3}}",
    "{sequence: {start: 5}}",
    "{bool: 0.5}",
    "{constant: 12 EUR}",
    "{ref: {from: Customer.customerId}}",
    "{pick: {from: User.userId, s: 1.1}}",
    "{pick: {from: Store.region, with: storeNo}}",
    "{pick: {from: Store.region, s: 0.5, with: storeNo}}",
    "{expires: {from: createdAt, days: 1.5}}",
]


def _posted(initial: dict[str, Any]) -> dict[str, str]:
    return {k: str(v) for k, v in initial.items() if v is not None}


@pytest.mark.parametrize("text", GENERATORS)
def test_the_picker_gives_back_the_generator_it_opened_on(text: str) -> None:
    generator = parse_generator(text)
    assert generator is not None
    form = GeneratorPickerForm(
        _posted(GeneratorPickerForm.for_generator(generator).initial)
    )
    picked = form.generator()
    assert picked is not None, form.errors
    assert picked.kind == generator.kind
    assert d.thaw(picked.params) == _as_picked(generator)


def _as_picked(generator: d.Generator) -> dict[str, Any]:
    """The parameters as the picker writes them: a faker provider and a
    ref's source as the value, a sequence's width of 0 (no padding) left
    out."""
    params = d.thaw(generator.params)
    if generator.kind in ("faker", "ref") and set(params) != {"value"}:
        return {"value": params.get("provider") or params.get("from")}
    if generator.kind == "sequence" and params.get("width") == 0:
        del params["width"]
    return params


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"kind": "faker"}, "provider", "faker needs a provider such as email."),
        ({"kind": "choice"}, "options", "choice needs at least one option."),
        ({"kind": "int", "low": "1"}, "high", "int needs the highest."),
        ({"kind": "int", "low": "5", "high": "1"}, "high", "To is below From."),
        ({"kind": "date", "end": "2026-01-01"}, "start", "date needs the first date."),
        (
            {"kind": "expires", "days": "3"},
            "moment",
            "expires needs the attribute it counts from, such as createdAt.",
        ),
        (
            {"kind": "template"},
            "template",
            "template needs a template such as {firstName}-{lastName}.",
        ),
    ],
)
def test_a_kind_missing_what_it_needs_says_so(
    data: dict[str, str], field: str, message: str
) -> None:
    form = GeneratorPickerForm(data)
    assert form.generator() is None
    assert form.errors[field] == [message]
