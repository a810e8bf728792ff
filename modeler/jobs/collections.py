"""Item collections for the views, drawn by a worker (`modeler.jobs.loaded_tables`):
a page of the Item collections section, the partitions a collections
diagram draws, or that diagram as a PNG file (Graphviz takes seconds on
the largest). Editing a pattern, its traffic or a description keeps every
answer: they are kept by the design's data."""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django_tasks import task

from modeler import diagrams
from modeler.design import model as d
from modeler.diagrams.collections import (
    CollectionPage,
    Collections,
    PartitionView,
    collections_for,
)
from modeler.jobs.files import file_write
from modeler.jobs.loaded_tables import (
    Refused,
    TableAnswer,
    table_answer,
    table_answer_find,
    table_answer_kept,
    table_answer_make,
    table_file_answer,
    table_file_find,
    table_key,
)
from modeler.models import Project
from modeler.simulation import Simulation
from modeler.simulation.cache import data_digest


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
        # A diagram's title is the design's name, which its data does not
        # hold.
        drawn = repr((self, "" if self.page else design.name))
        asked = hashlib.sha256(drawn.encode()).hexdigest()[:32]
        return table_key("collections", design, asked)


@dataclass(frozen=True)
class DrawnPartitions:
    """A collections diagram as the worker drew it: its partitions, how
    many more matched, and the SVG (sanitised)."""

    partitions: tuple[PartitionView, ...]
    more: int
    svg: str


def collections_answer(
    *,
    project: Project,
    design: d.Design,
    question: CollectionsQuestion,
    user: AbstractBaseUser | AnonymousUser | None = None,
    number: int | None = None,
) -> TableAnswer:
    """The answer to `question` about the project's current design, or
    revision `number`'s (a CollectionPage, or a diagram's
    DrawnPartitions): from the cache, or asked of a worker (a POST: a GET
    finds it, `collections_find`)."""
    return table_answer(
        project=project,
        design=design,
        user=user,
        key=question.key(design),
        ask=lambda: draw_collections.enqueue(
            project.pk, number or project.version, question.as_json()
        ),
    )


def collections_find(
    *, project: Project, design: d.Design, question: CollectionsQuestion
) -> TableAnswer:
    """`collections_answer` of the project's current design as a page
    (a GET) finds it: nothing is asked; `to_start` when a POST has to."""
    return table_answer_find(project=project, design=design, key=question.key(design))


@task()
def draw_collections(project_id: int, version: int, question: dict) -> None:
    """The task of a page or diagram of a revision's item collections."""
    collections_draw(project_id=project_id, version=version, question=question)


def collections_kept(
    *, design: d.Design, question: CollectionsQuestion
) -> TableAnswer | None:
    """The answer to `question` if a worker made it; nothing is asked."""
    return table_answer_kept(question.key(design))


def collections_draw(*, project_id: int, version: int, question: dict) -> None:
    """The worker's part: the answer for revision `version`, in the cache."""
    asked = CollectionsQuestion.from_json(question)

    def make(
        design: d.Design, simulation: Simulation
    ) -> CollectionPage | DrawnPartitions:
        found = asked.answer(collections_for(simulation))
        if isinstance(found, CollectionPage):
            return found
        try:
            source = collections_source(design, asked, found)
            svg = diagrams.sanitise_svg(diagrams.render(source, "svg"))
        except diagrams.RenderError as exc:
            raise Refused(str(exc)) from None
        return DrawnPartitions(tuple(found[0]), found[1], svg)

    table_answer_make(
        project_id=project_id, version=version, key_of=asked.key, make=make
    )


def collections_source(
    design: d.Design,
    question: CollectionsQuestion,
    partitions: tuple[list[PartitionView], int],
) -> str:
    """The DOT of a diagram's partitions (and how many more matched).
    Raises RenderError when none matched."""
    views, more = partitions
    if not views:
        raise diagrams.RenderError(
            "No partition matches: change the filters to draw some."
        )
    # The question's index is one of the design's (the form's choices).
    info = next(i for i in diagrams.index_infos(design) if i.name == question.index)
    return diagrams.collections_dot(
        design_name=design.name, info=info, partitions=views, more_partitions=more
    )


def collections_png_answer(
    *,
    project: Project,
    design: d.Design,
    question: CollectionsQuestion,
    scale: int,
    user: AbstractBaseUser | AnonymousUser | None = None,
) -> TableAnswer:
    """The name of the PNG file of the diagram `question` asks for, `scale`
    times the size, of the project's current design; or what it waits for,
    or why there is none (a POST: a GET finds it, `collections_png_find`)."""
    return table_file_answer(
        project=project,
        design=design,
        user=user,
        key=_png_key(design, question, scale),
        ask=lambda: render_collections_png.enqueue(
            project.pk, project.version, question.as_json(), scale
        ),
    )


def collections_png_find(
    *, project: Project, design: d.Design, question: CollectionsQuestion, scale: int
) -> TableAnswer:
    """`collections_png_answer` as a download (a GET) finds it: nothing is
    asked; `to_start` when a POST has to."""
    return table_file_find(
        project=project, design=design, key=_png_key(design, question, scale)
    )


@task()
def render_collections_png(
    project_id: int, version: int, question: dict, scale: int
) -> None:
    """The task of a collections diagram as a PNG file."""
    collections_png_render(
        project_id=project_id, version=version, question=question, scale=scale
    )


def collections_png_render(
    *, project_id: int, version: int, question: dict, scale: int
) -> None:
    """The worker's part: the PNG file of revision `version`, its name kept."""
    asked = CollectionsQuestion.from_json(question)

    def make(design: d.Design, simulation: Simulation) -> str:
        try:
            source = collections_source(
                design, asked, asked.answer(collections_for(simulation))
            )
            png = diagrams.render(source, "png", scale=scale)
        except diagrams.RenderError as exc:
            raise Refused(str(exc)) from None
        return file_write(
            f"diagrams/{data_digest(design)}-{_png_drawn(design, asked, scale)}.png",
            lambda file: file.write(png),
        )

    table_answer_make(
        project_id=project_id,
        version=version,
        key_of=lambda design: _png_key(design, asked, scale),
        make=make,
    )


def _png_key(design: d.Design, question: CollectionsQuestion, scale: int) -> str:
    return table_key("collections-png", design, _png_drawn(design, question, scale))


def _png_drawn(design: d.Design, question: CollectionsQuestion, scale: int) -> str:
    """What a PNG draws of the design's data, as a digest: the question, the
    scale and the title (the design's name, which its data does not
    hold)."""
    drawn = repr((design.name, question, scale))
    return hashlib.sha256(drawn.encode()).hexdigest()[:32]
