"""Key proposals for a project: the solver run on the design of one
revision, and adopting one of its designs as the next revision. The
proposed designs are kept in the cache (as design files) by project,
revision and number, so adopting one does not run the solver again; when
the cache has lost them, the solver (deterministic) makes them again."""

from __future__ import annotations

import dataclasses
import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache

from modeler.design import model as d
from modeler.design.problems import has_errors
from modeler.designfile import dump_design, read_design
from modeler.infra.database import DATABASE_LOST
from modeler.jobs.pickling import dumps, loads
from modeler.models import Project, Revision
from modeler.services.projects import (
    LimitError,
    StaleVersionError,
    project_revision_design,
    project_save_design,
)
from modeler.solver import (
    DEFAULT_ALTERNATIVES,
    Alternative,
    KeptKeysError,
    Proposal,
    propose,
)

logger = logging.getLogger(__name__)

# Long enough to read three proposals side by side and choose one.
CACHE_SECONDS = 60 * 60
# A worker that has not answered by then is taken as lost: asking again
# starts another.
PENDING_SECONDS = 5 * 60


class ProposalMissing(Exception):
    """The revision has no proposal of that number."""


class ProposalsExpired(Exception):
    """The cache no longer keeps the proposals: a worker makes them again
    (`key_proposal_request`)."""


class ProposalChanged(Exception):
    """Proposed again (the cache had lost it), the proposal is not the one
    the page showed: the solver's time budget can end its search elsewhere."""


def proposal_digest(design: d.Design) -> str:
    """What the page shows of a proposal, for adopting exactly that one."""
    return hashlib.sha256(dump_design(design).encode()).hexdigest()[:32]


class ProposalRefused(Exception):
    """The proposed design has errors, so it was not saved; the message
    names them."""


def _question(project: Project, version: int, keep: Sequence[str]) -> str:
    """What was asked: the project's revision and the entities kept."""
    kept = hashlib.sha256("\n".join(sorted(keep)).encode()).hexdigest()[:16]
    return f"{project.pk}:{version}:{kept}"


def _cache_key(project: Project, version: int, number: int, keep: Sequence[str]) -> str:
    """Where proposal `number`'s design is kept."""
    return f"key-proposal:{_question(project, version, keep)}:{number}"


def key_proposal_make(
    *, project: Project, design: d.Design, version: int, keep: Sequence[str] = ()
) -> Proposal:
    """The solver's proposals for `design`, the project's revision `version`
    (keeping the table keys of the entities in `keep`); each alternative's
    design is kept for `key_proposal_adopt`."""
    proposal = propose(design, keep=keep)
    cache.set_many(
        {
            _cache_key(project, version, number, keep): dump_design(alternative.design)
            for number, alternative in enumerate(proposal.alternatives, 1)
        },
        CACHE_SECONDS,
    )
    return proposal


@dataclass(frozen=True)
class ProposalState:
    """Proposals asked for: made (`proposal`), refused (`failure` says
    why), being made by a worker (`pending`), or none of these (never
    asked for, or the cache has dropped them)."""

    proposal: Proposal | None = None
    failure: str = ""
    pending: bool = False

    @property
    def unknown(self) -> bool:
        return self.proposal is None and not self.failure and not self.pending


def key_proposal_request(
    *, project: Project, version: int, keep: Sequence[str] = ()
) -> ProposalState:
    """The proposals for the project's revision `version` (keeping the
    table keys of the entities in `keep`), asked of a worker unless one
    made them or makes them now: the solver takes seconds, never a web
    request's time."""
    from modeler.jobs.tasks import propose_keys  # the task imports this module

    state = key_proposal_state(project=project, version=version, keep=keep)
    if not state.unknown:
        return state
    # One worker per question, however many ask at once.
    if cache.add(_pending_key(project, version, keep), True, PENDING_SECONDS):
        propose_keys.enqueue(project.pk, version, sorted(keep))
    return key_proposal_state(project=project, version=version, keep=keep)


def key_proposal_state(
    *, project: Project, version: int, keep: Sequence[str] = ()
) -> ProposalState:
    data = cache.get(_result_key(project, version, keep))
    if data is not None:
        proposal, failure = loads(data)
        return ProposalState(proposal, failure)
    return ProposalState(
        pending=cache.get(_pending_key(project, version, keep)) is True
    )


def key_proposal_run(*, project_id: int, version: int, keep: Sequence[str]) -> None:
    """The worker's part: the solver run on revision `version`, its
    proposals (or why there are none) kept for the pages that ask."""
    project = Project.objects.get(pk=project_id)
    proposal, failure = None, ""
    try:
        design = project_revision_design(project=project, number=version)
        proposal = key_proposal_make(
            project=project, design=design, version=version, keep=keep
        )
    except KeptKeysError as exc:
        failure = f"Keep: {exc}."
    except DATABASE_LOST:
        raise  # kept as the answer, it would outlive the database's restart
    except Exception as exc:  # a solver bug must not leave the page waiting
        logger.exception("Proposing keys for project %s failed", project_id)
        failure = f"No keys could be proposed ({type(exc).__name__}: {exc})."
    if proposal is not None:
        # The loaded tables stay in the worker: the pages need the rest.
        proposal = dataclasses.replace(
            proposal,
            alternatives=tuple(_unloaded(a) for a in proposal.alternatives),
            yours=_unloaded(proposal.yours) if proposal.yours else None,
        )
    cache.set(
        _result_key(project, version, keep), dumps((proposal, failure)), CACHE_SECONDS
    )
    cache.delete(_pending_key(project, version, keep))


def _unloaded(alternative: Alternative) -> Alternative:
    return dataclasses.replace(alternative, simulation=None)


def _result_key(project: Project, version: int, keep: Sequence[str]) -> str:
    """Where the whole proposal (or why there is none) is kept."""
    return f"key-proposals:{_question(project, version, keep)}"


def _pending_key(project: Project, version: int, keep: Sequence[str]) -> str:
    return _result_key(project, version, keep) + ":pending"


def key_proposal_design(
    *, project: Project, version: int, number: int, keep: Sequence[str] = ()
) -> d.Design:
    """Proposal `number` (from 1) for revision `version`, from the cache.
    ProposalMissing if the proposals have no such number; ProposalsExpired
    if the cache has dropped them (the solver takes seconds: never in a web
    request)."""
    text = cache.get(_cache_key(project, version, number, keep))
    if text is not None:
        design = read_design(text).design
        if design is not None:
            return design
    state = key_proposal_state(project=project, version=version, keep=keep)
    offered = (
        len(state.proposal.alternatives)
        if state.proposal is not None
        else DEFAULT_ALTERNATIVES
    )
    if not 1 <= number <= offered:
        raise ProposalMissing(f"There is no proposal {number}.")
    raise ProposalsExpired(f"The proposals for version {version} are not kept.")


def key_proposal_adopt(
    *,
    project: Project,
    version: int,
    number: int,
    author: AbstractBaseUser,
    keep: Sequence[str] = (),
    digest: str = "",
) -> Revision:
    """Save proposal `number` for revision `version` as the project's next
    revision. StaleVersionError if the project changed since `version` (said
    before any proposing); ProposalChanged if `digest`, the page's, is not
    the proposal's."""
    if project.version != version:
        raise StaleVersionError(
            f"The project is at version {project.version}, not {version}."
        )
    design = key_proposal_design(
        project=project, version=version, number=number, keep=keep
    )
    if digest and digest != proposal_digest(design):
        raise ProposalChanged(f"Proposal {number} is not the one shown.")
    try:
        project, problems = project_save_design(
            project=project,
            design=design,
            version=version,
            author=author,
            summary=f"adopted key proposal {number}",
        )
    except LimitError as exc:
        raise ProposalRefused(f"Proposal {number} was not saved: {exc}.") from None
    if has_errors(problems):
        errors = "; ".join(f"{p.path}: {p.message}" for p in problems if p.is_error)
        raise ProposalRefused(f"Proposal {number} was not saved: {errors}.")
    return Revision.objects.get(project=project, number=version + 1)
