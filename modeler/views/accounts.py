"""Signing up, with a confirmed address, and resetting a password. Logging
in and out are Django's own views (see modeler/urls.py), logins guarded by
django-axes with modeler.throttles' rules; the reset is Django's too, held
to the account email limits."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from modeler import accounts, throttles
from modeler.forms import SignupForm


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
            accounts.account_signup(
                username=data["username"],
                email=data["email"],
                password=data["password1"],
                link=request.build_absolute_uri,
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
