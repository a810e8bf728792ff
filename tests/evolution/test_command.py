"""`manage.py plan_migration A B`: the plan printed, the script and the
stage files written, exit 1 when the plan cannot be proven; A and B as
design files or as revisions of a project."""

from __future__ import annotations

import dataclasses
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.designfile import dump_design
from modeler.evolution.script import script_namespace
from modeler.services import projects as project_services
from tests.evolution import revisions
from tests.evolution.revisions import smaller


def _files(tmp_path, before, after):
    a, b = tmp_path / "a.yaml", tmp_path / "b.yaml"
    a.write_text(dump_design(before))
    b.write_text(dump_design(after))
    return str(a), str(b)


def test_the_plan_of_two_files_is_printed_and_its_script_written(tmp_path):
    a, b = _files(
        tmp_path, smaller(revisions.original()), smaller(revisions.gsi_added())
    )
    out, err = io.StringIO(), io.StringIO()
    script = tmp_path / "migrate.py"
    call_command(
        "plan_migration",
        a,
        b,
        "--wcu-per-second",
        "50",
        "-o",
        str(script),
        "--iac-dir",
        str(tmp_path / "stages"),
        "--iac-format",
        "cloudformation",
        stdout=out,
        stderr=err,
    )
    text = out.getvalue()
    assert "Verdict: proven on the sample data" in text
    assert "[online table change] GSI GSI4 added" in text
    assert "UpdateTable: create GSI GSI4" in text
    assert "at 50 WCU/s" in text
    assert script_namespace(script.read_text())["PLAN"]["wcu_per_second"] == 50
    stages = sorted(p.name for p in (tmp_path / "stages").iterdir())
    assert stages == ["01-create-gsi-gsi4.yaml"]
    assert "GSI4" in (tmp_path / "stages" / stages[0]).read_text()


def test_a_plan_that_cannot_be_proven_exits_1_and_says_why(tmp_path):
    # Orders move to ORD# keys, but the pattern still reads ORDER#.
    after = revisions.sort_key_changed()
    pattern = next(
        p
        for p in after.access_patterns
        if p.name == "Orders of a customer, newest first"
    )
    old_pattern = next(
        p for p in revisions.original().access_patterns if p.name == pattern.name
    )
    patterns = tuple(
        old_pattern if p.name == pattern.name else p for p in after.access_patterns
    )
    after = dataclasses.replace(after, access_patterns=patterns)
    a, b = _files(tmp_path, smaller(revisions.original()), smaller(after))
    out = io.StringIO()
    with pytest.raises(CommandError) as raised:
        call_command("plan_migration", a, b, stdout=out, stderr=io.StringIO())
    assert raised.value.returncode == 1
    assert "not proven" in str(raised.value)
    assert "Orders of a customer, newest first" in str(raised.value)
    assert (
        "pattern Orders of a customer, newest first: fails: the key condition "
        "begins_with(SK, 'ORDER#') matches no Order item's key"
    ) in out.getvalue()


def test_a_resorted_index_prints_and_writes_the_proven_way_instead(tmp_path):
    a, b = _files(
        tmp_path,
        smaller(revisions.original(), 3),
        smaller(revisions.index_resorted(), 3),
    )
    out, err = io.StringIO(), io.StringIO()
    alternative = tmp_path / "next.yaml"
    with pytest.raises(CommandError) as raised:
        call_command(
            "plan_migration",
            a,
            b,
            "--alternative",
            str(alternative),
            stdout=out,
            stderr=err,
        )
    assert raised.value.returncode == 1
    assert "a proven way instead is printed above" in str(raised.value)
    assert "GSI GSI1 rebuilt beside itself as GSI4" in out.getvalue()
    assert f"Wrote the alternative next design to {alternative}" in err.getvalue()
    # The design written is the one to plan next: from A to it, proven.
    out = io.StringIO()
    call_command(
        "plan_migration", a, str(alternative), stdout=out, stderr=io.StringIO()
    )
    assert "Verdict: proven on the sample data" in out.getvalue()
    assert "UpdateTable: delete GSI GSI1" in out.getvalue()


def test_no_alternative_is_written_where_none_is_needed(tmp_path):
    a, b = _files(
        tmp_path, smaller(revisions.original(), 3), smaller(revisions.gsi_added(), 3)
    )
    err = io.StringIO()
    alternative = tmp_path / "next.yaml"
    call_command(
        "plan_migration",
        a,
        b,
        "--alternative",
        str(alternative),
        stdout=io.StringIO(),
        stderr=err,
    )
    assert (
        "No alternative design written: the plan is proven as it is" in err.getvalue()
    )
    assert not alternative.exists()


def test_bad_arguments_are_refused_clearly(tmp_path):
    a, b = _files(tmp_path, revisions.original(), revisions.original())
    with pytest.raises(CommandError, match="--wcu-per-second: give a rate above 0"):
        call_command("plan_migration", a, b, "--wcu-per-second", "0")
    with pytest.raises(CommandError, match="missing.yaml: no such file"):
        call_command("plan_migration", a, str(tmp_path / "missing.yaml"))


@pytest.mark.django_db
def test_revisions_of_a_project_are_planned_with_its_prices(owner):
    project = project_services.project_create(
        owner=owner, design=smaller(revisions.original())
    )
    project, problems = project_services.project_save_design(
        project=project,
        design=smaller(revisions.key_attribute_renamed()),
        version=project.version,
        author=owner,
    )
    assert project.version == 2, problems
    out = io.StringIO()
    call_command("plan_migration", f"{project.pk}@1", f"{project.pk}@2", stdout=out)
    text = out.getvalue()
    # Matched by identity: the rename is a rename, not a removal and an addition.
    assert "Customer.email renamed to emailAddress" in text
    assert "Customer: 15 items rewritten" in text
    assert "Verdict: proven on the sample data" in text
    with pytest.raises(CommandError, match="has no revision 7"):
        call_command("plan_migration", f"{project.pk}@1", f"{project.pk}@7")


@pytest.mark.django_db
def test_the_script_is_titled_by_what_was_given(owner, tmp_path):
    project = project_services.project_create(
        owner=owner, design=smaller(revisions.original(), 3)
    )
    project_services.project_save_design(
        project=project,
        design=smaller(revisions.index_made_sparse(), 3),
        version=project.version,
        author=owner,
    )
    script = tmp_path / "migrate.py"

    def title(*sources: str) -> str:
        call_command(
            "plan_migration", *sources, "-o", str(script), stdout=io.StringIO()
        )
        return script_namespace(script.read_text())["PLAN"]["title"]

    # Two revisions of a project as the Migration tab names them (its
    # script is then the tab's); not the designs' names, which are alike.
    assert title(f"{project.pk}@1", f"{project.pk}@2") == (
        f"Migrate {project.name} from revision 1 to 2"
    )
    a, b = _files(tmp_path, revisions.original(), revisions.original())
    assert title(a, f"{project.pk}@2") == f"Migrate a.yaml to {project.pk}@2"
