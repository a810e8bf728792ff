"""SQL in: a PostgreSQL or MySQL schema dump and the application's query
log become a design stated by needs, ready for the key-design proposal
(`manage.py design_from_sql`). Parsed with sqlglot, imports no Django."""

from modeler.importers.sql.design import (
    DEFAULT_PEAK,
    DEFAULT_WINDOW,
    SqlDesign,
    design_from_sql,
)
from modeler.importers.sql.statements import SqlImportError

__all__ = [
    "DEFAULT_PEAK",
    "DEFAULT_WINDOW",
    "SqlDesign",
    "SqlImportError",
    "design_from_sql",
]
