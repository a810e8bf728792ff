"""Import of a live table from the project list: off unless the operator
turns LIVE_TABLE_IMPORT on, read from the endpoint the settings name (a
user cannot point the server at another), nothing written on a refusal."""

from __future__ import annotations

import pytest
from django.test import Client

from modeler.models import Project
from tests.views.conftest import logged_in

URL = "/projects/import/table/"


@pytest.fixture
def live(settings, aws, moto_url):  # type: ignore[no-untyped-def]
    """moto's server as the settings' endpoint, with a small table on it."""
    settings.LIVE_TABLE_IMPORT = True
    settings.DYNAMODB_ENDPOINT_URL = moto_url
    settings.AWS_REGION = "us-east-1"
    if "members" not in aws.list_tables()["TableNames"]:
        aws.create_table(
            TableName="members",
            BillingMode="PAY_PER_REQUEST",
            AttributeDefinitions=[
                {"AttributeName": "PK", "AttributeType": "S"},
                {"AttributeName": "SK", "AttributeType": "S"},
            ],
            KeySchema=[
                {"AttributeName": "PK", "KeyType": "HASH"},
                {"AttributeName": "SK", "KeyType": "RANGE"},
            ],
        )
        for n in range(20):
            aws.put_item(
                TableName="members",
                Item={
                    "PK": {"S": f"CLUB#{n % 2}"},
                    "SK": {"S": f"MEMBER#{n:03d}"},
                    "joinedOn": {"S": f"2025-01-{n + 1:02d}"},
                },
            )
    return aws


def test_the_form_is_shown_only_when_enabled(owner_client, settings):
    settings.LIVE_TABLE_IMPORT = False
    assert "Import a live table" not in owner_client.get("/").content.decode()
    response = owner_client.post(URL, {"table": "members", "sample": 10})
    assert response.status_code == 404
    settings.LIVE_TABLE_IMPORT = True
    assert "Import a live table" in owner_client.get("/").content.decode()


def test_a_live_table_becomes_a_project_of_the_user(live, owner, owner_client):
    response = owner_client.post(URL, {"table": "members", "sample": 10})
    assert response.status_code == 200
    page = response.content.decode()
    assert "Imported from the live table members:" in page
    assert "read 10 items in" in page  # segments share one budget
    (project,) = Project.objects.all()
    assert project.owner == owner and project.name == "members"


def test_refusals_create_nothing_and_keep_the_input(live, owner_client):
    response = owner_client.post(URL, {"table": "nope", "sample": 10})
    assert response.status_code == 422
    page = response.content.decode()
    assert "Nothing was imported: nope: ResourceNotFoundException" in page
    assert 'value="nope"' in page
    response = owner_client.post(URL, {"table": "a b", "sample": 5000})
    assert response.status_code == 422
    page = response.content.decode()
    assert "A table name has 3 to 255 letters" in page
    assert "Ensure this value is less than or equal to 1000" in page
    assert not Project.objects.exists()


def test_an_endpoint_boto3_refuses_is_a_form_error(live, owner_client, settings):
    settings.DYNAMODB_ENDPOINT_URL = "notaurl"
    response = owner_client.post(URL, {"table": "members", "sample": 10})
    assert response.status_code == 422
    page = response.content.decode()
    assert (
        "Nothing was imported: members: the endpoint URL &#x27;notaurl&#x27; is not "
        "a URL" in page
    )
    assert not Project.objects.exists()


def test_anonymous_users_and_forged_posts_are_turned_away(live, owner):
    response = Client().post(URL, {"table": "members", "sample": 10})
    assert response.status_code == 302 and "/login/" in response["Location"]
    forged = logged_in(owner, enforce_csrf_checks=True)
    assert forged.post(URL, {"table": "members", "sample": 10}).status_code == 403
    assert not Project.objects.exists()
