"""Settings for the single-table workbench.

One module for every environment: the defaults suit a developer's machine,
and production changes only through environment variables (all listed in
.env.example). Values are read through workbench.env, which refuses
malformed ones.
"""

from __future__ import annotations

import os
import tempfile
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from workbench.env import (
    REQUIRED,
    check_secret_key,
    env_bool,
    env_database_url,
    env_int,
    env_list,
    env_origins,
    env_proxy_ssl_header,
    env_str,
    generated_secret_key,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = BASE_DIR / "var"

DEBUG = env_bool("DEBUG", default=True)

SECRET_KEY = env_str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "Set the environment variable SECRET_KEY: it is required when DEBUG "
            "is off (generate one with `python -c 'from django.core.management."
            "utils import get_random_secret_key; print(get_random_secret_key())'`)."
        )
    SECRET_KEY = generated_secret_key(VAR_DIR / "secret_key")
elif not DEBUG:
    check_secret_key(SECRET_KEY)

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", default=["127.0.0.1", "localhost"] if DEBUG else REQUIRED
)
if not DEBUG and "*" in ALLOWED_HOSTS:
    raise ImproperlyConfigured(
        "Environment variable ALLOWED_HOSTS must name the hosts served, not '*', "
        "when DEBUG is off: any Host header would be trusted."
    )
CSRF_TRUSTED_ORIGINS = env_origins("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    # runserver serves static files through WhiteNoise too, as gunicorn does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    # Login lockout after repeated failures (AXES_* below).
    "axes",
    "django_htmx",
    # The loaders are configured below rather than patched in at start-up.
    "template_partials.apps.SimpleAppConfig",
    # Before django_tasks_db: its `db_worker` command is the workbench's
    # (modeler/management/commands/db_worker.py).
    "modeler",
    # Background jobs (the simulation): django-tasks, with its database
    # backend, whose queue and results live in DATABASES.
    "django_tasks",
    "django_tasks_db",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "workbench.middleware.ContentSecurityPolicyMiddleware",
    # Static files, before anything that would spend time on them.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Everything after WhiteNoise is private: no cache keeps it.
    "workbench.middleware.NoStoreMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Inside MessageMiddleware, so it takes the messages before they are
    # stored for the next request.
    "workbench.middleware.HtmxMessagesMiddleware",
    # A request that met the database going away answers 503 and keeps
    # the input (it needs request.htmx).
    "workbench.middleware.DatabaseUnreachableMiddleware",
    # An htmx poll or save of a project gone meanwhile (it needs request.htmx).
    "workbench.middleware.ProjectGoneMiddleware",
    # Last, as django-axes asks: it answers a locked-out login.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "workbench.urls"
WSGI_APPLICATION = "workbench.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            # template_partials' loader resolves "page.html#region" names.
            "loaders": [
                (
                    "template_partials.loader.Loader",
                    [
                        (
                            "django.template.loaders.cached.Loader",
                            [
                                "django.template.loaders.filesystem.Loader",
                                "django.template.loaders.app_directories.Loader",
                            ],
                        )
                    ],
                )
            ],
            "builtins": [
                "template_partials.templatetags.partials",
                "modeler.templatetags.fields",
            ],
        },
    }
]

DATABASES = {
    "default": env_database_url(
        "DATABASE_URL", default="sqlite:///var/workbench.sqlite3", base_dir=BASE_DIR
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite creates the database file but not its directory.
    Path(DATABASES["default"]["NAME"]).parent.mkdir(parents=True, exist_ok=True)
    # The job worker writes while the web process does: a transaction that
    # reads, then writes, would fail at once ("database is locked") on
    # meeting the other's write. Taking the write lock at BEGIN makes it
    # wait its turn instead (up to `timeout` seconds).
    options = DATABASES["default"].setdefault("OPTIONS", {})
    options.setdefault("transaction_mode", "IMMEDIATE")
    options.setdefault("timeout", 20)
    # Tests on a file, not in memory: the browser tests' live server answers
    # from other threads, and SQLite's shared in-memory database fails a
    # read that meets a write ("table is locked") where a file waits.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"workbench-test-{os.getpid()}.db")
    }
# Each process keeps its database connection from one request (or job
# worker poll) to the next: a new one costs PostgreSQL a process and its
# caches, and SQLite a read of the schema, for every request. Checked (on
# PostgreSQL, with a trivial query) before its first use in each request,
# so a connection the server dropped is replaced rather than failing a page.
DATABASES["default"]["CONN_MAX_AGE"] = 600
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

# Results shared by every web and worker process (design reviews the jobs
# make, key proposals): in Redis when REDIS_URL is set, else in a table of
# the database (created by a migration), which processes on several
# machines share when the database is PostgreSQL.
_redis_url = env_str("REDIS_URL", default="")
if _redis_url:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": _redis_url,
            "TIMEOUT": 7 * 24 * 3600,
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "workbench_cache",
            "TIMEOUT": 7 * 24 * 3600,
            "OPTIONS": {"MAX_ENTRIES": 5_000},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation."
        "UserAttributeSimilarityValidator"
    },
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "project-list"
LOGOUT_REDIRECT_URL = "login"

# Logging in (modeler/infra/throttles.py has the whole policy). django-axes records
# each failure; a failure counts until LOGIN_LOCKOUT_MINUTES pass without
# another for the same username from the same address. A login is refused,
# whatever the password, while:
# 1. the username has LOGIN_FAILURE_LIMIT failures from this address;
# 2. this address has LOGIN_ADDRESS_FAILURE_LIMIT failures over all
#    usernames (one address trying many accounts);
# 3. the username has LOGIN_ACCOUNT_FAILURE_LIMIT failures over all
#    addresses, one of them from this address (many addresses guessing one
#    account get one guess each).
# Each rule refuses only an address that failed itself: a stranger can slow
# the guesses at an account but never refuses its owner's right password
# from another address. Attempts while refused are not counted; a login or
# a password reset forgets that username's failures from that address. The
# address is the client's as TRUSTED_PROXY_COUNT finds it (below).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", default=5, min_value=1)
LOGIN_ADDRESS_FAILURE_LIMIT = env_int(
    "LOGIN_ADDRESS_FAILURE_LIMIT", default=20, min_value=1
)
LOGIN_ACCOUNT_FAILURE_LIMIT = env_int(
    "LOGIN_ACCOUNT_FAILURE_LIMIT", default=10, min_value=1
)
LOGIN_LOCKOUT_MINUTES = env_int("LOGIN_LOCKOUT_MINUTES", default=15, min_value=1)
AXES_COOLOFF_TIME = timedelta(minutes=LOGIN_LOCKOUT_MINUTES)
# What django-axes itself counts (rule 1) and forgets on a successful login.
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_HANDLER = "modeler.infra.throttles.LoginThrottleHandler"
AXES_LOCKOUT_CALLABLE = "modeler.infra.throttles.login_paused_response"
AXES_CLIENT_IP_CALLABLE = "workbench.client_address.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
# No banner at every start (commands print to the same output).
AXES_VERBOSE = False

# The client's address, for the login and email limits. Behind reverse
# proxies every request comes from the nearest one: with N proxies that
# each append to X-Forwarded-For (nginx: $proxy_add_x_forwarded_for), the
# client is the Nth address from the right. 0 (no proxy) reads the
# connection's address and ignores the header, which clients can forge.
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", default=0, min_value=0)

# Account email (sign-up confirmations, password resets, address changes):
# at most this many from one client address and to one email address within
# ACCOUNT_EMAILS_MINUTES; past either the form answers as ever and sends
# nothing (counted in CACHES, which every process shares).
ACCOUNT_EMAILS_PER_CLIENT = env_int(
    "ACCOUNT_EMAILS_PER_CLIENT", default=10, min_value=1
)
ACCOUNT_EMAILS_PER_RECIPIENT = env_int(
    "ACCOUNT_EMAILS_PER_RECIPIENT", default=3, min_value=1
)
ACCOUNT_EMAILS_MINUTES = env_int("ACCOUNT_EMAILS_MINUTES", default=60, min_value=1)

# Email: sign-up confirmations, password resets and project invitations.
# Written to the server's output unless EMAIL_HOST names an SMTP server.
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", default="workbench@localhost")
EMAIL_HOST = env_str("EMAIL_HOST", default="")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", default=587, min_value=1, max_value=65_535)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=True)
    EMAIL_TIMEOUT = 10
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
# How long a sign-up confirmation or password reset link works.
PASSWORD_RESET_TIMEOUT = 3 * 24 * 3600

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

# Files the workers write for the app servers to serve (the sample data as
# a file): with workers on other machines, a directory they all share.
# Never served as is: the views check who may read them.
MEDIA_ROOT = Path(env_str("MEDIA_ROOT", default=str(VAR_DIR / "files")))

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# Where `manage.py collectstatic` gathers the files WhiteNoise serves.
STATIC_ROOT = Path(env_str("STATIC_ROOT", default=str(BASE_DIR / "staticfiles")))
if not DEBUG:
    # Hashed file names (so browsers cache them for ever: WhiteNoise sends a
    # ten-year max-age), with gzip copies made once by
    # collectstatic. Requires `manage.py collectstatic` before serving.
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {
            "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        },
    }

# Security. Safe everywhere:
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"
# Scripts and styles from this origin only: no inline script, no style
# attribute, no eval (htmx is configured for it in _base.html). Inline SVG
# diagrams are sanitised to presentation attributes; PNG previews are data:.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
_proxy_ssl_header = env_proxy_ssl_header("SECURE_PROXY_SSL_HEADER")
if _proxy_ssl_header:
    SECURE_PROXY_SSL_HEADER = _proxy_ssl_header
# Only over HTTPS, so not on a developer's runserver:
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int(
        "SECURE_HSTS_SECONDS", default=31_536_000, min_value=0
    )
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool(
        "SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True
    )
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=True)

# Limits. A design file may be uploaded or pasted into a form field; pasted
# text is URL-encoded, which can triple its size, hence the larger body limit.
DESIGN_FILE_MAX_BYTES = env_int("DESIGN_FILE_MAX_BYTES", default=1_000_000, min_value=1)
# How large a design may be (modeler/design_check/limits.py): every page reads,
# checks and simulates it, so these keep one design from holding a worker. A
# design past one is refused with a message naming the setting.
DESIGN_MAX_ENTITIES = env_int("DESIGN_MAX_ENTITIES", default=1_000, min_value=1)
DESIGN_MAX_ATTRIBUTES = env_int("DESIGN_MAX_ATTRIBUTES", default=200, min_value=1)
DESIGN_MAX_PATTERNS = env_int("DESIGN_MAX_PATTERNS", default=1_000, min_value=1)
# The database keeps templates of up to 2,048 characters.
DESIGN_MAX_TEMPLATE_CHARS = env_int(
    "DESIGN_MAX_TEMPLATE_CHARS", default=2_048, min_value=1, max_value=2_048
)
SAMPLE_MAX_ITEMS = env_int("SAMPLE_MAX_ITEMS", default=100_000, min_value=1)
# What one import of a file may spend (modeler/importers/budget.py), in a request
# or a command: CPU seconds (under gunicorn's 30 s timeout), evaluation steps
# of a configuration's or template's expressions, and the bytes of one
# evaluated value. An import past one is refused with a message naming it.
IMPORT_CPU_SECONDS = env_int("IMPORT_CPU_SECONDS", default=20, min_value=1)
# ElectroDB and DynamoDB-Toolbox modules are run with node, confined; off
# refuses them (a server without node 20 or user namespaces refuses anyway).
JS_MODULE_IMPORT = env_bool("JS_MODULE_IMPORT", default=True)
IMPORT_MAX_STEPS = env_int("IMPORT_MAX_STEPS", default=1_000_000, min_value=1)
IMPORT_MAX_VALUE_BYTES = env_int("IMPORT_MAX_VALUE_BYTES", default=100_000, min_value=1)
# Bytes: the sample data's (estimated from the design before any item is
# made, like the items), a file of it a worker writes, and everything the
# workers keep under MEDIA_ROOT (the oldest files go first past it).
SAMPLE_MAX_BYTES = env_int("SAMPLE_MAX_BYTES", default=250_000_000, min_value=1)
SAMPLE_FILE_MAX_BYTES = env_int(
    "SAMPLE_FILE_MAX_BYTES", default=500_000_000, min_value=1
)
MEDIA_MAX_BYTES = env_int(
    "MEDIA_MAX_BYTES", default=max(2_000_000_000, SAMPLE_FILE_MAX_BYTES), min_value=1
)
if MEDIA_MAX_BYTES < SAMPLE_FILE_MAX_BYTES:
    raise ImproperlyConfigured(
        f"Environment variable MEDIA_MAX_BYTES ({MEDIA_MAX_BYTES}) must be at "
        f"least SAMPLE_FILE_MAX_BYTES ({SAMPLE_FILE_MAX_BYTES}): a file a worker "
        "writes must fit under it."
    )
# Tables one import may make projects of (a project each): a file with more
# is refused, naming one table (FILE#TABLE, the import form's Table) is not.
IMPORT_MAX_TABLES = env_int("IMPORT_MAX_TABLES", default=50, min_value=1)

# Background jobs. The queue is a table of the database: `manage.py
# db_worker` processes (one or more, on any machine sharing the database)
# take the jobs; `make run` starts one beside runserver.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# What one simulation job may spend: CPU seconds and memory (MB it adds to
# its worker). Past either it stops with a message naming the budget.
SIMULATION_CPU_SECONDS = env_int("SIMULATION_CPU_SECONDS", default=120, min_value=1)
SIMULATION_MEMORY_MB = env_int("SIMULATION_MEMORY_MB", default=2_048, min_value=1)
# Graphviz and cfn-lint runs at once, across every worker process of the
# machine (modeler/infra/processes.py); a request past them waits up to 10 s.
SUBPROCESSES_MAX = env_int("SUBPROCESSES_MAX", default=2, min_value=1)
DATA_UPLOAD_MAX_MEMORY_SIZE = 3 * DESIGN_FILE_MAX_BYTES + 100_000
# Every upload is a design or items file: past DESIGN_FILE_MAX_BYTES the rest
# of a file is not kept, in memory or on disk.
FILE_UPLOAD_HANDLERS = [
    "modeler.infra.uploads.SizeLimitedUploadHandler",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

# DynamoDB endpoints for deploying and checking designs. Credentials are not
# settings: boto3 finds them through its standard chain (environment,
# ~/.aws, instance role).
DYNAMODB_ENDPOINT_URL = env_str("DYNAMODB_ENDPOINT_URL", default="")
AWS_REGION = env_str("AWS_REGION", default="")
# Import a live table from the project list, read from the endpoint above
# with the server's credentials: off unless the operator turns it on (every
# signed-up user could then read any table those credentials reach).
LIVE_TABLE_IMPORT = env_bool("LIVE_TABLE_IMPORT", default=False)

# The prices of the Review section's cost estimate, for every project that
# has not set its own: US dollars, request units per million, capacity per
# hour, storage per GB-month; `taken` is the date they were looked up
# (shared/DOMAIN.md, standard table class).
DYNAMODB_PRICES = {
    "region": "us-east-1",
    "taken": "2024-11-01",
    "read_request_per_million": "0.125",
    "write_request_per_million": "0.625",
    "rcu_hour": "0.00013",
    "wcu_hour": "0.00065",
    "storage_gb_month": "0.25",
}

LOG_LEVEL = env_str(
    "LOG_LEVEL",
    default="INFO",
    choices=("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"),
)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"},
    },
    "filters": {"quiet_forbidden": {"()": "workbench.logfilters.QuietForbidden"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain"},
    },
    "root": {"handlers": ["console"], "level": LOG_LEVEL},
    "loggers": {
        # Replaces Django's own handlers, which would print each line twice.
        "django": {"handlers": ["console"], "level": LOG_LEVEL, "propagate": False},
        # A 403 is one line, without PermissionDenied's traceback.
        "django.request": {"filters": ["quiet_forbidden"]},
        # Failures and lockouts are warnings; its INFO lines are bookkeeping.
        "axes": {"level": "WARNING"},
    },
}
