"""Small designs for the sample-data tests, written as design files."""

from __future__ import annotations

import textwrap
from pathlib import Path

from modeler.design import model as d
from modeler.designfile import read_design

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def design_from(yaml_text: str) -> d.Design:
    """A design from YAML; the test fails on any error in it."""
    result = read_design(textwrap.dedent(yaml_text))
    errors = [p for p in result.problems if p.severity == "error"]
    assert not errors, errors
    return result.design


def example(name: str) -> d.Design:
    return read_design((EXAMPLES / f"{name}.yaml").read_text()).design


def one_attribute(type_: str, generator: str, *, count: int = 200) -> d.Design:
    """A design with one entity whose attribute `v` has this generator."""
    return design_from(f"""
        format: single-table-workbench/v1
        name: Values
        table: {{name: values, partition_key: {{name: PK, type: S}}}}
        entities:
          Thing:
            attributes:
              id: {{type: S, generator: uuid}}
              v: {{type: {type_}, generator: {generator}}}
            keys: {{PK: "THING#{{id}}"}}
            sample: {{count: {count}}}
        """)
