"""Hypothesis strategies for any value of the design model, built from the
dataclasses' type hints (as the codec reads them), so that a field added to
`modeler.design.model` is covered without a change here."""

from __future__ import annotations

import dataclasses
import functools
import types
import typing
from collections.abc import Mapping
from typing import Any

from hypothesis import strategies as st

from modeler.design import model as d

_TEXT = st.text(max_size=8)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | _TEXT,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3)
    ),
    max_leaves=6,
)


@functools.cache
def strategy_for(hint: Any) -> st.SearchStrategy:
    if dataclasses.is_dataclass(hint):
        hints = typing.get_type_hints(hint)
        return st.builds(
            hint,
            **{
                f.name: strategy_for(hints[f.name])
                for f in dataclasses.fields(hint)
                if f.init
            },
        )
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return st.one_of(*(strategy_for(a) for a in args))
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(strategy_for(args[0]), max_size=3).map(tuple)
        return st.tuples(*(strategy_for(a) for a in args))
    if origin in (Mapping, dict):
        return st.dictionaries(_TEXT, strategy_for(args[1]), max_size=3).map(d.freeze)
    if hint is Any:
        return _JSON.map(d.freeze)
    if hint is type(None):
        return st.none()
    return {
        str: _TEXT,
        int: st.integers(-(10**9), 10**9),
        float: st.floats(allow_nan=False, allow_infinity=False),
        bool: st.booleans(),
    }[hint]


def designs() -> st.SearchStrategy[d.Design]:
    return strategy_for(d.Design)
