"""Key templates: render keys from items, parse them back, review a design's
keys. Pure Python; nothing here imports Django."""

from __future__ import annotations

from modeler.keys.checks import check_entity_keys, check_keys
from modeler.keys.collisions import check_key_collisions
from modeler.keys.condition import Condition, ConditionSyntaxError, parse_condition
from modeler.keys.items import KeyLines, key_lines, key_renderer, key_values, key_writer
from modeler.keys.template import (
    MissingValueError,
    Template,
    TemplateSyntaxError,
    parse_template,
)

__all__ = [
    "Condition",
    "ConditionSyntaxError",
    "KeyLines",
    "MissingValueError",
    "Template",
    "TemplateSyntaxError",
    "check_entity_keys",
    "check_key_collisions",
    "check_keys",
    "key_lines",
    "key_renderer",
    "key_values",
    "key_writer",
    "parse_condition",
    "parse_template",
]
