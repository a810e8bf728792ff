"""The address a request came from, as the login and mail throttles count it.

Behind a reverse proxy every request arrives from the proxy's address, so
REMOTE_ADDR alone would make every visitor one client: five wrong passwords
from anyone would lock everyone out. Each proxy appends the address it
received the request from to X-Forwarded-For; only the entries appended by
proxies we run can be believed, since a client may send the header with
any addresses it likes. With TRUSTED_PROXY_COUNT = N, those are the last N
entries, and the client is the Nth from the right. A header that is
missing, shorter than N (the request did not come through our proxies) or
whose Nth entry is not an address gives REMOTE_ADDR, the peer that really
connected, never a value the client chose.

IPv6 addresses are counted by their /64 network: one subscriber is usually
given a whole /64, so counting single addresses would give an attacker
billions of fresh ones.
"""

from __future__ import annotations

import functools
import ipaddress
import logging
import re

from django.conf import settings
from django.http import HttpRequest

log = logging.getLogger(__name__)

# "[2001:db8::1]:443" or "203.0.113.7:51234" (some load balancers add the
# client's port): the address without it.
_WITH_PORT = re.compile(r"^\[(?P<v6>[^\]]+)\](?::\d+)?$|^(?P<v4>[0-9.]+):\d+$")


def client_address(request: HttpRequest) -> str | None:
    """The client's address (an IPv6 one as its /64 network address), or
    None when the connection gives none (a Unix socket without a proxy)."""
    peer = request.META.get("REMOTE_ADDR", "")
    count = settings.TRUSTED_PROXY_COUNT
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if count and forwarded:
        entries = [entry.strip() for entry in forwarded.split(",")]
        if len(entries) >= count:
            address = _parse(entries[-count])
            if address is not None:
                return _as_counted(address)
    elif forwarded:
        _warn_untrusted_header()
    address = _parse(peer)
    return None if address is None else _as_counted(address)


def _parse(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    match = _WITH_PORT.match(text)
    if match:
        text = match["v6"] or match["v4"]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped:
        return address.ipv4_mapped
    return address


def _as_counted(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> str:
    if isinstance(address, ipaddress.IPv6Address):
        network = ipaddress.IPv6Network((address, 64), strict=False)
        return str(network.network_address)
    return str(address)


# Once a process: the likely cause of every visitor sharing one address.
@functools.cache
def _warn_untrusted_header() -> None:
    log.warning(
        "A request came with X-Forwarded-For but TRUSTED_PROXY_COUNT is 0, so "
        "the header is ignored: behind a proxy, every visitor then counts as the "
        "proxy's one address for the login and email limits. Set "
        "TRUSTED_PROXY_COUNT to the number of proxies in front of the "
        "application (1 for one nginx)."
    )
