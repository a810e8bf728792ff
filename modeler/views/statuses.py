"""The statuses of the answers that are not errors of the server.

A form sent back with its reasons beside the fields answers 422, not 400:
with DEBUG on, django-htmx's error handler replaces the whole document with
the body of a 400, 403, 404 or 500 answer to htmx (to show Django's debug
page), which would leave a bare form where the page was. For the same reason
an element someone else removed answers htmx with 410 and the section as it
is now; a plain page load of it is a 404.
"""

from __future__ import annotations

from django.http import HttpRequest

INVALID = 422
STALE = 409
# A save that met the database going away: nothing saved, try again.
UNAVAILABLE = 503


def gone(request: HttpRequest) -> int:
    """The status of a section that says the element asked for is gone."""
    return 410 if request.htmx and not request.htmx.boosted else 404
