from __future__ import annotations

import logging
import os
import secrets
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from workbench.env import (
    env_bool,
    env_database_url,
    env_int,
    env_list,
    env_str,
    generated_secret_key,
)
from workbench.logfilters import QuietForbidden

BASE_DIR = Path(__file__).resolve().parent.parent


@pytest.fixture
def env(monkeypatch):
    """Sets one variable, WB_TEST, for the helper under test."""

    def set_value(value: str) -> None:
        monkeypatch.setenv("WB_TEST", value)

    monkeypatch.delenv("WB_TEST", raising=False)
    return set_value


def test_env_str(env):
    assert env_str("WB_TEST", default="fallback") == "fallback"
    env("value")
    assert env_str("WB_TEST") == "value"


def test_env_str_required(env):
    with pytest.raises(ImproperlyConfigured, match="WB_TEST"):
        env_str("WB_TEST")


def test_env_str_blank_counts_as_unset(env):
    env("  ")
    assert env_str("WB_TEST", default="fallback") == "fallback"


def test_env_str_choices(env):
    env("INFO")
    assert env_str("WB_TEST", choices=("DEBUG", "INFO")) == "INFO"
    env("LOUD")
    with pytest.raises(ImproperlyConfigured, match="WB_TEST must be one of DEBUG"):
        env_str("WB_TEST", choices=("DEBUG", "INFO"))


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1", True),
        ("true", True),
        ("TRUE", True),
        ("Yes", True),
        ("on", True),
        ("0", False),
        ("false", False),
        ("False", False),
        ("NO", False),
        ("off", False),
    ],
)
def test_env_bool(env, value, expected):
    env(value)
    assert env_bool("WB_TEST") is expected


@pytest.mark.parametrize("value", ["2", "maybe", "enabled", "t"])
def test_env_bool_malformed(env, value):
    env(value)
    with pytest.raises(ImproperlyConfigured, match="WB_TEST must be a boolean"):
        env_bool("WB_TEST", default=False)


def test_env_bool_default(env):
    assert env_bool("WB_TEST", default=True) is True
    with pytest.raises(ImproperlyConfigured, match="WB_TEST"):
        env_bool("WB_TEST")


def test_env_int(env):
    assert env_int("WB_TEST", default=7) == 7
    env("1_000_000")
    assert env_int("WB_TEST") == 1_000_000
    env("-3")
    assert env_int("WB_TEST") == -3


@pytest.mark.parametrize("value", ["ten", "1.5", "0x10", "1e6"])
def test_env_int_malformed(env, value):
    env(value)
    with pytest.raises(ImproperlyConfigured, match="WB_TEST must be an integer"):
        env_int("WB_TEST", default=0)


def test_env_int_min_value(env):
    env("-1")
    with pytest.raises(ImproperlyConfigured, match="WB_TEST must be an integer >= 0"):
        env_int("WB_TEST", default=0, min_value=0)


def test_env_list(env):
    assert env_list("WB_TEST", default=["a"]) == ["a"]
    env("example.com, www.example.com ,localhost")
    assert env_list("WB_TEST") == ["example.com", "www.example.com", "localhost"]


@pytest.mark.parametrize("value", ["a,,b", "a,", ",a", " , "])
def test_env_list_malformed(env, value):
    env(value)
    with pytest.raises(ImproperlyConfigured, match="WB_TEST must be a comma-sep"):
        env_list("WB_TEST", default=[])


def test_env_list_required(env):
    with pytest.raises(ImproperlyConfigured, match="Set the environment variable WB"):
        env_list("WB_TEST")


def test_database_url_sqlite_relative_to_base_dir(env, tmp_path):
    env("sqlite:///var/db.sqlite3")
    assert env_database_url("WB_TEST", base_dir=tmp_path) == {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": tmp_path / "var" / "db.sqlite3",
    }


def test_database_url_sqlite_absolute(env, tmp_path):
    env("sqlite:////srv/workbench/db.sqlite3")
    database = env_database_url("WB_TEST", base_dir=tmp_path)
    assert database["NAME"] == Path("/srv/workbench/db.sqlite3")


def test_database_url_default(env, tmp_path):
    database = env_database_url(
        "WB_TEST", default="sqlite:///var/workbench.sqlite3", base_dir=tmp_path
    )
    assert database["NAME"] == tmp_path / "var" / "workbench.sqlite3"


@pytest.mark.parametrize("scheme", ["postgres", "postgresql"])
def test_database_url_postgres(env, scheme):
    env(f"{scheme}://wb:p%40ss%3Aword@db.example.com:6432/workbench?sslmode=require")
    assert env_database_url("WB_TEST", base_dir=BASE_DIR) == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "workbench",
        "USER": "wb",
        "PASSWORD": "p@ss:word",
        "HOST": "db.example.com",
        "PORT": "6432",
        "OPTIONS": {"sslmode": "require"},
    }


def test_database_url_postgres_minimal(env):
    env("postgres:///workbench")
    database = env_database_url("WB_TEST", base_dir=BASE_DIR)
    assert database["NAME"] == "workbench"
    assert (database["USER"], database["HOST"], database["PORT"]) == ("", "", "")


@pytest.mark.parametrize(
    "value",
    [
        "mysql://wb:secret-password@localhost/workbench",
        "workbench.sqlite3",
        "postgres://wb:secret-password@localhost:5432/",
        "postgres://wb:secret-password@localhost:port/workbench",
        "sqlite://",
    ],
)
def test_database_url_rejected_without_leaking_it(env, value):
    env(value)
    with pytest.raises(ImproperlyConfigured, match="WB_TEST") as raised:
        env_database_url("WB_TEST", base_dir=BASE_DIR)
    assert "secret-password" not in str(raised.value)


def test_generated_secret_key_is_private_and_stable(tmp_path):
    path = tmp_path / "var" / "secret_key"

    key = generated_secret_key(path)

    assert len(key) >= 50
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert generated_secret_key(path) == key
    assert [p.name for p in path.parent.iterdir()] == ["secret_key"]


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """Runs manage.py in a fresh process with only the given settings
    variables, so the developer's own environment cannot leak in."""
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR,
        env={"PATH": os.environ.get("PATH", ""), **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_deploy_checks_pass_with_production_settings():
    result = _manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(45),
        ALLOWED_HOSTS="example.com",
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert "WARNINGS" not in output
    assert "?: (security" not in output


PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(45),
    "ALLOWED_HOSTS": "example.com",
}


@pytest.mark.parametrize(
    ("variables", "starts"),
    [
        ({"SECRET_KEY": ""}, "Set the environment variable SECRET_KEY"),
        ({"SECRET_KEY": "short-and-weak"}, "Environment variable SECRET_KEY must"),
        ({"SECRET_KEY": "a" * 60}, "Environment variable SECRET_KEY must"),
        ({"ALLOWED_HOSTS": ""}, "Set the environment variable ALLOWED_HOSTS"),
        ({"ALLOWED_HOSTS": "*"}, "Environment variable ALLOWED_HOSTS must"),
        ({"ALLOWED_HOSTS": "example.com,*"}, "Environment variable ALLOWED_HOSTS"),
        (
            {"SECURE_PROXY_SSL_HEADER": "X-Forwarded-Proto,https"},
            "Environment variable SECURE_PROXY_SSL_HEADER must",
        ),
        (
            {"SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO"},
            "Environment variable SECURE_PROXY_SSL_HEADER must",
        ),
        (
            {"CSRF_TRUSTED_ORIGINS": "workbench.example.com"},
            "Environment variable CSRF_TRUSTED_ORIGINS must",
        ),
        ({"DEBUG": "maybe"}, "Environment variable DEBUG must"),
        ({"LOG_LEVEL": "loud"}, "Environment variable LOG_LEVEL must"),
        ({"DESIGN_MAX_ENTITIES": "0"}, "Environment variable DESIGN_MAX_ENTITIES"),
        (
            {"DESIGN_MAX_TEMPLATE_CHARS": "5000"},
            "Environment variable DESIGN_MAX_TEMPLATE_CHARS must be an integer "
            "from 1 to 2048",
        ),
        ({"DATABASE_URL": "mysql://u:p@h/db"}, "Environment variable DATABASE_URL"),
        (
            {"SAMPLE_FILE_MAX_BYTES": "3000", "MEDIA_MAX_BYTES": "2000"},
            "Environment variable MEDIA_MAX_BYTES (2000) must be at least "
            "SAMPLE_FILE_MAX_BYTES (3000)",
        ),
    ],
)
def test_unsafe_or_malformed_settings_stop_the_start_in_one_line(variables, starts):
    result = _manage("check", **{**PRODUCTION, **variables})
    assert result.returncode == 1, result.stdout
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith(f"workbench: {starts}"), line
    assert "Traceback" not in result.stderr


def test_the_secret_key_is_never_echoed():
    weak = "my-weak-secret"
    result = _manage("check", **{**PRODUCTION, "SECRET_KEY": weak})
    assert weak not in result.stderr


@pytest.mark.parametrize(
    ("variables"),
    [
        {"LOG_LEVEL": " warning "},
        {"DEBUG": "False"},
        {"SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https"},
        {"CSRF_TRUSTED_ORIGINS": "https://a.example.com, https://b.example.com:8443"},
    ],
)
def test_values_read_alike(variables):
    result = _manage("check", **{**PRODUCTION, **variables})
    assert result.returncode == 0, result.stderr


@pytest.mark.django_db
def test_no_missing_migrations():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)


@pytest.mark.parametrize(
    ("env", "backend"),
    [
        ({}, "django.core.cache.backends.db.DatabaseCache"),
        (
            {"REDIS_URL": "redis://127.0.0.1:6390/0"},
            "django.core.cache.backends.redis.RedisCache",
        ),
    ],
)
def test_the_shared_cache_is_the_database_unless_redis_is_named(env, backend):
    show = (
        "from django.conf import settings; "
        "c = settings.CACHES['default']; print(c['BACKEND'], c['LOCATION'])"
    )
    result = _manage("shell", "--no-imports", "-c", show, **env)
    assert result.returncode == 0, result.stderr
    location = env.get("REDIS_URL", "workbench_cache")
    assert result.stdout.split() == [backend, location]


@pytest.mark.parametrize(
    "url", ["sqlite:///var/kept.sqlite3", "postgres://u@127.0.0.1:5432/workbench"]
)
def test_the_database_connection_is_kept_between_requests(url):
    # Opening one for every request cost PostgreSQL more CPU than the queries.
    show = (
        "from django.conf import settings; d = settings.DATABASES['default']; "
        "print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
    )
    result = _manage("shell", "--no-imports", "-c", show, DATABASE_URL=url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "600 True"


def test_a_refused_request_is_logged_without_a_traceback():
    """A viewer's write is a 403: its log line says so, without the
    traceback of PermissionDenied; a server error keeps its traceback."""
    request_filters = logging.getLogger("django.request").filters
    assert any(isinstance(f, QuietForbidden) for f in request_filters)
    try:
        raise PermissionError("no")
    except PermissionError:
        forbidden, failed = (
            logging.LogRecord("django.request", level, "", 1, "", (), sys.exc_info())
            for level in (logging.WARNING, logging.ERROR)
        )
    forbidden.status_code, failed.status_code = 403, 500

    assert QuietForbidden().filter(forbidden) and forbidden.exc_info is None
    assert QuietForbidden().filter(failed) and failed.exc_info is not None
