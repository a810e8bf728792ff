"""`manage.py db_worker`: django-tasks-db's command, with the options it
documents, running the workbench's worker (`modeler.jobs.worker`), which
survives a database restart and takes the projects' jobs in turn. It
replaces the library's command of the same name because `modeler` comes
before `django_tasks_db` in INSTALLED_APPS."""

from __future__ import annotations

import os
from typing import Any

from django.core.management.base import CommandError
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker

from modeler.jobs.worker import Worker


class Command(db_worker.Command):
    help = (
        "Run a background worker: it takes the jobs queued in the database, "
        "the projects in turn, and waits for the database when it cannot be "
        "reached"
    )

    def handle(  # type: ignore[override]
        self,
        *,
        verbosity: int,
        queue_name: str,
        interval: float,
        batch: bool,
        backend_name: str,
        startup_delay: bool,
        reload: bool,
        max_tasks: int | None,
        worker_id: str,
        exclude_queues: str,
        **options: Any,
    ) -> None:
        self.configure_logging(verbosity)
        if reload and batch:
            db_worker.logger.warning(
                "Warning: --reload and --batch cannot be specified together. "
                "Disabling autoreload."
            )
            reload = False
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = Worker(
            queue_names=queue_names,
            interval=interval,
            batch=batch,
            backend_name=backend_name,
            startup_delay=startup_delay,
            max_tasks=max_tasks,
            worker_id=worker_id,
            excluded_queue_names=excluded,
        )
        if reload:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                # Only the reloaded child handles the signals.
                worker.configure_signals()
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
