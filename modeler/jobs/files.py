"""Files the workers write for the pages to serve (the sample data, a
large diagram's PNG), in the default file storage (MEDIA_ROOT), named by
what they show. They are served by views that check access, never by
their path. A file may be given a size it must not pass (the sample data
file's SAMPLE_FILE_MAX_BYTES): the worker stops writing it there. As
others are written, files written more than a day ago are removed, and,
while the files together pass MEDIA_MAX_BYTES, the oldest; one asked for
again is written again."""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import Callable, Iterator
from typing import IO

from django.conf import settings
from django.core.files import File
from django.core.files.storage import default_storage
from django.utils import timezone

from modeler.jobs.budget import BudgetExceeded

KEEP_SECONDS = 24 * 60 * 60


class _Capped:
    """A file that takes at most `limit` bytes: past them, BudgetExceeded
    (of kind "disk") and nothing more is written."""

    def __init__(self, file: IO[bytes], limit: int) -> None:
        self.file, self.limit, self.written = file, limit, 0

    def write(self, data: bytes) -> int:
        self.written += len(data)
        if self.written > self.limit:
            raise BudgetExceeded("disk", self.written, self.limit)
        return self.file.write(data)


def file_write(
    name: str,
    write: Callable[[IO[bytes]], object],
    *,
    max_bytes: int | None = None,
) -> str:
    """The file `name` (folder/file), written by `write` unless it is
    there; its name in the storage. Past `max_bytes`, BudgetExceeded and no
    file."""
    if not default_storage.exists(name):
        with tempfile.TemporaryFile() as spool:
            write(spool if max_bytes is None else _Capped(spool, max_bytes))  # type: ignore[arg-type]
            spool.seek(0)
            name = default_storage.save(name, File(spool))
    _prune(name)
    return name


def file_exists(name: str) -> bool:
    return default_storage.exists(name)


def file_open(name: str) -> IO[bytes]:
    return default_storage.open(name, "rb")


def _prune(kept: str) -> None:
    """Removes the files (but `kept`) written before the time an answer is
    kept, then the oldest while they take more than MEDIA_MAX_BYTES."""
    files = sorted(_files(""), key=lambda file: file[2])
    total = sum(size for _, size, _ in files)
    before = timezone.now() - dt.timedelta(seconds=KEEP_SECONDS)
    for name, size, modified in files:
        if name == kept:
            continue
        if modified >= before and total <= settings.MEDIA_MAX_BYTES:
            break
        default_storage.delete(name)  # nothing if another worker did
        total -= size


def _files(folder: str) -> Iterator[tuple[str, int, dt.datetime]]:
    """Every file under `folder`: its name, size and time written."""
    try:
        folders, files = default_storage.listdir(folder)
    except FileNotFoundError:
        return
    prefix = f"{folder}/" if folder else ""
    for file in files:
        name = prefix + file
        try:
            yield (
                name,
                default_storage.size(name),
                default_storage.get_modified_time(name),
            )
        except FileNotFoundError:
            continue  # removed since the listing
    for inner in folders:
        yield from _files(prefix + inner)
