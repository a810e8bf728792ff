"""Load: 50 users at once on gunicorn, as in production (issue 13).

The server is started as the README's "In production" block does (DEBUG
off, a secret key, collectstatic, gunicorn behind a TLS proxy's headers)
with 4 workers, on a throwaway SQLite database in a temporary directory
holding the examples (`migrate`, then `load_examples`, which runs with
DEBUG on and prints the demo account's password); then again on a
throwaway PostgreSQL server when its binaries are installed
(/usr/lib/postgresql/*/bin, started as .ci/run does, as the postgres user
when run as root).

Each simulated user is a thread with its own session: it logs in through
the login form, copies an example into its own projects (Start from an
example, so that its edits do not conflict with the others'), then, for
the measured time, clicks through a mix with a pause between clicks (think
time, 0.5 to 1.5 s): project pages and sections, htmx partials (with the
HX-Request header: a tab click, an entity's or a pattern's editor, the
review's findings, the Undo bar), an edit through the pattern form
(the requests per second changed, then the Undo button), a simulation
pattern's result, the SVG diagrams, and the Terraform and CloudFormation
exports. Every POST carries its CSRF token.

Printed per request kind: count, errors (a status of 400 or more, or no
answer within 60 s), wall p50/p95/max; the CPU seconds of the server's
processes (gunicorn's master and workers with the children they ran,
Graphviz and cfn-lint; PostgreSQL's) beside the run's wall seconds; and
the p95 of page and of partial requests against the issue's target:
0 errors and p95 under 500 ms.

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
THINK_S = (0.5, 1.5)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# The server -----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cpu_seconds(pids: set[int]) -> dict[int, float]:
    """User and system CPU of each process, with that of the children it
    waited for (Graphviz, cfn-lint), from /proc."""
    seconds = {}
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        utime, stime, cutime, cstime = (int(v) for v in fields[11:15])
        seconds[pid] = (utime + stime + cutime + cstime) / CLOCK_TICKS
    return seconds


def session_pids(session: int) -> set[int]:
    """The processes of a session (gunicorn starts its own, and so does
    PostgreSQL's postmaster)."""
    pids = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[3]) == session:
                pids.add(int(entry))
    return pids


class CpuMeter:
    """CPU seconds of a session's processes over a stretch of time; a
    process that ends in between is counted up to its last reading."""

    def __init__(self, session: int) -> None:
        self.session = session
        self.first = cpu_seconds(session_pids(session))
        self.last = dict(self.first)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.5):
            self.last.update(cpu_seconds(session_pids(self.session)))

    def stop(self) -> float:
        self._stop.set()
        self._thread.join()
        self.last.update(cpu_seconds(session_pids(self.session)))
        return sum(v - self.first.get(pid, 0.0) for pid, v in self.last.items())


def run(argv: list[str], env: dict[str, str], **kwargs) -> str:  # noqa: ANN003
    done = subprocess.run(  # noqa: S603 (our own commands)
        argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, **kwargs
    )
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed:\n{done.stdout}\n{done.stderr}")
    return done.stdout


@contextlib.contextmanager
def postgresql(folder: Path) -> Iterator[tuple[str, int]]:
    """A throwaway PostgreSQL server (as .ci/run starts one): its URL and
    the session of its processes."""
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
        yield f"postgres://workbench@127.0.0.1:{port}/workbench", os.getsid(postmaster)
    finally:
        subprocess.run([*stop, "stop"], env=env, capture_output=True, check=False)  # noqa: S603


@dataclass
class Server:
    port: int
    password: str
    sessions: list[int]  # gunicorn's, and the database server's if any
    log: Path


@contextlib.contextmanager
def gunicorn(
    folder: Path, database_url: str, db_session: int | None
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
    # load_examples gives the demo account a known password: DEBUG only.
    printed = run([python, "manage.py", "load_examples"], {**env, "DEBUG": "true"})
    password = re.search(r"with password '([^']+)'", printed)[1]
    port = free_port()
    log = folder / "gunicorn.log"
    with log.open("wb") as output:
        process = subprocess.Popen(  # noqa: S603 (our own command)
            [str(BIN / "gunicorn"), "workbench.wsgi", "--bind", f"127.0.0.1:{port}"]
            + ["--workers", str(WORKERS)],
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
        sessions = [process.pid] + ([db_session] if db_session else [])
        yield Server(port, password, sessions, log)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


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

    def log_in(self) -> None:
        self.request(None, "GET", "/login/")
        status, answer, _ = self.request(
            None,
            "POST",
            "/login/",
            [("username", "demo"), ("password", self.server.password)],
        )
        if status != 302 or "sessionid" not in self.cookies:
            raise SystemExit(f"login failed: {status}")
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


def measure(server: Server, users: int, seconds: float) -> tuple[Stats, float, float]:
    """The users' run: the stats, its wall seconds and the server's CPU
    seconds over it."""
    stats = Stats()
    people = [User(server, stats, n) for n in range(users)]
    start = time.perf_counter()
    # Logging in hashes the password (about 0.5 s of CPU): a few at a time,
    # so that the set-up does not time out on a small machine.
    with_threads(people, User.log_in, at_once=WORKERS)
    print(
        f"  {users} users logged in and copied an example in "
        f"{time.perf_counter() - start:.1f} s (not counted)"
    )
    meters = [CpuMeter(session) for session in server.sessions]
    stats.started = time.monotonic()
    stats.stopping = stats.started + seconds
    start = time.perf_counter()
    with_threads(people, User.loop)
    wall = time.perf_counter() - start
    return stats, wall, sum(meter.stop() for meter in meters)


def with_threads(people: list[User], method, at_once: int = 0) -> None:  # noqa: ANN001
    """`method` of every user, each in a thread, at most `at_once` at a
    time (0: all at once)."""
    slots = threading.Semaphore(at_once or len(people))
    failures = []

    def call(person: User) -> None:
        with slots:
            try:
                method(person)
            except Failed as exc:
                failures.append(str(exc))

    threads = [threading.Thread(target=call, args=(p,)) for p in people]
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


def report(label: str, stats: Stats, wall: float, cpu: float) -> bool:
    total = sum(len(v) for v in stats.times.values())
    errors = sum(stats.errors.values())
    print(
        f"  {'kind':<34} {'count':>6} {'errors':>6} {'p50 ms':>8} {'p95 ms':>8} "
        f"{'max ms':>8}"
    )
    rows = sorted(stats.times.items(), key=lambda kv: -percentile(kv[1], 0.95))
    for kind, times in rows:
        print(
            f"  {kind:<34} {len(times):6d} {stats.errors.get(kind, 0):6d} "
            f"{percentile(times, 0.5) * 1000:8.0f} "
            f"{percentile(times, 0.95) * 1000:8.0f} {max(times) * 1000:8.0f}"
        )
    print(
        f"  {total} requests in {wall:.1f} s wall ({total / wall:.1f}/s), {errors} "
        f"errors; server CPU {cpu:.1f} s ({cpu / wall:.2f} cores of {os.cpu_count()}),"
        f" {cpu / max(total, 1) * 1000:.0f} ms CPU a request: at most "
        f"{os.cpu_count() * total / max(cpu, 1e-9):.1f} requests/s on these cores"
    )
    for kind, example in sorted(stats.examples.items()):
        print(f"    first error of {kind}: {example}")
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
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument(
        "--database", choices=("sqlite", "postgresql", "both"), default="both"
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
                    url, db_session = f"sqlite:///{folder}/workbench.sqlite3", None
                else:
                    os.chmod(folder, 0o755)  # noqa: S103 (the postgres user enters it)
                    url, db_session = stack.enter_context(postgresql(folder))
                server = stack.enter_context(gunicorn(folder, url, db_session))
                stats, wall, cpu = measure(server, options.users, options.seconds)
            report(database, stats, wall, cpu)
            log = server.log.read_text(errors="replace")
            if "Traceback" in log or "WORKER TIMEOUT" in log:
                print("  gunicorn's log has errors:")
                print("    " + "\n    ".join(log.splitlines()[-15:]))


if __name__ == "__main__":
    main()
