"""Each generator of the design format makes values of the documented shape."""

from __future__ import annotations

import datetime as dt
import itertools
import random
import re
import string
import uuid
from decimal import Decimal

import pytest

from modeler.design import model as d
from modeler.engine.types import NumberSet, StringSet
from modeler.sampledata import SampleDataError, default_generator, generate
from tests.sampledata.helpers import design_from, one_attribute

CROCKFORD = re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$")


def values(type_: str, generator: str, count: int = 200) -> list:
    dataset = generate(one_attribute(type_, generator, count=count), seed=3)
    return [item["v"] for item in dataset.items if "v" in item]


def test_int_stays_within_its_inclusive_bounds():
    drawn = values("N", "{int: {min: -2, max: 2}}", count=500)
    assert set(drawn) == {Decimal(n) for n in range(-2, 3)}


def test_decimal_has_the_places_asked_for():
    drawn = values("N", "{decimal: {min: 5, max: 20, places: 2}}")
    assert all(Decimal(5) <= v <= Decimal(20) for v in drawn)
    assert all(v.as_tuple().exponent == -2 for v in drawn)


def test_date_is_iso_8601_within_the_range():
    drawn = values("S", '{date: {from: "2025-01-30", to: "2025-02-02"}}')
    assert set(drawn) == {"2025-01-30", "2025-01-31", "2025-02-01", "2025-02-02"}


def test_timestamp_is_iso_8601_utc_within_the_range():
    drawn = values("S", '{timestamp: {from: "2025-01-01", to: "2025-01-02"}}')
    for value in drawn:
        moment = dt.datetime.strptime(value, "%Y-%m-%dT%H:%M:%SZ")
        assert dt.datetime(2025, 1, 1) <= moment <= dt.datetime(2025, 1, 2)


def test_uuid_is_a_version_4_uuid():
    drawn = values("S", "uuid")
    assert all(uuid.UUID(v).version == 4 for v in drawn)
    assert len(set(drawn)) == len(drawn)


def test_ulid_is_26_crockford_digits_with_a_time_in_2024_to_2026():
    drawn = values("S", "ulid")
    assert all(CROCKFORD.match(v) for v in drawn)
    digits = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    for value in drawn:
        millis = 0
        for char in value[:10]:
            millis = millis * 32 + digits.index(char)
        year = dt.datetime.fromtimestamp(millis / 1000, dt.UTC).year
        assert 2024 <= year <= 2026


def test_choice_follows_its_weights():
    drawn = values("S", "{choice: {RARE: 1, COMMON: 9}}", count=2000)
    assert set(drawn) == {"RARE", "COMMON"}
    assert 0.05 < drawn.count("RARE") / len(drawn) < 0.15


def test_choice_of_a_list_gives_each_option():
    assert set(values("S", "{choice: [A, B, C]}")) == {"A", "B", "C"}


def test_faker_with_arguments():
    drawn = values("S", '{faker: {provider: bothify, text: "PRD-#####"}}')
    assert all(re.fullmatch(r"PRD-\d{5}", v) for v in drawn)


def test_constant():
    assert set(values("S", "{constant: EUR}")) == {"EUR"}


def test_bool_share_of_true():
    drawn = values("BOOL", "{bool: 0.1}", count=2000)
    assert all(isinstance(v, bool) for v in drawn)
    assert 0.05 < sum(drawn) / len(drawn) < 0.15


def test_list_length_within_bounds():
    drawn = values("L", "{list: {of: {int: {min: 1, max: 3}}, min: 1, max: 4}}")
    assert all(1 <= len(v) <= 4 for v in drawn)
    assert all(isinstance(e, Decimal) for v in drawn for e in v)


def test_map_has_each_field():
    drawn = values(
        "M", "{map: {fields: {city: {faker: city}, n: {int: {min: 1, max: 1}}}}}"
    )
    assert all(set(v) == {"city", "n"} and v["n"] == 1 for v in drawn)


def test_sets_are_sets_and_an_empty_draw_leaves_the_attribute_out():
    strings = values("SS", "{list: {of: {choice: [a, b, c]}, min: 0, max: 3}}")
    assert all(isinstance(v, StringSet) and v for v in strings)
    assert len(strings) < 200, "items that drew no member have no attribute"
    numbers = values("NS", "{list: {of: {int: {min: 1, max: 9}}, min: 1, max: 3}}")
    assert all(isinstance(v, NumberSet) for v in numbers)


def test_template_builds_from_the_same_item():
    design = design_from("""
        format: single-table-workbench/v1
        name: People
        table: {name: people, partition_key: {name: PK, type: S}}
        entities:
          Person:
            attributes:
              email: {type: S, generator: {template: "{first}.{last}@example.com"}}
              first: {type: S, generator: {choice: [ann, bob]}}
              last: {type: S, generator: {choice: [lee, kim]}}
            keys: {PK: "P#{email}"}
            sample: {count: 20}
        """)
    for item in generate(design).items:
        assert item["email"] == f"{item['first']}.{item['last']}@example.com"
        assert item["PK"] == "P#" + item["email"]


def test_a_number_generator_for_a_text_attribute_gives_text():
    assert all(v in ("1", "2") for v in values("S", "{int: {min: 1, max: 2}}"))


def test_text_that_is_not_a_number_for_a_number_attribute_names_the_attribute():
    with pytest.raises(SampleDataError, match=r"Thing\.v: .*not a number"):
        values("N", "{constant: abc}")


@pytest.mark.parametrize(
    ("name", "type_", "looks_like"),
    [
        ("email", "S", r"^[^@\s]+@[^@\s]+\.\w+$"),
        ("createdAt", "S", r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"),
        ("birthDate", "S", r"^\d{4}-\d\d-\d\d$"),
        ("anything", "S", r"^\w+$"),
    ],
)
def test_attributes_without_a_generator_get_one_from_name_and_type(
    name, type_, looks_like
):
    generator = default_generator(d.Attribute(name, type_))
    design = one_attribute(type_, _inline(generator), count=30)
    assert all(re.match(looks_like, v) for v in _values_of(design))


def _inline(generator: d.Generator) -> str:
    import json

    return json.dumps({generator.kind: d.thaw(generator.params)})


def _values_of(design: d.Design) -> list:
    return [item["v"] for item in generate(design).items]


@pytest.mark.parametrize("type_", ["N", "B", "BOOL", "L", "M", "SS", "NS", "BS"])
def test_every_type_has_a_default_generator_of_that_type(type_):
    from modeler.engine.types import type_of

    attribute = d.Attribute("v", type_)
    design = one_attribute(type_, _inline(default_generator(attribute)), count=30)
    assert {type_of(v) for v in _values_of(design)} == {type_}


def test_bool_with_a_bare_true_key_keeps_its_share():
    # YAML reads `true` as a boolean key; the share must not fall back to 0.5.
    drawn = values("BOOL", "{bool: {true: 0.1}}", count=2000)
    assert 0.05 < sum(drawn) / len(drawn) < 0.15


@pytest.mark.parametrize(
    ("generator", "message"),
    [
        ("{choice: A}", "choice takes a list of options"),
        ("{faker: seed_instance}", "is not a Faker provider"),
        ("{faker: unique}", "is not a Faker provider"),
    ],
)
def test_malformed_generators_are_reported_not_raised(generator, message):
    _assert_generator_problem(f"v: {{type: S, generator: {generator}}}", message)


def _assert_generator_problem(attributes: str, message: str) -> None:
    """Reading a design whose Thing has these attributes reports `message`
    at v's generator (and raises nothing)."""
    from modeler.designfile import read_design

    text = f"""
format: single-table-workbench/v1
name: Values
table: {{name: values, partition_key: {{name: PK, type: S}}}}
entities:
  Thing:
    attributes:
      id: {{type: S, generator: uuid}}
      {attributes}
    keys: {{PK: "THING#{{id}}"}}
"""
    problems = read_design(text).problems
    assert any(
        message in p.message and p.path.endswith("v.generator") for p in problems
    ), problems


@pytest.mark.parametrize(
    ("attributes", "message"),
    [
        (
            "v: {type: N, generator: {expires: {from: nope, days: 30}}}",
            "expires needs 'from': another attribute of Thing holding an "
            "ISO-8601 date or time",
        ),
        (
            "n: {type: N}\n"
            "      v: {type: N, generator: {expires: {from: n, days: 3}}}",
            "expires counts from an ISO-8601 text; 'n' is N",
        ),
        (
            "at: {type: S, generator: {date: {from: 2026-01-01, to: 2026-02-01}}}\n"
            "      v: {type: N, generator: {expires: {from: at, days: 0}}}",
            "expires needs 'days' after it: a number above 0, at most 36,500",
        ),
        (
            "at: {type: S, generator: {date: {from: 2026-01-01, to: 2026-02-01}}}\n"
            "      v: {type: S, generator: {expires: {from: at, days: 30}}}",
            "expires makes epoch seconds, a number: v is S, and DynamoDB's TTL "
            "reads only numbers",
        ),
    ],
)
def test_an_expiry_is_counted_in_days_from_a_time_of_the_item(attributes, message):
    _assert_generator_problem(attributes, message)


def test_an_expiry_from_a_day_is_midnight_plus_the_days():
    design = design_from("""
        format: single-table-workbench/v1
        name: Values
        table: {name: values, partition_key: {name: PK, type: S}}
        entities:
          Thing:
            attributes:
              id: {type: S, generator: uuid}
              day: {type: S, generator: {constant: "2026-07-01"}}
              v: {type: N, generator: {expires: {from: day, days: 1.5}}}
            keys: {PK: "THING#{id}"}
            sample: {count: 3}
        """)
    assert {v for v in _values_of(design)} == {Decimal(1782864000 + 129_600)}


def seeded(seed: int) -> random.Random:
    return random.Random(seed)  # noqa: S311 - two generators drawing alike


def _compiled(kind: str, **params):
    from modeler.sampledata.values import Compiler, Context, Populations

    design = one_attribute("S", "uuid")
    compiler = Compiler(design, design.entities[0], 1, Populations())
    draw = compiler.compile(d.Generator(kind, d.freeze(params)), "Thing.v")
    return lambda rng: draw(rng, Context())


@pytest.mark.parametrize(
    ("start", "end"),
    [
        ("2025-01-01", "2025-01-03"),
        ("2024-02-28T23:59:58.75Z", "2024-03-01T00:00:02Z"),
        ("2025-06-30T22:00:00+05:00", "2025-12-31T23:00:00Z"),
    ],
)
def test_timestamp_is_the_start_plus_whole_seconds_written_in_utc(start, end):
    """The day and the time of day are written from tables; they give what
    strftime of start + the drawn seconds gives, across days and leap days."""
    from modeler.sampledata.values import _between, _moment

    draw = _compiled("timestamp", **{"from": start, "to": end})
    first, last = _moment(start, ""), _moment(end, "")
    span = int((last - first).total_seconds())
    drawn, again = seeded(7), seeded(7)
    for _ in range(2000):
        moment = first + dt.timedelta(seconds=_between(again, 0, span))
        assert draw(drawn) == moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_ulid_digits_are_the_number_in_crockford_base32():
    from modeler.sampledata.values import ULID_FROM, ULID_TO, _between

    draw = _compiled("ulid")
    digits = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
    low, high = (int(m.timestamp() * 1000) for m in (ULID_FROM, ULID_TO))
    drawn, again = seeded(3), seeded(3)
    for _ in range(500):
        number = (_between(again, low, high) << 80) | again.getrandbits(80)
        expected = "".join(digits[number >> s & 31] for s in range(125, -1, -5))
        assert draw(drawn) == expected


@pytest.mark.parametrize("text", ["PRD-#####", "###", "#-#", "A ##### B", "?-###"])
def test_a_pattern_gives_the_digits_drawn_as_between_draws_them(text):
    """Text around one run of '#' is written at once; it must give what
    drawing the pattern piece by piece gives."""
    from modeler.sampledata.values import _between, _pattern_draw

    draw = _pattern_draw("bothify", {"text": text})
    drawn, again = seeded(11), seeded(11)
    for _ in range(300):
        expected = []
        for char, run in itertools.groupby(text):
            width = len(list(run))
            if char == "#":
                expected.append(f"{_between(again, 0, 10**width - 1):0{width}d}")
            elif char == "?":
                letters = string.ascii_letters
                expected.extend(
                    letters[int(again.random() * len(letters))] for _ in range(width)
                )
            else:
                expected.append(char * width)
        assert draw(drawn, None) == "".join(expected)
