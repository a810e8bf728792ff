"""The database going away (a restart, a failover, the network): the
errors it gives, and the connections dropped so that their next use opens
them again. A request or a job that meets them saves nothing; the worker
waits for the database (`modeler.jobs.worker`) and the pages say to try
again (`workbench.middleware.DatabaseUnreachableMiddleware`)."""

from __future__ import annotations

import contextlib

from django.db import DatabaseError, InterfaceError, OperationalError, connections

DATABASE_LOST = (OperationalError, InterfaceError)


def connections_drop() -> None:
    """Closes this thread's connections, to be opened again at their next
    use: Django opens one again only once it is closed. One inside a
    transaction is left to whoever opened the transaction (to roll back)."""
    for connection in connections.all(initialized_only=True):
        if connection.in_atomic_block:
            continue
        # Closing one the server dropped fails; Django forgets it all the same.
        with contextlib.suppress(DatabaseError):
            connection.close()
