"""A simulation job as its worker runs it: the sample data made and loaded
with its progress stored, then each access pattern run and its result
stored as soon as it is ready; the cancel flag and the budget are checked
between steps and every few thousand items."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from botocore.exceptions import ClientError
from django.conf import settings
from django.db.models import F
from django.utils import timezone
from django_tasks import task

from modeler import selectors
from modeler.conversion import design_from_revision_id
from modeler.design import model as d
from modeler.design_check.limits import check_sample_size
from modeler.infra.database import DATABASE_LOST
from modeler.infra.lru import Kept
from modeler.jobs.budget import Budget, BudgetExceeded
from modeler.jobs.recovery import DISCONNECTED
from modeler.jobs.results import entity_counts, pattern_result, verdict_of
from modeler.jobs.reviews import review_key, review_store
from modeler.models import PatternResult, Project, SimulationJob
from modeler.review.review import review_design
from modeler.sampledata import SampleDataError
from modeler.sampledata.generate import max_items, planned_counts
from modeler.simulation import PatternRun, Simulation
from modeler.simulation.cache import cached_simulation, design_digest

logger = logging.getLogger(__name__)

State, Phase = SimulationJob.State, SimulationJob.Phase
# Progress is written, and the cancel flag read, at most this often.
REPORT_SECONDS = 0.25


# The pattern runs of the worker's last designs, by design digest.
_kept_runs: Kept[list[PatternRun]] = Kept(8)


class Cancelled(Exception):
    pass


def build_problem(exc: Exception) -> str:
    """Why a design's simulation cannot be built, for its user."""
    if isinstance(exc, SampleDataError):
        return f"The sample data cannot be made: {exc}."
    if isinstance(exc, ClientError):
        error = exc.response["Error"]
        return f"The table cannot be created: {error['Code']}: {error['Message']}"
    return f"The simulator could not load this design ({type(exc).__name__}: {exc})."


@task()
def simulate_design(job_id: int) -> None:
    """The task of a design's simulation job."""
    run_job(job_id)


def run_job(job_id: int) -> None:
    """Runs the job unless it was cancelled, superseded or taken by another
    worker; whatever happens, leaves it done, failed, cancelled or
    superseded."""
    if _supersede(job_id):
        return
    claimed = SimulationJob.objects.filter(
        pk=job_id, state=State.QUEUED, cancel_requested=False
    ).update(state=State.RUNNING, started=timezone.now(), heartbeat=timezone.now())
    if not claimed:
        SimulationJob.objects.filter(pk=job_id, state=State.QUEUED).update(
            state=State.CANCELLED,
            message="Cancelled before it started.",
            finished=timezone.now(),
        )
        return
    job = SimulationJob.objects.get(pk=job_id)
    design = design_from_revision_id(job.revision_id)
    if design_digest(design) != job.design_digest:
        # Its results are found by the design it was asked for: those of
        # another design would be wrong under that name.
        _finish(
            job_id,
            State.FAILED,
            "The design changed while this simulation waited for a worker: "
            "run it again.",
        )
        return
    # A design saved before the site lowered a limit is held to it here,
    # before any item is made.
    refused = check_sample_size(design)
    if refused:
        _finish(
            job_id,
            State.FAILED,
            f"The sample data cannot be made: {refused[0].message}.",
        )
        return
    watch = _Watch(
        job_id,
        job.project,
        design,
        Budget(settings.SIMULATION_CPU_SECONDS, settings.SIMULATION_MEMORY_MB),
    )
    try:
        _simulate(design, watch)
    except Cancelled:
        _finish(job_id, State.CANCELLED, f"Cancelled {watch.where()}.")
    except BudgetExceeded as exc:
        _finish(job_id, State.FAILED, watch.budget_message(exc))
    except DATABASE_LOST:
        # Not the design's fault. On a connection the server dropped this
        # fails too: the worker marks the job failed once it is back.
        _finish(job_id, State.FAILED, DISCONNECTED)
        raise
    except Exception as exc:
        if not isinstance(exc, (SampleDataError, ClientError)):
            logger.exception("Simulation job %s of %r failed", job_id, design.name)
        _finish(job_id, State.FAILED, build_problem(exc))
    except BaseException:
        # The worker was told twice to stop (the first time it finishes
        # the job it runs): the job ends with it.
        _finish(
            job_id,
            State.FAILED,
            f"The worker was stopped {watch.where()}: run it again.",
        )
        raise
    else:
        _finish(job_id, State.DONE, "")


def _supersede(job_id: int) -> bool:
    """Marks the queued job superseded, and says so, when a later job of
    its project was asked for and its design is no longer the project's:
    a designer saving edit after edit queues a job per version, and only
    the last is wanted. A page that still wants it (a diff of revisions)
    starts it again (`simulation_job_for`)."""
    job = (
        SimulationJob.objects.filter(pk=job_id, state=State.QUEUED)
        .select_related("project")
        .first()
    )
    if job is None:
        return False
    later = SimulationJob.objects.filter(
        project_id=job.project_id, created__gt=job.created
    ).exists()
    if not later:
        return False
    if design_digest(selectors.project_design(project=job.project)) == (
        job.design_digest
    ):
        return False
    return bool(
        SimulationJob.objects.filter(pk=job_id, state=State.QUEUED).update(
            state=State.SUPERSEDED,
            message="A later version of the design was saved before a worker "
            "took this simulation.",
            finished=timezone.now(),
        )
    )


def _simulate(design: d.Design, watch: _Watch) -> None:
    watch.report(Phase.GENERATING, 0, 0, force=True)
    # The worker keeps the loaded tables of its last designs: a job for a
    # design whose data an earlier job loaded (a pattern, its traffic or a
    # description edited) goes straight to the patterns.
    simulation, lock = cached_simulation(design, progress=watch.progress)
    watch.simulation = simulation
    patterns = design.access_patterns
    SimulationJob.objects.filter(pk=watch.job_id).update(
        phase=Phase.RUNNING,
        counts=entity_counts(design, simulation),
        items_made=len(simulation.items),
        items_loaded=len(simulation.items),
        items_total=len(simulation.items),
        patterns_total=len(patterns),
        heartbeat=timezone.now(),
    )
    # A design run before by this worker (a job again at other prices)
    # has its runs already: the patterns are not run again.
    digest = design_digest(design)
    kept = _kept_runs.get(digest)
    runs = []
    for position, pattern in enumerate(patterns):
        watch.pattern = pattern.name
        watch.check(force=True)
        with lock:  # write patterns change the table, then put it back
            run = kept[position] if kept is not None else _run(simulation, pattern)
            result = pattern_result(design, simulation, run)
        runs.append(run)
        PatternResult.objects.create(
            job_id=watch.job_id,
            position=position,
            name=pattern.name[:500],
            verdict=verdict_of(run),
            result=result,
        )
        watch.patterns_run = position + 1
        SimulationJob.objects.filter(pk=watch.job_id).update(
            patterns_run=F("patterns_run") + 1, heartbeat=timezone.now()
        )
    _kept_runs.put(digest, runs)
    watch.pattern = ""
    watch.check(force=True)
    SimulationJob.objects.filter(pk=watch.job_id).update(
        phase=Phase.REVIEWING, heartbeat=timezone.now()
    )
    # The review at the project's prices as they are now; a page asking
    # at other prices starts a job again, which the kept runs serve.
    cost = selectors.project_cost_settings(project=watch.project)
    with lock:
        review = review_design(
            design,
            simulation=simulation,
            runs=runs,
            prices=cost.prices,
            stored_items=cost.stored_items,
        )
    key = review_key(design, cost.prices, cost.stored_items)
    review_store(key, review)
    SimulationJob.objects.filter(pk=watch.job_id).update(review_key=key)


def forget_runs() -> None:
    """Drops the pattern runs this worker keeps (tests that count runs)."""
    _kept_runs.clear()


def _run(simulation: Simulation, pattern: d.AccessPattern) -> PatternRun:
    try:
        # With its further draws, as the review and `simulate` judge it.
        return simulation.draw(simulation.run(pattern))
    except Exception as exc:
        # One pattern's simulator bug must not hide the others' results.
        logger.exception("Simulating the pattern %r failed", pattern.name)
        return PatternRun(
            pattern,
            error=f"the simulator failed on this pattern ({type(exc).__name__}: {exc})",
        )


def _finish(job_id: int, state: str, message: str) -> None:
    SimulationJob.objects.filter(pk=job_id).update(
        state=state, message=message, finished=timezone.now()
    )


@dataclass
class _Watch:
    """The job's progress as it goes, written to its row now and then,
    with the cancel flag and the budget checked each time."""

    job_id: int
    project: Project
    design: d.Design
    budget: Budget
    phase: str = Phase.GENERATING
    done: int = 0
    total: int = 0
    patterns_run: int = 0
    pattern: str = ""
    simulation: Simulation | None = None
    _last: float = field(default=0.0)

    def progress(self, phase: str, done: int, total: int) -> None:
        self.report(phase, done, total)

    def report(self, phase: str, done: int, total: int, *, force: bool = False) -> None:
        self.phase, self.done, self.total = phase, done, total
        self.budget.check()
        if not force and time.monotonic() - self._last < REPORT_SECONDS:
            return
        counted = (
            {"items_made": done}
            if phase == Phase.GENERATING
            else {
                "items_made": total,
                "items_loaded": done,
            }
        )
        SimulationJob.objects.filter(pk=self.job_id).update(
            phase=phase, items_total=total, heartbeat=timezone.now(), **counted
        )
        self._cancel_check()

    def check(self, *, force: bool = False) -> None:
        self.budget.check()
        if force or time.monotonic() - self._last >= REPORT_SECONDS:
            self._cancel_check()

    def _cancel_check(self) -> None:
        self._last = time.monotonic()
        cancelled = (
            SimulationJob.objects.filter(pk=self.job_id)
            .values_list("cancel_requested", flat=True)
            .first()
        )
        if cancelled is not False:  # asked, or the job is gone
            raise Cancelled

    def where(self) -> str:
        """How far it had gone, for a message."""
        if self.simulation is not None:
            total = len(self.design.access_patterns)
            return f"after {self.patterns_run:,} of {total:,} patterns had run"
        verb = "made" if self.phase == Phase.GENERATING else "loaded"
        return f"with {self.done:,} of {self.total:,} items {verb}"

    def budget_message(self, exc: BudgetExceeded) -> str:
        counts = self._counts()
        total = sum(counts.values())
        budget = exc.budget_named()
        verb = "pass" if exc.kind == "time" else "need more than"
        if not counts:
            return f"This design's simulation passed {budget}."
        largest = max(counts, key=counts.__getitem__)
        items = f"{largest}'s {counts[largest]:,} items"
        if total > counts[largest]:
            items += f" (of {total:,} in all)"
        if self.simulation is not None:
            step = f", running '{self.pattern}'" if self.pattern else ""
            return (
                f"Running the access patterns on {items} passed {budget} "
                f"{self.where()}{step}: lower {largest}'s count in Sample data."
            )
        return f"{items} {verb} {budget}: lower {largest}'s count in Sample data."

    def _counts(self) -> dict[str, int]:
        if self.simulation is not None:
            counts: dict[str, int] = {}
            for name in self.simulation.entities:
                if name is not None:
                    counts[name] = counts.get(name, 0) + 1
            return counts
        return planned_counts(self.design, stop_after=max_items() * 2)
