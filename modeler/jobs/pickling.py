"""Results the workers hand to the web processes through the cache, as
pickles. Designs hold read-only mappings (MappingProxyType), which pickle
cannot take as they are: they are written as dicts and read back
read-only. Only the workbench's own processes write to the cache (Redis or
a table of its database), so what is read from it is trusted as much as
the code."""

from __future__ import annotations

import copyreg
import io
import pickle
import types
from collections.abc import Mapping
from typing import Any

# In the cache keys of pickled results: raised when the classes they hold
# move or change shape, so that what the code before wrote (the cache
# outlives a deploy) is made again rather than read back into the wrong
# classes. 2: one finding type (modeler.design.findings); 3: a migration
# plan's alternative (modeler.evolution.beside).
FORMAT = 3


def dumps(value: object) -> bytes:
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = {
        **copyreg.dispatch_table,
        types.MappingProxyType: _reduce_read_only,
    }
    pickler.dump(value)
    return out.getvalue()


def loads(data: bytes) -> Any:
    return pickle.loads(data)  # noqa: S301 (written by `dumps` alone)


def _read_only(mapping: dict[str, Any]) -> Mapping[str, Any]:
    return types.MappingProxyType(mapping)


def _reduce_read_only(mapping: Mapping[str, Any]) -> tuple[Any, ...]:
    return _read_only, (dict(mapping),)
