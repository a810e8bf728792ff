"""The job worker that `manage.py db_worker` runs: django-tasks-db's, which
survives the database going away and takes the projects' tasks in turn.

django-tasks-db's own worker exits on the first database error outside a
task, and within one records the failure on the connection that just
died (three times), then exits too: a PostgreSQL restart of a second
stopped every worker until someone started them again. This one closes
the connection, waits (1 s, doubling up to a minute) and goes on, and the
task that was running when the database went is marked failed once it is
back (`recovery`), its simulation saying to run it again. Between tasks
and every half minute while idle it also fails the tasks of workers that
are gone (`recovery.lost_tasks_fail`), and it takes tasks in the order
`fairness.claim_order` gives."""

from __future__ import annotations

import logging
import random
import time

from django.db import OperationalError, close_old_connections
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from modeler.infra.database import DATABASE_LOST, connections_drop
from modeler.jobs.fairness import CANDIDATES, claim_order
from modeler.jobs.recovery import lost_tasks_fail

logger = logging.getLogger("django_tasks_db")

FIRST_RETRY_SECONDS = 1.0
LAST_RETRY_SECONDS = 60.0
# How often an idle worker looks for the tasks of workers that are gone.
LOST_CHECK_SECONDS = 30.0


class Worker(db_worker.Worker):
    def run(self) -> None:
        logger.info(
            "Starting worker worker_id=%s queues=%s",
            self.worker_id,
            ",".join(self.queue_names),
        )
        if self.startup_delay and self.interval:
            # Workers started together do not all poll at once.
            time.sleep(random.random())  # noqa: S311
        retry = FIRST_RETRY_SECONDS
        disconnected = False
        checked = None  # never: at start, between tasks and after a reconnect
        while self.running:
            task_result = None
            try:
                # A connection that had an error and no longer answers, or
                # that the server dropped while idle, is replaced here.
                close_old_connections()
                if checked is None or time.monotonic() - checked >= LOST_CHECK_SECONDS:
                    lost_tasks_fail(worker_id=self.worker_id, disconnected=disconnected)
                    checked = time.monotonic()
                disconnected, retry = False, FIRST_RETRY_SECONDS
                task_result = self._claim()
                if task_result is not None:
                    self.run_task(task_result)
                    checked = None
            except DATABASE_LOST as exc:
                if isinstance(exc, OperationalError) and is_locked_database_exception(
                    exc
                ):
                    continue  # SQLite's lock, held by another writer: wait on it
                logger.warning(
                    "The database cannot be reached (%s): worker_id=%s tries "
                    "again in %.0f s",
                    str(exc).strip() or type(exc).__name__,
                    self.worker_id,
                    retry,
                )
                disconnected, checked = True, None
                connections_drop()
                time.sleep(retry)
                retry = min(retry * 2, LAST_RETRY_SECONDS)
                continue
            if self.batch and task_result is None:
                logger.info(
                    "No more tasks to run for worker_id=%s - exiting gracefully.",
                    self.worker_id,
                )
                return
            if self.max_tasks is not None and self._run_tasks >= self.max_tasks:
                logger.info(
                    "Run maximum tasks (%d) on worker=%s - exiting gracefully.",
                    self._run_tasks,
                    self.worker_id,
                )
                return
            close_old_connections()
            if self.running and task_result is None:
                time.sleep(self.interval)

    def _claim(self) -> DBTaskResult | None:
        """The next task, marked as this worker's; None when none is ready."""
        tasks = DBTaskResult.objects.ready().filter(backend_name=self.backend_name)
        if not self.process_all_queues:
            tasks = tasks.filter(queue_name__in=self.queue_names)
        if self.excluded_queue_names:
            tasks = tasks.exclude(queue_name__in=self.excluded_queue_names)
        with exclusive_transaction(tasks.db):
            for candidate in claim_order(list(tasks[:CANDIDATES])):
                # Another worker may have taken it since: then the next.
                task_result = (
                    tasks.filter(pk=candidate.pk)
                    .select_for_update(skip_locked=True)
                    .first()
                )
                if task_result is not None:
                    task_result.claim(self.worker_id)
                    return task_result
        return None
