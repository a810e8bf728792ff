"""Mail backends that fail as real ones do, for the tests that check what a
failed email leaves behind (settings.EMAIL_BACKEND = "tests.mail_backends.…")."""

from __future__ import annotations

import smtplib

from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.backends.locmem import EmailBackend as OutboxBackend

BOUNCING_DOMAIN = "@bounce.example"


class UnreachableBackend(BaseEmailBackend):
    """A mail server that is down: every connection is refused."""

    def open(self) -> bool:
        raise ConnectionRefusedError(111, "Connection refused")

    def send_messages(self, email_messages) -> int:
        self.open()
        return 0


class BouncingBackend(OutboxBackend):
    """Delivers to the test outbox (mail.outbox), except that the server
    refuses addresses at bounce.example, as an SMTP server refuses an
    unknown recipient."""

    def send_messages(self, email_messages) -> int:
        for message in email_messages:
            refused = [a for a in message.recipients() if a.endswith(BOUNCING_DOMAIN)]
            if refused:
                raise smtplib.SMTPRecipientsRefused(
                    {a: (550, b"5.1.1 No such user here") for a in refused}
                )
        return super().send_messages(email_messages)
