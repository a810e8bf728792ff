"""The domain packages stay free of Django, and the exporters of the
importers: each can be read, run and tested on its own (DESIGN.md)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

DOMAIN_PACKAGES = (
    "design",
    "design_check",
    "designfile",
    "keys",
    "engine",
    "sampledata",
    "simulation",
    "review",
    "diagrams",
    "exporters",
    "importers",
    "solver",
    "history",
    "evolution",
)

# Imports every module of the package in a fresh interpreter (no settings,
# no pytest-django), then lists what of Django came with them.
_IMPORT_ALL = """
import importlib, pkgutil, sys
package = importlib.import_module(sys.argv[1])
names = [m.name for m in pkgutil.walk_packages(package.__path__, sys.argv[1] + ".")]
for name in names:
    importlib.import_module(name)
print(len(names))
print(sorted(m for m in sys.modules if m == "django" or m.startswith("django.")))
"""


def _imported_modules(path: Path) -> set[str]:
    """Every module the file imports, at its top or inside a function."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _offending(path: Path, prefix: str) -> list[str]:
    return sorted(
        m for m in _imported_modules(path) if m == prefix or m.startswith(prefix + ".")
    )


@pytest.mark.parametrize("package", DOMAIN_PACKAGES)
def test_importing_a_domain_package_loads_no_django(package):
    process = subprocess.run(
        [sys.executable, "-c", _IMPORT_ALL, f"modeler.{package}"],
        capture_output=True,
        cwd=ROOT,
        env={"PATH": "", "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=False,
        text=True,
    )

    assert process.returncode == 0, process.stderr
    count, django_modules = process.stdout.strip().splitlines()
    assert int(count) > 0
    assert django_modules == "[]", f"modeler.{package} imports {django_modules}"


@pytest.mark.parametrize("package", DOMAIN_PACKAGES)
def test_no_domain_module_imports_django_even_inside_a_function(package):
    files = sorted((ROOT / "modeler" / package).rglob("*.py"))

    offenders = {
        str(path.relative_to(ROOT)): _offending(path, "django") for path in files
    }

    assert files
    assert {path: found for path, found in offenders.items() if found} == {}


def test_no_exporter_imports_an_importer():
    files = sorted((ROOT / "modeler" / "exporters").rglob("*.py"))

    offenders = {
        str(path.relative_to(ROOT)): _offending(path, "modeler.importers")
        for path in files
    }

    assert files
    assert {path: found for path, found in offenders.items() if found} == {}
