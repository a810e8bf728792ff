"""Semantic checks of a whole design: references between its parts and the
DynamoDB rules a design must follow to be deployable (shared/DOMAIN.md).

Paths are in the design file's terms (`table.indexes[1].sort_key`,
`entities.Order.attributes.total`, `access_patterns[3].key.SK`) so the same
problems serve the YAML import, `check_design` and the editor.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from datetime import date, datetime
from functools import cache

from modeler import design as d
from modeler.engine.errors import ValidationException
from modeler.engine.size import MAX_ITEM_SIZE, item_size
from modeler.engine.types import from_wire, number, type_of
from modeler.kept import Kept
from modeler.keys import check_keys
from modeler.limits import check_sample_size, check_shape
from modeler.limits import current as current_limits
from modeler.parameters import placeholders, used_parameter_names
from modeler.problems import Problem

MAX_GSIS = 20  # the default quota per table
MAX_LSIS = 5
MAX_KEY_ATTRIBUTES_PER_PART = 4  # multi-attribute GSI keys
MAX_PROJECTED_ATTRIBUTES = 100  # summed over all indexes of a table
MAX_TRANSACTION_ITEMS = 100
MAX_BATCH_GET_ITEMS = 100
MAX_BATCH_WRITE_ITEMS = 25
MAX_TAGS = 50
# Sample values: the elements one value of an attribute holds (lists and maps
# nested in it multiplied), and the digits of a sequence.
MAX_VALUES_PER_ATTRIBUTE = 1_000
MAX_SEQUENCE_WIDTH = 100

_TABLE_NAME = re.compile(r"^[A-Za-z0-9_.-]{3,255}$")
# The forms AWS takes for a table's KMS key: key id (or multi-Region key
# id), key ARN, alias name, alias ARN.
_KMS_KEY = re.compile(
    r"\A(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|mrk-[0-9a-f]{32}"
    r"|alias/[A-Za-z0-9/_-]{1,250}"
    r"|arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:"
    r"(?:key/(?:mrk-)?[0-9a-f-]{32,36}|alias/[A-Za-z0-9/_-]{1,250}))\Z"
)
MAX_KEY_NAME_BYTES = 255
_REFERENCE = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)\.(.+)$")

GENERATOR_KINDS = (
    "faker",
    "choice",
    "int",
    "decimal",
    "date",
    "timestamp",
    "uuid",
    "ulid",
    "sequence",
    "constant",
    "ref",
    "pick",
    "template",
    "list",
    "map",
    "bool",
    "expires",
)
# The longest time to live an `expires` generator takes (days).
MAX_EXPIRES_DAYS = 36_500


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
    problems += _check_names(design)
    problems += _check_table(design.table)
    problems += _check_indexes(design.table)
    problems += _check_entities(design)
    problems += check_keys(design)
    problems += _check_patterns(design)
    problems += _check_sample_items(design)
    if not any(p.is_error for p in problems):
        problems += check_sample_size(design)
    return problems


MAX_NAME = 200  # project and access pattern names
MAX_TEMPLATE = 2048
MAX_CONDITION = 1000


def _check_names(design: d.Design) -> Iterator[Problem]:
    """Lengths the database keeps, so a design that checks clean saves."""
    if not design.name.strip():
        yield _error("name", "is required: the design's name")
    elif len(design.name) > MAX_NAME:
        yield _error("name", f"has {len(design.name)} characters; at most {MAX_NAME}")
    for i, pattern in enumerate(design.access_patterns):
        if not pattern.name.strip():
            yield _error(f"access_patterns[{i}].name", "is required")
        elif len(pattern.name) > MAX_NAME:
            yield _error(
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
                yield _error(
                    path,
                    limits.exceeded(
                        "template_chars",
                        f"the template has {len(key.template):,} characters",
                    ),
                )
            if len(key.when) > MAX_CONDITION:
                yield _error(
                    path,
                    f"the condition has {len(key.when)} characters; "
                    f"at most {MAX_CONDITION}",
                )


def _error(path: str, message: str) -> Problem:
    return Problem("error", path, message)


def _warning(path: str, message: str) -> Problem:
    return Problem("warning", path, message)


# --- Table and indexes --------------------------------------------------------


def _check_table(table: d.Table) -> Iterator[Problem]:
    if not _TABLE_NAME.match(table.name):
        yield _error(
            "table.name",
            f"'{table.name}' is not a valid table name: 3 to 255 characters "
            "of letters, digits, '_', '-' and '.'",
        )
    for path, attr in (
        ("partition_key", table.partition_key),
        ("sort_key", table.sort_key),
    ):
        if attr is not None and not attr.name:
            yield _error(f"table.{path}.name", "is required")
    for attr in table.all_key_attributes():
        size = len(attr.name.encode("utf-8"))
        if size > MAX_KEY_NAME_BYTES:
            yield _error(
                "table",
                f"the key attribute name '{attr.name[:40]}…' has {size} bytes; "
                f"DynamoDB allows at most {MAX_KEY_NAME_BYTES}",
            )
    if table.ttl_attribute and len(table.ttl_attribute.encode()) > MAX_KEY_NAME_BYTES:
        yield _error(
            "table.ttl_attribute",
            f"a TTL attribute name has at most {MAX_KEY_NAME_BYTES} bytes",
        )
    if table.encryption.kms_key and not _KMS_KEY.match(table.encryption.kms_key):
        yield _error(
            "table.encryption.kms_key",
            "expected a KMS key id, key ARN, alias (alias/name) or alias ARN",
        )
    if table.billing_mode == "PROVISIONED" and table.capacity is None:
        yield _error(
            "table.billing",
            "a PROVISIONED table needs read and write capacity units",
        )
    if table.billing_mode == "PAY_PER_REQUEST" and table.capacity is not None:
        yield _error(
            "table.billing",
            "an on-demand (PAY_PER_REQUEST) table takes no read or write capacity",
        )
    if table.capacity:
        yield from _check_scaling(table.capacity, "table.billing.auto_scaling")
    if table.encryption.kms_key and table.encryption.type != "KMS":
        yield _error(
            "table.encryption.kms_key",
            "a KMS key is only used with encryption type KMS",
        )
    if len(table.tags) > MAX_TAGS:
        yield _error("table.tags", f"at most {MAX_TAGS} tags, found {len(table.tags)}")
    for key, value in table.tags:
        if not 1 <= len(key) <= 128:
            yield _error(f"table.tags.{key}", "a tag key has 1 to 128 characters")
        if len(value) > 256:
            yield _error(f"table.tags.{key}", "a tag value has at most 256 characters")
        if key.lower().startswith("aws:"):
            yield _error(
                f"table.tags.{key}", "tag keys starting with 'aws:' are reserved by AWS"
            )


def _check_indexes(table: d.Table) -> Iterator[Problem]:
    seen: set[str] = set()
    types: dict[str, tuple[str, str]] = {
        a.name: (a.type, "the table") for a in table.key_attributes
    }
    gsis = [i for i in table.indexes if i.is_global]
    lsis = [i for i in table.indexes if not i.is_global]
    if len(gsis) > MAX_GSIS:
        yield _error(
            "table.indexes",
            f"{len(gsis)} global secondary indexes; "
            f"the default quota is {MAX_GSIS} per table",
        )
    if len(lsis) > MAX_LSIS:
        yield _error(
            "table.indexes",
            f"{len(lsis)} local secondary indexes; "
            f"DynamoDB allows at most {MAX_LSIS} per table",
        )
    projected = 0
    for i, index in enumerate(table.indexes):
        path = f"table.indexes[{i}]"
        if not _TABLE_NAME.match(index.name):
            yield _error(
                f"{path}.name",
                f"'{index.name}' is not a valid index "
                "name: 3 to 255 characters of letters, digits, '_', "
                "'-' and '.'",
            )
        if index.name in seen or index.name == d.TABLE_INDEX:
            yield _error(
                f"{path}.name", f"the index name '{index.name}' is already used"
            )
        seen.add(index.name)
        if index.is_global:
            yield from _check_gsi_keys(index, path, table)
        else:
            yield from _check_lsi_keys(index, path, table)
        for attr in index.key_attributes:
            if not attr.name:
                yield _error(f"{path}", "every key attribute needs a name")
                continue
            known = types.setdefault(attr.name, (attr.type, f"index {index.name}"))
            if known[0] != attr.type:
                yield _error(
                    path,
                    f"key attribute '{attr.name}' is {attr.type} here but "
                    f"{known[0]} in {known[1]}; an attribute has one type "
                    "in AttributeDefinitions",
                )
        yield from _check_projection(index, path, table)
        if index.projection.type == "INCLUDE":
            projected += len(index.projection.attributes)
        if index.capacity and not index.is_global:
            yield _error(
                f"{path}.capacity",
                "a local secondary index shares the "
                "table's capacity and takes none of its own",
            )
        if (
            index.is_global
            and table.billing_mode == "PROVISIONED"
            and not (index.capacity)
        ):
            yield _error(
                f"{path}.capacity",
                "a global secondary index of a "
                "PROVISIONED table needs read and write capacity units",
            )
        if (
            index.is_global
            and table.billing_mode == "PAY_PER_REQUEST"
            and (index.capacity)
        ):
            yield _error(
                f"{path}.capacity",
                "indexes of an on-demand table take no capacity units",
            )
        if index.capacity and index.is_global:
            yield from _check_scaling(index.capacity, f"{path}.capacity.auto_scaling")
    if projected > MAX_PROJECTED_ATTRIBUTES:
        yield _error(
            "table.indexes",
            f"{projected} projected non-key attributes "
            f"over all indexes; DynamoDB allows at most "
            f"{MAX_PROJECTED_ATTRIBUTES}",
        )


def _check_gsi_keys(index: d.Index, path: str, table: d.Table) -> Iterator[Problem]:
    if not 1 <= len(index.partition_key) <= MAX_KEY_ATTRIBUTES_PER_PART:
        yield _error(
            f"{path}.partition_key",
            "a global secondary index has 1 to "
            f"{MAX_KEY_ATTRIBUTES_PER_PART} partition key attributes",
        )
    if len(index.sort_key) > MAX_KEY_ATTRIBUTES_PER_PART:
        yield _error(
            f"{path}.sort_key",
            "a global secondary index has at most "
            f"{MAX_KEY_ATTRIBUTES_PER_PART} sort key attributes",
        )
    names = [a.name for a in index.key_attributes]
    for name in set(names):
        if names.count(name) > 1:
            yield _error(path, f"'{name}' is used twice in the index key")


def _check_lsi_keys(index: d.Index, path: str, table: d.Table) -> Iterator[Problem]:
    if table.sort_key is None:
        yield _error(path, "a local secondary index needs a table with a sort key")
    if index.partition_key and index.partition_key != (table.partition_key,):
        yield _error(
            f"{path}.partition_key",
            "a local secondary index has the "
            f"table's partition key '{table.partition_key.name}'; leave "
            "it out or name that one",
        )
    if len(index.sort_key) != 1:
        yield _error(
            f"{path}.sort_key",
            "a local secondary index has exactly one sort key attribute",
        )
    elif table.sort_key and index.sort_key[0].name == table.sort_key.name:
        yield _error(
            f"{path}.sort_key",
            "a local secondary index needs a sort key other than the table's",
        )


def _check_scaling(capacity: d.Capacity, path: str) -> Iterator[Problem]:
    """Application Auto Scaling's limits for DynamoDB: a range of whole
    units up to 40,000 and a target utilisation of 20 to 90 percent."""
    scaling = capacity.auto_scaling
    if scaling is None:
        return
    for name, units, r in (
        ("read", capacity.read, scaling.read),
        ("write", capacity.write, scaling.write),
    ):
        if r is None:
            continue
        where = f"{path}.{name}"
        if r.minimum > r.maximum:
            yield _error(
                where,
                f"the minimum ({r.minimum}) is above the maximum ({r.maximum})",
            )
        if r.maximum > d.MAX_AUTO_SCALED_UNITS:
            yield _error(
                f"{where}.max",
                f"auto scaling goes up to {d.MAX_AUTO_SCALED_UNITS:,} units, found "
                f"{r.maximum:,}",
            )
        if not 20 <= r.target <= 90:
            yield _error(
                f"{where}.target",
                f"a target utilisation is 20 to 90 percent, found {r.target}",
            )
        if r.minimum <= r.maximum and not r.minimum <= units <= r.maximum:
            yield _warning(
                where,
                f"the provisioned {name} capacity ({units}) is outside auto "
                f"scaling's range ({r.minimum} to {r.maximum}): auto scaling "
                f"sets it to {r.minimum if units < r.minimum else r.maximum}",
            )


def _check_projection(index: d.Index, path: str, table: d.Table) -> Iterator[Problem]:
    projection = index.projection
    if projection.type == "INCLUDE" and not projection.attributes:
        yield _error(f"{path}.projection", "INCLUDE needs the attributes to project")
    if projection.type != "INCLUDE" and projection.attributes:
        yield _error(
            f"{path}.projection",
            f"{projection.type} takes no attribute "
            "list; use INCLUDE to name attributes",
        )
    keys = {a.name for a in table.key_attributes + index.key_attributes}
    for name in projection.attributes:
        if name in keys:
            yield _error(
                f"{path}.projection.attributes",
                f"'{name}' is a key "
                "attribute, always projected; list only non-key attributes",
            )
    if len(set(projection.attributes)) != len(projection.attributes):
        yield _error(f"{path}.projection.attributes", "an attribute is listed twice")


def lsi_partition_key(table: d.Table, index: d.Index) -> tuple[d.KeyAttribute, ...]:
    """An LSI's partition key: written or not, it is the table's."""
    return index.partition_key or (table.partition_key,)


# --- Entities ----------------------------------------------------------------


def _check_entities(design: d.Design) -> Iterator[Problem]:
    repeated = Counter(e.name for e in design.entities)
    key_names = {a.name for a in design.table.all_key_attributes()}
    for entity in design.entities:
        path = f"entities.{entity.name}"
        if repeated[entity.name] > 1:
            yield _error(path, f"the entity name '{entity.name}' is used twice")
        attr_counts = Counter(a.name for a in entity.attributes)
        for attr in entity.attributes:
            apath = f"{path}.attributes.{attr.name}"
            if attr_counts[attr.name] > 1:
                yield _error(apath, "is declared twice")
            if attr.name in key_names:
                yield _error(
                    apath,
                    f"'{attr.name}' is a key attribute of the table "
                    "or an index: its value comes from the entity's key "
                    "template; declare the attributes the template uses",
                )
            if attr.max_length is not None and attr.type not in ("S", "B"):
                yield _error(
                    f"{apath}.max_length", "applies to S and B attributes only"
                )
            if attr.generator is not None:
                yield from _check_generator(
                    design, entity, attr, attr.generator, f"{apath}.generator"
                )
        if design.table.ttl_attribute:
            ttl = entity.attribute(design.table.ttl_attribute)
            if ttl is not None and ttl.type != "N":
                yield _warning(
                    f"{path}.attributes.{ttl.name}",
                    "the TTL attribute must be a number (N) of epoch "
                    "seconds; DynamoDB ignores other values",
                )
        yield from _check_sample_settings(design, entity, f"{path}.sample")


def _faker_arguments_problem(provider: str, arguments: dict) -> str:
    # Imported here: the sample data package loads Faker, which a design
    # without Faker generators (or an export) does not need.
    from modeler.sampledata.faker_arguments import faker_arguments_problem

    return faker_arguments_problem(provider, arguments)


@cache
def _faker_providers() -> frozenset[str]:
    from faker import Faker
    from faker.generator import Generator

    fake = Faker("en_US")
    # Faker's own machinery (seed, unique, add_provider...) is not a provider.
    machinery = set(dir(type(fake))) | set(dir(Generator))
    return frozenset(
        n for n in dir(fake) if not n.startswith("_") and n not in machinery
    )


def generator_problems(
    design: d.Design, entity: d.Entity, attr: d.Attribute
) -> list[Problem]:
    """What is wrong with `attr`'s generator in `entity` (the generator
    picker checks a generator before offering it)."""
    if attr.generator is None:
        return []
    return list(_check_generator(design, entity, attr, attr.generator, "generator"))


def _check_generator(
    design: d.Design,
    entity: d.Entity,
    attr: d.Attribute,
    generator: d.Generator,
    path: str,
    repeat: int = 1,
) -> Iterator[Problem]:
    """`repeat`: how many values of this generator one value of the
    attribute holds (lists and maps multiply it)."""
    kind, params = generator.kind, generator.params
    if kind not in GENERATOR_KINDS:
        yield _error(
            path,
            f"unknown generator '{kind}'; expected one of: "
            + ", ".join(GENERATOR_KINDS),
        )
        return
    value = params.get("value")
    if kind == "faker":
        provider = value if value is not None else params.get("provider")
        if not isinstance(provider, str) or provider not in _faker_providers():
            yield _error(
                path,
                f"'{provider}' is not a Faker provider (such as "
                "name, email, company, address, phone_number, sentence)",
            )
        elif problem := _faker_arguments_problem(
            provider,
            {
                k: d.thaw(v)
                for k, v in params.items()
                if k not in ("provider", "value", "unique")
            },
        ):
            yield _error(path, problem)
        if not isinstance(params.get("unique", False), bool):
            yield _error(path, "unique is true or false")
    elif kind == "choice":
        options = value if value is not None and len(params) == 1 else dict(params)
        if isinstance(options, tuple):
            weights = [1] * len(options)
        elif isinstance(options, Mapping):
            weights = list(options.values())
        else:
            yield _error(
                path,
                "choice takes a list of options, [A, B], or options "
                "with weights, {A: 1, B: 4}",
            )
            return
        if not options:
            yield _error(path, "choice needs at least one option")
        elif any(
            isinstance(w, bool) or not isinstance(w, (int, float)) or w < 0
            for w in weights
        ) or not any(weights):
            yield _error(
                path,
                "choice weights are numbers of 0 or more, at least "
                "one above 0: {OPEN: 1, SHIPPED: 4}",
            )
    elif kind in ("int", "decimal"):
        low, high = params.get("min"), params.get("max")
        if not _is_number(low) or not _is_number(high) or low > high:
            yield _error(path, f"{kind} needs numbers min and max, min <= max")
        places = params.get("places", 2)
        if kind == "decimal" and (not isinstance(places, int) or not 0 <= places <= 38):
            yield _error(path, "places is a whole number from 0 to 38")
    elif kind in ("date", "timestamp"):
        bounds = [params.get("from"), params.get("to")]
        parsed = [_parse_iso(b) for b in bounds]
        if None in parsed:
            yield _error(
                path,
                f"{kind} needs ISO-8601 'from' and 'to', such as "
                "{from: 2025-01-01, to: 2026-06-30}",
            )
        elif parsed[0] > parsed[1]:
            yield _error(path, f"'from' ({bounds[0]}) is after 'to' ({bounds[1]})")
    elif kind == "sequence":
        for name in ("start", "width"):
            if name in params and not (
                isinstance(params[name], int) and params[name] >= 0
            ):
                yield _error(path, f"sequence {name} is a whole number of 0 or more")
        width = params.get("width", 0)
        if isinstance(width, int) and width > MAX_SEQUENCE_WIDTH:
            yield _error(path, f"sequence width is at most {MAX_SEQUENCE_WIDTH}")
    elif kind == "ref":
        yield from _check_reference(design, entity, value, path)
    elif kind == "pick":
        yield from _check_pick(design, value if value is not None else params, path)
    elif kind == "template":
        if not isinstance(value, str):
            yield _error(
                path, "template needs text such as '{firstName}.{lastName}@example.com'"
            )
        else:
            for name in placeholders(value):
                if name == attr.name or entity.attribute(name) is None:
                    yield _error(
                        path,
                        f"the template uses '{name}', which is not "
                        f"another attribute of {entity.name}",
                    )
    elif kind == "expires":
        yield from _check_expires(entity, attr, params, path)
    elif kind == "list":
        inner = _inner_generator(params.get("of"))
        low, high = params.get("min", 0), params.get("max", 5)
        if not (isinstance(low, int) and isinstance(high, int) and 0 <= low <= high):
            yield _error(path, "list min and max are whole numbers, min <= max")
        elif repeat * high > MAX_VALUES_PER_ATTRIBUTE:
            yield _error(
                path,
                f"a value of {attr.name} could hold {repeat * high:,} elements; "
                f"at most {MAX_VALUES_PER_ATTRIBUTE:,}",
            )
        elif inner is None:
            yield _error(path, "list needs 'of': the generator of its elements")
        else:
            yield from _check_generator(
                design, entity, attr, inner, f"{path}.of", repeat * max(high, 1)
            )
    elif kind == "map":
        fields = params.get("fields")
        if not isinstance(fields, Mapping) or not fields:
            yield _error(path, "map needs 'fields': a generator for each field")
            return
        if repeat * len(fields) > MAX_VALUES_PER_ATTRIBUTE:
            yield _error(
                path,
                f"a value of {attr.name} could hold {repeat * len(fields):,} "
                f"elements; at most {MAX_VALUES_PER_ATTRIBUTE:,}",
            )
            return
        for name, spec in fields.items():
            inner = _inner_generator(spec)
            if inner is None:
                yield _error(f"{path}.fields.{name}", "expected a generator")
            else:
                yield from _check_generator(
                    design, entity, attr, inner, f"{path}.fields.{name}", repeat
                )
    elif kind == "bool":
        share = value if value is not None else params.get("true", 0.5)
        if not _is_number(share) or not 0 <= share <= 1:
            yield _error(path, "bool takes the share of true values, from 0 to 1")


def _inner_generator(spec: object) -> d.Generator | None:
    if isinstance(spec, str):
        return d.Generator(spec)
    if hasattr(spec, "items") and len(spec) == 1:  # type: ignore[arg-type]
        kind, params = next(iter(spec.items()))  # type: ignore[union-attr]
        if not hasattr(params, "items"):
            params = d.freeze({"value": params})
        return d.Generator(kind, params)
    return None


def _check_reference(
    design: d.Design, entity: d.Entity, target: object, path: str
) -> Iterator[Problem]:
    match = _REFERENCE.match(target) if isinstance(target, str) else None
    if not match:
        yield _error(
            path,
            "ref names a parent attribute as Entity.attribute, such "
            "as Customer.customerId",
        )
        return
    parent_name, attr_name = match.groups()
    parent = design.entity(parent_name)
    if parent is None:
        yield _error(path, f"unknown entity '{parent_name}'")
    elif parent.attribute(attr_name) is None:
        yield _error(path, f"{parent_name} has no attribute '{attr_name}'")
    elif parent_name not in _ancestors(design, entity):
        yield _error(
            path,
            f"{parent_name} is not a parent of {entity.name}: set "
            f"sample.per to {parent_name} (or to one of its children)",
        )


def _check_pick(design: d.Design, spec: object, path: str) -> Iterator[Problem]:
    """`{pick: Entity.attribute}` or `{pick: {from: Entity.attribute, s: 1.1}}`:
    the value of a random item of another entity, Zipf-skewed when `s` is set
    (a few celebrities followed by many)."""
    source = spec.get("from") if hasattr(spec, "get") else spec
    match = _REFERENCE.match(source) if isinstance(source, str) else None
    if not match:
        yield _error(
            path, "pick names an attribute as Entity.attribute, such as User.userId"
        )
        return
    target = design.entity(match.group(1))
    if target is None:
        yield _error(path, f"unknown entity '{match.group(1)}'")
    elif target.attribute(match.group(2)) is None:
        yield _error(path, f"{target.name} has no attribute '{match.group(2)}'")
    skew = spec.get("s", 0) if hasattr(spec, "get") else 0
    if not _is_number(skew) or skew < 0:
        yield _error(path, "s is the Zipf exponent: a number of 0 (no skew) or more")


def _ancestors(design: d.Design, entity: d.Entity) -> list[str]:
    chain: list[str] = []
    current: d.Entity | None = entity
    while (
        current is not None and current.sample.per and (current.sample.per not in chain)
    ):
        chain.append(current.sample.per)
        current = design.entity(current.sample.per)
    return chain


def _check_sample_settings(
    design: d.Design, entity: d.Entity, path: str
) -> Iterator[Problem]:
    sample = entity.sample
    if sample.per:
        if design.entity(sample.per) is None:
            yield _error(f"{path}.per", f"unknown entity '{sample.per}'")
        elif entity.name in _ancestors(design, design.entity(sample.per)) or (
            sample.per == entity.name
        ):
            yield _error(
                f"{path}.per",
                f"'{sample.per}' is {entity.name} or one "
                "of its children: parents cannot form a cycle",
            )
    count = sample.count
    if count.distribution == "zipf" and count.high < 1:
        yield _error(f"{path}.count", "zipf needs max of 1 or more")
    if sample.hot_keys and not sample.per:
        yield _error(
            f"{path}.hot",
            "hot keys skew children toward some parents; they need sample.per",
        )
    if sample.hot_share and not sample.hot_keys:
        yield _error(f"{path}.hot.keys", "how many parents are hot (1 or more)")


def _check_expires(
    entity: d.Entity, attr: d.Attribute, params: Mapping, path: str
) -> Iterator[Problem]:
    """`{expires: {from: readingAt, days: 30}}`: epoch seconds a number of
    days after another attribute's ISO-8601 time."""
    source, days = params.get("from"), params.get("days")
    other = entity.attribute(source) if isinstance(source, str) else None
    if other is None or source == attr.name:
        yield _error(
            path,
            "expires needs 'from': another attribute of "
            f"{entity.name} holding an ISO-8601 date or time, such as "
            "{from: createdAt, days: 30}",
        )
    elif other.type != "S":
        yield _error(
            path,
            f"expires counts from an ISO-8601 text; '{source}' is {other.type}",
        )
    if not _is_number(days) or not 0 < days <= MAX_EXPIRES_DAYS:
        yield _error(
            path,
            f"expires needs 'days' after it: a number above 0, at most "
            f"{MAX_EXPIRES_DAYS:,}",
        )
    if attr.type != "N":
        yield _error(
            path,
            f"expires makes epoch seconds, a number: {attr.name} is {attr.type}, "
            "and DynamoDB's TTL reads only numbers",
        )


def _is_number_text(text: str) -> bool:
    """Whether DynamoDB reads `text` as a number."""
    try:
        number(text)
    except ValidationException:
        return False
    return True


def _is_number(value: object) -> bool:
    """A finite int or float: YAML reads .inf and .nan as floats."""
    return (
        isinstance(value, (int, float))
        and not isinstance(value, bool)
        and math.isfinite(value)
    )


def _parse_iso(value: object) -> datetime | None:
    if isinstance(value, datetime):
        return value.replace(tzinfo=None)
    if isinstance(value, date):
        return datetime(value.year, value.month, value.day)
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).replace(tzinfo=None)
    except ValueError:
        return None


# --- Access patterns ---------------------------------------------------------


def _check_patterns(design: d.Design) -> Iterator[Problem]:
    pattern_counts = Counter(p.name for p in design.access_patterns)
    for i, pattern in enumerate(design.access_patterns):
        path = f"access_patterns[{i}]"
        if pattern_counts[pattern.name] > 1:
            yield _error(
                f"{path}.name",
                f"the name '{pattern.name}' is used by another access pattern",
            )
        yield from _check_pattern(design, pattern, path)


def _index_keys(
    design: d.Design, index_name: str
) -> tuple[tuple[d.KeyAttribute, ...], tuple[d.KeyAttribute, ...]] | None:
    table = design.table
    if index_name == d.TABLE_INDEX:
        return (table.partition_key,), ((table.sort_key,) if table.sort_key else ())
    index = table.index(index_name)
    if index is None:
        return None
    if index.is_global:
        return index.partition_key, index.sort_key
    return lsi_partition_key(table, index), index.sort_key


def _check_pattern(
    design: d.Design, pattern: d.AccessPattern, path: str
) -> Iterator[Problem]:
    if not pattern.keyed:
        yield from _check_unkeyed_pattern(design, pattern, path)
        return
    op = pattern.operation
    keys = _index_keys(design, pattern.index)
    if keys is None:
        known = ", ".join([d.TABLE_INDEX] + [i.name for i in design.table.indexes])
        yield _error(
            f"{path}.index",
            f"unknown index '{pattern.index}'; expected one of: {known}",
        )
        return
    index = design.table.index(pattern.index)
    if op in ("GetItem", "BatchGetItem", "TransactGetItems") and index:
        yield _error(
            f"{path}.index",
            f"{op} reads the table by primary key; use Query to read an index",
        )
    if index is not None and index.is_global and pattern.consistent_read:
        yield _error(
            f"{path}.consistent_read",
            "global secondary indexes support eventually consistent reads only",
        )
    if op == "GetItem":
        yield from _check_full_key(pattern.key, keys, f"{path}.key")
    elif op == "Query":
        yield from _check_query_key(design, pattern.key, keys, f"{path}.key")
    elif pattern.key:
        yield _error(
            f"{path}.key",
            f"{op} takes no key condition"
            + ("; its actions name the items" if pattern.actions else ""),
        )
    if op == "Scan" and not pattern.scan_forward:
        yield _error(f"{path}.scan_forward", "a Scan has no order to reverse")
    if op not in ("Query",) and (pattern.limit is not None) and op != "Scan":
        yield _error(f"{path}.limit", "only Query and Scan take a limit")
    if pattern.filter and op not in ("Query", "Scan"):
        yield _error(
            f"{path}.filter",
            "only Query and Scan take a filter; use condition for writes",
        )
    if pattern.filter and op == "Query":
        key_attrs = {a.name for part in keys for a in part}
        for word in re.findall(
            r"[A-Za-z_][A-Za-z0-9_]*", _without_placeholders(pattern.filter)
        ):
            if word in key_attrs:
                yield _error(
                    f"{path}.filter",
                    f"'{word}' is a key attribute of "
                    "the index; a Query filter can only use non-key "
                    "attributes: put it in the key condition",
                )
    if pattern.filter:
        problem = _expression_problem(pattern.filter, "FilterExpression")
        if problem:
            yield _error(f"{path}.filter", problem)
    yield from _check_traffic(pattern, path)
    yield from _check_expectation(design, pattern, path)
    yield from _check_actions(design, pattern, path)
    yield from _check_parameters(design, pattern, path)


def _check_unkeyed_pattern(
    design: d.Design, pattern: d.AccessPattern, path: str
) -> Iterator[Problem]:
    """A read stated by what it needs: its expectation is all there is to
    check until keys are proposed for it."""
    if pattern.expects is None or not pattern.expects.entities:
        yield _error(
            f"{path}.needs.entity",
            "is required: the entity (or list of entities) the pattern returns",
        )
    yield from _check_traffic(pattern, path)
    yield from _check_expectation(design, pattern, path)
    yield from _check_parameters(design, pattern, path)


def _check_traffic(pattern: d.AccessPattern, path: str) -> Iterator[Problem]:
    if pattern.traffic.peak_rps < pattern.traffic.rps:
        yield _warning(
            f"{path}.traffic.peak_rps",
            f"the peak ({pattern.traffic.peak_rps:g}"
            f"/s) is below the average ({pattern.traffic.rps:g}/s)",
        )


def _without_placeholders(text: str) -> str:
    text = re.sub(r"\{[^{}]*\}", " ", text)
    return re.sub(r'"[^"]*"', " ", text)


def _check_updates(
    design: d.Design,
    entity: d.Entity,
    action: d.Action,
    known: set[str],
    apath: str,
) -> Iterator[Problem]:
    """Each attribute an update writes or removes: one the item has, not a
    table key, written one way only, of a type that way takes."""
    key_names = {a.name for a in design.table.key_attributes}
    index_keys = {a.name for a in design.table.all_key_attributes()}
    for name in action.remove:
        if name in key_names:
            yield _error(
                f"{apath}.remove",
                f"'{name}' is a key of the table and cannot be removed",
            )
        elif name not in known and name not in index_keys:
            yield _error(f"{apath}.remove", f"no attribute '{name}' on {entity.name}")
    seen: dict[str, str] = {name: "remove" for name in action.remove}
    for how, name, value in action.updates():
        where = f"{apath}.{how}.{name}"
        if name in key_names:
            yield _error(
                where,
                "the table's key attributes "
                "cannot be updated; delete and put the item instead",
            )
            continue
        if name not in known and name not in index_keys:
            yield _error(where, f"no attribute '{name}' on {entity.name}")
            continue
        if name in seen:
            yield _error(
                where,
                f"'{name}' is already written by {seen[name]}; an update "
                "writes an attribute one way only (DynamoDB refuses "
                "overlapping paths)",
            )
        seen.setdefault(name, how)
        attribute = entity.attribute(name)
        types = d.UPDATE_WAY_TYPES.get(how)
        if types and attribute is not None and attribute.type not in types:
            yield _error(
                where,
                f"{how} takes an attribute of type {' or '.join(types)}; "
                f"'{name}' is {attribute.type}",
            )
        elif (
            how == "add"
            and attribute is not None
            and attribute.type == "N"
            and not placeholders(value)
            and not _is_number_text(value)
        ):
            yield _error(
                where, f"expected a number to add, such as 1 or -1, found '{value}'"
            )


def _check_full_key(
    clauses: tuple[d.KeyClause, ...], keys: tuple, path: str
) -> Iterator[Problem]:
    expected = [a.name for part in keys for a in part]
    given = [c.attribute for c in clauses]
    for name in expected:
        if name not in given:
            yield _error(path, f"needs the full primary key: '{name}' is missing")
    for clause in clauses:
        if clause.attribute not in expected:
            yield _error(
                f"{path}.{clause.attribute}",
                "is not a key attribute of the table: expected " + ", ".join(expected),
            )
        elif clause.operator != "=":
            yield _error(
                f"{path}.{clause.attribute}",
                f"reading one item by key takes '=', not {clause.operator}",
            )


def _check_query_key(
    design: d.Design, clauses: tuple[d.KeyClause, ...], keys: tuple, path: str
) -> Iterator[Problem]:
    partition, sort = keys
    by_name = {c.attribute: c for c in clauses}
    for attr in partition:
        clause = by_name.get(attr.name)
        if clause is None:
            yield _error(
                path, f"a Query needs the partition key '{attr.name}' with '='"
            )
        elif clause.operator != "=":
            yield _error(
                f"{path}.{attr.name}",
                f"the partition key condition is always '=', not {clause.operator}",
            )
    sort_names = [a.name for a in sort]
    used = [c for c in clauses if c.attribute in sort_names]
    for clause in clauses:
        if clause.attribute not in by_name or clause.attribute in (
            a.name for a in partition
        ):
            continue
        if clause.attribute not in sort_names:
            yield _error(
                f"{path}.{clause.attribute}",
                "is not a key attribute of "
                "this index; key conditions use only "
                + ", ".join(a.name for a in partition + sort),
            )
    # Multi-attribute sort keys: conditions run left to right, equality on
    # every attribute before the last one conditioned.
    positions = sorted(sort_names.index(c.attribute) for c in used)
    if positions and positions != list(range(len(positions))):
        yield _error(
            path,
            "sort key conditions must cover the sort key "
            "attributes from the first, without gaps: " + ", ".join(sort_names),
        )
    for clause in used:
        cpath = f"{path}.{clause.attribute}"
        position = sort_names.index(clause.attribute)
        if position < len(used) - 1 and clause.operator != "=":
            yield _error(
                cpath,
                "only the last sort key attribute of the "
                "condition may use a range; the ones before it take '='",
            )
        attr = sort[position]
        if clause.operator == "begins_with" and attr.type == "N":
            yield _error(
                cpath,
                f"begins_with works on S and B sort keys; '{attr.name}' is a number",
            )
        expected_values = 2 if clause.operator == "between" else 1
        if len(clause.values) != expected_values:
            yield _error(
                cpath,
                f"{clause.operator} takes {expected_values} "
                f"value{'s' if expected_values > 1 else ''}",
            )
        if clause.operator == "between" and len(clause.values) == 2:
            low, high = clause.values
            if not placeholders(low + high) and _key_order(low, attr.type) > (
                _key_order(high, attr.type)
            ):
                yield _error(
                    cpath,
                    f"BETWEEN '{low}' AND '{high}': the first "
                    "value is greater than the second, which DynamoDB "
                    "rejects",
                )


def _key_order(value: str, attr_type: str) -> object:
    if attr_type == "N":
        try:
            return float(value)
        except ValueError:
            return 0.0
    return value.encode("utf-8")


def _check_expectation(
    design: d.Design, pattern: d.AccessPattern, path: str
) -> Iterator[Problem]:
    expects = pattern.expects
    if expects is None:
        if pattern.keyed and pattern.is_read:
            yield Problem(
                "advice",
                f"{path}.expects",
                "say what the pattern must "
                "return (entity, predicates, order) so the simulator "
                "can verify it",
            )
        return
    # A pattern stated by what it needs holds its expectation under `needs`.
    path = f"{path}.{'expects' if pattern.keyed else 'needs'}"
    entities = []
    for name in expects.entities:
        entity = design.entity(name)
        if entity is None:
            yield _error(f"{path}.entity", f"unknown entity '{name}'")
        else:
            entities.append(entity)
    if not entities:
        return
    known = _entity_attribute_names(design, entities)
    for predicate in expects.where:
        if predicate.attribute not in known:
            yield _error(
                f"{path}.where.{predicate.attribute}",
                f"no attribute '{predicate.attribute}' on "
                + " or ".join(e.name for e in entities),
            )
        if predicate.operator == "between" and len(predicate.values) != 2:
            yield _error(
                f"{path}.where.{predicate.attribute}",
                "between takes two values",
            )
    for item in expects.order_by:
        name = item.lstrip("-+")
        if name not in known:
            yield _error(
                f"{path}.order_by",
                f"no attribute '{name}' on " + " or ".join(e.name for e in entities),
            )


def _entity_attribute_names(design: d.Design, entities: list[d.Entity]) -> set[str]:
    names = {a.name for e in entities for a in e.attributes}
    for entity in entities:
        names.update(entity.keys)
    return names


class _AnyParameter(dict):
    """Parameters with a value for every name: an expression is checked for
    its syntax, whatever the values turn out to be."""

    def __contains__(self, name: object) -> bool:
        return True

    def __missing__(self, name: str) -> str:
        return "x"


def _expression_problem(text: str, kind: str) -> str | None:
    """What DynamoDB would say of a filter or condition, or None: written
    as the request's expression and parsed as the engine parses it."""
    from modeler.engine.errors import ValidationException
    from modeler.engine.expressions import parse_condition
    from modeler.simulation.requests import ExpressionBuilder, RequestError

    builder = ExpressionBuilder.new(_AnyParameter())
    try:
        expression = builder.text(text)
        parse_condition(expression, builder.names, builder.values, kind=kind)
    except RequestError as exc:
        return str(exc)
    except ValidationException as exc:
        return exc.message  # DynamoDB's words: "Invalid FilterExpression: ..."
    return None


def _check_actions(
    design: d.Design, pattern: d.AccessPattern, path: str
) -> Iterator[Problem]:
    op = pattern.operation
    if op in d.MULTI_ITEM_OPERATIONS and not pattern.actions:
        yield _error(f"{path}.actions", f"{op} needs a list of actions")
    allowed = {
        "BatchGetItem": ("Get",),
        "TransactGetItems": ("Get",),
        "BatchWriteItem": ("Put", "Delete"),
        "TransactWriteItems": ("Put", "Update", "Delete", "ConditionCheck"),
    }.get(op)
    fixed_total = 0
    single = op in ("PutItem", "UpdateItem", "DeleteItem")
    for i, action in enumerate(pattern.actions):
        apath = path if single else f"{path}.actions[{i}]"
        if allowed and action.operation not in allowed:
            yield _error(
                f"{apath}.operation",
                f"{op} takes "
                + ", ".join(allowed)
                + f" actions, not {action.operation}",
            )
        entity = design.entity(action.entity)
        if entity is None:
            yield _error(f"{apath}.entity", f"unknown entity '{action.entity}'")
            continue
        if action.key:
            yield from _check_full_key(
                action.key, _index_keys(design, d.TABLE_INDEX), f"{apath}.key"
            )
        known = _entity_attribute_names(design, [entity])
        if action.operation != "Update" and action.updated:
            yield _error(
                apath,
                ", ".join(d.UPDATE_WAYS) + " and remove belong to Update actions",
            )
        yield from _check_updates(design, entity, action, known, apath)
        if action.condition:
            problem = _expression_problem(action.condition, "ConditionExpression")
            if problem:
                yield _error(f"{apath}.condition", problem)
        if action.count:
            if action.count.isdigit():
                fixed_total += int(action.count)
            elif not placeholders(action.count):
                yield _error(
                    f"{apath}.count",
                    "expected a whole number or a parameter such as '{itemCount}'",
                )
        else:
            fixed_total += 1
    limit = {
        "TransactWriteItems": MAX_TRANSACTION_ITEMS,
        "TransactGetItems": MAX_TRANSACTION_ITEMS,
        "BatchGetItem": MAX_BATCH_GET_ITEMS,
        "BatchWriteItem": MAX_BATCH_WRITE_ITEMS,
    }.get(op)
    if limit and fixed_total > limit:
        yield _error(
            f"{path}.actions", f"{fixed_total} items; {op} takes at most {limit}"
        )


def _check_parameters(
    design: d.Design, pattern: d.AccessPattern, path: str
) -> Iterator[Problem]:
    used = set(used_parameter_names(design, pattern))
    names = [p.name for p in pattern.parameters]
    for param in pattern.parameters:
        if names.count(param.name) > 1:
            yield _error(f"{path}.parameters.{param.name}", "is declared twice")
        if param.name not in used:
            yield _warning(
                f"{path}.parameters.{param.name}",
                "is declared but no key, filter, expectation or action uses it",
            )
        if param.example and param.type == "N":
            try:
                float(param.example)
            except ValueError:
                yield _error(
                    f"{path}.parameters.{param.name}.example",
                    f"'{param.example}' is not a number",
                )


# --- Sample items ------------------------------------------------------------


def _check_sample_items(design: d.Design) -> Iterator[Problem]:
    """Each item is one DynamoDB accepts: its values valid DynamoDB JSON
    (numbers within 38 digits and 1E+126, base64 binaries, sets not empty),
    the table's primary key with its types, at most 400 KB."""
    keys = design.table.key_attributes
    for i, stored in enumerate(design.sample_data.items):
        path = f"sample_data.items[{i}]"
        item = {}
        for name, value in d.thaw(stored).items():
            try:
                item[name] = from_wire(value)
            except ValidationException as exc:
                yield _error(f"{path}.{name}", f"not a DynamoDB value: {exc.message}")
        for key in keys:
            if key.name not in stored:
                yield _error(
                    path,
                    f"has no '{key.name}': every item needs the table's primary key",
                )
            elif key.name in item and type_of(item[key.name]) != key.type:
                yield _error(
                    f"{path}.{key.name}",
                    f"is {type_of(item[key.name])}; the table's key is {key.type}",
                )
        if (size := item_size(item)) > MAX_ITEM_SIZE:
            yield _error(
                path,
                f"the item has {size:,} bytes; DynamoDB's limit is {MAX_ITEM_SIZE:,}",
            )


# --- What the database can store ---------------------------------------------


def check_storable(design: d.Design) -> list[Problem]:
    """Text with a NUL character, anywhere in the design: PostgreSQL cannot
    store one (in a column or in JSON), and no DynamoDB name or key needs it;
    refused on every database alike."""
    if "\\x00" not in repr(design):
        # Python writes a NUL in a text's repr as \x00: without one, there
        # is none to find, and the walk through every field is skipped
        # (every save checks this).
        return []
    return [
        _error(path, "contains a NUL character (\\0), which cannot be stored")
        for path in _nul_paths(design, "")
    ]


def _nul_paths(value: object, path: str) -> Iterator[str]:
    if isinstance(value, str):
        if "\x00" in value:
            yield path or "name"
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            child = getattr(value, field.name)
            yield from _nul_paths(child, _nul_child_path(value, path, field.name))
    elif isinstance(value, Mapping):
        for key, child in value.items():
            if "\x00" in str(key):
                yield f"{path}.{key!r}"
            yield from _nul_paths(child, f"{path}.{key}")
    elif isinstance(value, (list, tuple)):
        for index, child in enumerate(value):
            yield from _nul_paths(child, _nul_item_path(path, index, child))


def _nul_child_path(parent: object, path: str, field: str) -> str:
    # Paths in the design file's terms: entities.Order.attributes.total.
    if isinstance(parent, d.Design) and field == "sample_data":
        return "sample_data"
    return f"{path}.{field}" if path else field


def _nul_item_path(path: str, index: int, child: object) -> str:
    named = isinstance(child, (d.Entity, d.Attribute)) and "\x00" not in child.name
    return f"{path}.{child.name}" if named else f"{path}[{index}]"  # type: ignore[union-attr]
