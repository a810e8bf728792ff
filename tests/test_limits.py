"""A design's size is capped by settings, with a message naming the limit
and its setting, and sample generators take only bounded arguments; a
design past a limit is refused by the design file reader, the import and
the editor, before any sample item is made."""

from __future__ import annotations

import dataclasses
import textwrap

import pytest
from django.conf import settings

from modeler.design import model as d
from modeler.design.edits import EntityRemove, EntityUpdate
from modeler.design_check import limits
from modeler.designfile import read_design
from modeler.editor import services as editor_services
from modeler.sampledata import SampleDataError, generate
from modeler.sampledata.generate import planned_items
from modeler.services import projects as project_services
from tests.sampledata.helpers import example

SMALL = limits.DesignLimits(entities=3, attributes=4, patterns=2, template_chars=20)


def design_text(entities: int = 1, attributes: int = 1, patterns: int = 0, **extra):
    lines = [
        "format: single-table-workbench/v1",
        "name: Sized",
        "table: {name: sized, partition_key: {name: PK, type: S}}",
        "entities:",
    ]
    for n in range(entities):
        lines.append(f"  E{n}:")
        lines.append("    attributes:")
        for a in range(attributes):
            lines.append(f"      a{a}: {{type: S, generator: ulid}}")
        lines.append(f'    keys: {{PK: "E{n}#{{a0}}"}}')
        lines.append(f"    sample: {extra.get('sample', '{count: 2}')}")
    if patterns:
        lines.append("access_patterns:")
        for n in range(patterns):
            lines.append(f"  - {{name: P{n}, operation: Scan}}")
    return "\n".join(lines) + "\n"


def errors(text: str) -> list[tuple[str, str]]:
    result = read_design(text)
    return [(p.path, p.message) for p in result.problems if p.is_error]


def test_the_site_hands_its_settings_to_the_domain():
    current = limits.current()
    assert current.entities == settings.DESIGN_MAX_ENTITIES
    assert current.sample_items == settings.SAMPLE_MAX_ITEMS
    assert current.sample_bytes == settings.SAMPLE_MAX_BYTES
    assert current.template_chars == settings.DESIGN_MAX_TEMPLATE_CHARS


@pytest.mark.parametrize(
    ("text", "path", "message"),
    [
        (
            design_text(entities=5),
            "entities.E3",
            "the design has 5 entities; this workbench allows at most 3 "
            "(setting DESIGN_MAX_ENTITIES)",
        ),
        (
            design_text(attributes=6),
            "entities.E0.attributes.a4",
            "E0 has 6 attributes; this workbench allows at most 4 "
            "(setting DESIGN_MAX_ATTRIBUTES)",
        ),
        (
            design_text(patterns=3),
            "access_patterns[2]",
            "the design has 3 access patterns; this workbench allows at most 2 "
            "(setting DESIGN_MAX_PATTERNS)",
        ),
    ],
)
def test_a_design_past_a_limit_on_its_shape_gets_that_problem_alone(
    text, path, message
):
    with limits.configured(SMALL):
        assert errors(text) == [(path, message)]
    assert errors(text) == []  # within the default limits


def test_a_key_template_past_the_limit():
    text = design_text().replace('"E0#{a0}"', '"E0#' + "x" * 30 + '#{a0}"')
    with limits.configured(SMALL):
        assert errors(text) == [
            (
                "entities.E0.keys.PK",
                "the template has 38 characters; this workbench allows at most 20 "
                "(setting DESIGN_MAX_TEMPLATE_CHARS)",
            )
        ]


def test_a_count_past_the_sample_limit_is_refused_before_any_item_is_made():
    text = design_text(sample="{count: 1000000}")
    assert errors(text) == [
        (
            "entities.E0.sample.count",
            "a count of 1,000,000 items; this workbench allows at most 100,000 "
            "(setting SAMPLE_MAX_ITEMS)",
        )
    ]


def test_a_sample_that_grows_past_the_limit_through_its_children():
    text = textwrap.dedent("""\
        format: single-table-workbench/v1
        name: Families
        table: {name: families, partition_key: {name: PK, type: S}}
        entities:
          Parent:
            attributes: {id: {type: S, generator: ulid}}
            keys: {PK: "P#{id}"}
            sample: {count: 30000}
          Child:
            attributes: {id: {type: S, generator: ulid}}
            keys: {PK: "C#{id}"}
            sample: {per: Parent, count: {uniform: {min: 2, max: 4}}}
        """)
    [(path, message)] = errors(text)
    assert path == "entities.Child.sample.count"
    assert message.startswith("with Child's items the sample data would hold ")
    assert message.endswith("(setting SAMPLE_MAX_ITEMS)")


def blobs_text(count: int) -> str:
    return textwrap.dedent(f"""\
        format: single-table-workbench/v1
        name: Blobs
        table: {{name: blobs, partition_key: {{name: PK, type: S}}}}
        entities:
          Doc:
            attributes:
              docId: {{type: S, generator: ulid}}
              body: {{type: B, max_length: 390000}}
            keys: {{PK: "DOC#{{docId}}"}}
            sample: {{count: {count}}}
        """)


def test_sample_data_past_its_bytes_is_refused_before_any_item_is_made():
    """300 items of a 390 KB blob wrote a 156 MB file; 100,000 (within the
    items' limit) would have been about 52 GB."""
    assert errors(blobs_text(300)) == []
    assert errors(blobs_text(100_000)) == [
        (
            "entities.Doc.sample.count",
            "Doc's 100,000 items of about 389,151 bytes each would make the "
            "sample data about 38,915,100,000 bytes; this workbench allows at "
            "most 250,000,000 bytes (setting SAMPLE_MAX_BYTES)",
        )
    ]
    with limits.configured(limits.DesignLimits(sample_bytes=100_000_000)):
        [(_, message)] = errors(blobs_text(300))
    assert message.endswith("at most 100,000,000 bytes (setting SAMPLE_MAX_BYTES)")


@pytest.mark.django_db
def test_an_edit_that_takes_the_sample_past_its_bytes_is_refused(owner):
    design = read_design(blobs_text(300)).design
    project = project_services.project_create(owner=owner, design=design)
    doc = design.entity("Doc")
    bigger = dataclasses.replace(
        doc, sample=d.SampleSettings(count=d.Count("fixed", value=1_000))
    )
    with pytest.raises(editor_services.EditRefused) as refused:
        editor_services.design_edit(
            project=project,
            version=project.version,
            author=owner,
            edit=EntityUpdate("Doc", bigger),
        )
    [problem] = refused.value.problems
    assert problem.path == "entities.Doc.sample.count"
    assert problem.message.endswith("(setting SAMPLE_MAX_BYTES)")
    project.refresh_from_db()
    assert project.version == 1


@pytest.mark.parametrize(
    "name", ["order-management", "social-graph", "device-telemetry"]
)
def test_the_planned_size_is_the_generated_size(name):
    design = example(name)
    assert planned_items(design, stop_after=10**9)[0] == len(generate(design))


GENERATOR_CASES = [
    (
        "{faker: {provider: pystr, max_chars: 50000000}}",
        "pystr: max_chars is a size from 0 to 1,000, not 50,000,000",
    ),
    (
        "{faker: {provider: pystr, colour: red}}",
        "pystr takes no argument 'colour' (it takes min_chars, max_chars, "
        "prefix, suffix)",
    ),
    (
        "{faker: {provider: pystr, max_chars: [1, [2]]}}",
        "pystr: max_chars is a list of texts or numbers",
    ),
    (
        "{faker: {provider: pystr, max_chars: {a: 1}}}",
        "the arguments of a Faker provider are numbers, texts or lists",
    ),
    (
        "{faker: binary}",
        "binary makes values of 1,048,576 characters; sample values are "
        "limited to 10,000",
    ),
    (
        "{faker: {provider: pyint, max_value: -5}}",
        "pyint fails with these arguments: ValueError: empty range for randrange() "
        "(0, -4, -4)",
    ),
    (
        "{list: {of: {list: {of: ulid, max: 100}}, max: 100}}",
        "a value of a1 could hold 10,000 elements; at most 1,000",
    ),
    ("{sequence: {width: 100000}}", "sequence width is at most 100"),
]


@pytest.mark.parametrize(("generator", "message"), GENERATOR_CASES)
def test_generator_arguments_are_bounded(generator, message):
    text = design_text().replace(
        "      a0: {type: S, generator: ulid}\n",
        "      a0: {type: S, generator: ulid}\n"
        f"      a1: {{type: S, generator: {generator}}}\n",
    )
    assert message in [m for _, m in errors(text)], errors(text)


def test_faker_arguments_within_bounds_are_used():
    text = design_text().replace(
        "      a0: {type: S, generator: ulid}\n",
        "      a0: {type: S, generator: ulid}\n"
        "      a1: {type: S, generator: {faker: {provider: pystr, max_chars: 12}}}\n",
    )
    result = read_design(text)
    assert result.design is not None, result.problems
    values = [item["a1"] for item in generate(result.design).items]
    assert values and all(len(v) <= 12 for v in values)


def test_a_value_past_the_size_limit_stops_generation_with_its_attribute():
    # A design stored before the check: generating refuses the value too.
    design = read_design(design_text()).design
    entity = design.entities[0]
    huge = d.Attribute(
        "blob", "S", generator=d.Generator("faker", d.freeze({"value": "binary"}))
    )
    design = dataclasses.replace(
        design,
        entities=(dataclasses.replace(entity, attributes=(*entity.attributes, huge)),),
    )
    with pytest.raises(SampleDataError, match="E0.blob: faker binary makes values"):
        generate(design)


@pytest.mark.django_db
def test_an_import_past_a_limit_creates_nothing(owner):
    with limits.configured(SMALL):
        outcome = project_services.project_import(
            owner=owner, source=design_text(entities=4)
        )
    assert outcome.projects == ()
    assert "(setting DESIGN_MAX_ENTITIES)" in outcome.problems[0].message


@pytest.mark.django_db
def test_an_edit_that_takes_the_sample_past_the_limit_is_refused(owner):
    design = example("order-management")
    project = project_services.project_create(owner=owner, design=design)
    customer = design.entity("Customer")
    bigger = dataclasses.replace(
        customer, sample=d.SampleSettings(count=d.Count("fixed", value=90_000))
    )
    with pytest.raises(editor_services.EditRefused) as refused:
        editor_services.design_edit(
            project=project,
            version=project.version,
            author=owner,
            edit=EntityUpdate("Customer", bigger),
        )
    [problem] = refused.value.problems
    # The edit was to Customer; the limit is passed by its orders.
    assert problem.path == "entities.Order.sample.count"
    assert problem.message.endswith("(setting SAMPLE_MAX_ITEMS)")


@pytest.mark.django_db
def test_a_design_already_past_a_lowered_limit_can_still_shrink(owner):
    design = read_design(design_text(entities=3)).design
    project = project_services.project_create(owner=owner, design=design)
    with limits.configured(dataclasses.replace(SMALL, entities=2)):
        saved = editor_services.design_edit(
            project=project,
            version=project.version,
            author=owner,
            edit=EntityRemove("E2"),
        )
    assert [e.name for e in saved.design.entities] == ["E0", "E1"]
