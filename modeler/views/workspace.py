"""What the views of every project section share: the project and its
design, access-checked."""

from __future__ import annotations

from django.http import HttpRequest

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
