"""Accounts: signing up with a confirmed email address, and the emails that
tell people about their account without telling anyone else.

A sign-up always answers the same page ("check your email"), whether the
username or the address is free or not: the email says what happened, to
the owner of the address only. So the sign-up form never tells a visitor
which usernames or addresses have an account; nor do the login form (one
message for any wrong pair, a lockout for any username), the password reset
form (Django's: the same page for any address) or the Members form (an
invitation by email).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.tokens import default_token_generator
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from modeler.mail import mail_send

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
    absolute URL for the email."""
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
    _mail(
        email,
        "Confirm your account",
        f"Welcome to the single-table workbench, {username}.\n\nOpen this link "
        f"to confirm your address and start: {link(confirmation_path(user))}\n\n"
        f"The link works for {settings.PASSWORD_RESET_TIMEOUT // 86400} days. If "
        "you did not sign up, ignore this email: no account is made without it.",
    )


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


def _mail(to: str, subject: str, body: str) -> None:
    mail_send(to=to, subject=f"Single-table workbench: {subject}", body=body)
