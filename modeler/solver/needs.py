"""What each read access pattern needs, stated without keys: the entities it
reads, the attributes it fixes by equality, the attribute it reads a range
of and the order it wants. These are the solver's input, whatever keys the
design has today."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from modeler.design import model as d
from modeler.design.findings import Finding, Location, Severity, finding
from modeler.keys.template import parse_template

# The generators whose every value is its own: an attribute made by one of
# them names its item alone.
UNIQUE_GENERATORS = frozenset({"ulid", "uuid"})
_ID_NAME = re.compile(r"(Id|ID|_id)$")
RANGE_OPERATORS = frozenset({"<", "<=", ">", ">=", "between", "begins_with"})


@dataclass(frozen=True)
class Need:
    """One read pattern's need. `equal` maps an attribute to the value the
    pattern fixes it to (a parameter such as `{customerId}` or a constant
    such as `OPEN`); `range` is the one predicate on a range of an
    attribute; `order` the attributes the results are ordered by, and
    `descending` their direction."""

    position: int
    pattern: d.AccessPattern
    entities: tuple[str, ...]
    equal: tuple[tuple[str, str], ...]
    range: d.Predicate | None
    order: tuple[str, ...]
    descending: bool
    problem: str = ""  # why no key can serve it, when that is plain already

    @property
    def name(self) -> str:
        return self.pattern.name

    @property
    def equal_names(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.equal)

    @property
    def value_of(self) -> dict[str, str]:
        return dict(self.equal)

    @property
    def sorted_by(self) -> tuple[str, ...]:
        """The attributes that must follow the equal ones in the sort key, in
        order: the range attribute, then the ordering ones."""
        names = [self.range.attribute] if self.range is not None else []
        for name in self.order:
            if name not in names and name not in self.equal_names:
                names.append(name)
        return tuple(names)

    @property
    def weight(self) -> float:
        traffic = self.pattern.traffic
        return max(traffic.rps, traffic.peak_rps)


def unserved(code: str, position: int, pattern: d.AccessPattern, why: str) -> Finding:
    """A read pattern that no proposed key serves, and why: a warning, since
    the design as it is may serve it."""
    where = Location(
        f"access_patterns[{position}]",
        kind="pattern",
        name=pattern.name,
        position=position,
    )
    return finding(code, Severity.WARNING, why, where)


def needs_of(design: d.Design) -> tuple[list[Need], list[Finding]]:
    """The needs of the design's read patterns, and the read patterns that
    state none (with the reason)."""
    needs: list[Need] = []
    unstated: list[Finding] = []
    for position, pattern in enumerate(design.access_patterns):
        if not pattern.is_read:
            continue
        if pattern.expects is None:
            unstated.append(
                unserved(
                    "no-expects",
                    position,
                    pattern,
                    "it states no needs (expects): which entity it reads and "
                    "which attributes it fixes",
                )
            )
            continue
        needs.append(_need(position, pattern))
    return needs, unstated


def _need(position: int, pattern: d.AccessPattern) -> Need:
    expects = pattern.expects or d.Expectation(entities=())
    equal: list[tuple[str, str]] = []
    ranges: list[d.Predicate] = []
    problems: list[str] = []
    for predicate in expects.where:
        if predicate.operator == "=" and len(predicate.values) == 1:
            equal.append((predicate.attribute, predicate.values[0]))
        elif predicate.operator in RANGE_OPERATORS:
            ranges.append(predicate)
        else:
            problems.append(
                f"'{predicate.attribute} {predicate.operator}' is neither an "
                "equality nor a range, so no key condition can state it"
            )
    if len(ranges) > 1:
        problems.append(
            "it reads ranges of "
            + " and ".join(f"'{p.attribute}'" for p in ranges)
            + "; a key condition takes a range of one attribute only"
        )
    order = tuple(name.lstrip("-") for name in expects.order_by)
    directions = {name.startswith("-") for name in expects.order_by}
    if len(directions) > 1:
        problems.append(
            "it orders some attributes ascending and others descending; one "
            "sort key reads in one direction"
        )
    return Need(
        position=position,
        pattern=pattern,
        entities=expects.entities,
        equal=tuple(equal),
        range=ranges[0] if ranges else None,
        order=order,
        descending=directions == {True},
        problem="; ".join(problems),
    )


@dataclass(frozen=True)
class Relations:
    """What the attributes of the entities mean to key design: which
    attribute identifies each entity, which attributes point at another
    entity's identity, which ones updates change."""

    identity: dict[str, tuple[str, ...]]
    owner: dict[tuple[str, str], str]  # (entity, attribute) -> entity it names
    mutable: dict[str, frozenset[str]]


def relations_of(design: d.Design, needs: list[Need]) -> Relations:
    targets: dict[tuple[str, str], tuple[str, str]] = {}
    referenced: set[tuple[str, str]] = set()
    for entity in design.entities:
        for attribute in entity.attributes:
            target = _points_at(attribute)
            if target is not None and design.entity(target[0]) is not None:
                targets[(entity.name, attribute.name)] = target
                referenced.add(target)
    own = {
        entity.name: _own_key(entity, targets, referenced) for entity in design.entities
    }

    def origin(entity: str, name: str) -> tuple[str, str]:
        seen = set()
        while (entity, name) in targets and (entity, name) not in seen:
            seen.add((entity, name))
            entity, name = targets[(entity, name)]
        return entity, name

    owner: dict[tuple[str, str], str] = {}
    for entity in design.entities:
        for attribute in entity.attributes:
            source, name = origin(entity.name, attribute.name)
            # A copy of another entity's name or date is not a pointer to it.
            if own[source] == name:
                owner[(entity.name, attribute.name)] = source
    mutable: dict[str, set[str]] = {e.name: set() for e in design.entities}
    for pattern in design.access_patterns:
        for action in pattern.actions:
            if action.operation == "Update" and action.entity in mutable:
                mutable[action.entity].update(action.updated)
    frozen = {name: frozenset(names) for name, names in mutable.items()}
    identity = {
        entity.name: _identity(
            entity, own[entity.name], owner, needs, frozen[entity.name]
        )
        for entity in design.entities
    }
    return Relations(identity=identity, owner=owner, mutable=frozen)


def _points_at(attribute: d.Attribute) -> tuple[str, str] | None:
    generator = attribute.generator
    if generator is None or generator.kind not in ("ref", "pick"):
        return None
    params = generator.params
    # `{pick: User.userId}` is the short form of `{pick: {from: User.userId}}`.
    source = params.get("value") if generator.kind == "ref" else params.get("from")
    if generator.kind == "pick" and source is None:
        source = params.get("value")
    if not isinstance(source, str) or "." not in source:
        return None
    entity, name = source.split(".", 1)
    return entity, name


def _own_key(
    entity: d.Entity,
    targets: dict[tuple[str, str], tuple[str, str]],
    referenced: set[tuple[str, str]],
) -> str:
    """The entity's own naming attribute: a generated unique id, a number
    among its parent's items, an attribute named as an id, or one that
    other entities refer to; "" for an edge or an event."""
    mine = [a for a in entity.attributes if (entity.name, a.name) not in targets]
    for test in (
        lambda a: a.generator is not None and a.generator.kind in UNIQUE_GENERATORS,
        lambda a: a.generator is not None and a.generator.kind == "sequence",
        lambda a: bool(_ID_NAME.search(a.name)),
        lambda a: (entity.name, a.name) in referenced,
    ):
        found = [a.name for a in mine if test(a)]
        if found:
            return found[0]
    return ""


def _identity(
    entity: d.Entity,
    own: str,
    owner: dict[tuple[str, str], str],
    needs: list[Need],
    mutable: frozenset[str],
) -> tuple[str, ...]:
    """The attributes that tell one item of the entity from another: its own
    id when that is unique on its own; else the entities it belongs to or
    joins, then its own name among them, or else (an event) the attribute
    its items are ordered by, or else the one a read fixes besides them.
    Never one an update changes: an item keyed by it would change its
    identity, and its table key, on each update."""
    attribute = entity.attribute(own) if own else None
    if attribute is not None and (
        (
            attribute.generator is not None
            and attribute.generator.kind in UNIQUE_GENERATORS
        )
        or _ID_NAME.search(own)
    ):
        return (own,)
    pointers = tuple(
        a.name
        for a in entity.attributes
        if owner.get((entity.name, a.name), entity.name) != entity.name
    )
    if own:
        return pointers + (own,)
    by = [
        name
        for need in needs
        if entity.name in need.entities
        for name in need.sorted_by + tuple(sorted(need.equal_names))
        if name not in pointers
        and name not in mutable
        and entity.attribute(name) is not None
    ]
    return pointers + tuple(by[:1])


def key_attributes(design: d.Design) -> frozenset[str]:
    return frozenset(a.name for a in design.table.all_key_attributes())


def strip_keys(design: d.Design) -> d.Design:
    """The design with its keys removed and its needs kept: no entity key
    templates, no secondary index, every read pattern stated by what it
    expects (no operation, index or key), and no write that sets or removes
    a key attribute. The key-design solver's input for a designed example."""
    keys = key_attributes(design)
    entities = tuple(
        replace(
            e, keys={}, attributes=tuple(a for a in e.attributes if a.name not in keys)
        )
        for e in design.entities
    )
    index_keys = keys - {a.name for a in design.table.key_attributes}
    patterns = tuple(_stripped(p, keys, index_keys) for p in design.access_patterns)
    table = replace(design.table, indexes=())
    return replace(design, table=table, entities=entities, access_patterns=patterns)


def _stripped(
    pattern: d.AccessPattern, keys: frozenset[str], index_keys: frozenset[str]
) -> d.AccessPattern:
    if pattern.is_read and pattern.expects is not None and not pattern.actions:
        return replace(
            pattern,
            operation=d.UNKEYED,
            index=d.TABLE_INDEX,
            key=(),
            scan_forward=True,
            filter="",
        )
    actions = tuple(
        replace(
            action,
            key=(),
            set=tuple((n, v) for n, v in action.set if n not in keys),
            remove=tuple(n for n in action.remove if n not in keys),
            condition=_without_key_names(action.condition, index_keys),
        )
        for action in pattern.actions
    )
    return replace(pattern, actions=actions)


def _without_key_names(condition: str, keys: frozenset[str]) -> str:
    """A condition naming an index's key attribute (which the proposal may
    not have) is dropped; the table's key names stay, so
    `attribute_not_exists(PK)` is kept."""
    if any(re.search(rf"\b{re.escape(k)}\b", condition) for k in keys):
        return ""
    return condition


def is_parameter(value: str) -> bool:
    """A need's value that is one parameter (`{customerId}`), not a constant."""
    return parse_template(value).is_single_placeholder
