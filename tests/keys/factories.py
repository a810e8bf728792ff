"""Small builders for the designs the key tests check.

Attributes are written as "name" (type S) or "name:N"; keys as a template, or
as (template, condition) for a sparse key.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from modeler.design.model import (
    Attribute,
    Design,
    Entity,
    Generator,
    Index,
    KeyAttribute,
    KeyTemplate,
    Table,
    freeze,
)


def attribute(
    name: str,
    type: str = "S",
    *,
    generator: str = "",
    max_length: int | None = None,
    **params: Any,
) -> Attribute:
    return Attribute(
        name,
        type,
        generator=Generator(generator, freeze(params)) if generator else None,
        max_length=max_length,
    )


def entity(
    name: str,
    keys: Mapping[str, str | tuple[str, str]],
    attributes: tuple[Attribute | str, ...] = (),
) -> Entity:
    return Entity(
        name,
        attributes=tuple(_attribute(a) for a in attributes),
        keys=MappingProxyType(
            {
                key: KeyTemplate(*value)
                if isinstance(value, tuple)
                else KeyTemplate(value)
                for key, value in keys.items()
            }
        ),
    )


def gsi(
    name: str, pk: str, sk: str = "", *, pk_type: str = "S", sk_type: str = "S"
) -> Index:
    sort = (KeyAttribute(sk, sk_type),) if sk else ()
    return Index(name, "global", (KeyAttribute(pk, pk_type),), sort)


def lsi(name: str, sk: str, *, sk_type: str = "S") -> Index:
    return Index(name, "local", (KeyAttribute("PK"),), (KeyAttribute(sk, sk_type),))


def table(*indexes: Index, sort_key: bool = True, sk_type: str = "S") -> Table:
    return Table(
        "App",
        KeyAttribute("PK"),
        KeyAttribute("SK", sk_type) if sort_key else None,
        indexes=indexes,
    )


def design(*entities: Entity, on: Table | None = None) -> Design:
    """A design of these entities on a table (by default PK and SK, no index)."""
    return Design("Shop", on or table(), entities=entities)


def _attribute(spec: Attribute | str) -> Attribute:
    if isinstance(spec, Attribute):
        return spec
    name, _, type = spec.partition(":")
    return Attribute(name, type or "S")
