"""The systemd units of deploy/systemd/, which the README's "In
production" installs: they start what the README runs, from the settings
file, and start it again when it fails. `systemd-analyze verify` checks
them where systemd is installed (with the paths of this checkout)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from configparser import ConfigParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = ROOT / "deploy" / "systemd"
WEB, WORKER = "workbench-web.service", "workbench-worker@.service"


def unit(name: str) -> ConfigParser:
    # Keys keep their case; a key given twice is a unit's list (strict off).
    parser = ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string((UNITS / name).read_text(encoding="utf-8"))
    return parser


def readme() -> str:
    return (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", [WEB, WORKER])
def test_a_unit_restarts_its_process_and_reads_the_settings_file(name):
    service = unit(name)["Service"]
    assert service["Restart"] == "on-failure"
    assert service["EnvironmentFile"] == "/etc/workbench/workbench.env"
    assert service["WorkingDirectory"] == "/srv/workbench"
    assert service["User"] == "workbench"
    assert unit(name)["Install"]["WantedBy"] == "multi-user.target"
    # The README tells how to install it.
    assert f"deploy/systemd/{name}" in readme()


def test_the_web_unit_runs_the_readmes_gunicorn():
    command = unit(WEB)["Service"]["ExecStart"]
    gunicorn = re.search(r"\.venv/bin/gunicorn workbench\.wsgi .*", readme())
    assert gunicorn and command == f"/srv/workbench/{gunicorn[0]}"
    assert unit(WEB)["Service"]["Type"] == "notify"  # gunicorn says it is ready


def test_each_worker_instance_has_a_fixed_id_of_its_own():
    command = unit(WORKER)["Service"]["ExecStart"].split()
    assert command[:4] == [
        "/srv/workbench/.venv/bin/python",
        "manage.py",
        "db_worker",
        "--no-reload",
    ]
    # Started again after a kill, an instance finds its own lost job.
    assert command[command.index("--worker-id") + 1] == "%l-%i"
    # Time to finish the job it runs when told to stop.
    assert int(unit(WORKER)["Service"]["TimeoutStopSec"]) >= 120
    assert re.search(r"systemctl enable --now .*workbench-worker@1 ", readme())


def test_systemd_accepts_the_units(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("no systemd-analyze: the keys are checked above")
    venv = Path(sys.executable).parent
    settings_file = tmp_path / "workbench.env"
    settings_file.write_text((ROOT / ".env.example").read_text(encoding="utf-8"))
    for name in (WEB, WORKER):
        text = (UNITS / name).read_text(encoding="utf-8")
        text = text.replace("/srv/workbench/.venv/bin", str(venv))
        text = text.replace("/srv/workbench", str(ROOT))
        text = text.replace("/etc/workbench/workbench.env", str(settings_file))
        (tmp_path / name).write_text(text, encoding="utf-8")

    checked = subprocess.run(  # a fixed program and our files
        [
            analyze,
            "verify",
            str(tmp_path / WEB),
            str(tmp_path / "workbench-worker@1.service"),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )

    assert (checked.returncode, checked.stderr) == (0, "")
