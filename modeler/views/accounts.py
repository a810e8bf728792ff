"""Signing up, with a confirmed address; resetting a password; the account
page, which changes the password or the address (confirmed by a link
mailed to the new one). Logging in and out are Django's own views (see
modeler/urls/__init__.py), logins guarded by django-axes with modeler.infra.throttles'
rules; the reset is Django's too, held to the account email limits."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)

from modeler.forms.accounts import EmailChangeForm, PasswordChangeForm, SignupForm
from modeler.infra import throttles
from modeler.infra.mail import MailError
from modeler.services import accounts
from modeler.views.statuses import INVALID


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        if throttles.account_email_allowed(
            request=request, recipient=data["email"], kind="Sign-up"
        ):
            try:
                accounts.account_signup(
                    username=data["username"],
                    email=data["email"],
                    password=data["password1"],
                    link=request.build_absolute_uri,
                )
            except MailError as exc:
                form.add_error(
                    None,
                    f"The confirmation email could not be sent ({exc}). Nothing "
                    "was saved: try again later, or ask the site's operator to "
                    "check its mail settings.",
                )
                return render(
                    request, "registration/signup.html", {"form": form}, status=503
                )
        # The same answer whatever the email says (taken or not is told to
        # the owner of the address only), or when none is sent at all.
        return render(
            request, "registration/signup-sent.html", {"email": data["email"]}
        )
    status = 400 if request.method == "POST" else 200
    return render(request, "registration/signup.html", {"form": form}, status=status)


@require_GET
def signup_confirm(request: HttpRequest, uid: str, token: str) -> HttpResponse:
    user = accounts.account_confirm(uid=uid, token=token)
    if user is None:
        return render(request, "registration/signup-invalid.html", status=404)
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    messages.success(request, f"Welcome, {user.get_username()}.")
    return redirect(settings.LOGIN_REDIRECT_URL)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's password reset, sending nothing past the account email
    limits; the visitor is answered the same either way."""

    def form_valid(self, form: PasswordResetForm) -> HttpResponse:
        if throttles.account_email_allowed(
            request=self.request,
            recipient=form.cleaned_data["email"],
            kind="Password reset",
        ):
            return super().form_valid(form)
        return HttpResponseRedirect(self.get_success_url())


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's, forgetting the account's failed logins from this address:
    whoever reset the password by email may log in from here at once."""

    def form_valid(self, form: SetPasswordForm) -> HttpResponse:
        response = super().form_valid(form)
        throttles.login_failures_forget(
            request=self.request, username=form.user.get_username()
        )
        return response


# --- The account page: the password and the address -------------------------


def _account_page(
    request: HttpRequest,
    *,
    password_form: PasswordChangeForm | None = None,
    email_form: EmailChangeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "password_form": password_form
        or PasswordChangeForm(request.user, request=request),
        "email_form": email_form or EmailChangeForm(request.user, request=request),
        "link_days": settings.PASSWORD_RESET_TIMEOUT // 86400,
    }
    return render(request, "registration/account.html", context, status=status)


@login_required
@require_GET
def account(request: HttpRequest) -> HttpResponse:
    return _account_page(request)


@login_required
@require_POST
def account_password(request: HttpRequest) -> HttpResponse:
    form = PasswordChangeForm(request.user, request.POST, request=request)
    if not form.is_valid():
        return _account_page(request, password_form=form, status=INVALID)
    user = form.save()
    # This browser stays logged in; the account's other sessions end.
    update_session_auth_hash(request, user)
    messages.success(
        request,
        "Your password is changed. Other browsers logged in as you are logged out.",
    )
    return redirect("account")


@login_required
@require_POST
def account_email(request: HttpRequest) -> HttpResponse:
    form = EmailChangeForm(request.user, request.POST, request=request)
    if not form.is_valid():
        return _account_page(request, email_form=form, status=INVALID)
    email = form.cleaned_data["email"]
    if throttles.account_email_allowed(
        request=request, recipient=email, kind="Address change"
    ):
        accounts.account_email_change_request(
            user=request.user, email=email, link=request.build_absolute_uri
        )
    # The same answer whether another account has the address or not, or
    # when no email is sent at all.
    messages.success(
        request,
        f"We have sent a link to {email}: your address changes when you open it.",
    )
    return redirect("account")


@require_http_methods(["GET", "POST"])
def account_email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link mailed to a new address: a page that asks to confirm it
    (a mail scanner that opens links changes nothing), then the change."""
    change = accounts.account_email_change_read(token=token)
    if change is None:
        return render(request, "registration/email-change-invalid.html", status=404)
    if request.method == "POST":
        try:
            accounts.account_email_change_apply(change=change)
        except accounts.EmailTakenError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, f"Your address is now {change.email}.")
        return redirect("account")
    return render(request, "registration/email-change-confirm.html", {"change": change})
