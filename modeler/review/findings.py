"""What a design review reports: findings with a severity, the part of the
design they concern, why it matters, the evidence and the fix."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

SEVERITIES = ("error", "warning", "advice")
LOCATION_KINDS = ("table", "index", "entity", "attribute", "pattern")


@dataclass(frozen=True)
class Location:
    """The part of the design a finding concerns.

    `name` is the part's name (`Order`, `Order.tags`, `GSI1`, a pattern's
    name); `path` locates it in the design file's terms, as problems do
    (`entities.Order.attributes.tags`, `table.indexes[0]`,
    `access_patterns[3]`); `position` is an index's or a pattern's place in
    its list, for links.
    """

    kind: str
    name: str
    path: str
    position: int | None = None

    def __str__(self) -> str:
        return f"{self.kind} {self.name}"


@dataclass(frozen=True)
class Finding:
    code: str
    severity: str
    title: str
    location: Location
    why: str
    evidence: tuple[str, ...]
    fix: str
    # The numbers behind the evidence, by name, for tests and tools.
    figures: Mapping[str, float] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        if self.severity not in SEVERITIES:
            raise ValueError(f"unknown severity {self.severity!r}")
        if self.location.kind not in LOCATION_KINDS:
            raise ValueError(f"unknown location kind {self.location.kind!r}")

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def line(self) -> str:
        """The finding on one line, as `check_design` prints it."""
        evidence = "; ".join(self.evidence)
        return (
            f"{self.severity}: {self.location.path}: {self.title}: {self.why}"
            + (f" Evidence: {evidence}." if evidence else "")
            + f" Fix: {self.fix}"
        )


def finding(
    code: str,
    severity: str,
    title: str,
    location: Location,
    *,
    why: str,
    evidence: Iterable[str] = (),
    fix: str,
    figures: Mapping[str, float] | None = None,
) -> Finding:
    return Finding(
        code,
        severity,
        title,
        location,
        why,
        tuple(evidence),
        fix,
        MappingProxyType(dict(figures or {})),
    )


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Errors first, then warnings, then advice; the design's order within."""
    return sorted(findings, key=lambda f: SEVERITIES.index(f.severity))


def findings_by_severity(findings: Iterable[Finding]) -> dict[str, list[Finding]]:
    grouped: dict[str, list[Finding]] = {s: [] for s in SEVERITIES}
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
