"""Names and lengths the database keeps, so a design that checks clean
saves."""

from __future__ import annotations

from collections.abc import Iterator

from modeler.design import model as d
from modeler.design.problems import Problem
from modeler.design_check.common import error
from modeler.design_check.limits import current as current_limits

MAX_NAME = 200  # project and access pattern names
MAX_TEMPLATE = 2048
MAX_CONDITION = 1000


def check_names(design: d.Design) -> Iterator[Problem]:
    """Lengths the database keeps, so a design that checks clean saves."""
    if not design.name.strip():
        yield error("name", "is required: the design's name")
    elif len(design.name) > MAX_NAME:
        yield error("name", f"has {len(design.name)} characters; at most {MAX_NAME}")
    for i, pattern in enumerate(design.access_patterns):
        if not pattern.name.strip():
            yield error(f"access_patterns[{i}].name", "is required")
        elif len(pattern.name) > MAX_NAME:
            yield error(
                f"access_patterns[{i}].name",
                f"has {len(pattern.name)} characters; at most {MAX_NAME}",
            )
    limits = current_limits()
    # The database keeps templates of up to MAX_TEMPLATE characters.
    template_chars = min(MAX_TEMPLATE, limits.template_chars)
    for entity in design.entities:
        for name, key in entity.keys.items():
            path = f"entities.{entity.name}.keys.{name}"
            if len(key.template) > template_chars:
                yield error(
                    path,
                    limits.exceeded(
                        "template_chars",
                        f"the template has {len(key.template):,} characters",
                    ),
                )
            if len(key.when) > MAX_CONDITION:
                yield error(
                    path,
                    f"the condition has {len(key.when)} characters; "
                    f"at most {MAX_CONDITION}",
                )
