"""What the editor shows live as the user types: an entity's keys rendered
from example values, and the exact request an access pattern sends.

Both reuse the domain code: example values come from the attributes' sample
generators (`modeler.sampledata`), keys are rendered by `modeler.keys`, and
requests are built by `modeler.simulation.requests`, the code the simulator
runs. Pure Python; nothing here imports Django.
"""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from modeler.design import model as d
from modeler.design.parameters import pattern_parameters
from modeler.engine.types import number, to_wire
from modeler.importers.budget import ImportLimitError, check_nesting, nesting_message
from modeler.infra.lru import Kept
from modeler.keys import (
    ConditionSyntaxError,
    MissingValueError,
    TemplateSyntaxError,
    key_values,
    parse_condition,
    parse_template,
)
from modeler.sampledata.generate import in_build_order
from modeler.sampledata.values import Compiler, Context, Populations, reads
from modeler.simulation.requests import (
    RequestError,
    cli_command,
    read_request,
    write_action_request,
)

EXAMPLE_SEED = 7
_FALLBACK = {"S": "example", "N": "42", "B": "ZXhhbXBsZQ==", "BOOL": "true"}


def _text(value: Any) -> str:
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list, set, frozenset)):
        return json.dumps(_jsonable(value), separators=(",", ":"), default=str)
    if value is None:
        return ""
    return str(value)


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, set, frozenset, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    return value


# Shared by the threads of a server process.
_examples: Kept[dict[str, str]] = Kept(256)


def example_values(design: d.Design, entity: d.Entity) -> dict[str, str]:
    """One example value per attribute, as text: drawn from its sample
    generator where it can draw alone, otherwise a plain value of its type
    (a generator that copies a parent's value has no parent here).

    Remembered by the entity and table they depend on: setting up Faker
    costs milliseconds per attribute, and every keystroke of the live
    preview asks again."""
    key = repr((entity, design.table, [e.name for e in design.entities]))
    cached = _examples.get(key)
    if cached is None:
        cached = _example_values(design, entity)
        _examples.put(key, cached)
    return dict(cached)


def _example_values(design: d.Design, entity: d.Entity) -> dict[str, str]:
    try:
        compiler = Compiler(design, entity, EXAMPLE_SEED, Populations())
    except Exception:  # a design mid-edit (a broken template)
        compiler = None
    context = Context()
    out: dict[str, str] = {}
    for attr in entity.attributes:
        try:
            if compiler is None:
                raise ValueError("no generators")
            value = compiler.attribute(attr)(random.Random(EXAMPLE_SEED), context)  # noqa: S311
        except Exception:  # any generator failure means "no example"
            value = None
        if value is None or isinstance(value, type(Ellipsis)):
            text = _FALLBACK.get(attr.type, "")
            if attr.type == "S":
                text = f"{attr.name}-1"
        else:
            text = _text(value)
            context.item[attr.name] = value
        out[attr.name] = text
    return out


def sample_values(
    design: d.Design, entity: d.Entity, attr: d.Attribute, count: int = 5
) -> list[str]:
    """`count` values of `attr` as its generator makes them for `entity`
    (the generator picker's preview). Raises ValueError with the reason when
    it cannot make them alone: a copy of a parent's value (ref, template)
    needs the parent's item."""
    others = tuple(a for a in entity.attributes if a.name != attr.name)
    entity = dataclasses.replace(entity, attributes=(*others, attr))
    try:
        compiler = Compiler(design, entity, EXAMPLE_SEED, Populations())
        make = compiler.attribute(attr)
    except Exception as exc:  # a design mid-edit
        raise ValueError(str(exc)) from None
    # The item's own values that the generator may read (a template's
    # placeholders, an expiry's time), each made as the item would make it.
    sources = []
    needed = _sources(entity, attr)
    for other in in_build_order(others):
        if other.name not in needed:
            continue
        try:
            sources.append((other.name, compiler.attribute(other)))
        except Exception:  # noqa: S112 - a sibling mid-edit: left out
            continue
    values = []
    for n in range(count):
        rng = random.Random(EXAMPLE_SEED + n)  # noqa: S311
        context = Context()
        for name, draw in sources:
            try:
                context.item[name] = draw(rng, context)
            except Exception:  # noqa: S112 - needs a parent: left out
                continue
        try:
            value = make(rng, context)
        except Exception as exc:  # the generator's own failure
            raise ValueError(
                str(exc)
                or f"{type(exc).__name__}: it needs the values of the item "
                "or its parent, which a preview does not have"
            ) from None
        values.append("(absent)" if value is None else _text(value))
    return values


def _sources(entity: d.Entity, attr: d.Attribute) -> set[str]:
    """The item's attributes `attr`'s generator reads, and those they read
    in turn: a template's placeholders, an expiry's time."""
    needed: set[str] = set()
    waiting = [attr]
    while waiting:
        for name in reads(waiting.pop().generator):
            other = entity.attribute(name)
            if other is not None and name not in needed:
                needed.add(name)
                waiting.append(other)
    return needed


def typed_example(text: str, type_name: str) -> Any:
    """An example typed by the user, as the attribute's type; raises
    ValueError with what was expected."""
    if type_name == "N":
        try:
            return number(text)
        except Exception:  # the engine's own ValidationException
            raise ValueError(f"expected a number, found '{text}'") from None
    if type_name == "B":
        try:
            return base64.b64decode(text, validate=True)
        except ValueError:
            raise ValueError("expected base64 for a binary value") from None
    if type_name == "BOOL":
        if text.lower() not in ("true", "false"):
            raise ValueError("expected true or false")
        return text.lower() == "true"
    if type_name in ("L", "M", "SS", "NS", "BS"):
        try:
            value = json.loads(text)
            # DynamoDB nests 32 levels; deeper text is refused before
            # anything that recurses reads it.
            check_nesting(value, what="the value")
        except json.JSONDecodeError:
            raise ValueError("expected JSON") from None
        except (RecursionError, ImportLimitError):
            raise ValueError(nesting_message("the value")) from None
        return value
    return text


@dataclass(frozen=True)
class KeyPreview:
    attribute: str
    type: str
    template: str
    value: str = ""  # the rendered key, as text
    note: str = ""  # why there is no value: absent, condition false
    error: str = ""


@dataclass(frozen=True)
class EntityPreview:
    keys: tuple[KeyPreview, ...]
    example_errors: Mapping[str, str] = field(default_factory=dict)


def entity_preview(
    design: d.Design, entity: d.Entity, examples: Mapping[str, str]
) -> EntityPreview:
    """Every key attribute of the table and its indexes, rendered for an
    item of `entity` whose attributes have the `examples` values."""
    values: dict[str, Any] = {}
    example_errors = {}
    for attr in entity.attributes:
        text = examples.get(attr.name, "")
        if text == "":
            continue
        try:
            values[attr.name] = typed_example(text, attr.type)
        except (ValueError, ArithmeticError) as exc:
            example_errors[attr.name] = str(exc)
    keys = []
    for key_attr in design.table.all_key_attributes():
        key = entity.keys.get(key_attr.name)
        if key is None:
            keys.append(
                KeyPreview(key_attr.name, key_attr.type, "", note="not in this index")
            )
            continue
        keys.append(_render_key(key_attr, key, values))
    return EntityPreview(tuple(keys), example_errors)


def _render_key(
    key_attr: d.KeyAttribute, key: d.KeyTemplate, values: Mapping[str, Any]
) -> KeyPreview:
    base = KeyPreview(key_attr.name, key_attr.type, key.template)
    try:
        template = parse_template(key.template)
    except TemplateSyntaxError as exc:
        return _with(base, error=str(exc))
    if key.when:
        try:
            condition = parse_condition(key.when)
        except ConditionSyntaxError as exc:
            return _with(base, error=f"condition: {exc}")
        if not condition.holds(values):
            return _with(base, note=f"absent: the condition {key.when} does not hold")
    try:
        rendered = template.render(values, key_attr.type)
    except MissingValueError as exc:
        return _with(base, error=f"no example value for '{exc.attribute}'")
    except (ValueError, ArithmeticError, KeyError) as exc:
        return _with(base, error=str(exc))
    return _with(base, value=_text(rendered))


def _with(preview: KeyPreview, **changes: str) -> KeyPreview:
    return KeyPreview(**{**preview.__dict__, **changes})


# --- Access pattern requests ----------------------------------------------------


@dataclass(frozen=True)
class RequestPreview:
    operation: str
    request: str  # boto3 client parameters, as JSON
    cli: str


@dataclass(frozen=True)
class PatternPreview:
    requests: tuple[RequestPreview, ...] = ()
    parameters: Mapping[str, str] = field(default_factory=dict)
    problem: str = ""


def _parameter_values(
    design: d.Design, pattern: d.AccessPattern
) -> tuple[dict[str, Any], dict[str, str]]:
    """Values for the pattern's parameters: the examples it gives, else an
    example value of the same-named attribute of an entity it concerns."""
    concerned = []
    if pattern.expects:
        concerned += list(pattern.expects.entities)
    concerned += [a.entity for a in pattern.actions]
    concerned += [e.name for e in design.entities]
    examples: dict[str, str] = {}
    types: dict[str, str] = {}
    for name in dict.fromkeys(concerned):
        entity = design.entity(name)
        if entity is None:
            continue
        for attr_name, text in example_values(design, entity).items():
            examples.setdefault(attr_name, text)
            attr = entity.attribute(attr_name)
            types.setdefault(attr_name, attr.type if attr else "S")
    values: dict[str, Any] = {}
    shown: dict[str, str] = {}
    for param in pattern_parameters(design, pattern):
        text = param.example or examples.get(param.name)
        if text is None:
            continue
        type_name = param.type if param.example else types.get(param.name, param.type)
        try:
            values[param.name] = typed_example(text, type_name)
        except (ValueError, ArithmeticError):
            values[param.name] = text
        shown[param.name] = text
    return values, shown


def pattern_preview(design: d.Design, pattern: d.AccessPattern) -> PatternPreview:
    """The requests the pattern sends, with its parameters' example values.
    A read is one GetItem, Query or Scan; a write (or a batch or transaction)
    is one request per action, for an example item of the action's entity."""
    if not pattern.keyed:
        return PatternPreview(
            problem="No request yet: the pattern is stated by what it needs; "
            "propose keys, or choose its operation and write its key."
        )
    try:
        params, shown = _parameter_values(design, pattern)
        if pattern.operation in ("GetItem", "Query", "Scan"):
            request = read_request(design, pattern, params)
            return PatternPreview((_shown(pattern.operation, request),), shown)
        requests = []
        for action in pattern.actions:
            entity = design.entity(action.entity)
            if entity is None:
                raise RequestError(f"unknown entity '{action.entity}'")
            item = _example_item(design, entity, params)
            operation, request = write_action_request(design, action, params, item)
            requests.append(_shown(operation, request))
        if not requests:
            return PatternPreview(
                problem=f"{pattern.operation} sends its actions: add one to see "
                "its request."
            )
        return PatternPreview(tuple(requests), shown)
    except RequestError as exc:
        return PatternPreview(problem=f"No request yet: {exc}.")
    except (ValueError, ArithmeticError, KeyError, TypeError) as exc:
        return PatternPreview(problem=f"No request yet: {exc}.")


# Previews by what they read: the design but its patterns (a pattern's
# request does not depend on the others), and the pattern. Saving one
# pattern makes the list show its new preview and reuse the others'.
_kept_previews: Kept[PatternPreview] = Kept(1024)


def pattern_previews(design: d.Design) -> tuple[PatternPreview, ...]:
    """`pattern_preview` of each of the design's patterns, in order."""
    around = dataclasses.replace(design, access_patterns=()).digest
    previews = []
    for pattern in design.access_patterns:
        key = (around, hashlib.sha256(repr(pattern).encode()).hexdigest())
        preview = _kept_previews.get(key)
        if preview is None:
            preview = pattern_preview(design, pattern)
            _kept_previews.put(key, preview)
        previews.append(preview)
    return tuple(previews)


def _example_item(
    design: d.Design, entity: d.Entity, params: Mapping[str, Any]
) -> dict[str, Any]:
    item: dict[str, Any] = {}
    examples = example_values(design, entity)
    for attr in entity.attributes:
        text = examples.get(attr.name, "")
        try:
            item[attr.name] = typed_example(text, attr.type)
        except (ValueError, ArithmeticError):
            continue
    for name, value in params.items():
        if entity.attribute(name) is not None:
            item[name] = value
    item.update(key_values(design, entity.name, item))
    return item


def _shown(operation: str, request: Mapping[str, Any]) -> RequestPreview:
    return RequestPreview(
        operation,
        json.dumps(_jsonable(dict(request)), indent=2, default=_default),
        cli_command(operation, request),
    )


def _default(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    return to_wire(value)


@dataclass(frozen=True)
class ParentRef:
    """A key attribute of a parent entity, offered to its children as an
    attribute of the same name whose sample values copy the parent's."""

    name: str
    type: str
    generator: str


def parent_key_refs(design: d.Design, entity_name: str) -> list[tuple[str, list]]:
    """For every entity the one called `entity_name` could be made per,
    the attributes of its table key templates as `{ref: Parent.attribute}`
    generators: a child copies them, one click each, instead of typing
    them on every attribute it shares with its parent."""
    offers = []
    for parent in design.entities:
        if parent.name == entity_name:
            continue
        names: dict[str, None] = {}
        for key in design.table.key_attributes:
            template = parent.keys.get(key.name)
            if template is None:
                continue
            try:
                names.update(
                    dict.fromkeys(parse_template(template.template).attributes)
                )
            except TemplateSyntaxError:
                continue  # the design check reports it beside the template
        refs = [
            ParentRef(a.name, a.type, f"{{ref: {parent.name}.{a.name}}}")
            for a in parent.attributes
            if a.name in names
        ]
        if refs:
            offers.append((parent.name, refs))
    return offers
