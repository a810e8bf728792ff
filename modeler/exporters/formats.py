"""The export formats, declared once for the `export_design` command and the
Export section: what each is called, the file it downloads as, its options
(the command's flags and the page's fields are made from them), and how it
is made, with the notes a reader needs beside it.

Pure Python; nothing here imports Django."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from modeler.design import model as d
from modeler.designfile import dump_design
from modeler.exporters.access.entity_libraries import (
    electrodb_module,
    library_filename,
    toolbox_module,
)
from modeler.exporters.access.module import access_module, module_name
from modeler.exporters.access.typescript import access_filename, typescript_module
from modeler.exporters.cdk import (
    export_cdk_python,
    export_cdk_typescript,
    python_filename,
    typescript_filename,
)
from modeler.exporters.cli import export_cli_json, follow_up_commands
from modeler.exporters.cloudformation import (
    export_cloudformation_json,
    export_cloudformation_yaml,
)
from modeler.exporters.iam import PolicyError, iam_policy, tenant_attribute
from modeler.exporters.sam import export_sam
from modeler.exporters.terraform import export_terraform


class ExportError(ValueError):
    """The design cannot be exported in this format with these options; the
    message says why, for the page and the command alike."""


@dataclass(frozen=True)
class Export:
    text: str
    notes: tuple[str, ...] = ()  # what the reader should know: left out, to do


@dataclass(frozen=True)
class Option:
    """One option of a format. `name` is the keyword its maker takes and the
    page's field; the command's flag is `--name` with dashes unless `cli`
    names it. A `switch` is
    a checkbox on the page; on the command line it may also take a value
    (`--tenant` or `--tenant tenantId`)."""

    name: str
    kind: Literal["int", "text", "switch"]
    label: str
    help: str
    default: Any
    pattern: str = ""  # text: what a value must match
    invalid: str = ""  # text: the message when it does not
    minimum: int | None = None
    maximum: int | None = None
    metavar: str = ""
    cli: str = ""
    # Why the option cannot apply to a design ("" when it can), and what it
    # does for a design: shown beside its field on the page.
    unavailable: Callable[[d.Design], str] | None = None
    explain: Callable[[d.Design], str] | None = None

    @property
    def flag(self) -> str:
        return "--" + (self.cli or self.name.replace("_", "-"))

    def clean(self, value: Any) -> Any:
        """The option's value from what a user gave (text, or None for none),
        or ValueError with the message to show."""
        if value is None or value == "":
            return self.default
        if self.kind == "switch":
            return value
        if self.kind == "int":
            try:
                number = int(value)
            except (TypeError, ValueError):
                raise ValueError(f"{self.flag} takes a whole number") from None
            if (self.minimum is not None and number < self.minimum) or (
                self.maximum is not None and number > self.maximum
            ):
                bounds = f"{self.minimum} to {self.maximum} {self.metavar}"
                raise ValueError(f"{self.flag} takes {bounds.rstrip()}")
            return number
        if self.pattern and not re.fullmatch(self.pattern, str(value)):
            raise ValueError(self.invalid)
        return str(value)


def _no_options(render: Callable[[d.Design], str]) -> Callable[..., Export]:
    def export(design: d.Design) -> Export:
        return Export(render(design))

    return export


@dataclass(frozen=True)
class ExportFormat:
    name: str  # as on the command line: cloudformation-yaml
    label: str
    suffix: str  # the download's file name ends with this
    language: str  # for highlighting: yaml, json, hcl
    media_type: str
    make: Callable[..., Export]  # (design, **options); ExportError
    description: str
    options: tuple[Option, ...] = field(default=())
    linted: bool = False  # CloudFormation: cfn-lint checks it
    # The download's name where the format needs its own (a Python module
    # name); else the table's name with `suffix`.
    filename_of: Callable[[d.Design], str] | None = None

    def filename(self, design: d.Design) -> str:
        if self.filename_of is not None:
            return self.filename_of(design)
        stem = re.sub(r"[^A-Za-z0-9_.-]+", "-", design.table.name).strip("-.")
        return f"{stem or 'design'}{self.suffix}"

    def export(self, design: d.Design, **options: Any) -> Export:
        """The export with these options (the others at their defaults)."""
        values = {o.name: o.default for o in self.options}
        values.update(options)
        return self.make(design, **values)

    def render(self, design: d.Design) -> str:
        """The export's text with the default options."""
        return self.export(design).text


def _cli_json(design: d.Design) -> Export:
    notes: tuple[str, ...] = ()
    commands = follow_up_commands(design)
    if commands:
        notes = (
            "create-table cannot set TTL or point-in-time recovery; run "
            "afterwards: " + " && ".join(commands),
        )
    return Export(export_cli_json(design), notes)


def _workbench(design: d.Design, *, generated: int) -> Export:
    # Imported here: it generates sample items (Faker), which the other
    # formats do not need.
    from modeler.exporters.nosql_workbench import (
        WorkbenchExportError,
        export_notes,
        export_workbench,
    )

    try:
        with _sample_data():
            text = export_workbench(design, generated=generated)
    except WorkbenchExportError as exc:
        raise ExportError(f"No model: {exc}.") from None
    return Export(text, tuple(f"Not in the model: {n}." for n in export_notes(design)))


@contextmanager
def _sample_data() -> Iterator[None]:
    """A design whose sample items cannot be made: an ExportError saying why."""
    from modeler.sampledata import SampleDataError

    try:
        yield
    except SampleDataError as exc:
        raise ExportError(f"The sample data cannot be made: {exc}.") from None


class _Generated(Protocol):
    """Generated code: its text and the notes beside it."""

    @property
    def text(self) -> str: ...
    @property
    def notes(self) -> tuple[str, ...]: ...


def _code(maker: Callable[[d.Design], _Generated]) -> Callable[[d.Design], Export]:
    def make(design: d.Design) -> Export:
        made = maker(design)
        return Export(made.text, made.notes)

    return make


# The tests' makers are imported when used: they generate sample items.
def _python_access_tests(design: d.Design) -> Export:
    from modeler.exporters.access.python_tests import generated_tests

    with _sample_data():
        return _code(generated_tests)(design)


def _typescript_access_tests(design: d.Design) -> Export:
    from modeler.exporters.access.ts_tests import generated_ts_tests

    with _sample_data():
        return _code(generated_ts_tests)(design)


def _iam_policy(
    design: d.Design, *, region: str, account: str, tenant: str | bool
) -> Export:
    try:
        policy = iam_policy(design, region=region, account=account, tenant=tenant)
    except PolicyError as exc:
        raise ExportError(f"No policy: {exc}.") from None
    return Export(policy.json(), tuple(policy.notes))


def _no_tenant(design: d.Design) -> str:
    if tenant_attribute(design) is not None:
        return ""
    return (
        "Tenant isolation with dynamodb:LeadingKeys needs partition keys that all "
        "start with the same attribute; this design's do not."
    )


def _tenant_explained(design: d.Design) -> str:
    attribute = tenant_attribute(design)
    return (
        f"The caller's tenant is {attribute}: dynamodb:LeadingKeys on the "
        f"principal tag {attribute}."
    )


EXPORT_FORMATS: dict[str, ExportFormat] = {
    f.name: f
    for f in (
        ExportFormat(
            "yaml",
            "Design YAML",
            ".design.yaml",
            "yaml",
            "application/yaml",
            _no_options(dump_design),
            "The whole design in the workbench's own format; import it again "
            "with import_design.",
        ),
        ExportFormat(
            "terraform",
            "Terraform",
            ".tf",
            "hcl",
            "text/plain",
            _no_options(export_terraform),
            "aws_dynamodb_table with its indexes and settings, variables for the "
            "table name and environment, auto scaling when provisioned.",
        ),
        ExportFormat(
            "cloudformation-yaml",
            "CloudFormation (YAML)",
            ".cfn.yaml",
            "yaml",
            "application/yaml",
            _no_options(export_cloudformation_yaml),
            "AWS::DynamoDB::Table with parameters and outputs, auto scaling "
            "when provisioned.",
            linted=True,
        ),
        ExportFormat(
            "cloudformation-json",
            "CloudFormation (JSON)",
            ".cfn.json",
            "json",
            "application/json",
            _no_options(export_cloudformation_json),
            "The same template as JSON.",
            linted=True,
        ),
        ExportFormat(
            "sam",
            "AWS SAM",
            ".sam.yaml",
            "yaml",
            "application/yaml",
            _no_options(export_sam),
            "The CloudFormation template with SAM's transform and a "
            "TableNamePrefix parameter (a SimpleTable where the design fits "
            "one): sam deploy.",
            linted=True,
        ),
        ExportFormat(
            "cdk-typescript",
            "AWS CDK (TypeScript)",
            "-table.ts",
            "typescript",
            "text/plain",
            _no_options(export_cdk_typescript),
            "A construct declaring the table, its indexes, auto scaling and "
            "settings, with props for the name prefix, removal policy and "
            "billing, and an app: cdk deploy.",
            filename_of=typescript_filename,
        ),
        ExportFormat(
            "cdk-python",
            "AWS CDK (Python)",
            "_table.py",
            "python",
            "text/x-python",
            _no_options(export_cdk_python),
            "The same construct and app in Python: cdk deploy.",
            filename_of=python_filename,
        ),
        ExportFormat(
            "python",
            "Python data access (boto3)",
            "_access.py",
            "python",
            "text/x-python",
            _code(access_module),
            "A typed module: a dataclass per entity, key functions from the "
            "templates, and a function per access pattern sending the request "
            "the workbench simulates (pages, sparse index keys, conditions as "
            "exceptions). It needs only boto3; ruff and mypy --strict pass on it.",
            filename_of=lambda design: module_name(design) + ".py",
        ),
        ExportFormat(
            "python-tests",
            "Python data access tests (pytest)",
            "_access_test.py",
            "python",
            "text/x-python",
            _python_access_tests,
            "The pytest module to keep beside the data-access module: for each "
            "read pattern, the sample data the workbench checked it on and a "
            "test that the pattern's function returns the items it promises; "
            "for each write pattern, a test that the items it writes hold every "
            "index key the templates give and that a failed condition raises. "
            "It runs on DynamoDB Local or serve_dynamodb "
            "(AWS_ENDPOINT_URL_DYNAMODB), or on a conftest.py's "
            "dynamodb_client fixture.",
            filename_of=lambda design: f"{module_name(design)}_test.py",
        ),
        ExportFormat(
            "typescript",
            "TypeScript data access (AWS SDK v3)",
            "-access.ts",
            "typescript",
            "text/plain",
            _code(typescript_module),
            "The same module for the AWS SDK for JavaScript v3: an interface per "
            "entity, key functions from the templates, and a function per access "
            "pattern sending the request the workbench simulates (a page function "
            "and an async iterator for reads, sparse index keys, conditions as "
            "named errors). tsc --strict passes on it.",
            filename_of=access_filename,
        ),
        ExportFormat(
            "typescript-tests",
            "TypeScript data access tests (node:test)",
            "-access.test.ts",
            "typescript",
            "text/plain",
            _typescript_access_tests,
            "The node:test module to keep beside the TypeScript module: for each "
            "read pattern, the sample data the workbench checked it on and a test "
            "that the pattern's function returns the items it promises; for each "
            "write pattern, a test that the items it writes hold every index key "
            "the templates give and that a failed condition throws. Compile "
            "both with tsc and run node --test against DynamoDB Local or "
            "serve_dynamodb started without a design (AWS_ENDPOINT_URL_DYNAMODB).",
            filename_of=lambda design: (
                access_filename(design).removesuffix(".ts") + ".test.ts"
            ),
        ),
        ExportFormat(
            "electrodb",
            "ElectroDB entities",
            ".electrodb.mjs",
            "javascript",
            "text/javascript",
            _code(electrodb_module),
            "ElectroDB 3 entity definitions whose key templates (padding, "
            "constants, sparse-index conditions) build the design's keys; a key "
            "ElectroDB cannot state so is left out with a note.",
            filename_of=lambda design: library_filename(design, "electrodb"),
        ),
        ExportFormat(
            "dynamodb-toolbox",
            "DynamoDB-Toolbox entities",
            ".dynamodb-toolbox.mjs",
            "javascript",
            "text/javascript",
            _code(toolbox_module),
            "A DynamoDB-Toolbox 2 table and an entity per design entity, whose "
            "computed keys and linked index keys are the design's (sparse indexes "
            "included).",
            filename_of=lambda design: library_filename(design, "dynamodb-toolbox"),
        ),
        ExportFormat(
            "cli-json",
            "AWS CLI create-table",
            ".create-table.json",
            "json",
            "application/json",
            _cli_json,
            "Input for aws dynamodb create-table --cli-input-json, for "
            "DynamoDB Local or scripts.",
        ),
        ExportFormat(
            "nosql-workbench",
            "NoSQL Workbench model",
            ".nosql-workbench.json",
            "json",
            "application/json",
            _workbench,
            "A version 3.0 data model with a facet per entity and the sample "
            "items, which NoSQL Workbench opens.",
            options=(
                Option(
                    "generated",
                    "int",
                    "Generated items per entity",
                    "Added to the design's own sample items, so the facets show data.",
                    default=0,
                    minimum=0,
                    maximum=50,
                    metavar="items per entity",
                    cli="generated-items",
                ),
            ),
        ),
        ExportFormat(
            "iam-policy",
            "IAM policy",
            ".iam-policy.json",
            "json",
            "application/json",
            _iam_policy,
            "The least-privilege policy for the application: the actions the "
            "access patterns use, on the table and index ARNs.",
            options=(
                Option(
                    "region",
                    "text",
                    "Region",
                    "The table's region, or * for any.",
                    default="*",
                    pattern=r"\*|[a-z]{2}(-[a-z]+)+-\d",
                    invalid="Give a region such as eu-west-1, or *.",
                ),
                Option(
                    "account",
                    "text",
                    "Account id",
                    "The table's AWS account id, or * for any.",
                    default="*",
                    pattern=r"\*|\d{12}",
                    invalid="Give the 12-digit account id, or *.",
                ),
                Option(
                    "tenant",
                    "switch",
                    "Confine requests to the caller's tenant (dynamodb:LeadingKeys)",
                    "Confine requests to the caller's tenant with "
                    "dynamodb:LeadingKeys (the attribute the partition keys start "
                    "with; found by itself when left out).",
                    default=False,
                    metavar="ATTRIBUTE",
                    unavailable=_no_tenant,
                    explain=_tenant_explained,
                ),
            ),
        ),
    )
}
