"""What the views of every project section share: the project and its
design, access-checked, and the design's simulated table."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from botocore.exceptions import ClientError
from django.http import HttpRequest

from modeler import design as d
from modeler import selectors
from modeler.jobs.runner import build_problem
from modeler.sampledata import SampleDataError
from modeler.selectors import ProjectAccess
from modeler.simulation import Simulation
from modeler.simulation.cache import cached_simulation

logger = logging.getLogger(__name__)


def design_for(
    request: HttpRequest, project_id: int, *, write: bool = False
) -> tuple[ProjectAccess, d.Design]:
    """The project (404 for outsiders, 403 for a viewer who writes) and its
    design, in a fixed number of queries."""
    access = selectors.project_get_for_user(
        user=request.user, project_id=project_id, with_design=True, write=write
    )
    return access, selectors.project_design(project=access.project)


@dataclass(frozen=True)
class Loaded:
    """A design's simulation, or the reason it has none."""

    simulation: Simulation | None = None
    lock: threading.Lock | None = None
    problem: str = ""


def load_simulation(design: d.Design) -> Loaded:
    """The design's simulated table (one per design and data, shared by the
    sections), or why there is none: a design being edited may not make its
    sample data, and a simulator bug must not take a page down."""
    try:
        simulation, lock = cached_simulation(design)
    except Exception as exc:
        if not isinstance(exc, (SampleDataError, ClientError)):
            logger.exception("Loading the simulation of %r failed", design.name)
        return Loaded(problem=build_problem(exc))
    return Loaded(simulation, lock)
