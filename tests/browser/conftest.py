"""Browser tests: real Chromium (Debian's) driven by Playwright against the
live test server. Skipped, with the reason, where Chromium is absent;
.ci/run installs it so CI always runs them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# How long an action or an assertion waits for its condition.
BROWSER_WAIT_MS = 30_000
PASSWORD = "correct-horse-battery"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def review_settled(page) -> None:
    """The review's findings have come into the page (its loaders ask again
    while the simulation runs): a click made then is the only answer on its
    way, and no finding coming in above what it aims at moves it. (Under
    two suites at once, an Edit clicked meanwhile once never showed its
    form, and a delete's confirm button, moved down by findings as it was
    clicked, was missed.)"""
    from playwright.sync_api import expect

    loading = ".review-loader[hx-get], .review-loader [hx-get]"
    expect(page.locator(loading)).to_have_count(0)


# Playwright's sync API runs an event loop in this thread; the ORM calls the
# tests make between page actions are safe here (one thread, one test).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.skip(
            "Chromium is not installed at /usr/bin/chromium "
            "(apt-get install chromium; .ci/run does it)"
        )
    from playwright.sync_api import expect, sync_playwright

    # An assertion waits for its condition as long as an action does: on a
    # busy shared machine a save and its page can take more than
    # Playwright's 5 s (an approval's status badge did, once in a full run),
    # and at a load of 20 on 2 cores a login, a page load and a review page's
    # findings each took more than 10 s. A wait ends when its condition
    # holds, so a longer limit costs only a failing test's time.
    expect.set_options(timeout=BROWSER_WAIT_MS)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


# Console errors that are not: the browser's line for a response the
# application sends on purpose (a form with errors answers 422, a stale save
# 409, an element someone removed 410, a login while paused 429). A failed
# response still logs htmx:responseError, which fails the test.
_EXPECTED = re.compile(
    r"^Failed to load resource: the server responded with a status of "
    r"(409|410|422|429)\b"
)


@pytest.fixture(params=[False, True], ids=["debug-off", "debug-on"])
def debug(request, settings):
    """Each browser test runs with production's DEBUG off and with the
    README's `make run` set-up (DEBUG on), where django-htmx adds its
    debug error handler and Django its debug pages."""
    settings.DEBUG = request.param
    return request.param


def _watched_page(browser, base_url: str, problems: list[str]):
    """A page in a context of its own (a browser profile: its own cookies)
    whose console errors, page errors and Content-Security-Policy
    violations go into `problems`, except the status lines of deliberate
    409, 410, 422 and 429 answers."""
    context = browser.new_context(
        viewport={"width": 1280, "height": 900}, base_url=base_url
    )
    page = context.new_page()
    page.set_default_timeout(BROWSER_WAIT_MS)
    page.on(
        "console",
        lambda message: (
            problems.append(f"console {message.type}: {message.text}")
            if message.type == "error" and not _EXPECTED.match(message.text)
            else None
        ),
    )
    page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', (event) => "
        "console.error(`CSP violation: ${event.violatedDirective} ` + "
        "`${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`));"
    )
    return page


@pytest.fixture
def page(browser, live_server, debug):
    """A page that fails the test on any console error, uncaught page error
    or Content-Security-Policy violation (an inline script or style the
    policy blocked)."""
    problems: list[str] = []
    page = _watched_page(browser, live_server.url, problems)
    yield page
    page.context.close()
    assert problems == [], "\n".join(problems[:20])


@pytest.fixture
def other_page(browser, live_server, debug):
    """A second person's browser, watched like `page`."""
    problems: list[str] = []
    page = _watched_page(browser, live_server.url, problems)
    yield page
    page.context.close()
    assert problems == [], "\n".join(problems[:20])


@pytest.fixture
def screenshot(page, debug):
    """Saves a full-page screenshot under test-output/screenshots/, in a
    folder per DEBUG mode."""
    folder = SCREENSHOTS / ("debug-on" if debug else "debug-off")
    folder.mkdir(parents=True, exist_ok=True)

    def take(name: str, target=None, *, full_page: bool = True) -> Path:
        path = folder / f"{name}.png"
        (target or page).screenshot(path=str(path), full_page=full_page)
        return path

    return take


@pytest.fixture
def sign_up(page):
    """Sign up through the form as a new visitor does, then open the
    confirmation link of the email the site sent (the test server keeps
    emails in memory) and confirm there, which logs in."""
    from django.core import mail

    def sign_up_as(username: str, password: str = PASSWORD) -> None:
        address = f"{username}@example.com"
        page.goto("/signup/")
        page.fill("#id_username", username)
        page.fill("#id_email", address)
        page.fill("#id_password1", password)
        page.fill("#id_password2", password)
        page.click("button[type=submit]")
        page.wait_for_selector("text=Check your email")
        [message] = [m for m in mail.outbox if m.to == [address]]
        page.goto(re.search(r"https?://[^/\s]+(/signup/confirm/\S+)", message.body)[1])
        page.click("button:text('Confirm my account')")
        page.wait_for_selector(f"text=Welcome, {username}.")

    return sign_up_as
