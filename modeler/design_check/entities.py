"""Entities: names, attributes (against the table's keys), the TTL
attribute and the sample data settings; each attribute's generator is
checked by `generators`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from modeler.design import model as d
from modeler.design.findings import Finding, error, warning
from modeler.design_check.common import ancestors
from modeler.design_check.generators import check_generator


def check_entities(design: d.Design) -> Iterator[Finding]:
    repeated = Counter(e.name for e in design.entities)
    key_names = {a.name for a in design.table.all_key_attributes()}
    for entity in design.entities:
        path = f"entities.{entity.name}"
        if repeated[entity.name] > 1:
            yield error(
                "entity-name-taken",
                path,
                f"the entity name '{entity.name}' is used twice",
            )
        attr_counts = Counter(a.name for a in entity.attributes)
        for attr in entity.attributes:
            apath = f"{path}.attributes.{attr.name}"
            if attr_counts[attr.name] > 1:
                yield error("attribute-declared-twice", apath, "is declared twice")
            if attr.name in key_names:
                yield error(
                    "key-attribute-declared",
                    apath,
                    f"'{attr.name}' is a key attribute of the table "
                    "or an index: its value comes from the entity's key "
                    "template; declare the attributes the template uses",
                )
            if attr.max_length is not None and attr.type not in ("S", "B"):
                yield error(
                    "max-length-type",
                    f"{apath}.max_length",
                    "applies to S and B attributes only",
                )
            if attr.generator is not None:
                yield from check_generator(
                    design, entity, attr, attr.generator, f"{apath}.generator"
                )
        if design.table.ttl_attribute:
            ttl = entity.attribute(design.table.ttl_attribute)
            if ttl is not None and ttl.type != "N":
                yield warning(
                    "ttl-not-number",
                    f"{path}.attributes.{ttl.name}",
                    "the TTL attribute must be a number (N) of epoch "
                    "seconds; DynamoDB ignores other values",
                )
        yield from _check_sample_settings(design, entity, f"{path}.sample")


def _check_sample_settings(
    design: d.Design, entity: d.Entity, path: str
) -> Iterator[Finding]:
    sample = entity.sample
    if sample.per:
        parent = design.entity(sample.per)
        if parent is None:
            yield error(
                "sample-per-unknown-entity",
                f"{path}.per",
                f"unknown entity '{sample.per}'",
            )
        elif entity.name in ancestors(design, parent) or (sample.per == entity.name):
            yield error(
                "sample-per-cycle",
                f"{path}.per",
                f"'{sample.per}' is {entity.name} or one "
                "of its children: parents cannot form a cycle",
            )
    count = sample.count
    if count.distribution == "zipf" and count.high < 1:
        yield error("zipf-max", f"{path}.count", "zipf needs max of 1 or more")
    if sample.hot_keys and not sample.per:
        yield error(
            "hot-without-per",
            f"{path}.hot",
            "hot keys skew children toward some parents; they need sample.per",
        )
    if sample.hot_share and not sample.hot_keys:
        yield error(
            "hot-keys-count", f"{path}.hot.keys", "how many parents are hot (1 or more)"
        )
