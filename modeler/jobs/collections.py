"""Item collections for the views, drawn by a worker (`modeler.jobs.loaded`):
a page of the Item collections section, or the partitions a collections
diagram draws. Editing a pattern, its traffic or a description keeps every
answer: they are kept by the design's data."""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from modeler import design as d
from modeler.diagrams.collections import (
    CollectionPage,
    Collections,
    PartitionView,
    collections_for,
)
from modeler.jobs.loaded import TableAnswer, table_answer, table_answer_make, table_key
from modeler.jobs.tasks import draw_collections
from modeler.models import Project


@dataclass(frozen=True)
class CollectionsQuestion:
    """What a view asks of the item collections of one index: a page of
    `per_page` items (`page` from 1), or, when `page` is 0, the first
    `max_partitions` partitions with `max_items` items each, for a
    diagram."""

    index: str
    entity: str = ""
    contains: str = ""
    page: int = 0
    per_page: int = 50
    keys: tuple[str, ...] = ()
    max_partitions: int = 10
    max_items: int = 20

    def answer(
        self, collections: Collections
    ) -> CollectionPage | tuple[list[PartitionView], int]:
        if self.page:
            return collections.page(
                index=self.index,
                entity=self.entity,
                contains=self.contains,
                page=self.page,
                per_page=self.per_page,
            )
        return collections.partitions(
            index=self.index,
            entity=self.entity,
            contains=self.contains,
            keys=self.keys,
            max_partitions=self.max_partitions,
            max_items=self.max_items,
        )

    def as_json(self) -> dict[str, Any]:
        """The question as a task's argument (JSON)."""
        return dataclasses.asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CollectionsQuestion:
        return cls(**{**data, "keys": tuple(data.get("keys", ()))})

    def key(self, design: d.Design) -> str:
        asked = hashlib.sha256(repr(self).encode()).hexdigest()[:32]
        return table_key("collections", design, asked)


def collections_answer(
    *,
    project: Project,
    design: d.Design,
    question: CollectionsQuestion,
    user: AbstractBaseUser | AnonymousUser | None = None,
) -> TableAnswer:
    """The answer to `question` about the project's current design (a
    CollectionPage, or a diagram's partitions and how many more matched):
    from the cache, or asked of a worker."""
    return table_answer(
        project=project,
        design=design,
        user=user,
        key=question.key(design),
        ask=lambda: draw_collections.enqueue(
            project.pk, project.version, question.as_json()
        ),
    )


def collections_draw(*, project_id: int, version: int, question: dict) -> None:
    """The worker's part: the answer for revision `version`, in the cache."""
    asked = CollectionsQuestion.from_json(question)
    table_answer_make(
        project_id=project_id,
        version=version,
        key_of=asked.key,
        make=lambda design, simulation: asked.answer(collections_for(simulation)),
    )
