"""`manage.py load_examples`: the designs in examples/ as projects of a demo
account; prints how to log in.

It creates the examples that are missing and leaves the others as they are:
`make run` runs it on every start, and a project's id (its shared links),
its edits and its members must survive a restart. `--reset` puts the example
design back into each of them on purpose, as a new revision (the edits stay
in the history)."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from modeler.examples import ExampleError, examples
from modeler.models import Project, Revision
from modeler.selectors import project_design
from modeler.services.projects import LimitError, project_create, project_save_design


class Command(BaseCommand):
    help = "Load the example designs into a demo account and print its login."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--username", default="demo")
        parser.add_argument(
            "--reset",
            action="store_true",
            help="put the example designs back into the demo account's "
            "projects that were edited (a new revision of each)",
        )

    @transaction.atomic
    def handle(self, *args: Any, username: str, reset: bool, **options: Any) -> None:
        if not settings.DEBUG:
            raise CommandError(
                "load_examples creates an account with a known "
                "password; it only runs with DEBUG on"
            )
        try:
            designs = [example.design for example in examples()]
        except ExampleError as exc:
            raise CommandError(str(exc)) from exc
        user, password = self._demo_user(username)
        existing = {
            project.name: project
            for project in Project.objects.filter(
                owner=user, name__in=[design.name for design in designs]
            ).order_by("pk")
        }
        created, kept, restored = [], [], []
        for design in designs:
            project = existing.get(design.name)
            if project is None:
                project_create(owner=user, design=design)
                created.append(design.name)
            elif reset and project_design(project=project) != design:
                try:
                    project_save_design(
                        project=project,
                        design=design,
                        version=project.version,
                        author=user,
                        kind=Revision.Kind.RESTORE,
                        summary="restored the example design",
                    )
                except LimitError as exc:
                    raise CommandError(f"{design.name}: {exc}") from None
                restored.append(design.name)
            else:
                kept.append(design.name)
        for verb, names in (
            ("Loaded", created),
            ("Restored", restored),
            ("Kept as they are", kept),
        ):
            if names:
                self.stdout.write(self.style.SUCCESS(f"{verb}: {', '.join(names)}"))
        if kept and not reset:
            self.stdout.write(
                "(load_examples --reset puts the example designs back into "
                "edited projects)"
            )
        self.stdout.write(f"Log in as '{username}' with password '{password}'")

    def _demo_user(self, username: str) -> tuple[AbstractBaseUser, str]:
        """The demo user, with the password kept in var/ so every run of
        `make run` prints the same one."""
        password_file = Path(settings.BASE_DIR) / "var" / f"{username}-password"
        if password_file.exists():
            password = password_file.read_text().strip()
        else:
            password = secrets.token_urlsafe(9)
            password_file.parent.mkdir(exist_ok=True)
            password_file.touch(mode=0o600)
            password_file.write_text(password)
        user, _ = get_user_model().objects.get_or_create(username=username)
        if not user.check_password(password):
            user.set_password(password)
            user.save()
        return user, password
