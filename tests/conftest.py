"""Fixtures for every test. The project fixtures, which make these users an
owner, editor or viewer of a project, live in tests/views/conftest.py."""

from __future__ import annotations

import os
from typing import Any

import boto3
import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from hypothesis import settings as hypothesis_settings

from modeler.conversion import forget_decoded
from modeler.exporters import cfnlint
from modeler.infra import processes
from modeler.jobs.reviews import forget_reviews
from modeler.jobs.runner import forget_runs

# `make test` runs the tests that use the database a second time on
# PostgreSQL (TEST_DATABASE_URL), with this variable set: the others, which
# need no database, ran once already.
DATABASE_TESTS_ONLY = os.environ.get("WORKBENCH_DATABASE_TESTS_ONLY") == "1"
_DATABASE_FIXTURES = {"db", "transactional_db", "django_db_reset_sequences"}


def pytest_collection_modifyitems(config, items) -> None:
    if not DATABASE_TESTS_ONLY:
        return
    kept, skipped = [], []
    for item in items:
        uses_database = item.get_closest_marker("django_db") is not None or bool(
            _DATABASE_FIXTURES & set(getattr(item, "fixturenames", ()))
        )
        # The browser tests drive the same views end to end; once is enough.
        browser = item.get_closest_marker("browser") is not None or (
            "live_server" in getattr(item, "fixturenames", ())
        )
        (kept if uses_database and not browser else skipped).append(item)
    if skipped:
        config.hook.pytest_deselected(items=skipped)
        items[:] = kept


# Property tests check behaviour, not speed (bench/ does): no per-example
# deadline, which a loaded CI machine would miss now and then.
hypothesis_settings.register_profile("workbench", deadline=None)
hypothesis_settings.load_profile("workbench")


@pytest.fixture(autouse=True, scope="session")
def _process_slots_of_this_test_process(tmp_path_factory):
    # The slots that bound Graphviz, cfn-lint and JavaScript module runs are
    # the machine's (every process of the user shares them), and every test
    # run on the machine took them: on a busy machine other runs' cfn-lint
    # held both past the 10 s wait, and a module import here failed as
    # "busy". Each test process (an xdist worker) has slots of its own, as
    # many; tests/test_processes.py checks the sharing itself.
    previous = processes.current()
    processes.configure(
        processes.Slots(tmp_path_factory.mktemp("process-slots"), count=previous.count)
    )
    yield
    processes.configure(previous)


@pytest.fixture(autouse=True, scope="session")
def _cfn_lint_time_for_a_busy_machine():
    # cfn-lint takes 5-10 s of CPU; with two suites on two shared cores
    # one run passed the site's 30 s limit and its test failed as "timed
    # out". The limit itself is tested with an explicit timeout.
    limit = cfnlint.TIME_LIMIT_SECONDS
    cfnlint.TIME_LIMIT_SECONDS = 600
    yield
    cfnlint.TIME_LIMIT_SECONDS = limit


@pytest.fixture(autouse=True)
def _no_designs_from_other_tests(settings):
    # Tests that empty the database start revision ids again from 1, and
    # project ids: the cache keeps key proposals by project and version.
    # The cache is this process's memory, not the database's table (tests
    # without a database use it too); tests/jobs, whose worker is another
    # process, share the table (the database_cache fixture).
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    }
    forget_decoded()
    forget_reviews()
    forget_runs()
    cache.clear()


@pytest.fixture
def database_cache(settings):
    """The cache in the database's table, as the processes share it in
    production. Emptied before and after: a transactional test's flush
    empties the models' tables, not the cache's, so an entry one test
    left (a job's answer, a pending mark) would reach the next."""
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "workbench_cache",
        }
    }
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def _jobs_run_at_once(settings):
    # Background jobs run inside the request that queues them, so a view's
    # answer already shows their results; tests/jobs queue them in the
    # database and run the real worker.
    settings.TASKS = {
        "default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}
    }


@pytest.fixture(autouse=True)
def _files_in_a_temporary_directory(settings, tmp_path):
    # What workers write for the pages (sample data files), never in var/.
    settings.MEDIA_ROOT = str(tmp_path / "files")


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _user(name: str) -> User:
    return User.objects.create_user(username=name, password=f"pw-{name}")


@pytest.fixture
def owner(db) -> User:
    return _user("owner")


@pytest.fixture
def editor(db) -> User:
    return _user("editor")


@pytest.fixture
def viewer(db) -> User:
    return _user("viewer")


@pytest.fixture
def outsider(db) -> User:
    return _user("outsider")


# --- moto's DynamoDB server, for the commands that talk to an endpoint -----

REGION = "us-east-1"


@pytest.fixture(scope="module")
def moto_url() -> Any:
    """moto's server on a free port, for one test module."""
    from moto.server import ThreadedMotoServer  # slow to import

    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    yield f"http://{host}:{port}"
    server.stop()


@pytest.fixture
def aws(monkeypatch, moto_url) -> Any:
    """Dummy credentials in the environment, and a client to look at what
    a command left on the server."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "testing")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "testing")
    monkeypatch.delenv("AWS_SESSION_TOKEN", raising=False)
    monkeypatch.delenv("AWS_PROFILE", raising=False)
    return boto3.client("dynamodb", endpoint_url=moto_url, region_name=REGION)
