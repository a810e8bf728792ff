"""The client's address behind a counted number of trusted proxies."""

from __future__ import annotations

import logging

import pytest
from django.test import RequestFactory

from workbench import client_address as module
from workbench.client_address import client_address

PROXY = "10.0.0.254"


def _address(forwarded: str | None = None, peer: str = PROXY) -> str | None:
    headers = {} if forwarded is None else {"X-Forwarded-For": forwarded}
    request = RequestFactory().get("/", headers=headers, REMOTE_ADDR=peer)
    return client_address(request)


def test_without_trusted_proxies_the_header_is_ignored(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert _address("198.51.100.7") == PROXY
    assert _address() == PROXY


@pytest.mark.parametrize(
    ("count", "forwarded", "expected"),
    [
        # One proxy appends the address it saw: the last entry.
        (1, "198.51.100.7", "198.51.100.7"),
        # A client's own entries come first and are not believed.
        (1, "203.0.113.9, 198.51.100.7", "198.51.100.7"),
        (1, "203.0.113.9,198.51.100.7", "198.51.100.7"),
        # Two proxies (a load balancer, then nginx): the second from the right.
        (2, "203.0.113.9, 198.51.100.7, 10.0.0.3", "198.51.100.7"),
        # Ports and brackets, as some load balancers write them.
        (1, "198.51.100.7:51234", "198.51.100.7"),
        (1, "[2001:db8::1]:443", "2001:db8::"),
        # IPv6 counts by its /64 network; an IPv4-mapped one as IPv4.
        (1, "2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::"),
        (1, "::ffff:198.51.100.7", "198.51.100.7"),
    ],
)
def test_the_client_is_the_nth_entry_from_the_right(
    settings, count, forwarded, expected
):
    settings.TRUSTED_PROXY_COUNT = count
    assert _address(forwarded) == expected


@pytest.mark.parametrize(
    ("count", "forwarded"),
    [
        # Shorter than the proxies counted: it did not come through them.
        (2, "198.51.100.7"),
        # The entry our proxy wrote is not an address.
        (1, "198.51.100.7, unknown"),
        (1, "203.0.113.9, "),
        (1, "not-an-address"),
        (1, ""),
    ],
)
def test_a_short_or_malformed_header_gives_the_connections_address(
    settings, count, forwarded
):
    settings.TRUSTED_PROXY_COUNT = count
    assert _address(forwarded) == PROXY


def test_no_address_at_all_is_none(settings):
    settings.TRUSTED_PROXY_COUNT = 0
    assert _address(peer="") is None


def test_a_header_with_no_trusted_proxy_is_warned_about_once(settings, caplog):
    settings.TRUSTED_PROXY_COUNT = 0
    module._warn_untrusted_header.cache_clear()
    with caplog.at_level(logging.WARNING, logger="workbench.client_address"):
        _address("198.51.100.7")
        _address("198.51.100.8")
    [record] = caplog.records
    assert "TRUSTED_PROXY_COUNT" in record.getMessage()
