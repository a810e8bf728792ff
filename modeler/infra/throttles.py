"""Throttles: how often one client may try passwords, and make the site send
account email, without letting a stranger lock an owner out.

Logging in (django-axes records each failure per username, address and
browser; this module decides what the records forbid). A failure counts
until LOGIN_LOCKOUT_MINUTES pass without another for the same username
from the same address. A login is refused, whatever the password, when:

1. this username has LOGIN_FAILURE_LIMIT failures from this address;
2. this address has LOGIN_ADDRESS_FAILURE_LIMIT failures over all
   usernames (one address spraying many accounts);
3. this username has LOGIN_ACCOUNT_FAILURE_LIMIT failures over all
   addresses and at least one of them came from this address (many
   addresses guessing one account: each gets one guess, not five).

Every rule refuses only an address that has failed itself, so a stranger
never stops the owner's correct password from an address of their own.
The refusal ends when enough of the failures behind it are older than
LOGIN_LOCKOUT_MINUTES; attempts while refused are not counted, so the
time the page gives is the time it takes. A successful login forgets that
username's failures from that address, and so does a password reset.
The rules read the typed username alone, never whether it has an account.

Account email (sign-up confirmations, password resets, address changes):
at most ACCOUNT_EMAILS_PER_CLIENT from one address and
ACCOUNT_EMAILS_PER_RECIPIENT to one email address within
ACCOUNT_EMAILS_MINUTES. Past either, the form answers as ever and no email
is sent (logged, without the address or the email).
"""

from __future__ import annotations

import hashlib
import logging
import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from workbench.client_address import client_address

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LoginPause:
    """Why logging in as a username from an address is refused, and until
    when."""

    rule: str  # "username-and-address", "address" or "username"
    limit: int
    until: datetime

    def minutes_left(self, now: datetime) -> int:
        return max(1, math.ceil((self.until - now).total_seconds() / 60))


def login_pause_find(
    *, username: str | None, address: str | None, now: datetime
) -> LoginPause | None:
    """The rule that refuses this username from this address for longest,
    or None when a login may be tried."""
    window = settings.AXES_COOLOFF_TIME
    live = AccessAttempt.objects.filter(attempt_time__gte=now - window)
    pauses = []
    pair = live.filter(username=username, ip_address=address)
    limit = settings.AXES_FAILURE_LIMIT
    if until := _pause_end(pair, limit, window):
        pauses.append(LoginPause("username-and-address", limit, until))
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    if until := _pause_end(live.filter(ip_address=address), limit, window):
        pauses.append(LoginPause("address", limit, until))
    limit = settings.LOGIN_ACCOUNT_FAILURE_LIMIT
    if until := _pause_end(live.filter(username=username), limit, window):
        # Only for an address that failed for this username itself, and no
        # longer than its own failures count.
        last_own = _last_failure(pair)
        if last_own is not None:
            pauses.append(LoginPause("username", limit, min(until, last_own + window)))
    return max(pauses, key=lambda pause: pause.until, default=None)


def _pause_end(attempts: Any, limit: int, window: timedelta) -> datetime | None:
    """When these failures fall below `limit`: newest first, the record that
    brings the count to the limit stops counting `window` after its last
    failure, and the newer ones alone stay below it."""
    counted = 0
    rows: Iterable[tuple[int, datetime]] = attempts.order_by(
        "-attempt_time"
    ).values_list("failures_since_start", "attempt_time")[:limit]
    for failures, last in rows:
        counted += failures
        if counted >= limit:
            return last + window
    return None


def _last_failure(attempts: Any) -> datetime | None:
    return (
        attempts.order_by("-attempt_time")
        .values_list("attempt_time", flat=True)
        .first()
    )


def _request_pause(request: HttpRequest, credentials: dict | None) -> LoginPause | None:
    return login_pause_find(
        username=get_client_username(request, credentials),
        address=request.axes_ip_address,
        now=request.axes_attempt_time or timezone.now(),
    )


_RULES_LOGGED = {
    "username-and-address": "of that username from that address",
    "address": "from that address over all usernames",
    "username": "of that username over all addresses, that address's among them",
}


class LoginThrottleHandler(AxesDatabaseHandler):
    """django-axes' database handler (it records the failures and forgets
    them on success) with this module's rules deciding who is refused."""

    def is_locked(self, request: HttpRequest, credentials: dict | None = None) -> bool:
        return _request_pause(request, credentials) is not None

    def user_login_failed(
        self,
        sender: Any,
        credentials: dict,
        request: HttpRequest | None = None,
        **kwargs: Any,
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        # django-axes has applied rule 1; the other two are this module's.
        if request is None or getattr(request, "axes_locked_out", False):
            return
        pause = _request_pause(request, credentials)
        if pause is not None:
            request.axes_locked_out = True
            request.axes_credentials = credentials
            log.warning(
                "Login paused for one username from one address: %s failures %s.",
                pause.limit,
                _RULES_LOGGED[pause.rule],
            )


def login_paused_response(
    request: HttpRequest,
    original_response: HttpResponse | None = None,
    credentials: dict | None = None,
) -> HttpResponse:
    """The login page's answer while refused (AXES_LOCKOUT_CALLABLE): which
    rule, and for how many minutes, the same for any username."""
    now = timezone.now()
    pause = _request_pause(request, credentials)
    context = {
        "pause": pause,
        "minutes": pause.minutes_left(now) if pause else None,
        "window": settings.LOGIN_LOCKOUT_MINUTES,
    }
    return render(request, "registration/locked-out.html", context, status=429)


def login_failures_forget(*, request: HttpRequest, username: str) -> None:
    """Forget this username's failures from the request's address: its
    owner proved who they are (a password reset by email)."""
    AccessAttempt.objects.filter(
        username=username, ip_address=client_address(request)
    ).delete()


# --- Account email ----------------------------------------------------------


def account_email_allowed(*, request: HttpRequest, recipient: str, kind: str) -> bool:
    """Whether an account email (`kind`: "Sign-up", "Password reset"...) may
    go to `recipient` for this request; counts it if so. Each limit is a
    set of slots in the cache taken with an atomic add, so requests at the
    same moment cannot both take the last one."""
    minutes = settings.ACCOUNT_EMAILS_MINUTES
    for setting, key in (
        ("ACCOUNT_EMAILS_PER_CLIENT", f"client:{client_address(request)}"),
        ("ACCOUNT_EMAILS_PER_RECIPIENT", f"recipient:{recipient.strip().lower()}"),
    ):
        limit = getattr(settings, setting)
        if not _slot_take(key, limit=limit, seconds=minutes * 60):
            log.warning(
                "%s email not sent: %s account emails within %s minutes already (%s).",
                kind,
                limit,
                minutes,
                setting,
            )
            return False
    return True


def _slot_take(key: str, *, limit: int, seconds: int) -> bool:
    # Hashed: the cache keeps no email address or client address.
    digest = hashlib.sha256(key.encode()).hexdigest()[:40]
    return any(
        cache.add(f"account-emails:{digest}:{slot}", 1, timeout=seconds)
        for slot in range(limit)
    )
