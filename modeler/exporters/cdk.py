"""The design's table as an AWS CDK v2 construct, in TypeScript and in Python:
a class taking a scope and an id, with props for what varies per
environment (a table name prefix, the removal policy, on-demand billing for
a provisioned design, the Environment tag, the auto scaling target), that
declares the table, its indexes, capacity, auto scaling, TTL, stream,
point-in-time recovery, encryption, table class, deletion protection and
tags; and, at the end of the same file, a minimal app that instantiates it
in a stack, so the file is both a module to import and an app to synthesise.

Both flavours are written from one description of the table (`_Spec`), so
they declare the same table; a test synthesises them and compares the
result with the CloudFormation export property by property.

User text (names, tags, key ARNs) goes through the literal functions of
`literals`, never spliced in as code. Pure Python; nothing here imports
Django."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from modeler.design import model as d
from modeler.exporters.literals import comment_text, python_string, typescript_string
from modeler.exporters.tabledef import (
    DEFAULT_TARGET_UTILISATION,
    ScalingTarget,
    logical_id,
    scaling_targets,
)

# Pinned in the header's install line; the test synthesises with these.
CDK_VERSION = "2.275.0"
CONSTRUCTS_VERSION = "10.8.1"

_ATTRIBUTE_TYPES = {"S": "STRING", "N": "NUMBER", "B": "BINARY"}
# The design's encryption that the L2 Table writes as CloudFormation does.
# AWS_OWNED is the Table's default when `encryption` is left out (its
# TableEncryption.DEFAULT would write SSEEnabled: false, which the export
# does not); KMS is set on the resource itself (see _WHY_KMS).
_ENCRYPTION = {"AWS_MANAGED": "AWS_MANAGED"}

WHY_CLASSIC_TABLE = (
    "The classic Table, not TableV2: TableV2 makes an AWS::DynamoDB::GlobalTable, "
    "another resource type than the workbench's CloudFormation and Terraform "
    "exports deploy, and CloudFormation cannot turn one into the other in place "
    "(the table would be replaced, or retained and imported by hand). The "
    "classic Table makes the same AWS::DynamoDB::Table as those exports."
)


@dataclass(frozen=True)
class _Spec:
    """What both flavours write, from the design."""

    class_name: str
    stack_name: str
    design: d.Design
    provisioned: bool
    targets: tuple[ScalingTarget, ...]

    @property
    def table(self) -> d.Table:
        return self.design.table

    @property
    def environment_tag(self) -> bool:
        """Whether the Environment tag comes from a prop (the design sets
        none), as the CloudFormation export's Environment parameter."""
        return "Environment" not in dict(self.table.tags)

    @property
    def overrides_encryption(self) -> bool:
        """Whether the L1 resource's encryption is set (see _WHY_KMS)."""
        return self.table.encryption.type == "KMS"

    @property
    def target_prop(self) -> bool:
        """Whether some target is left to the export's default utilisation."""
        return any(t.target is None for t in self.targets)


def _spec(design: d.Design) -> _Spec:
    stem = logical_id(design.table.name)
    if not stem[0].isalpha():
        stem = "T" + stem
    return _Spec(
        class_name=f"{stem}Table",
        stack_name=f"{stem}Stack",
        design=design,
        provisioned=design.table.billing_mode == "PROVISIONED",
        targets=tuple(scaling_targets(design.table)),
    )


def _header(spec: _Spec, prefix: str, install: str, run: str) -> list[str]:
    name = comment_text(spec.design.name)
    return [
        f"{prefix} The DynamoDB table of the design '{name}' as an AWS CDK v2 "
        "construct,",
        f"{prefix} exported by the single-table workbench. It makes the same table as",
        f"{prefix} the workbench's CloudFormation export.",
        f"{prefix}",
        f"{prefix} Install: {install}",
        f"{prefix} Deploy:  {run}",
        f"{prefix} Or import the class into your own app and give it props.",
    ]


def _comment_lines(prefix: str, text: str, indent: str, width: int = 88) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(indent) + len(prefix) + 1 + len(line) + 1 + len(word) > width:
            lines.append(f"{indent}{prefix} {line}")
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(f"{indent}{prefix} {line}")
    return lines


_WHY_KMS = (
    "The KMS key as the design names it (an ARN or an alias, or none for the "
    "AWS managed key): the L2 Table takes only a key object, whose ARN it "
    "would write instead, so the resource's encryption is set directly."
)


# The construct, described once: values, arguments and statements in
# Python's spelling (snake_case names, `self`), which each language's syntax
# below writes in its own way, so a setting is added in one place.


class _Expr:
    """A value in the construct's code."""


@dataclass(frozen=True)
class _Str(_Expr):
    text: str


@dataclass(frozen=True)
class _Num(_Expr):
    value: int


@dataclass(frozen=True)
class _Bool(_Expr):
    value: bool


@dataclass(frozen=True)
class _Name(_Expr):
    """A dotted name (`self.table.node.default_child`,
    `dynamodb.BillingMode.PROVISIONED`)."""

    dotted: str


@dataclass(frozen=True)
class _Prop(_Expr):
    """A prop of the construct (see _PROPS), with its default."""

    name: str


@dataclass(frozen=True)
class _Plus(_Expr):
    left: _Expr
    right: _Expr


@dataclass(frozen=True)
class _Not(_Expr):
    operand: _Expr


@dataclass(frozen=True)
class _Cast(_Expr):
    kind: str
    value: _Expr


@dataclass(frozen=True)
class _IfProvisioned(_Expr):
    """`then` while the table is provisioned (not made on-demand by the
    prop), else `otherwise` (None: left unset)."""

    then: _Expr
    otherwise: _Expr | None = None


@dataclass(frozen=True)
class _Arg:
    name: str
    value: _Expr


@dataclass(frozen=True)
class _ProvisionedArgs:
    """Arguments given only while the table is provisioned."""

    args: tuple[_Arg, ...]


@dataclass(frozen=True)
class _Struct(_Expr):
    """A struct of CDK (Python's class `kind`; an object literal in
    TypeScript)."""

    kind: str
    fields: tuple[_Arg, ...]
    one_line: bool = True


@dataclass(frozen=True)
class _List(_Expr):
    items: tuple[_Expr, ...]
    one_per_line: bool = False


@dataclass(frozen=True)
class _Call(_Expr):
    """A call of `function` (a method of `on` when given); `props` are
    keyword arguments in Python, the props object in TypeScript."""

    function: str
    args: tuple[_Expr, ...] = ()
    props: tuple[_Arg | _ProvisionedArgs, ...] = ()
    on: _Expr | None = None
    new: bool = False
    one_per_line: bool = False


@dataclass(frozen=True)
class _Assign:
    target: str
    value: _Expr


@dataclass(frozen=True)
class _Do:
    call: _Call


@dataclass(frozen=True)
class _WhileProvisioned:
    body: tuple[_Statement, ...]


@dataclass(frozen=True)
class _Comment:
    text: str


_Statement = _Assign | _Do | _WhileProvisioned | _Comment


@dataclass(frozen=True)
class _PropSpec:
    """A prop of the construct: what varies per environment."""

    name: str
    typescript_type: str
    python_type: str
    default: _Expr
    typescript_doc: tuple[str, ...]
    python_doc: tuple[str, ...]
    wanted: Callable[[_Spec], bool]


_PROPS = (
    _PropSpec(
        "table_name_prefix",
        "string",
        "str",
        _Str(""),
        ('Put before the table\'s name, e.g. "staging-".',),
        ('table_name_prefix goes before the table\'s name ("staging-")',),
        lambda spec: True,
    ),
    _PropSpec(
        "removal_policy",
        "cdk.RemovalPolicy",
        "cdk.RemovalPolicy",
        _Name("cdk.RemovalPolicy.RETAIN"),
        (
            "What becomes of the table when the stack no longer holds it: RETAIN",
            "by default, so the data outlives the stack.",
        ),
        (
            "removal_policy says what becomes of the table when the stack no longer",
            "holds it (RETAIN: the data outlives the stack)",
        ),
        lambda spec: True,
    ),
    _PropSpec(
        "on_demand",
        "boolean",
        "bool",
        _Bool(False),
        (
            "Bill per request rather than the design's provisioned capacity",
            "(a stack that takes little traffic): no capacity, no auto scaling.",
        ),
        (
            "on_demand bills per request rather than the design's provisioned",
            "capacity (no capacity, no auto scaling)",
        ),
        lambda spec: spec.provisioned,
    ),
    _PropSpec(
        "environment",
        "string",
        "str",
        _Str("dev"),
        ('The table\'s Environment tag; "dev" by default.',),
        ("environment is the table's Environment tag",),
        lambda spec: spec.environment_tag,
    ),
    _PropSpec(
        "auto_scaling_target_utilization",
        "number",
        "int",
        _Num(DEFAULT_TARGET_UTILISATION),
        (
            "The consumed/provisioned capacity percentage auto scaling keeps;",
            f"{DEFAULT_TARGET_UTILISATION} by default.",
        ),
        (
            "auto_scaling_target_utilization is the consumed/provisioned",
            "capacity percentage auto scaling keeps",
        ),
        lambda spec: spec.target_prop,
    ),
)
_PROP_DEFAULTS = {prop.name: prop.default for prop in _PROPS}
_TABLE = _Name("self.table")


def _attribute(attribute: d.KeyAttribute) -> _Struct:
    kind = _ATTRIBUTE_TYPES[attribute.type]
    return _Struct(
        "dynamodb.Attribute",
        (
            _Arg("name", _Str(attribute.name)),
            _Arg("type", _Name(f"dynamodb.AttributeType.{kind}")),
        ),
    )


def _keys(one: str, many: str, attributes: tuple[d.KeyAttribute, ...]) -> list[_Arg]:
    if not attributes:
        return []
    if len(attributes) == 1:
        return [_Arg(one, _attribute(attributes[0]))]
    # A multi-attribute key: its attributes in order.
    items = tuple(_attribute(a) for a in attributes)
    return [_Arg(many, _List(items, one_per_line=True))]


def _table_props(spec: _Spec) -> list[_Arg]:
    table = spec.table
    props = [
        _Arg("table_name", _Plus(_Prop("table_name_prefix"), _Str(table.name))),
        _Arg("partition_key", _attribute(table.partition_key)),
    ]
    if table.sort_key:
        props.append(_Arg("sort_key", _attribute(table.sort_key)))
    on_demand = _Name("dynamodb.BillingMode.PAY_PER_REQUEST")
    if spec.provisioned and table.capacity:
        provisioned = _Name("dynamodb.BillingMode.PROVISIONED")
        props += [
            _Arg("billing_mode", _IfProvisioned(provisioned, on_demand)),
            _Arg("read_capacity", _IfProvisioned(_Num(table.capacity.read))),
            _Arg("write_capacity", _IfProvisioned(_Num(table.capacity.write))),
        ]
    else:
        props.append(_Arg("billing_mode", on_demand))
    if table.ttl_attribute:
        props.append(_Arg("time_to_live_attribute", _Str(table.ttl_attribute)))
    if table.stream_view_type:
        view = _Name(f"dynamodb.StreamViewType.{table.stream_view_type}")
        props.append(_Arg("stream", view))
    recovery = _Arg(
        "point_in_time_recovery_enabled", _Bool(table.point_in_time_recovery)
    )
    props.append(
        _Arg(
            "point_in_time_recovery_specification",
            _Struct(
                "dynamodb.PointInTimeRecoverySpecification", (recovery,), one_line=False
            ),
        )
    )
    if table.encryption.type in _ENCRYPTION:
        kind = _ENCRYPTION[table.encryption.type]
        props.append(_Arg("encryption", _Name(f"dynamodb.TableEncryption.{kind}")))
    return [
        *props,
        _Arg("table_class", _Name(f"dynamodb.TableClass.{table.table_class}")),
        _Arg("deletion_protection", _Bool(table.deletion_protection)),
        _Arg("removal_policy", _Prop("removal_policy")),
    ]


def _index_call(spec: _Spec, index: d.Index) -> _Call:
    projection = index.projection
    props: list[_Arg | _ProvisionedArgs] = [_Arg("index_name", _Str(index.name))]
    if index.is_global:
        props += _keys("partition_key", "partition_keys", index.partition_key)
        props += _keys("sort_key", "sort_keys", index.sort_key)
    else:
        props += _keys("sort_key", "sort_keys", index.sort_key[:1])
    projection_type = _Name(f"dynamodb.ProjectionType.{projection.type}")
    props.append(_Arg("projection_type", projection_type))
    if projection.type == "INCLUDE":
        names = tuple(_Str(a) for a in projection.attributes)
        props.append(_Arg("non_key_attributes", _List(names)))
    if index.is_global and spec.provisioned and index.capacity:
        capacity = index.capacity
        props.append(
            _ProvisionedArgs(
                (
                    _Arg("read_capacity", _Num(capacity.read)),
                    _Arg("write_capacity", _Num(capacity.write)),
                )
            )
        )
    kind = "global" if index.is_global else "local"
    return _Call(
        f"add_{kind}_secondary_index", props=tuple(props), on=_TABLE, one_per_line=True
    )


def _seconds(seconds: int) -> _Call:
    return _Call("cdk.Duration.seconds", (_Num(seconds),))


def _scaling_call(target: ScalingTarget) -> _Call:
    limits = (
        _Arg("min_capacity", _Num(target.min_capacity)),
        _Arg("max_capacity", _Num(target.max_capacity)),
    )
    if target.index:
        scale = _Call(
            f"auto_scale_global_secondary_index_{target.dimension}_capacity",
            (_Str(target.index),),
            limits,
            on=_TABLE,
        )
    else:
        scale = _Call(
            f"auto_scale_{target.dimension}_capacity", props=limits, on=_TABLE
        )
    utilisation = (
        _Num(target.target)
        if target.target is not None
        else _Prop("auto_scaling_target_utilization")
    )
    options = [_Arg("target_utilization_percent", utilisation)]
    if target.scale_in_cooldown is not None:
        options.append(_Arg("scale_in_cooldown", _seconds(target.scale_in_cooldown)))
    if target.scale_out_cooldown is not None:
        options.append(_Arg("scale_out_cooldown", _seconds(target.scale_out_cooldown)))
    if target.disable_scale_in:
        options.append(_Arg("disable_scale_in", _Bool(True)))
    return _Call(
        "scale_on_utilization", props=tuple(options), on=scale, one_per_line=True
    )


def _tag(key: _Expr, value: _Expr) -> _Do:
    tags = _Call("cdk.Tags.of", (_TABLE,))
    return _Do(_Call("add", (key, value), on=tags))


def _body(spec: _Spec) -> list[_Statement]:
    """The constructor's statements after the call of the base class's."""
    table = spec.table
    out: list[_Statement] = []
    if spec.provisioned:
        out.append(_Assign("provisioned", _Not(_Prop("on_demand"))))
    out.append(
        _Assign(
            "self.table",
            _Call(
                "dynamodb.Table",
                (_Name("self"), _Str("Table")),
                tuple(_table_props(spec)),
                new=True,
                one_per_line=True,
            ),
        )
    )
    out += [_Do(_index_call(spec, index)) for index in table.indexes]
    if spec.overrides_encryption:
        sse = [_Arg("sse_enabled", _Bool(True)), _Arg("sse_type", _Str("KMS"))]
        if table.encryption.kms_key:
            sse.append(_Arg("kms_master_key_id", _Str(table.encryption.kms_key)))
        out += [
            _Comment(_WHY_KMS),
            _Assign(
                "resource",
                _Cast("dynamodb.CfnTable", _Name("self.table.node.default_child")),
            ),
            _Assign(
                "resource.sse_specification",
                _Struct(
                    "dynamodb.CfnTable.SSESpecificationProperty",
                    tuple(sse),
                    one_line=False,
                ),
            ),
        ]
    if spec.targets:
        scaling = tuple(_Do(_scaling_call(target)) for target in spec.targets)
        out.append(_WhileProvisioned(scaling))
    out += [_tag(_Str(key), _Str(value)) for key, value in table.tags]
    if spec.environment_tag:
        out.append(_tag(_Str("Environment"), _Prop("environment")))
    return out


def _app(spec: _Spec) -> list[_Statement]:
    """The app's statements, when the file is run rather than imported."""
    return [
        _Assign("app", _Call("cdk.App", new=True)),
        _Assign(
            "stack",
            _Call("cdk.Stack", (_Name("app"), _Str(spec.stack_name)), new=True),
        ),
        _Do(_Call(spec.class_name, (_Name("stack"), _Str("Table")), new=True)),
        _Do(_Call("synth", on=_Name("app"))),
    ]


# The languages' syntax


class _Syntax:
    """How a language writes the description: what differs is below each
    subclass; the layouts both share are here."""

    step: str  # one level of indentation
    width: int  # past which a choice is broken over lines
    comment: str
    end: str  # after a statement
    true: str
    false: str
    nothing: str

    def string(self, text: str) -> str:
        raise NotImplementedError

    def name(self, dotted: str) -> str:
        raise NotImplementedError

    def label(self, name: str) -> str:
        """What goes before an argument's value."""
        raise NotImplementedError

    def inline(self, value: _Expr) -> str:
        match value:
            case _Str(text):
                return self.string(text)
            case _Num(number):
                return str(number)
            case _Bool(flag):
                return self.true if flag else self.false
            case _Name(dotted):
                return self.name(dotted)
            case _List(items):
                return "[" + ", ".join(self.inline(item) for item in items) + "]"
        return self.inline_special(value)

    def inline_special(self, value: _Expr) -> str:
        raise NotImplementedError

    def lines(self, value: _Expr, indent: str) -> list[str]:
        """`value` from where it starts on a line at `indent`: its later
        lines whole."""
        if isinstance(value, _List) and value.one_per_line:
            inner = indent + self.step
            return [
                "[",
                *(f"{inner}{self.inline(item)}," for item in value.items),
                f"{indent}]",
            ]
        if isinstance(value, _Call) and value.one_per_line:
            return self.call_lines(value, indent)
        if isinstance(value, _Struct) and not value.one_line:
            return self.struct_lines(value, indent)
        return [self.inline(value)]

    def call_lines(self, call: _Call, indent: str) -> list[str]:
        raise NotImplementedError

    def struct_lines(self, struct: _Struct, indent: str) -> list[str]:
        raise NotImplementedError

    def choice(self, choice: _IfProvisioned, indent: str) -> list[str]:
        """A choice too long for one line."""
        raise NotImplementedError

    def arg_lines(self, arg: _Arg, indent: str) -> list[str]:
        """An argument with its comma."""
        label = self.label(arg.name)
        one_line = f"{indent}{label}{self.inline(arg.value)},"
        if isinstance(arg.value, _IfProvisioned) and len(one_line) > self.width:
            lines = self.choice(arg.value, indent)
        else:
            lines = self.lines(arg.value, indent)
        lines[0] = f"{indent}{label}{lines[0]}"
        lines[-1] += ","
        return lines

    def props_lines(
        self, props: tuple[_Arg | _ProvisionedArgs, ...], indent: str
    ) -> list[str]:
        raise NotImplementedError

    def callee(self, call: _Call) -> str:
        function = self.name(call.function)
        return function if call.on is None else f"{self.inline(call.on)}.{function}"

    def assign_head(self, target: str) -> str:
        raise NotImplementedError

    def assign_lines(self, value: _Expr, indent: str) -> list[str]:
        return self.lines(value, indent)

    def while_provisioned(self, body: list[str], indent: str) -> list[str]:
        raise NotImplementedError

    def statements(self, statements: list[_Statement], indent: str) -> list[str]:
        out: list[str] = []
        for statement in statements:
            match statement:
                case _Comment(text):
                    out += _comment_lines(self.comment, text, indent)
                    continue
                case _Assign(target, value):
                    lines = self.assign_lines(value, indent)
                    lines[0] = f"{indent}{self.assign_head(target)}{lines[0]}"
                case _Do(call):
                    lines = self.lines(call, indent)
                    lines[0] = indent + lines[0]
                case _WhileProvisioned(body):
                    inner = self.statements(list(body), indent + self.step)
                    out += self.while_provisioned(inner, indent)
                    continue
            lines[-1] += self.end
            out += lines
        return out


class _TypeScript(_Syntax):
    step = "  "
    width = 80
    comment = "//"
    end = ";"
    true = "true"
    false = "false"
    nothing = "undefined"

    def string(self, text: str) -> str:
        return typescript_string(text)

    def name(self, dotted: str) -> str:
        return ".".join(
            "this" if part == "self" else _camel_case(part)
            for part in dotted.split(".")
        )

    def label(self, name: str) -> str:
        return f"{self.name(name)}: "

    def object(self, fields: tuple[_Arg, ...]) -> str:
        inner = ", ".join(f"{self.label(f.name)}{self.inline(f.value)}" for f in fields)
        return f"{{ {inner} }}"

    def callee(self, call: _Call) -> str:
        return ("new " if call.new else "") + super().callee(call)

    def inline_special(self, value: _Expr) -> str:
        match value:
            case _Prop(name):
                prop = f"props.{self.name(name)}"
                default = _PROP_DEFAULTS[name]
                # A boolean prop left out is undefined, as false as its default.
                if default == _Bool(False):
                    return prop
                return f"{prop} ?? {self.inline(default)}"
            case _Plus(left, right):
                # `??` binds less tightly than `+`.
                text = self.inline(left)
                if isinstance(left, _Prop):
                    text = f"({text})"
                return f"{text} + {self.inline(right)}"
            case _Not(operand):
                return f"!{self.inline(operand)}"
            case _Cast(kind, operand):
                return f"{self.inline(operand)} as {self.name(kind)}"
            case _IfProvisioned(then, otherwise):
                rest = self.nothing if otherwise is None else self.inline(otherwise)
                return f"provisioned ? {self.inline(then)} : {rest}"
            case _Struct(fields=fields):
                return self.object(fields)
            case _Call(args=args, props=props):
                given = [self.inline(a) for a in args]
                if props:
                    given.append(self.object(_plain(props)))
                return f"{self.callee(value)}({', '.join(given)})"
        raise TypeError(value)

    def choice(self, choice: _IfProvisioned, indent: str) -> list[str]:
        rest = (
            self.nothing if choice.otherwise is None else self.inline(choice.otherwise)
        )
        return [
            "provisioned",
            f"{indent}{self.step}? {self.inline(choice.then)}",
            f"{indent}{self.step}: {rest}",
        ]

    def props_lines(
        self, props: tuple[_Arg | _ProvisionedArgs, ...], indent: str
    ) -> list[str]:
        out = []
        for prop in props:
            if isinstance(prop, _ProvisionedArgs):
                given = self.object(prop.args)
                out.append(f"{indent}...(provisioned ? {given} : {{}}),")
            else:
                out += self.arg_lines(prop, indent)
        return out

    def call_lines(self, call: _Call, indent: str) -> list[str]:
        inner = indent + self.step
        if isinstance(call.on, _Call):
            # A method of a call's result starts a line of its own.
            return [
                self.inline(call.on),
                f"{inner}.{self.name(call.function)}({{",
                *self.props_lines(call.props, inner + self.step),
                f"{inner}}})",
            ]
        args = "".join(f"{self.inline(a)}, " for a in call.args)
        return [
            f"{self.callee(call)}({args}{{",
            *self.props_lines(call.props, inner),
            f"{indent}}})",
        ]

    def struct_lines(self, struct: _Struct, indent: str) -> list[str]:
        return [
            "{",
            *self.props_lines(struct.fields, indent + self.step),
            f"{indent}}}",
        ]

    def assign_head(self, target: str) -> str:
        declare = "" if "." in target else "const "
        return f"{declare}{self.name(target)} = "

    def while_provisioned(self, body: list[str], indent: str) -> list[str]:
        return [f"{indent}if (provisioned) {{", *body, f"{indent}}}"]


class _Python(_Syntax):
    step = "    "
    width = 88
    comment = "#"
    end = ""
    true = "True"
    false = "False"
    nothing = "None"

    def string(self, text: str) -> str:
        return python_string(text)

    def name(self, dotted: str) -> str:
        return dotted

    def label(self, name: str) -> str:
        return f"{name}="

    def keywords(self, fields: tuple[_Arg, ...]) -> list[str]:
        return [f"{self.label(f.name)}{self.inline(f.value)}" for f in fields]

    def inline_special(self, value: _Expr) -> str:
        match value:
            case _Prop(name):
                return name
            case _Plus(left, right):
                return f"{self.inline(left)} + {self.inline(right)}"
            case _Not(operand):
                return f"not {self.inline(operand)}"
            case _Cast(kind, operand):
                return f"typing.cast({kind}, {self.inline(operand)})"
            case _IfProvisioned(then, otherwise):
                rest = self.nothing if otherwise is None else self.inline(otherwise)
                return f"{self.inline(then)} if provisioned else {rest}"
            case _Struct(kind, fields):
                return f"{kind}({', '.join(self.keywords(fields))})"
            case _Call(args=args, props=props):
                given = [self.inline(a) for a in args] + self.keywords(_plain(props))
                return f"{self.callee(value)}({', '.join(given)})"
        raise TypeError(value)

    def choice(self, choice: _IfProvisioned, indent: str) -> list[str]:
        rest = (
            self.nothing if choice.otherwise is None else self.inline(choice.otherwise)
        )
        return [
            self.inline(choice.then),
            f"{indent}if provisioned",
            f"{indent}else {rest}",
        ]

    def props_lines(
        self, props: tuple[_Arg | _ProvisionedArgs, ...], indent: str
    ) -> list[str]:
        out = []
        for prop in props:
            if isinstance(prop, _ProvisionedArgs):
                for arg in prop.args:
                    out += self.arg_lines(
                        _Arg(arg.name, _IfProvisioned(arg.value)), indent
                    )
            else:
                out += self.arg_lines(prop, indent)
        return out

    def call_lines(self, call: _Call, indent: str) -> list[str]:
        inner = indent + self.step
        return [
            f"{self.callee(call)}(",
            *(f"{inner}{self.inline(a)}," for a in call.args),
            *self.props_lines(call.props, inner),
            f"{indent})",
        ]

    def struct_lines(self, struct: _Struct, indent: str) -> list[str]:
        # As ruff formats a keyword argument too long for its line.
        inner = indent + self.step
        fields = [
            f"{inner}{self.step}{field}" for field in self.keywords(struct.fields)
        ]
        return [
            "(",
            f"{inner}{struct.kind}(",
            *(f"{line}," for line in fields[:-1]),
            fields[-1],
            f"{inner})",
            f"{indent})",
        ]

    def assign_lines(self, value: _Expr, indent: str) -> list[str]:
        # A struct assigned is written as the call it is.
        if isinstance(value, _Struct) and not value.one_line:
            call = _Call(value.kind, props=value.fields, one_per_line=True)
            return self.call_lines(call, indent)
        return super().assign_lines(value, indent)

    def assign_head(self, target: str) -> str:
        return f"{target} = "

    def while_provisioned(self, body: list[str], indent: str) -> list[str]:
        return [f"{indent}if provisioned:", *body]


def _camel_case(part: str) -> str:
    """A snake_case name in camelCase; a class or constant name as it is."""
    if not re.fullmatch(r"[a-z][a-z0-9_]*", part):
        return part
    first, *rest = part.split("_")
    return first + "".join(word.capitalize() for word in rest)


def _plain(props: tuple[_Arg | _ProvisionedArgs, ...]) -> tuple[_Arg, ...]:
    """Arguments written on one line: a conditional group takes lines of its
    own."""
    plain = tuple(prop for prop in props if isinstance(prop, _Arg))
    if len(plain) != len(props):
        raise TypeError("Conditional arguments go in a call written a line each.")
    return plain


def _props(spec: _Spec) -> list[_PropSpec]:
    return [prop for prop in _PROPS if prop.wanted(spec)]


def export_cdk_typescript(design: d.Design) -> str:
    spec = _spec(design)
    ts = _TypeScript()
    out = _header(
        spec,
        "//",
        f"npm install aws-cdk-lib@{CDK_VERSION} constructs@{CONSTRUCTS_VERSION} "
        "aws-cdk typescript ts-node @types/node",
        f'npx cdk deploy --app "npx ts-node {typescript_filename(design)}"',
    )
    out += [
        'import * as cdk from "aws-cdk-lib";',
        'import * as dynamodb from "aws-cdk-lib/aws-dynamodb";',
        'import { Construct } from "constructs";',
        "",
        f"export interface {spec.class_name}Props {{",
    ]
    for prop in _props(spec):
        leads = ["  /**", *["   *"] * (len(prop.typescript_doc) - 1)]
        out += [
            f"{lead} {line}"
            for lead, line in zip(leads, prop.typescript_doc, strict=True)
        ]
        out[-1] += " */"
        out.append(f"  readonly {ts.name(prop.name)}?: {prop.typescript_type};")
    out += ["}", ""]
    out += _comment_lines("//", WHY_CLASSIC_TABLE, "")
    out += [
        f"export class {spec.class_name} extends Construct {{",
        "  public readonly table: dynamodb.Table;",
        "",
        "  constructor(",
        "    scope: Construct,",
        "    id: string,",
        f"    props: {spec.class_name}Props = {{}},",
        "  ) {",
        "    super(scope, id);",
        *ts.statements(_body(spec), "    "),
        "  }",
        "}",
        "",
        "// The app, when this file is run rather than imported.",
        "if (require.main === module) {",
        *ts.statements(_app(spec), "  "),
        "}",
    ]
    return "\n".join(out) + "\n"


def export_cdk_python(design: d.Design) -> str:
    spec = _spec(design)
    py = _Python()
    out = _header(
        spec,
        "#",
        f"pip install aws-cdk-lib=={CDK_VERSION} constructs=={CONSTRUCTS_VERSION} "
        "(and npm install -g aws-cdk)",
        f'cdk deploy --app "python3 {python_filename(design)}"',
    )
    out += [
        "from __future__ import annotations",
        "",
        *(["import typing", ""] if spec.overrides_encryption else []),
        "import aws_cdk as cdk",
        "from aws_cdk import aws_dynamodb as dynamodb",
        "from constructs import Construct",
        "",
        "",
    ]
    parameters, docs = [], []
    for prop in _props(spec):
        parameters.append(
            f"        {prop.name}: {prop.python_type} = {py.inline(prop.default)},"
        )
        if docs:
            docs[-1] += ";"
        docs += [f"    {line}" for line in prop.python_doc]
    docs[-1] += "."
    out += [f"class {spec.class_name}(Construct):"]
    out += ['    """' + "The design's table, with its indexes and settings."]
    out += ["", *docs, ""]
    out += _comment_lines("", WHY_CLASSIC_TABLE, "   ")
    out += ['    """', ""]
    out += ["    def __init__(", "        self,"]
    out += ["        scope: Construct,", "        construct_id: str,", "        *,"]
    out += [*parameters, "    ) -> None:"]
    out.append("        super().__init__(scope, construct_id)")
    out += py.statements(_body(spec), "        ")
    out += [
        "",
        "",
        "# The app, when this file is run rather than imported.",
        'if __name__ == "__main__":',
        *py.statements(_app(spec), "    "),
    ]
    return "\n".join(out) + "\n"


def typescript_filename(design: d.Design) -> str:
    """The download's name, as the header's deploy line gives it."""
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", design.table.name).strip("-.")
    return f"{stem or 'design'}-table.ts"


def python_filename(design: d.Design) -> str:
    """The download's name: a module name, so an app can import it."""
    stem = re.sub(r"[^a-z0-9_]+", "_", design.table.name.lower()).strip("_")
    if not stem or not stem[0].isalpha():
        stem = f"t_{stem}"
    return f"{stem}_table.py"
