"""Propose keys: the solver's key designs for the project's entities and
access patterns, side by side with the design's own, each with how it
differs from it; owners and editors adopt one as the next revision."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
)

from modeler.design import model as d
from modeler.forms.projects import ProposeKeysForm, VersionForm
from modeler.history import elements
from modeler.history.diff import DesignDiff, design_diff
from modeler.jobs.proposals import (
    ProposalChanged,
    ProposalMissing,
    ProposalRefused,
    ProposalsExpired,
    ProposalState,
    key_proposal_adopt,
    key_proposal_request,
    key_proposal_state,
    proposal_digest,
)
from modeler.presenters import key_map_rows
from modeler.selectors import ProjectAccess
from modeler.services.projects import StaleVersionError
from modeler.solver import Alternative, Proposal
from modeler.solver.report import headline, key_map, verdict
from modeler.views.editor import is_partial, render_section, section_context
from modeler.views.statuses import INVALID, STALE
from modeler.views.workspace import design_for

TEMPLATE = "modeler/propose-keys.html"


@dataclass(frozen=True)
class Column:
    """One design of the side-by-side view: the user's own (`number` 0) or
    proposal `number`, with how it differs from the user's."""

    number: int
    headline: str
    proven: bool
    verdict: str
    key_columns: tuple[str, ...]
    key_rows: list[tuple[str, list[list[str]]]]  # entity, each cell's pieces
    served: list[tuple[str, str]]
    reasons: tuple[str, ...]
    diff: DesignDiff | None = None
    digest: str = ""  # what adopting it must find, if proposed again
    diff_key_attributes: list[str] | None = None
    diff_key_rows: list[dict] | None = None

    @property
    def label(self) -> str:
        return f"Proposal {self.number}" if self.number else "Yours"


def _pieces(template: str) -> list[str]:
    """A key template cut after each `#`, where a narrow column may break
    the line (`<wbr>` between the pieces)."""
    return re.split(r"(?<=#)(?=.)", template) if template else []


def _column(number: int, alternative: Alternative, yours: d.Design) -> Column:
    diff, attributes, rows = None, None, None
    if number:
        # Elements named as the user's are theirs, as when it is adopted:
        # their index GSI1 is changed, not removed and another added.
        proposed = elements.with_uids(alternative.design, yours)
        diff = design_diff(yours, proposed)
        attributes, rows = key_map_rows(proposed, diff.key_cells)
    table = key_map(alternative.design)
    return Column(
        number=number,
        headline=headline(alternative),
        proven=alternative.proven,
        verdict=verdict(alternative),
        key_columns=table.columns,
        key_rows=[
            (entity, [_pieces(cell) for cell in cells]) for entity, cells in table.rows
        ],
        served=alternative.served_by(),
        reasons=alternative.reasons,
        diff=diff,
        digest=proposal_digest(alternative.design) if number else "",
        diff_key_attributes=attributes,
        diff_key_rows=rows,
    )


def _context(
    access: ProjectAccess,
    design: d.Design,
    *,
    proposal: Proposal | None = None,
    version: int | None = None,
    notice: str = "",
    failure: str = "",
    form: ProposeKeysForm | None = None,
    keep: Sequence[str] = (),
    pending_query: str = "",
) -> dict[str, Any]:
    columns = []
    if proposal is not None:
        if proposal.yours is not None:
            columns.append(_column(0, proposal.yours, design))
        columns += [
            _column(number, alternative, design)
            for number, alternative in enumerate(proposal.alternatives, 1)
        ]
    return section_context(
        access,
        design,
        "propose-keys",
        proposal=proposal,
        columns=columns,
        proposals=[c for c in columns if c.number],
        proposed_version=version,
        notice=notice,
        failure=failure,
        form=form or ProposeKeysForm(design=design),
        kept=keep,
        pending_query=pending_query,
    )


EXPIRED_NOTICE = (
    "These proposals were no longer kept, so they are proposed again; adopt "
    "one when they are back (the solver is deterministic: they are the same)."
)
STALE_NOTICE = (
    "Someone saved this project since these proposals were made, so they may "
    "not fit it any more; propose again to see proposals for the design as it "
    "is now."
)


@login_required
@require_http_methods(["GET", "POST"])
def propose_keys(request: HttpRequest, project_id: int) -> HttpResponse:
    """GET says what proposing does; POST proposes (read only: viewers may)
    and answers htmx with the proposals alone."""
    access, design = design_for(request, project_id)
    if request.method == "GET":
        return render_section(request, TEMPLATE, _context(access, design))
    version = access.project.version
    form = ProposeKeysForm(request.POST, design=design)
    # htmx swaps the answer into the proposals: a refusal goes there too.
    partial = "proposals" if is_partial(request) else "workspace"
    if not form.is_valid():
        failure = " ".join(form.errors.get("keep", []))
        context = _context(access, design, form=form, failure=failure)
        return render_section(
            request, TEMPLATE, context, status=INVALID, partial=partial
        )
    keep = form.cleaned_data["keep"]
    state = key_proposal_request(project=access.project, version=version, keep=keep)
    context = _state_context(access, design, state, version, form, keep)
    return render_section(request, TEMPLATE, context, partial=partial)


@login_required
@require_GET
def propose_keys_proposals(request: HttpRequest, project_id: int) -> HttpResponse:
    """The proposals asked for (`?version=`, `?keep=`), once the worker has
    made them; while it works, the same question asked again a second
    later."""
    access, design = design_for(request, project_id)
    form = ProposeKeysForm(request.GET, design=design)
    try:
        version = int(request.GET.get("version", ""))
    except ValueError:
        raise Http404("Name the version proposed for: ?version=N") from None
    partial = "proposals" if is_partial(request) else "workspace"
    if not form.is_valid():
        context = _context(access, design, notice=STALE_NOTICE)
        return render_section(request, TEMPLATE, context, partial=partial)
    keep = form.cleaned_data["keep"]
    state = key_proposal_state(project=access.project, version=version, keep=keep)
    context = _state_context(access, design, state, version, form, keep)
    return render_section(request, TEMPLATE, context, partial=partial)


def _state_context(
    access: ProjectAccess,
    design: d.Design,
    state: ProposalState,
    version: int,
    form: ProposeKeysForm,
    keep: Sequence[str],
    notice: str = "",
) -> dict[str, Any]:
    if state.pending:
        query = urlencode({"version": version, "keep": list(keep)}, doseq=True)
        return _context(access, design, form=form, pending_query=query, notice=notice)
    if state.proposal is None:
        failure = state.failure or (
            "These proposals are no longer kept: propose again."
        )
        return _context(access, design, form=form, failure=failure, notice=notice)
    return _context(
        access,
        design,
        proposal=state.proposal,
        version=version,
        form=form,
        keep=keep,
        notice=notice,
    )


@login_required
@require_POST
def propose_keys_adopt(
    request: HttpRequest, project_id: int, number: int
) -> HttpResponse:
    """Save proposal `number`, made from the revision the page names, as the
    next revision; then to the Entities section with its keys."""
    access, design = design_for(request, project_id, write=True)
    form = VersionForm(request.POST)
    kept = ProposeKeysForm(request.POST, design=design)
    if not form.is_valid():
        context = _context(
            access, design, notice="The page sent no version; reload it."
        )
        return render_section(request, TEMPLATE, context, status=INVALID)
    if not kept.is_valid():
        context = _context(access, design, notice=STALE_NOTICE)
        return render_section(request, TEMPLATE, context, status=STALE)
    try:
        revision = key_proposal_adopt(
            project=access.project,
            version=form.cleaned_data["version"],
            number=number,
            author=request.user,
            keep=kept.cleaned_data["keep"],
            digest=request.POST.get("digest", ""),
        )
    except ProposalMissing as exc:
        raise Http404(str(exc)) from None
    except ProposalsExpired:
        # Proposed again by a worker: the page shows them when they are
        # made, and the user adopts again.
        keep = kept.cleaned_data["keep"]
        version = form.cleaned_data["version"]
        state = key_proposal_request(project=access.project, version=version, keep=keep)
        context = _state_context(
            access, design, state, version, kept, keep, notice=EXPIRED_NOTICE
        )
        return render_section(request, TEMPLATE, context)
    except (StaleVersionError, ProposalChanged):
        context = _context(access, design, notice=STALE_NOTICE)
        return render_section(request, TEMPLATE, context, status=STALE)
    except ProposalRefused as exc:
        context = _context(access, design, notice=str(exc))
        return render_section(request, TEMPLATE, context, status=INVALID)
    messages.success(
        request, f"Adopted proposal {number} as revision {revision.number}."
    )
    return redirect("editor-entities", project_id=project_id)
