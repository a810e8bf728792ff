"""How a query log's counts are read when nothing else is said: the
seconds they were gathered over, and the peak as a multiple of the
average. Apart from the SQL reader (`modeler.importers.sql`, which imports
sqlglot) so that the forms and the design-file reader name them without
loading it."""

DEFAULT_WINDOW = 3600.0  # seconds a query log's counts were gathered over
DEFAULT_PEAK = 3.0  # peak traffic as a multiple of the average
