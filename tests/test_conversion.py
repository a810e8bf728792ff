"""The design a process reads for a revision is the same in every process:
the one that saved it and any other (an app server, the job worker), on
SQLite and on PostgreSQL, whose jsonb stores object keys in an order of its
own."""

from __future__ import annotations

import dataclasses

from modeler import design as d
from modeler import services
from modeler.conversion import design_from_project, forget_decoded
from modeler.models import Project
from tests.views.conftest import example_design


def test_the_saving_process_reads_what_every_other_process_reads(owner):
    design = example_design("order-management")
    # The user's own item, its attributes in an order no database sorts to.
    design = dataclasses.replace(
        design,
        sample_data=dataclasses.replace(
            design.sample_data,
            items=d.freeze(
                [{"SK": "PROFILE", "PK": "CUST#x", "zeta": "z", "customerId": "x"}]
            ),
        ),
    )
    project = services.project_create(owner=owner, design=design)
    here = design_from_project(project)

    forget_decoded()  # another process: nothing decoded in its memory yet
    elsewhere = design_from_project(Project.objects.get(pk=project.pk))

    # The worker refuses a job whose design digest is not the one it reads.
    assert here.digest == elsewhere.digest
    assert here == elsewhere
