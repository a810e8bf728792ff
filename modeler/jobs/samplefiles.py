"""The sample data as a file of DynamoDB JSON lines, written by a worker
from the table the simulation job loaded (`modeler.jobs.loaded`) into the
default file storage (MEDIA_ROOT), and served from there: a download of a
large design never makes its items in a web request. A file is named by
the design's data, so editing a pattern keeps it. Files written more than
a day ago are removed as others are written (one asked for again is
written again)."""

from __future__ import annotations

import datetime as dt
import tempfile

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.files import File
from django.core.files.storage import default_storage
from django.utils import timezone

from modeler import design as d
from modeler.jobs.loaded import (
    CACHE_SECONDS,
    TableAnswer,
    table_answer,
    table_answer_forget,
    table_answer_make,
    table_key,
)
from modeler.jobs.tasks import write_sample_file
from modeler.models import Project
from modeler.sampledata.files import write_jsonl
from modeler.simulation import Simulation
from modeler.simulation.cache import data_digest

FOLDER = "sample-data"
LINES_PER_WRITE = 5_000


def sample_file_answer(
    *,
    project: Project,
    design: d.Design,
    user: AbstractBaseUser | AnonymousUser | None = None,
) -> TableAnswer:
    """The name in the default storage of the file of the project's
    current design (its `result`), or what it waits for, or why there is
    none."""
    key = _key(design)

    def ask() -> TableAnswer:
        return table_answer(
            project=project,
            design=design,
            user=user,
            key=key,
            ask=lambda: write_sample_file.enqueue(project.pk, project.version),
        )

    answer = ask()
    if answer.result is not None and not default_storage.exists(answer.result):
        # Removed (a day unasked, or by hand): written again.
        table_answer_forget(key)
        answer = ask()
    return answer


def sample_file_write(*, project_id: int, version: int) -> None:
    """The worker's part: the file of revision `version`, its name kept."""
    table_answer_make(
        project_id=project_id, version=version, key_of=_key, make=_written
    )


def _written(design: d.Design, simulation: Simulation) -> str:
    name = f"{FOLDER}/{data_digest(design)}.jsonl"
    if not default_storage.exists(name):
        with tempfile.TemporaryFile() as spool:
            lines: list[str] = []
            for line in write_jsonl(simulation.items):
                lines.append(line)
                if len(lines) == LINES_PER_WRITE:
                    spool.write(("\n".join(lines) + "\n").encode())
                    lines = []
            if lines:
                spool.write(("\n".join(lines) + "\n").encode())
            spool.seek(0)
            name = default_storage.save(name, File(spool))
    _prune(keep=name)
    return name


def _prune(*, keep: str) -> None:
    """Removes the files nobody asked for in the time an answer is kept."""
    before = timezone.now() - dt.timedelta(seconds=CACHE_SECONDS)
    try:
        _, files = default_storage.listdir(FOLDER)
    except FileNotFoundError:
        return
    for file in files:
        name = f"{FOLDER}/{file}"
        if name != keep and default_storage.get_modified_time(name) < before:
            default_storage.delete(name)


def _key(design: d.Design) -> str:
    return table_key("sample-file", design)
