"""Fixtures for every test. The project fixtures, which make these users an
owner, editor or viewer of a project, live in tests/views/conftest.py."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User


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
