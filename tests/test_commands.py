"""The management commands around design files: check_design, import_design,
export_design and load_examples."""

from __future__ import annotations

import dataclasses
import io
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler import selectors
from modeler.design.model import Design
from modeler.designfile import read_design
from modeler.examples import EXAMPLES_DIR
from modeler.models import Membership, Project, Revision, Role
from modeler.services import members as member_services
from modeler.services import projects as project_services

EXAMPLES = sorted(EXAMPLES_DIR.glob("*.yaml"))
ORDER_FILE = EXAMPLES_DIR / "order-management.yaml"
# Line 67 of the example: the sort key of Order.
BROKEN_TEXT = ORDER_FILE.read_text().replace(
    'SK: "ORDER#{orderDate}#{orderId}"', 'SK: "ORDER#{orderDat}#{orderId}"', 1
)
BROKEN_PROBLEM = (
    ":67: error: entities.Order.keys.SK: unknown attribute 'orderDat' at column 7; "
    "did you mean 'orderDate'?"
)


def _run(*args: str) -> tuple[str, str]:
    stdout, stderr = io.StringIO(), io.StringIO()
    call_command(*args, stdout=stdout, stderr=stderr)
    return stdout.getvalue(), stderr.getvalue()


@pytest.fixture(scope="module")
def order_design() -> Design:
    design = read_design(ORDER_FILE.read_bytes()).design
    assert design is not None
    return design


@pytest.fixture
def broken_file(tmp_path: Path) -> Path:
    path = tmp_path / "broken.yaml"
    path.write_text(BROKEN_TEXT)
    return path


# --- check_design -----------------------------------------------------------------


def test_there_are_three_examples():
    assert [p.name for p in EXAMPLES] == [
        "device-telemetry.yaml",
        "order-management.yaml",
        "social-graph.yaml",
    ]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_check_design_accepts_each_example(path):
    stdout, _ = _run("check_design", str(path))

    name = read_design(path.read_bytes()).design.name
    assert stdout.splitlines()[-1].startswith(f"{path}: {name}: no errors (0 errors, ")


def test_check_design_prints_each_problem_with_its_line_and_path(broken_file):
    stdout = io.StringIO()

    with pytest.raises(CommandError) as raised:
        call_command("check_design", str(broken_file), stdout=stdout)

    assert raised.value.returncode == 1
    assert str(raised.value) == f"{broken_file}: 1 error, 0 other problems"
    assert stdout.getvalue() == f"{broken_file}{BROKEN_PROBLEM}\n"


def test_check_design_of_a_missing_file(tmp_path):
    missing = tmp_path / "missing.yaml"

    with pytest.raises(CommandError) as raised:
        _run("check_design", str(missing))

    assert raised.value.returncode == 1
    assert str(raised.value) == f"{missing}: no such file"


def test_check_design_refuses_sample_data_past_its_bytes(tmp_path):
    from tests.test_limits import blobs_text

    path = tmp_path / "blobs.yaml"
    path.write_text(blobs_text(100_000))
    stdout = io.StringIO()

    with pytest.raises(CommandError) as raised:
        call_command("check_design", str(path), stdout=stdout)

    assert raised.value.returncode == 1
    assert stdout.getvalue() == (
        f"{path}:10: error: entities.Doc.sample.count: Doc's 100,000 items of "
        "about 389,151 bytes each would make the sample data about 38,915,100,000 "
        "bytes; this workbench allows at most 250,000,000 bytes (setting "
        "SAMPLE_MAX_BYTES)\n"
    )


def test_check_design_refuses_an_oversized_file(settings):
    settings.DESIGN_FILE_MAX_BYTES = 100
    stdout = io.StringIO()

    with pytest.raises(CommandError) as raised:
        call_command("check_design", str(ORDER_FILE), stdout=stdout)

    assert raised.value.returncode == 1
    assert stdout.getvalue() == (
        f"{ORDER_FILE}: error: file: the file is 101 bytes; design files are "
        "limited to 100 bytes\n"
    )


def test_check_design_reads_stdin(monkeypatch):
    monkeypatch.setattr(
        sys, "stdin", io.TextIOWrapper(io.BytesIO(ORDER_FILE.read_bytes()))
    )

    stdout, _ = _run("check_design", "-")

    assert stdout.splitlines()[-1].startswith("-: Order management: no errors")


def test_check_design_exits_1_on_an_error():
    """The one test through a real process: CI relies on the exit code."""
    process = subprocess.run(
        [sys.executable, "manage.py", "check_design", "-"],
        input=BROKEN_TEXT.encode(),
        capture_output=True,
        cwd=EXAMPLES_DIR.parent,
        timeout=60,
        check=False,
    )

    assert process.returncode == 1
    assert process.stdout.decode() == f"-{BROKEN_PROBLEM}\n"
    assert process.stderr.decode() == "CommandError: -: 1 error, 0 other problems\n"


# --- import_design ----------------------------------------------------------------


def test_import_design_creates_a_project_for_the_owner(owner, order_design):
    stdout, _ = _run("import_design", str(ORDER_FILE), "--owner", "owner")

    project = Project.objects.get()
    assert project.owner == owner
    assert selectors.project_design(project=project) == order_design
    assert stdout == (
        f"Imported {ORDER_FILE} as project {project.pk} “Order management” "
        "owned by owner\n"
    )


def test_import_design_under_another_name(owner, order_design):
    _run("import_design", str(ORDER_FILE), "--owner", "owner", "--project", "Shop")

    design = selectors.project_design(project=Project.objects.get())
    assert design.name == "Shop"
    assert design.entities == order_design.entities


def test_import_design_for_an_unknown_owner_creates_nothing(owner):
    with pytest.raises(CommandError, match="no user is called 'nobody'"):
        _run("import_design", str(ORDER_FILE), "--owner", "nobody")

    assert not Project.objects.exists()


def test_import_design_of_a_file_with_errors_creates_nothing(owner, broken_file):
    stderr = io.StringIO()

    with pytest.raises(CommandError) as raised:
        call_command(
            "import_design", str(broken_file), "--owner", "owner", stderr=stderr
        )

    assert raised.value.returncode == 1
    assert str(raised.value) == f"{broken_file}: not imported; fix the errors above"
    assert stderr.getvalue() == f"{broken_file}{BROKEN_PROBLEM}\n"
    assert not Project.objects.exists()


# --- export_design ----------------------------------------------------------------


@pytest.fixture
def project(owner: User, order_design: Design) -> Project:
    return project_services.project_create(owner=owner, design=order_design)


@pytest.mark.parametrize("by", ["id", "name"])
def test_export_design_prints_the_yaml(project, order_design, by):
    stdout, _ = _run("export_design", str(project.pk) if by == "id" else project.name)

    result = read_design(stdout)
    assert result.problems == ()
    assert result.design == order_design


def test_export_design_of_an_ambiguous_name_lists_the_ids(project, owner, order_design):
    twin = project_services.project_create(owner=owner, design=order_design)

    with pytest.raises(CommandError) as raised:
        _run("export_design", "Order management")

    assert str(raised.value) == (
        f"2 projects are called 'Order management' (ids {project.pk}, {twin.pk}); "
        "give the id"
    )


@pytest.mark.parametrize("argument", ["Nope", "999"])
def test_export_design_of_an_unknown_project(project, argument):
    with pytest.raises(CommandError, match=f"'{argument}'"):
        _run("export_design", argument)


def test_export_design_into_a_missing_folder_names_the_file(project, tmp_path):
    path = tmp_path / "no-such-folder" / "exported.yaml"

    with pytest.raises(
        CommandError, match="no-such-folder/exported.yaml: No such file"
    ):
        _run("export_design", str(project.pk), "-o", str(path))

    assert not path.parent.exists()


def test_export_design_to_a_file_that_checks_and_imports_again(
    project, order_design, tmp_path
):
    path = tmp_path / "exported.yaml"

    stdout, stderr = _run("export_design", str(project.pk), "-o", str(path))

    assert (stdout, stderr) == ("", f"Wrote {path}\n")
    check_output, _ = _run("check_design", str(path))
    assert "Order management: no errors" in check_output

    _run("import_design", str(path), "--owner", "owner", "--project", "Copy")
    copy = Project.objects.get(name="Copy")
    design = selectors.project_design(project=copy)
    assert design == dataclasses.replace(order_design, name="Copy")


# --- load_examples ----------------------------------------------------------------


@pytest.fixture
def debug(settings, tmp_path):
    """DEBUG on, and the demo password kept under tmp_path, not in var/."""
    settings.DEBUG = True
    settings.BASE_DIR = tmp_path


def _password(stdout: str) -> str:
    last = stdout.splitlines()[-1]
    assert last.startswith("Log in as 'demo' with password '")
    return last.split("'")[3]


def test_load_examples_creates_the_demo_account_and_projects(db, debug, tmp_path):
    stdout, _ = _run("load_examples")

    demo = User.objects.get(username="demo")
    names = list(Project.objects.filter(owner=demo).values_list("name", flat=True))
    assert names == ["Device telemetry", "Order management", "Social graph"]
    assert stdout.startswith(
        "Loaded: Device telemetry, Order management, Social graph\n"
    )
    password = _password(stdout)
    assert demo.check_password(password)
    assert (tmp_path / "var" / "demo-password").read_text() == password


def test_load_examples_again_keeps_ids_edits_and_members(db, debug):
    """`make run` loads the examples on every start: a restart must not
    change their ids (shared links) nor lose edits and members."""
    first, _ = _run("load_examples")
    demo = User.objects.get(username="demo")
    order = Project.objects.get(owner=demo, name="Order management")
    colleague = User.objects.create_user("colleague")
    member_services.membership_set(project=order, user=colleague, role=Role.EDITOR)
    edited = selectors.project_design(project=order)
    edited = replace(edited, description="Edited by the team.")
    project_services.project_save_design(
        project=order, design=edited, version=order.version, author=demo
    )
    project_services.project_create(
        owner=demo, design=project_services.new_design(name="My own")
    )
    ids = set(Project.objects.values_list("pk", flat=True))

    second, _ = _run("load_examples")

    assert _password(second) == _password(first)
    assert "Kept as they are: Device telemetry, Order management, Social graph" in (
        second
    )
    assert set(Project.objects.values_list("pk", flat=True)) == ids
    order.refresh_from_db()
    assert selectors.project_design(project=order).description == (
        "Edited by the team."
    )
    assert Membership.objects.filter(project=order, user=colleague).exists()
    assert User.objects.count() == 2


def test_load_examples_reset_restores_the_designs_as_a_revision(db, debug):
    _run("load_examples")
    demo = User.objects.get(username="demo")
    order = Project.objects.get(owner=demo, name="Order management")
    original = selectors.project_design(project=order)
    project_services.project_save_design(
        project=order,
        design=replace(original, description="Edited."),
        version=order.version,
        author=demo,
    )
    Project.objects.filter(owner=demo, name="Social graph").delete()

    stdout, _ = _run("load_examples", "--reset")

    assert "Loaded: Social graph" in stdout
    assert "Restored: Order management" in stdout
    assert "Kept as they are: Device telemetry" in stdout
    order.refresh_from_db()
    assert selectors.project_design(project=order) == original
    assert list(
        Revision.objects.filter(project=order)
        .order_by("number")
        .values_list("kind", "summary")
    )[-1] == (Revision.Kind.RESTORE, "restored the example design")
    assert order.version == 3  # created, edited, restored: nothing destroyed


def test_load_examples_refuses_without_debug(db, settings):
    settings.DEBUG = False

    with pytest.raises(CommandError, match="only runs with DEBUG on"):
        _run("load_examples")

    assert not User.objects.exists()
    assert not Project.objects.exists()
