"""`{% reviews_unread %}`: on the project header's Reviews tab, how many
comments in the project's reviews the user has not read."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from modeler.services import reviews as review_sessions

register = template.Library()


@register.simple_tag(takes_context=True)
def reviews_unread(context: template.Context) -> SafeString | str:
    user = context.get("user")
    access = context.get("access")
    if access is None or user is None or not user.is_authenticated:
        return ""
    # A review's own page shows its comments (it posts that they are read
    # as it loads): the header counts the other reviews'.
    showing = context.get("session") if context.get("shown") else None
    count = review_sessions.unread_count(
        project=access.project, user=user, showing=showing
    )
    if not count:
        return ""
    return format_html(
        ' <span class="badge badge-unread" data-header-unread>{}'
        '<span class="visually-hidden"> unread comment{}</span></span>',
        count,
        "" if count == 1 else "s",
    )
