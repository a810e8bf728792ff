"""Problems found in a design: what is wrong, where, and how bad."""

from __future__ import annotations

from dataclasses import dataclass

SEVERITIES = ("error", "warning", "advice")


@dataclass(frozen=True)
class Problem:
    """`path` locates the problem in the design file's terms, such as
    `entities.Order.keys.GSI1SK`; the message says what was expected and,
    for templates, the column (1-based) where it went wrong."""

    severity: str
    path: str
    message: str
    line: int | None = None  # in the design file, when read from one

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line else ""
        return f"{where}{self.severity}: {self.path}: {self.message}"

    @property
    def is_error(self) -> bool:
        return self.severity == "error"


def has_errors(problems: list[Problem] | tuple[Problem, ...]) -> bool:
    return any(p.is_error for p in problems)
