"""The one place where stored revisions become a `Design` and a `Design`
becomes a revision.

A revision holds the whole design as a document (`modeler.history.codec`)
and its own items in an `ItemSet` shared by the revisions that did not change
them. Revisions never change, so a decoded design is kept in memory by
revision id and a page reads its project's design without a query for it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser

from modeler import models as m
from modeler.design import model as d
from modeler.history import codec

# Decoded designs by revision id. A design is a few kilobytes (and its own
# items at most OWN_ITEMS_MAX), so this many is a few megabytes a process.
_DECODED_MAX = 256
_decoded: OrderedDict[int, d.Design] = OrderedDict()
_decoded_lock = threading.Lock()


def project_design_queryset() -> Any:
    """Projects ready for `design_from_project`: the design itself is read
    from memory, or with one or two queries on first use."""
    return m.Project.objects.all()


def design_from_project(project: m.Project) -> d.Design:
    """The project's current design."""
    if project.head_id is None:
        raise m.Revision.DoesNotExist(f"project {project.pk} has no revision")
    return design_from_revision_id(project.head_id)


def design_from_revision_id(revision_id: int) -> d.Design:
    with _decoded_lock:
        design = _decoded.get(revision_id)
        if design is not None:
            _decoded.move_to_end(revision_id)
            return design
    return design_from_revision(m.Revision.objects.get(pk=revision_id))


def design_from_revision(revision: m.Revision) -> d.Design:
    with _decoded_lock:
        design = _decoded.get(revision.pk)
    if design is None:
        design = codec.decode(revision.document)
        if revision.items_id is not None:
            items = m.ItemSet.objects.values_list("items", flat=True).get(
                pk=revision.items_id
            )
            design = dataclasses.replace(
                design,
                sample_data=dataclasses.replace(
                    design.sample_data, items=d.freeze(items)
                ),
            )
        _remember(revision.pk, design)
    return design


def forget_decoded() -> None:
    """Empty the memory of decoded designs. Revision ids are never reused in
    a database (SQLite's AUTOINCREMENT, PostgreSQL's sequences); a test that
    empties the database and starts ids again calls this."""
    with _decoded_lock:
        _decoded.clear()


def _remember(revision_id: int, design: d.Design) -> None:
    with _decoded_lock:
        _decoded[revision_id] = design
        _decoded.move_to_end(revision_id)
        while len(_decoded) > _DECODED_MAX:
            _decoded.popitem(last=False)


@dataclass
class RevisionRecord:
    """A revision ready to be written: prepared before the project's row is
    locked, so that the lock is held only for the writes."""

    design: d.Design  # its elements identified
    summary: str
    changed: list[str] = field(default_factory=list)
    previous: m.Revision | None = None
    previous_design: d.Design | None = None
    document: dict[str, Any] = field(init=False)
    items: list[Any] | None = field(init=False)
    digest: str = field(init=False)

    def __post_init__(self) -> None:
        design = self.design
        self.document = codec.encode(
            dataclasses.replace(
                design, sample_data=dataclasses.replace(design.sample_data, items=())
            )
        )
        items = design.sample_data.items
        kept = (
            self.previous_design is not None
            and items == self.previous_design.sample_data.items
        )
        if kept or not items:
            self.items, self.digest = None, ""
        else:
            self.items = d.thaw(items)
            self.digest = hashlib.sha256(
                json.dumps(self.items, sort_keys=True, separators=(",", ":")).encode()
            ).hexdigest()


def revision_write(
    *,
    project: m.Project,
    record: RevisionRecord,
    number: int,
    author: AbstractBaseUser | None,
    kind: str,
    reverts: m.Revision | None = None,
) -> m.Revision:
    """Store the record as revision `number` and make it the project's
    current one. The caller holds the project's version."""
    if record.items is not None:
        item_set, _ = m.ItemSet.objects.get_or_create(
            project=project,
            digest=record.digest,
            defaults={"items": record.items, "count": len(record.items)},
        )
        item_set_id: int | None = item_set.pk
    elif record.design.sample_data.items and record.previous is not None:
        item_set_id = record.previous.items_id
    else:
        item_set_id = None
    design = record.design
    revision = m.Revision.objects.create(
        project=project,
        number=number,
        document=record.document,
        items_id=item_set_id,
        author=author if author is not None and author.is_authenticated else None,
        kind=kind,
        summary=record.summary[:500],
        changed=record.changed,
        reverts=reverts,
    )
    project.head = revision
    project.version = number
    project.name = design.name
    project.description = design.description
    project.table_name = design.table.name
    project.save(
        update_fields=[
            "head",
            "version",
            "name",
            "description",
            "table_name",
            "updated",
        ]
    )
    # The design is not remembered as the caller made it: this process
    # reads it back from the database as every other one does, so all of
    # them share one design, hence one digest (the job worker refuses a
    # simulation asked for under a digest it does not read). The caller's
    # copy differed from the stored one when PostgreSQL's jsonb reordered
    # an object's keys, as it still does in revisions stored before 0015.
    return revision
