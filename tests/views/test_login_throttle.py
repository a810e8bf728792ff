"""Logging in under attack: who is refused, for how long, and who never is
(modeler/infra/throttles.py has the rules)."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone

PROXY = "10.0.0.254"


def _login(username: str, password: str, address: str, client: Client | None = None):
    return (client or Client()).post(
        "/login/", {"username": username, "password": password}, REMOTE_ADDR=address
    )


def _via_proxy(username: str, password: str, forwarded: str):
    """A login through one nginx: the request comes from the proxy, which
    appended the address it saw to what the client sent."""
    client = Client()
    response = client.post(
        "/login/",
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        headers={"X-Forwarded-For": forwarded},
    )
    return response, client


def _logged_in(response, client: Client) -> bool:
    return response.status_code == 302 and SESSION_KEY in client.session


def _text(response) -> str:
    main = response.content.decode().split('<main class="container" id="main">')[1]
    return " ".join(re.sub(r"<[^>]+>", " ", main).split())


def test_a_stranger_failing_for_alice_does_not_stop_alice_elsewhere(owner, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT + 3):
        _login("owner", "wrong", "198.51.100.7")
    assert _login("owner", "pw-owner", "198.51.100.7").status_code == 429

    client = Client()
    assert _logged_in(_login("owner", "pw-owner", "203.0.113.9", client), client)


def test_behind_a_proxy_clients_are_told_apart_by_the_header(owner, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for _ in range(settings.AXES_FAILURE_LIMIT):
        refused, _ = _via_proxy("owner", "wrong", "198.51.100.7")
    assert refused.status_code == 429
    # A left-most entry of the attacker's own is not believed: still its
    # address, still refused, even with the right password.
    spoofed, _ = _via_proxy("owner", "pw-owner", "203.0.113.9, 198.51.100.7")
    assert spoofed.status_code == 429
    # The owner, through the same proxy from another address, logs in.
    response, client = _via_proxy("owner", "pw-owner", "203.0.113.9")
    assert _logged_in(response, client)
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {
        "198.51.100.7"
    }


def test_one_address_trying_many_usernames_is_stopped(owner, settings):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 6
    for number in range(6):
        response = _login(f"user{number}", "wrong", "198.51.100.7")
    assert response.status_code == 429
    assert "from your address is paused: it sent 6 wrong passwords, for any" in (
        _text(response)
    )
    # Any username from there, even with its right password...
    assert _login("owner", "pw-owner", "198.51.100.7").status_code == 429
    # ...but not from another address.
    client = Client()
    assert _logged_in(_login("owner", "pw-owner", "203.0.113.9", client), client)


def test_many_addresses_guessing_one_account_get_one_guess_each(owner, settings):
    settings.LOGIN_ACCOUNT_FAILURE_LIMIT = 6
    attackers = [f"198.51.100.{n}" for n in range(1, 7)]
    for address in attackers:
        last = _login("owner", "wrong", address)
    # The guess that reached the limit is refused at once...
    assert last.status_code == 429
    assert "it had 6 wrong passwords from several addresses" in _text(last)
    # ...and every address that guessed is refused from now on, even with
    # the right password.
    for address in attackers:
        assert _login("owner", "pw-owner", address).status_code == 429
    # A new address has its one guess, then is refused too.
    assert _login("owner", "wrong", "198.51.100.99").status_code == 429
    # The owner, from an address that never failed, logs in.
    client = Client()
    assert _logged_in(_login("owner", "pw-owner", "203.0.113.9", client), client)
    # Other accounts are not concerned.
    User.objects.create_user(username="bob", password="pw-bob")
    assert _login("bob", "pw-bob", attackers[0]).status_code == 302


def test_the_page_says_how_long_and_the_pause_ends_on_time(owner, settings):
    address = "198.51.100.7"
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = _login("owner", "wrong", address)
    text = _text(response)
    assert "Too many failed logins" in text
    assert (
        "Logging in as this username from your address is paused after 5 wrong "
        "passwords. Try again in 15 minutes." in text
    )
    # Ten minutes later, five are left; an attempt then is not counted.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=10))
    response = _login("owner", "wrong", address)
    assert "Try again in 5 minutes." in _text(response)
    assert AccessAttempt.objects.get().failures_since_start == 5
    # When the fifteen minutes are over, the right password works.
    AccessAttempt.objects.update(
        attempt_time=timezone.now() - timedelta(minutes=15, seconds=1)
    )
    client = Client()
    assert _logged_in(_login("owner", "pw-owner", address, client), client)


def test_the_pause_reads_the_same_for_a_username_with_no_account(owner, settings):
    pages = {}
    for username in ("owner", "nobody-at-all"):
        for _ in range(settings.AXES_FAILURE_LIMIT):
            response = _login(username, "wrong", f"198.51.100.{len(pages) + 1}")
        assert response.status_code == 429
        pages[username] = _text(response).replace(username, "NAME")
    assert pages["owner"] == pages["nobody-at-all"]


def test_a_password_reset_lets_its_owner_in_from_the_paused_address(
    owner, settings, mailoutbox
):
    owner.email = "owner@example.com"
    owner.save()
    address = "198.51.100.7"
    for _ in range(settings.AXES_FAILURE_LIMIT):
        _login("owner", "wrong", address)
    client = Client(REMOTE_ADDR=address)
    client.post("/password-reset/", {"email": "owner@example.com"})
    link = re.search(r"http://testserver(/\S+)", mailoutbox[-1].body)[1]
    form = client.get(link, follow=True)
    client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "another-horse-99", "new_password2": "another-horse-99"},
    )

    client = Client()
    assert _logged_in(_login("owner", "another-horse-99", address, client), client)


@pytest.mark.parametrize("rule", ["address", "username"])
def test_each_rule_is_logged_without_who(owner, settings, caplog, rule):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = settings.LOGIN_ACCOUNT_FAILURE_LIMIT = 3
    with caplog.at_level("WARNING", logger="modeler.infra.throttles"):
        for number in range(3):
            if rule == "address":
                _login(f"user{number}", "wrong", "198.51.100.7")
            else:
                _login("owner", "wrong", f"198.51.100.{number}")
    [line] = [
        r.getMessage() for r in caplog.records if r.name == "modeler.infra.throttles"
    ]
    assert line == (
        "Login paused for one username from one address: 3 failures "
        + (
            "from that address over all usernames."
            if rule == "address"
            else "of that username over all addresses, that address's among them."
        )
    )
    assert "198.51.100" not in line and "owner" not in line
