"""What the checks find in a design: one type for the design check, the
design file's reader, the importers, the review and the key solver.

A finding names the rule that found it by a stable `code`, as Django's
system checks name theirs (`auth.E003`): a few words in kebab case
(`key-too-long`, `gsi-consistent-read`). A rule keeps its code whatever its
message says, so a tool, a test or a comment on a finding can hold on to
it; the design check and the review share the codes of the rules both
apply, which is how `check_design` prints such a finding once.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType


class Severity(StrEnum):
    """How bad a finding is, worst first. An error stops a design from being
    deployed (or a file from being read); a warning is likely a mistake;
    advice is worth a look. A severity reads and compares as its word."""

    ERROR = "error"
    WARNING = "warning"
    ADVICE = "advice"

    @property
    def rank(self) -> int:
        """0 for the worst; findings sort by it."""
        return list(Severity).index(self)

    @property
    def heading(self) -> str:
        """`Errors`, `Warnings`, `Advice`: a heading over findings of it."""
        return self.counted(2).split(" ", 1)[1].capitalize()

    def counted(self, count: int) -> str:
        """`1 error`, `2 warnings`, `3 advice`."""
        return f"{count} {self}{'s' * (count != 1 and self is not Severity.ADVICE)}"


# The parts of a design a finding can be shown beside.
LOCATION_KINDS = ("table", "index", "entity", "attribute", "pattern")
CODE = re.compile(r"\A[a-z0-9]+(-[a-z0-9]+)*\Z")
_CODES_SEEN: set[str] = set()
_NO_FIGURES: Mapping[str, float] = MappingProxyType({})


@dataclass(frozen=True)
class Location:
    """Where a finding is. `path` is in the design file's terms
    (`entities.Order.keys.GSI1SK`, `table.indexes[0]`, `access_patterns[3]`);
    `line` is the line of the file the design was read from, when known.
    A finding shown beside a part of the design also names it: `kind`
    (table, index, entity, attribute, pattern), `name` (`Order`,
    `Order.tags`, `GSI1`, a pattern's name) and `position` (an index's or a
    pattern's place in its list, for links)."""

    path: str
    kind: str = ""
    name: str = ""
    position: int | None = None
    line: int | None = None

    def __post_init__(self) -> None:
        if self.kind and self.kind not in LOCATION_KINDS:
            raise ValueError(f"unknown location kind {self.kind!r}")

    def __str__(self) -> str:
        return f"{self.kind} {self.name}" if self.kind else self.path


@dataclass(frozen=True)
class Finding:
    """A problem with a design. `message` says what is wrong (the review's
    is a title); when the check knows more, `why`, `evidence` and `fix`
    explain it. The design check's messages are one sentence that says what
    was expected and, for templates, the column (1-based) where it went
    wrong."""

    code: str
    severity: Severity
    location: Location
    message: str
    fix: str = ""
    why: str = ""
    evidence: tuple[str, ...] = ()
    # The numbers behind the evidence, by name, for tests and tools.
    figures: Mapping[str, float] = field(default_factory=lambda: _NO_FIGURES)

    def __post_init__(self) -> None:
        # A check can make thousands of findings (every pair of entities
        # whose keys collide): each code is matched once.
        if self.code not in _CODES_SEEN:
            if not CODE.match(self.code):
                raise ValueError(f"malformed finding code {self.code!r}")
            _CODES_SEEN.add(self.code)
        if type(self.severity) is not Severity:
            # Given as its word, the severity is kept as the enum (ValueError
            # for an unknown one).
            object.__setattr__(self, "severity", Severity(self.severity))

    @property
    def path(self) -> str:
        return self.location.path

    @property
    def line(self) -> int | None:
        return self.location.line

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def at_line(self, line: int | None) -> Finding:
        """The finding located in the file its design was read from."""
        return replace(self, location=replace(self.location, line=line))

    def __str__(self) -> str:
        """The finding on one line, after its line in the file if known."""
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.severity}: {self.path}: {self.text()}"

    def text(self) -> str:
        """The message, then the why, evidence and fix when there are any."""
        evidence = "; ".join(self.evidence)
        return (
            self.message
            + (f": {self.why}" if self.why else "")
            + (f" Evidence: {evidence}." if evidence else "")
            + (f" Fix: {self.fix}" if self.fix else "")
        )


def finding(
    code: str,
    severity: Severity | str,
    message: str,
    where: Location | str,
    *,
    why: str = "",
    evidence: Iterable[str] = (),
    fix: str = "",
    figures: Mapping[str, float] | None = None,
    line: int | None = None,
) -> Finding:
    """A finding of the rule `code` at `where` (a Location, or a path in the
    design file's terms)."""
    location = where if isinstance(where, Location) else Location(where, line=line)
    return Finding(
        code,
        severity,  # type: ignore[arg-type]  # made the enum by the Finding
        location,
        message,
        fix,
        why,
        tuple(evidence),
        MappingProxyType(dict(figures)) if figures else _NO_FIGURES,
    )


def error(code: str, path: str, message: str, *, line: int | None = None) -> Finding:
    return finding(code, Severity.ERROR, message, path, line=line)


def warning(code: str, path: str, message: str, *, line: int | None = None) -> Finding:
    return finding(code, Severity.WARNING, message, path, line=line)


def advice(code: str, path: str, message: str, *, line: int | None = None) -> Finding:
    return finding(code, Severity.ADVICE, message, path, line=line)


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.is_error for f in findings)


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Errors first, then warnings, then advice; the order found within."""
    return sorted(findings, key=lambda f: f.severity.rank)


def findings_by_severity(findings: Iterable[Finding]) -> dict[Severity, list[Finding]]:
    grouped: dict[Severity, list[Finding]] = {s: [] for s in Severity}
    for item in findings:
        grouped[item.severity].append(item)
    return grouped


def findings_by_location(
    findings: Iterable[Finding],
) -> dict[tuple[str, str], list[Finding]]:
    """Findings keyed by (kind, name) of what they concern, so a page about
    an entity, an index or a pattern can show the findings next to it: an
    attribute's findings are under ("attribute", "Order.tags") and also under
    its entity ("entity", "Order")."""
    grouped: dict[tuple[str, str], list[Finding]] = {}
    for item in sort_findings(findings):
        location = item.location
        grouped.setdefault((location.kind, location.name), []).append(item)
        if location.kind == "attribute":
            entity = location.name.split(".", 1)[0]
            grouped.setdefault(("entity", entity), []).append(item)
    return grouped
