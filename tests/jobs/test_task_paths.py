"""The queue's rows name their task by its import path, and the worker's
recovery and its turns by project read those paths as text (importing the
tasks there would import the code they run back into the worker's loop):
the texts name the tasks as they are defined."""

from __future__ import annotations

from modeler.jobs import fairness, recovery
from modeler.jobs.collections import draw_collections, render_collections_png
from modeler.jobs.proposals import propose_keys
from modeler.jobs.runner import simulate_design
from modeler.jobs.samplefiles import write_sample_file


def test_the_simulation_task_is_named_as_defined() -> None:
    assert simulate_design.module_path == recovery.SIMULATE_TASK


def test_the_tasks_of_a_project_are_named_as_defined() -> None:
    assert {
        task.module_path
        for task in (
            propose_keys,
            draw_collections,
            write_sample_file,
            render_collections_png,
        )
    } == fairness.PROJECT_TASKS
