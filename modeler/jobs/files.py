"""Files the workers write for the pages to serve (the sample data, a
large diagram's PNG), in the default file storage (MEDIA_ROOT), named by
what they show. They are served by views that check access, never by
their path. Files written more than a day ago are removed as others are
written; one asked for again is written again."""

from __future__ import annotations

import datetime as dt
import tempfile
from collections.abc import Callable
from typing import IO

from django.core.files import File
from django.core.files.storage import default_storage
from django.utils import timezone

KEEP_SECONDS = 24 * 60 * 60


def file_write(name: str, write: Callable[[IO[bytes]], object]) -> str:
    """The file `name` (folder/file), written by `write` unless it is
    there; its name in the storage."""
    if not default_storage.exists(name):
        with tempfile.TemporaryFile() as spool:
            write(spool)
            spool.seek(0)
            name = default_storage.save(name, File(spool))
    _prune(name)
    return name


def file_exists(name: str) -> bool:
    return default_storage.exists(name)


def file_open(name: str) -> IO[bytes]:
    return default_storage.open(name, "rb")


def _prune(kept: str) -> None:
    """Removes the files of `kept`'s folder written before the time an
    answer is kept (but `kept`)."""
    folder = kept.rpartition("/")[0]
    before = timezone.now() - dt.timedelta(seconds=KEEP_SECONDS)
    try:
        _, files = default_storage.listdir(folder)
    except FileNotFoundError:
        return
    for file in files:
        name = f"{folder}/{file}"
        if name != kept and default_storage.get_modified_time(name) < before:
            default_storage.delete(name)
