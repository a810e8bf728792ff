"""The search for key designs: which layout each entity takes in the table
and in each index, chosen so that every need is one GetItem or one Query of
one partition, with as few indexes as serve them all.

The table is chosen first, among every combination of the layouts the
needs suggest for each entity (each keeping its items apart by their
identity and placing no attribute an update changes); the needs it cannot
serve then take indexes one at a time, each index the combination of
layouts (at most one per entity: that is what overloading allows) that
serves the most of the needs left. The best table combinations give the
alternatives."""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from modeler.design import model as d
from modeler.design.findings import Finding
from modeler.review.evidence import attribute_cardinality
from modeler.solver.layouts import KeyPlan, Keys, Layout
from modeler.solver.needs import Need, Relations, is_parameter, unserved

MAX_COMBINATIONS = 20_000
MAX_GLOBAL_INDEXES = 20
MAX_LOCAL_INDEXES = 5


@dataclass
class IndexPlan:
    name: str
    kind: str  # "table", "global" or "local"
    layouts: dict[str, Layout]
    serves: list[int] = field(default_factory=list)  # need positions


@dataclass
class Plan:
    """One key design: its indexes, how each need is read, and the needs
    nothing serves (with why)."""

    indexes: list[IndexPlan]
    reads: dict[int, tuple[str, KeyPlan]]
    unserved: dict[int, Finding]

    @property
    def table(self) -> IndexPlan:
        return self.indexes[0]

    @property
    def secondary(self) -> list[IndexPlan]:
        return self.indexes[1:]

    def signature(self) -> tuple:
        return tuple((i.kind, tuple(sorted(i.layouts.items()))) for i in self.indexes)


class Search:
    def __init__(
        self,
        design: d.Design,
        relations: Relations,
        needs: list[Need],
        kept: dict[str, Layout] | None = None,
    ) -> None:
        """`kept`: the table layouts of the entities whose keys stay as they
        are."""
        self.kept = kept or {}
        self.design = design
        self.relations = relations
        self.keys = Keys(design, relations)
        self.needs = [n for n in needs if not n.problem]
        self.problems = {
            n.position: unserved("no-key-condition", n.position, n.pattern, n.problem)
            for n in needs
            if n.problem
        }
        for need in self.needs:
            code, problem = self._attribute_problem(need)
            if problem:
                self.problems[need.position] = unserved(
                    code, need.position, need.pattern, problem
                )
        self.needs = [n for n in self.needs if n.position not in self.problems]
        self.by_position = {n.position: n for n in self.needs}

    def _attribute_problem(self, need: Need) -> tuple[str, str]:
        """The code and the message of what keeps the need's attributes out
        of a key, or two empty strings."""
        for name in need.entities:
            entity = self.design.entity(name)
            if entity is None:
                return (
                    "expects-unknown-entity",
                    f"it reads '{name}', which is not an entity of the design",
                )
            names = [n for n, _ in need.equal] + list(need.sorted_by)
            attributes = [(n, entity.attribute(n)) for n in names]
            missing = [n for n, attribute in attributes if attribute is None]
            if missing:
                return (
                    "expects-unknown-attribute",
                    f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
                    f"not an attribute of {name}: a key can only place the "
                    "item's own attributes",
                )
            types = {n: a.type for n, a in attributes if a is not None}
            many = [n for n, _ in need.equal if types[n] in ("SS", "NS", "BS", "L")]
            if many:
                # A pattern fixing one member of a set reads an edge that
                # the design has no item for.
                return (
                    "expects-unkeyable-attribute",
                    f"{many[0]} ({types[many[0]]}) of {name} "
                    "holds many values and a key places one value per item: "
                    f"to read {name} by one of them, add an entity with an "
                    f"item per value (the value, {name}'s id"
                    + (f" and {', '.join(need.sorted_by)}" if need.sorted_by else "")
                    + f"), written with each {name}, and read that entity by "
                    "the value; the solver adds no entity of its own",
                )
            unkeyable = [
                f"{n} ({attribute.type})"
                for n, attribute in attributes
                if attribute is not None and attribute.type not in d.KEY_TYPES
            ]
            if unkeyable:
                return (
                    "expects-unkeyable-attribute",
                    f"{', '.join(unkeyable)} of {name} cannot be placed in a key, "
                    "which holds strings, numbers and binary values only: fix a "
                    "scalar attribute instead, or filter on it",
                )
        return "", ""

    # -- candidate layouts ---------------------------------------------------

    def layouts_for(self, need: Need, entity: str, *, table: bool) -> list[Layout]:
        found = self.design.entity(entity)
        if found is None:
            return []  # __init__ sets aside the needs of unknown entities
        order = [a.name for a in found.attributes]
        equal = sorted(need.equal_names, key=order.index)
        sorted_by = list(need.sorted_by)
        identity = self.relations.identity[entity]
        out: list[Layout] = []

        def completed(pk: tuple[str, ...], sk: list[str]) -> list[str]:
            return sk + [n for n in identity if n not in pk and n not in sk]

        # A constant of a few-valued attribute (status = OPEN) makes a sparse
        # index of that value's working set, keyed by the rest.
        constants = [
            (n, v)
            for n, v in need.equal
            if not is_parameter(v)
            and attribute_cardinality(found.attribute(n)) is not None
        ]
        if not table and constants and len(need.entities) == 1:
            constant = constants[0]
            others = [n for n in equal if n != constant[0]]
            for k in range(len(others), -1, -1):
                pk = tuple(others[:k])
                sk = others[k:] + [n for n in sorted_by if n not in equal]
                out.append(
                    Layout(entity, pk, tuple(completed(pk, sk)), sparse=constant)
                )
        if not table and not need.equal and len(need.entities) == 1:
            # A read that fixes nothing (all drivers): one partition of the
            # entity's items alone, in the order asked for.
            out.append(Layout(entity, (), tuple(completed((), sorted_by)), whole=True))
        for k in range(len(equal), 0, -1):
            pk = tuple(equal[:k])
            sk = [n for n in equal[k:]] + [n for n in sorted_by if n not in equal]
            out.append(Layout(entity, pk, tuple(completed(pk, sk))))
        if table:
            mutable = self.relations.mutable.get(entity, frozenset())
            out = [layout for layout in out if not (layout.attributes & mutable)]
        return out

    def identity_layout(self, entity: str) -> Layout:
        identity = self.relations.identity[entity]
        return Layout(entity, identity[:1], identity[1:])

    # -- serving -------------------------------------------------------------

    def plan_need(
        self, need: Need, layouts: dict[str, Layout], *, kind: str
    ) -> KeyPlan | None:
        exclusive = True
        shapes = {
            self.keys.partition_shape(layouts[name])
            for name in need.entities
            if name in layouts
        }
        for name, layout in layouts.items():
            if (
                name not in need.entities
                and self.keys.partition_shape(layout) in shapes
            ):
                exclusive = False
        if len(need.entities) > 1 and not exclusive:
            return None
        if kind != "table" and need.pattern.consistent_read and kind != "local":
            return None
        return self.keys.plan(
            need, layouts, on_table=kind == "table", exclusive=exclusive
        )

    def served(
        self, needs: Iterable[Need], layouts: dict[str, Layout], kind: str
    ) -> dict[int, KeyPlan]:
        out = {}
        for need in needs:
            plan = self.plan_need(need, layouts, kind=kind)
            if plan is not None:
                out[need.position] = plan
        return out

    # -- the search -------------------------------------------------------

    def tables(self, count: int) -> list[dict[str, Layout]]:
        """The best `count` table layouts, by the needs they serve."""
        choices: list[list[Layout]] = []
        for entity in self.design.entities:
            if entity.name in self.kept:
                choices.append([self.kept[entity.name]])
                continue
            options = [self.identity_layout(entity.name)]
            for need in self.needs:
                if entity.name in need.entities:
                    for layout in self.layouts_for(need, entity.name, table=True):
                        if layout not in options:
                            options.append(layout)
            choices.append(options)
        scored: list[tuple[float, int, dict[str, Layout]]] = []
        for combination in _combinations(choices):
            layouts = {layout.entity: layout for layout in combination}
            served = self.served(self.needs, layouts, "table")
            weight = sum(1_000 + self._weight(p) for p in served)
            scored.append((-weight, len(scored), layouts))
        scored.sort(key=lambda s: (s[0], s[1]))
        return [layouts for _, _, layouts in scored[:count]]

    def _weight(self, position: int) -> float:
        return self.by_position[position].weight

    def complete(self, table: dict[str, Layout]) -> Plan:
        """The indexes the needs the table leaves take, one at a time."""
        reads: dict[int, tuple[str, KeyPlan]] = {}
        for position, plan in self.served(self.needs, table, "table").items():
            reads[position] = ("table", plan)
        indexes = [IndexPlan("table", "table", table, sorted(reads))]
        left = [n for n in self.needs if n.position not in reads]
        left_out = dict(self.problems)
        for kind, limit in (
            ("local", MAX_LOCAL_INDEXES),
            ("global", MAX_GLOBAL_INDEXES),
        ):
            made = 0
            while left and made < limit:
                best = self._best_index(left, table, kind)
                if best is None:
                    break
                layouts, served = best
                made += 1
                name = f"{'LSI' if kind == 'local' else 'GSI'}{made}"
                indexes.append(IndexPlan(name, kind, layouts, sorted(served)))
                for position, plan in served.items():
                    reads[position] = (name, plan)
                left = [n for n in left if n.position not in served]
        for need in left:
            left_out[need.position] = self._why_not(need)
        return Plan(indexes, reads, left_out)

    def _best_index(
        self, left: list[Need], table: dict[str, Layout], kind: str
    ) -> tuple[dict[str, Layout], dict[int, KeyPlan]] | None:
        entities = [e.name for e in self.design.entities]
        choices: list[list[Layout | None]] = []
        for entity in entities:
            options: list[Layout | None] = [None]
            for need in left:
                if kind == "local" and not need.pattern.consistent_read:
                    continue
                if entity not in need.entities:
                    continue
                for layout in self.layouts_for(need, entity, table=False):
                    if kind == "local":
                        home = table.get(entity)
                        if (
                            home is None
                            or layout.pk != home.pk
                            or layout.sparse
                            or layout.whole
                        ):
                            continue
                        # Its partitions are the table's, whatever its words.
                        layout = replace(
                            layout,
                            kept=(
                                self.keys.pk_template(home),
                                self.keys.sk_template(layout),
                            ),
                        )
                    if layout not in options:
                        options.append(layout)
            choices.append(options)
        best = None
        for number, combination in enumerate(_combinations(choices)):
            layouts = {c.entity: c for c in combination if c is not None}
            if not layouts:
                continue
            served = self.served(left, layouts, kind)
            if not served:
                continue
            used = {name for p in served for name in self.by_position[p].entities}
            layouts = {name: layout for name, layout in layouts.items() if name in used}
            score = (
                len(served),
                sum(self._weight(p) for p in served),
                -len(layouts),
                -number,
            )
            if best is None or score > best[0]:
                best = (score, layouts, served)
        if best is None:
            return None
        return best[1], best[2]

    def _why_not(self, need: Need) -> Finding:
        if need.pattern.consistent_read:
            return unserved(
                "strong-read-unserved",
                need.position,
                need.pattern,
                "it reads with strong consistency, which only the table and a "
                "local index give, and no local index of the table's partitions "
                "can order it this way: read it eventually consistent, or key "
                "the table for it",
            )
        return unserved(
            "beyond-index-quota",
            need.position,
            need.pattern,
            "no index partition can hold what it fixes in the order it asks "
            "for within the index quota",
        )


def _combinations(choices: list[list]) -> Iterable[tuple]:
    """Every combination, or (when there are too many) the first option of
    each choice varied one choice at a time."""
    total = 1
    for options in choices:
        total *= max(1, len(options))
    if total <= MAX_COMBINATIONS:
        yield from itertools.product(*choices)
        return
    base = [options[0] for options in choices]
    yield tuple(base)
    for i, options in enumerate(choices):
        for option in options[1:]:
            varied = list(base)
            varied[i] = option
            yield tuple(varied)
