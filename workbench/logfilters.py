"""Filters of the log's records."""

from __future__ import annotations

import logging


class QuietForbidden(logging.Filter):
    """A refused request (403: a viewer's write, a missing CSRF token) is
    logged as its one line: the traceback of PermissionDenied that Django
    adds tells an operator nothing, and filled the log at every refusal."""

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "status_code", None) == 403:
            record.exc_info = None
            record.exc_text = None
        return True
