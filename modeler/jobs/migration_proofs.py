"""The migration from one revision of a project to another, planned and
proven by a worker (issue 34): the proof loads the first revision's sample
data, runs the generated script on it and every access pattern of the
second, which takes a simulation's time at large counts, never a web
request's. The plan (with the proof's verdict) is kept in Django's cache
under what it depends on: the two designs, the prices and the stored item
count. While a worker makes it, the cache holds how far it is (refreshed
with each report, so a worker that died is seen as gone once it expires,
and asking again starts another)."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django_tasks import task

from modeler.design import model as d
from modeler.evolution.plan import BESIDE, Plan, plan_migration
from modeler.evolution.spec import PlanError
from modeler.infra.database import DATABASE_LOST
from modeler.jobs.budget import Budget, BudgetExceeded, checked_progress
from modeler.jobs.pickling import FORMAT, dumps, loads
from modeler.models import Project
from modeler.sampledata import SampleDataError
from modeler.selectors import project_cost_settings, revision_design

logger = logging.getLogger(__name__)

# A plan holds while its designs and prices do: its key names them.
CACHE_SECONDS = 24 * 60 * 60
# Why there is no plan is kept briefly: asking again tries again.
PROBLEM_SECONDS = 60
# A worker that has not reported by then is taken as lost: asking again
# queues another.
PENDING_SECONDS = 2 * 60
# How often the worker says how far it is.
PROGRESS_SECONDS = 0.5

PHASES = {
    "": "waiting for a worker",
    "generating": "making the sample data of the first revision",
    "loading": "loading it into the engine",
    "rewriting": "running the migration script on it",
    "dual-write": "running the first revision's access patterns on the rewritten table",
    "cleanup": "running the script's cleanup",
    "checking": "checking every item and the counts",
    "patterns": "running the access patterns of the second revision",
}


@dataclass(frozen=True)
class ProofState:
    """The plan, proven or not (`plan`); or why there is none (`problem`);
    or, while a worker makes it, how far it is (`pending`, in `phase`,
    `done` of `total`); or none of these (`to_start`: a POST starts it)."""

    plan: Plan | None = None
    problem: str = ""
    pending: bool = False
    phase: str = ""
    done: int = 0
    total: int = 0

    @property
    def to_start(self) -> bool:
        return self.plan is None and not self.problem and not self.pending

    @property
    def phase_label(self) -> str:
        phase = self.phase.removeprefix(BESIDE)
        label = PHASES.get(phase, phase)
        if phase != self.phase:
            return f"proving the way with the index rebuilt beside itself: {label}"
        return label

    @property
    def percent(self) -> int:
        return min(100, 100 * self.done // self.total) if self.total else 0


def migration_title(project: Project, first: int, second: int) -> str:
    """The title of the migration from revision `first` to `second`: its
    script's, in the plan its fingerprint is taken of, so the script the
    page hands out is the one the proof ran."""
    return f"Migrate {project.name} from revision {first} to {second}"


def migration_sides(first: int, second: int) -> tuple[str, str]:
    """The two revisions as the planner names them in why it cannot plan."""
    return f"revision {first}", f"revision {second}"


def _key(project: Project, before: d.Design, after: d.Design) -> str:
    cost = project_cost_settings(project=project)
    parts = f"{before.digest}:{after.digest}:{cost.prices!r}:{cost.stored_items}"
    digest = hashlib.sha256(parts.encode()).hexdigest()
    return f"migration-proof:{FORMAT}:{project.pk}:{digest}"


def _pending(key: str) -> str:
    return f"{key}:pending"


def migration_proof_find(
    *, project: Project, before: d.Design, after: d.Design
) -> ProofState:
    """The plan from `before` to `after` (two revisions of the project) as a
    page that only shows it finds it: nothing is asked or written."""
    key = _key(project, before, after)
    data = cache.get(key)
    if data is not None:
        plan, problem = loads(data)
        return ProofState(plan, problem)
    progress = cache.get(_pending(key))
    if progress is None:
        return ProofState()
    phase, done, total = progress
    return ProofState(pending=True, phase=phase, done=done, total=total)


def migration_proof_request(
    *,
    project: Project,
    first: int,
    second: int,
    before: d.Design,
    after: d.Design,
    again: bool = False,
) -> ProofState:
    """The plan from revision `first` to `second`, asked of a worker unless
    one made it or makes it now (once, however many ask at once). With
    `again`, why it could not be made is forgotten first: it is tried
    again."""
    state = migration_proof_find(project=project, before=before, after=after)
    if again and state.problem:
        cache.delete(_key(project, before, after))
        state = ProofState()
    if not state.to_start:
        return state
    if cache.add(_pending(_key(project, before, after)), ("", 0, 0), PENDING_SECONDS):
        prove_migration.enqueue(project.pk, first, second)
    # The task backend may have run it at once (tests run tasks so).
    return migration_proof_find(project=project, before=before, after=after)


@task()
def prove_migration(project_id: int, first: int, second: int) -> None:
    """The task that plans and proves a project's migration."""
    migration_proof_run(project_id=project_id, first=first, second=second)


def migration_proof_run(*, project_id: int, first: int, second: int) -> None:
    """The worker's part: the plan from revision `first` to `second` at the
    project's prices, proven on the first's sample data within a
    simulation's budget, kept for the pages that ask (or why it could not
    be made)."""
    project = Project.objects.filter(pk=project_id).first()
    before = after = None
    if project is not None:
        before = revision_design(project=project, number=first)
        after = revision_design(project=project, number=second)
    if project is None or before is None or after is None:
        return  # deleted since: nobody waits for it
    key = _key(project, before, after)
    cost = project_cost_settings(project=project)
    budget = Budget(settings.SIMULATION_CPU_SECONDS, settings.SIMULATION_MEMORY_MB)
    progress = checked_progress(
        budget,
        lambda phase, done, total: cache.set(
            _pending(key), (phase, done, total), PENDING_SECONDS
        ),
        every=PROGRESS_SECONDS,
    )

    plan, problem = None, ""
    try:
        plan = plan_migration(
            before,
            after,
            prices=cost.prices,
            stored_items=cost.stored_items,
            title=migration_title(project, first, second),
            sides=migration_sides(first, second),
            progress=progress,
        )
    except BudgetExceeded as exc:
        problem = (
            f"The proof passed {exc.budget_named()}: lower the counts in Sample "
            "data, or run manage.py plan_migration, which has no budget."
        )
    except (PlanError, SampleDataError) as exc:
        problem = f"The migration cannot be planned: {exc}."
    except DATABASE_LOST:
        raise  # kept as the answer, it would outlive the database's restart
    except Exception as exc:  # a planner bug must not leave the page waiting
        logger.exception("Proving the migration of project %s failed", project_id)
        problem = f"The migration could not be planned ({type(exc).__name__}: {exc})."
    for kept in (plan, plan.alternative if plan is not None else None):
        if kept is not None and kept.proof is not None:
            # The migrated items stay in the worker, and the runs' tallies
            # (of the script's own classes, which do not pickle), whose
            # units the steps already hold: the pages need the rest.
            kept.proof = dataclasses.replace(
                kept.proof,
                items_after=[],
                entities_after=[],
                tally=None,
                cleanup_tally=None,
            )
    cache.set(
        key, dumps((plan, problem)), PROBLEM_SECONDS if problem else CACHE_SECONDS
    )
    cache.delete(_pending(key))
