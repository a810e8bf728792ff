"""The files the workers write under MEDIA_ROOT (`modeler.jobs.files`):
those more than a day old go, in every folder, and past MEDIA_MAX_BYTES the
oldest go first, never the one just written."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from modeler.jobs.budget import BudgetExceeded
from modeler.jobs.files import KEEP_SECONDS, file_write


@pytest.fixture
def media(settings) -> Path:
    return Path(settings.MEDIA_ROOT)


def _aged(media: Path, name: str, seconds: float) -> None:
    moment = time.time() - seconds
    os.utime(media / name, (moment, moment))


def test_past_the_cap_the_oldest_files_go_first(media, settings):
    settings.MEDIA_MAX_BYTES = 2_500
    for age, name in ((300, "sample-data/a.jsonl"), (200, "diagrams/b.png")):
        file_write(name, lambda file: file.write(b"x" * 1_000))
        _aged(media, name, age)

    file_write("sample-data/c.jsonl", lambda file: file.write(b"x" * 1_000))

    assert sorted(str(p.relative_to(media)) for p in media.rglob("*.*")) == [
        "diagrams/b.png",
        "sample-data/c.jsonl",
    ]


def test_the_file_just_written_stays_whatever_the_others(media, settings):
    settings.MEDIA_MAX_BYTES = 1_500
    settings.SAMPLE_FILE_MAX_BYTES = 1_500
    file_write("diagrams/old.png", lambda file: file.write(b"x" * 1_000))
    _aged(media, "diagrams/old.png", 60)

    file_write("sample-data/new.jsonl", lambda file: file.write(b"x" * 1_400))

    assert [p.name for p in media.rglob("*.*")] == ["new.jsonl"]


def test_files_older_than_a_day_go_from_every_folder(media, settings):
    settings.MEDIA_MAX_BYTES = 10**9
    file_write("diagrams/stale.png", lambda file: file.write(b"x"))
    file_write("diagrams/fresh.png", lambda file: file.write(b"x"))
    _aged(media, "diagrams/stale.png", KEEP_SECONDS + 60)

    file_write("sample-data/new.jsonl", lambda file: file.write(b"x"))

    assert sorted(p.name for p in media.rglob("*.*")) == ["fresh.png", "new.jsonl"]


def test_a_file_is_not_written_past_its_bytes(media):
    with pytest.raises(BudgetExceeded) as raised:
        file_write(
            "sample-data/big.jsonl",
            lambda file: [file.write(b"x" * 600) for _ in range(3)],
            max_bytes=1_000,
        )

    assert raised.value.budget_named() == (
        "the 1,000 bytes a file may take (SAMPLE_FILE_MAX_BYTES)"
    )
    assert not any(p.is_file() for p in media.rglob("*"))
