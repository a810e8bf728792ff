"""The README's production set-up, followed as written.

The commands of the README's "In production" block run in order, in a
fresh process each, with the variables it exports (set to test values: an
SQLite database and a temporary STATIC_ROOT); its gunicorn line starts the
server on a free port. Then, as a TLS proxy would (Host and
X-Forwarded-Proto), a page is fetched and every stylesheet, script and icon
it links: each is served with a hashed name, compressed on request and
cached for ten years; an account is created through the sign-up form.
"""

from __future__ import annotations

import gzip
import http.client
import os
import re
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HOST = "workbench.example.com"
TEN_YEARS = 315_360_000


def readme_block() -> list[str]:
    """The lines of the README's production commands."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("### In production", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    assert block, "the README's production section has no sh block"
    return [line for line in block[1].splitlines() if line.strip()]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    lines = readme_block()
    exported = [line for line in lines if line.startswith("export ")]
    commands = [line for line in lines if not line.startswith("export ")]
    variables = {line.removeprefix("export ").split("=", 1)[0] for line in exported}
    assert variables == {
        "DEBUG",
        "SECRET_KEY",
        "ALLOWED_HOSTS",
        "CSRF_TRUSTED_ORIGINS",
        "SECURE_PROXY_SSL_HEADER",
        "TRUSTED_PROXY_COUNT",
        "DATABASE_URL",
    }
    folder = tmp_path_factory.mktemp("production")
    env = {
        "PATH": f"{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
        "HOME": str(folder),
        "DEBUG": "false",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "ALLOWED_HOSTS": HOST,
        "CSRF_TRUSTED_ORIGINS": f"https://{HOST}",
        "SECURE_PROXY_SSL_HEADER": "HTTP_X_FORWARDED_PROTO,https",
        "TRUSTED_PROXY_COUNT": "1",
        "DATABASE_URL": f"sqlite:///{folder}/workbench.sqlite3",
        "STATIC_ROOT": str(folder / "static"),
    }
    # The suite already runs in the virtualenv that `make venv` makes.
    assert commands[0] == "make venv"
    *steps, serve = commands[1:]
    for step in steps:
        argv = _local(shlex.split(step))
        done = subprocess.run(  # the README's own commands
            argv, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, (step, done.stdout, done.stderr)
        if "check" in argv:
            assert "System check identified no issues" in done.stdout, done.stderr
    port = free_port()
    argv = _local(shlex.split(serve.replace("127.0.0.1:8000", f"127.0.0.1:{port}")))
    assert argv[-4:-2] == ["--bind", f"127.0.0.1:{port}"]
    output = folder / "gunicorn.log"
    with output.open("wb") as log:
        process = subprocess.Popen(  # the README's own command
            argv,
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        _wait_for(port, process, output)
        yield Server(port, output)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


@dataclass(frozen=True)
class Server:
    port: int
    output: Path  # gunicorn's output, where emails go without EMAIL_HOST


def _local(argv: list[str]) -> list[str]:
    """`.venv/bin/x` as the x of the interpreter running the suite."""
    if argv[0].startswith(".venv/bin/"):
        name = argv[0].removeprefix(".venv/bin/")
        argv[0] = (
            sys.executable
            if name == "python"
            else str(Path(sys.executable).parent / name)
        )
    return argv


def _wait_for(port: int, process: subprocess.Popen, output: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"gunicorn exited: {output.read_text()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    pytest.fail("gunicorn did not start within 60 s")


def fetch(server: Server, path: str, method: str = "GET", body: str = "", **headers):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    headers = {"Host": HOST, "X-Forwarded-Proto": "https", **headers}
    if body:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    connection.request(method, path, body=body or None, headers=headers)
    response = connection.getresponse()
    return response.status, dict(response.getheaders()), response.read()


def test_a_page_and_every_static_file_it_links_are_served(server):
    status, headers, body = fetch(server, "/login/")
    assert status == 200, body[:500]
    html = body.decode()
    assert "Strict-Transport-Security" in headers
    linked = re.findall(r'(?:href|src)="(/static/[^"]+)"', html)
    kinds = {Path(url).suffix for url in linked}
    assert {".css", ".js", ".svg"} <= kinds, linked
    for url in linked:
        # A hashed name: workbench.3f2a9c1b0d4e.css
        assert re.search(r"\.[0-9a-f]{12}\.\w+$", url), url
        status, headers, content = fetch(server, url, **{"Accept-Encoding": "gzip"})
        assert status == 200, url
        assert f"max-age={TEN_YEARS}" in headers["Cache-Control"], (url, headers)
        if url.endswith((".css", ".js", ".svg")):
            assert headers.get("Content-Encoding") == "gzip", (url, headers)
            assert gzip.decompress(content)


def test_a_file_that_is_not_there_is_a_404(server):
    status, _, _ = fetch(server, "/static/css/no-such-file.css")
    assert status == 404


def test_a_new_user_signs_up_through_the_proxy(server):
    status, headers, body = fetch(server, "/signup/")
    assert status == 200
    cookie = SimpleCookie(headers["Set-Cookie"])["csrftoken"]
    assert "Secure" in headers["Set-Cookie"]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body.decode())[1]
    password = secrets.token_urlsafe(16)
    form = (
        f"csrfmiddlewaretoken={token}&username=newcomer"
        f"&email=newcomer%40example.com&password1={password}&password2={password}"
    )
    status, headers, body = fetch(
        server,
        "/signup/",
        "POST",
        form,
        Cookie=f"csrftoken={cookie.value}",
        Origin=f"https://{HOST}",
        Referer=f"https://{HOST}/signup/",
    )
    assert status == 200, body[:1000]
    assert b"We have sent a message to" in body
    # Without EMAIL_HOST the email is in gunicorn's output: follow its link,
    # built for the host and scheme the proxy gave.
    deadline = time.monotonic() + 10
    while not (
        found := re.search(
            rf"https://{HOST}(/signup/confirm/\S+/)", server.output.read_text()
        )
    ):
        assert time.monotonic() < deadline, server.output.read_text()[-2000:]
        time.sleep(0.1)
    # Opening the link asks to confirm (a mail scanner following it
    # activates nothing); its button does it.
    status, _, body = fetch(server, found[1], Cookie=f"csrftoken={cookie.value}")
    assert status == 200, body[:1000]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body.decode())[1]
    status, headers, _ = fetch(
        server,
        found[1],
        "POST",
        f"csrfmiddlewaretoken={token}",
        Cookie=f"csrftoken={cookie.value}",
        Origin=f"https://{HOST}",
        Referer=f"https://{HOST}{found[1]}",
    )
    assert status == 302
    assert headers["Location"] == "/"
    session = SimpleCookie(headers["Set-Cookie"])["sessionid"]
    status, headers, body = fetch(server, "/", Cookie=f"sessionid={session.value}")
    assert status == 200
    assert b"newcomer" in body
    # Kept by no cache, unlike the static files.
    assert headers["Cache-Control"] == "private, no-store"


def _login_form(server: Server, **headers) -> tuple[str, str]:
    """A CSRF cookie and token from the login page."""
    status, response_headers, body = fetch(server, "/login/", **headers)
    assert status == 200
    cookie = SimpleCookie(response_headers["Set-Cookie"])["csrftoken"].value
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body.decode())[1]
    return cookie, token


def test_clients_behind_the_proxy_are_told_apart(server):
    """Every request comes from the proxy's address; the client is the
    entry the proxy appended to X-Forwarded-For, not one it was sent."""

    def login(forwarded: str) -> int:
        cookie, token = _login_form(server, **{"X-Forwarded-For": forwarded})
        status, _, _ = fetch(
            server,
            "/login/",
            "POST",
            f"csrfmiddlewaretoken={token}&username=someone&password=wrong",
            Cookie=f"csrftoken={cookie}",
            Origin=f"https://{HOST}",
            Referer=f"https://{HOST}/login/",
            **{"X-Forwarded-For": forwarded},
        )
        return status

    statuses = [login("203.0.113.9, 198.51.100.7") for _ in range(5)]
    assert statuses == [200] * 4 + [429]
    # Another client through the same proxy is not refused.
    assert login("203.0.113.9") == 200
