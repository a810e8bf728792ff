"""Email: subjects on one line, and sending that says what went wrong.

A mail header cannot hold a line break: Django refuses the whole message
(BadHeaderError) rather than let a name end the header early. Subjects are
made of names people typed (a project, a review) or imported, so every
subject passes through `mail_subject`, and every email the workbench sends
through `mails_send`, which sends each one over one connection and returns
the ones that did not leave with a one-line reason a page can show: the
caller decides what a failure undoes (an invitation is not kept; a comment
is, and the page says who was not told)."""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMessage, get_connection

logger = logging.getLogger(__name__)

# Mail programs show about this much of a subject; the rest is in the body.
SUBJECT_MAX_CHARS = 150
REASON_MAX_CHARS = 300

# Whitespace of every kind (\s: line and paragraph separators, NEL, tabs)
# and the other control characters, which a header cannot carry either.
_NOT_ONE_LINE = re.compile(r"[\s\x00-\x1f\x7f-\x9f]+")


def one_line(text: str) -> str:
    """`text` on one line: each run of whitespace or control characters
    (line breaks of any kind, tabs) one space, none at either end."""
    return _NOT_ONE_LINE.sub(" ", text).strip()


def shortened(text: str, max_chars: int) -> str:
    """`text`, cut to `max_chars` with an ellipsis when longer."""
    if len(text) <= max_chars:
        return text
    return text[: max_chars - 1].rstrip() + "…"


def mail_subject(text: str) -> str:
    """A subject line made of `text`: one line, at most SUBJECT_MAX_CHARS."""
    return shortened(one_line(text), SUBJECT_MAX_CHARS)


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str


@dataclass(frozen=True)
class MailFailure:
    mail: Mail
    reason: str  # one line, for the page that reports it


class MailError(Exception):
    """An email that could not be sent; the message says why."""


def mails_send(mails: Sequence[Mail]) -> list[MailFailure]:
    """Send each mail from DEFAULT_FROM_EMAIL over one connection to the
    mail backend; returns the ones that could not be sent, and why. When
    the server cannot be reached none is tried one by one: each would wait
    for the same timeout."""
    if not mails:
        return []
    connection = get_connection()
    try:
        connection.open()
    except Exception as exc:  # any backend's failure, SMTP's or another's
        return [_failed(mail, exc) for mail in mails]
    failed = []
    try:
        for mail in mails:
            message = EmailMessage(
                subject=mail_subject(mail.subject),
                body=mail.body,
                from_email=settings.DEFAULT_FROM_EMAIL,
                to=[mail.to],
                connection=connection,
            )
            try:
                message.send()
            except Exception as exc:
                failed.append(_failed(mail, exc))
    finally:
        try:
            connection.close()
        except Exception:  # the mails are sent or reported already
            logger.warning("Closing the mail connection failed", exc_info=True)
    return failed


def mail_send(*, to: str, subject: str, body: str) -> None:
    """Send one email; MailError, with the reason, when it could not be."""
    for failure in mails_send([Mail(to=to, subject=subject, body=body)]):
        raise MailError(failure.reason)


def _failed(mail: Mail, exc: Exception) -> MailFailure:
    # The body may hold a link that is a credential (an invitation): only
    # the subject and the reason are logged.
    reason = shortened(one_line(str(exc)), REASON_MAX_CHARS)
    reason = f"{type(exc).__name__}: {reason}" if reason else type(exc).__name__
    logger.warning(
        "An email could not be sent (%s): %s", mail_subject(mail.subject), reason
    )
    return MailFailure(mail, reason)
