"""The model-as-code YAML format (docs/design-format.md): read and write.

`read_design` checks the whole file before building anything and reports
every problem with its path and line; it never raises on bad input. The
semantic checks (references, DynamoDB limits, key templates) are in
`modeler.design_check`; `read_design` runs them too, so a file that reads
without errors is a design that can be saved.
"""

from __future__ import annotations

import contextlib
import gc
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

import yaml

from modeler.design import model as d
from modeler.design.findings import Finding, error, has_errors, warning
from modeler.design_check import check_design
from modeler.infra.textfiles import TextFileError, file_text

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

_ENTITY_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
_ATTRIBUTE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,254}$")


@dataclass(frozen=True)
class ReadResult:
    """The design, when the file has no error, and every problem found."""

    design: d.Design | None
    problems: tuple[Finding, ...]

    @property
    def ok(self) -> bool:
        return self.design is not None


# libyaml's loader when PyYAML has it (four to six times quicker on a large
# design); the safe loader either way.
_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_OPENING = (yaml.MappingStartEvent, yaml.SequenceStartEvent)
_CLOSING = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


class YamlStructureError(ValueError):
    """A YAML text refused before it is built: an alias or too deep."""


def check_yaml_structure(source: str, *, what: str = "a design file") -> None:
    """Refuse aliases (a design never needs them, and they make 'billion
    laughs' documents possible) and nesting past MAX_DEPTH, from the parser's
    flat stream of events, before a composer recurses into the document.
    Raises yaml.MarkedYAMLError for an alias, YamlStructureError for depth."""
    depth = 0
    for event in yaml.parse(source, Loader=_Loader):
        if isinstance(event, yaml.AliasEvent):
            raise yaml.MarkedYAMLError(
                None,
                None,
                f"aliases (*name) are not allowed in {what}",
                event.start_mark,
            )
        if isinstance(event, _OPENING):
            depth += 1
            if depth > MAX_DEPTH + 1:
                raise YamlStructureError(
                    f"the document is nested more than {MAX_DEPTH} levels deep"
                )
        elif isinstance(event, _CLOSING):
            depth -= 1


def yaml_error_message(exc: yaml.YAMLError) -> str:
    """PyYAML's error as one line with its line and column."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        return f"not valid YAML at {where}: {exc.problem or exc.context}"
    return f"not valid YAML: {exc}"


def read_design(
    source: str | bytes, *, max_bytes: int = DEFAULT_MAX_BYTES
) -> ReadResult:
    """Read a design file's text. Problems have paths like
    `entities.Order.keys.GSI1SK` and the line they were found on."""
    with _collector_paused():
        return _read_design(source, max_bytes)


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Reading makes hundreds of thousands of objects and no garbage cycles;
    Python's cyclic collector, triggered by the count of new objects, would
    walk the growing heap again and again and make a large file's reading
    grow faster than its size (1.8 ms an entity at 3,000 entities, against
    0.9 ms with the collector paused)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _read_design(source: str | bytes, max_bytes: int) -> ReadResult:
    try:
        source = file_text(source, max_bytes=max_bytes, kind="design files")
    except TextFileError as exc:
        return _failed(str(exc))
    try:
        check_yaml_structure(source)
        loader = _Loader(source)
        try:
            node = loader.get_single_node()
            if node is None:
                return _failed("the file is empty")
            lines, duplicates = _index_lines(node)
            data = loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        return _failed(yaml_error_message(exc))
    except RecursionError as exc:
        return _failed(f"not valid YAML: {exc}")
    except YamlStructureError as exc:
        return _failed(str(exc))

    reader = _Reader(lines)
    for path, line in duplicates:
        reader.problems.append(
            error(
                "duplicate-key",
                path,
                "appears twice; the second would be lost",
                line=line,
            )
        )
    design = reader.design(data)
    problems = list(reader.problems)
    if design is not None and not has_errors(problems):
        problems.extend(reader.locate(p) for p in check_design(design))
    ok = design is not None and not has_errors(problems)
    return ReadResult(design if ok else None, tuple(problems))


def _failed(message: str) -> ReadResult:
    return ReadResult(None, (error("file-unreadable", "file", message),))


def _index_lines(node: yaml.Node) -> tuple[dict[str, int], list[tuple[str, int]]]:
    """Map each path of the document to its 1-based line, and find keys that
    appear twice in one mapping (YAML would silently keep the last)."""
    lines: dict[str, int] = {}
    duplicates: list[tuple[str, int]] = []

    def walk(n: yaml.Node, path: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise YamlStructureError(
                f"the document is nested more than {MAX_DEPTH} levels deep"
            )
        lines.setdefault(path, n.start_mark.line + 1)
        if isinstance(n, yaml.MappingNode):
            seen: set[str] = set()
            for key_node, value_node in n.value:
                key = str(key_node.value)
                child = _join(path, key)
                if key in seen:
                    duplicates.append((child, key_node.start_mark.line + 1))
                seen.add(key)
                lines[child] = key_node.start_mark.line + 1
                walk(value_node, child, depth + 1)
        elif isinstance(n, yaml.SequenceNode):
            for i, item in enumerate(n.value):
                walk(item, f"{path}[{i}]", depth + 1)

    walk(node, "", 0)
    return lines, duplicates


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


# --- Reading ----------------------------------------------------------------

_PATTERN_FIELDS = (
    "name",
    "description",
    "operation",
    "index",
    "key",
    "filter",
    "projection",
    "scan_forward",
    "limit",
    "consistent_read",
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
_NEEDS_FIELDS = (
    "name",
    "description",
    "needs",
    "projection",
    "limit",
    "consistent_read",
    "parameters",
    "traffic",
    "seed_name",
)

_MISSING = object()


class _Reader:
    """Turns the loaded YAML data into a Design, collecting every problem
    instead of stopping at the first."""

    def __init__(self, lines: Mapping[str, int]) -> None:
        self.lines = lines
        self.problems: list[Finding] = []

    def locate(self, problem: Finding) -> Finding:
        if problem.line is not None:
            return problem
        path = problem.path
        while path:
            if path in self.lines:
                return problem.at_line(self.lines[path])
            path = re.sub(r"(\.[^.\[]*|\[\d+\])$", "", path)
            if path == problem.path:
                break
        return problem

    def error(self, code: str, path: str, message: str) -> None:
        self.problems.append(self.locate(error(code, path or "file", message)))

    def warning(self, code: str, path: str, message: str) -> None:
        self.problems.append(self.locate(warning(code, path, message)))

    # Typed accessors: each reports a problem and returns a default on a bad
    # value, so reading goes on and finds the next problem too.

    def mapping(self, data: Any, path: str, *, allowed: tuple[str, ...] = ()) -> dict:
        if data is None:
            return {}
        if not isinstance(data, dict):
            self.error(
                "expected-mapping", path, f"expected a mapping, found {_kind(data)}"
            )
            return {}
        if allowed:
            for key in data:
                if key not in allowed:
                    self.error(
                        "unknown-field",
                        _join(path, str(key)),
                        f"unknown field '{key}'; expected one of: "
                        + ", ".join(allowed),
                    )
        return data

    def sequence(self, data: Any, path: str) -> list:
        if data is None:
            return []
        if not isinstance(data, list):
            self.error("expected-list", path, f"expected a list, found {_kind(data)}")
            return []
        return data

    def text(self, data: dict, key: str, path: str, default: Any = _MISSING) -> str:
        value = data.get(key, _MISSING)
        if value is _MISSING or value is None:
            if default is _MISSING:
                self.error("field-required", _join(path, key), "is required")
                return ""
            return default
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            self.error(
                "expected-text",
                _join(path, key),
                f"expected text, found {_kind(value)}",
            )
            return "" if default is _MISSING else default
        return str(value)

    def choice(
        self, data: dict, key: str, path: str, options: tuple[str, ...], default: str
    ) -> str:
        value = self.text(data, key, path, default)
        if value not in options:
            # An empty option is the key left out ("no stream"), not a word.
            listed = ", ".join(o for o in options if o)
            leave_out = f"; or leave {key} out" if "" in options else ""
            self.error(
                "not-a-choice",
                _join(path, key),
                f"'{value}' is not one of: {listed}{leave_out}",
            )
            return default
        return value

    def boolean(self, data: dict, key: str, path: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            self.error(
                "expected-boolean",
                _join(path, key),
                f"expected true or false, found {value!r}",
            )
            return default
        return value

    def integer(
        self,
        data: dict,
        key: str,
        path: str,
        default: Any = _MISSING,
        minimum: int = 0,
    ) -> int | None:
        value = data.get(key, _MISSING)
        if value is _MISSING or value is None:
            if default is _MISSING:
                self.error("field-required", _join(path, key), "is required")
                return minimum
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            self.error(
                "expected-whole-number",
                _join(path, key),
                f"expected a whole number, found {value!r}",
            )
            return minimum
        if value < minimum:
            self.error(
                "below-minimum",
                _join(path, key),
                f"must be at least {minimum}, found {value}",
            )
            return minimum
        return value

    def number(self, data: dict, key: str, path: str, default: float) -> float:
        value = data.get(key, default)
        if (
            isinstance(value, bool)
            or not isinstance(value, (int, float))
            or not math.isfinite(value)
        ):
            self.error(
                "expected-number",
                _join(path, key),
                f"expected a number, found {value!r}",
            )
            return default
        if value < 0:
            self.error(
                "negative-number",
                _join(path, key),
                f"must not be negative, found {value}",
            )
            return default
        return float(value)

    def names(self, data: Any, path: str) -> tuple[str, ...]:
        items = self.sequence(data, path)
        result = []
        for i, item in enumerate(items):
            if not isinstance(item, str) or not item:
                self.error(
                    "expected-name",
                    f"{path}[{i}]",
                    f"expected a name, found {_kind(item)}",
                )
            else:
                result.append(item)
        return tuple(result)

    # The document ---------------------------------------------------------

    def design(self, data: Any) -> d.Design | None:
        top = self.mapping(
            data,
            "",
            allowed=(
                "format",
                "name",
                "description",
                "table",
                "entities",
                "access_patterns",
                "sample_data",
            ),
        )
        if not top:
            if not self.problems:
                self.error(
                    "not-a-design",
                    "file",
                    "expected a design: a mapping with 'format', "
                    "'name', 'table', 'entities' and 'access_patterns'",
                )
            return None
        fmt = top.get("format")
        if fmt != FORMAT:
            self.error(
                "format-unknown",
                "format",
                f"expected '{FORMAT}', found {fmt!r}"
                if fmt is not None
                else f"is required: '{FORMAT}'",
            )
        name = self.text(top, "name", "")
        table = self.table(top.get("table", _MISSING))
        entities = self.entities(top.get("entities"))
        patterns = tuple(
            self.access_pattern(item, f"access_patterns[{i}]")
            for i, item in enumerate(
                self.sequence(top.get("access_patterns"), "access_patterns")
            )
        )
        sample = self.sample_data(top.get("sample_data"))
        if table is None:
            return None
        return d.Design(
            name=name,
            description=self.text(top, "description", "", ""),
            table=table,
            entities=entities,
            access_patterns=patterns,
            sample_data=sample,
        )

    def key_attribute(self, data: Any, path: str) -> d.KeyAttribute:
        if isinstance(data, str):
            return d.KeyAttribute(data, "S")
        spec = self.mapping(data, path, allowed=("name", "type"))
        return d.KeyAttribute(
            self.text(spec, "name", path),
            self.choice(spec, "type", path, d.KEY_TYPES, "S"),
        )

    def key_attributes(self, data: Any, path: str) -> tuple[d.KeyAttribute, ...]:
        if data is None:
            return ()
        if isinstance(data, list):
            return tuple(
                self.key_attribute(item, f"{path}[{i}]") for i, item in enumerate(data)
            )
        return (self.key_attribute(data, path),)

    def capacity(self, data: Any, path: str) -> d.Capacity | None:
        if data is None:
            return None
        spec = self.mapping(data, path, allowed=("read", "write", "auto_scaling"))
        return d.Capacity(
            self.integer(spec, "read", path, minimum=1),
            self.integer(spec, "write", path, minimum=1),
            self.auto_scaling(spec.get("auto_scaling"), _join(path, "auto_scaling")),
        )

    def auto_scaling(self, data: Any, path: str) -> d.AutoScaling | None:
        """`{read: {min, max, target}, write: ...}`; `false` (or `off`)
        for a capacity that is not scaled; absent for the exports'
        default."""
        if data is None:
            return None
        if data is False or data == "off":
            return d.AUTO_SCALING_OFF
        spec = self.mapping(data, path, allowed=("read", "write"))
        return d.AutoScaling(
            self.scaling_range(spec.get("read", False), _join(path, "read")),
            self.scaling_range(spec.get("write", False), _join(path, "write")),
        )

    def scaling_range(self, data: Any, path: str) -> d.ScalingRange | None:
        if data is False or data is None or data == "off":
            return None
        spec = self.mapping(data, path, allowed=SCALING_RANGE_KEYS)
        return d.ScalingRange(
            self.integer(spec, "min", path, minimum=1),
            self.integer(spec, "max", path, minimum=1),
            self.integer(spec, "target", path, default=70, minimum=1),
            self.integer(spec, "scale_in_cooldown", path, default=None),
            self.integer(spec, "scale_out_cooldown", path, default=None),
            self.boolean(spec, "disable_scale_in", path, False),
        )

    def table(self, data: Any) -> d.Table | None:
        if data is _MISSING:
            self.error("field-required", "table", "is required")
            return None
        spec = self.mapping(
            data,
            "table",
            allowed=(
                "name",
                "partition_key",
                "sort_key",
                "billing",
                "indexes",
                "ttl_attribute",
                "stream",
                "point_in_time_recovery",
                "encryption",
                "table_class",
                "deletion_protection",
                "tags",
            ),
        )
        if "partition_key" not in spec:
            self.error("field-required", "table.partition_key", "is required")
            return None
        billing = self.mapping(
            spec.get("billing"),
            "table.billing",
            allowed=("mode", "read", "write", "auto_scaling"),
        )
        mode = self.choice(
            billing, "mode", "table.billing", d.BILLING_MODES, "PAY_PER_REQUEST"
        )
        capacity = None
        if "read" in billing or "write" in billing:
            capacity = self.capacity(
                {
                    k: billing[k]
                    for k in ("read", "write", "auto_scaling")
                    if k in billing
                },
                "table.billing",
            )
        elif billing.get("auto_scaling") is not None:
            self.error(
                "auto-scaling-without-capacity",
                "table.billing.auto_scaling",
                "scales provisioned capacity: give read and write units too",
            )
        encryption = self.mapping(
            spec.get("encryption"), "table.encryption", allowed=("type", "kms_key")
        )
        tags = self.mapping(spec.get("tags"), "table.tags")
        for key, value in tags.items():
            if not isinstance(value, (str, int, float)) or isinstance(value, bool):
                self.error(
                    "expected-text",
                    f"table.tags.{key}",
                    f"expected text, found {_kind(value)}",
                )
        return d.Table(
            name=self.text(spec, "name", "table"),
            partition_key=self.key_attribute(
                spec["partition_key"], "table.partition_key"
            ),
            sort_key=(
                self.key_attribute(spec["sort_key"], "table.sort_key")
                if spec.get("sort_key") is not None
                else None
            ),
            billing_mode=mode,
            capacity=capacity,
            indexes=tuple(
                self.index(item, f"table.indexes[{i}]")
                for i, item in enumerate(
                    self.sequence(spec.get("indexes"), "table.indexes")
                )
            ),
            ttl_attribute=self.text(spec, "ttl_attribute", "table", ""),
            stream_view_type=self.choice(
                spec, "stream", "table", ("",) + d.STREAM_VIEW_TYPES, ""
            ),
            point_in_time_recovery=self.boolean(
                spec, "point_in_time_recovery", "table", False
            ),
            encryption=d.Encryption(
                self.choice(
                    encryption,
                    "type",
                    "table.encryption",
                    d.ENCRYPTION_TYPES,
                    "AWS_OWNED",
                ),
                self.text(encryption, "kms_key", "table.encryption", ""),
            ),
            table_class=self.choice(
                spec, "table_class", "table", d.TABLE_CLASSES, "STANDARD"
            ),
            deletion_protection=self.boolean(
                spec, "deletion_protection", "table", False
            ),
            tags=tuple((str(k), str(v)) for k, v in tags.items()),
        )

    def index(self, data: Any, path: str) -> d.Index:
        spec = self.mapping(
            data,
            path,
            allowed=(
                "name",
                "kind",
                "partition_key",
                "sort_key",
                "projection",
                "capacity",
            ),
        )
        projection = spec.get("projection", "ALL")
        if isinstance(projection, str):
            projection = {"type": projection}
        projection = self.mapping(
            projection, f"{path}.projection", allowed=("type", "attributes")
        )
        return d.Index(
            name=self.text(spec, "name", path),
            kind=self.choice(spec, "kind", path, d.INDEX_KINDS, "global"),
            partition_key=self.key_attributes(
                spec.get("partition_key"), f"{path}.partition_key"
            ),
            sort_key=self.key_attributes(spec.get("sort_key"), f"{path}.sort_key"),
            projection=d.Projection(
                self.choice(
                    projection, "type", f"{path}.projection", d.PROJECTION_TYPES, "ALL"
                ),
                self.names(
                    projection.get("attributes"), f"{path}.projection.attributes"
                ),
            ),
            capacity=self.capacity(spec.get("capacity"), f"{path}.capacity"),
        )

    def entities(self, data: Any) -> tuple[d.Entity, ...]:
        specs = self.mapping(data, "entities")
        result = []
        for name, spec in specs.items():
            path = f"entities.{name}"
            if not isinstance(name, str) or not _ENTITY_NAME.match(name):
                self.error(
                    "entity-name",
                    path,
                    "an entity name starts with a letter and has only "
                    "letters, digits and underscores (at most 64)",
                )
            result.append(self.entity(str(name), spec, path))
        return tuple(result)

    def entity(self, name: str, data: Any, path: str) -> d.Entity:
        spec = self.mapping(
            data,
            path,
            allowed=("description", "attributes", "keys", "sample", "seed_name"),
        )
        attributes = []
        for attr_name, attr_spec in self.mapping(
            spec.get("attributes"), f"{path}.attributes"
        ).items():
            attributes.append(
                self.attribute(
                    str(attr_name), attr_spec, f"{path}.attributes.{attr_name}"
                )
            )
        keys = {}
        for key_name, key_spec in self.mapping(
            spec.get("keys"), f"{path}.keys"
        ).items():
            keys[str(key_name)] = self.key_template(key_spec, f"{path}.keys.{key_name}")
        return d.Entity(
            name=name,
            description=self.text(spec, "description", path, ""),
            attributes=tuple(attributes),
            keys=d.freeze(keys),
            sample=self.sample_settings(spec.get("sample"), f"{path}.sample"),
            seed_name=self.seed_name(spec, name, path),
        )

    def seed_name(self, spec: dict, name: str, path: str) -> str:
        """The name a renamed element's sample draws keep (empty when it
        is the element's own)."""
        seed = self.text(spec, "seed_name", path, "")
        return "" if seed == name else seed

    def attribute(self, name: str, data: Any, path: str) -> d.Attribute:
        if not _ATTRIBUTE_NAME.match(name):
            self.error(
                "attribute-name",
                path,
                "an attribute name starts with a letter or '_' and has "
                "only letters, digits, '_', '.' and '-'",
            )
        if isinstance(data, str):
            data = {"type": data}
        spec = self.mapping(
            data,
            path,
            allowed=(
                "type",
                "required",
                "presence",
                "generator",
                "description",
                "max_length",
                "seed_name",
            ),
        )
        generator = None
        if spec.get("generator") is not None:
            generator = self.generator(spec["generator"], f"{path}.generator")
        required = self.boolean(spec, "required", path, True)
        presence = self.number(spec, "presence", path, 1.0 if required else 0.5)
        if presence > 1 or (required and presence < 1):
            self.error(
                "presence-range",
                f"{path}.presence",
                "is the share of items that have the "
                "attribute, from 0 to 1, and 1 for a required attribute",
            )
        return d.Attribute(
            name=name,
            type=self.choice(spec, "type", path, d.ATTRIBUTE_TYPES, "S"),
            required=required,
            presence=presence,
            generator=generator,
            description=self.text(spec, "description", path, ""),
            max_length=self.integer(spec, "max_length", path, None, minimum=1),
            seed_name=self.seed_name(spec, name, path),
        )

    def generator(self, data: Any, path: str) -> d.Generator | None:
        if isinstance(data, str):
            return d.Generator(data)
        if isinstance(data, dict) and len(data) == 1:
            kind, params = next(iter(data.items()))
            if not isinstance(params, dict):
                # `{choice: [A, B]}`, `{constant: X}`, `{ref: Customer.id}`
                params = {"value": params}
            return d.Generator(str(kind), d.freeze(_plain(params)))
        self.error(
            "generator-malformed",
            path,
            "expected a generator: a name such as 'ulid', or one "
            "'kind: parameters' pair such as '{int: {min: 1, max: 9}}'",
        )
        return None

    def key_template(self, data: Any, path: str) -> d.KeyTemplate:
        if isinstance(data, (str, int)) and not isinstance(data, bool):
            return d.KeyTemplate(str(data))
        spec = self.mapping(data, path, allowed=("template", "when", "alias"))
        return d.KeyTemplate(
            self.text(spec, "template", path),
            self.text(spec, "when", path, ""),
            self.text(spec, "alias", path, ""),
        )

    def count(self, data: Any, path: str) -> d.Count:
        if isinstance(data, int) and not isinstance(data, bool):
            if data < 0:
                self.error(
                    "negative-number", path, f"must not be negative, found {data}"
                )
            return d.Count("fixed", value=max(data, 0))
        if isinstance(data, dict) and len(data) == 1:
            kind, params = next(iter(data.items()))
            cpath = f"{path}.{kind}"
            if kind == "uniform":
                spec = self.mapping(params, cpath, allowed=("min", "max"))
                low = self.integer(spec, "min", cpath)
                high = self.integer(spec, "max", cpath)
                if high < low:
                    self.error(
                        "count-bounds", cpath, f"max ({high}) is less than min ({low})"
                    )
                return d.Count("uniform", low=low, high=high)
            if kind == "zipf":
                spec = self.mapping(params, cpath, allowed=("s", "max"))
                s = self.number(spec, "s", cpath, 1.2)
                if s <= 0:
                    self.error(
                        "count-zipf-exponent",
                        f"{cpath}.s",
                        "the exponent must be above 0",
                    )
                return d.Count(
                    "zipf", high=self.integer(spec, "max", cpath, minimum=1), s=s
                )
        self.error(
            "count-malformed",
            path,
            "expected a whole number, {uniform: {min, max}} or {zipf: {s, max}}",
        )
        return d.Count("fixed", value=0)

    def sample_settings(self, data: Any, path: str) -> d.SampleSettings:
        if data is None:
            return d.SampleSettings()
        spec = self.mapping(data, path, allowed=("count", "per", "hot"))
        hot = self.mapping(spec.get("hot"), f"{path}.hot", allowed=("keys", "share"))
        share = self.number(hot, "share", f"{path}.hot", 0.0) if hot else 0.0
        if share > 1:
            self.error(
                "hot-share",
                f"{path}.hot.share",
                f"is a fraction from 0 to 1, found {share}",
            )
        return d.SampleSettings(
            count=self.count(spec.get("count", 10), f"{path}.count"),
            per=self.text(spec, "per", path, ""),
            hot_keys=self.integer(hot, "keys", f"{path}.hot", 0) if hot else 0,
            hot_share=share,
        )

    def sample_data(self, data: Any) -> d.SampleData:
        spec = self.mapping(data, "sample_data", allowed=("seed", "items"))
        items = self.sequence(spec.get("items"), "sample_data.items")
        for i, item in enumerate(items):
            problem = _dynamodb_item_problem(item)
            if problem:
                self.error("item-malformed", f"sample_data.items[{i}]", problem)
        return d.SampleData(
            seed=self.integer(spec, "seed", "sample_data", 1),
            items=tuple(
                d.freeze(_plain(item)) for item in items if isinstance(item, dict)
            ),
        )

    # Access patterns --------------------------------------------------------

    def access_pattern(self, data: Any, path: str) -> d.AccessPattern:
        spec = self.mapping(data, path, allowed=_PATTERN_FIELDS)
        if "needs" in spec and "operation" not in spec:
            return self.unkeyed_pattern(spec, path)
        if "needs" in spec:
            self.error(
                "needs-with-operation",
                f"{path}.needs",
                "a pattern with an operation states what it returns under "
                "expects; leave out operation to have its keys proposed",
            )
        operation = self.choice(spec, "operation", path, d.OPERATIONS, "Query")
        if "operation" not in spec:
            self.error(
                "operation-required",
                f"{path}.operation",
                "is required (or state what the pattern reads under needs, "
                "to have its keys proposed)",
            )
        actions: tuple[d.Action, ...] = ()
        single = {"PutItem": "Put", "UpdateItem": "Update", "DeleteItem": "Delete"}
        key: tuple[d.KeyClause, ...] = ()
        if operation in single:
            actions = (
                self.action({**spec, "operation": single[operation]}, path, sugar=True),
            )
        else:
            for field in ("entity", *d.UPDATE_WAYS, "remove", "condition"):
                if field in spec:
                    self.error(
                        "field-not-for-operation",
                        f"{path}.{field}",
                        f"is for PutItem, UpdateItem and "
                        f"DeleteItem; {operation} does not take it",
                    )
            key = self.key_clauses(spec.get("key"), f"{path}.key")
        if operation in d.MULTI_ITEM_OPERATIONS:
            actions = tuple(
                self.action(item, f"{path}.actions[{i}]")
                for i, item in enumerate(
                    self.sequence(spec.get("actions"), f"{path}.actions")
                )
            )
        elif "actions" in spec:
            self.error(
                "actions-unsupported",
                f"{path}.actions",
                "only batch and transaction operations take a list of actions",
            )
        return d.AccessPattern(
            operation=operation,
            index=self.text(spec, "index", path, d.TABLE_INDEX),
            key=key,
            filter=self.text(spec, "filter", path, ""),
            scan_forward=self.boolean(spec, "scan_forward", path, True),
            expects=self.expectation(spec.get("expects"), f"{path}.expects"),
            actions=actions,
            **self.pattern_common(spec, path),
        )

    def unkeyed_pattern(self, spec: dict, path: str) -> d.AccessPattern:
        """A read stated by what it needs (`needs`, shaped as `expects`),
        whose operation, index and key are still to be proposed."""
        for field in spec:
            if field in _PATTERN_FIELDS and field not in _NEEDS_FIELDS:
                self.error(
                    "needs-with-expects",
                    f"{path}.{field}",
                    "a pattern stated by needs says what it returns there, "
                    "not under expects"
                    if field == "expects"
                    else f"a pattern stated by needs has no {field}: its keys "
                    "are still to be proposed (or give it an operation)",
                )
        return d.AccessPattern(
            operation=d.UNKEYED,
            expects=self.expectation(spec.get("needs") or {}, f"{path}.needs"),
            **self.pattern_common(spec, path),
        )

    def pattern_common(self, spec: dict, path: str) -> dict[str, Any]:
        """The fields every pattern takes, keyed or stated by needs."""
        traffic = self.mapping(
            spec.get("traffic"), f"{path}.traffic", allowed=("rps", "peak_rps")
        )
        rps = self.number(traffic, "rps", f"{path}.traffic", 0.0)
        name = self.text(spec, "name", path)
        return {
            "name": name,
            "seed_name": self.seed_name(spec, name, path),
            "description": self.text(spec, "description", path, ""),
            "projection": self.names(spec.get("projection"), f"{path}.projection"),
            "limit": self.integer(spec, "limit", path, None, minimum=1),
            "consistent_read": self.boolean(spec, "consistent_read", path, False),
            "parameters": self.parameters(spec.get("parameters"), f"{path}.parameters"),
            "traffic": d.Traffic(
                rps, self.number(traffic, "peak_rps", f"{path}.traffic", rps)
            ),
        }

    def key_clauses(self, data: Any, path: str) -> tuple[d.KeyClause, ...]:
        clauses = []
        for attribute, condition in self.mapping(data, path).items():
            clause_path = f"{path}.{attribute}"
            operator, values = self.operator_values(
                condition, clause_path, d.SORT_OPERATORS
            )
            clauses.append(d.KeyClause(str(attribute), operator, values))
        return tuple(clauses)

    def operator_values(
        self, data: Any, path: str, operators: tuple[str, ...]
    ) -> tuple[str, tuple[str, ...]]:
        """`"X"` means `= X`; `{begins_with: X}`, `{between: [A, B]}`,
        `{in: [A, B]}`, `{exists: true}` name another operator."""
        if _is_scalar(data):
            return "=", (_scalar_text(data),)
        if isinstance(data, dict) and len(data) == 1:
            operator, value = next(iter(data.items()))
            if operator not in operators:
                self.error(
                    "operator-unknown",
                    path,
                    f"unknown operator '{operator}'; expected one of: "
                    + ", ".join(operators),
                )
                return "=", ()
            if operator in ("exists", "not_exists"):
                if not isinstance(value, bool):
                    self.error(
                        "expected-boolean",
                        f"{path}.{operator}",
                        f"expected true or false, found {_kind(value)}",
                    )
                    return operator, ()
                # {exists: false} is {not_exists: true}, and the other way.
                if not value:
                    operator = "not_exists" if operator == "exists" else "exists"
                return operator, ()
            if operator in ("between", "in"):
                values = self.sequence(value, f"{path}.{operator}")
                if operator == "between" and len(values) != 2:
                    self.error(
                        "between-values",
                        f"{path}.between",
                        "expected two values: [low, high]",
                    )
                if not all(_is_scalar(v) for v in values):
                    self.error(
                        "expected-list",
                        f"{path}.{operator}",
                        "expected a list of values",
                    )
                    return operator, ()
                return operator, tuple(_scalar_text(v) for v in values)
            if not _is_scalar(value):
                self.error(
                    "expected-value",
                    f"{path}.{operator}",
                    f"expected a value, found {_kind(value)}",
                )
                return operator, ()
            return operator, (_scalar_text(value),)
        self.error(
            "predicate-malformed",
            path,
            "expected a value or one 'operator: value' pair such as "
            '{begins_with: "ORDER#"}',
        )
        return "=", ()

    def parameters(self, data: Any, path: str) -> tuple[d.Parameter, ...]:
        result = []
        for name, spec in self.mapping(data, path).items():
            ppath = f"{path}.{name}"
            if isinstance(spec, str):
                spec = {"type": spec}
            spec = self.mapping(spec, ppath, allowed=("type", "example"))
            example = spec.get("example", "")
            result.append(
                d.Parameter(
                    str(name),
                    self.choice(spec, "type", ppath, d.KEY_TYPES, "S"),
                    _scalar_text(example) if _is_scalar(example) else "",
                )
            )
        return tuple(result)

    def expectation(self, data: Any, path: str) -> d.Expectation | None:
        if data is None:
            return None
        spec = self.mapping(data, path, allowed=("entity", "where", "order_by"))
        entity = spec.get("entity")
        entities = (
            (entity,)
            if isinstance(entity, str)
            else self.names(entity, f"{path}.entity")
        )
        if not entities:
            self.error(
                "expects-entity-required",
                f"{path}.entity",
                "is required: the entity (or list of entities) the pattern returns",
            )
        where = []
        for attribute, condition in self.mapping(
            spec.get("where"), f"{path}.where"
        ).items():
            operator, values = self.operator_values(
                condition, f"{path}.where.{attribute}", d.PREDICATE_OPERATORS
            )
            where.append(d.Predicate(str(attribute), operator, values))
        order_by = spec.get("order_by")
        if isinstance(order_by, str):
            order_by = [order_by]
        return d.Expectation(
            tuple(entities), tuple(where), self.names(order_by, f"{path}.order_by")
        )

    def action(self, data: Any, path: str, *, sugar: bool = False) -> d.Action:
        allowed = (
            "operation",
            "entity",
            "key",
            *d.UPDATE_WAYS,
            "remove",
            "condition",
            "count",
        )
        spec = data if sugar else self.mapping(data, path, allowed=allowed)
        operation = spec.get("operation")
        if operation not in d.ACTION_OPERATIONS:
            self.error(
                "action-operation-unknown",
                f"{path}.operation",
                f"{operation!r} is not one of: " + ", ".join(d.ACTION_OPERATIONS),
            )
            operation = "Put"
        updates: dict[str, tuple[tuple[str, str], ...]] = {}
        for how in d.UPDATE_WAYS:
            pairs = []
            for attribute, value in self.mapping(
                spec.get(how), f"{path}.{how}"
            ).items():
                if not _is_scalar(value):
                    self.error(
                        "expected-value",
                        f"{path}.{how}.{attribute}",
                        f"expected a value or template, found {_kind(value)}",
                    )
                    continue
                pairs.append((str(attribute), _scalar_text(value)))
            updates[how] = tuple(pairs)
        count = spec.get("count", "")
        if not _is_scalar(count):
            self.error(
                "action-count",
                f"{path}.count",
                "expected a number or a template such as '{itemCount}'",
            )
            count = ""
        return d.Action(
            operation=operation,
            entity=self.text(spec, "entity", path),
            key=self.key_clauses(spec.get("key"), f"{path}.key"),
            remove=self.names(spec.get("remove"), f"{path}.remove"),
            condition=self.text(spec, "condition", path, ""),
            count=_scalar_text(count),
            **updates,
        )


def _is_scalar(value: Any) -> bool:
    return isinstance(value, (str, int, float, Decimal, date)) and not isinstance(
        value, bool
    )


def _scalar_text(value: Any) -> str:
    return _plain(value) if isinstance(value, date) else str(value)


def _plain(value: Any) -> Any:
    """YAML reads `2025-01-01` as a date; a design keeps such values as the
    ISO-8601 text the user wrote, so they store as JSON and dump unchanged.
    Likewise a bare `true` key (`{bool: {true: 0.05}}`) stays the word."""
    if isinstance(value, datetime):
        return value.isoformat().replace("+00:00", "Z")
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, dict):
        return {_key_text(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _key_text(key: Any) -> str:
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(_plain(key))


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, (int, float)):
        return f"the number {value}"
    return f"'{value}'"


_DYNAMODB_TYPES = ("S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS")


def _dynamodb_item_problem(item: Any) -> str:
    """Why `item` is not an item in DynamoDB JSON, or '' when it is."""
    if not isinstance(item, dict) or not item:
        return "expected an item in DynamoDB JSON: {attribute: {S: value}, ...}"
    for name, value in item.items():
        if not (
            isinstance(value, dict)
            and len(value) == 1
            and next(iter(value)) in _DYNAMODB_TYPES
        ):
            return (
                f"attribute '{name}' is not in DynamoDB JSON: expected one of "
                f"{', '.join(_DYNAMODB_TYPES)} as its only key, "
                'such as {S: "text"}'
            )
    return ""


# --- Writing ----------------------------------------------------------------


def dump_design(design: d.Design) -> str:
    """The design as a YAML document in the documented format; reading it
    back gives an equal Design."""
    doc: dict[str, Any] = {"format": FORMAT, "name": design.name}
    if design.description:
        doc["description"] = design.description
    doc["table"] = _dump_table(design.table)
    doc["entities"] = {e.name: _dump_entity(e) for e in design.entities}
    doc["access_patterns"] = [_dump_pattern(p) for p in design.access_patterns]
    sample: dict[str, Any] = {"seed": design.sample_data.seed}
    if design.sample_data.items:
        sample["items"] = [d.thaw(item) for item in design.sample_data.items]
    doc["sample_data"] = sample
    return _yaml(doc)


def entity_document(entity: d.Entity) -> dict[str, Any]:
    """The entity as the design file writes it under `entities:`, as plain
    data (what reading that YAML back gives), without writing YAML."""
    return _dump_entity(entity)


def dump_element(kind: str, value: Any) -> str:
    """One element of a design (see `modeler.history.elements`) as the
    design file writes it, to show two versions of it side by side: the
    project's name and description, the table's settings (its indexes are
    elements of their own), an index, an entity, an access pattern, the
    sample seed or the own items."""
    doc: Any
    if kind == "project":
        name, description = value
        doc = {"name": name, "description": description}
    elif kind == "table":
        doc = _dump_table(value)
        doc.pop("indexes", None)
    elif kind == "index":
        doc = _dump_index(value)
    elif kind == "entity":
        doc = {value.name: _dump_entity(value)}
    elif kind == "pattern":
        doc = _dump_pattern(value)
    elif kind == "items":
        doc = [d.thaw(item) for item in value]
    else:
        doc = {"seed": value}
    return _yaml(doc)


def _yaml(doc: Any) -> str:
    return yaml.dump(
        _flow_leaves(doc),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=88,
    )


class _FlowDict(dict):
    pass


class _FlowList(list):
    pass


def _flow_leaves(value: Any) -> Any:
    """Short mappings and lists of plain values are written on one line
    (`{name: PK, type: S}`), as people write them by hand."""
    if isinstance(value, dict):
        children = {k: _flow_leaves(v) for k, v in value.items()}
        leaf = all(
            not isinstance(v, (dict, list)) or isinstance(v, (_FlowList, _FlowDict))
            for v in children.values()
        )
        short = (
            len(children) <= 4
            and len(str(children)) < 72
            and all("\n" not in v for v in children.values() if isinstance(v, str))
        )
        return _FlowDict(children) if leaf and short else children
    if isinstance(value, list):
        children = [_flow_leaves(v) for v in value]
        if all(isinstance(v, (str, int, float)) for v in children):
            return _FlowList(children)
        return children
    return value


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


_Dumper.add_representer(
    _FlowDict,
    lambda dumper, value: dumper.represent_mapping(
        "tag:yaml.org,2002:map", value.items(), flow_style=True
    ),
)
_Dumper.add_representer(
    _FlowList,
    lambda dumper, value: dumper.represent_sequence(
        "tag:yaml.org,2002:seq", value, flow_style=True
    ),
)


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_representer)


def _dump_key_attribute(attr: d.KeyAttribute) -> dict:
    return {"name": attr.name, "type": attr.type}


def _dump_key_attributes(attrs: tuple[d.KeyAttribute, ...]) -> Any:
    if len(attrs) == 1:
        return _dump_key_attribute(attrs[0])
    return [_dump_key_attribute(a) for a in attrs]


def _dump_table(table: d.Table) -> dict:
    out: dict[str, Any] = {
        "name": table.name,
        "partition_key": _dump_key_attribute(table.partition_key),
    }
    if table.sort_key:
        out["sort_key"] = _dump_key_attribute(table.sort_key)
    billing: dict[str, Any] = {"mode": table.billing_mode}
    if table.capacity:
        billing.update(_dump_capacity(table.capacity))
    out["billing"] = billing
    if table.ttl_attribute:
        out["ttl_attribute"] = table.ttl_attribute
    if table.stream_view_type:
        out["stream"] = table.stream_view_type
    if table.point_in_time_recovery:
        out["point_in_time_recovery"] = True
    if table.encryption != d.Encryption():
        enc: dict[str, Any] = {"type": table.encryption.type}
        if table.encryption.kms_key:
            enc["kms_key"] = table.encryption.kms_key
        out["encryption"] = enc
    if table.table_class != "STANDARD":
        out["table_class"] = table.table_class
    if table.deletion_protection:
        out["deletion_protection"] = True
    if table.tags:
        out["tags"] = dict(table.tags)
    if table.indexes:
        out["indexes"] = [_dump_index(i) for i in table.indexes]
    return out


def _dump_index(index: d.Index) -> dict:
    out: dict[str, Any] = {"name": index.name, "kind": index.kind}
    if index.partition_key:
        out["partition_key"] = _dump_key_attributes(index.partition_key)
    if index.sort_key:
        out["sort_key"] = _dump_key_attributes(index.sort_key)
    if index.projection.type == "INCLUDE":
        out["projection"] = {
            "type": "INCLUDE",
            "attributes": list(index.projection.attributes),
        }
    else:
        out["projection"] = index.projection.type
    if index.capacity:
        out["capacity"] = _dump_capacity(index.capacity)
    return out


def _dump_capacity(capacity: d.Capacity) -> dict[str, Any]:
    out: dict[str, Any] = {"read": capacity.read, "write": capacity.write}
    scaling = capacity.auto_scaling
    if scaling == d.AUTO_SCALING_OFF:
        out["auto_scaling"] = False
    elif scaling is not None:
        out["auto_scaling"] = {
            name: dump_scaling_range(r) if r else False
            for name, r in (("read", scaling.read), ("write", scaling.write))
        }
    return out


def dump_scaling_range(r: d.ScalingRange) -> dict[str, Any]:
    """A range as the design file writes it: the policy's settings only
    where they are not Application Auto Scaling's defaults."""
    out: dict[str, Any] = {"min": r.minimum, "max": r.maximum, "target": r.target}
    if r.scale_in_cooldown is not None:
        out["scale_in_cooldown"] = r.scale_in_cooldown
    if r.scale_out_cooldown is not None:
        out["scale_out_cooldown"] = r.scale_out_cooldown
    if r.disable_scale_in:
        out["disable_scale_in"] = True
    return out


def _dump_generator(generator: d.Generator) -> Any:
    if not generator.params:
        return generator.kind
    params = d.thaw(generator.params)
    if set(params) == {"value"}:
        params = params["value"]
    return {generator.kind: params}


def _dump_entity(entity: d.Entity) -> dict:
    out: dict[str, Any] = {}
    if entity.description:
        out["description"] = entity.description
    attrs: dict[str, Any] = {}
    for attr in entity.attributes:
        spec: dict[str, Any] = {"type": attr.type}
        if not attr.required:
            spec["required"] = False
            if attr.presence != 0.5:
                spec["presence"] = attr.presence
        if attr.generator:
            spec["generator"] = _dump_generator(attr.generator)
        if attr.max_length is not None:
            spec["max_length"] = attr.max_length
        if attr.description:
            spec["description"] = attr.description
        if attr.seed_name:
            spec["seed_name"] = attr.seed_name
        attrs[attr.name] = spec
    out["attributes"] = attrs
    out["keys"] = {name: _dump_key(key) for name, key in entity.keys.items()}
    out["sample"] = _dump_sample_settings(entity.sample)
    if entity.seed_name:
        out["seed_name"] = entity.seed_name
    return out


def _dump_key(key: d.KeyTemplate) -> Any:
    if not (key.when or key.alias):
        return key.template
    spec = {"template": key.template}
    if key.when:
        spec["when"] = key.when
    if key.alias:
        spec["alias"] = key.alias
    return spec


def _dump_count(count: d.Count) -> Any:
    if count.distribution == "uniform":
        return {"uniform": {"min": count.low, "max": count.high}}
    if count.distribution == "zipf":
        return {"zipf": {"s": count.s, "max": count.high}}
    return count.value


def _dump_sample_settings(sample: d.SampleSettings) -> dict:
    out: dict[str, Any] = {}
    if sample.per:
        out["per"] = sample.per
    out["count"] = _dump_count(sample.count)
    if sample.hot_keys or sample.hot_share:
        out["hot"] = {"keys": sample.hot_keys, "share": sample.hot_share}
    return out


def _dump_condition(operator: str, values: tuple[str, ...]) -> Any:
    if operator == "=":
        return values[0] if values else ""
    if operator in ("exists", "not_exists"):
        return {operator: True}
    if operator in ("between", "in"):
        return {operator: list(values)}
    return {operator: values[0] if values else ""}


def _dump_key_clauses(clauses: tuple[d.KeyClause, ...]) -> dict:
    return {c.attribute: _dump_condition(c.operator, c.values) for c in clauses}


def _dump_action(action: d.Action, *, with_operation: bool = True) -> dict:
    out: dict[str, Any] = {}
    if with_operation:
        out["operation"] = action.operation
    out["entity"] = action.entity
    if action.key:
        out["key"] = _dump_key_clauses(action.key)
    for how in d.UPDATE_WAYS:
        if getattr(action, how):
            out[how] = dict(getattr(action, how))
    if action.remove:
        out["remove"] = list(action.remove)
    if action.condition:
        out["condition"] = action.condition
    if action.count:
        out["count"] = action.count
    return out


_SINGLE_WRITES = ("PutItem", "UpdateItem", "DeleteItem")


def _number(value: float) -> float | int:
    return int(value) if value == int(value) else value


def _dump_pattern(pattern: d.AccessPattern) -> dict:
    out: dict[str, Any] = {"name": pattern.name}
    if pattern.description:
        out["description"] = pattern.description
    if not pattern.keyed:
        # Stated by what it needs: its expectation, the fields it shares
        # with every pattern, and no operation or key.
        if pattern.expects:
            out["needs"] = _dump_expectation(pattern.expects)
        if pattern.projection:
            out["projection"] = list(pattern.projection)
        return out | _dump_pattern_common(pattern)
    out["operation"] = pattern.operation
    if pattern.index != d.TABLE_INDEX:
        out["index"] = pattern.index
    if pattern.operation in _SINGLE_WRITES and pattern.actions:
        out.update(_dump_action(pattern.actions[0], with_operation=False))
    elif pattern.actions:
        out["actions"] = [_dump_action(a) for a in pattern.actions]
    if pattern.key:
        out["key"] = _dump_key_clauses(pattern.key)
    if pattern.filter:
        out["filter"] = pattern.filter
    if pattern.projection:
        out["projection"] = list(pattern.projection)
    if not pattern.scan_forward:
        out["scan_forward"] = False
    out |= _dump_pattern_common(pattern)
    if pattern.expects:
        out["expects"] = _dump_expectation(pattern.expects)
    return out


def _dump_pattern_common(pattern: d.AccessPattern) -> dict[str, Any]:
    """Limit, consistency, parameters and traffic: fields every pattern has."""
    out: dict[str, Any] = {}
    if pattern.limit is not None:
        out["limit"] = pattern.limit
    if pattern.consistent_read:
        out["consistent_read"] = True
    if pattern.parameters:
        out["parameters"] = {
            p.name: ({"type": p.type, "example": p.example} if p.example else p.type)
            for p in pattern.parameters
        }
    if pattern.traffic != d.Traffic():
        out["traffic"] = {
            "rps": _number(pattern.traffic.rps),
            "peak_rps": _number(pattern.traffic.peak_rps),
        }
    if pattern.seed_name:
        out["seed_name"] = pattern.seed_name
    return out


def _dump_expectation(expects: d.Expectation) -> dict[str, Any]:
    out: dict[str, Any] = {
        "entity": (
            expects.entities[0]
            if len(expects.entities) == 1
            else list(expects.entities)
        )
    }
    if expects.where:
        out["where"] = {
            p.attribute: _dump_condition(p.operator, p.values) for p in expects.where
        }
    if expects.order_by:
        out["order_by"] = list(expects.order_by)
    return out
