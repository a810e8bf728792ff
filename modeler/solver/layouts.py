"""How an entity's items sit in the table or in one index (a layout), and
the key condition a need reads them with.

A layout is a partition key made of attributes, each after the word of what
it names (`CUSTOMER#{customerId}`, `DAY#{day}#SHARD#{shard}`), or a constant
of a sparse index (`STATUS#OPEN` while `status = OPEN`); and a sort key that
starts with the entity's word and goes on coarse to fine
(`ORDER#{orderDate}#{orderId}`). Every sort key starting with its entity's
word keeps the entities sharing a partition apart: `begins_with ORDER#`
reads the orders of a customer's partition and not the customer."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from modeler.design import model as d
from modeler.keys.checks import numbers_of_one_length
from modeler.keys.template import Literal, parse_template
from modeler.solver.needs import Need, Relations, is_parameter

# Above every character that key values here are made of (letters, digits,
# ISO dates, ids): `P#a#~` closes a range after every `P#a#...`.
TOP = "~"


def word(name: str) -> str:
    """`LineItem` -> `LINEITEM`, `order_date` -> `ORDERDATE`."""
    return re.sub(r"[^A-Za-z0-9]", "", name).upper() or "ITEM"


@dataclass(frozen=True)
class Layout:
    entity: str
    pk: tuple[str, ...]
    sk: tuple[str, ...]
    sparse: tuple[str, str] | None = None  # (attribute, value) of a sparse index
    # Every item of the entity in one partition named by its word
    # (`TYPE#DRIVER`), for a read that fixes nothing.
    whole: bool = False
    # The templates of a layout kept as the design has it, verbatim.
    kept: tuple[str, str] | None = None

    @classmethod
    def of_templates(cls, entity: str, pk: str, sk: str) -> Layout:
        """A layout the user keeps: their templates, whatever their words."""
        return cls(
            entity,
            parse_template(pk).attributes,
            parse_template(sk).attributes,
            kept=(pk, sk),
        )

    @property
    def attributes(self) -> frozenset[str]:
        return (
            frozenset(self.pk)
            | frozenset(self.sk)
            | (frozenset({self.sparse[0]}) if self.sparse else frozenset())
        )

    @property
    def when(self) -> str:
        if self.sparse is None:
            return ""
        return f"{self.sparse[0]} = {self.sparse[1]}"


@dataclass(frozen=True)
class KeyPlan:
    """How one need reads one index: the operation, its key condition (in
    the design's clause form, with the index's key attribute names still to
    be filled: "pk" and "sk"), and its direction."""

    operation: str
    clauses: tuple[tuple[str, str, tuple[str, ...]], ...]
    scan_forward: bool


class Keys:
    """Renders layouts into templates and key conditions for one design."""

    def __init__(self, design: d.Design, relations: Relations) -> None:
        self.design = design
        self.relations = relations

    def _attribute(self, entity: str, name: str) -> d.Attribute | None:
        found = self.design.entity(entity)
        return found.attribute(name) if found is not None else None

    def pk_word(self, entity: str, name: str) -> str:
        return word(self.relations.owner.get((entity, name), name))

    def format(self, entity: str, name: str) -> str:
        """The placeholder format that makes a number sort as text."""
        attribute = self._attribute(entity, name)
        if attribute is None or attribute.type != "N":
            return ""
        if numbers_of_one_length(attribute):
            return ""
        return number_format(attribute, self.design.entity(entity))

    def placeholder(self, entity: str, name: str, *, in_sort_key: bool) -> str:
        spec = self.format(entity, name) if in_sort_key else ""
        return "{" + name + (":" + spec if spec else "") + "}"

    def pk_template(self, layout: Layout) -> str:
        if layout.kept is not None:
            return layout.kept[0]
        parts = []
        if layout.sparse is not None:
            attribute, value = layout.sparse
            parts.append(f"{word(attribute)}#{value}")
        if layout.whole:
            parts.append(f"TYPE#{word(layout.entity)}")
        return "#".join(
            parts
            + [
                f"{self.pk_word(layout.entity, name)}#"
                + self.placeholder(layout.entity, name, in_sort_key=False)
                for name in layout.pk
            ]
        )

    def sk_template(self, layout: Layout) -> str:
        if layout.kept is not None:
            return layout.kept[1]
        return "#".join(
            [word(layout.entity)]
            + [self.placeholder(layout.entity, n, in_sort_key=True) for n in layout.sk]
        )

    def partition_shape(self, layout: Layout) -> tuple:
        """Layouts of one shape share partitions when their values agree."""
        return tuple(
            part.text if isinstance(part, Literal) else "*"
            for part in parse_template(self.pk_template(layout)).parts
        )

    def filled(self, template: str, values: dict[str, str]) -> str:
        """The template with each attribute given a value replaced by it: a
        parameter keeps the attribute's format (`{n:03d}`), a constant is
        written as the key would hold it."""
        out = []
        for part in parse_template(template).parts:
            if isinstance(part, Literal):
                out.append(part.text.replace("{", "{{").replace("}", "}}"))
                continue
            value = values.get(part.attribute)
            if value is None:
                out.append(part.source)
            elif is_parameter(value):
                spec = f":{part.format_spec}" if part.format_spec else ""
                out.append("{" + value[1:-1] + spec + "}")
            else:
                rendered = parse_template(part.source).render(
                    {part.attribute: _typed(value, part.width is not None)}
                )
                out.append(rendered.replace("{", "{{").replace("}", "}}"))
        return "".join(out)

    # -- serving ---------------------------------------------------------

    def plan(
        self,
        need: Need,
        layouts: dict[str, Layout],
        *,
        on_table: bool,
        exclusive: bool,
    ) -> KeyPlan | None:
        """How the need reads an index holding these layouts, or None when
        it cannot. `exclusive`: no other entity shares the need's partitions
        there (a one-sided range is then safe)."""
        if need.problem:
            return None
        found = [layouts.get(name) for name in need.entities]
        if any(layout is None for layout in found):
            return None
        chosen = [layout for layout in found if layout is not None]
        if len(chosen) > 1:
            return self._plan_together(need, chosen)
        return self._plan_one(need, chosen[0], on_table=on_table, exclusive=exclusive)

    def _plan_together(self, need: Need, layouts: list[Layout]) -> KeyPlan | None:
        """Several entities in one read: their items must share a partition
        and the Query reads it whole."""
        if need.range is not None or need.order:
            return None
        shapes = {self.partition_shape(layout) for layout in layouts}
        if len(shapes) != 1 or any(layout.sparse for layout in layouts):
            return None
        first = layouts[0]
        if any(layout.pk != first.pk for layout in layouts):
            return None
        if set(first.pk) != need.equal_names:
            return None
        pk = self.filled(self.pk_template(first), need.value_of)
        return KeyPlan("Query", (("pk", "=", (pk,)),), True)

    def _plan_one(
        self, need: Need, layout: Layout, *, on_table: bool, exclusive: bool
    ) -> KeyPlan | None:
        values = need.value_of
        equal = set(need.equal_names)
        if layout.sparse is not None:
            attribute, value = layout.sparse
            if values.get(attribute) != value:
                return None
            equal.discard(attribute)
        elif not layout.pk and not layout.whole:
            return None
        if not set(layout.pk) <= equal:
            return None
        rest = equal - set(layout.pk)
        if set(layout.sk[: len(rest)]) != rest:
            return None
        after = layout.sk[len(rest) :]
        wanted = need.sorted_by
        if after[: len(wanted)] != wanted:
            return None
        pk = self.filled(self.pk_template(layout), values)
        clauses: list[tuple[str, str, tuple[str, ...]]] = [("pk", "=", (pk,))]
        forward = not need.descending
        template = self.sk_template(layout)
        if not after:
            clauses.append(("sk", "=", (self.filled(template, values),)))
            limited = need.pattern.limit is not None
            operation = "GetItem" if on_table and not limited else "Query"
            return KeyPlan(operation, tuple(clauses), forward)
        pieces = _pieces(template)
        at = [i for i, (_, name) in enumerate(pieces) if name][len(rest)]
        head = self.filled("".join(text for text, _ in pieces[:at]), values)
        if need.range is not None:
            following = pieces[at + 1][0] if at + 1 < len(pieces) else ""
            clause = self._range(
                need.range,
                pieces[at][0],
                head,
                tail=following + TOP if len(after) > 1 else "",
                exclusive=exclusive,
            )
            if clause is None:
                return None
            clauses.append(clause)
        else:
            clauses.append(("sk", "begins_with", (head,)))
        return KeyPlan("Query", tuple(clauses), forward)

    def _range(
        self,
        predicate: d.Predicate,
        placeholder: str,
        head: str,
        *,
        tail: str,
        exclusive: bool,
    ) -> tuple[str, str, tuple[str, ...]] | None:
        """The sort key condition for a range of the attribute placed by
        `placeholder` right after `head`; `tail` closes a range after every
        key that goes on past the value."""
        name = predicate.attribute
        low = [head + self.filled(placeholder, {name: v}) for v in predicate.values]
        op = predicate.operator
        bottom, top = head, head + TOP
        more = bool(tail)
        if op == "begins_with":
            return ("sk", "begins_with", (low[0],))
        if op == "between":
            return ("sk", "between", (low[0], low[1] + tail))
        if op == ">=":
            return ("sk", "between", (low[0], top))
        if op == "<=":
            return ("sk", "between", (bottom, low[0] + tail))
        if op == ">":
            if more:
                return ("sk", "between", (low[0] + tail, top))
            return ("sk", ">", (low[0],)) if exclusive else None
        if op == "<":
            if more:
                return ("sk", "between", (bottom, low[0]))
            return ("sk", "<", (low[0],)) if exclusive else None
        return None


def number_format(attribute: d.Attribute, entity: d.Entity | None) -> str:
    """`0Nd` or `0N.Mf` wide enough for the attribute's generated values;
    wide enough for nine digits when the generator does not bound them."""
    generator = attribute.generator
    params = generator.params if generator is not None else {}
    kind = generator.kind if generator is not None else ""
    if kind == "sequence":
        high = 0
        if entity is not None:
            count = entity.sample.count
            high = max(count.value, count.high)
        return f"0{max(3, len(str(high)))}d"
    if kind in ("int", "decimal"):
        try:
            top = Decimal(str(params.get("max")))
        except (InvalidOperation, ValueError):
            top = Decimal(999_999_999)
        digits = len(str(int(abs(top))))
        if kind == "decimal":
            places = int(params.get("places", 2))
            return f"0{digits + 1 + places}.{places}f"
        return f"0{digits}d"
    return "09d"


def _typed(value: str, number: bool) -> object:
    if not number:
        return value
    try:
        return Decimal(value)
    except InvalidOperation:
        return value


def _pieces(template: str) -> list[tuple[str, str]]:
    """The template's parts as (source text, attribute placed or "")."""
    return [
        (part.text.replace("{", "{{").replace("}", "}}"), "")
        if isinstance(part, Literal)
        else (part.source, part.attribute)
        for part in parse_template(template).parts
    ]
