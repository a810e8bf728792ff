"""The design model as plain, immutable Python values.

A `Design` is what every domain package (keys, sampledata, engine, review,
diagrams, exporters) works on. It holds no database identity: a project
stores it as revisions (`modeler.conversion`, `modeler.history.codec`), and
the YAML format in `modeler.designfile` reads and writes it.

Nested JSON-like values (generator parameters, sample items) are kept as
read-only mappings and tuples so that a Design cannot be changed in place.

Indexes, entities, attributes and access patterns carry a `uid`: a stable
identity that survives renames, so that revisions, merges of concurrent
edits and comments follow an element rather than its current name. It is
given when a design is first saved (`modeler.history.elements.with_uids`),
takes no part in equality and is not written to design files.

Entities, attributes and access patterns also carry a `seed_name`: the name
whose random draws their sample data and simulated requests take, kept
through renames (`renamed_from`) so that a rename changes no value and no
figure. Empty while it is the element's own name; unlike the uid it is part
of the design's content (it decides the sample data) and design files write
it, after a rename.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, TypeVar

KEY_TYPES = ("S", "N", "B")
ATTRIBUTE_TYPES = ("S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS")
BILLING_MODES = ("PAY_PER_REQUEST", "PROVISIONED")
PROJECTION_TYPES = ("KEYS_ONLY", "INCLUDE", "ALL")
STREAM_VIEW_TYPES = ("NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY")
ENCRYPTION_TYPES = ("AWS_OWNED", "AWS_MANAGED", "KMS")
TABLE_CLASSES = ("STANDARD", "STANDARD_INFREQUENT_ACCESS")
INDEX_KINDS = ("global", "local")

READ_OPERATIONS = ("GetItem", "Query", "Scan", "BatchGetItem", "TransactGetItems")
WRITE_OPERATIONS = (
    "PutItem",
    "UpdateItem",
    "DeleteItem",
    "BatchWriteItem",
    "TransactWriteItems",
)
OPERATIONS = READ_OPERATIONS + WRITE_OPERATIONS
# The operation of a read stated by what it needs (`needs` in a design file)
# before any key serves it: a pattern whose keys are still to be proposed.
UNKEYED = ""
# Operations whose items are listed as actions rather than one key.
MULTI_ITEM_OPERATIONS = (
    "BatchGetItem",
    "TransactGetItems",
    "BatchWriteItem",
    "TransactWriteItems",
)
ACTION_OPERATIONS = ("Get", "Put", "Update", "Delete", "ConditionCheck")
# The ways an update writes an attribute (Action fields, in request order).
UPDATE_WAYS = ("set", "set_if_absent", "append", "add", "delete")
# The attribute types each way takes, where not every type.
UPDATE_WAY_TYPES = {
    "append": ("L",),
    "add": ("N", "SS", "NS", "BS"),
    "delete": ("SS", "NS", "BS"),
}

SORT_OPERATORS = ("=", "<", "<=", ">", ">=", "between", "begins_with")
PREDICATE_OPERATORS = (
    "=",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "between",
    "begins_with",
    "in",
    "exists",
    "not_exists",
)
COUNT_DISTRIBUTIONS = ("fixed", "uniform", "zipf")

TABLE_INDEX = "table"  # the name access patterns use for the base table


def freeze(value: Any) -> Any:
    """Return a read-only copy of a JSON-like value (dicts and lists nested)."""
    if isinstance(value, Mapping):
        return MappingProxyType({str(k): freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(freeze(v) for v in value)
    return value


def thaw(value: Any) -> Any:
    """The inverse of `freeze`: plain dicts and lists, ready for JSON or YAML."""
    if isinstance(value, Mapping):
        return {k: thaw(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [thaw(v) for v in value]
    return value


@dataclass(frozen=True)
class KeyAttribute:
    name: str
    type: str = "S"


@dataclass(frozen=True)
class ScalingRange:
    """Application Auto Scaling of one provisioned capacity: it stays
    between `minimum` and `maximum` units, keeping the consumed share of it
    near `target` percent. Its target tracking policy waits the cooldowns
    (seconds) after a scale-in before the next, and after a scale-out (None
    is Application Auto Scaling's default, no wait for DynamoDB), and with
    `disable_scale_in` it never lowers the capacity."""

    minimum: int
    maximum: int
    target: int = 70
    scale_in_cooldown: int | None = None
    scale_out_cooldown: int | None = None
    disable_scale_in: bool = False

    @property
    def policy_text(self) -> str:
        """What its policy does beyond the range, in a few words ("" for
        the defaults)."""
        parts = []
        if self.disable_scale_in:
            parts.append("never scales in")
        if self.scale_in_cooldown is not None:
            parts.append(f"{self.scale_in_cooldown:,} s between scale-ins")
        if self.scale_out_cooldown is not None:
            parts.append(f"{self.scale_out_cooldown:,} s between scale-outs")
        return ", ".join(parts)


@dataclass(frozen=True)
class AutoScaling:
    """How a provisioned table's or GSI's capacity is scaled: a range per
    dimension, or None for a capacity that stays as provisioned."""

    read: ScalingRange | None = None
    write: ScalingRange | None = None


AUTO_SCALING_OFF = AutoScaling()
# The most units Application Auto Scaling sets a DynamoDB capacity to (the
# default quota of a table or an index).
MAX_AUTO_SCALED_UNITS = 40_000


def default_max_capacity(units: int) -> int:
    """How far auto scaling raises a provisioned capacity by default: ten
    times it, at most 40,000 units (never below the capacity)."""
    if units >= MAX_AUTO_SCALED_UNITS:
        return units
    return min(units * 10, MAX_AUTO_SCALED_UNITS)


@dataclass(frozen=True)
class Capacity:
    """Provisioned capacity units. `auto_scaling` None is the exports'
    default: each capacity scaled from its units to ten times them (at most
    40,000) at the export's target utilisation."""

    read: int
    write: int
    auto_scaling: AutoScaling | None = None

    @property
    def default_scaling(self) -> AutoScaling:
        """The exports' default auto scaling, written out."""
        return AutoScaling(
            ScalingRange(self.read, default_max_capacity(self.read)),
            ScalingRange(self.write, default_max_capacity(self.write)),
        )

    @property
    def scaling_text(self) -> str:
        """Its auto scaling in a few words, for pages."""
        if self.auto_scaling is None:
            return "auto scaled up to 10 times (default)"
        if self.auto_scaling == AUTO_SCALING_OFF:
            return "not auto scaled"
        return ", ".join(
            f"{name}s {r.minimum:,}–{r.maximum:,} at {r.target}%"
            + (f" ({r.policy_text})" if r.policy_text else "")
            if (r := getattr(self.auto_scaling, name))
            else f"{name}s fixed"
            for name in ("read", "write")
        )

    def scaling(self, dimension: str) -> ScalingRange | None:
        """The range auto scaling keeps one dimension ("read" or "write")
        in, the default where the design gives none; None when it is off."""
        units = self.read if dimension == "read" else self.write
        if self.auto_scaling is None:
            return ScalingRange(units, default_max_capacity(units))
        return getattr(self.auto_scaling, dimension)


@dataclass(frozen=True)
class Projection:
    type: str = "ALL"
    attributes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Index:
    """A GSI or an LSI.

    `partition_key` and `sort_key` are tuples because a GSI key may be made of
    up to four attributes each (multi-attribute keys). An LSI always has the
    table's partition key and exactly one sort key attribute.
    """

    name: str
    kind: str
    partition_key: tuple[KeyAttribute, ...]
    sort_key: tuple[KeyAttribute, ...] = ()
    projection: Projection = field(default_factory=Projection)
    capacity: Capacity | None = None
    uid: str = field(default="", compare=False, repr=False)

    @property
    def is_global(self) -> bool:
        return self.kind == "global"

    @property
    def key_attributes(self) -> tuple[KeyAttribute, ...]:
        return self.partition_key + self.sort_key


@dataclass(frozen=True)
class Encryption:
    type: str = "AWS_OWNED"
    kms_key: str = ""  # a key ARN or alias, only with type KMS


@dataclass(frozen=True)
class Table:
    name: str
    partition_key: KeyAttribute
    sort_key: KeyAttribute | None = None
    billing_mode: str = "PAY_PER_REQUEST"
    capacity: Capacity | None = None
    indexes: tuple[Index, ...] = ()
    ttl_attribute: str = ""
    stream_view_type: str = ""
    point_in_time_recovery: bool = False
    encryption: Encryption = field(default_factory=Encryption)
    table_class: str = "STANDARD"
    deletion_protection: bool = False
    tags: tuple[tuple[str, str], ...] = ()

    @property
    def key_attributes(self) -> tuple[KeyAttribute, ...]:
        keys = (self.partition_key,)
        return keys + (self.sort_key,) if self.sort_key else keys

    def index(self, name: str) -> Index | None:
        return next((i for i in self.indexes if i.name == name), None)

    def all_key_attributes(self) -> tuple[KeyAttribute, ...]:
        """Every distinct key attribute of the table and its indexes, in order."""
        seen: dict[str, KeyAttribute] = {}
        for attr in self.key_attributes:
            seen.setdefault(attr.name, attr)
        for index in self.indexes:
            for attr in index.key_attributes:
                seen.setdefault(attr.name, attr)
        return tuple(seen.values())


@dataclass(frozen=True)
class Generator:
    """How sample data makes a value: a kind (`ulid`, `faker`, `choice`...)
    and its parameters. The vocabulary is documented in docs/design-format.md
    and checked by `modeler.design_check`."""

    kind: str
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Attribute:
    name: str
    type: str = "S"
    required: bool = True
    presence: float = 1.0  # the share of sample items that have it
    generator: Generator | None = None
    description: str = ""
    max_length: int | None = None  # in characters, for S and B values
    seed_name: str = ""
    uid: str = field(default="", compare=False, repr=False)

    @property
    def draw_name(self) -> str:
        """The name its sample values are drawn under."""
        return self.seed_name or self.name


@dataclass(frozen=True)
class KeyTemplate:
    """An entity's value for one key attribute: a template, optionally only
    while a condition holds (a sparse index), and optionally the name a
    NoSQL Workbench model gives the key in this entity (its
    `KeyAttributeAlias`, such as `playerID`), kept for the export back."""

    template: str
    when: str = ""
    alias: str = ""


@dataclass(frozen=True)
class Count:
    """How many items: `fixed` (value), `uniform` (low..high) or `zipf`
    (exponent s, at most `high`)."""

    distribution: str = "fixed"
    value: int = 0
    low: int = 0
    high: int = 0
    s: float = 0.0


@dataclass(frozen=True)
class SampleSettings:
    """How many items of an entity the sample data holds: a number of roots,
    or a count per item of a parent entity."""

    count: Count = field(default_factory=lambda: Count("fixed", value=10))
    per: str = ""  # the parent entity, for children
    hot_keys: int = 0  # with hot_share: the first N parents get this share
    hot_share: float = 0.0


@dataclass(frozen=True)
class Entity:
    name: str
    description: str = ""
    attributes: tuple[Attribute, ...] = ()
    keys: Mapping[str, KeyTemplate] = field(
        default_factory=lambda: MappingProxyType({})
    )
    sample: SampleSettings = field(default_factory=SampleSettings)
    seed_name: str = ""
    uid: str = field(default="", compare=False, repr=False)

    @property
    def draw_name(self) -> str:
        """The name its items and their counts are drawn under."""
        return self.seed_name or self.name

    def attribute(self, name: str) -> Attribute | None:
        return next((a for a in self.attributes if a.name == name), None)


@dataclass(frozen=True)
class KeyClause:
    """One part of a key condition: `PK = "CUST#{customerId}"`,
    `SK begins_with "ORDER#"`, `SK between "{from}" and "{to}"`."""

    attribute: str
    operator: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class Predicate:
    """An attribute predicate of an expectation or of a condition."""

    attribute: str
    operator: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class Parameter:
    name: str
    type: str = "S"
    example: str = ""


@dataclass(frozen=True)
class Traffic:
    rps: float = 0.0
    peak_rps: float = 0.0


@dataclass(frozen=True)
class Expectation:
    """What a pattern must return: items of these entities matching the
    predicates, in this order (`-orderDate` is descending)."""

    entities: tuple[str, ...]
    where: tuple[Predicate, ...] = ()
    order_by: tuple[str, ...] = ()


@dataclass(frozen=True)
class Action:
    """One item operation inside a pattern: the item of `entity` that a
    PutItem/UpdateItem/DeleteItem writes, or one element of a batch or a
    transaction. `key` overrides the entity's key templates (for Get/Delete
    by key); `count` repeats it (`"{itemCount}"` or a number).

    An update writes each attribute one way: `set` a value, `add` to a
    number (a counter) or members to a set, `append` to a list, `delete`
    members of a set, `set_if_absent` (a value kept once written), or
    `remove` it."""

    operation: str
    entity: str
    key: tuple[KeyClause, ...] = ()
    set: tuple[tuple[str, str], ...] = ()
    remove: tuple[str, ...] = ()
    condition: str = ""
    count: str = ""
    add: tuple[tuple[str, str], ...] = ()
    append: tuple[tuple[str, str], ...] = ()
    delete: tuple[tuple[str, str], ...] = ()
    set_if_absent: tuple[tuple[str, str], ...] = ()

    def updates(self) -> Iterator[tuple[str, str, str]]:
        """(how, attribute, value template) of every attribute an update
        writes, `how` being one of UPDATE_WAYS; removals not included."""
        for how in UPDATE_WAYS:
            for attribute, value in getattr(self, how):
                yield how, attribute, value

    @property
    def updated(self) -> tuple[str, ...]:
        """The attributes an update writes or removes."""
        return tuple(a for _, a, _ in self.updates()) + self.remove


@dataclass(frozen=True)
class PatternOption:
    """A scalar setting of a read's request (ScanIndexForward, Limit,
    ConsistentRead), declared once: the design file reads and writes it and
    the history names a change of it from this declaration, so a new one
    is a field of AccessPattern, an entry in PATTERN_OPTIONS, the editor's
    form and template, and the code that uses it."""

    name: str
    kind: type[bool] | type[int]
    default: bool | int | None
    label: str = ""  # how the history names a change of it; else its name
    minimum: int = 1  # the least value an integer option takes
    # Also taken by a read stated by what it needs (before it has a key).
    with_needs: bool = True


PATTERN_OPTIONS = (
    PatternOption("scan_forward", bool, True, label="direction", with_needs=False),
    PatternOption("limit", int, None),
    PatternOption("consistent_read", bool, False, label="consistency"),
)


@dataclass(frozen=True)
class AccessPattern:
    """A request the application makes. An unkeyed pattern (operation
    UNKEYED) is a read stated only by what it needs, its `expects`, before
    any operation, index or key serves it."""

    name: str
    operation: str
    description: str = ""
    index: str = TABLE_INDEX
    key: tuple[KeyClause, ...] = ()
    filter: str = ""
    projection: tuple[str, ...] = ()
    scan_forward: bool = True
    limit: int | None = None
    consistent_read: bool = False
    parameters: tuple[Parameter, ...] = ()
    traffic: Traffic = field(default_factory=Traffic)
    expects: Expectation | None = None
    actions: tuple[Action, ...] = ()
    seed_name: str = ""
    uid: str = field(default="", compare=False, repr=False)

    @property
    def draw_name(self) -> str:
        """The name its simulated requests are drawn under."""
        return self.seed_name or self.name

    @property
    def keyed(self) -> bool:
        """False for a pattern stated by what it needs, with no key yet."""
        return self.operation != UNKEYED

    @property
    def is_read(self) -> bool:
        """A read: a read operation, or a pattern stated by what it needs
        (only reads are). What needs a request to run must ask `keyed` too."""
        return self.operation in READ_OPERATIONS or not self.keyed

    @property
    def operation_label(self) -> str:
        """The operation as pages show it."""
        return self.operation if self.keyed else "no key yet"

    @property
    def kind(self) -> str:
        return "read" if self.is_read else "write"


Seeded = TypeVar("Seeded", Entity, Attribute, AccessPattern)


def renamed_from(new: Seeded, old: Seeded) -> Seeded:
    """`new`, a version of `old` (perhaps renamed), drawing what `old`
    drew: a rename keeps the element's sample data and simulated requests.
    A seed name equal to the name is left empty, so renaming back gives the
    element as it was."""
    seed = new.seed_name or old.draw_name
    seed = "" if seed == new.name else seed
    return new if seed == new.seed_name else replace(new, seed_name=seed)


@dataclass(frozen=True)
class SampleData:
    """Project-wide sample data settings and the items a user typed or
    imported (DynamoDB JSON, one mapping per item)."""

    seed: int = 1
    items: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Design:
    name: str
    table: Table
    description: str = ""
    entities: tuple[Entity, ...] = ()
    access_patterns: tuple[AccessPattern, ...] = ()
    sample_data: SampleData = field(default_factory=SampleData)

    def entity(self, name: str) -> Entity | None:
        return self._entities_by_name.get(name)

    def has_table_keys(self, entity: Entity) -> bool:
        """Whether the entity has a template for each of the table's keys
        (the keys a key proposal can keep)."""
        return all(a.name in entity.keys for a in self.table.key_attributes)

    @functools.cached_property
    def _entities_by_name(self) -> dict[str, Entity]:
        # Checks look entities up by name for every reference: a dict keeps
        # them linear in the design's size. The first of a repeated name wins.
        by_name: dict[str, Entity] = {}
        for entity in self.entities:
            by_name.setdefault(entity.name, entity)
        return by_name

    @functools.cached_property
    def digest(self) -> str:
        """The design's content. Every field is a frozen value whose repr
        shows every compared field (not the uids that name elements), so
        the repr's hash is the content's, at a fraction of a YAML dump's
        cost; worked out once per design value, which the pages of one
        revision share."""
        return hashlib.sha256(repr(self).encode()).hexdigest()
