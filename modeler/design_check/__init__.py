"""Semantic checks of a whole design: references between its parts and the
DynamoDB rules a design must follow to be deployable (shared/DOMAIN.md), one
module per concern: the table, its indexes, entities, their generators,
access patterns (their keys and actions), sample items, names and what the
database can store. The key templates are checked by `modeler.keys`, the
design's size by `modeler.design_check.limits`.

Paths are in the design file's terms (`table.indexes[1].sort_key`,
`entities.Order.attributes.total`, `access_patterns[3].key.SK`) so the same
problems serve the YAML import, `check_design` and the editor.
"""

from __future__ import annotations

from modeler.design import model as d
from modeler.design.problems import Problem
from modeler.design_check.entities import check_entities
from modeler.design_check.generators import GENERATOR_KINDS, generator_problems
from modeler.design_check.indexes import check_indexes
from modeler.design_check.limits import check_sample_size, check_shape
from modeler.design_check.limits import current as current_limits
from modeler.design_check.names import (
    MAX_CONDITION,
    MAX_NAME,
    MAX_TEMPLATE,
    check_names,
)
from modeler.design_check.patterns import check_patterns
from modeler.design_check.sample_items import check_sample_items
from modeler.design_check.storable import check_storable
from modeler.design_check.table import check_table
from modeler.infra.lru import Kept
from modeler.keys import check_keys

__all__ = [
    "GENERATOR_KINDS",
    "MAX_CONDITION",
    "MAX_NAME",
    "MAX_TEMPLATE",
    "check_design",
    "check_storable",
    "generator_problems",
]

# The problems of the designs checked last, by their content and the limits
# they were checked against: a page checks the design it shows, and a save
# checks the edited design, then the saved one, then shows it.
_checked: Kept[tuple[Problem, ...]] = Kept(64)


def check_design(design: d.Design) -> list[Problem]:
    """Every problem of the design, errors first within each part. A design
    past the limits on its shape gets only those problems: the other checks
    would take time in proportion to its excess."""
    key = (design.digest, current_limits())
    problems = _checked.get(key)
    if problems is None:
        problems = tuple(_check(design))
        _checked.put(key, problems)
    return list(problems)


def _check(design: d.Design) -> list[Problem]:
    problems: list[Problem] = check_shape(design)
    if problems:
        return problems
    problems += check_storable(design)
    problems += check_names(design)
    problems += check_table(design.table)
    problems += check_indexes(design.table)
    problems += check_entities(design)
    problems += check_keys(design)
    problems += check_patterns(design)
    problems += check_sample_items(design)
    if not any(p.is_error for p in problems):
        problems += check_sample_size(design)
    return problems
