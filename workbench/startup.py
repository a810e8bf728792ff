"""Settings loaded at start-up, before anything else, so that a malformed or
unsafe environment variable stops the process with one line naming it
instead of a traceback (manage.py, wsgi.py, asgi.py)."""

from __future__ import annotations

import sys

from django.core.exceptions import ImproperlyConfigured


def settings_or_exit(*, status: int = 1) -> None:
    from django.conf import settings

    try:
        settings.INSTALLED_APPS  # noqa: B018 (reading it loads the settings)
    except ImproperlyConfigured as exc:
        print(f"workbench: {exc}", file=sys.stderr)
        raise SystemExit(status) from None
