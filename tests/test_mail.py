"""Subjects on one line, and sending that reports what did not leave."""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.mail import EmailMessage

from modeler.infra.mail import (
    SUBJECT_MAX_CHARS,
    Mail,
    MailError,
    mail_send,
    mail_subject,
    mails_send,
    one_line,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Shop", "Shop"),
        ("Shop\nnew", "Shop new"),
        ("Shop\r\nnew\r\n", "Shop new"),
        ("  a \t\t b  ", "a b"),
        ("a\x00b\x1bc\x7fd", "a b c d"),
        ("a\u2028b\u2029c\x85d\x0be\x0cf", "a b c d e f"),
        ("Café “Lisboa” — 2026", "Café “Lisboa” — 2026"),
        ("\n\n", ""),
    ],
)
def test_one_line_makes_every_break_and_control_a_space(text, expected):
    assert one_line(text) == expected


@pytest.mark.parametrize(
    "name",
    ["Shop\nBcc: victim@example.com", "a\rb", "a\u2028b", "x" * 1000 + "\nEnd"],
)
def test_a_subject_made_of_any_name_is_a_valid_header(name):
    subject = mail_subject(f"join the project {name}")
    assert len(subject) <= SUBJECT_MAX_CHARS and subject == one_line(subject)
    # Django refuses (BadHeaderError) a message whose header holds a break.
    headers = EmailMessage(subject=subject, body="b", to=["a@example.com"]).message()
    assert "Bcc" not in headers


def test_a_long_subject_is_cut_with_an_ellipsis():
    subject = mail_subject("word " * 100)
    assert len(subject) == SUBJECT_MAX_CHARS and subject.endswith("word…")


def test_every_mail_is_sent_with_a_one_line_subject(settings):
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []
    assert mails_send([Mail("a@example.com", "Review\n“x”", "Line 1\nLine 2")]) == []
    [sent] = mail.outbox
    assert sent.subject == "Review “x”" and sent.body == "Line 1\nLine 2"


def test_an_unreachable_server_fails_every_mail_with_its_reason(settings):
    settings.EMAIL_BACKEND = "tests.mail_backends.UnreachableBackend"
    mails = [Mail("a@example.com", "s", "b"), Mail("b@example.com", "s", "b")]
    failures = mails_send(mails)
    assert [f.mail for f in failures] == mails
    refused = "ConnectionRefusedError: [Errno 111] Connection refused"
    assert failures[0].reason == refused
    with pytest.raises(MailError, match="Connection refused"):
        mail_send(to="a@example.com", subject="s", body="b")


def test_a_refused_recipient_fails_that_mail_only(settings):
    settings.EMAIL_BACKEND = "tests.mail_backends.BouncingBackend"
    mail.outbox = []
    failures = mails_send(
        [Mail("x@bounce.example", "s", "b"), Mail("ok@example.com", "s", "b")]
    )
    assert [f.mail.to for f in failures] == ["x@bounce.example"]
    assert "SMTPRecipientsRefused" in failures[0].reason
    assert "No such user here" in failures[0].reason
    assert [m.to for m in mail.outbox] == [["ok@example.com"]]
