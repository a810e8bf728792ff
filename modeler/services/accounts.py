"""Accounts: signing up with a confirmed email address, and the emails that
tell people about their account without telling anyone else.

A sign-up always answers the same page ("check your email"), whether the
username or the address is free or not: the email says what happened, to
the owner of the address only. So the sign-up form never tells a visitor
which usernames or addresses have an account; nor do the login form (one
message for any wrong pair, a lockout for any username), the password reset
form (Django's: the same page for any address), the account page's change
of address (a link mailed to the new address, or a note to its owner when
another account has it) or the Members form (an invitation by email).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from modeler.infra.mail import MailError, mail_send

User = get_user_model()


def account_signup(
    *,
    username: str,
    email: str,
    password: str,
    link: Callable[[str], str],
) -> None:
    """Start a sign-up and email the address what happened: a link that
    confirms a new (still inactive) account, or, when the username or the
    address is taken, what to do instead. `link(path)` makes a path an
    absolute URL for the email. MailError when the email cannot be sent; then
    nothing is kept."""
    taken_address = User.objects.filter(email__iexact=email).first()
    if taken_address is not None:
        _mail(
            email,
            "You already have an account",
            f"Someone, probably you, tried to sign up to the single-table "
            f"workbench with this address, which already belongs to the account "
            f"'{taken_address.get_username()}'.\n\nLog in: {link(reverse('login'))}\n"
            f"Forgot the password? Reset it: {link(reverse('password_reset'))}\n\n"
            "If it was not you, you can ignore this email.",
        )
        return
    try:
        with transaction.atomic():
            user = User.objects.create_user(
                username=username, email=email, password=password, is_active=False
            )
    except IntegrityError:
        _mail(
            email,
            "Choose another username",
            f"Someone, probably you, tried to sign up to the single-table "
            f"workbench as '{username}', but that username is taken. Sign up "
            f"again with another: {link(reverse('signup'))}\n\n"
            "If it was not you, you can ignore this email.",
        )
        return
    try:
        _mail(
            email,
            "Confirm your account",
            f"Welcome to the single-table workbench, {username}.\n\nOpen this "
            f"link to confirm your address and start: "
            f"{link(confirmation_path(user))}\n\nThe link works for "
            f"{settings.PASSWORD_RESET_TIMEOUT // 86400} days. If you did not sign "
            "up, ignore this email: no account is made without it.",
        )
    except MailError:
        # Nobody can confirm an account whose link was never sent, and it
        # would hold its username and address: it goes, and the sign-up can
        # be made again. (Sent outside the transaction: SQLite's write lock
        # would wait on the mail server.)
        user.delete()
        raise


def confirmation_path(user: AbstractBaseUser) -> str:
    uid = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    return reverse("signup-confirm", args=[uid, token])


def account_confirm(*, uid: str, token: str) -> AbstractBaseUser | None:
    """Activate the account a confirmation link names; None when the link is
    not valid (wrong, expired, or used: the token changes once the user logs
    in)."""
    try:
        user = User.objects.get(pk=force_str(urlsafe_base64_decode(uid)))
    except (ValueError, OverflowError, User.DoesNotExist):
        return None
    if not default_token_generator.check_token(user, token):
        return None
    if not user.is_active:
        user.is_active = True
        user.save(update_fields=["is_active"])
    return user


# A link that changes an account's address: signed with SECRET_KEY, and
# naming the address it replaces, so it stops working once the address
# changes (it is used, or another change came first).
_EMAIL_CHANGE_SALT = "modeler.services.accounts.email-change"


@dataclass(frozen=True)
class EmailChange:
    """A change of address a link asks for."""

    user: AbstractBaseUser
    email: str


class EmailTakenError(Exception):
    """The new address belongs to another account by now."""


def account_email_change_request(
    *, user: AbstractBaseUser, email: str, link: Callable[[str], str]
) -> None:
    """Email the new address a link that makes it the account's, or, when
    another account has it, tell its owner so; the page that asked says the
    same either way."""
    username = user.get_username()
    taken = User.objects.filter(email__iexact=email).exclude(pk=user.pk).first()
    if taken is not None:
        _mail(
            email,
            "This address already has an account",
            f"Someone logged in to the single-table workbench as '{username}' "
            f"asked to use this address for their account, but it belongs to "
            f"your account '{taken.get_username()}'. Nothing changed.\n\n"
            "If it was you, log in as that account instead, or use another "
            "address. If not, you can ignore this email.",
        )
        return
    token = signing.dumps(
        {"user": user.pk, "from": user.email, "to": email}, salt=_EMAIL_CHANGE_SALT
    )
    _mail(
        email,
        "Confirm your new address",
        f"Someone, probably you, asked to make this the address of the account "
        f"'{username}' on the single-table workbench.\n\nOpen this link to "
        f"confirm: {link(reverse('account-email-confirm', args=[token]))}\n\n"
        f"The link works for {settings.PASSWORD_RESET_TIMEOUT // 86400} days. "
        "If you did not ask, ignore this email: nothing changes without it.",
    )


def account_email_change_read(*, token: str) -> EmailChange | None:
    """The change a link asks for; None when the link is not valid (wrong,
    expired, used, or its account's address changed since)."""
    try:
        data = signing.loads(
            token, salt=_EMAIL_CHANGE_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT
        )
    except signing.BadSignature:
        return None
    user = User.objects.filter(pk=data["user"], is_active=True).first()
    if user is None or user.email != data["from"]:
        return None
    return EmailChange(user=user, email=data["to"])


def account_email_change_apply(*, change: EmailChange) -> None:
    """Make the new address the account's, and tell the old one."""
    user, old = change.user, change.user.email
    with transaction.atomic():
        taken = User.objects.filter(email__iexact=change.email).exclude(pk=user.pk)
        if taken.exists():
            raise EmailTakenError(
                f"{change.email} belongs to another account now: nothing changed."
            )
        user.email = change.email
        user.save(update_fields=["email"])
    if old:
        _mail(
            old,
            "Your address changed",
            f"The address of your account '{user.get_username()}' on the "
            f"single-table workbench is now {change.email}; emails about it, "
            "password resets too, go there from now on.\n\nIf you did not "
            "change it, someone else logged in with your password: tell the "
            "site's administrator.",
        )


def _mail(to: str, subject: str, body: str) -> None:
    mail_send(to=to, subject=f"Single-table workbench: {subject}", body=body)
