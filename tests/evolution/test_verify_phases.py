"""`--verify` checks what the phase that ran promises: after the rewrite,
every old item with its new form beside it; with `--cleanup`, the final
table of the new design. The script runs as a user runs it, in its own
process against the workbench's endpoint."""

from __future__ import annotations

from modeler.engine.client import Client
from modeler.evolution.matching import entity_matching
from modeler.evolution.rewriting import keys_of
from modeler.evolution.spec import rewrite_spec
from tests.evolution import revisions
from tests.evolution.revisions import smaller
from tests.evolution.test_script import _cleanup, _run, _script_file, endpoints

__all__ = ["endpoints"]  # the fixture, used by name


def test_verify_after_the_rewrite_passes_and_names_a_missing_new_item(
    tmp_path, endpoints
):
    before = smaller(revisions.original())
    after = smaller(revisions.sort_key_changed())
    endpoint = endpoints(before)
    script = _script_file(tmp_path, before, after)
    table = before.table.name
    old = endpoint.items(table)
    assert _run(script, endpoint).returncode == 0

    verified = _run(script, endpoint, "--verify")
    assert verified.returncode == 0, verified.stdout
    assert "problem" not in verified.stdout
    assert "Order (old design): " in verified.stdout

    # One order's item under its new key goes missing.
    spec = rewrite_spec(
        before, after, entity_matching(before, after), wcu_per_second=0, title="t"
    )
    added = [i for i in endpoint.items(table) if i not in old]
    assert added
    gone = keys_of(added[0], spec["target_keys"])
    Client(endpoint.engine).delete_item(
        TableName=table, Key={k: {"S": v} for k, v in gone.items()}
    )
    broken = _run(script, endpoint, "--verify")
    assert broken.returncode == 1
    problems = [line for line in broken.stdout.splitlines() if "problem" in line]
    assert len(problems) == 1, broken.stdout
    assert problems[0].startswith("problem: Order item {")
    assert problems[0].endswith("is not migrated yet (Order)")


def test_the_final_verify_fails_before_the_cleanup_and_passes_after(
    tmp_path, endpoints
):
    before = smaller(revisions.original())
    after = smaller(revisions.sort_key_changed())
    endpoint = endpoints(before)
    script = _script_file(tmp_path, before, after)
    assert _run(script, endpoint).returncode == 0

    # The rewrite's check passes; the final one names the old items left.
    assert _run(script, endpoint, "--verify").returncode == 0
    early = _run(script, endpoint, "--verify", "--cleanup")
    assert early.returncode == 1
    assert "problem: item {" in early.stdout
    assert "is of no entity of the new design" in early.stdout

    assert _run(script, endpoint, *_cleanup(tmp_path)).returncode == 0
    final = _run(script, endpoint, "--verify", "--cleanup")
    assert final.returncode == 0, final.stdout
    assert "Order: " in final.stdout and "problem" not in final.stdout
