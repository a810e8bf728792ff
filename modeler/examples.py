"""The example designs shipped in `examples/`: what `load_examples` loads
for the demo account and what "Start from an example" copies into a user's
own projects."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from modeler.design import model as d
from modeler.designfile import read_design

EXAMPLES_DIR = Path(__file__).resolve().parents[1] / "examples"


class ExampleError(Exception):
    """An example file that does not read (a broken checkout)."""


@dataclass(frozen=True)
class Example:
    slug: str  # the file's stem: order-management
    design: d.Design

    @property
    def summary(self) -> str:
        """The description's first sentence."""
        first, _, _ = " ".join(self.design.description.split()).partition(". ")
        return first.rstrip(".") + "." if first else ""


@cache
def examples() -> tuple[Example, ...]:
    """Every example design, by file name."""
    found = []
    for path in sorted(EXAMPLES_DIR.glob("*.yaml")):
        result = read_design(path.read_bytes())
        if result.design is None:
            problems = "\n".join(str(p) for p in result.problems)
            raise ExampleError(f"{path.name} has errors:\n{problems}")
        found.append(Example(slug=path.stem, design=result.design))
    return tuple(found)


def example(slug: str) -> Example | None:
    return next((e for e in examples() if e.slug == slug), None)
