"""Forms: parse and tidy what the browser sends; no business rules."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import authenticate, get_user_model, password_validation
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.validators import MaxLengthValidator
from django.http import HttpRequest


class SignupForm(forms.Form):
    """A new account: its form only is checked here; whether the username or
    the address is taken is told by email (modeler.services.accounts)."""

    username = forms.CharField(
        max_length=150,
        validators=[UnicodeUsernameValidator()],
        help_text="Letters, digits and @ . + - _ only.",
        widget=forms.TextInput(attrs={"autocomplete": "username"}),
    )
    email = forms.EmailField(
        label="Email address",
        max_length=254,  # as the account keeps it
        help_text="We send a link to confirm it; it is also how you reset a "
        "forgotten password.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=password_validation.password_validators_help_text_html(),
    )
    password2 = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict:
        data = super().clean()
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", "The two passwords differ.")
        elif first:
            user = get_user_model()(
                username=data.get("username", ""), email=data.get("email", "")
            )
            try:
                password_validation.validate_password(first, user)
            except forms.ValidationError as exc:
                self.add_error("password1", exc)
        return data


class LoginForm(AuthenticationForm):
    """Django's login form, refusing a username longer than any account's
    before it is looked up: Django sets only the widget's maxlength, and
    django-axes would store the attempt's username in a 255-character
    column (PostgreSQL refuses a longer one)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))


def _current_password_check(request: HttpRequest, user: Any, password: str) -> None:
    """Refuse a wrong current password. Checked as a login is, so wrong
    ones count among the failed logins of the account from this address
    and are refused alike while paused (django-axes answers that page)."""
    if authenticate(request, username=user.get_username(), password=password) is None:
        raise forms.ValidationError(
            "That is not your current password.", code="password_incorrect"
        )


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Django's: the current password, then the new one twice."""

    def __init__(
        self, user: AbstractBaseUser, *args: Any, request: HttpRequest, **kwargs: Any
    ) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request
        self.fields["old_password"].label = "Current password"

    def clean_old_password(self) -> str:
        password = self.cleaned_data["old_password"]
        _current_password_check(self.request, self.user, password)
        return password


class EmailChangeForm(forms.Form):
    """A new address for the account, with the current password: whoever
    finds a browser left logged in cannot take the account over by moving
    its password resets to their own address."""

    email = forms.EmailField(
        label="New email address",
        max_length=254,  # as the account keeps it
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password = forms.CharField(
        label="Current password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(
        self, user: AbstractBaseUser, *args: Any, request: HttpRequest, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.request = request

    def clean_email(self) -> str:
        email = self.cleaned_data["email"]
        if email.lower() == self.user.email.lower():
            raise forms.ValidationError("That is already your address.")
        return email

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        _current_password_check(self.request, self.user, password)
        return password
