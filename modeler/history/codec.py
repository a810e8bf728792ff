"""A `Design` as a JSON document and back, for the revisions that store it.

The encoding follows the dataclasses of `modeler.design.model` field by field, so a
field added there (with a default) is stored and read back without a
migration, and a document written before the field existed reads with the
default. Fields equal to their default are left out, which keeps documents
small and makes them readable in the database. Keys of the document are the
dataclasses' field names; values are JSON (lists for tuples, objects for
mappings).

This is the storage format, not the design file format: design files are
`modeler.designfile`'s YAML, written for people, with its own checks and
line numbers. A document is only ever written by `encode`, so `decode`
trusts its shape.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Callable, Mapping
from typing import Any

from modeler.design import model as d

Document = dict[str, Any]

_MISSING = dataclasses.MISSING


def encode(design: d.Design) -> Document:
    """The design as a JSON-ready dict; `decode` gives back an equal design,
    uids included."""
    return _encode_dataclass(design)


def decode(document: Mapping[str, Any]) -> d.Design:
    return _decoder(d.Design)(document)


# --- Encoding -------------------------------------------------------------------


def _encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return _encode_dataclass(value)
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    return value


def _encode_dataclass(value: Any) -> Document:
    out: Document = {}
    cls: type = type(value)
    for name, default in _defaults(cls):
        item = getattr(value, name)
        if default is not _MISSING and item == default:
            continue
        out[name] = _encode(item)
    return out


@functools.cache
def _defaults(cls: type) -> tuple[tuple[str, Any], ...]:
    """Each field's name and default value (_MISSING when it has none)."""
    fields = []
    for f in dataclasses.fields(cls):
        if f.default is not _MISSING:
            default = f.default
        elif f.default_factory is not _MISSING:
            default = f.default_factory()
        else:
            default = _MISSING
        fields.append((f.name, default))
    return tuple(fields)


# --- Decoding -------------------------------------------------------------------


Decoder = Callable[[Any], Any]


@functools.cache
def _decoder(hint: Any) -> Decoder:
    """A function turning the JSON of a value of type `hint` into the value."""
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        inner = [a for a in args if a is not type(None)]
        if len(inner) != 1:
            raise TypeError(f"cannot store a value of type {hint}")
        decode_inner = _decoder(inner[0])
        return lambda v: None if v is None else decode_inner(v)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            decode_item = _decoder(args[0])
            return lambda v: tuple(decode_item(x) for x in v)
        decoders = [_decoder(a) for a in args]
        return lambda v: tuple(f(x) for f, x in zip(decoders, v, strict=True))
    if origin in (Mapping, dict, typing.Mapping):
        decode_value = _decoder(args[1]) if args else d.freeze
        return lambda v: types.MappingProxyType(
            {k: decode_value(x) for k, x in v.items()}
        )
    if hint is Any:
        return d.freeze
    if hint is float:
        return float
    if hint in (str, int, bool):
        return lambda v: v
    raise TypeError(f"cannot store a value of type {hint}")


def _dataclass_decoder(cls: type) -> Decoder:
    hints = typing.get_type_hints(cls)
    fields = {
        f.name: _decoder(hints[f.name]) for f in dataclasses.fields(cls) if f.init
    }

    def decode_dataclass(value: Mapping[str, Any]) -> Any:
        # Fields a later version removed are passed over.
        return cls(**{k: fields[k](v) for k, v in value.items() if k in fields})

    return decode_dataclass
