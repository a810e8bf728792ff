"""The model-as-code YAML format (docs/design-format.md): read and write.

`read_design` checks the whole file before building anything and reports
every problem with its path and line; it never raises on bad input. The
semantic checks (references, DynamoDB limits, key templates) are in
`modeler.design_check`; `read_design` runs them too, so a file that reads
without errors is a design that can be saved.

The format's names and limits are in `fields`, the YAML safety checks in
`yaml_loading`, the reader in `reading` (one module a section: `reading_table`,
`reading_entities`, `reading_patterns`, on the accessors of `reader_base`),
the writer in `writing`.
"""

from __future__ import annotations

from modeler.designfile.fields import (
    DEFAULT_MAX_BYTES,
    FORMAT,
    MAX_DEPTH,
    SCALING_RANGE_KEYS,
)
from modeler.designfile.reader_base import plain_yaml_value
from modeler.designfile.reading import ReadResult, read_design
from modeler.designfile.writing import (
    dump_design,
    dump_element,
    dump_scaling_range,
    entity_document,
)
from modeler.designfile.yaml_loading import (
    YamlStructureError,
    check_yaml_structure,
    yaml_error_message,
)

__all__ = [
    "DEFAULT_MAX_BYTES",
    "FORMAT",
    "MAX_DEPTH",
    "SCALING_RANGE_KEYS",
    "ReadResult",
    "YamlStructureError",
    "check_yaml_structure",
    "dump_design",
    "dump_element",
    "dump_scaling_range",
    "entity_document",
    "plain_yaml_value",
    "read_design",
    "yaml_error_message",
]
