"""YAML text checked before it is built (no aliases, no deep nesting), its
errors as one line, and each path's line in the document.
"""

from __future__ import annotations

import yaml

from modeler.designfile.fields import MAX_DEPTH

# libyaml's loader when PyYAML has it (four to six times quicker on a large
# design); the safe loader either way.
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_OPENING = (yaml.MappingStartEvent, yaml.SequenceStartEvent)


_CLOSING = (yaml.MappingEndEvent, yaml.SequenceEndEvent)


class YamlStructureError(ValueError):
    """A YAML text refused before it is built: an alias or too deep."""


def check_yaml_structure(source: str, *, what: str = "a design file") -> None:
    """Refuse aliases (a design never needs them, and they make 'billion
    laughs' documents possible) and nesting past MAX_DEPTH, from the parser's
    flat stream of events, before a composer recurses into the document.
    Raises yaml.MarkedYAMLError for an alias, YamlStructureError for depth."""
    depth = 0
    for event in yaml.parse(source, Loader=SAFE_LOADER):
        if isinstance(event, yaml.AliasEvent):
            raise yaml.MarkedYAMLError(
                None,
                None,
                f"aliases (*name) are not allowed in {what}",
                event.start_mark,
            )
        if isinstance(event, _OPENING):
            depth += 1
            if depth > MAX_DEPTH + 1:
                raise YamlStructureError(
                    f"the document is nested more than {MAX_DEPTH} levels deep"
                )
        elif isinstance(event, _CLOSING):
            depth -= 1


def yaml_error_message(exc: yaml.YAMLError) -> str:
    """PyYAML's error as one line with its line and column."""
    if isinstance(exc, yaml.MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        return f"not valid YAML at {where}: {exc.problem or exc.context}"
    return f"not valid YAML: {exc}"


def index_lines(node: yaml.Node) -> tuple[dict[str, int], list[tuple[str, int]]]:
    """Map each path of the document to its 1-based line, and find keys that
    appear twice in one mapping (YAML would silently keep the last)."""
    lines: dict[str, int] = {}
    duplicates: list[tuple[str, int]] = []

    def walk(n: yaml.Node, path: str, depth: int) -> None:
        if depth > MAX_DEPTH:
            raise YamlStructureError(
                f"the document is nested more than {MAX_DEPTH} levels deep"
            )
        lines.setdefault(path, n.start_mark.line + 1)
        if isinstance(n, yaml.MappingNode):
            seen: set[str] = set()
            for key_node, value_node in n.value:
                key = str(key_node.value)
                child = join_path(path, key)
                if key in seen:
                    duplicates.append((child, key_node.start_mark.line + 1))
                seen.add(key)
                lines[child] = key_node.start_mark.line + 1
                walk(value_node, child, depth + 1)
        elif isinstance(n, yaml.SequenceNode):
            for i, item in enumerate(n.value):
                walk(item, f"{path}[{i}]", depth + 1)

    walk(node, "", 0)
    return lines, duplicates


def join_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key
