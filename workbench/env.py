"""Typed readers of the process environment, for settings.py.

Each helper returns a value of one type or raises ImproperlyConfigured naming
the variable and what was expected, so a typo in a deployment stops the
process at start-up instead of quietly running with a default. An empty value
counts as unset: a blank `NAME=` line in an env file means "use the default".
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Collection
from pathlib import Path
from typing import Any, Final
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured
from django.core.management.utils import get_random_secret_key


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Final = _Required()
"""Pass as `default` to make a variable mandatory."""

_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})
_POSTGRES_SCHEMES = frozenset({"postgres", "postgresql"})


def _raw(name: str) -> str | None:
    value = os.environ.get(name, "")
    return value if value.strip() else None


def _missing(name: str, expected: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(f"Set the environment variable {name} ({expected}).")


def _malformed(name: str, expected: str, value: str) -> ImproperlyConfigured:
    return ImproperlyConfigured(
        f"Environment variable {name} must be {expected}, got {value!r}."
    )


def env_str(
    name: str,
    default: str | _Required = REQUIRED,
    *,
    choices: Collection[str] | None = None,
) -> str:
    """A string; with `choices`, one of them, read as booleans are: case and
    surrounding spaces do not matter (`info` is INFO)."""
    expected = f"one of {', '.join(choices)}" if choices else "a non-empty string"
    value = _raw(name)
    if value is None:
        if isinstance(default, _Required):
            raise _missing(name, expected)
        return default
    if choices:
        chosen = {c.lower(): c for c in choices}.get(value.strip().lower())
        if chosen is None:
            raise _malformed(name, expected, value)
        return chosen
    return value


def env_bool(name: str, default: bool | _Required = REQUIRED) -> bool:
    expected = "a boolean: 1/0, true/false, yes/no or on/off"
    value = _raw(name)
    if value is None:
        if isinstance(default, _Required):
            raise _missing(name, expected)
        return default
    word = value.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise _malformed(name, expected, value)


def env_int(
    name: str,
    default: int | _Required = REQUIRED,
    *,
    min_value: int | None = None,
    max_value: int | None = None,
) -> int:
    expected = "an integer"
    if min_value is not None and max_value is not None:
        expected = f"an integer from {min_value} to {max_value}"
    elif min_value is not None:
        expected = f"an integer >= {min_value}"
    elif max_value is not None:
        expected = f"an integer <= {max_value}"
    value = _raw(name)
    if value is None:
        if isinstance(default, _Required):
            raise _missing(name, expected)
        return default
    try:
        number = int(value)
    except ValueError:
        raise _malformed(name, expected, value) from None
    if (min_value is not None and number < min_value) or (
        max_value is not None and number > max_value
    ):
        raise _malformed(name, expected, value)
    return number


def env_list(name: str, default: list[str] | _Required = REQUIRED) -> list[str]:
    expected = "a comma-separated list of non-empty values"
    value = _raw(name)
    if value is None:
        if isinstance(default, _Required):
            raise _missing(name, expected)
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if not all(items):
        raise _malformed(name, expected, value)
    return items


def env_origins(name: str, default: list[str] | _Required = REQUIRED) -> list[str]:
    """A comma-separated list of origins, each a scheme and a host:
    https://workbench.example.com (Django refuses others at each request)."""
    origins = env_list(name, default)
    for origin in origins:
        url = urlsplit(origin)
        if url.scheme not in ("http", "https") or not url.netloc or url.path:
            raise _malformed(
                name, "a comma-separated list of origins like https://host", origin
            )
    return origins


_HEADER = re.compile(r"HTTP_[A-Z0-9_]+")


def env_proxy_ssl_header(name: str) -> tuple[str, str] | None:
    """`HTTP_X_FORWARDED_PROTO,https`: the request header a TLS proxy sets,
    as Django names it (HTTP_ and the header in capitals, dashes as
    underscores), and its value for HTTPS; None when unset."""
    expected = (
        "a header and its value, as in HTTP_X_FORWARDED_PROTO,https (the "
        "header as Django names it: HTTP_ then the name in capitals, dashes "
        "as underscores)"
    )
    parts = env_list(name, default=[])
    if not parts:
        return None
    if len(parts) != 2 or not _HEADER.fullmatch(parts[0]):
        raise _malformed(name, expected, ",".join(parts))
    return parts[0], parts[1]


def check_secret_key(value: str) -> None:
    """Refuse a SECRET_KEY that Django's deploy check would call weak: under
    50 characters, under 5 different ones, or one of Django's generated
    development keys."""
    if len(value) < 50 or len(set(value)) < 5 or value.startswith("django-insecure"):
        raise ImproperlyConfigured(
            "Environment variable SECRET_KEY must be at least 50 random characters "
            f"(it has {len(value)}, {len(set(value))} different) when DEBUG is off; "
            "generate one with `python -c 'from django.core.management.utils "
            "import get_random_secret_key; print(get_random_secret_key())'`."
        )


def env_database_url(
    name: str, default: str | _Required = REQUIRED, *, base_dir: Path
) -> dict[str, Any]:
    """A Django DATABASES entry from `sqlite:///path` (relative to base_dir;
    four slashes for an absolute path) or
    `postgres://user:password@host:port/name?sslmode=require`."""
    expected = "a sqlite:/// or postgres:// URL"
    value = _raw(name)
    if value is None:
        if isinstance(default, _Required):
            raise _missing(name, expected)
        value = default
    # Never echo the URL itself in errors: it may carry a password.
    try:
        url = urlsplit(value.strip())
        port = url.port
    except ValueError:
        raise ImproperlyConfigured(
            f"Environment variable {name} is not a valid URL ({expected})."
        ) from None

    if url.scheme == "sqlite":
        path = unquote(url.path).removeprefix("/")
        if url.netloc or not path:
            raise ImproperlyConfigured(
                f"Environment variable {name} must look like sqlite:///var/db.sqlite3 "
                "(relative to the project) or sqlite:////absolute/path.sqlite3."
            )
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": base_dir / path}

    if url.scheme in _POSTGRES_SCHEMES:
        database = unquote(url.path).removeprefix("/")
        if not database or "/" in database:
            raise ImproperlyConfigured(
                f"Environment variable {name} must name one database, as in "
                "postgres://user:password@host:5432/workbench."
            )
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": database,
            "USER": unquote(url.username or ""),
            "PASSWORD": unquote(url.password or ""),
            "HOST": unquote(url.hostname or ""),
            "PORT": str(port or ""),
            "OPTIONS": dict(parse_qsl(url.query)),
        }

    raise ImproperlyConfigured(
        f"Environment variable {name} has the unsupported scheme "
        f"{url.scheme + ':' if url.scheme else '(none)'}; expected {expected}."
    )


def generated_secret_key(path: Path) -> str:
    """The secret key stored at `path`, generated on first use (mode 0600).

    For local use only: it spares developers from inventing a key, and keeps
    sessions valid across restarts. Production sets SECRET_KEY instead.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        # Write a private temporary file and link it into place, so two
        # processes starting at once (runserver and its reloader) agree on
        # one key and neither can read a half-written file.
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret_key.")
        try:
            with os.fdopen(fd, "w") as file:
                file.write(get_random_secret_key() + "\n")
            os.link(temporary, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(temporary)
    key = path.read_text().strip()
    if not key:
        raise ImproperlyConfigured(
            f"{path} is empty: delete it to generate a new key, or set SECRET_KEY."
        )
    return key
