"""The sample data as a file of DynamoDB JSON lines, written by a worker
from the table the simulation job loaded (`modeler.jobs.loaded`), kept as
a file (`modeler.jobs.files`) named by the design's data, so editing a
pattern keeps it: a download of a large design never makes its items in a
web request."""

from __future__ import annotations

from typing import IO

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django_tasks import task

from modeler.design import model as d
from modeler.jobs.budget import BudgetExceeded
from modeler.jobs.files import file_write
from modeler.jobs.loaded_tables import (
    Refused,
    TableAnswer,
    table_answer_make,
    table_file_answer,
    table_file_find,
    table_key,
)
from modeler.models import Project
from modeler.sampledata.files import write_jsonl
from modeler.simulation import Simulation
from modeler.simulation.cache import data_digest

LINES_PER_WRITE = 5_000


def sample_file_answer(
    *,
    project: Project,
    design: d.Design,
    user: AbstractBaseUser | AnonymousUser | None = None,
) -> TableAnswer:
    """The name of the file of the project's current design (its
    `result`), or what it waits for, or why there is none; asked for if
    need be (a POST: a GET finds it, `sample_file_find`)."""
    return table_file_answer(
        project=project,
        design=design,
        user=user,
        key=_key(design),
        ask=lambda: write_sample_file.enqueue(project.pk, project.version),
    )


def sample_file_find(*, project: Project, design: d.Design) -> TableAnswer:
    """`sample_file_answer` as a download (a GET) finds it: nothing is
    asked; `to_start` when a POST has to."""
    return table_file_find(project=project, design=design, key=_key(design))


@task()
def write_sample_file(project_id: int, version: int) -> None:
    """The task of a revision's sample data file."""
    sample_file_write(project_id=project_id, version=version)


def sample_file_write(*, project_id: int, version: int) -> None:
    """The worker's part: the file of revision `version`, its name kept."""
    table_answer_make(
        project_id=project_id, version=version, key_of=_key, make=_written
    )


def _written(design: d.Design, simulation: Simulation) -> str:
    """The file's name, written; Refused past SAMPLE_FILE_MAX_BYTES: at
    once when the items alone take more (their DynamoDB JSON is larger
    still), else where the writing passes it."""
    limit = settings.SAMPLE_FILE_MAX_BYTES
    if sum(simulation.item_sizes) > limit:
        raise Refused(_too_large(BudgetExceeded("disk", 0, limit)))

    def write(file: IO[bytes]) -> None:
        lines: list[str] = []
        for line in write_jsonl(simulation.items):
            lines.append(line)
            if len(lines) == LINES_PER_WRITE:
                file.write(("\n".join(lines) + "\n").encode())
                lines = []
        if lines:
            file.write(("\n".join(lines) + "\n").encode())

    name = f"sample-data/{data_digest(design)}.jsonl"
    try:
        return file_write(name, write, max_bytes=limit)
    except BudgetExceeded as exc:
        raise Refused(_too_large(exc)) from None


def _too_large(exc: BudgetExceeded) -> str:
    return (
        f"The sample data file would pass {exc.budget_named()}: lower the "
        "counts in Sample data, or the max_length of large text and binary "
        "attributes."
    )


def _key(design: d.Design) -> str:
    return table_key("sample-file", design)
