"""The item rewrite that a migration's script runs, written against boto3's
low-level DynamoDB client and the standard library only.

This module is both imported (by the proof, which runs it on the engine's
client) and copied into the generated script (`modeler.evolution.script`)
after `modeler.evolution.rewriting`, which is all it imports of the
workbench; the script adds the plan as data and a command line. Every name
it reads from a design arrives as data (the spec), never as code.

The spec says, per entity of the old design, how its table keys render
(to recognise its items: an item is an entity's when the entity's table key
templates, rendered from the item's own attributes, give the item's keys)
and which items of the new design it becomes: attributes renamed,
retyped, carried or dropped, and keys rendered from the new templates (an
index key only while its sparse condition holds).

An item already in the new shape is recognised as such and left alone, and
every write is guarded, so a run that is stopped and started again, or run
twice, ends with the same table:
- an item whose table key stays is updated in place, on condition that the
  attributes it changes and those its keys are computed from still hold
  what was read (a concurrent write of the application wins; the item is
  read again and retried);
- an item whose table key changes, a new item split off and every copy to a
  new table are put on condition `attribute_not_exists` of the partition key
  (a rerun never doubles or clobbers); the old item is deleted only after
  its replacement is written, so a stop between the two leaves both, and
  the rerun finds the replacement there and deletes the old one.

The run has two phases, since the application of the dual-write step still
reads and writes as the old design does until the final deploy:
- the rewrite (the default) only adds: new items, new attributes and keys,
  an attribute renamed is copied under its new name; the old items, the
  old attributes and the items of an entity removed all stay;
- the cleanup (`--cleanup`, after the application of the new design is
  deployed) removes them: the old item of a key that moved, the items of
  an entity removed, the attributes renamed, moved or dropped. It makes
  the rewrite's writes too where they are missing, so it ends in the new
  design's table whatever ran before it.
A checkpoint file records each Scan segment's LastEvaluatedKey after each
page it finished, so a resumed run starts where the last one stopped.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

from modeler.evolution.rewriting import (  # the script carries it above
    MigrationError,
    _natives,
    holds,
    keys_of,
    old_typed,
    recognise,
    render_key,
    renders_own_keys,
    retyped_item,
    rewritten,
)

# A page finished and checkpointed: the checkpoint is written after each.
PAGE_SIZE = 100
RETRIES = 3


# --- Running --------------------------------------------------------------------


class RateLimit:
    """At most `per_second` write units a second on average (0: no limit),
    measured from the units DynamoDB says each write consumed."""

    def __init__(
        self,
        per_second: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.per_second = per_second
        self.clock, self.sleep = clock, sleep
        self.lock = threading.Lock()
        self.start = clock()
        self.spent = 0.0

    def spend(self, units: float) -> None:
        if self.per_second <= 0:
            return
        with self.lock:
            self.spent += units
            ahead = self.spent / self.per_second - (self.clock() - self.start)
        if ahead > 0:
            self.sleep(ahead)


class Checkpoint:
    """Each segment's position, written to a file after every page (atomic:
    a new file replaces the old), so a run resumes where one stopped."""

    def __init__(
        self, path: str | None, segments: int, fingerprint: str, phase: str
    ) -> None:
        self.path, self.lock = path, threading.Lock()
        self.state: dict[str, Any] = {
            "plan": fingerprint,
            "phase": phase,
            "segments": {
                str(s): {"done": False, "start": None} for s in range(segments)
            },
        }
        if path and os.path.exists(path):
            with open(path, encoding="utf-8") as file:
                saved = json.load(file)
            if saved.get("plan") != fingerprint:
                raise MigrationError(
                    f"checkpoint {path} belongs to another plan; remove it to "
                    "start over"
                )
            if saved.get("phase", "rewrite") != phase:
                raise MigrationError(
                    f"checkpoint {path} is of the {saved.get('phase', 'rewrite')} "
                    f"run; give the {phase} run its own --checkpoint"
                )
            if len(saved["segments"]) != segments:
                raise MigrationError(
                    f"checkpoint {path} was written with "
                    f"{len(saved['segments'])} segments; run with --segments "
                    f"{len(saved['segments'])}"
                )
            self.state = saved

    def segment(self, segment: int) -> dict[str, Any]:
        return self.state["segments"][str(segment)]

    def save(self, segment: int, start: Any, done: bool) -> None:
        with self.lock:
            self.state["segments"][str(segment)] = {"done": done, "start": start}
            if not self.path:
                return
            temporary = self.path + ".tmp"
            with open(temporary, "w", encoding="utf-8") as file:
                json.dump(self.state, file, default=_json_default)
            os.replace(temporary, self.path)


def _json_default(value: Any) -> Any:
    if isinstance(value, bytes):
        return {"__bytes__": list(value)}
    raise TypeError(type(value).__name__)


def _from_json(value: Any) -> Any:
    if isinstance(value, dict):
        if set(value) == {"__bytes__"}:
            return bytes(value["__bytes__"])
        return {k: _from_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


class Tally:
    """What a run did, counted under a lock (segments run in threads)."""

    FIELDS = (
        "scanned",
        "migrated",
        "already",
        "unchanged",
        "written",
        "deleted",
        "held",
        "conflicts",
        "unknown",
        "failed",
    )

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.counts = dict.fromkeys(self.FIELDS, 0)
        self.write_units = 0.0
        self.read_units = 0.0
        self.by_entity: dict[str, int] = {}
        self.errors: list[str] = []

    def add(self, field: str, amount: int = 1) -> None:
        with self.lock:
            self.counts[field] += amount

    def line(self) -> str:
        c = self.counts
        return (
            f"scanned {c['scanned']:,}, rewritten {c['migrated']:,}, "
            f"already done {c['already'] + c['unchanged']:,}, writes {c['written']:,}, "
            f"deletes {c['deleted']:,}, held for the cleanup {c['held']:,}, "
            f"unrecognised {c['unknown']:,}, "
            f"failed {c['failed']:,}; {self.write_units:,.1f} WCU, "
            f"{self.read_units:,.1f} RCU"
        )


def _units(response: dict[str, Any]) -> float:
    consumed = response.get("ConsumedCapacity") or {}
    return float(consumed.get("CapacityUnits", 0) or 0)


class Migration:
    """One run of the plan's item rewrite against a boto3-like client."""

    def __init__(
        self,
        spec: dict[str, Any],
        client: Any,
        *,
        segments: int = 4,
        workers: int | None = None,
        wcu_per_second: float = 0.0,
        checkpoint: str | None = None,
        dry_run: bool = False,
        progress: Callable[[str], None] | None = None,
        rate: RateLimit | None = None,
        cleanup: bool = False,
    ) -> None:
        self.spec, self.client = spec, client
        self.cleanup = cleanup
        self.segments = segments
        self.workers = workers or segments
        self.rate = rate or RateLimit(wcu_per_second)
        self.checkpoint = Checkpoint(
            checkpoint,
            segments,
            spec["fingerprint"],
            "cleanup" if cleanup else "rewrite",
        )
        self.dry_run = dry_run
        self.progress = progress
        self.tally = Tally()
        self.total = 0
        self._target_retypes = {
            e["name"]: e.get("retypes", []) for e in spec["target_entities"]
        }

    # The source's partition (and sort) key, the guard of every put.
    def _absent_guard(self) -> dict[str, Any]:
        return {
            "ConditionExpression": "attribute_not_exists(#k)",
            "ExpressionAttributeNames": {"#k": self.spec["target_keys"][0]},
        }

    def run(self) -> Tally:
        try:
            described = self.client.describe_table(TableName=self.spec["source_table"])
            self.total = int(described["Table"].get("ItemCount", 0) or 0)
        except Exception:  # a count for the progress line only
            self.total = 0
        pending = [
            s for s in range(self.segments) if not self.checkpoint.segment(s)["done"]
        ]
        if self.workers <= 1:
            for segment in pending:
                self._segment(segment)
        else:
            failures: list[BaseException] = []

            def work(segment: int) -> None:
                try:
                    self._segment(segment)
                except BaseException as exc:  # rethrown below
                    failures.append(exc)

            for start in range(0, len(pending), self.workers):
                threads = [
                    threading.Thread(target=work, args=(s,))
                    for s in pending[start : start + self.workers]
                ]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                if failures:
                    raise failures[0]
        self._report(final=True)
        return self.tally

    def _segment(self, segment: int) -> None:
        start = self.checkpoint.segment(segment)["start"]
        while True:
            request: dict[str, Any] = {
                "TableName": self.spec["source_table"],
                "Segment": segment,
                "TotalSegments": self.segments,
                "Limit": PAGE_SIZE,
                "ReturnConsumedCapacity": "TOTAL",
            }
            if start is not None:
                request["ExclusiveStartKey"] = _from_json(start)
            page = self.client.scan(**request)
            with self.tally.lock:
                self.tally.read_units += _units(page)
            for item in page.get("Items", []):
                self._item(item)
            start = page.get("LastEvaluatedKey")
            done = start is None
            if not self.dry_run:
                self.checkpoint.save(segment, start, done)
            self._report()
            if done:
                return

    def _item(self, item: dict[str, Any]) -> None:
        self.tally.add("scanned")
        kind, entity = recognise(self.spec, item)
        if kind == "unknown":
            self.tally.add("unknown")
            return
        try:
            if kind == "new":
                self._already(entity, item)
            else:
                self._migrate(entity, item)
        except MigrationError as exc:
            self.tally.add("failed")
            with self.tally.lock:
                if len(self.tally.errors) < 20:
                    self.tally.errors.append(str(exc))

    def _already(self, name: str, item: dict[str, Any]) -> None:
        """An item in the new shape: the cleanup gives its retyped
        attributes the new type (the rewrite and the dual-writing
        application wrote the old one, which the old application reads)."""
        retypes = self._target_retypes.get(name)
        if not self.cleanup or not retypes:
            self.tally.add("already")
            return
        new = retyped_item(retypes, item)
        if new == item:
            self.tally.add("already")
            return
        self._count(name)

        def remake(fresh: dict[str, Any]) -> dict[str, Any] | None:
            kind, again = recognise(self.spec, fresh)
            return retyped_item(retypes, fresh) if kind == "new" else None

        self._update(item, new, [], remake, self.spec["target_table"])

    def _count(self, name: str) -> None:
        self.tally.add("migrated")
        with self.tally.lock:
            self.tally.by_entity[name] = self.tally.by_entity.get(name, 0) + 1

    def _shape(
        self, entity: dict[str, Any], output: dict[str, Any], item: dict[str, Any]
    ) -> dict[str, Any] | None:
        return shaped(self.spec, entity, output, item, cleanup=self.cleanup)

    def _migrate(self, entity: dict[str, Any], item: dict[str, Any]) -> None:
        spec = self.spec
        source_key = keys_of(item, spec["source_keys"])
        made = [(o, self._shape(entity, o, item)) for o in entity["outputs"]]
        primary = next(
            ((o, new) for o, new in made if o["primary"] and new is not None), None
        )
        copying = spec["copy"]
        stays = (
            primary is not None
            and not copying
            and keys_of(primary[1], spec["target_keys"]) == source_key
        )
        splits = [new for o, new in made if not o["primary"] and new is not None]
        # `stays` implies a primary output; the checker needs it said.
        if stays and primary is not None and primary[1] == item and not splits:
            self.tally.add("unchanged")
            return
        if primary is None and not splits and not copying and not self.cleanup:
            # An entity removed: the old application still reads its items.
            self.tally.add("held")
            return
        self._count(entity["name"])
        # Parts split off first: the update of the item itself may drop
        # what they are made of, and a rerun would no longer make them.
        for output, new in made:
            if new is None or (primary is not None and output is primary[0]):
                continue
            self._put(new)
        if primary is not None and stays:
            if primary[1] != item:
                output = primary[0]

                def remake(fresh: dict[str, Any]) -> dict[str, Any] | None:
                    kind, again = recognise(self.spec, fresh)
                    if kind != "old":
                        return None
                    return self._shape(again, output, fresh)

                self._update(
                    item, primary[1], output["depends"], remake, spec["source_table"]
                )
            return
        if primary is not None:
            self._put(primary[1], merge=primary[0]["merge"])
        if copying:
            return
        if self.cleanup:
            self._delete(item)
        else:
            self.tally.add("held")

    def _put(self, new: dict[str, Any], merge: bool = False) -> None:
        """Put a new item unless one is there: written by an earlier run,
        or, for an entity merged into another (`merge`), the item it joins,
        which gains the attributes it lacks and keeps those it has."""
        if self.dry_run:
            return
        try:
            response = self.client.put_item(
                TableName=self.spec["target_table"],
                Item=new,
                ReturnConsumedCapacity="TOTAL",
                **self._absent_guard(),
            )
            units = _units(response)
            self.tally.add("written")
        except Exception as exc:
            if not _conditional(exc):
                raise
            units = _failed_units(exc)
            if merge:
                self._spent(units)
                units = self._fill(new)
        self._spent(units)

    def _fill(self, new: dict[str, Any]) -> float:
        key_names = self.spec["target_keys"]
        names, values, sets = {}, {}, []
        for position, name in enumerate(n for n in new if n not in key_names):
            names[f"#a{position}"] = name
            values[f":v{position}"] = new[name]
            sets.append(f"#a{position} = if_not_exists(#a{position}, :v{position})")
        if not sets:
            return 0.0
        response = self.client.update_item(
            TableName=self.spec["target_table"],
            Key=keys_of(new, key_names),
            UpdateExpression="SET " + ", ".join(sets),
            ExpressionAttributeNames=names,
            ExpressionAttributeValues=values,
            ReturnConsumedCapacity="TOTAL",
        )
        self.tally.add("written")
        return _units(response)

    def _update(
        self,
        old: dict[str, Any],
        new: dict[str, Any],
        depends: list[str],
        remake: Callable[[dict[str, Any]], dict[str, Any] | None],
        table: str,
    ) -> None:
        """Make `old` into `new` in place; when the application changed the
        item meanwhile, read it again and make it with `remake` (None: the
        item needs nothing any more)."""
        if self.dry_run:
            return
        key_names = self.spec["source_keys"]
        for _ in range(RETRIES):
            request = _update_request(table, key_names, old, new, depends)
            try:
                response = self.client.update_item(**request)
            except Exception as exc:
                if not _conditional(exc):
                    raise
                self._spent(_failed_units(exc))
                self.tally.add("conflicts")
                # The application changed the item meanwhile: read it again.
                fresh = self.client.get_item(
                    TableName=table,
                    Key=keys_of(old, key_names),
                    ConsistentRead=True,
                ).get("Item")
                if fresh is None:
                    return
                made = remake(fresh)
                if made is None or made == fresh:
                    return
                old, new = fresh, made
                continue
            self.tally.add("written")
            self._spent(_units(response))
            return
        raise MigrationError("an item kept changing while it was rewritten")

    def _delete(self, old: dict[str, Any]) -> None:
        if self.dry_run:
            return
        try:
            response = self.client.delete_item(
                TableName=self.spec["source_table"],
                Key=keys_of(old, self.spec["source_keys"]),
                ReturnConsumedCapacity="TOTAL",
            )
        except Exception as exc:
            if not _conditional(exc):
                raise
            self._spent(_failed_units(exc))
            return
        self.tally.add("deleted")
        self._spent(_units(response))

    def _spent(self, units: float) -> None:
        with self.tally.lock:
            self.tally.write_units += units
        self.rate.spend(units)

    def _report(self, final: bool = False) -> None:
        if self.progress is None:
            return
        scanned = self.tally.counts["scanned"]
        share = f"{min(scanned / self.total, 1):6.1%} " if self.total else ""
        width = 30
        filled = int(width * min(scanned / self.total, 1)) if self.total else 0
        bar = f"[{'#' * filled}{'.' * (width - filled)}] " if self.total else ""
        self.progress(f"{bar}{share}{self.tally.line()}" + ("\n" if final else ""))


def _update_request(
    table: str,
    key_names: list[str],
    old: dict[str, Any],
    new: dict[str, Any],
    depends: list[str],
) -> dict[str, Any]:
    """An UpdateItem that makes `old` into `new`: SET what changed, REMOVE
    what went, on condition that each of those attributes, and each the
    new keys were computed from (`depends`), still holds what was read (or
    is still absent)."""
    names: dict[str, str] = {}
    values: dict[str, Any] = {}
    sets, removes, guards = [], [], []
    changed = [n for n in new if n not in key_names and old.get(n) != new[n]]
    gone = [n for n in old if n not in key_names and n not in new]
    read = [n for n in depends if n not in changed and n not in gone]
    for position, name in enumerate(changed + gone + read):
        names[f"#a{position}"] = name
        placeholder = f"#a{position}"
        if name in old:
            values[f":o{position}"] = old[name]
            guards.append(f"{placeholder} = :o{position}")
        else:
            guards.append(f"attribute_not_exists({placeholder})")
        if name in read:
            continue
        if name in new:
            values[f":n{position}"] = new[name]
            sets.append(f"{placeholder} = :n{position}")
        else:
            removes.append(placeholder)
    expression = []
    if sets:
        expression.append("SET " + ", ".join(sets))
    if removes:
        expression.append("REMOVE " + ", ".join(removes))
    request: dict[str, Any] = {
        "TableName": table,
        "Key": keys_of(old, key_names),
        "UpdateExpression": " ".join(expression),
        "ConditionExpression": " AND ".join(guards),
        "ExpressionAttributeNames": names,
        "ReturnConsumedCapacity": "TOTAL",
    }
    if values:
        request["ExpressionAttributeValues"] = values
    return request


def _conditional(exc: Exception) -> bool:
    response = getattr(exc, "response", None) or {}
    return response.get("Error", {}).get("Code") == "ConditionalCheckFailedException"


def _failed_units(exc: Exception) -> float:
    consumed = getattr(exc, "consumed_capacity", None)
    if isinstance(consumed, dict):
        return float(consumed.get("CapacityUnits", 0) or 0)
    return 1.0


# --- Verifying ------------------------------------------------------------------


def verify(
    spec: dict[str, Any], client: Any, *, final: bool = True
) -> tuple[dict[str, int], list[str]]:
    """The final check (`final`, after the cleanup): every item of the
    target table by the new design's entity it is, and what is wrong: an
    item of the old shape not rewritten yet (or its new items missing), an
    item no entity renders, an index key that differs from the new
    templates. Otherwise the check of the rewrite (`verify_rewrite`)."""
    if not final:
        return verify_rewrite(spec, client)
    counts: dict[str, int] = {}
    problems = _unmigrated(spec, client)
    targets = {e["name"]: e for e in spec["target_entities"]}
    paginator = client.get_paginator("scan")
    for page in paginator.paginate(TableName=spec["target_table"]):
        for item in page.get("Items", []):
            name = next(
                (
                    n
                    for n, e in targets.items()
                    if renders_own_keys(item, e["table_keys"], spec["target_keys"])
                ),
                None,
            )
            if name is None:
                if len(problems) < 20:
                    problems.append(
                        f"item {keys_of(item, spec['target_keys'])} "
                        "is of no entity of the new design"
                    )
                counts["(unrecognised)"] = counts.get("(unrecognised)", 0) + 1
                continue
            counts[name] = counts.get(name, 0) + 1
            for attribute, kind, *_ in targets[name].get("retypes", []):
                held = next(iter(item.get(attribute) or {kind: None}))
                if held != kind and len(problems) < 20:
                    problems.append(
                        f"{name} item {keys_of(item, spec['target_keys'])}: "
                        f"{attribute} is {held}, the new design makes {kind} "
                        "(run --cleanup)"
                    )
            values = _natives(item)
            for key_name, key in targets[name]["keys"].items():
                wanted = None
                if key["when"] is None or holds(key["when"], values):
                    wanted = render_key(key, values)
                if item.get(key_name) != wanted and len(problems) < 20:
                    problems.append(
                        f"{name} item {keys_of(item, spec['target_keys'])}: "
                        f"{key_name} is {item.get(key_name)}, the new design "
                        f"makes {wanted}"
                    )
    return counts, problems


def verify_rewrite(
    spec: dict[str, Any], client: Any
) -> tuple[dict[str, int], list[str]]:
    """What the rewrite promises, while the dual-writing application still
    reads as the old design does: every item of the old design still there
    with its new form beside it (its new attributes and keys, or its new
    items), and no item of neither design. The counts are per entity, the
    old design's items (which the cleanup removes or rewrites) apart from
    those already only in the new shape."""
    counts: dict[str, int] = {}
    problems: list[str] = []
    paginator = client.get_paginator("scan")
    for table in dict.fromkeys((spec["source_table"], spec["target_table"])):
        for page in paginator.paginate(TableName=table):
            for item in page.get("Items", []):
                kind, entity = recognise(spec, item)
                if kind == "old":
                    label = f"{entity['name']} (old design)"
                elif kind == "new":
                    label = entity
                else:
                    label = "(unrecognised)"
                    if len(problems) < 20:
                        problems.append(
                            f"item {item} in {table} is of no entity of either design"
                        )
                counts[label] = counts.get(label, 0) + 1
    return counts, _unmigrated(spec, client, final=False) + problems


def shaped(
    spec: dict[str, Any],
    entity: dict[str, Any],
    output: dict[str, Any],
    item: dict[str, Any],
    *,
    cleanup: bool,
) -> dict[str, Any] | None:
    """The item `output` makes of `item`; in the rewrite phase (not
    `cleanup`) the item rewritten in place keeps what the old design reads
    (the cleanup removes it)."""
    new = rewritten(entity, output, item)
    if new is None or cleanup or spec["copy"]:
        return new
    new = old_typed(output, item, new)
    if not output["primary"]:
        return new
    if keys_of(new, spec["target_keys"]) != keys_of(item, spec["source_keys"]):
        return new
    return {**item, **new}


def _unmigrated(spec: dict[str, Any], client: Any, *, final: bool = True) -> list[str]:
    """Items of the source whose new items are not in the target as the
    plan makes them."""
    problems: list[str] = []
    pending = 0
    # The rewrite's own shapes: the in-place item keeps the old attributes.
    paginator = client.get_paginator("scan")
    for page in paginator.paginate(TableName=spec["source_table"]):
        for item in page.get("Items", []):
            kind, entity = recognise(spec, item)
            if kind != "old":
                continue
            for output in entity["outputs"]:
                new = shaped(spec, entity, output, item, cleanup=final)
                if new is None or (new == item and not spec["copy"]):
                    continue
                found = client.get_item(
                    TableName=spec["target_table"],
                    Key=keys_of(new, spec["target_keys"]),
                    ConsistentRead=True,
                ).get("Item")
                if found != new:
                    pending += 1
                    if len(problems) < 10:
                        problems.append(
                            f"{entity['name']} item "
                            f"{keys_of(item, spec['source_keys'])} is not migrated "
                            f"yet ({output['name']})"
                        )
    if pending > len(problems):
        problems.append(f"{pending:,} items not migrated yet in all")
    return problems


# --- Command line ---------------------------------------------------------------


def parser_of(spec: dict[str, Any]) -> Any:
    """The script's command line, every option with its help."""
    import argparse

    parser = argparse.ArgumentParser(description=spec["title"])
    parser.add_argument(
        "--source-table",
        default=spec["source_table"],
        help="the deployed table whose items are migrated (default: %(default)s)",
    )
    parser.add_argument(
        "--target-table",
        default=spec["target_table"],
        help="the new table the items are copied into, created beforehand "
        "(default: %(default)s)"
        if spec["copy"]
        else "not used by this migration: it rewrites the items in place, in "
        "--source-table",
    )
    parser.add_argument(
        "--segments",
        type=_segments,
        default=4,
        help="the parallel Scan's segments (default: 4)",
    )
    parser.add_argument(
        "--wcu-per-second",
        type=float,
        default=spec["wcu_per_second"],
        help="the write units a second the run keeps to on average, as "
        "DynamoDB counts them (default: %(default)g; 0: no limit)",
    )
    parser.add_argument(
        "--cleanup",
        action="store_true",
        help="after the application of the new design is deployed: remove the "
        "old items and attributes the rewrite kept for the old application",
    )
    parser.add_argument(
        "--checkpoint",
        default=None,
        help="the file each Scan segment's progress is recorded in, to resume "
        "from after a stop (default: migration-checkpoint.json, "
        "migration-cleanup-checkpoint.json with --cleanup)",
    )
    parser.add_argument(
        "--endpoint-url",
        default=None,
        help="the DynamoDB endpoint, e.g. http://localhost:8000 for DynamoDB "
        "Local (default: AWS's for the region)",
    )
    parser.add_argument(
        "--region",
        default=None,
        help="the AWS region of the tables (default: as boto3 finds it, from "
        "AWS_REGION, AWS_DEFAULT_REGION or the profile)",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="scan the table and count the items the run would migrate, "
        "writing and deleting nothing and keeping no checkpoint",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="check the rewrite (every item's new form beside the old); with "
        "--cleanup, check the final table against the new design",
    )
    return parser


def main(spec: dict[str, Any], argv: list[str] | None = None) -> int:
    parser = parser_of(spec)
    args = parser.parse_args(argv)
    checkpoint = args.checkpoint or (
        "migration-cleanup-checkpoint.json"
        if args.cleanup
        else "migration-checkpoint.json"
    )
    spec = dict(spec, source_table=args.source_table, target_table=args.target_table)
    if not spec["copy"]:
        spec["target_table"] = spec["source_table"]

    import boto3
    from botocore.exceptions import BotoCoreError, ClientError

    progressed: list[bool] = []

    def progress(line: str) -> None:
        progressed[:] = [not line.endswith("\n")]
        print("\r" + line, end="", file=sys.stderr, flush=True)

    try:
        client = boto3.client(
            "dynamodb", endpoint_url=args.endpoint_url, region_name=args.region
        )
        if args.verify:
            counts, problems = verify(spec, client, final=args.cleanup)
            for name, count in sorted(counts.items()):
                print(f"{name}: {count:,} items")
            for problem in problems:
                print(f"problem: {problem}")
            return 1 if problems else 0
        migration = Migration(
            spec,
            client,
            segments=args.segments,
            wcu_per_second=args.wcu_per_second,
            checkpoint=None if args.dry_run else checkpoint,
            dry_run=args.dry_run,
            cleanup=args.cleanup,
            progress=progress,
        )
        tally = migration.run()
    except (BotoCoreError, ClientError, MigrationError) as exc:
        # What stopped the run, in a line: the checkpoint keeps what it did.
        ended = "\n" if any(progressed) else ""
        print(f"{ended}error: {exc}", file=sys.stderr)
        return 1
    for error in tally.errors:
        print(f"failed: {error}", file=sys.stderr)
    return 1 if tally.counts["failed"] else 0


def _segments(text: str) -> int:
    import argparse

    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"give 1 or more, not {text!r}")
    return value
