"""A small HCL writer whose output is what `terraform fmt` makes of it:
two-space indents, the `=` of consecutive one-line arguments aligned, one
blank line between top-level blocks, and strings escaped so that user text
can never become an interpolation or break out of its quotes."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from modeler.exporters.literals import hcl_string

_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


@dataclass(frozen=True)
class Raw:
    """An expression written as it is: `var.table_name`, `true`, `70`."""

    text: str


def string(value: str) -> str:
    """A quoted HCL string whose value is `value`, interpolations included
    as plain text (see `hcl_string`)."""
    return hcl_string(value)


def expression(value: object) -> str:
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(expression(v) for v in value) + "]"
    raise TypeError(f"no HCL form for {value!r}")


def object_key(key: str) -> str:
    return key if _IDENTIFIER.match(key) else string(key)


# What a block holds besides nested blocks, told apart by the first member:
# a blank line, a one-line argument, a multi-line object.
_Blank = tuple[Literal["blank"]]
_Argument = tuple[Literal["attr"], str, object]
_Object = tuple[Literal["map"], str, list[tuple[str, object]]]


@dataclass
class Block:
    type: str
    labels: tuple[str, ...] = ()
    body: list[Block | _Blank | _Argument | _Object] = field(default_factory=list)

    def set(self, name: str, value: object) -> Block:
        self.body.append(("attr", name, value))
        return self

    def map(self, name: str, entries: list[tuple[str, object]]) -> Block:
        self.body.append(("map", name, entries))
        return self

    def blank(self) -> Block:
        if self.body and self.body[-1] != ("blank",):
            self.body.append(("blank",))
        return self

    def block(self, type_: str, *labels: str) -> Block:
        child = Block(type_, labels)
        self.body.append(child)
        return child


def _aligned(lines: list[tuple[str, str]], indent: str) -> list[str]:
    width = max(len(key) for key, _ in lines)
    return [f"{indent}{key.ljust(width)} = {value}" for key, value in lines]


def render_block(block: Block, depth: int = 0) -> list[str]:
    indent = "  " * depth
    head = " ".join([block.type, *(string(label) for label in block.labels)])
    out = [f"{indent}{head} {{"]
    inner = "  " * (depth + 1)
    group: list[tuple[str, str]] = []

    def flush() -> None:
        if group:
            out.extend(_aligned(group, inner))
            group.clear()

    previous: object = None
    for entry in block.body:
        if isinstance(entry, Block):
            flush()
            # terraform fmt keeps a nested block apart from the arguments.
            if previous is not None and previous != ("blank",):
                out.append("")
            out.extend(render_block(entry, depth + 1))
        elif entry[0] == "blank":
            flush()
            out.append("")
        elif entry[0] == "attr":
            if isinstance(previous, Block):
                out.append("")
            group.append((entry[1], expression(entry[2])))
        else:  # a multi-line object
            flush()
            if isinstance(previous, Block):
                out.append("")
            _, name, entries = entry
            out.append(f"{inner}{name} = {{")
            if entries:
                out.extend(
                    _aligned(
                        [(object_key(k), expression(v)) for k, v in entries],
                        inner + "  ",
                    )
                )
            out.append(f"{inner}}}")
        previous = entry
    flush()
    # A blank line never ends a block.
    while out and out[-1] == "":
        out.pop()
    out.append(f"{indent}}}")
    return out


def render(blocks: list[Block], header: str = "") -> str:
    parts = ["\n".join(render_block(b)) for b in blocks]
    text = "\n\n".join(parts) + "\n"
    return header + text if header else text
