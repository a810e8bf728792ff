"""`manage.py load_examples`: the designs in examples/ as projects of a demo
account, replaced on every run; prints how to log in."""

from __future__ import annotations

import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from modeler.designfile import read_design
from modeler.models import Project
from modeler.services import project_create

EXAMPLES_DIR = Path(settings.BASE_DIR) / "examples"


class Command(BaseCommand):
    help = "Load the example designs into a demo account and print its login."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("--username", default="demo")

    @transaction.atomic
    def handle(self, *args, username: str, **options):  # type: ignore[no-untyped-def]
        if not settings.DEBUG:
            raise CommandError(
                "load_examples creates an account with a known "
                "password; it only runs with DEBUG on"
            )
        designs = []
        for path in sorted(EXAMPLES_DIR.glob("*.yaml")):
            result = read_design(path.read_bytes())
            if result.design is None:
                problems = "\n".join(str(p) for p in result.problems)
                raise CommandError(f"{path.name} has errors:\n{problems}")
            designs.append(result.design)
        user, password = self._demo_user(username)
        names = [design.name for design in designs]
        Project.objects.filter(owner=user, name__in=names).delete()
        for design in designs:
            project_create(owner=user, design=design)
        self.stdout.write(
            self.style.SUCCESS(
                f"Loaded {len(designs)} example designs: {', '.join(names)}"
            )
        )
        self.stdout.write(f"Log in as '{username}' with password '{password}'")

    def _demo_user(self, username: str):  # type: ignore[no-untyped-def]
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
