"""What the format names: its version, its limits, and the fields each
section of a design file takes.
"""

from __future__ import annotations

import re

from modeler.design import model as d

FORMAT = "single-table-workbench/v1"


DEFAULT_MAX_BYTES = 1_000_000


MAX_DEPTH = 40


# An auto scaling range: its units and target, and its policy's settings.
SCALING_RANGE_KEYS = (
    "min",
    "max",
    "target",
    "scale_in_cooldown",
    "scale_out_cooldown",
    "disable_scale_in",
)


ENTITY_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")


ATTRIBUTE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,254}$")


# --- Reading ----------------------------------------------------------------

PATTERN_FIELDS = (
    "name",
    "description",
    "operation",
    "index",
    "key",
    "filter",
    "projection",
    *(option.name for option in d.PATTERN_OPTIONS),
    "parameters",
    "traffic",
    "expects",
    "needs",
    "entity",
    *d.UPDATE_WAYS,
    "remove",
    "condition",
    "actions",
    "seed_name",
)


# The fields a pattern stated by `needs` takes: no operation, index or key.
NEEDS_FIELDS = (
    "name",
    "description",
    "needs",
    "projection",
    *(option.name for option in d.PATTERN_OPTIONS if option.with_needs),
    "parameters",
    "traffic",
    "seed_name",
)
