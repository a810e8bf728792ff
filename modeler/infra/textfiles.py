"""A file's bytes as text, for every reader of design and model files: one
size limit and one decoding, with the same messages."""

from __future__ import annotations


class TextFileError(ValueError):
    """A file too large or not UTF-8; the message says which and by how much."""


def file_text(source: str | bytes, *, max_bytes: int, kind: str) -> str:
    """The text of a file read whole (a leading byte-order mark dropped), or
    TextFileError: `kind` names the files in the message ("design files")."""
    size = len(source.encode("utf-8") if isinstance(source, str) else source)
    if size > max_bytes:
        raise TextFileError(
            f"the file is {size:,} bytes; {kind} are limited to {max_bytes:,} bytes"
        )
    if isinstance(source, str):
        return source.removeprefix("\ufeff")
    try:
        return source.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TextFileError(f"the file is not UTF-8 text (byte {exc.start})") from None
