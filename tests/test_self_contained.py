"""The repository runs anywhere it is cloned: no code, test or script reads
a file outside it (a sibling `shared` directory, a fixed absolute path)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIPPED_DIRS = {".venv", ".git", "var", "staticfiles", "test-output", "node_modules"}
CHECKED_SUFFIXES = {".py", ".sh", ".toml", ".cfg", ".ini", ".txt", ".yaml", ".yml"}
# A path into a sibling checkout or into the machine the project was built on.
# (Each literal is broken by a one-letter class, so this line does not match
# itself when other tools scan the repository.)
OUTSIDE = re.compile(r"/w[o]rk/|\.\./sh[a]red|[\"']sh[a]red[\"']\s*/|parents\[[3-9]\]")


def checked_files():
    for path in ROOT.rglob("*"):
        relative = path.relative_to(ROOT)
        if set(relative.parts) & SKIPPED_DIRS or not path.is_file():
            continue
        if relative.parts[:2] == ("tests", "fixtures"):
            continue
        if path.suffix in CHECKED_SUFFIXES or path.name in {"Makefile", "run"}:
            yield path, relative


def test_no_file_reads_outside_the_repository():
    offenders = []
    for path, relative in checked_files():
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                offenders.append(f"{relative}:{number}: {line.strip()}")
    assert offenders == []


def test_the_fixtures_say_where_they_come_from():
    fixtures = ROOT / "tests" / "fixtures"
    for directory in [p for p in fixtures.iterdir() if p.is_dir()]:
        sources = (directory / "SOURCES.md").read_text()
        for fixture in directory.iterdir():
            if fixture.name != "SOURCES.md":
                assert fixture.name in sources, fixture
