"""The construct the CDK export writes, described once: the design's table
as a `Spec`, and from it the construct's props (`PROPS`), the statements of
its constructor (the table with its settings, its indexes, the KMS override
of the L1 resource, the auto scaling, the tags) and the app's. Names are in
Python's spelling (snake_case, `self`); `syntax` writes them in each
language, so a setting is added here once.

Pure Python; nothing here imports Django."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from modeler.design import model as d
from modeler.exporters.tabledef import (
    DEFAULT_TARGET_UTILISATION,
    ScalingTarget,
    logical_id,
    scaling_targets,
)

_ATTRIBUTE_TYPES = {"S": "STRING", "N": "NUMBER", "B": "BINARY"}
# The design's encryption that the L2 Table writes as CloudFormation does.
# AWS_OWNED is the Table's default when `encryption` is left out (its
# TableEncryption.DEFAULT would write SSEEnabled: false, which the export
# does not); KMS is set on the resource itself (see _WHY_KMS).
_ENCRYPTION = {"AWS_MANAGED": "AWS_MANAGED"}


@dataclass(frozen=True)
class Spec:
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


def construct_spec(design: d.Design) -> Spec:
    stem = logical_id(design.table.name)
    if not stem[0].isalpha():
        stem = "T" + stem
    return Spec(
        class_name=f"{stem}Table",
        stack_name=f"{stem}Stack",
        design=design,
        provisioned=design.table.billing_mode == "PROVISIONED",
        targets=tuple(scaling_targets(design.table)),
    )


_WHY_KMS = (
    "The KMS key as the design names it (an ARN or an alias, or none for the "
    "AWS managed key): the L2 Table takes only a key object, whose ARN it "
    "would write instead, so the resource's encryption is set directly."
)


# The construct's code: values, arguments and statements.


class Expr:
    """A value in the construct's code."""


@dataclass(frozen=True)
class Literal(Expr):
    """Text, a number or a flag."""

    value: str | int | bool


@dataclass(frozen=True)
class Name(Expr):
    """A dotted name (`self.table.node.default_child`,
    `dynamodb.BillingMode.PROVISIONED`)."""

    dotted: str


@dataclass(frozen=True)
class Prop(Expr):
    """A prop of the construct (see PROPS), with its default."""

    name: str


@dataclass(frozen=True)
class Plus(Expr):
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Not(Expr):
    operand: Expr


@dataclass(frozen=True)
class Cast(Expr):
    kind: str
    value: Expr


@dataclass(frozen=True)
class IfProvisioned(Expr):
    """`then` while the table is provisioned (not made on-demand by the
    prop), else `otherwise` (None: left unset)."""

    then: Expr
    otherwise: Expr | None = None


@dataclass(frozen=True)
class Arg:
    name: str
    value: Expr


@dataclass(frozen=True)
class ProvisionedArgs:
    """Arguments given only while the table is provisioned."""

    args: tuple[Arg, ...]


@dataclass(frozen=True)
class Struct(Expr):
    """A struct of CDK (Python's class `kind`; an object literal in
    TypeScript)."""

    kind: str
    fields: tuple[Arg, ...]
    one_line: bool = True


@dataclass(frozen=True)
class Items(Expr):
    """A list, on one line or an item a line."""

    items: tuple[Expr, ...]
    one_per_line: bool = False


@dataclass(frozen=True)
class Call(Expr):
    """A call of `function` (a method of `on` when given); `props` are
    keyword arguments in Python, the props object in TypeScript."""

    function: str
    args: tuple[Expr, ...] = ()
    props: tuple[Arg | ProvisionedArgs, ...] = ()
    on: Expr | None = None
    new: bool = False  # TypeScript's `new`, for a class
    one_per_line: bool = False


@dataclass(frozen=True)
class Assign:
    """`target` (a dotted name; a plain one is a new local) is `value`."""

    target: str
    value: Expr


@dataclass(frozen=True)
class Do:
    """A call made for what it does."""

    call: Call


@dataclass(frozen=True)
class WhileProvisioned:
    """Statements run only while the table is provisioned."""

    body: tuple[Statement, ...]


@dataclass(frozen=True)
class Comment:
    """A comment, wrapped to the line width."""

    text: str


Statement = Assign | Do | WhileProvisioned | Comment


@dataclass(frozen=True)
class PropSpec:
    """A prop of the construct: what varies per environment."""

    name: str
    typescript_type: str
    python_type: str
    default: Expr
    typescript_doc: tuple[str, ...]
    python_doc: tuple[str, ...]
    wanted: Callable[[Spec], bool]


PROPS = (
    PropSpec(
        "table_name_prefix",
        "string",
        "str",
        Literal(""),
        ('Put before the table\'s name, e.g. "staging-".',),
        ('table_name_prefix goes before the table\'s name ("staging-")',),
        lambda spec: True,
    ),
    PropSpec(
        "removal_policy",
        "cdk.RemovalPolicy",
        "cdk.RemovalPolicy",
        Name("cdk.RemovalPolicy.RETAIN"),
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
    PropSpec(
        "on_demand",
        "boolean",
        "bool",
        Literal(False),
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
    PropSpec(
        "environment",
        "string",
        "str",
        Literal("dev"),
        ('The table\'s Environment tag; "dev" by default.',),
        ("environment is the table's Environment tag",),
        lambda spec: spec.environment_tag,
    ),
    PropSpec(
        "auto_scaling_target_utilization",
        "number",
        "int",
        Literal(DEFAULT_TARGET_UTILISATION),
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
PROP_DEFAULTS = {prop.name: prop.default for prop in PROPS}


_TABLE = Name("self.table")


def _attribute(attribute: d.KeyAttribute) -> Struct:
    kind = _ATTRIBUTE_TYPES[attribute.type]
    return Struct(
        "dynamodb.Attribute",
        (
            Arg("name", Literal(attribute.name)),
            Arg("type", Name(f"dynamodb.AttributeType.{kind}")),
        ),
    )


def _keys(one: str, many: str, attributes: tuple[d.KeyAttribute, ...]) -> list[Arg]:
    if not attributes:
        return []
    if len(attributes) == 1:
        return [Arg(one, _attribute(attributes[0]))]
    # A multi-attribute key: its attributes in order.
    items = tuple(_attribute(a) for a in attributes)
    return [Arg(many, Items(items, one_per_line=True))]


def _table_props(spec: Spec) -> list[Arg]:
    table = spec.table
    props = [
        Arg("table_name", Plus(Prop("table_name_prefix"), Literal(table.name))),
        Arg("partition_key", _attribute(table.partition_key)),
    ]
    if table.sort_key:
        props.append(Arg("sort_key", _attribute(table.sort_key)))
    on_demand = Name("dynamodb.BillingMode.PAY_PER_REQUEST")
    if spec.provisioned and table.capacity:
        provisioned = Name("dynamodb.BillingMode.PROVISIONED")
        props += [
            Arg("billing_mode", IfProvisioned(provisioned, on_demand)),
            Arg("read_capacity", IfProvisioned(Literal(table.capacity.read))),
            Arg("write_capacity", IfProvisioned(Literal(table.capacity.write))),
        ]
    else:
        props.append(Arg("billing_mode", on_demand))
    if table.ttl_attribute:
        props.append(Arg("time_to_live_attribute", Literal(table.ttl_attribute)))
    if table.stream_view_type:
        view = Name(f"dynamodb.StreamViewType.{table.stream_view_type}")
        props.append(Arg("stream", view))
    recovery = Arg(
        "point_in_time_recovery_enabled", Literal(table.point_in_time_recovery)
    )
    props.append(
        Arg(
            "point_in_time_recovery_specification",
            Struct(
                "dynamodb.PointInTimeRecoverySpecification", (recovery,), one_line=False
            ),
        )
    )
    if table.encryption.type in _ENCRYPTION:
        kind = _ENCRYPTION[table.encryption.type]
        props.append(Arg("encryption", Name(f"dynamodb.TableEncryption.{kind}")))
    return [
        *props,
        Arg("table_class", Name(f"dynamodb.TableClass.{table.table_class}")),
        Arg("deletion_protection", Literal(table.deletion_protection)),
        Arg("removal_policy", Prop("removal_policy")),
    ]


def _index_call(spec: Spec, index: d.Index) -> Call:
    projection = index.projection
    props: list[Arg | ProvisionedArgs] = [Arg("index_name", Literal(index.name))]
    if index.is_global:
        props += _keys("partition_key", "partition_keys", index.partition_key)
        props += _keys("sort_key", "sort_keys", index.sort_key)
    else:
        props += _keys("sort_key", "sort_keys", index.sort_key[:1])
    projection_type = Name(f"dynamodb.ProjectionType.{projection.type}")
    props.append(Arg("projection_type", projection_type))
    if projection.type == "INCLUDE":
        names = tuple(Literal(a) for a in projection.attributes)
        props.append(Arg("non_key_attributes", Items(names)))
    if index.is_global and spec.provisioned and index.capacity:
        capacity = index.capacity
        props.append(
            ProvisionedArgs(
                (
                    Arg("read_capacity", Literal(capacity.read)),
                    Arg("write_capacity", Literal(capacity.write)),
                )
            )
        )
    kind = "global" if index.is_global else "local"
    return Call(
        f"add_{kind}_secondary_index", props=tuple(props), on=_TABLE, one_per_line=True
    )


def _seconds(seconds: int) -> Call:
    return Call("cdk.Duration.seconds", (Literal(seconds),))


def _scaling_call(target: ScalingTarget) -> Call:
    limits = (
        Arg("min_capacity", Literal(target.min_capacity)),
        Arg("max_capacity", Literal(target.max_capacity)),
    )
    if target.index:
        scale = Call(
            f"auto_scale_global_secondary_index_{target.dimension}_capacity",
            (Literal(target.index),),
            limits,
            on=_TABLE,
        )
    else:
        scale = Call(f"auto_scale_{target.dimension}_capacity", props=limits, on=_TABLE)
    utilisation = (
        Literal(target.target)
        if target.target is not None
        else Prop("auto_scaling_target_utilization")
    )
    options = [Arg("target_utilization_percent", utilisation)]
    if target.scale_in_cooldown is not None:
        options.append(Arg("scale_in_cooldown", _seconds(target.scale_in_cooldown)))
    if target.scale_out_cooldown is not None:
        options.append(Arg("scale_out_cooldown", _seconds(target.scale_out_cooldown)))
    if target.disable_scale_in:
        options.append(Arg("disable_scale_in", Literal(True)))
    return Call(
        "scale_on_utilization", props=tuple(options), on=scale, one_per_line=True
    )


def _tag(key: Expr, value: Expr) -> Do:
    tags = Call("cdk.Tags.of", (_TABLE,))
    return Do(Call("add", (key, value), on=tags))


def constructor_body(spec: Spec) -> list[Statement]:
    """The constructor's statements after the call of the base class's."""
    table = spec.table
    out: list[Statement] = []
    if spec.provisioned:
        out.append(Assign("provisioned", Not(Prop("on_demand"))))
    out.append(
        Assign(
            "self.table",
            Call(
                "dynamodb.Table",
                (Name("self"), Literal("Table")),
                tuple(_table_props(spec)),
                new=True,
                one_per_line=True,
            ),
        )
    )
    out += [Do(_index_call(spec, index)) for index in table.indexes]
    if spec.overrides_encryption:
        sse = [Arg("sse_enabled", Literal(True)), Arg("sse_type", Literal("KMS"))]
        if table.encryption.kms_key:
            sse.append(Arg("kms_master_key_id", Literal(table.encryption.kms_key)))
        out += [
            Comment(_WHY_KMS),
            Assign(
                "resource",
                Cast("dynamodb.CfnTable", Name("self.table.node.default_child")),
            ),
            Assign(
                "resource.sse_specification",
                Struct(
                    "dynamodb.CfnTable.SSESpecificationProperty",
                    tuple(sse),
                    one_line=False,
                ),
            ),
        ]
    if spec.targets:
        scaling = tuple(Do(_scaling_call(target)) for target in spec.targets)
        out.append(WhileProvisioned(scaling))
    out += [_tag(Literal(key), Literal(value)) for key, value in table.tags]
    if spec.environment_tag:
        out.append(_tag(Literal("Environment"), Prop("environment")))
    return out


def app_statements(spec: Spec) -> list[Statement]:
    """The app's statements, when the file is run rather than imported."""
    return [
        Assign("app", Call("cdk.App", new=True)),
        Assign(
            "stack",
            Call("cdk.Stack", (Name("app"), Literal(spec.stack_name)), new=True),
        ),
        Do(Call(spec.class_name, (Name("stack"), Literal("Table")), new=True)),
        Do(Call("synth", on=Name("app"))),
    ]


def wanted_props(spec: Spec) -> list[PropSpec]:
    return [prop for prop in PROPS if prop.wanted(spec)]
