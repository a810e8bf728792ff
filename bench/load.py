"""Load: 50 users at once on gunicorn, as in production (issue 13).

The server is started as the README's "In production" block does (DEBUG
off, a secret key, collectstatic, gunicorn behind a TLS proxy's headers)
with 4 workers and the simulation jobs' worker (`db_worker`), on a
throwaway SQLite database in a temporary directory with the examples
loaded (`migrate`, then `load_examples`, which runs with DEBUG on only);
then again on a throwaway PostgreSQL server when its
binaries are installed (/usr/lib/postgresql/*/bin, started as .ci/run
does, as the postgres user when run as root). Everything started is
stopped at the end, and the directory removed.

Each simulated user is a thread with an account of its own and its own
session: made on the server as Django's login() makes one (the login form
checks the password with PBKDF2, 1.5 s of CPU on a 2-core machine: 75 s
for 50 users before the run; `--login-form` logs them in through it, a few
at a time). It copies an example into its projects (Start from an
example), then, for the measured time, clicks through a mix with a pause
of 0.5 to 1.5 s between clicks: project pages and sections, htmx partials
(with the HX-Request header: a tab click, an entity's or a pattern's
editor, the review's findings, the Undo bar), an edit through the pattern
form (its requests per second changed, saved, then the Undo button), a
simulation pattern's result, the SVG diagrams (overview and item
collections), and the Terraform and CloudFormation exports. Every POST
carries its CSRF token, Origin and Referer.

Printed per request kind and for all of them: count, errors (a status of
400 or more, or no answer within 60 s), the client's latency p50/p95, the
time inside the gunicorn worker p50/p95 (from the hook before the request
to the one after its response's last byte) and the server's CPU for it
p50/p95 with the kind's share of the whole (logged by each gunicorn worker
through a --config hook, by CLOCK_PROCESS_CPUTIME_ID: a sync worker serves
one request at a time; with the Graphviz and cfn-lint runs it waited for);
then the CPU seconds of the server's processes over the run (gunicorn's
master and workers, the job worker, PostgreSQL's) beside its wall seconds,
the CPU per request and the request rate these cores could then serve; a
sizing line (the clicks each user made a second, and per 100 such users
the cores and workers they keep busy: README, "In production"); the p95 of
page and of partial requests against issue 13's target (0 errors and p95
under 500 ms), and the server CPU's p95 over every request against issue
36's (30 ms).

    make bench          (or: PYTHONPATH=. .venv/bin/python bench/load.py)
    PYTHONPATH=. .venv/bin/python bench/load.py --seconds 20 --users 20
    PYTHONPATH=. .venv/bin/python bench/load.py --database sqlite
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import http.client
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

from modeler.examples import examples

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
HOST = "workbench.example.com"
ORIGIN = f"https://{HOST}"
WORKERS = 4
TIMEOUT_S = 60
TARGET_P95_S = 0.500
# Issue 36: the server's CPU for a request, p95 over every labelled request.
TARGET_CPU_P95_S = 0.030
# Lines of gunicorn's log worth showing: timeouts, server errors, exceptions.
TROUBLE = re.compile(
    r"WORKER TIMEOUT|Internal Server Error|\[ERROR\]|^[\w.]+(Error|Exception)\b"
)
THINK_S = (0.5, 1.5)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# The server -----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _cpu_and_parent(pid: int) -> tuple[float, int]:
    """A process's user and system CPU with that of the children it
    waited for, and its parent, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    utime, stime, cutime, cstime = (int(v) for v in fields[11:15])
    return (utime + stime + cutime + cstime) / CLOCK_TICKS, int(fields[1])


def tree_cpu(root: int) -> float:
    """CPU seconds of a server: its main process (with every child it
    reaped: gunicorn's workers, PostgreSQL's backends) and its children
    still running (with the children they reaped: Graphviz, cfn-lint).
    The difference of two readings is what the server spent between them."""
    total = 0.0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                seconds, parent = _cpu_and_parent(int(entry))
            except OSError:
                continue  # ended meanwhile
            if int(entry) == root or parent == root:
                total += seconds
    return total


def run(argv: list[str], env: dict[str, str], **kwargs) -> str:
    done = subprocess.run(  # noqa: S603 (our own commands)
        argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, **kwargs
    )
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


@contextlib.contextmanager
def postgresql(folder: Path) -> Iterator[tuple[str, int]]:
    """A throwaway PostgreSQL server (as .ci/run starts one): its URL and
    the process id of its main process."""
    initdb = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))[-1]
    pg_bin = Path(initdb).parent
    data = folder / "postgres"
    data.mkdir()
    as_postgres: list[str] = []
    if os.getuid() == 0:
        # PostgreSQL refuses to run as root.
        shutil.chown(data, "postgres", "postgres")
        as_postgres = ["runuser", "-u", "postgres", "--"]
    port = free_port()
    env = {"PATH": os.environ.get("PATH", ""), "LC_ALL": "C.UTF-8"}
    run(
        [*as_postgres, str(pg_bin / "initdb"), "-D", f"{data}/data"]
        + ["--username=workbench", "--auth=trust", "--encoding=UTF8"]
        + ["--locale=C.UTF-8"],
        env,
    )
    options = (
        f"-p {port} -k {data} -c listen_addresses=127.0.0.1 "
        "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    )
    stop = [*as_postgres, str(pg_bin / "pg_ctl"), "-D", f"{data}/data", "-m", "fast"]
    run(
        [*as_postgres, str(pg_bin / "pg_ctl"), "-D", f"{data}/data"]
        + ["-l", f"{data}/server.log", "-w", "-o", options, "start"],
        env,
    )
    try:
        postmaster = int((data / "data" / "postmaster.pid").read_text().split()[0])
        run(
            [*as_postgres, str(pg_bin / "createdb")]
            + ["-h", "127.0.0.1", "-p", str(port), "-U", "workbench", "workbench"],
            env,
        )
        yield f"postgres://workbench@127.0.0.1:{port}/workbench", postmaster
    finally:
        subprocess.run([*stop, "stop"], env=env, capture_output=True, check=False)  # noqa: S603


# Run in each gunicorn worker: the CPU of each request the bench labelled,
# with that of the child processes it waited for (Graphviz, cfn-lint), and
# its wall time inside the worker, from the hook before the request (its
# head already read) to the one after the response's last byte was written.
# A sync worker serves one request at a time, in one thread:
# CLOCK_PROCESS_CPUTIME_ID counts its CPU to the nanosecond (os.times() only
# to the 10 ms clock tick), getrusage a reaped child's to the microsecond.
HOOKS = """
import resource, time

def _cpu():
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime

def pre_request(worker, req):
    worker.bench_cpu = _cpu()
    worker.bench_wall = time.perf_counter()

def post_request(worker, req, environ, resp):
    kind = environ.get("HTTP_X_BENCH_KIND")
    if kind:
        cpu = _cpu() - worker.bench_cpu
        wall = time.perf_counter() - worker.bench_wall
        with open(PATH, "a") as log:
            log.write(f"{kind}\\t{cpu:.6f}\\t{wall:.6f}\\n")
"""


@dataclass
class Server:
    port: int
    roots: list[int]  # gunicorn's main process, and the database server's
    log: Path
    cpu_log: Path  # kind, CPU seconds: a line per labelled request
    env: dict[str, str]

    def accounts(self, count: int, password: str) -> list[tuple[str, str]]:
        """`count` accounts, each with a copy of nothing yet: (username,
        session key). With `password`, they log in through the form (the
        hash is made once); without, each gets a session made as Django's
        login() makes one."""
        code = (
            "from importlib import import_module\n"
            "from django.conf import settings\n"
            "from django.contrib import auth\n"
            "from django.contrib.auth.hashers import make_password\n"
            "store = import_module(settings.SESSION_ENGINE).SessionStore\n"
            "backend = settings.AUTHENTICATION_BACKENDS[-1]\n"
            f"password = {password!r}\n"
            "hashed = make_password(password or None)\n"
            f"for n in range({count}):\n"
            "    user = auth.get_user_model().objects.create(\n"
            "        username=f'load-{n}', password=hashed)\n"
            "    s = store()\n"
            "    if not password:\n"
            "        s[auth.SESSION_KEY] = str(user.pk)\n"
            "        s[auth.BACKEND_SESSION_KEY] = backend\n"
            "        s[auth.HASH_SESSION_KEY] = user.get_session_auth_hash()\n"
            "        s.create()\n"
            "    print('account', user.username, s.session_key or '-')\n"
        )
        printed = run([str(BIN / "python"), "manage.py", "shell", "-c", code], self.env)
        # The shell may say more (the objects it imported): the accounts only.
        found = re.findall(r"^account (\S+) (\S+)$", printed, re.MULTILINE)
        return [(name, "" if key == "-" else key) for name, key in found]


@contextlib.contextmanager
def gunicorn(
    folder: Path, database_url: str, db_server: int | None
) -> Iterator[Server]:
    """The README's production set-up on `database_url`, with the examples
    loaded, serving on a free port; stopped (every process of its session)
    on exit."""
    env = {
        "PATH": f"{BIN}:{os.environ.get('PATH', '')}",
        "HOME": str(folder),
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": HOST,
        "CSRF_TRUSTED_ORIGINS": ORIGIN,
        "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https",
        "DATABASE_URL": database_url,
        "STATIC_ROOT": str(folder / "static"),
        "LOG_LEVEL": "WARNING",
    }
    python = str(BIN / "python")
    run([python, "manage.py", "migrate", "--noinput"], env)
    run([python, "manage.py", "collectstatic", "--noinput"], env)
    # As `make run` does (it refuses to run with DEBUG off).
    run([python, "manage.py", "load_examples"], {**env, "DEBUG": "true"})
    port = free_port()
    log = folder / "gunicorn.log"
    cpu_log = folder / "cpu.tsv"
    hooks = folder / "hooks.py"
    hooks.write_text(f"PATH = {str(cpu_log)!r}\n{HOOKS}")
    with log.open("wb") as output:
        process = subprocess.Popen(  # noqa: S603 (our own command)
            [str(BIN / "gunicorn"), "workbench.wsgi", "--bind", f"127.0.0.1:{port}"]
            + ["--workers", str(WORKERS), "--config", str(hooks)],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    # The simulation jobs' worker, as `make run` and the README's production
    # layout start it beside the app servers.
    with (folder / "worker.log").open("wb") as output:
        worker = subprocess.Popen(  # noqa: S603 (our own command)
            [python, "manage.py", "db_worker"],
            cwd=ROOT,
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise SystemExit(f"gunicorn exited:\n{log.read_text()}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("gunicorn did not start within 60 s") from None
                time.sleep(0.2)
        roots = [process.pid, worker.pid] + ([db_server] if db_server else [])
        yield Server(port, roots, log, cpu_log, env)
    finally:
        for started in (process, worker):
            os.killpg(started.pid, signal.SIGTERM)
            try:
                started.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(started.pid, signal.SIGKILL)
                started.wait()


# The users ------------------------------------------------------------------


class FormInputs(HTMLParser):
    """The fields of the forms of a page, as a browser would send them."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[tuple[str, list[tuple[str, str]]]] = []
        self._select: str | None = None
        self._options: list[tuple[str, bool]] = []
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self.forms.append((a.get("action", ""), []))
        elif tag == "option" and self._select:
            self._options.append((a.get("value", ""), "selected" in a))
        elif not self.forms or "name" not in a or "disabled" in a:
            return
        elif tag == "input":
            kind = a.get("type", "text")
            if kind in ("checkbox", "radio"):
                if "checked" in a:
                    self.forms[-1][1].append((a["name"], a.get("value", "on")))
            elif kind not in ("submit", "button", "file", "image", "reset"):
                self.forms[-1][1].append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select, self._options = a["name"], []
        elif tag == "textarea":
            self._textarea, self._text = a["name"], []

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select and self._options:
            # A browser sends the first option when none is selected.
            chosen = [v for v, selected in self._options if selected]
            self.forms[-1][1].append(
                (self._select, (chosen or [self._options[0][0]])[0])
            )
            self._select = None
        elif tag == "textarea" and self._textarea and self.forms:
            self.forms[-1][1].append((self._textarea, "".join(self._text)))
            self._textarea = None


def forms_of(html: str) -> list[tuple[str, list[tuple[str, str]]]]:
    parser = FormInputs()
    parser.feed(html)
    return parser.forms


@dataclass
class Stats:
    started: float = 0.0
    stopping: float = 0.0
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    examples: dict[str, str] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, seconds: float, error: str | None) -> None:
        with self.lock:
            self.times[kind].append(seconds)
            if error:
                self.errors[kind] += 1
                self.examples.setdefault(kind, error)


class Failed(Exception):
    pass


class User:
    def __init__(self, server: Server, stats: Stats, number: int) -> None:
        self.server = server
        self.stats = stats
        self.number = number
        self.random = random.Random(number)
        self.cookies: dict[str, str] = {}
        self.example = list(examples())[number % len(examples())]

    def request(
        self,
        kind: str | None,
        method: str,
        path: str,
        data: list[tuple[str, str]] | None = None,
        *,
        htmx: bool = False,
        referer: str = "",
    ) -> tuple[int, dict[str, str], str]:
        """One request, timed under `kind` while the run's clock is on."""
        headers = {"Host": HOST, "X-Forwarded-Proto": "https"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if htmx:
            headers["HX-Request"] = "true"
        if kind and self.stats.started <= time.monotonic() < self.stats.stopping:
            headers["X-Bench-Kind"] = kind  # its CPU logged by the worker
        body = None
        if method == "POST":
            data = [*(data or []), ("csrfmiddlewaretoken", self.cookies["csrftoken"])]
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = ORIGIN
            headers["Referer"] = f"{ORIGIN}{referer or path}"
        began, start = time.monotonic(), time.perf_counter()
        error = None
        status, answer, text = 0, {}, ""
        try:
            connection = http.client.HTTPConnection(
                "127.0.0.1", self.server.port, timeout=TIMEOUT_S
            )
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            status, content = response.status, response.read()
            answer = {k.lower(): v for k, v in response.getheaders()}
            for value in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(value).items():
                    self.cookies[name] = morsel.value
            connection.close()
            text = content.decode("utf-8", "replace")
            if status >= 400:
                error = f"{status} {method} {path}"
        except (OSError, http.client.HTTPException) as exc:
            error = f"{type(exc).__name__} {method} {path}: {exc}"
        seconds = time.perf_counter() - start
        # Counted if sent while the clock runs, however long it then takes.
        if kind and self.stats.started <= began < self.stats.stopping:
            self.stats.add(kind, seconds, error)
        if error:
            raise Failed(error)
        return status, answer, text

    def log_in(self, username: str, session: str, password: str) -> None:
        """Into a session of its own: made on the server beforehand, or
        through the login form (`--login-form`). Then its own copy of an
        example."""
        if session:
            self.cookies["sessionid"] = session
            self.request(None, "GET", "/")  # the CSRF cookie
        else:
            self.request(None, "GET", "/login/")
            status, _, _ = self.request(
                None,
                "POST",
                "/login/",
                [("username", username), ("password", password)],
            )
            if status != 302 or "sessionid" not in self.cookies:
                raise Failed(f"login failed: {status}")
        status, answer, _ = self.request(
            None, "POST", f"/projects/examples/{self.example.slug}/"
        )
        self.base = answer["location"]  # /projects/<id>/

    def step(self) -> None:
        """One click of the mix."""
        base = self.base
        design = self.example.design
        entity = self.random.choice(design.entities).name
        position = self.random.randrange(len(design.access_patterns))
        section = self.random.choice(
            [
                ("overview", ""),
                ("table", "table/"),
                ("entities", "entities/"),
                ("patterns", "patterns/"),
                ("key map", "key-map/"),
                ("collections", "collections/"),
                ("diagrams", "diagrams/"),
                ("simulation", "simulation/"),
                ("review", "review/"),
                ("export", "export/"),
                ("history", "history/"),
            ]
        )
        actions = [
            (8, lambda: self.request(f"page {section[0]}", "GET", base + section[1])),
            (2, lambda: self.request("page project list", "GET", "/")),
            (
                6,
                lambda: self.request(
                    f"partial {section[0]}", "GET", base + section[1], htmx=True
                ),
            ),
            (
                2,
                lambda: self.request(
                    "partial entity editor",
                    "GET",
                    f"{base}entities/{entity}/",
                    htmx=True,
                ),
            ),
            (
                2,
                lambda: self.request(
                    "partial pattern editor",
                    "GET",
                    f"{base}patterns/{position}/",
                    htmx=True,
                ),
            ),
            (
                2,
                lambda: self.request(
                    "partial review findings",
                    "GET",
                    f"{base}findings/patterns/",
                    htmx=True,
                ),
            ),
            (
                1,
                lambda: self.request(
                    "partial undo bar", "GET", f"{base}undo-bar/", htmx=True
                ),
            ),
            (2, lambda: self.edit(position)),
            (
                3,
                lambda: self.request(
                    "simulation pattern",
                    "GET",
                    f"{base}simulation/{position}/",
                    htmx=True,
                ),
            ),
            (
                1,
                lambda: self.request(
                    "diagram overview svg", "GET", f"{base}diagrams/diagram.svg"
                ),
            ),
            (
                1,
                lambda: self.request(
                    "diagram collections svg",
                    "GET",
                    f"{base}diagrams/diagram.svg?kind=collections",
                ),
            ),
            (
                1,
                lambda: self.request(
                    "export terraform", "GET", f"{base}export/terraform/download/"
                ),
            ),
            (
                1,
                lambda: self.request(
                    "export cloudformation",
                    "GET",
                    f"{base}export/cloudformation-yaml/download/",
                ),
            ),
        ]
        weights, calls = zip(*actions, strict=True)
        self.random.choices(calls, weights)[0]()

    def edit(self, position: int) -> None:
        """The pattern's requests per second changed in its form, saved,
        then taken back with the Undo button."""
        base = self.base
        _, _, html = self.request(
            "partial pattern editor", "GET", f"{base}patterns/{position}/", htmx=True
        )
        prefix = f"p{position}-"
        form = next(
            (
                fields
                for _, fields in forms_of(html)
                if any(n.startswith(prefix) for n, _ in fields)
            ),
            None,
        )
        if form is None:
            raise Failed(f"no pattern form in {base}patterns/{position}/")
        fields = [
            (n, str(self.random.randint(1, 500)) if n == f"{prefix}rps" else v)
            for n, v in form
            if n != "csrfmiddlewaretoken"
        ]
        time.sleep(self.random.uniform(*THINK_S))
        self.request(
            "edit save pattern",
            "POST",
            f"{base}patterns/{position}/",
            fields,
            htmx=True,
        )
        _, _, bar = self.request(
            "partial undo bar", "GET", f"{base}undo-bar/", htmx=True
        )
        number = re.search(r'name="number" value="(\d+)"', bar)
        if number is None:
            raise Failed("nothing to undo after a save")
        time.sleep(self.random.uniform(*THINK_S))
        self.request(
            "edit undo", "POST", f"{base}undo/", [("number", number[1])], referer=base
        )

    def loop(self) -> None:
        while time.monotonic() < self.stats.stopping:
            with contextlib.suppress(Failed):
                self.step()
            time.sleep(self.random.uniform(*THINK_S))


def measure(
    server: Server, users: int, seconds: float, login_form: bool
) -> tuple[Stats, float, float]:
    """The users' run: the stats, its wall seconds and the server's CPU
    seconds over it."""
    stats = Stats()
    people = [User(server, stats, n) for n in range(users)]
    start = time.perf_counter()
    password = secrets.token_urlsafe(12) if login_form else ""
    accounts = server.accounts(users, password)
    # Logging in through the form checks the password (PBKDF2, 1.5 s of CPU
    # on a slow core): a few at a time, so that none times out.
    with_threads(
        people,
        lambda person: person.log_in(*accounts[person.number], password),
        at_once=WORKERS,
    )
    how = "through the login form" if login_form else "sessions made on the server"
    print(
        f"  {users} users logged in ({how}) and copied an example in "
        f"{time.perf_counter() - start:.1f} s (not counted)"
    )
    cpu_before = sum(tree_cpu(root) for root in server.roots)
    stats.started = time.monotonic()
    stats.stopping = stats.started + seconds
    start = time.perf_counter()
    with_threads(people, User.loop)
    wall = time.perf_counter() - start
    return stats, wall, sum(tree_cpu(root) for root in server.roots) - cpu_before


def with_threads(people: list[User], method, at_once: int = 0) -> None:
    """`method` of every user, each in a thread, at most `at_once` at a
    time (0: all at once)."""
    slots = threading.Semaphore(at_once or len(people))
    failures = []

    def call(person: User) -> None:
        with slots:
            try:
                method(person)
            except Exception as exc:  # reported below
                failures.append(f"{type(exc).__name__}: {exc}")

    # Daemons: on Ctrl-C the servers are stopped and the bench ends at once.
    threads = [threading.Thread(target=call, args=(p,), daemon=True) for p in people]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if failures:
        raise SystemExit(f"{len(failures)} users failed: {failures[0]}")


# The report -----------------------------------------------------------------


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


@dataclass
class Spent:
    """What the server's workers logged of a kind's requests: the CPU
    seconds of each, and its wall seconds inside the worker."""

    cpu: list[float] = field(default_factory=list)
    wall: list[float] = field(default_factory=list)


def server_cpu(cpu_log: Path) -> dict[str, Spent]:
    """The server's CPU and in-worker seconds of each labelled request, by
    kind."""
    spent: dict[str, Spent] = defaultdict(Spent)
    if cpu_log.exists():
        for line in cpu_log.read_text().splitlines():
            kind, cpu, wall = line.rsplit("\t", 2)
            spent[kind].cpu.append(float(cpu))
            spent[kind].wall.append(float(wall))
    return spent


def _ms(values: list[float], share: float) -> str:
    return f"{percentile(values, share) * 1000:.0f}" if values else "-"


def report(
    label: str,
    stats: Stats,
    wall: float,
    cpu: float,
    by_kind: dict[str, Spent],
    users: int,
) -> bool:
    """Per kind and overall: client latency, in-worker wall time and server
    CPU (p50 and p95), the kind's share of the labelled CPU; then the
    verdicts against the client-latency target and the server-CPU one."""
    total = sum(len(v) for v in stats.times.values())
    errors = sum(stats.errors.values())
    labelled = sum(sum(v.cpu) for v in by_kind.values()) or 1.0
    print(
        f"  {'':<28} {'':>5} {'':>6}  {'client ms':^11}  {'in worker ms':^11}"
        f"  {'server CPU ms':^11}"
    )
    print(
        f"  {'kind':<28} {'count':>5} {'errors':>6}  {'p50':>5} {'p95':>5}  "
        f"{'p50':>5} {'p95':>5}  {'p50':>5} {'p95':>5} {'share':>6}"
    )

    def row(name: str, count: int, errs: int, times: list[float], spent: Spent):
        print(
            f"  {name:<28} {count:5d} {errs:6d}  {_ms(times, 0.5):>5} "
            f"{_ms(times, 0.95):>5}  {_ms(spent.wall, 0.5):>5} "
            f"{_ms(spent.wall, 0.95):>5}  {_ms(spent.cpu, 0.5):>5} "
            f"{_ms(spent.cpu, 0.95):>5} {sum(spent.cpu) / labelled:6.1%}"
        )

    # The dearest kinds first: by their server CPU's p95.
    rows = sorted(
        stats.times.items(),
        key=lambda kv: -percentile(by_kind[kv[0]].cpu or [0.0], 0.95),
    )
    for kind, times in rows:
        row(kind, len(times), stats.errors.get(kind, 0), times, by_kind[kind])
    every = Spent(
        [t for v in by_kind.values() for t in v.cpu],
        [t for v in by_kind.values() for t in v.wall],
    )
    row(
        "all",
        total,
        errors,
        [t for v in stats.times.values() for t in v],
        every,
    )
    print(
        f"  {total} requests in {wall:.1f} s wall ({total / wall:.1f}/s), {errors} "
        f"errors; server CPU {cpu:.1f} s ({cpu / wall:.2f} cores of {os.cpu_count()}),"
        f" {cpu / max(total, 1) * 1000:.1f} ms CPU a request (the workers' "
        f"{sum(every.cpu) / max(len(every.cpu), 1) * 1000:.1f} ms, the rest the "
        f"database's and the job worker's): at most "
        f"{os.cpu_count() * total / max(cpu, 1e-9):.1f} requests/s on these cores"
    )
    for kind, example in sorted(stats.examples.items()):
        print(f"    first error of {kind}: {example}")
    if every.cpu and total:
        # Sizing (README, "In production"): the clicks each user made a
        # second here; the cores they keep busy (every server process's CPU
        # per request); the sync workers they keep busy (Little's law: the
        # request rate times the mean time a request holds a worker, which
        # on busy shared cores counts their waiting for a core too).
        clicks = total / wall / users
        held = sum(every.wall) / len(every.wall)
        per_request = cpu / total
        print(
            f"  {label}: sizing: {clicks:.2f} clicks a user a second; per 100 "
            f"such users {100 * clicks:.0f} requests/s, "
            f"{100 * clicks * per_request:.2f} cores of CPU "
            f"({per_request * 1000:.1f} ms a request) and "
            f"{100 * clicks * held:.1f} workers busy on average "
            f"({held * 1000:.0f} ms a request inside a worker)"
        )
    met = errors == 0
    for group in ("page", "partial"):
        times = [
            t for kind, v in stats.times.items() if kind.startswith(group) for t in v
        ]
        if not times:
            continue
        p95 = percentile(times, 0.95)
        verdict = "meets" if p95 < TARGET_P95_S else "MISSES"
        met &= p95 < TARGET_P95_S
        print(
            f"  {label}: {group} requests p95 {p95 * 1000:.0f} ms, p50 "
            f"{percentile(times, 0.5) * 1000:.0f} ms   target "
            f"{TARGET_P95_S * 1000:.0f} ms, ratio {p95 / TARGET_P95_S:.2f}  {verdict}"
        )
    print(
        f"  {label}: {'meets' if met else 'MISSES'} the target (0 errors, p95 < 500 ms)"
    )
    if every.cpu:
        p95 = percentile(every.cpu, 0.95)
        print(
            f"  {label}: server CPU p95 {p95 * 1000:.1f} ms, p50 "
            f"{percentile(every.cpu, 0.5) * 1000:.1f} ms over {len(every.cpu)} "
            f"requests   target {TARGET_CPU_P95_S * 1000:.0f} ms, ratio "
            f"{p95 / TARGET_CPU_P95_S:.2f}  "
            f"{'meets' if p95 <= TARGET_CPU_P95_S else 'MISSES'}"
        )
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument(
        "--database", choices=("sqlite", "postgresql", "both"), default="both"
    )
    parser.add_argument(
        "--login-form",
        action="store_true",
        help="log each user in through the login form (1.5 s of CPU each "
        "here) rather than make their sessions on the server",
    )
    options = parser.parse_args()
    databases = (
        ["sqlite", "postgresql"] if options.database == "both" else [options.database]
    )
    has_postgres = bool(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    print(
        f"{options.users} users for {options.seconds:.0f} s on gunicorn "
        f"({WORKERS} workers, {os.cpu_count()} cores), think time "
        f"{THINK_S[0]}-{THINK_S[1]} s"
    )
    for database in databases:
        if database == "postgresql" and not has_postgres:
            print("== PostgreSQL: skipped, no /usr/lib/postgresql/*/bin/initdb")
            continue
        print(f"== {database}")
        with tempfile.TemporaryDirectory(prefix="workbench-load-") as name:
            folder = Path(name)
            with contextlib.ExitStack() as stack:
                if database == "sqlite":
                    url, db_server = f"sqlite:///{folder}/workbench.sqlite3", None
                else:
                    os.chmod(folder, 0o755)  # noqa: S103 (the postgres user enters it)
                    url, db_server = stack.enter_context(postgresql(folder))
                server = stack.enter_context(gunicorn(folder, url, db_server))
                stats, wall, cpu = measure(
                    server, options.users, options.seconds, options.login_form
                )
            report(
                database,
                stats,
                wall,
                cpu,
                server_cpu(server.cpu_log),
                options.users,
            )
            # Workers killed at gunicorn's 30 s timeout, and server errors.
            log = server.log.read_text(errors="replace").splitlines()
            trouble = [line for line in log if TROUBLE.search(line)]
            if trouble:
                print(f"  gunicorn's log: {len(trouble)} lines of trouble, such as")
                print("    " + "\n    ".join(dict.fromkeys(trouble[:12])))


if __name__ == "__main__":
    main()
