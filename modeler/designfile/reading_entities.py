"""Reading a design file's entities (attributes, generators, key templates,
counts) and its sample data.
"""

from __future__ import annotations

from typing import Any

from modeler.design import model as d
from modeler.designfile.fields import ATTRIBUTE_NAME, ENTITY_NAME
from modeler.designfile.reader_base import (
    ReaderBase,
    dynamodb_item_problem,
    plain_yaml_value,
)


class EntityReader(ReaderBase):
    def entities(self, data: Any) -> tuple[d.Entity, ...]:
        specs = self.mapping(data, "entities")
        result = []
        for name, spec in specs.items():
            path = f"entities.{name}"
            if not isinstance(name, str) or not ENTITY_NAME.match(name):
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

    def attribute(self, name: str, data: Any, path: str) -> d.Attribute:
        if not ATTRIBUTE_NAME.match(name):
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
            return d.Generator(str(kind), d.freeze(plain_yaml_value(params)))
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
            problem = dynamodb_item_problem(item)
            if problem:
                self.error("item-malformed", f"sample_data.items[{i}]", problem)
        return d.SampleData(
            seed=self.integer(spec, "seed", "sample_data", 1),
            items=tuple(
                d.freeze(plain_yaml_value(item))
                for item in items
                if isinstance(item, dict)
            ),
        )
