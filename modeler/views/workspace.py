"""What the views of every project section share: the project and its
design, access-checked; the answer to a POST that started a worker's
answer for the page at the same address."""

from __future__ import annotations

from http import HTTPStatus

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect

from modeler import selectors
from modeler.design import model as d
from modeler.selectors import ProjectAccess


def design_for(
    request: HttpRequest, project_id: int, *, write: bool = False
) -> tuple[ProjectAccess, d.Design]:
    """The project (404 for outsiders, 403 for a viewer who writes) and its
    design, in a fixed number of queries."""
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, with_design=True, write=write
    )
    return access, selectors.project_design(project=access.project)


def answer_started(request: HttpRequest) -> HttpResponse:
    """The answer to the POST of a page's start form (`_answer-start.html`),
    made to the page's own address: for htmx, nothing (the page asks
    again as it does while a job runs); without script, the page again."""
    if request.htmx:
        return HttpResponse(status=HTTPStatus.NO_CONTENT)
    return redirect(request.get_full_path())
