"""The design a process reads for a revision is the same in every process:
the one that saved it and any other (an app server, the job worker), on
SQLite and on PostgreSQL, whose jsonb stores object keys in an order of its
own."""

from __future__ import annotations

import dataclasses

from modeler.conversion import design_from_project, forget_decoded
from modeler.design import model as d
from modeler.models import Project
from modeler.services import projects as project_services
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
    project = project_services.project_create(owner=owner, design=design)
    here = design_from_project(project)

    forget_decoded()  # another process: nothing decoded in its memory yet
    elsewhere = design_from_project(Project.objects.get(pk=project.pk))

    # The worker refuses a job whose design digest is not the one it reads.
    assert here.digest == elsewhere.digest
    assert here == elsewhere


def test_a_design_reads_back_in_the_order_it_was_written(owner):
    """A choice draws by the order of its options, and the editor shows them
    in it: that order is kept on every database (jsonb would sort them by
    length: OPEN, SHIPPED, CANCELLED, DELIVERED), and so is the order of an
    item's attributes."""
    design = example_design("order-management")
    item = {"SK": "PROFILE", "PK": "CUST#x", "zeta": "z", "customerId": "x"}
    design = dataclasses.replace(
        design,
        sample_data=dataclasses.replace(design.sample_data, items=d.freeze([item])),
    )
    project = project_services.project_create(owner=owner, design=design)

    forget_decoded()
    back = design_from_project(Project.objects.get(pk=project.pk))

    status = back.entity("Order").attribute("status").generator
    assert list(status.params) == [
        "OPEN",
        "SHIPPED",
        "DELIVERED",
        "CANCELLED",
    ]
    assert [list(i) for i in back.sample_data.items] == [list(item)]
