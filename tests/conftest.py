"""Fixtures for every test. The project fixtures, which make these users an
owner, editor or viewer of a project, live in tests/views/conftest.py."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from hypothesis import settings as hypothesis_settings

from modeler.conversion import forget_decoded

# Property tests check behaviour, not speed (bench/ does): no per-example
# deadline, which a loaded CI machine would miss now and then.
hypothesis_settings.register_profile("workbench", deadline=None)
hypothesis_settings.load_profile("workbench")


@pytest.fixture(autouse=True)
def _no_designs_from_other_tests():
    # Tests that empty the database start revision ids again from 1.
    forget_decoded()


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _user(name: str) -> User:
    return User.objects.create_user(username=name, password=f"pw-{name}")


@pytest.fixture
def owner(db) -> User:
    return _user("owner")


@pytest.fixture
def editor(db) -> User:
    return _user("editor")


@pytest.fixture
def viewer(db) -> User:
    return _user("viewer")


@pytest.fixture
def outsider(db) -> User:
    return _user("outsider")
