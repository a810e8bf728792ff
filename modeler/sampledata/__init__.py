"""Sample data for a design: generated items, items read from files, and
the entity each item belongs to. Pure Python; nothing here imports Django."""

from __future__ import annotations

from modeler.sampledata.files import (
    FileProblem,
    ItemsFileError,
    read_csv,
    read_items,
    read_jsonl,
    read_workbench_table_data,
    write_jsonl,
    write_jsonl_blocks,
)
from modeler.sampledata.generate import (
    MAX_ITEMS,
    Dataset,
    ItemStream,
    allow_items,
    generate,
    max_items,
)
from modeler.sampledata.recognise import (
    EntityRecogniser,
    OwnItemsAfter,
    with_own_items,
)
from modeler.sampledata.values import SampleDataError, default_generator

__all__ = [
    "MAX_ITEMS",
    "Dataset",
    "EntityRecogniser",
    "FileProblem",
    "ItemStream",
    "ItemsFileError",
    "OwnItemsAfter",
    "SampleDataError",
    "allow_items",
    "default_generator",
    "generate",
    "max_items",
    "read_csv",
    "read_items",
    "read_jsonl",
    "read_workbench_table_data",
    "with_own_items",
    "write_jsonl",
    "write_jsonl_blocks",
]
