"""Undo and Redo in the project header: each user takes back their own
changes, labelled by what they did; viewers see no buttons and cannot post;
outsiders get 404."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from modeler.design_check import limits
from modeler.services import history as history_services
from modeler.services import projects as project_services
from tests.views.conftest import stored_design, with_roots
from tests.views.starting import start_jobs
from tests.views.test_history_services import _describe, _rename

HTMX = {"HTTP_HX_REQUEST": "true"}


def _messages(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


@pytest.mark.django_db
def test_undo_and_redo_from_the_header(project, editor, editor_client: Client):
    _rename(project, editor, "Order", "Purchase")
    url = f"/projects/{project.pk}/entities/"
    page = editor_client.get(url).content.decode()
    assert "Undo: renamed entity Order to Purchase" in page
    number = history_services.undo_state(project=project, user=editor).undo.number

    response = editor_client.post(
        f"/projects/{project.pk}/undo/", {"number": number}, HTTP_REFERER=url
    )

    assert response.status_code == 302 and response["Location"] == url
    assert _messages(response) == [
        "Undid: renamed entity Order to Purchase and 7 more changes."
    ]
    assert stored_design(project).entity("Order") is not None
    page = editor_client.get(url).content.decode()
    assert "Redo: renamed entity Order to Purchase" in page
    redo = history_services.undo_state(project=project, user=editor).redo.number
    response = editor_client.post(f"/projects/{project.pk}/redo/", {"number": redo})
    assert response["Location"] == f"/projects/{project.pk}/"  # no referer
    assert stored_design(project).entity("Purchase") is not None


@pytest.mark.django_db
def test_a_stale_undo_button_changes_nothing(project, editor, editor_client: Client):
    _describe(project, editor, "Customer", "first")
    stale = history_services.undo_state(project=project, user=editor).undo.number
    _describe(project, editor, "Customer", "second")

    response = editor_client.post(f"/projects/{project.pk}/undo/", {"number": stale})

    assert _messages(response) == [
        "The change to undo is now “changed entity Customer (description)”; "
        "the button shows it now."
    ]
    assert stored_design(project).entity("Customer").description == "second"
    response = editor_client.post(f"/projects/{project.pk}/undo/", {})
    assert _messages(response)[-1] == (
        "The page sent no change to take back; reload it."
    )


@pytest.mark.django_db
def test_undo_of_what_someone_changed_since_is_refused(
    project, owner, editor, editor_client: Client
):
    _describe(project, editor, "Customer", "by the editor")
    number = history_services.undo_state(project=project, user=editor).undo.number
    _describe(project, owner, "Customer", "then by the owner")

    response = editor_client.post(f"/projects/{project.pk}/undo/", {"number": number})

    [message] = _messages(response)
    assert message == (
        "Cannot be undone any more: “changed entity Customer (description)” "
        "(owner changed it since)."
    )
    assert stored_design(project).entity("Customer").description == (
        "then by the owner"
    )
    # The header no longer offers it, and says why.
    html = editor_client.get(f"/projects/{project.pk}/undo-bar/", **HTMX).content
    html = html.decode()
    assert "data-undo disabled" in html
    assert "1 newer change of yours was changed since by owner" in html


@pytest.mark.django_db
def test_undo_with_htmx_updates_the_section_in_place(
    project, editor, editor_client: Client
):
    _describe(project, editor, "Customer", "described")
    number = history_services.undo_state(project=project, user=editor).undo.number
    page = f"http://testserver/projects/{project.pk}/entities/Customer/"

    response = editor_client.post(
        f"/projects/{project.pk}/undo/",
        {"number": number},
        HTTP_REFERER=page,
        **HTMX,
    )

    assert response.status_code == 200
    location = json.loads(response.headers["HX-Location"])
    assert location == {
        "path": f"/projects/{project.pk}/entities/Customer/",
        "target": "#main",
        "swap": "innerHTML",
    }
    saved = json.loads(response.headers["HX-Trigger"])["designSaved"]
    project.refresh_from_db()
    assert saved == {"version": project.version}
    # The toast comes with the section.
    section = editor_client.get(location["path"], **HTMX)
    assert "Undid: changed entity Customer" in section.headers["HX-Trigger"]


@pytest.mark.django_db
def test_a_refused_undo_with_htmx_changes_nothing_on_the_page(
    project, editor, editor_client: Client
):
    response = editor_client.post(
        f"/projects/{project.pk}/undo/", {"number": 999}, **HTMX
    )

    assert response.headers["HX-Reswap"] == "none"
    trigger = json.loads(response.headers["HX-Trigger"])
    assert "historyChanged" in trigger
    assert trigger["showMessage"]["messages"][0]["level"] == "error"


@pytest.mark.django_db
def test_the_undo_bar_follows_saves(project, editor, editor_client: Client):
    bar = f"/projects/{project.pk}/undo-bar/"
    assert "Nothing of yours to undo" in editor_client.get(bar, **HTMX).content.decode()
    _describe(project, editor, "Customer", "described")
    html = editor_client.get(bar, **HTMX).content.decode()
    assert "Undo: changed entity Customer (description)" in html
    assert 'hx-trigger="designSaved from:body, historyChanged from:body"' in html


@pytest.mark.django_db
def test_viewers_and_outsiders_cannot_undo(
    project, editor, viewer_client: Client, outsider_client: Client
):
    _describe(project, editor, "Customer", "described")
    number = history_services.undo_state(project=project, user=editor).undo.number
    page = viewer_client.get(f"/projects/{project.pk}/").content.decode()
    assert "data-undo" not in page
    for client, status in ((viewer_client, 403), (outsider_client, 404)):
        for verb in ("undo", "redo"):
            response = client.post(
                f"/projects/{project.pk}/{verb}/", {"number": number}
            )
            assert response.status_code == status
    assert outsider_client.get(f"/projects/{project.pk}/undo-bar/").status_code == 404
    assert stored_design(project).entity("Customer").description == "described"


@pytest.mark.django_db
def test_undo_needs_csrf_and_post(project, editor):
    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)
    _describe(project, editor, "Customer", "described")
    number = history_services.undo_state(project=project, user=editor).undo.number
    assert (
        client.post(f"/projects/{project.pk}/undo/", {"number": number}).status_code
        == 403
    )
    assert client.get(f"/projects/{project.pk}/undo/").status_code == 405
    assert stored_design(project).entity("Customer").description == "described"


# --- The History section -----------------------------------------------------------


@pytest.mark.django_db
def test_history_lists_revisions_with_author_and_summary(
    project, editor, viewer_client: Client
):
    _rename(project, editor, "Order", "Purchase")
    html = viewer_client.get(f"/projects/{project.pk}/history/").content.decode()
    assert "renamed entity Order to Purchase" in html
    assert "created the design" in html
    assert ">editor<" in html
    assert 'aria-current="page">History<' in html
    # Viewers compare and download, but cannot name or restore.
    assert "Name or restore" not in html
    assert f"/projects/{project.pk}/history/1/design.yaml" in html
    partial = viewer_client.get(f"/projects/{project.pk}/history/", **HTMX)
    assert "<html" not in partial.content.decode()


@pytest.mark.django_db
def test_compare_two_revisions_side_by_side(project, editor, viewer_client: Client):
    _describe(project, editor, "Customer", "Described in revision 2")
    url = f"/projects/{project.pk}/history/compare/?before=1&after=2"
    html = viewer_client.get(url).content.decode()
    assert "Revision 1 → revision 2" in html
    assert "<strong>Changed entity Customer (description).</strong>" in html
    assert "Described in revision 2" in html
    assert 'id="history-consequences"' in html  # loaded after the page
    # The page posts to start both revisions' simulations as it loads.
    start_jobs(viewer_client, project, 1, 2)
    text = viewer_client.get(url + "&format=text")
    assert text["Content-Disposition"].endswith('-r1-r2.diff"')
    assert "+    description: Described in revision 2" in text.content.decode()
    # What the page loads after it, the download carries.
    assert "Consequences: This change costs the same on demand." in (
        text.content.decode()
    )


@pytest.mark.django_db
def test_consequences_of_a_change(project, editor, viewer_client: Client):
    _describe(project, editor, "Customer", "A description changes no verdict")
    start_jobs(viewer_client, project, 1, 2)
    html = viewer_client.get(
        f"/projects/{project.pk}/history/compare/consequences/?before=1&after=2",
        **HTMX,
    ).content.decode()
    assert "This change costs the same on demand." in html


@pytest.mark.django_db
def test_download_name_and_restore_a_revision(project, editor, editor_client: Client):
    original = stored_design(project).entity("Customer").description
    _describe(project, editor, "Customer", "changed")
    yaml_response = editor_client.get(f"/projects/{project.pk}/history/1/design.yaml")
    assert yaml_response["Content-Disposition"].endswith('-r1.yaml"')
    assert original.split("\n")[0] in yaml_response.content.decode()

    response = editor_client.post(
        f"/projects/{project.pk}/history/1/label/", {"label": "reviewed 2026-11-30"}
    )
    assert response.status_code == 302
    assert (
        "reviewed 2026-11-30"
        in editor_client.get(f"/projects/{project.pk}/history/").content.decode()
    )

    response = editor_client.post(f"/projects/{project.pk}/history/1/restore/")
    assert response.status_code == 302
    project.refresh_from_db()
    assert project.version == 3
    assert stored_design(project).entity("Customer").description == original
    assert _messages(response)[-1].startswith("Restored revision 1 as revision 3")


@pytest.mark.django_db
def test_history_access_rules(
    project, editor, viewer_client: Client, outsider_client: Client
):
    _describe(project, editor, "Customer", "changed")
    base = f"/projects/{project.pk}/history/"
    reads = [
        base,
        base + "compare/?before=1&after=2",
        base + "compare/consequences/?before=1&after=2",
        base + "1/design.yaml",
    ]
    for url in reads:
        assert outsider_client.get(url).status_code == 404
        anonymous = Client().get(url)
        assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
    for url in (base + "1/label/", base + "1/restore/"):
        assert viewer_client.post(url, {"label": "x"}).status_code == 403
        assert outsider_client.post(url, {"label": "x"}).status_code == 404
        assert viewer_client.get(url).status_code == 405
    assert viewer_client.get(base + "9/design.yaml").status_code == 404
    assert viewer_client.get(base + "compare/?before=1&after=9").status_code == 404
    assert viewer_client.get(base + "compare/?before=x").status_code == 404
    project.refresh_from_db()
    assert project.version == 2


@pytest.mark.django_db
def test_naming_and_restoring_need_csrf(project, editor):
    client = Client(enforce_csrf_checks=True)
    client.force_login(editor)
    base = f"/projects/{project.pk}/history/1/"
    assert client.post(base + "label/", {"label": "x"}).status_code == 403
    assert client.post(base + "restore/").status_code == 403


# --- Presence ----------------------------------------------------------------------


@pytest.mark.django_db
def test_presence_names_others_and_announces_their_saves(
    project, owner, editor, owner_client: Client, editor_client: Client
):
    url = f"/projects/{project.pk}/presence/"
    first = owner_client.post(url, {"version": 1}, **HTMX).content.decode()
    assert "Also here" not in first
    assert 'hx-trigger="every 2s, focus from:window"' in first
    editor_client.post(url, {"version": 1}, **HTMX)
    html = owner_client.post(url, {"version": 1}, **HTMX).content.decode()
    assert "Also here: editor" in html

    _describe(project, editor, "Customer", "saved by the editor")
    html = owner_client.post(url, {"version": 1}, **HTMX).content.decode()
    assert "editor saved: changed entity Customer (description)." in html
    assert '<input type="hidden" name="version" value="1">' in html
    # The editor's own page, at the version their save made: nothing to say.
    own = editor_client.post(url, {"version": 1}, **HTMX).content.decode()
    assert "data-saved-since" not in own


@pytest.mark.django_db
def test_each_save_by_someone_else_is_told_once_in_a_toast(
    project, owner, editor, owner_client: Client
):
    url = f"/projects/{project.pk}/presence/"
    quiet = owner_client.post(url, {"version": 1}, **HTMX)
    assert "HX-Trigger" not in quiet.headers
    assert 'name="announced" value="1"' in quiet.content.decode()

    _describe(project, editor, "Customer", "saved by the editor")
    told = owner_client.post(url, {"version": 1, "announced": 1}, **HTMX)
    [message] = json.loads(told.headers["HX-Trigger"])["showMessage"]["messages"]
    assert message == {
        "message": "editor changed entity Customer (description)",
        "level": "info",
    }
    assert 'name="announced" value="2"' in told.content.decode()
    # Told once: the next poll carries the revision it told.
    again = owner_client.post(url, {"version": 1, "announced": 2}, **HTMX)
    assert "HX-Trigger" not in again.headers
    assert "editor saved: changed entity Customer" in again.content.decode()
    # A save of one's own is not told.
    _describe(project, owner, "Order", "saved by the owner")
    mine = owner_client.post(url, {"version": 1, "announced": 2}, **HTMX)
    assert "HX-Trigger" not in mine.headers


@pytest.mark.django_db
def test_presence_is_written_at_most_every_20_seconds(
    project, owner, owner_client: Client
):
    from modeler.models import Presence

    url = f"/projects/{project.pk}/presence/"
    owner_client.post(url, {"version": 1}, **HTMX)
    seen = Presence.objects.get(project=project, user=owner).seen
    owner_client.post(url, {"version": 1}, **HTMX)
    assert Presence.objects.get(project=project, user=owner).seen == seen
    Presence.objects.filter(pk__isnull=False).update(seen=seen - timedelta(seconds=21))
    owner_client.post(url, {"version": 1}, **HTMX)
    assert Presence.objects.get(project=project, user=owner).seen > seen


@pytest.mark.django_db
def test_presence_is_for_members_only(project, outsider_client: Client):
    url = f"/projects/{project.pk}/presence/"
    assert outsider_client.post(url).status_code == 404
    anonymous = Client().post(url)
    assert anonymous.status_code == 302


@pytest.mark.django_db
def test_presence_is_posted_with_the_csrf_token(project, owner):
    url = f"/projects/{project.pk}/presence/"
    checked = Client(enforce_csrf_checks=True)
    checked.force_login(owner)
    assert checked.get(url).status_code == 405
    assert checked.post(url, {"version": 1}).status_code == 403
    page = checked.get(f"/projects/{project.pk}/table/").content.decode()
    assert f'hx-post="{url}"' in page
    token = checked.cookies["csrftoken"].value
    answer = checked.post(url, {"version": 1}, headers={"X-CSRFToken": token})
    assert answer.status_code == 200


@pytest.mark.django_db
def test_undo_and_restore_cannot_take_the_design_past_a_lowered_limit(
    project, editor, editor_client: Client
):
    """The site lowered SAMPLE_MAX_ITEMS after revision 1 (7,972 items) was
    saved; revision 2 has 3 customers (about a hundred items). Going back to
    revision 1 would grow the design past the limit: refused, as a save from
    the editor would be, and nothing is saved."""
    project_services.project_save_design(
        project=project,
        design=with_roots(stored_design(project), 3),
        version=1,
        author=editor,
    )
    number = history_services.undo_state(project=project, user=editor).undo.number
    refused = (
        "the sample data would hold 7,972 items; this workbench allows at most "
        "5,000 (setting SAMPLE_MAX_ITEMS)."
    )

    with limits.configured(limits.DesignLimits(sample_items=5_000)):
        undo = editor_client.post(f"/projects/{project.pk}/undo/", {"number": number})
        restore = editor_client.post(f"/projects/{project.pk}/history/1/restore/")

    (message,) = _messages(undo)
    assert message.startswith("Not undone: with ") and message.endswith(refused)
    *_, message = _messages(restore)  # after the undo's, not yet shown
    assert message.startswith("Revision 1 was not restored: with ")
    assert message.endswith(refused)
    project.refresh_from_db()
    assert project.version == 2
