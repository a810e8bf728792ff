"""Forms: parse and tidy what the browser sends; no business rules."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib.auth import authenticate, get_user_model, password_validation
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.validators import MaxLengthValidator
from django.http import HttpRequest
from django.utils.html import escape

from modeler import design as d
from modeler.exporters.formats import ExportFormat, Option
from modeler.mail import one_line
from modeler.models import Role
from modeler.services import OWN_ITEMS_MAX
from modeler.uploads import upload_size_error


class OneLineField(forms.CharField):
    """A name, which is one line by nature: line breaks, tabs and other
    control characters (pasted, or sent by hand) become single spaces, so
    the name heads pages and email subjects as it reads."""

    def to_python(self, value: Any) -> str:
        return one_line(super().to_python(value))


class ProjectCreateForm(forms.Form):
    name = OneLineField(max_length=200)
    description = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 2})
    )


class DesignImportForm(forms.Form):
    """A design file, uploaded or pasted."""

    file = forms.FileField(
        required=False,
        label="Design file (YAML, a NoSQL Workbench model, a CloudFormation "
        "template or a Terraform file)",
    )
    # Not stripped: the problems' line numbers must match the text the user
    # sees in the textarea, and YAML indentation is meaningful.
    text = forms.CharField(
        required=False,
        strip=False,
        label="…or paste its text",
        widget=forms.Textarea(
            attrs={"rows": 8, "spellcheck": "false", "class": "code-input"}
        ),
    )
    name = OneLineField(
        required=False,
        max_length=200,
        label="Project name",
        help_text="Leave empty to use the name in the file.",
    )
    table = forms.CharField(
        required=False,
        max_length=255,
        label="Table",
        help_text="Of a file with several tables, import only this one "
        "(its name, or its resource's name in a template or Terraform file). "
        "Leave empty for a project per table.",
    )

    def clean_file(self) -> bytes | None:
        upload = self.cleaned_data.get("file")
        if upload is None:
            return None
        too_large = upload_size_error(upload, "design files")
        if too_large:
            raise forms.ValidationError(too_large)
        return upload.read()

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        has_text = bool(data.get("text", "").strip())
        if not data.get("file") and not has_text:
            raise forms.ValidationError("Choose a design file or paste its text.")
        if data.get("file") and has_text:
            raise forms.ValidationError(
                "Choose a design file or paste its text, not both."
            )
        return data

    @property
    def source(self) -> bytes | str:
        return self.cleaned_data.get("file") or self.cleaned_data["text"]

    @property
    def source_name(self) -> str:
        upload = self.files.get("file")
        return upload.name if upload else "the pasted text"


class InvitationForm(forms.Form):
    """Someone to invite, by the address their invitation goes to."""

    email = forms.EmailField(label="Email address", max_length=254)
    role = forms.ChoiceField(choices=[(Role.EDITOR, "Editor"), (Role.VIEWER, "Viewer")])


class MemberRoleForm(forms.Form):
    """Another role for one of the project's members (chosen from them, so
    it tells nothing about other accounts)."""

    member = forms.ChoiceField()
    role = forms.ChoiceField(choices=[(Role.EDITOR, "Editor"), (Role.VIEWER, "Viewer")])

    def __init__(self, *args, memberships=(), **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.memberships = {str(m.pk): m for m in memberships}
        self.fields["member"].choices = [
            (pk, m.user.get_username()) for pk, m in self.memberships.items()
        ]

    def clean_member(self):  # type: ignore[no-untyped-def]
        return self.memberships[self.cleaned_data["member"]]


class SampleSeedForm(forms.Form):
    seed = forms.IntegerField(min_value=0, max_value=2**63 - 1)
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class LiveTableImportForm(forms.Form):
    """A live table to import, read from the endpoint the settings name."""

    table = forms.RegexField(
        regex=r"^[A-Za-z0-9_.-]{3,255}$",
        max_length=255,
        label="Table name",
        error_messages={
            "invalid": "A table name has 3 to 255 letters, digits, _ . and -."
        },
    )
    sample = forms.IntegerField(
        min_value=1,
        max_value=1_000,
        initial=500,
        label="Items to sample",
        help_text="At most 1,000, read by an eventually consistent parallel Scan; "
        "they become the project's own items.",
    )
    name = OneLineField(
        required=False,
        max_length=200,
        label="Project name",
        help_text="Leave empty to use the table's name.",
    )


class SampleItemsImportForm(forms.Form):
    """A file of the user's own items: DynamoDB JSON lines, CSV with a
    header row, or a NoSQL Workbench model with TableData."""

    REPLACE, ADD = "replace", "add"

    file = forms.FileField(
        label="Your items",
        help_text="DynamoDB JSON lines, CSV with a header row, or a NoSQL "
        "Workbench model with TableData. Nothing is kept unless every item is "
        "valid.",
        widget=forms.FileInput(attrs={"accept": ".jsonl,.ndjson,.json,.csv,.txt"}),
    )
    mode = forms.ChoiceField(
        choices=[(REPLACE, "Replace them"), (ADD, "Keep them and add these")],
        initial=REPLACE,
        widget=forms.RadioSelect,
    )
    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The limits, said before a file is refused for passing one.
        self.fields["file"].help_text += (
            f" At most {OWN_ITEMS_MAX:,} items in a file of at most "
            f"{settings.DESIGN_FILE_MAX_BYTES:,} bytes."
        )

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        too_large = upload_size_error(upload, "item files")
        if too_large:
            raise forms.ValidationError(too_large)
        data = upload.read()
        try:
            # utf-8-sig: spreadsheets often start a CSV file with a BOM.
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise forms.ValidationError(
                f"{upload.name} is not UTF-8 text (byte {exc.start}); save it as "
                "UTF-8 and upload it again."
            ) from None

    @property
    def source_name(self) -> str:
        return self.files["file"].name


class VersionForm(forms.Form):
    """The project version a page was showing, for actions without input."""

    version = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class ProposeKeysForm(forms.Form):
    """The entities whose table keys a key proposal keeps as they are."""

    keep = forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Keep the table keys of",
    )

    def __init__(self, *args: Any, design: d.Design, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["keep"].choices = [
            (e.name, e.name) for e in design.entities if design.has_table_keys(e)
        ]


class ExportOptionsForm(forms.Form):
    """An export format's options (a GET form: nothing is saved), with a
    field per option of the format (`modeler.exporters.formats`)."""

    def __init__(self, data: Any, *, chosen: ExportFormat, design: d.Design) -> None:
        super().__init__(data)
        self.chosen = chosen
        self.notes: dict[str, str] = {}
        for option in chosen.options:
            reason = option.unavailable(design) if option.unavailable else ""
            if reason:
                self.notes[option.name] = reason
                continue
            self.fields[option.name] = _option_field(option, design)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for option in self.chosen.options:
            if option.name in self.fields and data.get(option.name) in (None, ""):
                data[option.name] = option.default
        return data

    def query(self) -> str:
        """The options as a query string (`?region=...`), for the download
        link; empty when they are the defaults or invalid."""
        if not self.is_valid():
            return ""
        given = {
            o.name: "on"
            if self.cleaned_data[o.name] is True
            else self.cleaned_data[o.name]
            for o in self.chosen.options
            if o.name in self.fields and self.cleaned_data[o.name] != o.default
        }
        return f"?{urlencode(given)}" if given else ""


def _option_field(option: Option, design: d.Design) -> forms.Field:
    # `{% field %}` shows help as markup; this one may name the design's
    # attributes, so it is escaped here.
    help_text = escape(option.explain(design) if option.explain else option.help)
    if option.kind == "switch":
        return forms.BooleanField(
            required=False, label=option.label, help_text=help_text
        )
    if option.kind == "int":
        return forms.IntegerField(
            required=False,
            label=option.label,
            help_text=help_text,
            min_value=option.minimum,
            max_value=option.maximum,
        )
    return forms.RegexField(
        regex=rf"^({option.pattern})$",
        required=False,
        initial=option.default,
        label=option.label,
        help_text=help_text,
        max_length=100,
        error_messages={"invalid": option.invalid},
    )


class SignupForm(forms.Form):
    """A new account: its form only is checked here; whether the username or
    the address is taken is told by email (modeler.accounts)."""

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

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
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

    def __init__(self, user, *args, request: HttpRequest, **kwargs) -> None:  # type: ignore[no-untyped-def]
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

    def __init__(self, user, *args, request: HttpRequest, **kwargs) -> None:  # type: ignore[no-untyped-def]
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


class ReviewOpenForm(forms.Form):
    """A review opened on a revision, with the members taking part."""

    title = OneLineField(max_length=200)
    number = forms.IntegerField(label="Revision", min_value=1)
    participants = forms.ModelMultipleChoiceField(
        queryset=get_user_model().objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, members=None, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        if members is not None:
            self.fields["participants"].queryset = members


class ReviewCommentForm(forms.Form):
    element = forms.CharField(max_length=80, required=False)
    parent = forms.IntegerField(required=False, min_value=1)
    body = forms.CharField(max_length=5000, widget=forms.Textarea(attrs={"rows": 3}))


class ReviewStatusForm(forms.Form):
    status = forms.ChoiceField(
        choices=[
            ("open", "Open"),
            ("changes_requested", "Changes requested"),
            ("approved", "Approved"),
        ]
    )
