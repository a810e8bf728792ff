"""Fixtures of the engine tests."""

from __future__ import annotations

import pytest

from modeler.engine.engine import Engine
from tests.engine.helpers import table_request


@pytest.fixture
def engine() -> Engine:
    return Engine()


@pytest.fixture
def shop(engine: Engine) -> Engine:
    """A table "Shop" (PK, SK) with no index."""
    engine.create_table(table_request())
    return engine
