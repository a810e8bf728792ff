"""The CloudFormation and Terraform readers never raise, whatever a file
holds: our exports of the examples, mutated at random places (a value of
the wrong type, a huge number, hostile text, a deep structure, a key
removed or added), or cut and spliced as text."""

from __future__ import annotations

import json

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modeler.design.findings import Severity, has_errors
from modeler.exporters.cloudformation import template
from modeler.exporters.terraform import export_terraform
from modeler.importers.cloudformation_intrinsics import TemplateLoader
from modeler.importers.sources import read_design_source
from modeler.importers.terraform import BLOCKS
from tests.exporters.helpers import EXAMPLES, example
from tests.exporters.test_infra_import import TEMPLATE, TERRAFORM_FILE
from tests.test_designfile_fuzz import VALUES, paths, replaced

DESIGNS = [example(path) for path in EXAMPLES]
# The hand-written template's short forms (!Ref, !Sub...) in their long form.
TEMPLATES = [template(design) for design in DESIGNS] + [
    yaml.load(TEMPLATE, Loader=TemplateLoader)  # noqa: S506 (a safe loader)
]
TERRAFORM = [export_terraform(design) for design in DESIGNS] + [TERRAFORM_FILE]


def assert_read_cleanly(text: str, filename: str) -> None:
    found = read_design_source(text, filename=filename, max_bytes=1_000_000)
    for problem in found.problems:
        assert problem.severity in Severity
        assert isinstance(problem.path, str) and problem.message
    assert all(isinstance(note, str) for note in found.notes)
    if not found.designs:
        assert has_errors(list(found.problems))


@st.composite
def mutated_templates(draw) -> str:
    document = draw(st.sampled_from(TEMPLATES))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(paths(document)))
        how = draw(st.sampled_from(["set", "set", "delete", "add"]))
        document = replaced(document, path, draw(VALUES), how)
    return json.dumps(document, default=str)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_templates())
def test_a_mutated_template_reads_without_raising(text):
    assert_read_cleanly(text, "template.json")


@st.composite
def mutated_configurations(draw) -> str:
    lines = draw(st.sampled_from(TERRAFORM + [TEMPLATE])).splitlines()
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["delete", "insert", "cut", "argument"]))
        if how == "delete":
            del lines[at]
        elif how == "insert":
            lines.insert(at, draw(st.text(max_size=30)))
        elif how == "argument":
            # An argument where a block belongs, inside the resource.
            name = draw(st.sampled_from(sorted(BLOCKS) + ["key_schema", "tags"]))
            value = draw(st.sampled_from(['"x"', "5", "[1]", '["a"]', "{}", "[{}]"]))
            lines.insert(max(at, 1), f"  {name} = {value}")
        else:
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
    return "\n".join(lines)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_configurations(), st.sampled_from(["main.tf", "t.yaml", ""]))
def test_a_cut_configuration_or_template_reads_without_raising(text, filename):
    assert_read_cleanly(text, filename)


def test_numbers_past_any_integer_read_without_raising():
    """A tag or a capacity that is Infinity or NaN (JSON's extensions, which
    Python reads) is named as a problem or kept as text, never a crash."""
    for number in (float("inf"), float("-inf"), float("nan")):
        document = json.loads(json.dumps(TEMPLATES[0]))
        for resource in document["Resources"].values():
            properties = resource.setdefault("Properties", {})
            properties["Tags"] = [{"Key": "N", "Value": number}]
            properties["ProvisionedThroughput"] = {
                "ReadCapacityUnits": number,
                "WriteCapacityUnits": number,
            }
        assert_read_cleanly(json.dumps(document), "template.json")
