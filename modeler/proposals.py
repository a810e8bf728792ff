"""Key proposals for a project: the solver run on the design of one
revision, and adopting one of its designs as the next revision. The
proposed designs are kept in the cache (as design files) by project,
revision and number, so adopting one does not run the solver again; when
the cache has lost them, the solver (deterministic) makes them again."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from django.contrib.auth.models import AbstractBaseUser
from django.core.cache import cache

from modeler import design as d
from modeler.designfile import dump_design, read_design
from modeler.models import Project, Revision
from modeler.problems import has_errors
from modeler.services import (
    StaleVersionError,
    project_revision_design,
    project_save_design,
)
from modeler.solver import Proposal, propose

# Long enough to read three proposals side by side and choose one.
CACHE_SECONDS = 60 * 60


class ProposalMissing(Exception):
    """The revision has no proposal of that number."""


class ProposalChanged(Exception):
    """Proposed again (the cache had lost it), the proposal is not the one
    the page showed: the solver's time budget can end its search elsewhere."""


def proposal_digest(design: d.Design) -> str:
    """What the page shows of a proposal, for adopting exactly that one."""
    return hashlib.sha256(dump_design(design).encode()).hexdigest()[:32]


class ProposalRefused(Exception):
    """The proposed design has errors, so it was not saved; the message
    names them."""


def _cache_key(project: Project, version: int, number: int, keep: Sequence[str]) -> str:
    kept = hashlib.sha256("\n".join(sorted(keep)).encode()).hexdigest()[:16]
    return f"key-proposal:{project.pk}:{version}:{number}:{kept}"


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


def key_proposal_design(
    *, project: Project, version: int, number: int, keep: Sequence[str] = ()
) -> d.Design:
    """Proposal `number` (from 1) for revision `version`: from the cache, or
    proposed again. StaleVersionError if the project has no such revision,
    ProposalMissing if the proposal has no such number."""
    text = cache.get(_cache_key(project, version, number, keep))
    if text is not None:
        design = read_design(text).design
        if design is not None:
            return design
    source = project_revision_design(project=project, number=version)
    proposal = key_proposal_make(
        project=project, design=source, version=version, keep=keep
    )
    if not 1 <= number <= len(proposal.alternatives):
        raise ProposalMissing(f"There is no proposal {number}.")
    return proposal.alternatives[number - 1].design


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
    project, problems = project_save_design(
        project=project,
        design=design,
        version=version,
        author=author,
        summary=f"adopted key proposal {number}",
    )
    if has_errors(problems):
        errors = "; ".join(f"{p.path}: {p.message}" for p in problems if p.is_error)
        raise ProposalRefused(f"Proposal {number} was not saved: {errors}.")
    return Revision.objects.get(project=project, number=version + 1)
