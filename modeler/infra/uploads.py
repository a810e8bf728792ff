"""Uploads refused as they arrive: a file past the size limit is not kept,
in memory or on disk, however large it is."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import FileUploadHandler


class RefusedUpload(SimpleUploadedFile):
    """What is left of a file refused for its size: its name and its size,
    over the limit, for the form to say so (see `upload_size_error`)."""

    def __init__(self, name: str, size: int, content_type: str) -> None:
        super().__init__(name, b"", content_type)
        self.size = size


class SizeLimitedUploadHandler(FileUploadHandler):
    """The first upload handler: it passes each chunk on to Django's memory
    and temporary-file handlers until the file passes
    DESIGN_FILE_MAX_BYTES, then keeps none of the rest (it still sees every
    chunk, so it counts them), and gives the form a RefusedUpload instead
    of the file."""

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0
        self.refused = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes | None:
        self.received += len(raw_data)
        if self.received > settings.DESIGN_FILE_MAX_BYTES:
            self.refused = True
        return None if self.refused else raw_data

    def file_complete(self, file_size: int) -> RefusedUpload | None:
        if not self.refused:
            return None  # the next handler has the file
        return RefusedUpload(self.file_name, file_size, self.content_type)


def upload_size_error(upload: Any, what: str) -> str | None:
    """The message for an upload over the limit, or None: `what` names the
    kind of file ("design files")."""
    limit = settings.DESIGN_FILE_MAX_BYTES
    if upload.size <= limit:
        return None
    return (
        f"{upload.name} is {upload.size:,} bytes; "
        f"{what} are limited to {limit:,} bytes (setting DESIGN_FILE_MAX_BYTES)."
    )
