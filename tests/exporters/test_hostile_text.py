"""User text in every export is data, never code.

A design whose names, descriptions, tags, template literals, choice values
and parameter examples hold quotes, backslashes, newlines, triple quotes,
`${}`/`%{}` interpolations, YAML tags, shell metacharacters and NUL is
exported in every format, and each export is read back by the tool that
would consume it: the Python module parses with `ast` and imports without
side effects, Terraform parses with python-hcl2, CloudFormation passes
cfn-lint, the shell script runs each AWS CLI command as the single
arguments it shows, and the JSON and YAML formats load to the same text.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import hcl2
import pytest
import yaml
from lark import Token

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.exporters.access.entity_libraries import library_filename
from modeler.exporters.cfnlint import lint_template
from modeler.exporters.formats import EXPORT_FORMATS
from modeler.exporters.snippets import python_module, shell_script
from tests.exporters.access_helpers import (
    check_with_tools,
    load,
    run_generated_tests,
    write_tests,
)
from tests.exporters.helpers import EXAMPLES_DIR, snippets_of
from tests.exporters.node_helpers import (
    KEYS_SCRIPT,
    MAKERS,
    compile_ts,
    key_cases,
    run_node,
    run_ts_tests,
    write_ts_tests,
)

# Each one breaks a naive exporter of some format.
HOSTILE = (
    'X"""; __import__("os").system("touch PWNED"); """',
    "C:\\Users\\new\\x",
    "ends with a backslash \\",
    "two\nlines\r\nand\x0ca\u2028separator\x85",
    '${file("/etc/passwd")} %{ if true }x%{ endif } $${kept}',
    "'; touch PWNED; echo '",
    '$(touch PWNED) `touch PWNED` "$HOME"',
    "!!python/object/apply:os.system ['touch PWNED']",
    "*alias &anchor ? - : # not a comment",
    "NUL\x00in text",
    "\"'\\\"\\'{{}}<script>alert(1)</script>",
)
NAME = HOSTILE[0]


@functools.cache
def hostile_design(texts: tuple[str, ...] = HOSTILE) -> d.Design:
    """The order-management example with hostile text everywhere a user can
    type free text: key template literals and a choice value are replaced in
    the YAML (so patterns and keys stay consistent), the rest on the value."""
    text = (EXAMPLES_DIR / "order-management.yaml").read_text()
    literal = 'PROFILE"""\\\'${x}%{y}$(touch PWNED)`id`\\n!!str #'
    text = text.replace(
        '"PROFILE"', json.dumps(literal.replace("{", "{{").replace("}", "}}"))
    )
    status = 'SHIP"""\'$(touch PWNED)`id` \\ #!!str'
    text = text.replace(
        '"CUST#{customerId}#SHIPPED"', json.dumps("CUST#{customerId}#" + status)
    )
    text = text.replace("SHIPPED", json.dumps(status))
    result = read_design(text)
    assert result.design is not None, result.problems
    design = result.design
    patterns = tuple(
        dataclasses.replace(
            pattern,
            name=f"{texts[n % len(texts)]} {n}",
            description=texts[(n + 1) % len(texts)],
        )
        for n, pattern in enumerate(design.access_patterns)
    )
    entities = tuple(
        dataclasses.replace(
            entity,
            description=texts[n % len(texts)],
            attributes=tuple(
                dataclasses.replace(a, description=texts[(n + i) % len(texts)])
                for i, a in enumerate(entity.attributes)
            ),
        )
        for n, entity in enumerate(design.entities)
    )
    tags = tuple((f"tag{n}", value) for n, value in enumerate(texts))
    return dataclasses.replace(
        design,
        name=NAME,
        description="\n".join(texts),
        table=dataclasses.replace(design.table, tags=tags),
        entities=entities,
        access_patterns=patterns,
    )


@pytest.fixture(scope="module")
def design():
    return hostile_design()


@pytest.fixture(scope="module")
def snippets(design):
    return snippets_of(design)


def run_python(code: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(  # our interpreter, fixed arguments
        [sys.executable, "-c", code],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "PYTHONPATH": str(cwd)},
    )


def test_the_python_module_parses_and_imports_without_side_effects(
    design, snippets, tmp_path
):
    module = python_module(design, snippets)
    tree = ast.parse(module)
    # The design's name is in the docstring, as text.
    assert NAME in ast.get_docstring(tree, clean=False)
    (tmp_path / "patterns.py").write_text(module, encoding="utf-8")
    imported = run_python(
        "import patterns; print(sorted(n for n in vars(patterns) if not "
        "n.startswith('_')))",
        tmp_path,
    )
    assert imported.returncode == 0, imported.stderr
    assert not (tmp_path / "PWNED").exists()
    # Every pattern's function is defined, under the name the snippet shows.
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    assert {s.function for s in snippets if s.python} <= defined
    # Each function's docstring holds the pattern's name and description.
    docstrings = {
        node.name: ast.get_docstring(node, clean=False)
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
    }
    for snippet, pattern in zip(snippets, design.access_patterns, strict=True):
        if snippet.python:
            # The name is its first line: its line breaks become spaces.
            name = " ".join(pattern.name.split())
            assert docstrings[snippet.function].startswith(name + "\n")
            words = " ".join(docstrings[snippet.function].split())
            assert " ".join(pattern.description.split()) in words


@pytest.mark.parametrize(
    "name", ["class", "None", "import", "boto3", "client", "123", "__import__"]
)
def test_pattern_names_never_make_invalid_or_shadowing_functions(name, tmp_path):
    base = hostile_design()
    pattern = dataclasses.replace(base.access_patterns[0], name=name)
    design = dataclasses.replace(base, access_patterns=(pattern,))
    snippets = snippets_of(design)
    module = python_module(design, snippets)
    ast.parse(module)
    (tmp_path / "patterns.py").write_text(module, encoding="utf-8")
    imported = run_python(
        "import patterns, boto3; assert patterns.boto3 is boto3", tmp_path
    )
    assert imported.returncode == 0, imported.stderr


def test_the_shell_script_passes_each_value_as_one_argument(design, snippets, tmp_path):
    script = shell_script(design, snippets)
    # A stand-in `aws` that records the arguments it was given.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "aws.log"
    fake = bin_dir / "aws"
    fake.write_text(
        f"#!/bin/sh\nprintf '%s\\0' \"$@\" >> {shlex.quote(str(log))}\n"
        f"printf '\\n\\0' >> {shlex.quote(str(log))}\n"
    )
    fake.chmod(0o755)
    path = tmp_path / "patterns.sh"
    path.write_text(script, encoding="utf-8")
    completed = subprocess.run(  # our script, fixed arguments
        ["/bin/sh", str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert completed.returncode == 0, completed.stderr
    assert not (tmp_path / "PWNED").exists()
    calls = [
        call.strip("\0").split("\0")
        for call in log.read_text(encoding="utf-8").split("\n\0")
        if call.strip("\0")
    ]
    commands = [s.cli for s in snippets if s.cli]
    assert len(calls) == len(commands)
    for call, command in zip(calls, commands, strict=True):
        assert ["aws", *call] == shlex.split(command)


# HCL's escapes in a quoted string: backslash escapes, and `$${`/`%%{` for a
# literal `${`/`%{`.
_HCL_ESCAPE = re.compile(
    r"\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))|([$%])\4\{", re.DOTALL
)
_HCL_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


def _hcl_unescape(match: re.Match) -> str:
    if match[4]:
        return match[4] + "{"
    if match[1] or match[2]:
        return chr(int(match[1] or match[2], 16))
    return _HCL_SIMPLE[match[3]]


def hcl_strings(text: str) -> tuple[list[str], list]:
    """Every quoted string of an HCL file as its text, by HCL's rules, from
    python-hcl2's parse tree (its own unescaping is not HCL's); and the
    interpolations in them."""
    texts, interpolations = [], []
    for node in hcl2.parses(text).iter_subtrees():
        if node.data != "string":
            continue
        pieces = []
        for part in node.children:
            for child in part.children:
                if isinstance(child, Token):
                    pieces.append(_HCL_ESCAPE.sub(_hcl_unescape, child.value))
                else:
                    interpolations.append(child)
        texts.append("".join(pieces))
    return texts, interpolations


def test_terraform_parses_and_keeps_the_text(design):
    text = EXPORT_FORMATS["terraform"].render(design)
    strings, interpolations = hcl_strings(text)
    assert {value for _, value in design.table.tags} <= set(strings)
    assert interpolations == []  # an on-demand table has no auto scaling
    lines = text.splitlines()
    assert lines[0].startswith("# Terraform for the DynamoDB table of the design")
    assert lines[1].startswith("# exported by")


def test_terraform_interpolates_only_its_own_references():
    base = hostile_design()
    hostile_index = dataclasses.replace(
        base.table.indexes[0], name='GSI1"${x}%{y}\\', capacity=d.Capacity(5, 5)
    )
    table = dataclasses.replace(
        base.table,
        billing_mode="PROVISIONED",
        capacity=d.Capacity(5, 5),
        indexes=(hostile_index, *base.table.indexes[1:]),
    )
    text = EXPORT_FORMATS["terraform"].render(dataclasses.replace(base, table=table))
    strings, interpolations = hcl_strings(text)
    assert any(s.endswith('/index/GSI1"${x}%{y}\\') for s in strings)
    assert interpolations  # the scaling targets refer to the table
    assert all(
        str(tree).count("aws_") or str(tree).count("var.") for tree in interpolations
    )
    cloudformation = EXPORT_FORMATS["cloudformation-yaml"].render(
        dataclasses.replace(base, table=table)
    )
    resources = yaml.safe_load(cloudformation)["Resources"]
    assert {"Fn::Sub": 'table/${Table}/index/GSI1"${!x}%{y}\\'} in [
        r["Properties"].get("ResourceId") for r in resources.values()
    ]


@pytest.mark.parametrize("name", ["cloudformation-yaml", "cloudformation-json"])
def test_cloudformation_passes_cfn_lint_and_keeps_the_text(design, name):
    text = EXPORT_FORMATS[name].render(design)
    document = yaml.safe_load(text) if name.endswith("yaml") else json.loads(text)
    tags = {
        t["Key"]: t["Value"]
        for t in document["Resources"]["Table"]["Properties"]["Tags"]
    }
    assert {k: tags[k] for k, _ in design.table.tags} == dict(design.table.tags)
    result = lint_template(text, suffix=".yaml" if name.endswith("yaml") else ".json")
    assert result.clean, (result.problem, result.findings)


@pytest.mark.parametrize("name", ["cli-json", "iam-policy", "nosql-workbench"])
def test_json_exports_load(design, name):
    json.loads(EXPORT_FORMATS[name].render(design))


def test_the_design_yaml_reads_back_the_same_text(design):
    text = EXPORT_FORMATS["yaml"].render(design)
    yaml.safe_load(text)  # no tag is honoured: a safe loader reads it
    # Text with NUL reads back as problems naming where (it cannot be stored).
    refused = read_design(text)
    assert refused.design is None
    assert {p.message for p in refused.problems if p.is_error} == {
        "contains a NUL character (\\0), which cannot be stored"
    }
    without_nul = hostile_design(tuple(t for t in HOSTILE if "\x00" not in t))
    again = read_design(EXPORT_FORMATS["yaml"].render(without_nul))
    assert again.design is not None, again.problems
    assert again.design.name == without_nul.name
    assert again.design.access_patterns == without_nul.access_patterns
    assert again.design.table.tags == without_nul.table.tags


def _hostile_names_design() -> d.Design:
    """Names a design file accepts that break a naive code generator:
    keywords, builtins and the module's own names as entities and
    attributes, attributes that collide once sanitised (userId, user_id,
    UserID), dots and dashes, entities differing only in case, index and
    key names with dunders, key literals and choice values with quotes,
    triple quotes, backslashes, newlines and non-ASCII, pattern names that
    are code."""
    literal = 'U"""\\#\'\n'

    def ph(name: str) -> str:
        return "{" + name + "}"

    def bothify(text: str) -> dict:
        return {
            "type": "S",
            "generator": {"faker": {"provider": "bothify", "text": text}},
        }

    data = {
        "format": "single-table-workbench/v1",
        "name": NAME,
        "table": {
            "name": "class",
            "partition_key": {"name": "PK", "type": "S"},
            "sort_key": {"name": "SK", "type": "S"},
            "indexes": [
                {
                    "name": "import.GSI-1",
                    "kind": "global",
                    "partition_key": {"name": "__class__", "type": "S"},
                    "sort_key": {"name": "x.y-z", "type": "S"},
                    "projection": {"type": "KEYS_ONLY"},
                }
            ],
        },
        "entities": {
            "Page": {
                "attributes": {
                    "userId": bothify("u####"),
                    "user_id": bothify("c##"),
                    "UserID": bothify("d##"),
                    "class": {"type": "N", "generator": {"int": {"min": 1, "max": 5}}},
                    "__import__": {
                        "type": "S",
                        "generator": {"choice": {'a"""b\\': 1, "x\\ny'": 1, "ñ€": 1}},
                    },
                    "client": {"type": "BOOL", "generator": {"bool": 0.5}},
                    "a.b-c": bothify("k##"),
                },
                "keys": {
                    "PK": literal + ph("userId"),
                    "SK": "PROFILE",
                    "__class__": "K#" + ph("__import__"),
                    "x.y-z": ph("a.b-c"),
                },
                "sample": {"count": 20},
            },
            "page": {
                "attributes": {
                    "userId": {"type": "S", "generator": {"ref": "Page.userId"}},
                    "class": {"type": "N", "generator": "sequence"},
                },
                "keys": {"PK": literal + ph("userId"), "SK": "C#{class:03d}"},
                "sample": {"per": "Page", "count": {"uniform": {"min": 1, "max": 3}}},
            },
            "None": {
                "attributes": {
                    "recognise": {"type": "S", "generator": {"faker": "name"}},
                    # A name every JavaScript object inherits.
                    "constructor": bothify("k##"),
                    "toString": {"type": "S", "generator": {"faker": "name"}},
                },
                "keys": {"PK": "Ü#" + ph("recognise"), "SK": "Ü"},
                "sample": {"count": 5},
            },
        },
        "access_patterns": [
            {
                "name": HOSTILE[0],
                "operation": "GetItem",
                "key": {"PK": literal + ph("userId"), "SK": "PROFILE"},
                "expects": {"entity": "Page", "where": {"userId": ph("userId")}},
            },
            {
                "name": HOSTILE[0] + "!",  # the same function name, sanitised
                "operation": "Query",
                "key": {"PK": literal + ph("userId"), "SK": {"begins_with": "C#"}},
                "expects": {
                    "entity": "page",
                    "where": {"userId": ph("userId")},
                    "order_by": ["class"],
                },
            },
            {
                "name": "import",
                "operation": "Query",
                "index": "import.GSI-1",
                "key": {"__class__": "K#" + ph("__import__")},
                "expects": {
                    "entity": "Page",
                    "where": {"__import__": ph("__import__")},
                },
            },
            {
                "name": HOSTILE[3] + " déjà vu",
                "operation": "Query",
                "key": {"PK": "Ü#" + ph("recognise"), "SK": "Ü"},
                "expects": {"entity": "None", "where": {"recognise": ph("recognise")}},
            },
        ],
    }
    result = read_design(yaml.safe_dump(data, allow_unicode=True, sort_keys=False))
    assert result.design is not None, result.problems
    return result.design


def test_hostile_names_stay_inert_in_the_access_module_and_its_tests(tmp_path):
    """The module and its generated tests parse, import without side
    effects, pass ruff and mypy --strict, keep every name apart and every
    literal exact, and their tests pass on the engine."""
    design = _hostile_names_design()
    generated = write_tests(design, tmp_path)
    assert len(generated.tested) == 4
    done = run_generated_tests(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "4 passed" in done.stdout
    assert check_with_tools(tmp_path) == []
    assert not (tmp_path / "PWNED").exists()
    module = load(tmp_path / "class_access.py")
    # Entities differing in case, keywords and the module's own names.
    assert {module.Page_.__name__, module.Page_2.__name__, module.None_.__name__} == {
        "Page_",
        "Page_2",
        "None_",
    }
    assert module.Page is not module.Page_  # the module's own Page class stays
    assert module.TABLE_NAME == "class"
    assert module.page_pk("u1") == 'U"""\\#\'\nu1'
    fields = set(module.Page_.__dataclass_fields__)
    assert {"user_id", "user_id_2", "user_id_3", "class_", "import_", "a_b_c"} <= fields


def test_hostile_text_stays_inert_in_the_access_module_and_its_tests(tmp_path):
    """The order-management example with hostile pattern names, key
    literals and choice values (NUL aside, which a YAML design cannot
    hold): its module and tests pass ruff's rules and mypy --strict, and its
    tests pass. (Literals this long get lines ruff's formatter would wrap
    differently: the format check is the examples' and problems'.)"""
    design = hostile_design(tuple(t for t in HOSTILE if "\x00" not in t))
    generated = write_tests(design, tmp_path)
    assert generated.tested
    done = run_generated_tests(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(generated.tested)} passed" in done.stdout
    assert check_with_tools(tmp_path, formatted=False) == []
    assert not (tmp_path / "PWNED").exists()


def test_hostile_names_and_text_stay_inert_in_the_typescript_and_library_files(
    tmp_path,
):
    """Both hostile designs' TypeScript module and tests pass tsc --strict
    and their tests pass against the endpoint; their ElectroDB and
    DynamoDB-Toolbox entities load and build the design's keys; nothing
    runs that the text says."""
    designs = [
        _hostile_names_design(),
        hostile_design(tuple(t for t in HOSTILE if "\x00" not in t)),
    ]
    made = [write_ts_tests(design, tmp_path) for design in designs]
    assert [len(m.tested) for m in made] == [4, len(made[1].tested)]
    compile_ts(tmp_path)
    for design, generated in zip(designs, made, strict=True):
        done = run_ts_tests(tmp_path, design)
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"# pass {len(generated.tested)}\n" in done.stdout
    script = tmp_path / KEYS_SCRIPT.name
    shutil.copyfile(KEYS_SCRIPT, script)
    for design in designs:
        cases = tmp_path / f"{design.table.name}.json"
        cases.write_text(json.dumps(key_cases(design)), encoding="utf-8")
        for library, maker in MAKERS.items():
            module = tmp_path / library_filename(design, library)
            module.write_text(maker(design).text, encoding="utf-8")
            done = run_node(script, str(module), library, str(cases), cwd=tmp_path)
            assert done.returncode == 0, done.stderr
            result = json.loads(done.stdout.splitlines()[-1])
            assert result["checked"] > 0 and result["differences"] == [], library
    assert not (tmp_path / "PWNED").exists()
    # The key text stays exact: the names design's Page key, rendered by the
    # compiled module.
    check = tmp_path / "out" / "check.js"
    check.write_text(
        'const m = require("./class-access");\n'
        'console.log(JSON.stringify(m.pagePK({ userId: "u1" })));\n',
        encoding="utf-8",
    )
    rendered = run_node(check, cwd=tmp_path)
    assert json.loads(rendered.stdout) == 'U"""\\#\'\nu1'
