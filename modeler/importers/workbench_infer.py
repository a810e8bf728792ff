"""Entities from the items of a NoSQL Workbench table: attributes from what
the items hold, and key templates from the aliases, the `ModelSchema`
templates or, failing those, the items' key values.

How a key template is inferred from the key values of an entity's items:
- a key named like a plain attribute (`Operator`, `CreatedAt`) is that
  attribute: `{operator}`;
- a value equal to one of the item's attributes is that attribute;
- otherwise the value is split at `#` (or `|`, or `:` when it is not a
  time): parts that every item shares and that have no digit stay literal
  (`ORDER`), a part equal to an attribute becomes its placeholder, and a
  part like `T1`, `T2` becomes `T{tId}`, with a new attribute whose values
  were all digits typed N so that the collision check knows it holds only
  digits.
Attributes made this way remember each item's value, so `c#12345` in both
PK and SK gives `c#{cId}` for both.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal, InvalidOperation
from string import ascii_letters
from typing import Any

from modeler.design import model as d
from modeler.design.findings import Finding
from modeler.exporters.workbench_format import (
    SCHEMA_TYPES,
    from_schema_template,
    has_placeholder,
    template_literal,
)
from modeler.importers.budget import check_cpu
from modeler.importers.workbench_generators import (
    REPEATING_GENERATORS,
    generator_words,
    inferred_generator,
)
from modeler.importers.workbench_groups import DISCRIMINATORS, Group, scalar_text
from modeler.keys import parse_template

ENTITY_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_]{0,63}$")
ATTRIBUTE_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]{0,254}$")


_GENERIC_KEY = re.compile(r"(?:^|[^A-Za-z])(?:pk|sk)\d*$|^(?:gsi|lsi)\d", re.IGNORECASE)
_TIME = re.compile(r"\d:\d")


class EntityBuilder:
    def __init__(
        self,
        key_types: dict[str, str],
        table_keys: list[d.KeyAttribute],
        index_keys: dict[str, list[str]],
        declared: dict[str, str],
        formats: dict[str, Any],
        notes: list[str],
    ) -> None:
        self.key_types = key_types
        self.table_keys = table_keys
        self.table_key_names = {k.name for k in table_keys}
        self.index_keys = index_keys
        self.declared = declared
        self.formats = formats
        self.notes = notes
        # Each entity's group, and the notes its inference added: a merge
        # infers the entity again from both groups' items.
        self.groups: dict[str, Group] = {}
        self.notes_of: dict[str, list[str]] = {}

    def build(self, groups: list[Group]) -> dict[str, dict]:
        entities: dict[str, dict] = {}
        for group in groups:
            check_cpu()
            name = entity_name(group.name, entities)
            if name != group.name:
                self.notes.append(
                    f"{group.origin}: named {name} ('{group.name}' is not a valid "
                    "entity name)"
                )
            entities[name] = self.entity(name, group)
        return entities

    def entity(self, name: str, group: Group) -> dict:
        before = len(self.notes)
        built = _Entity(self, group).build()
        self.groups[name] = group
        self.notes_of[name] = self.notes[before:]
        return built

    def merged(self, first: str, others: list[str]) -> dict:
        """The entity `first` inferred again from its items and those of
        `others`, whose primary keys collide with its own. The first's
        templates cover the others' table keys (the collision says so) but
        not always their index keys, nor do its sparse conditions hold for
        their items: a design whose items its own templates cannot make
        changes at its next import."""
        groups = [self.groups.pop(name) for name in (first, *others)]
        for name in (first, *others):
            for note in self.notes_of.pop(name):
                if note in self.notes:
                    self.notes.remove(note)
        group = Group(
            groups[0].name,
            [item for g in groups for item in g.items],
            {k: v for g in reversed(groups) for k, v in g.aliases.items()},
            {k: v for g in reversed(groups) for k, v in g.schema.items()},
            list(dict.fromkeys(name for g in groups for name in g.declared)),
            " and ".join(g.origin for g in groups),
        )
        return self.entity(first, group)


class _Entity:
    def __init__(self, builder: EntityBuilder, group: Group) -> None:
        self.b = builder
        self.group = group
        self.attributes: dict[str, dict] = {}
        # Values of attributes made up for key parts, per item (by id).
        self.virtual: dict[str, dict[int, str]] = {}
        self.origin: dict[str, str] = {}  # the literal word a made-up one follows
        self.format_of: dict[str, str] = {}
        self.taken = set(builder.key_types)
        self.inferred: set[str] = set()  # attributes given inferred generators

    def build(self) -> dict:
        self.declare_attributes()
        if self.group.exported:
            return {"attributes": self.attributes, "keys": self.exported_keys()}
        keys: dict[str, Any] = {}
        order = sorted(
            self.b.key_types,
            key=lambda k: (bool(_GENERIC_KEY.search(k)) or not _plain_name(k),),
        )
        for key in order:
            template = self.template(key)
            if template is not None:
                keys[key] = template
        for table_key in self.b.table_keys:
            if table_key.name not in keys:
                keys[table_key.name] = self.new_attribute(
                    table_key.name, "", table_key.type
                )
        keys = {k: keys[k] for k in self.b.key_types if k in keys}
        self.drop_repeating_generators(keys)
        self.drop_partial_indexes(keys)
        keys = {key: self.with_alias(key, value) for key, value in keys.items()}
        self.note_generators()
        return {"attributes": self.attributes, "keys": keys}

    def exported_keys(self) -> dict[str, Any]:
        """The keys of an entity this workbench exported, as the design had
        them: its ModelSchema templates with their `when` conditions. The
        export files an item in a facet by its table keys alone, so a
        facet's items need not fit its entity's index templates; inferring
        the keys again from them would change the design at every round
        trip."""
        keys: dict[str, Any] = {}
        for key in self.b.key_types:
            hint = self.group.schema.get(key)
            if not isinstance(hint, dict) or not isinstance(hint.get("template"), str):
                continue
            when = hint.get("when")
            template = hint["template"]
            keys[key] = self.with_alias(
                key, {"template": template, "when": when} if when else template
            )
        return keys

    def with_alias(self, key: str, value: Any) -> Any:
        """A key template with the facet's own name for the key (its
        KeyAttributeAlias), when the facet gives one that is a name."""
        alias = self.group.aliases.get(key, "")
        spec = value if isinstance(value, dict) else {"template": value}
        if (
            alias
            and not has_placeholder(alias)
            and alias not in (key, spec["template"])
        ):
            return {**spec, "alias": alias}  # the model's own name
        return value

    def note_generators(self) -> None:
        """Which generators were inferred, each with the number of values
        it was inferred from: the fewer, the less it can be trusted."""
        found = []
        for name in sorted(self.inferred):
            generator = self.attributes[name].get("generator")
            if generator is None:
                continue
            seen = sum(1 for item in self.group.items if name in item)
            found.append(f"{name}: {generator_words(generator)} (from {seen})")
        if found:
            self.b.notes.append(
                f"{self.group.origin}: generators inferred from the values (and "
                "how many values they come from): " + "; ".join(found)
            )

    # Attributes -----------------------------------------------------------

    def declare(
        self, name: str, kind: str, required: bool, presence: float | None
    ) -> bool:
        if name in self.b.key_types or name in self.attributes:
            return True
        if not ATTRIBUTE_NAME.match(name):
            return False
        spec: dict[str, Any] = {"type": kind}
        if not required:
            spec["required"] = False
            if presence is not None:
                spec["presence"] = presence
        if name in self.b.formats:
            spec["generator"] = self.b.formats[name]
        self.attributes[name] = spec
        self.taken.add(name)
        return True

    def declare_attributes(self) -> None:
        group = self.group
        skipped: set[str] = set()
        for name, spec in group.schema.items():
            if not isinstance(spec, dict) or name in self.b.key_types:
                continue
            kind = SCHEMA_TYPES.get(spec.get("type", "String"), spec.get("type"))
            if kind not in d.ATTRIBUTE_TYPES:
                kind = "S"
            if not self.declare(
                name, kind, spec.get("required", True) is not False, _presence(spec)
            ):
                skipped.add(name)
                continue
            for extra in ("generator", "max_length", "description"):
                if spec.get(extra) not in (None, "") and name in self.attributes:
                    self.attributes[name][extra] = plain_json(spec[extra])
        if group.schema:
            # The model says which attributes the entity has; an item's other
            # attributes are the item's own.
            if skipped:
                self.b.notes.append(
                    f"{group.origin}: attributes {', '.join(sorted(skipped))} "
                    "cannot be declared (an attribute name has letters, digits, "
                    "_ . and -)"
                )
            return
        count = len(group.items)
        seen: dict[str, int] = {}
        kinds: dict[str, str] = {}
        for item in group.items:
            for name, value in item.items():
                seen[name] = seen.get(name, 0) + 1
                kinds.setdefault(name, next(iter(value)))
        for name in group.declared + list(seen):
            required = bool(count) and seen.get(name, 0) == count
            share = seen.get(name, 0) / count if count else 0.0
            presence = (
                None if required or not count else min(max(round(share, 2), 0.01), 0.99)
            )
            kind = kinds.get(name) or self.b.declared.get(name, "S")
            if not self.declare(name, kind, required, presence):
                skipped.add(name)
            elif "generator" not in self.attributes.get(name, {"generator": 0}):
                values = [i[name] for i in group.items if name in i]
                generator = inferred_generator(values, kind)
                kinds_of = {scalar_text(v) for v in values}
                if name in DISCRIMINATORS and required and len(kinds_of) == 1:
                    # The entity's type attribute: every item of it has
                    # that value, however few were imported.
                    generator = (
                        {"constant": kinds_of.pop()} if "S" in values[0] else generator
                    )
                if generator is not None:
                    self.attributes[name]["generator"] = generator
                    self.inferred.add(name)
        if skipped:
            self.b.notes.append(
                f"{group.origin}: attributes {', '.join(sorted(skipped))} are kept in "
                "the sample items but not declared (an attribute name has letters, "
                "digits, _ . and -)"
            )

    def value_of(self, name: str, item: dict) -> str | None:
        if name in self.virtual:
            return self.virtual[name].get(id(item))
        own = item.get(name)
        return scalar_text(own) if own is not None else None

    def new_attribute(
        self,
        key: str,
        previous: str,
        kind: str,
        values: list[tuple[dict, str]] | None = None,
        *,
        numeric: bool = True,
    ) -> str:
        """A made-up attribute for a key part, as a placeholder. Parts that
        are all digits make an N attribute, zero-padded to their width when
        they all have one: the collision check then knows they hold digits
        only, and the key renders back to the same text."""
        name = _new_name(key, previous, self.taken)
        texts = [t for _, t in values or []]
        spec = ""
        if kind == "S" and numeric and texts and all(t.isdigit() for t in texts):
            widths = {len(t) for t in texts}
            if len(widths) == 1 and 1 < next(iter(widths)) <= 15:
                kind, spec = "N", f"0{next(iter(widths))}d"
            elif all(_is_count(t) for t in texts):
                kind = "N"
        self.attributes[name] = {"type": kind}
        if not previous and key in self.b.formats and kind == self.b.key_types[key]:
            # The key's sample data format now belongs to the attribute behind it.
            self.attributes[name]["generator"] = self.b.formats[key]
        self.virtual[name] = {id(item): text for item, text in values or []}
        self.origin[name] = _word(previous)
        self.format_of[name] = spec
        return self.placeholder(name)

    def placeholder(self, name: str) -> str:
        spec = self.format_of.get(name, "")
        return f"{{{name}:{spec}}}" if spec else f"{{{name}}}"

    # Keys -----------------------------------------------------------------

    def template(self, key: str) -> Any:
        group = self.group
        kind = self.b.key_types[key]
        hint = (
            group.schema.get(key) if isinstance(group.schema.get(key), dict) else None
        )
        declared = None
        if hint and isinstance(hint.get("template"), str):
            declared = hint["template"]  # this workbench's own export
        elif hint and isinstance(hint.get("value"), str):
            declared = from_schema_template(hint["value"])
        elif has_placeholder(group.aliases.get(key, "")):
            declared = group.aliases[key]
        values = [
            (item, scalar_text(item[key]) or "") for item in group.items if key in item
        ]
        if declared is not None:
            if self.fits(declared, values):
                when = hint.get("when") if hint else None
                return {"template": declared, "when": when} if when else declared
            self.b.notes.append(
                f"{group.origin}: the template {declared!r} of {key} does not match "
                "its sample items; the template is inferred from the items instead"
            )
        if not values:
            return None
        return self.infer(key, kind, values)

    def fits(self, template: str, values: list[tuple[dict, str]]) -> bool:
        try:
            parsed = parse_template(template)
        except ValueError:
            return False
        if any(p.attribute not in self.attributes for p in parsed.placeholders):
            return False
        for item, text in values:
            matched = parsed.match(text)
            if matched is None:
                return False
            for name, got in matched.items():
                own = self.value_of(name, item)
                if own is not None and own != str(got) and not _same_number(own, got):
                    return False
        return True

    def matching(
        self, values: list[tuple[dict, str]], key_kind: str, word: str | None = None
    ) -> str | None:
        """An attribute whose value is the text in every item that has it
        (and at least one has it). A made-up attribute matches only after
        the same literal word (`c#12345` is not `o#12345`'s 12345)."""
        for name, spec in self.attributes.items():
            if name in self.virtual and word is not None and self.origin[name] != word:
                continue
            allowed = ("S", "N") if key_kind == "S" else (key_kind,)
            if spec["type"] not in allowed:
                continue
            present = 0
            for item, text in values:
                own = self.value_of(name, item)
                if own is None:
                    continue
                if own != text and not (
                    spec["type"] == "N" and _same_number(own, text)
                ):
                    break
                present += 1
            else:
                if present:
                    if spec["type"] == "N" and name not in self.format_of:
                        padding = _padding([t for _, t in values])
                        if padding:
                            self.format_of[name] = padding
                    return name
        return None

    def infer(self, key: str, kind: str, values: list[tuple[dict, str]]) -> str:
        whole = self.matching(values, kind, "")
        if whole is not None:
            return self.placeholder(whole)
        texts = [t for _, t in values]
        if kind != "S" or _plain_name(key) and not _GENERIC_KEY.search(key):
            return self.new_attribute(key, "", kind, values, numeric=False)
        if len(set(texts)) == 1 and not _has_digit(texts[0]):
            return template_literal(texts[0])
        timely = any(_TIME.search(t) for t in texts)
        separators = "#|" if timely else "#|:"
        for separator in separators:
            if not all(separator in t for t in texts):
                continue
            split = [t.split(separator) for t in texts]
            if len({len(s) for s in split}) != 1:
                continue
            parts, previous = [], ""
            for position in range(len(split[0])):
                segment = [
                    (item, s[position])
                    for (item, _), s in zip(values, split, strict=True)
                ]
                parts.append(self.segment(key, segment, previous))
                shared = {text for _, text in segment}
                previous = segment[0][1] if len(shared) == 1 else ""
            return separator.join(parts)
        prefix = _common_prefix(texts)
        cut = max(prefix.rfind(s) for s in separators)
        prefix = prefix[: cut + 1] if cut >= 0 else ""
        rests = [(item, t[len(prefix) :]) for item, t in values]
        return template_literal(prefix) + self.segment(key, rests, prefix[:-1])

    def segment(self, key: str, segment: list[tuple[dict, str]], previous: str) -> str:
        texts = [t for _, t in segment]
        if len(set(texts)) == 1 and not _has_digit(texts[0]):
            return template_literal(texts[0])
        matched = self.matching(segment, "S", _word(previous))
        if matched is not None:
            return self.placeholder(matched)
        prefix = _common_prefix(texts)
        letters = prefix[: len(prefix) - len(prefix.lstrip(ascii_letters))]
        if letters and all(t[len(letters) :][:1].isdigit() for t in texts):
            rests = [(item, t[len(letters) :]) for item, t in segment]
            matched = self.matching(rests, "S", _word(letters))
            if matched is not None:
                return template_literal(letters) + self.placeholder(matched)
            return template_literal(letters) + self.new_attribute(
                key, letters, "S", rests
            )
        return self.new_attribute(key, previous, "S", segment)

    def drop_repeating_generators(self, keys: dict[str, Any]) -> None:
        """An inferred constant or choice for an attribute of a table key
        would give generated items the same keys: the default is kept (a
        generator the model itself gives stays)."""
        used = " ".join(
            str(keys.get(k.name, "")) for k in self.b.table_keys if k.name in keys
        )
        for name in self.inferred:
            spec = self.attributes[name]
            generator = spec.get("generator")
            kind = next(iter(generator)) if isinstance(generator, dict) else generator
            if kind in REPEATING_GENERATORS and re.search(
                r"\{" + re.escape(name) + r"[}:]", used
            ):
                spec.pop("generator")

    def drop_partial_indexes(self, keys: dict[str, Any]) -> None:
        for index, names in self.b.index_keys.items():
            own = [n for n in names if n not in self.b.table_key_names]
            present = [n for n in own if n in keys]
            if present and len(present) < len(own):
                for n in present:
                    keys.pop(n)
                self.b.notes.append(
                    f"{self.group.origin}: left out of {index}, whose key attributes "
                    "its items do not all have"
                )
        partial = [
            n
            for n in keys
            if n not in self.b.table_key_names
            and not isinstance(keys[n], dict)
            and 0 < sum(1 for i in self.group.items if n in i) < len(self.group.items)
        ]
        unexplained = []
        for name in partial:
            condition = self.sparse_condition(name)
            if condition:
                # Under `status = OPEN`, `{status}` is the constant OPEN.
                attribute, _, value = condition.partition(" = ")
                template = keys[name]
                if template == f"{{{attribute}}}" and re.fullmatch(r"\w+", value):
                    template = value
                keys[name] = {"template": template, "when": condition}
            else:
                unexplained.append(name)
        conditions = sorted({keys[n]["when"] for n in partial if n not in unexplained})
        if conditions:
            self.b.notes.append(
                f"{self.group.origin}: only some items have "
                + ", ".join(n for n in partial if n not in unexplained)
                + "; inferred the sparse condition "
                + " / ".join(f"`{c}`" for c in conditions)
                + " from the items that have them"
            )
        if unexplained:
            self.b.notes.append(
                f"{self.group.origin}: only some items have {', '.join(unexplained)}; "
                "the entity is in that index for all of them until you add a "
                "`when` condition"
            )

    def sparse_condition(self, key: str) -> str:
        """A `when` condition that holds for exactly the items that have the
        key: one attribute whose values in them (a few) appear in no other
        item, or an attribute that only they have. An attribute whose every
        item has a value of its own (an id, a time) says nothing of the kind
        of item that is in the index."""
        having = [i for i in self.group.items if key in i]
        lacking = [i for i in self.group.items if key not in i]
        best = ""
        for name, spec in sorted(self.attributes.items()):
            if name in self.virtual or spec["type"] not in ("S", "N", "BOOL"):
                continue
            inside = {_condition_value(i.get(name)) for i in having}
            outside = {_condition_value(i.get(name)) for i in lacking}
            if None in outside and None not in inside and outside == {None}:
                candidate = f"attribute_exists({name})"
            elif None in inside or inside & outside or not 0 < len(inside) <= 5:
                continue
            elif len(having) > 1 and len(inside) == len(having):
                continue  # a value per item
            elif len(inside) == 1:
                candidate = f"{name} = {next(iter(inside))}"
            else:
                # None is not inside (skipped above); the set's type keeps it.
                listed = sorted(v for v in inside if v is not None)
                candidate = f"{name} in ({', '.join(listed)})"
            if not best or len(candidate) < len(best):
                best = candidate
        return best


def _condition_value(wire: dict[str, Any] | None) -> str | None:
    """A value as a `when` condition writes it: a bare word, a number or a
    quoted string; None when the item lacks it or it cannot be written."""
    if not isinstance(wire, dict):
        return None
    if "N" in wire:
        return str(wire["N"])
    if "BOOL" in wire:
        return None
    text = wire.get("S")
    if not isinstance(text, str) or len(text) > 100:
        return None
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.-]*", text) and text.lower() not in (
        "and",
        "in",
    ):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _presence(spec: dict) -> float | None:
    value = spec.get("presence")
    if isinstance(value, (int, float, Decimal)) and not isinstance(value, bool):
        return float(value)
    return None


def plain_json(value: Any) -> Any:
    if isinstance(value, Decimal):
        return int(value) if value == int(value) else float(value)
    if isinstance(value, dict):
        return {k: plain_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_json(v) for v in value]
    return value


def entity_name(name: str, taken: dict) -> str:
    if ENTITY_NAME.match(name):
        candidate = name
    else:
        parts = re.split(r"[^A-Za-z0-9]+", name)
        candidate = "".join(p[:1].upper() + p[1:] for p in parts if p) or "Entity"
        if not candidate[0].isalpha():
            candidate = "E" + candidate
        candidate = candidate[:64]
    base, n = candidate, 2
    while candidate in taken:
        candidate = f"{base[:60]}{n}"
        n += 1
    return candidate


def _padding(texts: list[str]) -> str:
    """`03d` when whole numbers are written zero-padded to one width
    (`001`, `042`), else ''."""
    widths = {len(t) for t in texts}
    if (
        len(widths) == 1
        and all(t.isdigit() for t in texts)
        and any(t.startswith("0") and len(t) > 1 for t in texts)
    ):
        return f"0{widths.pop()}d"
    return ""


def _same_number(a: Any, b: Any) -> bool:
    try:
        return Decimal(str(a)) == Decimal(str(b))
    except InvalidOperation:
        return False


def _word(text: str) -> str:
    return text.lower() if re.fullmatch(r"[A-Za-z]+", text) else ""


def _has_digit(text: str) -> bool:
    return any(c.isdigit() for c in text)


def _is_count(text: str) -> bool:
    """Digits with no leading zero: a number renders back to the same text."""
    return (
        text.isdigit() and (text == "0" or not text.startswith("0")) and len(text) < 16
    )


def _plain_name(key: str) -> bool:
    return bool(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key))


def _common_prefix(texts: list[str]) -> str:
    if not texts:
        return ""
    first, last = min(texts), max(texts)
    n = 0
    while n < len(first) and n < len(last) and first[n] == last[n]:
        n += 1
    return first[:n]


def _new_name(key: str, previous: str, taken: set[str]) -> str:
    word = re.sub(r"[^A-Za-z]", "", previous)
    if word and word == previous and _GENERIC_KEY.search(key):
        base = word[:1].lower() + word[1:].lower() + "Id"
    elif _plain_name(key) and not _GENERIC_KEY.search(key):
        base = key[:1].lower() + key[1:]
        if base == key:
            base += "Value"
    else:
        base = re.sub(r"[^A-Za-z0-9]", "", key).lower() or "key"
        if not base[0].isalpha():
            base = "k" + base
        base += "Value"
    name, n = base, 2
    while name in taken:
        name = f"{base}{n}"
        n += 1
    taken.add(name)
    return name


# --- Grouping items, and entities whose keys collide -------------------------

_COLLISION = re.compile(r"entities (\w+) and (\w+) can write the same primary key")


def schema_extras(model: dict) -> dict[str, Any]:
    """What this workbench's export adds to ModelSchema: entity descriptions
    and sample settings, and the sample data seed."""
    schema = model.get("ModelSchema")
    if not isinstance(schema, dict):
        return {}
    out: dict[str, Any] = {}
    if isinstance(schema.get("entities"), dict):
        out["entities"] = schema["entities"]
    if isinstance(schema.get("sample_data"), dict):
        out["sample_data"] = schema["sample_data"]
    return out


def schema_models(model: dict, table: dict) -> dict[str, dict]:
    """The labs web modeler's (and this workbench's export's) ModelSchema
    models: entity -> attribute -> {type, value template, ...}."""
    schema = model.get("ModelSchema")
    if not isinstance(schema, dict):
        return {}
    tables = schema.get("tables")
    if isinstance(tables, dict) and isinstance(
        tables.get(table.get("TableName")), dict
    ):
        schema = tables[table.get("TableName")]
    models = schema.get("models")
    if not isinstance(models, dict):
        return {}
    return {str(k): v for k, v in models.items() if isinstance(v, dict)}


def merge_colliding(
    doc: dict, problems: Iterable[Finding], notes: list[str], builder: EntityBuilder
) -> bool:
    """Merge entities whose primary keys collide: their items cannot be told
    apart. Every collision of `problems` is taken at once: the entities that
    collide, directly or through another, become the first of them (in the
    document's order), inferred again once from all their items (a merge
    per pair inferred it again from ever more items: 300 alike facets took
    minutes). Returns whether any was merged; the next reading finds the
    collisions that the new templates make."""
    entities = doc["entities"]
    order = {name: n for n, name in enumerate(entities)}
    root: dict[str, str] = {}

    def find(name: str) -> str:
        while root.get(name, name) != name:
            name = root[name]
        return name

    for problem in problems:
        match = _COLLISION.search(problem.message) if problem.is_error else None
        if match and match[1] in entities and match[2] in entities:
            a, b = sorted((find(match[1]), find(match[2])), key=order.__getitem__)
            if a != b:
                root[b] = a
    members: dict[str, list[str]] = {}
    for name in entities:
        if find(name) != name:
            members.setdefault(find(name), []).append(name)
    for first, others in members.items():
        check_cpu()
        kept = entities[first]
        gone = {name: entities.pop(name) for name in others}
        for name, entity in gone.items():
            notes.append(
                f"{name} was merged into {first}: their keys "
                f"({key_summary(entity)} and {key_summary(kept)}) can be the same, "
                "so their items cannot be told apart"
            )
        entities[first] = {**kept, **builder.merged(first, others)}
    return bool(members)


def key_summary(entity: dict) -> str:
    return " / ".join(
        k["template"] if isinstance(k, dict) else str(k)
        for k in list(entity.get("keys", {}).values())[:2]
    )
