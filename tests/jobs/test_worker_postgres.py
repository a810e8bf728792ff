"""The worker survives PostgreSQL restarts, for real: a throwaway server
(Debian's binaries, as .ci/run starts one) restarted while the worker
(`manage.py db_worker`, in a process of its own, as systemd runs it)
idles and while it runs a job. The worker stays up, the job the restart
cut off ends failed with a message saying to run it again, and the next
job completes.

It needs the server's data directory to stop and start it, so it starts
its own server rather than use TEST_DATABASE_URL's. It runs once: in the
PostgreSQL pass of `make test` when there is one (it counts among the
database tests), else in the first."""

from __future__ import annotations

import contextlib
import glob
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from modeler.jobs.recovery import DISCONNECTED

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
QUEUE_JOB = """
import dataclasses
from django.contrib.auth.models import User
from modeler.services import projects as services
from modeler.conversion import design_from_project
from modeler.jobs import services as jobs
from tests.views.conftest import example_design, with_roots

owner, _ = User.objects.get_or_create(username="owner")
design = with_roots(example_design("order-management"), {roots})
project = services.project_create(
    owner=owner, design=dataclasses.replace(design, name="{name}")
)
job = jobs.simulation_job_for(
    project=project, design=design_from_project(project), user=owner
)
print(job.pk)
"""


@dataclass
class Server:
    binaries: Path
    data: Path
    port: int
    log: Path
    media: Path

    @property
    def url(self) -> str:
        return f"postgres://workbench@127.0.0.1:{self.port}/workbench"

    def pg_ctl(self, *arguments: str) -> None:
        _as_postgres(
            [
                str(self.binaries / "pg_ctl"),
                "-D",
                str(self.data),
                "-l",
                str(self.log),
                "-w",
                *arguments,
            ]
        )

    def start(self) -> None:
        options = (
            f"-p {self.port} -k {self.data.parent} -c listen_addresses=127.0.0.1 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        self.pg_ctl("-o", options, "start")


def _as_postgres(command: list[str]) -> None:
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        command = ["runuser", "-u", "postgres", "--", *command]
    subprocess.run(command, check=True, capture_output=True, timeout=120)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def postgres() -> Iterator[Server]:
    if os.environ.get("TEST_DATABASE_URL") and connection.vendor != "postgresql":
        pytest.skip("runs in the PostgreSQL pass of `make test`")
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        pytest.skip("no PostgreSQL server binaries: sudo apt-get install postgresql")
    if os.geteuid() == 0:
        try:
            postgres_user = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root, and there is no postgres user to run as")
    directory = Path(tempfile.mkdtemp(prefix="workbench-test-postgres-"))
    if os.geteuid() == 0:
        os.chown(directory, postgres_user.pw_uid, postgres_user.pw_gid)
    binaries = Path(found[-1]).parent
    server = Server(
        binaries, directory / "data", _free_port(), directory / "log", directory
    )
    try:
        _as_postgres(
            [
                str(binaries / "initdb"),
                "-D",
                str(server.data),
                "--username=workbench",
                "--auth=trust",
                "--encoding=UTF8",
                "--locale=C.UTF-8",
            ]
        )
        server.start()
        _as_postgres(
            [
                str(binaries / "createdb"),
                "-h",
                "127.0.0.1",
                "-p",
                str(server.port),
                "-U",
                "workbench",
                "workbench",
            ]
        )
        _manage(server, "migrate", "--noinput")
        yield server
    finally:
        with contextlib.suppress(subprocess.SubprocessError):
            server.pg_ctl("-m", "immediate", "stop")
        shutil.rmtree(directory, ignore_errors=True)


def _environment(server: Server) -> dict[str, str]:
    environment = {
        **os.environ,
        "DATABASE_URL": server.url,
        "SECRET_KEY": "a test key that is only used by these processes",
        "MEDIA_ROOT": str(server.media / "files"),
        "LOG_LEVEL": "WARNING",
    }
    environment.pop("WORKBENCH_DATABASE_TESTS_ONLY", None)
    return environment


def _manage(server: Server, *arguments: str) -> str:
    done = subprocess.run(  # our own command
        [sys.executable, "manage.py", *arguments],
        cwd=ROOT,
        env=_environment(server),
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _queue_job(server: Server, *, name: str, roots: int) -> int:
    """A project's simulation job queued, as its Simulation page does."""
    script = QUEUE_JOB.format(name=name, roots=roots)
    return int(_manage(server, "shell", "-c", script).split()[-1])


class Rows:
    """Reads the job rows from the server, reconnecting across restarts."""

    def __init__(self, server: Server) -> None:
        self.server = server
        self.connection: psycopg.Connection | None = None

    def one(self, sql: str, *parameters: object) -> tuple:
        for _ in range(2):
            try:
                if self.connection is None or self.connection.closed:
                    self.connection = psycopg.connect(self.server.url, autocommit=True)
                return self.connection.execute(sql, parameters).fetchone()
            except psycopg.OperationalError:
                self.connection = None
        return ()

    def job(self, job_id: int) -> tuple:
        return self.one(
            "SELECT state, message FROM modeler_simulationjob WHERE id = %s", job_id
        )

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


def wait_until(condition, *, what: str, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            pytest.fail(f"gave up waiting for {what}")
        time.sleep(0.1)


def test_the_worker_survives_postgresql_restarts(postgres, tmp_path):
    log = tmp_path / "worker.log"
    rows = Rows(postgres)
    with log.open("w") as output:
        worker = subprocess.Popen(  # our own command
            [
                sys.executable,
                "manage.py",
                "db_worker",
                "--no-reload",
                "--interval",
                "0.2",
                "--worker-id",
                "test-host-1",
            ],
            cwd=ROOT,
            env=_environment(postgres),
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:

        def alive() -> bool:
            assert worker.poll() is None, log.read_text()
            return True

        def done(job_id: int) -> bool:
            alive()
            state = rows.job(job_id)
            assert not state or state[0] in ("queued", "running", "done"), state
            return bool(state) and state[0] == "done"

        first = _queue_job(postgres, name="First", roots=3)
        wait_until(lambda: done(first), what="the first job")

        # A restart as the issue saw it, while the worker idles.
        postgres.pg_ctl("-m", "fast", "restart")
        after_restart = _queue_job(postgres, name="After a restart", roots=3)
        wait_until(lambda: done(after_restart), what="the job after a restart")

        # The server down long enough for the worker to find it gone.
        postgres.pg_ctl("-m", "fast", "stop")
        wait_until(
            lambda: alive() and "cannot be reached" in log.read_text(),
            what="the idle worker to find the database gone",
        )
        postgres.start()
        after_outage = _queue_job(postgres, name="After an outage", roots=3)
        wait_until(lambda: done(after_outage), what="the job after an outage")

        # Down while a job runs (about 50,000 items: seconds of work).
        long = _queue_job(postgres, name="Long", roots=1500)
        wait_until(
            lambda: alive() and rows.job(long)[0] == "running",
            what="the long job to start",
        )
        reported = log.read_text().count("cannot be reached")
        postgres.pg_ctl("-m", "fast", "stop")
        wait_until(
            lambda: alive() and log.read_text().count("cannot be reached") > reported,
            what="the worker to lose the database in the job",
        )
        postgres.start()
        wait_until(
            lambda: alive() and rows.job(long)[0] != "running",
            what="the cut-off job to end",
        )
        assert rows.job(long) == ("failed", DISCONNECTED)
        assert rows.one(
            "SELECT status FROM django_tasks_database_dbtaskresult WHERE id = "
            "(SELECT task_id::uuid FROM modeler_simulationjob WHERE id = %s)",
            long,
        ) == ("FAILED",)

        last = _queue_job(postgres, name="Last", roots=3)
        wait_until(lambda: done(last), what="the job after the cut-off one")
        assert rows.one(
            "SELECT count(*) FROM django_tasks_database_dbtaskresult "
            "WHERE status IN ('READY', 'RUNNING')"
        ) == (0,)
    finally:
        rows.close()
        worker.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.wait(timeout=60)
        if worker.poll() is None:
            worker.kill()
