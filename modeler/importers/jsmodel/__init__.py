"""Model-as-code in: an ElectroDB (v3) or DynamoDB-Toolbox (v2) module
becomes a design with its keys, indexes and (ElectroDB's) access patterns.

The module is run with node, confined (see sandbox), with recorders in
place of the libraries; what it built is read back (key templates by
calling its key functions with a placeholder per attribute) and written as
a design document, read by `read_design` like a hand-written one. What the
design cannot carry is named in `notes`. Imports no Django.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from modeler.design import model as d
from modeler.design.findings import Finding, error
from modeler.designfile import DEFAULT_MAX_BYTES
from modeler.importers.built import read_built_document
from modeler.importers.jsmodel.common import JsModelError
from modeler.importers.jsmodel.electrodb import electrodb_document
from modeler.importers.jsmodel.sandbox import (
    Confinement,
    ModuleRunError,
    run_module,
)
from modeler.importers.jsmodel.toolbox import toolbox_document
from modeler.infra.textfiles import TextFileError, file_text

ELECTRODB = "electrodb"
TOOLBOX = "dynamodb-toolbox"
_IMPORT = re.compile(
    r"""(?:from\s*|require\s*\(\s*|import\s*\(\s*)["'](electrodb|dynamodb-toolbox)"""
    r"""(?:/[^"']*)?["']"""
)
_ESM = re.compile(r"^\s*(?:import|export)\b[\s{*]", re.MULTILINE)


@dataclass(frozen=True)
class JsModelImport:
    design: d.Design | None
    problems: tuple[Finding, ...] = ()
    notes: tuple[str, ...] = ()


def js_library(source: str | bytes, *, filename: str = "") -> str:
    """ELECTRODB or TOOLBOX for a JavaScript module importing the library
    (a .js, .mjs, .cjs or .ts file), else ''."""
    suffix = PurePath(filename).suffix.lower()
    head = source[:65536]
    if isinstance(head, bytes):
        head = head.decode("utf-8", errors="replace")
    found = _IMPORT.search(head)
    if found is None or (suffix and suffix not in (".js", ".mjs", ".cjs", ".ts")):
        return ""
    return ELECTRODB if found.group(1) == "electrodb" else TOOLBOX


def read_js_module(
    source: str | bytes,
    *,
    filename: str = "",
    max_bytes: int = DEFAULT_MAX_BYTES,
    confinement: Confinement | None = None,
) -> JsModelImport:
    """The design the module builds; never raises on bad input (a problem
    names the file and, where node gives one, the line)."""
    name = PurePath(filename).name or "module.js"
    library = js_library(source, filename=filename)

    def failed(message: str) -> JsModelImport:
        return JsModelImport(None, (error("js-module-invalid", name, message),))

    if not library:
        return failed(
            "imports neither electrodb nor dynamodb-toolbox: nothing to import"
        )
    if name.lower().endswith(".ts"):
        return failed(
            "is TypeScript: compile it to JavaScript (tsc) and import the .js file"
        )
    try:
        text = file_text(source, max_bytes=max_bytes, kind="JavaScript modules")
    except TextFileError as exc:
        return failed(str(exc))
    suffix = PurePath(name).suffix.lower()
    module_type = (
        "module"
        if suffix == ".mjs" or (suffix != ".cjs" and _ESM.search(text))
        else "commonjs"
    )
    try:
        recorded = run_module(
            text, filename=name, module_type=module_type, confinement=confinement
        )
        if library == ELECTRODB:
            document, notes = electrodb_document(
                recorded.get("electrodb") or {}, filename=name
            )
        else:
            document, notes = toolbox_document(
                recorded.get("toolbox") or {}, filename=name
            )
    except ModuleRunError as exc:
        return JsModelImport(None, (error("js-module-invalid", "file", str(exc)),))
    except JsModelError as exc:
        return failed(str(exc))
    except (AttributeError, TypeError, ValueError, KeyError, IndexError):
        # The module can print a result of its own after the runner's: it
        # is data like any upload, and a shape the readers do not expect is
        # refused rather than trusted.
        return failed("its run gave a result of an unexpected shape")
    design, problems = read_built_document(document)
    return JsModelImport(design, problems, tuple(notes))
