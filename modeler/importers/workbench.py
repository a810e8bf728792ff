"""Import of NoSQL Workbench data models (every version seen in the wild:
1.0, 2.0, 3.0 and files with no version).

A model file holds one or more tables. Each table becomes one design (one
project): its keys, GSIs (and LSIs), billing and capacity; its facets
become entities whose key templates come from the facet's aliases, from the
labs web modeler's `ModelSchema` section when there is one, and otherwise
are inferred from the facet's sample items (`c#12345` and `c#23456` give
`c#{cId}`; a key part equal to an item attribute becomes that attribute's
placeholder); without facets, items are grouped by a type attribute
(`type`, `EntityType`...) or by the shapes of all their keys together
(`workbench_infer.key_shape_groups`). Table data becomes sample
items. Whatever cannot be carried over is listed in `notes`, never dropped
silently.

The importer writes a design document in the workbench's own format and
reads it with `read_design`, so an imported design passes exactly the
checks a hand-written one does.
"""

from __future__ import annotations

from typing import Any

from modeler.design.findings import Finding
from modeler.designfile import DEFAULT_MAX_BYTES
from modeler.importers.budget import ImportLimitError, import_budget
from modeler.importers.tables import (
    ALL_TABLES,
    TableChoice,
    TablesImport,
    failed,
    kind_of,
    load_json,
)
from modeler.importers.workbench_table import TableReader, model_error
from modeler.infra.textfiles import TextFileError, file_text

VERSIONS = ("1.0", "2.0", "3.0")


# A model's import is the tables' import; the name stays for its callers.
WorkbenchImport = TablesImport


def looks_like_workbench(source: str | bytes, *, filename: str = "") -> bool:
    """Whether a file is meant as a NoSQL Workbench model rather than a
    design YAML: a `.json` file, or a JSON object that has a DataModel or
    ModelName member near its start. A broken `.json` file then gets JSON's
    error message, not YAML's."""
    if filename.lower().endswith(".json"):
        return True
    head = source[:8192]
    if isinstance(head, bytes):
        head = head.decode("utf-8", errors="replace")
    stripped = head.lstrip("\ufeff \t\r\n")
    return stripped.startswith("{") and ('"DataModel"' in head or '"ModelName"' in head)


def read_workbench(
    source: str | bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    choice: TableChoice = ALL_TABLES,
) -> WorkbenchImport:
    """Read a model file (the tables `choice` picks); never raises on bad
    input. Within the budget of the import (`import_budget`): past its CPU
    seconds, the import is refused with a message that names the setting."""
    try:
        source = file_text(source, max_bytes=max_bytes, kind="model files")
    except TextFileError as exc:
        return failed(str(exc))
    with import_budget():
        try:
            return _read_model(source, choice)
        except ImportLimitError as exc:
            return failed(str(exc))


def _read_model(source: str, choice: TableChoice) -> WorkbenchImport:
    model = load_json(source)
    if isinstance(model, TablesImport):
        return model
    if not isinstance(model, dict):
        return failed(
            f"expected a NoSQL Workbench model (a JSON object with ModelName and "
            f"DataModel), found {kind_of(model)}"
        )
    problems: list[Finding] = []
    metadata = model.get("ModelMetadata", {})
    if not isinstance(metadata, dict):
        problems.append(
            model_error(
                "ModelMetadata", f"expected an object, found {kind_of(metadata)}"
            )
        )
        metadata = {}
    version = metadata.get("Version", "")
    if version not in ("", *VERSIONS):
        problems.append(
            model_error(
                "ModelMetadata.Version",
                f"unknown version {version!r}; this importer reads versions "
                + ", ".join(VERSIONS)
                + " and files with no version",
            )
        )
    data_model = model.get("DataModel")
    tables: list[Any] = data_model if isinstance(data_model, list) else []
    if not tables:
        problems.append(
            model_error(
                "DataModel",
                "expected a list of at least one table"
                if data_model is not None
                else "is missing: a NoSQL Workbench model lists its tables in "
                "DataModel",
            )
        )
    name = model.get("ModelName", "")
    if not isinstance(name, str):
        problems.append(
            model_error("ModelName", f"expected text, found {kind_of(name)}")
        )
        name = ""
    if problems:
        return WorkbenchImport(name, str(version), (), tuple(problems))
    name = name if name.strip() else "Imported model"
    common_notes = _metadata_notes(metadata, model)
    chosen = choice.chosen(
        [
            ((str(t.get("TableName")) if isinstance(t, dict) else "",), (i, t))
            for i, t in enumerate(tables)
        ],
        "NoSQL Workbench model",
    )
    if isinstance(chosen, TablesImport):
        return chosen
    imported = []
    for position, table in chosen:
        path = f"DataModel[{position}]"
        reader = TableReader(model, table, path, name, len(tables) > 1)
        imported.append(reader.read(common_notes))
    return WorkbenchImport(name, str(version), tuple(imported), ())


def _metadata_notes(metadata: dict, model: dict) -> list[str]:
    notes = []
    kept = [
        f"{k} '{metadata[k]}'"
        for k in ("Author", "DateCreated", "DateLastModified")
        if isinstance(metadata.get(k), str) and metadata[k].strip()
    ]
    if kept:
        notes.append("model metadata not kept: " + ", ".join(kept))
    extra = sorted(
        k
        for k in model
        if k not in ("ModelName", "ModelMetadata", "DataModel", "ModelSchema")
    )
    if extra:
        notes.append("sections not read: " + ", ".join(extra))
    return notes
