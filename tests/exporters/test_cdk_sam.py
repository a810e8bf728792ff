"""The CDK (TypeScript and Python) and SAM exports make the same table as the
CloudFormation export: for each example, each solver problem and the
designs of tests/fixtures/cdk (every setting, hostile text), the CDK
constructs are compiled (tsc --strict) and synthesised with aws-cdk-lib, one
app through `cdk synth`, and the SAM template is transformed by
aws-sam-translator; each resulting table resource and its auto scaling are
compared with the CloudFormation export's, property by property. Then the
workbench's importer reads the synthesised templates back to the same
table.

The tools are pinned: tests/cdk/package.json (npm ci, run by make test) and
requirements-dev.txt."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from samtranslator.translator.transform import transform

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.exporters.cdk import (
    export_cdk_python,
    export_cdk_typescript,
    python_filename,
    typescript_filename,
)
from modeler.exporters.cfnlint import lint_template
from modeler.exporters.cloudformation import template
from modeler.exporters.literals import typescript_string
from modeler.exporters.sam import export_sam, fits_simple_table
from modeler.importers.cloudformation import read_cloudformation
from tests.exporters.helpers import EXAMPLES, ROOT

NODE_PROJECT = ROOT / "tests" / "cdk"
NODE_BIN = NODE_PROJECT / "node_modules" / ".bin"
DESIGN_FILES = [
    *EXAMPLES,
    *sorted((ROOT / "tests" / "solver" / "problems").glob("*.yaml")),
    *sorted((ROOT / "tests" / "fixtures" / "cdk").glob("*.yaml")),
]
# The design whose own app (the end of its file) `cdk synth` runs.
APP_DESIGN = ROOT / "tests" / "fixtures" / "cdk" / "every-setting.design.yaml"
# Properties a template may leave out, and what CloudFormation takes then
# (a SimpleTable's translation leaves these out).
DEFAULTS = {
    "BillingMode": "PROVISIONED",
    "TableClass": "STANDARD",
    "DeletionProtectionEnabled": False,
    "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": False},
}
# Lists whose order CloudFormation ignores.
UNORDERED = {"AttributeDefinitions": "AttributeName"}


def _design(path: Path) -> d.Design:
    result = read_design(path.read_text(encoding="utf-8"))
    assert result.design is not None, result.problems
    return result.design


def _tools_env() -> dict[str, str]:
    if not (NODE_BIN / "cdk").exists() or not (NODE_BIN / "tsc").exists():
        pytest.fail(
            f"The CDK tools are not installed in {NODE_PROJECT}: make test "
            "installs them (npm ci --prefix tests/cdk)."
        )
    env = dict(os.environ)
    env.update(
        {
            "CDK_DISABLE_CLI_TELEMETRY": "true",
            "JSII_SILENCE_WARNING_DEPRECATED_NODE_VERSION": "1",
            "NODE_PATH": str(NODE_PROJECT / "node_modules"),
        }
    )
    return env


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> None:
    done = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, (
        f"{' '.join(args)} failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    )


@pytest.fixture(scope="module")
def designs() -> dict[str, d.Design]:
    return {path.name: _design(path) for path in DESIGN_FILES}


def _stack_names(designs: dict[str, d.Design]) -> dict[str, str]:
    return {name: f"Proof{i}" for i, name in enumerate(designs)}


STAGING_PROPS = {
    "tableNamePrefix": '"staging-"',
    "removalPolicy": "cdk.RemovalPolicy.DESTROY",
    "onDemand": "true",
    "environment": '"staging"',
}


def typescript_templates(designs: dict[str, d.Design], work: Path) -> dict[str, dict]:
    """Each design's construct compiled with tsc --strict and synthesised by
    `cdk synth`, by design file; "staging" is the app design's construct with
    every prop given, and "app" its file run as the app."""
    env = _tools_env()
    (work / "node_modules").symlink_to(NODE_PROJECT / "node_modules")
    source = work / "src"
    source.mkdir()
    harness = [
        'import * as cdk from "aws-cdk-lib";',
        "const app = new cdk.App();",
    ]
    stacks = _stack_names(designs)
    for i, (name, design) in enumerate(designs.items()):
        module = typescript_filename(design)
        text = export_cdk_typescript(design)
        (source / module).write_text(text, encoding="utf-8")
        spec = f"./{module.removesuffix('.ts')}"
        harness.append(
            f'import {{ {_class_name(text, "export class ")} as C{i} }} from "{spec}";'
        )
        harness.append(f'new C{i}(new cdk.Stack(app, "{stacks[name]}"), "Table");')
        if name == APP_DESIGN.name:
            props = ", ".join(f"{k}: {v}" for k, v in STAGING_PROPS.items())
            harness.append(
                f'new C{i}(new cdk.Stack(app, "Staging"), "Table", {{ {props} }});'
            )
    harness.append("app.synth();")
    (source / "harness.ts").write_text("\n".join(harness) + "\n", encoding="utf-8")
    (work / "tsconfig.json").write_text(
        json.dumps(
            {
                "compilerOptions": {
                    "strict": True,
                    "target": "ES2022",
                    "module": "commonjs",
                    "lib": ["es2022"],
                    "types": ["node"],
                    "typeRoots": [str(NODE_PROJECT / "node_modules" / "@types")],
                    "outDir": "js",
                    "rootDir": "src",
                    "skipLibCheck": True,
                    "noEmitOnError": True,
                },
                "include": ["src/*.ts"],
            }
        )
    )
    _run([str(NODE_BIN / "tsc"), "-p", "."], work, env)
    out = work / "cdk.out"
    _run([*_cdk(), "--app", "node js/harness.js", "--output", str(out)], work, env)
    # The file's own app: the end of the construct's file, as a user runs it.
    app_out = work / "app.out"
    app_text = export_cdk_typescript(designs[APP_DESIGN.name])
    app_module = typescript_filename(designs[APP_DESIGN.name]).removesuffix(".ts")
    _run(
        [*_cdk(), "--app", f"node js/{app_module}.js", "--output", str(app_out)],
        work,
        env,
    )
    return {
        **{name: _read(out, stacks[name]) for name in designs},
        "staging": _read(out, "Staging"),
        "app": _read(app_out, _stack_of(app_text)),
    }


def python_templates(designs: dict[str, d.Design], work: Path) -> dict[str, dict]:
    """Each design's construct synthesised from Python by `cdk synth`, by
    design file; "staging" with every prop given, and "app" the app design's
    file run as the app (as __main__, after the others, in the same
    process: the jsii runtime starts once)."""
    env = _tools_env()
    harness = [
        "import importlib",
        "import runpy",
        "import aws_cdk as cdk",
        "app = cdk.App()",
    ]
    stacks = _stack_names(designs)
    for name, design in designs.items():
        module = python_filename(design)
        text = export_cdk_python(design)
        (work / module).write_text(text, encoding="utf-8")
        construct = (
            f"importlib.import_module({module.removesuffix('.py')!r})."
            f"{_class_name(text, 'class ')}"
        )
        harness.append(f"{construct}(cdk.Stack(app, {stacks[name]!r}), 'Table')")
        if name == APP_DESIGN.name:
            harness.append(
                f"{construct}(cdk.Stack(app, 'Staging'), 'Table', "
                "table_name_prefix='staging-', "
                "removal_policy=cdk.RemovalPolicy.DESTROY, on_demand=True, "
                "environment='staging')"
            )
    harness.append("app.synth()")
    app_file = python_filename(designs[APP_DESIGN.name])
    harness.append(f"runpy.run_path({app_file!r}, run_name='__main__')")
    (work / "harness.py").write_text("\n".join(harness) + "\n", encoding="utf-8")
    out = work / "cdk.out"
    _run(
        [*_cdk(), "--app", f"{sys.executable} harness.py", "--output", str(out)],
        work,
        env,
    )
    app_text = export_cdk_python(designs[APP_DESIGN.name])
    return {
        **{name: _read(out, stacks[name]) for name in designs},
        "staging": _read(out, "Staging"),
        "app": _read(out, _stack_of(app_text)),
    }


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is not installed: .ci/run installs it (nodejs, npm)")
    return node


def _cdk() -> list[str]:
    return [str(NODE_BIN / "cdk"), "synth", "--no-notices", "--quiet"]


def _class_name(source: str, marker: str) -> str:
    line = next(x for x in source.splitlines() if x.startswith(marker))
    return line.removeprefix(marker).split("(")[0].split(" ")[0]


def _stack_of(source: str) -> str:
    line = next(x for x in source.splitlines() if "cdk.Stack(app, " in x)
    return line.split('"')[1]


def _read(out: Path, stack: str) -> dict:
    return json.loads((out / f"{stack}.template.json").read_text(encoding="utf-8"))


class _NoManagedPolicies:
    """What the translator asks for a function's policies: a table has none."""

    def load(self) -> dict:
        return {}


def sam_translated(design: d.Design, monkeypatch) -> dict:
    """The SAM export as SAM deploys it: transformed to CloudFormation."""
    # The translator asks for a region for its pseudo parameters; a table
    # uses none.
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    return transform(yaml.safe_load(export_sam(design)), {}, _NoManagedPolicies())


# The comparison


def resolved(node: Any, parameters: dict[str, Any]) -> Any:
    """`node` with Ref and Fn::Sub of the template's parameters replaced by
    their values (the others kept)."""
    if isinstance(node, list):
        return [resolved(x, parameters) for x in node]
    if not isinstance(node, dict):
        return node
    if set(node) == {"Ref"} and node["Ref"] in parameters:
        return parameters[node["Ref"]]
    if set(node) == {"Fn::Sub"} and isinstance(node["Fn::Sub"], str):
        text = node["Fn::Sub"]
        for name, value in parameters.items():
            text = text.replace("${" + name + "}", str(value))
        if "${" not in text.replace("${!", ""):
            return text
    return {k: resolved(v, parameters) for k, v in node.items()}


def defaults(document: dict) -> dict[str, Any]:
    return {
        name: spec["Default"]
        for name, spec in document.get("Parameters", {}).items()
        if "Default" in spec and not name.startswith("Bootstrap")
    }


def table_of(document: dict) -> dict[str, Any]:
    """The table resource, resolved, as CloudFormation reads it: absent
    properties at their defaults, unordered lists sorted, tags as a map."""
    document = resolved(document, defaults(document))
    (resource,) = [
        r for r in document["Resources"].values() if r["Type"] == "AWS::DynamoDB::Table"
    ]
    props = {**DEFAULTS, **resource["Properties"]}
    for name, key in UNORDERED.items():
        if name in props:
            props[name] = sorted(props[name], key=lambda x: x[key])
    props["Tags"] = {t["Key"]: t["Value"] for t in props.get("Tags", [])}
    return {
        "DeletionPolicy": resource.get("DeletionPolicy", "Delete"),
        "UpdateReplacePolicy": resource.get("UpdateReplacePolicy", "Delete"),
        **{f"Properties.{k}": v for k, v in props.items()},
    }


def scaling_of(document: dict) -> dict[tuple[str, str], dict[str, Any]]:
    """Each auto-scaled capacity (index or "", dimension): its range and its
    target tracking policy, whatever the resources are called."""
    document = resolved(document, defaults(document))
    resources = document["Resources"]
    out = {}
    for resource in resources.values():
        if resource["Type"] != "AWS::ApplicationAutoScaling::ScalingPolicy":
            continue
        props = resource["Properties"]
        target = resources[props["ScalingTargetId"]["Ref"]]["Properties"]
        path = _text(target["ResourceId"])
        index = path.split("/index/", 1)[1] if "/index/" in path else ""
        policy = dict(props["TargetTrackingScalingPolicyConfiguration"])
        out[(index, target["ScalableDimension"])] = {
            "MinCapacity": target["MinCapacity"],
            "MaxCapacity": target["MaxCapacity"],
            "ServiceNamespace": target["ServiceNamespace"],
            "PolicyType": props["PolicyType"],
            **policy,
        }
    return out


def _text(node: Any) -> str:
    """A ResourceId as text, whether written with Fn::Sub or Fn::Join."""
    if isinstance(node, str):
        return node
    if "Fn::Join" in node:
        delimiter, parts = node["Fn::Join"]
        return delimiter.join(_text(p) for p in parts)
    if "Fn::Sub" in node:
        return node["Fn::Sub"]
    return "<ref>"


def differences(expected: dict, actual: dict) -> list[str]:
    return [
        f"{key}: CloudFormation export {expected.get(key)!r}, here {actual.get(key)!r}"
        for key in sorted(set(expected) | set(actual), key=str)
        if expected.get(key) != actual.get(key)
    ]


def _scaling_differences(expected: dict, actual: dict) -> list[tuple]:
    want, got = scaling_of(expected), scaling_of(actual)
    return [
        (key, "; ".join(differences(want.get(key, {}), got.get(key, {}))))
        for key in sorted(set(want) | set(got))
        if want.get(key) != got.get(key)
    ]


# The tests


@pytest.mark.parametrize("flavour", ["TypeScript", "Python"])
def test_the_cdk_constructs_make_the_cloudformation_tables(flavour, designs, tmp_path):
    """Every design, its props and its file's own app, synthesised: the
    same table as the CloudFormation export, and the importer reads it
    back."""
    synthesise = typescript_templates if flavour == "TypeScript" else python_templates
    templates = synthesise(designs, tmp_path)
    found = []
    for name, design in designs.items():
        found += _differences(name, template(design), templates[name])
    app_design = designs[APP_DESIGN.name]
    found += _differences("the app", template(app_design), templates["app"])
    assert not found, f"{flavour}:\n" + "\n".join(found)
    _assert_staging(app_design, templates["staging"])
    _assert_imports_as(app_design, json.dumps(templates["app"]))


@pytest.mark.parametrize("path", DESIGN_FILES, ids=lambda p: p.name)
def test_the_sam_template_makes_the_cloudformation_table(path, designs, monkeypatch):
    design = designs[path.name]
    translated = sam_translated(design, monkeypatch)
    found = _differences(path.name, template(design), translated)
    assert not found, "SAM:\n" + "\n".join(found)
    simple = yaml.safe_load(export_sam(design))["Resources"]["Table"]["Type"]
    assert (simple == "AWS::Serverless::SimpleTable") == fits_simple_table(design.table)


def test_a_simple_design_is_a_simple_table():
    design = _design(ROOT / "tests/fixtures/cdk/kms-default-key.design.yaml")
    sam = yaml.safe_load(export_sam(design))
    assert sam["Transform"] == "AWS::Serverless-2016-10-31"
    table = sam["Resources"]["Table"]
    assert table["Type"] == "AWS::Serverless::SimpleTable"
    assert table["Properties"]["PrimaryKey"] == {"Name": "id", "Type": "Binary"}


def test_the_importer_reads_a_sam_template_back():
    design = _design(APP_DESIGN)
    _assert_imports_as(design, export_sam(design))


def test_the_sam_prefix_parameter_names_the_table(monkeypatch):
    design = _design(APP_DESIGN)
    monkeypatch.setenv("AWS_DEFAULT_REGION", "us-east-1")
    sam = yaml.safe_load(export_sam(design))
    sam["Parameters"]["TableNamePrefix"]["Default"] = "staging-"
    table = table_of(transform(sam, {}, _NoManagedPolicies()))
    assert table["Properties.TableName"] == "staging-every-setting"


def _differences(name: str, expected: dict, actual: dict) -> list[str]:
    found = differences(table_of(expected), table_of(actual))
    found += [
        f"auto scaling {key}: {problem}"
        for key, problem in _scaling_differences(expected, actual)
    ]
    return [f"{name}: {problem}" for problem in found]


def _assert_staging(design: d.Design, staged: dict) -> None:
    """The construct with every prop given: the name prefixed, the table
    destroyed with the stack, billed per request with no capacity or
    scaling, tagged for its environment."""
    table = table_of(staged)
    assert table["Properties.TableName"] == "staging-" + design.table.name
    assert table["DeletionPolicy"] == "Delete"
    assert table["Properties.BillingMode"] == "PAY_PER_REQUEST"
    assert "Properties.ProvisionedThroughput" not in table
    assert all(
        "ProvisionedThroughput" not in index
        for index in table["Properties.GlobalSecondaryIndexes"]
    )
    assert scaling_of(staged) == {}
    assert table["Properties.Tags"]["Environment"] == "staging"


def _assert_imports_as(design: d.Design, text: str) -> None:
    """The template imports as the design's table: the same keys, indexes,
    capacity, auto scaling and settings."""
    result = read_cloudformation(text, max_bytes=10_000_000)
    (imported,) = result.tables
    table = imported.design.table
    expected = design.table
    assert table.name == expected.name
    assert table.key_attributes == expected.key_attributes
    assert [_index(i) for i in table.indexes] == [_index(i) for i in expected.indexes]
    assert _capacity(table.capacity) == _capacity(expected.capacity)
    for field in (
        "billing_mode",
        "ttl_attribute",
        "stream_view_type",
        "point_in_time_recovery",
        "encryption",
        "table_class",
        "deletion_protection",
    ):
        assert getattr(table, field) == getattr(expected, field), field


def _capacity(capacity: d.Capacity | None) -> tuple | None:
    """Units and the range each is scaled in (the default written out)."""
    if capacity is None:
        return None
    return (
        capacity.read,
        capacity.write,
        capacity.scaling("read"),
        capacity.scaling("write"),
    )


def _index(index: d.Index) -> tuple:
    return (
        index.name,
        index.kind,
        index.partition_key,
        index.sort_key,
        index.projection,
        _capacity(index.capacity),
    )


def test_hostile_text_stays_inert():
    """Quotes, backslashes, `${`, backticks and comment ends in the design's
    name and tags come out as the same text, never as code."""
    design = _design(APP_DESIGN)
    typescript = export_cdk_typescript(design)
    python = export_cdk_python(design)
    tag = dict(design.table.tags)["team"]
    assert json.dumps(tag) in typescript
    assert f'cdk.Tags.of(self.table).add("team", {json.dumps(tag)})' in python
    for source in (typescript, python):
        header = [line for line in source.splitlines() if "Every setting" in line]
        assert len(header) == 1
    compile(python, "every_setting_table.py", "exec")


def test_the_comparison_names_the_property_that_differs():
    design = _design(APP_DESIGN)
    expected = template(design)
    changed = json.loads(json.dumps(expected))
    changed["Resources"]["Table"]["Properties"]["DeletionProtectionEnabled"] = False
    target = changed["Resources"]["TableReadScalableTarget"]["Properties"]
    target["MaxCapacity"] += 1
    found = _differences("x", expected, changed)
    assert found[0] == (
        "x: Properties.DeletionProtectionEnabled: CloudFormation export True, "
        "here False"
    )
    assert "MaxCapacity" in found[1] and "dynamodb:table:ReadCapacityUnits" in found[1]


def test_the_sam_template_lints_clean():
    """cfn-lint (with SAM's transform), as the Export section runs it."""
    result = lint_template(export_sam(_design(APP_DESIGN)))
    assert result.problem == "" and result.findings == ()


def test_typescript_strings_read_back_as_the_same_text():
    """Each literal, evaluated by node, is the text it was made from."""
    texts = ['a"b', "back\\slash", "line\nbreak\r\t", "${x} `y` */", "\x00\x7f\x9f"]
    texts += ["\u2028\u2029", "\U0001f600 \U000e0001", "名前"]
    script = (
        "console.log(JSON.stringify(["
        + ", ".join(typescript_string(t) for t in texts)
        + "]));"
    )
    done = subprocess.run(
        [_node(), "-e", script], capture_output=True, text=True, timeout=60, check=True
    )
    assert json.loads(done.stdout) == texts
