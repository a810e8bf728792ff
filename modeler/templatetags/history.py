"""`{% undo_bar %}`: the Undo and Redo buttons of the project header, for
the people who may change the project."""

from __future__ import annotations

from typing import Any

from django import template

from modeler.services import history as history_services

register = template.Library()


@register.inclusion_tag("modeler/_undo-bar.html", takes_context=True)
def undo_bar(context: template.Context) -> dict[str, Any]:
    access = context["access"]
    state = None
    if access.can_write:
        state = history_services.undo_state(
            project=access.project, user=context["user"]
        )
    return {"project": access.project, "access": access, "state": state}
