"""`manage.py plan_migration A B`: the migration from design A (deployed)
to design B, planned, scripted and proven on A's sample data; prints the
plan and exits 1 when it cannot be proven. A and B are design files (the
workbench's YAML, a Terraform configuration, a CloudFormation template,
a NoSQL Workbench model), a project (its current design) or a revision of
one as `PROJECT@N`. With `--table NAME` the deployed side is a live table
instead (`plan_migration --endpoint-url URL --table NAME B`): its
description and a sample of its items read as `import_table` reads them,
the entities inferred from the items, and the proof run on that sample."""

from __future__ import annotations

from argparse import ArgumentParser
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from modeler.design.model import Design
from modeler.designfile import dump_design
from modeler.evolution.deployed import (
    named_after,
    on_deployed_table,
    part_way_there,
    sample_alone,
)
from modeler.evolution.iac import FORMATS, iac_files
from modeler.evolution.plan import plan_migration, plan_text
from modeler.evolution.spec import PlanError
from modeler.importers.live import read_live_table, table_properties
from modeler.infra.dynamodb import (
    EndpointError,
    describe_live_table,
    make_client,
    sample_items,
)
from modeler.jobs.migration_proofs import migration_sides, migration_title
from modeler.management.commands.import_table import sample_size
from modeler.management.design_help import is_file_argument
from modeler.management.design_source import add_endpoint_arguments, load_design
from modeler.models import Project
from modeler.review.prices import Prices
from modeler.sampledata import SampleDataError
from modeler.selectors import project_cost_settings, revision_design, site_prices

SOURCE_HELP = (
    "a design file, a project's id or exact name (its current design), or "
    "PROJECT@N for revision N of a project"
)


def _project(name: str) -> Project:
    found = list(
        Project.objects.filter(pk=int(name))
        if name.isdigit()
        else Project.objects.filter(name=name)
    )
    if not found:
        raise CommandError(f"no project with id or name '{name}'")
    if len(found) > 1:
        ids = ", ".join(str(p.pk) for p in found)
        raise CommandError(
            f"{len(found)} projects are called '{name}' (ids {ids}); give the id"
        )
    return found[0]


def load_source(source: str) -> tuple[Design, Project | None]:
    """A design and the project it comes from (None for a file)."""
    if is_file_argument(source) or "@" not in source:
        design = load_design(source)
        if is_file_argument(source):
            return design, None
        return design, _project(source)
    name, _, number = source.rpartition("@")
    if not number.isdigit():
        raise CommandError(
            f"{source}: a revision is PROJECT@N with N a revision number"
        )
    project = _project(name)
    design = revision_design(project=project, number=int(number))
    if design is None:
        raise CommandError(
            f"{source}: project '{project.name}' has no revision {number}"
        )
    return design, project


@dataclass(frozen=True)
class LiveSide:
    """The deployed side read from a live table."""

    design: Design
    notes: list[str]
    # The settings the endpoint did not report, with why.
    unread: dict[str, str]
    # Items read, and the table's count as DescribeTable gives it (updated
    # by DynamoDB about every six hours).
    read: int
    item_count: int
    # How many of the items read have each attribute.
    holding: dict[str, int]


def live_design(
    table: str, *, endpoint_url: str, region: str, sample: int, segments: int = 4
) -> LiveSide:
    """The design of a live table, as `import_table` reads it (DescribeTable
    for the keys and indexes, a parallel Scan of at most `sample` items for
    the entities), with every item read as its own and as all its sample
    data (it is no project's, whose own items are few): the proof runs on
    them alone. With it, what the reading noted, and the settings the
    endpoint did not report (with why), which the plan must not take as
    off."""
    try:
        client = make_client(endpoint_url=endpoint_url, region=region)
        live = describe_live_table(client, table)
        found = sample_items(client, table, sample=sample, segments=segments)
    except EndpointError as exc:
        raise CommandError(f"{table}: {exc}") from None
    result = read_live_table(
        table_properties(
            live.description, ttl=live.ttl, backups=live.backups, tags=live.tags
        ),
        found.items,
        keep=sample,
        notes=[f"read {len(found.items):,} items in {found.pages} pages"] + live.notes,
        replicas=live.replicas,
        scaling=live.scaling,
    )
    (imported,) = result.tables
    if not result.ok:
        problems = "; ".join(
            f"{p.path}: {p.message}" for p in imported.problems if p.is_error
        )
        raise CommandError(f"{table}: the live table cannot be read: {problems}")
    return LiveSide(
        sample_alone(result.designs[0]),
        list(imported.notes),
        dict(live.unread),
        len(found.items),
        int(live.description.get("ItemCount") or 0),
        dict(Counter(name for item in found.items for name in item)),
    )


def _named(designs: list[str], table: str) -> tuple[str, tuple[str, str]]:
    """The migration's title (its script's) and its two sides as the plan
    names them when it cannot be made, from the arguments as given: two
    revisions of one project as the web app's Migration tab names them (its
    script is then the tab's), else each source by its name."""
    if not table:
        first, second = (_revision(source) for source in designs)
        if first and second and first[0].pk == second[0].pk:
            return (
                migration_title(first[0], first[1], second[1]),
                migration_sides(first[1], second[1]),
            )
    names = [f"table {table}"] if table else []
    names += [
        Path(source).name if is_file_argument(source) else source for source in designs
    ]
    return f"Migrate {names[0]} to {names[1]}", (names[0], names[1])


def _revision(source: str) -> tuple[Project, int] | None:
    if is_file_argument(source) or "@" not in source:
        return None
    name, _, number = source.rpartition("@")
    return _project(name), int(number)


class Command(BaseCommand):
    help = (
        "Plan the migration of a DynamoDB table from design A (deployed) to design "
        "B: every change classified, the steps in order with their costs, the item "
        "rewrite as a script, proven on A's sample data. Exits 1 when the plan "
        "cannot be proven."
    )
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "designs",
            nargs="+",
            metavar="A B",
            help="A, the deployed design (left out with --table), then B, the "
            "next one; each " + SOURCE_HELP,
        )
        parser.add_argument(
            "--table",
            default="",
            help="the deployed side is this live table (at --endpoint-url), not A",
        )
        add_endpoint_arguments(parser)
        parser.add_argument(
            "--sample",
            type=sample_size,
            default=1_000,
            help="with --table: the items to read by Scan to learn its entities "
            "and to prove the migration on (default 1,000)",
        )
        parser.add_argument(
            "--wcu-per-second",
            type=float,
            default=1000.0,
            help="the write rate the rewrite and backfills run at (default: 1000)",
        )
        parser.add_argument(
            "--stored-items",
            type=int,
            default=None,
            help="items in the live table, to scale the sample's figures to "
            "(default: the project's cost settings; with --table, the table's "
            "ItemCount when it holds more than were read; else the sample's "
            "count)",
        )
        parser.add_argument(
            "-o", "--output", default=None, help="write the migration script here"
        )
        parser.add_argument(
            "--iac-dir",
            default=None,
            help="write the table changes here, one file per stage, in order",
        )
        parser.add_argument(
            "--iac-format",
            choices=sorted(FORMATS),
            default="terraform",
            help="the format of --iac-dir's files (default: terraform)",
        )
        parser.add_argument(
            "--alternative",
            default=None,
            metavar="FILE",
            help="when the plan is not proven but one with an index rebuilt "
            "beside itself is, write that next design here (a design file; plan "
            "A and it for its script and stages)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        designs, table = options["designs"], options["table"]
        if len(designs) != (1 if table else 2):
            raise CommandError(
                "give the next design B alone with --table (the live table is A)"
                if table
                else "give two designs: A (deployed) and B (next), or --table "
                "NAME and B"
            )
        unread: dict[str, str] = {}
        live = None
        if table:
            live = live_design(
                table,
                endpoint_url=options["endpoint_url"],
                region=options["region"],
                sample=options["sample"],
            )
            before, unread = live.design, live.unread
            for note in live.notes:
                self.stderr.write(f"{table}: note: {note}")
        else:
            before, _ = load_source(designs[0])
        after, project = load_source(designs[-1])
        if live is not None:
            part_way = part_way_there(before, after, live.holding, live.read)
            if part_way:
                raise CommandError(f"{table}: {part_way}")
            before = named_after(before, after)
        try:
            before, note = on_deployed_table(before, after)
        except PlanError as exc:
            raise CommandError(f"the migration cannot be planned: {exc}") from None
        if note:
            self.stderr.write(f"Note: {note}")
        prices: Prices = site_prices()
        stored = options["stored_items"]
        if project is not None:
            settings = project_cost_settings(project=project)
            prices = settings.prices
            stored = stored if stored is not None else settings.stored_items
        if stored is None and live is not None and live.item_count > live.read:
            # A sample of a larger table: its figures scaled to the table.
            stored = live.item_count
            self.stderr.write(
                f"{table}: note: figures scaled from the {live.read:,} items read "
                f"to the table's {stored:,} (its ItemCount; --stored-items to "
                "give another count)"
            )
        if options["wcu_per_second"] <= 0:
            raise CommandError("--wcu-per-second: give a rate above 0")
        if stored is not None and stored < 1:
            raise CommandError("--stored-items: give a count of 1 or more")
        title, sides = _named(designs, table)
        try:
            plan = plan_migration(
                before,
                after,
                prices=prices,
                wcu_per_second=options["wcu_per_second"],
                stored_items=stored,
                unread=unread,
                title=title,
                sides=sides,
            )
        except (PlanError, SampleDataError) as exc:
            raise CommandError(f"the migration cannot be planned: {exc}") from None
        self.stdout.write(plan_text(plan), ending="")
        if options["output"]:
            Path(options["output"]).write_text(plan.script, encoding="utf-8")
            self.stderr.write(f"Wrote the migration script to {options['output']}")
        if options["iac_dir"]:
            directory = Path(options["iac_dir"])
            files = iac_files(before, after, options["iac_format"])
            if files:
                directory.mkdir(parents=True, exist_ok=True)
            for name, text in files:
                (directory / name).write_text(text, encoding="utf-8")
            self.stderr.write(
                f"Wrote {len(files)} stage file(s) to {directory}"
                if files
                else "No table change: no stage file written"
            )
        if options["alternative"]:
            if plan.alternative is None:
                self.stderr.write(
                    "No alternative design written: "
                    + (
                        "the plan is proven as it is"
                        if plan.proven
                        else "no index rebuilt beside itself makes it proven"
                    )
                )
            else:
                Path(options["alternative"]).write_text(
                    dump_design(plan.alternative.after), encoding="utf-8"
                )
                self.stderr.write(
                    f"Wrote the alternative next design to {options['alternative']}"
                )
        if not plan.proven:
            instead = (
                "; a proven way instead is printed above (--alternative FILE "
                "writes its design)"
                if plan.alternative is not None
                else ""
            )
            raise CommandError(
                f"the migration is {plan.verdict}{instead}", returncode=1
            )
