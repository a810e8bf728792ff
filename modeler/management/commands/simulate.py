"""`manage.py simulate DESIGN [--seed N] [--json]`: run every access pattern
against the design's sample data; exit 1 if any expectation fails."""

from __future__ import annotations

import base64
import json as jsonlib
from typing import Any

from botocore.exceptions import ClientError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from modeler.engine.types import item_to_json_wire, to_json_wire
from modeler.management.collector import collector_off_while_built, heap_frozen
from modeler.management.design_source import add_design_arguments, load_design
from modeler.management.process_end import end_quickly
from modeler.sampledata import SampleDataError
from modeler.simulation import PatternRun, Simulation


def run_summary(run: PatternRun, key_names: tuple[str, ...]) -> dict:
    """One pattern's result as JSON-ready data."""
    return {
        "pattern": run.pattern.name,
        "operation": run.pattern.operation,
        "parameters": {k: to_json_wire(v) for k, v in run.parameters.items()},
        "requests": [c.request for c in run.calls],
        "cli": [c.cli for c in run.calls],
        "count": run.count,
        "scanned_count": run.scanned_count,
        "pages": run.pages,
        "last_evaluated_key": run.last_evaluated_key,
        "consumed_capacity": {
            "read_units": run.capacity.read,
            "write_units": run.capacity.write,
            "by_index": run.capacity.by_index,
        },
        "item_keys": [
            item_to_json_wire({k: item[k] for k in item if k in key_names})
            for item in run.items
        ],
        "verdict": "pass" if run.passed else "fail",
        "reasons": list(run.verdict.reasons),
        "draws": run.draws,
        "transition": run.transition,
        "failed_draw": (
            {
                "kind": run.failed_draw.kind,
                "parameters": {
                    k: to_json_wire(v) for k, v in run.failed_draw.parameters.items()
                },
                "reasons": list(run.failed_draw.verdict.broken),
            }
            if run.failed_draw is not None
            else None
        ),
    }


class Command(BaseCommand):
    # Reads a design and prints: Django's system checks (the URL
    # configuration imported to check it) would add half a second to every run.
    requires_system_checks: list[str] = []
    help = (
        "Run every access pattern against the design's sample data and "
        "report what it returns and costs; exits 1 if any expectation fails."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        add_design_arguments(parser, seed=True)
        parser.add_argument(
            "--json",
            action="store_true",
            help="print one JSON document with every result",
        )

    def handle(
        self, *args: Any, design: str, seed: int | None, json: bool, **options: Any
    ) -> None:
        loaded = load_design(design)
        try:
            with collector_off_while_built():
                simulation = Simulation(loaded, seed=seed, keep=False)
        except SampleDataError as exc:
            raise CommandError(f"{design}: {exc}", returncode=1) from None
        except ClientError as exc:
            # An item DynamoDB would refuse (a generated key past its size
            # limit): the engine's message, as check_design reports it.
            raise CommandError(
                f"{design}: the sample data cannot be loaded: "
                f"{exc.response['Error']['Message']}",
                returncode=1,
            ) from None
        end_quickly()  # the simulation is not freed object by object
        with heap_frozen():
            runs = simulation.run_all()
        failed = [r for r in runs if not r.passed]
        if json:
            self.stdout.write(
                _dumps(
                    {
                        "design": loaded.name,
                        "seed": simulation.seed,
                        "items": len(simulation.items),
                        "patterns": [
                            run_summary(r, simulation.key_names) for r in runs
                        ],
                    }
                )
            )
        else:
            self.stdout.write(
                f"{loaded.name}: {len(simulation.items):,} sample "
                f"items (seed {simulation.seed})"
            )
            for run in runs:
                self.stdout.write(_line(run))
            if not runs:
                self.stdout.write(
                    "No access patterns to simulate: list the reads and writes "
                    "the application makes (access_patterns in the design file)."
                )
        if failed:
            raise CommandError(
                f"{len(failed)} of {len(runs)} access patterns fail: "
                + ", ".join(r.pattern.name for r in failed),
                returncode=1,
            )


def _line(run: PatternRun) -> str:
    mark = "PASS" if run.passed else "FAIL"
    units = (
        f"{run.capacity.write:g} WCU"
        if not run.pattern.is_read
        else f"{run.capacity.read:g} RCU"
    )
    text = (
        f"{mark}  {run.pattern.name} [{run.pattern.operation_label}"
        f"{' on ' + run.pattern.index if run.pattern.index != 'table' else ''}]"
        f"  Count {run.count}, ScannedCount {run.scanned_count}, "
        f"{run.pages} page{'s' * (run.pages != 1)}, {units}"
        + (f", {run.draws} more draw{'s' * (run.draws != 1)}" if run.draws else "")
        + (f", costed on {run.transition}" if run.transition else "")
    )
    if not run.verdict.passed or run.error:
        text += "\n      " + "\n      ".join(run.verdict.reasons)
    elif run.failed_draw is not None:
        draw = run.failed_draw
        drawn = ", ".join(f"{k}={v}" for k, v in draw.parameters.items())
        lines = [*draw.verdict.broken]
        for label, keys in (
            ("missing", draw.verdict.missing),
            ("not promised", draw.verdict.extra),
        ):
            lines += [f"{label}: " + " / ".join(map(str, k)) for k in keys]
        text += f"\n      fails on a {draw.kind} draw ({drawn}):\n      " + (
            "\n      ".join(lines)
        )
    return text


def _dumps(data: dict) -> str:
    return jsonlib.dumps(data, indent=2, default=_binary_as_base64)


def _binary_as_base64(value: Any) -> str:
    """Binary values in requests and LastEvaluatedKey, as the AWS CLI
    writes them."""
    if isinstance(value, bytes):
        return base64.b64encode(value).decode()
    raise TypeError(f"{type(value).__name__} is not JSON serializable")
