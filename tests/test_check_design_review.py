"""`check_design` with the design review: findings after the problems, exit
1 on an error-level finding, the cost table on request."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"

HOT = """\
format: single-table-workbench/v1
name: Hot
table: {name: hot-table, partition_key: PK, sort_key: SK}
entities:
  Device:
    attributes: {deviceId: {type: S, generator: uuid}}
    keys: {PK: "DEVICE#{deviceId}", SK: "META"}
    sample: {count: 10}
  Reading:
    attributes:
      deviceId: {type: S, generator: {ref: Device.deviceId}}
      readingId: {type: S, generator: ulid}
      n: {type: N, generator: sequence}
    keys: {PK: "DEVICE#{deviceId}", SK: "READING#{n}"}
    sample: {per: Device, count: 20, hot: {keys: 1, share: 0.5}}
access_patterns:
  - name: Record a reading
    operation: PutItem
    entity: Reading
    traffic: {rps: 500, peak_rps: PEAK}
"""


def _check(path: Path, *args: str) -> tuple[str, CommandError | None]:
    stdout = io.StringIO()
    try:
        call_command("check_design", str(path), *args, stdout=stdout)
    except CommandError as exc:
        return stdout.getvalue(), exc
    return stdout.getvalue(), None


@pytest.fixture
def hot_file(tmp_path: Path):
    def write(peak: int) -> Path:
        path = tmp_path / f"hot-{peak}.yaml"
        path.write_text(HOT.replace("PEAK", str(peak)))
        return path

    return write


def test_an_example_prints_its_findings_and_passes():
    path = EXAMPLES_DIR / "order-management.yaml"
    stdout, error = _check(path)
    assert error is None
    lines = stdout.splitlines()
    fetches = [line for line in lines if "Needs a second request" in line]
    assert fetches[-1].startswith(
        f"{path}: advice: access_patterns[5]: Needs a second request for "
        "unprojected attributes: "
    )
    assert sum(": advice: access_patterns[" in line for line in lines) == 2
    assert lines[-1] == (
        f"{path}: Order management: no errors (0 errors, 2 other problems)"
    )


def test_an_error_level_finding_exits_1(hot_file):
    stdout, error = _check(hot_file(3000))
    assert error is not None and error.returncode == 1
    assert str(error).endswith(": 1 error, 1 other problem")
    # The design's own warning (the unpadded sequence number) is printed
    # once, by the structural check, not again by the review.
    assert stdout.count("number 'n' is placed unpadded") == 1
    assert "Number unpadded" not in stdout
    hot = [line for line in stdout.splitlines() if "Hot partition" in line]
    assert len(hot) == 1
    assert ": error: table: Hot partition: writes: " in hot[0]
    assert "1,500 WCU/s at peak" in hot[0]
    assert "(2 shards = ceil(1,500 / 1,000))" in hot[0]


def test_the_same_design_at_lower_traffic_passes(hot_file):
    stdout, error = _check(hot_file(900))
    assert error is None
    assert "Hot partition" not in stdout


def test_no_review_checks_only_the_structure(hot_file):
    stdout, error = _check(hot_file(3000), "--no-review")
    assert error is None
    assert stdout.splitlines()[-1].endswith("no errors (0 errors, 1 other problem)")


def test_cost_prints_each_pattern_and_the_cheaper_mode(hot_file):
    stdout, _ = _check(hot_file(900), "--cost", "--stored-items", "1000000")
    assert "Record a reading" in stdout
    # 1 WCU per put, 500 a second on average: 500 x 2,628,000 / 1e6 x 0.625.
    assert "821.25" in stdout
    assert "provisioned is cheaper" in stdout
    assert "for 1,000,000 items" in stdout


def test_prices_in_settings_are_checked(settings):
    settings.DYNAMODB_PRICES = {**settings.DYNAMODB_PRICES, "rcu_hour": "cheap"}
    _, error = _check(EXAMPLES_DIR / "social-graph.yaml")
    assert error is not None
    assert str(error) == ("settings.DYNAMODB_PRICES: rcu_hour: 'cheap' is not a number")


def test_a_design_whose_sample_data_cannot_be_made_is_reviewed_and_fails(tmp_path):
    # Ten devices whose ids are one unique digit each: the eleventh cannot be
    # made, which only generating finds out.
    path = tmp_path / "unmakeable.yaml"
    path.write_text(
        HOT.replace("PEAK", "900")
        .replace("{count: 10}", "{count: 11}")
        .replace(
            "{deviceId: {type: S, generator: uuid}}",
            '{deviceId: {type: S, generator: {faker: {provider: numerify, text: "%", '
            "unique: true}}}}",
        )
    )
    stdout, error = _check(path)
    # The checks that need no simulation still ran; the gate does not pass.
    assert error is not None and error.returncode == 1
    assert (
        f"{path}: error: sample_data: not simulated: the sample data cannot be "
        "made or loaded: Device.deviceId: made 9 distinct values and cannot make more"
    ) in stdout
    assert str(error) == f"{path}: 1 error, 1 other problem"


def test_a_project_is_checked_by_its_name_or_id(owner):
    path = EXAMPLES_DIR / "order-management.yaml"
    call_command("import_design", str(path), "--owner", "owner", stdout=io.StringIO())
    from_file, _ = _check(path)
    from_project, error = _check(Path("Order management"))
    assert error is None
    # The same findings, named after the project instead of the file.
    file_lines = [line.removeprefix(f"{path}: ") for line in from_file.splitlines()]
    project_lines = [
        line.removeprefix("Order management: ") for line in from_project.splitlines()
    ]
    assert project_lines[:-1] == file_lines[:-1]
    assert project_lines[-1] == "no errors (0 errors, 2 other problems)"
    assert file_lines[-1] == "Order management: no errors (0 errors, 2 other problems)"


def test_an_unknown_project_or_file_is_named(db):
    _, error = _check(Path("No such design"))
    assert str(error) == "no design file or project with id or name 'No such design'"
