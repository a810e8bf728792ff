"""A file past the size limit is refused as it arrives: the rest of it is
kept neither in memory nor on disk, and the form still says which file and
how large it was."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.files.uploadhandler import TemporaryFileUploadHandler
from django.test import RequestFactory

from modeler.infra.uploads import (
    RefusedUpload,
    SizeLimitedUploadHandler,
    upload_size_error,
)

CHUNK = 64 * 1024


def _parse(body_size: int) -> tuple[object, int]:
    """Post one file of `body_size` bytes through the refusing handler and a
    temporary-file handler; give the file the form would see and the bytes
    the temporary-file handler was given to write."""
    written: list[int] = [0]

    class Recording(TemporaryFileUploadHandler):
        def receive_data_chunk(self, raw_data, start):  # type: ignore[no-untyped-def]
            written[0] += len(raw_data)
            return super().receive_data_chunk(raw_data, start)

    content = SimpleUploadedFile("big.jsonl", b"x" * body_size, "application/x-ndjson")
    request = RequestFactory().post("/", data={"file": content})
    request.upload_handlers = [SizeLimitedUploadHandler(request), Recording(request)]
    return request.FILES["file"], written[0]


def test_a_file_over_the_limit_is_not_kept(settings):
    settings.DESIGN_FILE_MAX_BYTES = 100_000
    upload, written = _parse(10 * CHUNK)
    assert isinstance(upload, RefusedUpload)
    assert upload.size == 10 * CHUNK
    assert upload.read() == b""
    # The next handler was given the chunks up to the limit, not the file.
    assert written <= 100_000 + CHUNK
    assert upload_size_error(upload, "item files") == (
        f"big.jsonl is {10 * CHUNK:,} bytes; item files are limited to 100,000 "
        "bytes (setting DESIGN_FILE_MAX_BYTES)."
    )


@pytest.mark.parametrize("size", [1, 100_000])
def test_a_file_within_the_limit_is_read_whole(settings, size):
    settings.DESIGN_FILE_MAX_BYTES = 100_000
    upload, _ = _parse(size)
    assert not isinstance(upload, RefusedUpload)
    assert upload.read() == b"x" * size
    assert upload_size_error(upload, "item files") is None


def test_the_refusing_handler_comes_first(settings):
    assert (
        settings.FILE_UPLOAD_HANDLERS[0]
        == "modeler.infra.uploads.SizeLimitedUploadHandler"
    )
