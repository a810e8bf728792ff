"""Signing up, with a confirmed address. Logging in and out and resetting a
password are Django's own views (see modeler/urls.py), logins guarded by
django-axes."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from modeler import accounts
from modeler.forms import SignupForm


@require_http_methods(["GET", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(settings.LOGIN_REDIRECT_URL)
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        accounts.account_signup(
            username=data["username"],
            email=data["email"],
            password=data["password1"],
            link=request.build_absolute_uri,
        )
        # The same answer whatever the email says: taken or not is told to
        # the owner of the address only.
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
