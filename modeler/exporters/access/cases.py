"""What the generated tests check, the same for the Python tests and the
TypeScript ones (each language only writes its own test code around it):
the slice of sample data they load, and per pattern its case or the note
saying why it has none. A read pattern's case is the parameters the
simulator drew and the items its own check expects (as the read returns
them: projected); a write pattern's is `write_cases`."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from modeler.design import model as d
from modeler.engine.types import to_json_wire
from modeler.exporters.access.patterns import Argument
from modeler.exporters.access.write_cases import (
    WRITES,
    NoWriteTest,
    json_item,
    write_case,
)
from modeler.sampledata import Dataset, generate
from modeler.simulation import Simulation
from modeler.simulation.expectations import expected_items
from modeler.simulation.requests import RequestError, create_table_request

# Items of sample data the tests load: enough for every read pattern to
# find its items, small enough to read and to load in a second.
SAMPLE_ITEMS = 300
READS = ("GetItem", "Query", "Scan")


class PatternFunction(Protocol):
    """A pattern's generated function, in either language."""

    pattern: d.AccessPattern
    function: str
    text: str  # empty when the module gives the pattern no function
    arguments: list[Argument]


F = TypeVar("F", bound=PatternFunction)


@dataclass(frozen=True)
class Cases(Generic[F]):
    data: dict[str, Any]  # the table, its items, each tested pattern's case
    tested: tuple[F, ...]  # the functions with a case, in the module's order
    notes: tuple[str, ...]  # the patterns without a test, and why

    @property
    def writes(self) -> bool:
        """Whether a write pattern is tested (its helpers are needed)."""
        return any(c.pattern.operation in WRITES for c in self.tested)

    def tests(
        self,
        read: Callable[[F, d.Expectation], str],
        write: Callable[[F, Mapping[str, Any]], str],
    ) -> list[str]:
        """Each tested pattern's test, in a language's code: a read's made
        from what it expects, a write's from its case."""
        made = []
        for code in self.tested:
            expects = code.pattern.expects
            if code.pattern.operation in WRITES or expects is None:
                made.append(write(code, self.data["patterns"][code.function]))
            else:
                made.append(read(code, expects))
        return made


def sample_slice(design: d.Design) -> Simulation:
    """The simulation of the first SAMPLE_ITEMS sample items, and of the
    first item of each entity a pattern reads that they lack: the items come
    a family after another, so the slice can end before an entity's first
    (a many-to-many design's courses after its students and enrolments)."""
    dataset = generate(design)
    items, entities = dataset.items[:SAMPLE_ITEMS], dataset.entities[:SAMPLE_ITEMS]
    read = {e for p in design.access_patterns for e in _read_entities(p)}
    first: dict[str, int] = {}
    for position, entity in enumerate(dataset.entities):
        first.setdefault(entity, position)
    for entity in sorted(read - set(entities)):
        if entity in first:
            items.append(dataset.items[first[entity]])
            entities.append(entity)
    return Simulation(design, dataset=Dataset(items, entities))


def _read_entities(pattern: d.AccessPattern) -> tuple[str, ...]:
    """The entities whose items the pattern reads: those it returns, and
    those a write checks, updates or deletes."""
    returned = pattern.expects.entities if pattern.expects else ()
    return (*returned, *(a.entity for a in pattern.actions if a.operation != "Put"))


def pattern_cases(
    design: d.Design,
    functions: Sequence[F],
    maker: Callable[[str], str],
) -> Cases[F]:
    """The cases of the patterns whose `functions` the module gives;
    `maker(entity)` names the module's maker of an entity object (a write
    case calls the function with such objects). Raises SampleDataError when
    the design cannot make its items."""
    simulation = sample_slice(design)
    cases: dict[str, Any] = {}
    notes: list[str] = []
    tested: list[F] = []
    for code in functions:
        pattern = code.pattern
        if not code.text:
            continue
        if pattern.operation in WRITES:
            try:
                case = write_case(design, simulation, pattern, code.arguments, maker)
            except (NoWriteTest, RequestError) as exc:
                notes.append(f"{pattern.name}: no test ({exc}).")
                continue
        elif pattern.operation not in READS:
            notes.append(f"{pattern.name}: {pattern.operation} is not tested here.")
            continue
        elif pattern.expects is None:
            notes.append(f"{pattern.name}: no expected items to test against.")
            continue
        else:
            run = simulation.run(pattern)
            if run.error or any(a.name not in run.parameters for a in code.arguments):
                notes.append(
                    f"{pattern.name}: no test (the simulator could not run it: "
                    f"{run.error or 'a parameter has no value'})."
                )
                continue
            case = _read_case(design, simulation, code, pattern.expects, run.parameters)
        cases[code.function] = case
        tested.append(code)
    data = {
        "table": create_table_request(design),
        "items": [json_item(item) for item in simulation.items],
        "patterns": cases,
    }
    return Cases(data, tuple(tested), tuple(notes))


def _read_case(
    design: d.Design,
    simulation: Simulation,
    code: PatternFunction,
    expects: d.Expectation,
    parameters: Mapping[str, Any],
) -> dict[str, Any]:
    pattern = code.pattern
    positions = expected_items(
        expects, parameters, simulation.items, simulation.entities
    )
    index = (
        None if pattern.index == d.TABLE_INDEX else design.table.index(pattern.index)
    )
    return {
        "arguments": {
            a.identifier: to_json_wire(parameters[a.name]) for a in code.arguments
        },
        "expected": [
            json_item(_projected(design, pattern, index, simulation.items[i]))
            for i in positions
        ],
    }


def _projected(
    design: d.Design,
    pattern: d.AccessPattern,
    index: d.Index | None,
    item: Mapping[str, Any],
) -> Mapping[str, Any]:
    """The item as the pattern's read returns it: what `index` projects (the
    table's when None: everything), of that what the pattern asks for."""
    if index is not None and index.projection.type != "ALL":
        kept = {a.name for a in design.table.key_attributes + index.key_attributes}
        if index.projection.type == "INCLUDE":
            kept.update(index.projection.attributes)
        item = {k: v for k, v in item.items() if k in kept}
    if pattern.projection:
        item = {k: v for k, v in item.items() if k in pattern.projection}
    return item
