"""The Key map, Item collections and Diagrams sections: who may see them,
what they show, htmx partials, bad query strings, downloads, rendering
failures and the cache."""

from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.http import HttpResponse
from django.test import Client

from modeler import diagrams
from modeler.design.model import Design
from modeler.diagrams.cache import clear
from modeler.models import Project
from modeler.sampledata import SampleDataError
from modeler.services import sample_data as sample_services
from tests.diagrams.helpers import hostile
from tests.views.conftest import logged_in, project_with_members, stored_design
from tests.views.starting import opened, start_jobs

HTMX = {"HX-Request": "true"}
PAGES = ["key-map/", "key-map/verdicts/", "collections/", "diagrams/"]
DOWNLOADS = ["diagrams/diagram.svg", "diagrams/diagram.png", "diagrams/diagram.dot"]


def _project(owner: User, editor: User, viewer: User, design: Design) -> Project:
    return project_with_members(design, owner=owner, editor=editor, viewer=viewer)


@pytest.fixture
def project(owner, editor, viewer, small_design) -> Project:
    return _project(owner, editor, viewer, small_design)


@pytest.fixture
def hostile_project(owner, editor, viewer) -> Project:
    return _project(owner, editor, viewer, hostile())


@pytest.fixture(autouse=True)
def _fresh_cache():
    clear()
    yield


def _url(project: Project, rest: str) -> str:
    return f"/projects/{project.pk}/{rest}"


def _html(response: HttpResponse) -> str:
    return response.content.decode()


# --- Access --------------------------------------------------------------------


@pytest.mark.parametrize("path", PAGES + DOWNLOADS)
def test_outsiders_get_404(project, outsider_client, path):
    assert outsider_client.get(_url(project, path)).status_code == 404


@pytest.mark.parametrize("path", PAGES + DOWNLOADS)
def test_anonymous_users_are_sent_to_log_in(project, path):
    response = Client().get(_url(project, path))
    assert response.status_code == 302
    assert response["Location"].startswith("/login/")


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("who", ["owner", "editor", "viewer"])
def test_members_of_every_role_can_see_the_sections(project, request, who, path):
    client = logged_in(request.getfixturevalue(who))
    response = client.get(_url(project, path))
    assert response.status_code == 200
    assert project.name in _html(response)


@pytest.mark.parametrize("path", PAGES[:2])
def test_only_get_is_allowed(project, owner_client, path):
    assert owner_client.post(_url(project, path)).status_code == 405


@pytest.mark.parametrize("path", PAGES[2:] + DOWNLOADS)
def test_a_post_asks_for_the_drawing_others_are_refused(project, owner_client, path):
    """Item collections and diagrams take a POST (their start form), which
    asks a worker; nothing else."""
    assert owner_client.put(_url(project, path)).status_code == 405
    assert owner_client.delete(_url(project, path)).status_code == 405


@pytest.mark.parametrize("path", PAGES)
def test_a_missing_project_is_404(owner_client, path):
    assert owner_client.get(f"/projects/999999/{path}").status_code == 404


def test_the_section_tabs_link_the_three_sections(project, viewer_client):
    html = _html(viewer_client.get(_url(project, "key-map/")))
    for path, label in [
        ("key-map/", "Key map"),
        ("collections/", "Item collections"),
        ("diagrams/", "Diagrams"),
    ]:
        assert re.search(rf'href="{_url(project, path)}"[^>]*>{label}</a>', html)
    assert re.search(r'aria-current="page">Key map</a>', html)


# --- Key map -------------------------------------------------------------------


def test_the_key_map_shows_templates_sparse_conditions_and_absence(
    project, viewer_client
):
    html = _html(viewer_client.get(_url(project, "key-map/")))
    assert 'class="entity-chip entity-1">Order</span>' in html
    assert "ORDER#{orderDate}#{orderId}" in html
    assert "when status = OPEN" in html
    assert 'title="Customer is not in this index"' in html
    assert "INCLUDE orderDate, status, total" in html
    # Attribute lists on demand.
    assert "<summary>6 attributes</summary>" in html
    # The pattern map, its verdicts loaded by a second request.
    assert "#PK = :PK AND begins_with(#SK, :SK)" in html
    assert f'hx-get="{_url(project, "key-map/verdicts/")}"' in html


def test_verdicts_come_as_the_pattern_map_partial(project, viewer_client):
    start_jobs(viewer_client, project)
    response = viewer_client.get(
        _url(project, "key-map/verdicts/"), headers=HTMX | {"HX-Target": "pattern-map"}
    )
    html = _html(response)
    assert response.status_code == 200
    assert html.lstrip().startswith('<section class="card pattern-map-card"')
    assert html.count('class="verdict verdict-pass">Passes') == len(
        stored_design(project).access_patterns
    )
    assert "hx-trigger" not in html  # loaded once, not again


def test_verdicts_without_htmx_are_a_whole_page(project, viewer_client):
    start_jobs(viewer_client, project)
    html = _html(viewer_client.get(_url(project, "key-map/verdicts/")))
    assert "<html" in html and "Key map" in html and "Passes" in html


@pytest.mark.parametrize(
    ("path", "region"),
    [
        ("key-map/", "keymap"),
        ("collections/", "collections"),
        ("diagrams/", "diagrams"),
    ],
)
def test_a_tab_swap_gets_the_page_content(project, viewer_client, path, region):
    response = viewer_client.get(
        _url(project, path), headers=HTMX | {"HX-Target": "main"}
    )
    html = _html(response)
    assert "<html" not in html
    assert html.lstrip().startswith(f'<div id="{region}">')
    assert 'class="tabs"' in html


def test_a_scan_pattern_is_highlighted(hostile_project, viewer_client):
    response = viewer_client.get(
        _url(hostile_project, "key-map/verdicts/"),
        headers=HTMX | {"HX-Target": "pattern-map"},
    )
    html = _html(response)
    rows = re.findall(r'<tr class="pattern-row( pattern-scan)?"', html)
    assert rows == ["", " pattern-scan"]
    assert "reads every item" in html


def test_hostile_text_is_escaped_in_the_key_map(hostile_project, viewer_client):
    html = _html(viewer_client.get(_url(hostile_project, "key-map/")))
    assert "<script>alert" not in html
    assert "<img src=x" not in html and "<svg onload" not in html
    assert "&lt;svg onload=alert(1)&gt;" in html
    assert "&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt; by note" in html


# --- Item collections ----------------------------------------------------------


def test_collections_group_items_by_partition(project, viewer_client):
    html = _html(opened(viewer_client, _url(project, "collections/")))
    headers = re.findall(r'<span class="partition-key">([^<]*)</span>', html)
    assert headers and headers == sorted(headers)
    assert all(h.startswith(("CUST#", "ORDER#")) for h in headers)
    assert 'class="entity-chip entity-0">Customer</span>' in html


def test_each_attribute_of_an_item_has_a_column_with_the_keys_first(
    project, viewer_client
):
    """As an aggregate view: after the sort key and the entity, one cell an
    attribute, its name above its whole value; in an index, the table's
    key first."""
    html = _html(opened(viewer_client, _url(project, "collections/?index=GSI1")))
    rows = re.findall(r'<tr class="item-row">(.*?)</tr>', html, re.DOTALL)
    assert rows
    widest = 0
    for row in rows:
        cells = re.findall(
            r'<td class="attribute-cell"><span class="attribute-name">([^<]*)</span> '
            r'<span class="attribute-value mono">([^<]*)</span></td>',
            row,
        )
        assert [name for name, _ in cells][:2] == ["PK", "SK"], row
        widest = max(widest, len(cells))
    # The header's Attributes span the widest row's columns.
    assert f'<th scope="colgroup" colspan="{widest}">Attributes' in html
    assert f'<th scope="rowgroup" colspan="{widest + 2}">' in html
    # Long values whole (wrapped by the page, not cut).
    values = re.findall(r'<span class="attribute-value mono">([^<]*)</span>', html)
    assert any(len(v) > 28 and "…" not in v for v in values)


def test_a_sparse_index_says_how_many_items_are_absent(project, viewer_client):
    html = _html(opened(viewer_client, _url(project, "collections/?index=GSI2")))
    assert re.findall(r'<span class="partition-key">([^<]*)</span>', html) == ["OPEN"]
    assert re.search(r"[\d,]+ items of the table are not in this index", html)
    # KEYS_ONLY: the table's keys and nothing else.
    attributes = set(re.findall(r'<span class="attribute-name">([^<]*)</span>', html))
    assert attributes == {"PK", "SK"}


def test_filter_by_entity_and_partition_key(project, viewer_client):
    html = _html(opened(viewer_client, _url(project, "collections/?entity=LineItem")))
    assert "entity-chip entity-2" in html
    assert "entity-chip entity-0" not in html and "entity-chip entity-1" not in html
    first = re.search(r'<span class="partition-key">([^<]*)</span>', html).group(1)
    only = _html(
        opened(viewer_client, _url(project, f"collections/?pk={quote(first)}"))
    )
    assert re.findall(r'<span class="partition-key">([^<]*)</span>', only) == [first]
    none = _html(
        opened(viewer_client, _url(project, "collections/?pk=nothing-like-this"))
    )
    assert "No item matches these filters." in none


def test_pages_link_to_each_other_and_keep_the_filters(project, viewer_client):
    html = _html(opened(viewer_client, _url(project, "collections/?index=GSI3&page=2")))
    assert "Page 2 of" in html
    assert 'href="?index=GSI3&amp;page=1"' in html
    pages = int(re.search(r"Page 2 of (\d+)", html).group(1))
    if pages > 2:
        assert 'href="?index=GSI3&amp;page=3"' in html
    beyond = _html(opened(viewer_client, _url(project, "collections/?page=99999")))
    last = re.search(r"Page (\d+) of (\d+)", beyond)
    assert last.group(1) == last.group(2)


def test_the_filter_form_gets_the_results_partial(project, viewer_client):
    response = opened(
        viewer_client,
        _url(project, "collections/?index=GSI3"),
        headers=HTMX | {"HX-Target": "collections-results"},
    )
    html = _html(response)
    assert html.lstrip().startswith('<section id="collections-results"')
    assert "GSI GSI3" in html


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("index=GSI9", "Table or index: Select a valid choice. GSI9 is not one"),
        ("entity=Nobody", "Entity: Select a valid choice. Nobody is not one"),
        ("page=0", "Page: Ensure this value is greater than or equal to 1."),
        ("page=two", "Page: Enter a whole number."),
        ("pk=" + "x" * 3000, "Partition key contains: Ensure this value has at most"),
    ],
)
def test_bad_filters_are_explained(project, viewer_client, query, message):
    response = opened(viewer_client, _url(project, f"collections/?{query}"))
    assert response.status_code == 422
    assert message in _html(response)
    assert 'class="partition-key"' not in _html(response)


def test_hostile_values_are_escaped_in_collections(hostile_project, viewer_client):
    html = _html(opened(viewer_client, _url(hostile_project, "collections/")))
    assert "<img src=x" not in html
    assert "H#&quot;&gt;&lt;img src=x onerror=alert(1)&gt;" in html
    assert "&lt;b&gt;&amp;amp;&lt;/b&gt;" in html
    index = _html(
        opened(viewer_client, _url(hostile_project, "collections/?index=ByNote"))
    )
    assert "not-projected" not in index
    assert "not-projected" in html


# --- Diagrams ------------------------------------------------------------------


def test_the_overview_is_inline_with_downloads(project, viewer_client):
    html = _html(viewer_client.get(_url(project, "diagrams/")))
    svg = re.search(
        r'<div class="diagram[^"]*"[^>]*>(.*?)</div>', html, re.DOTALL
    ).group(1)
    assert svg.startswith("<svg") and "<script" not in svg
    assert "Orders of a customer, newest first" in svg
    for fmt in ("svg", "png", "dot"):
        assert f'href="{_url(project, "diagrams/diagram." + fmt)}?' in html or (
            f'href="{_url(project, "diagrams/diagram." + fmt)}"' in html
        )


def test_an_item_collection_diagram_of_chosen_partitions(project, viewer_client):
    html = _html(opened(viewer_client, _url(project, "collections/?entity=Order")))
    first = re.search(r'<span class="partition-key">([^<]*)</span>', html).group(1)
    link = re.search(r'href="(/projects/\d+/diagrams/\?kind=collections[^"]*)"', html)
    diagram = _html(opened(viewer_client, link.group(1).replace("&amp;", "&")))
    assert "Item collections of the table" in diagram
    assert first in diagram
    assert "more partition" not in diagram


@pytest.mark.parametrize(
    ("fmt", "content_type", "start"),
    [
        ("svg", "image/svg+xml", b"<svg"),
        ("png", "image/png", b"\x89PNG"),
        ("dot", "text/vnd.graphviz; charset=utf-8", b"digraph collections"),
    ],
)
def test_downloads(project, viewer_client, fmt, content_type, start):
    response = opened(
        viewer_client,
        _url(
            project, f"diagrams/diagram.{fmt}?kind=collections&index=GSI3&partitions=2"
        ),
    )
    assert response.status_code == 200
    assert response["Content-Type"] == content_type
    content = (
        b"".join(response.streaming_content)
        if response.streaming  # the PNG a worker drew, from its file
        else response.content
    )
    assert content.startswith(start)
    assert response["Content-Disposition"] == (
        f'attachment; filename="order-management-collections-gsi3.{fmt}"'
    )


def test_an_unknown_format_is_404(project, viewer_client):
    assert viewer_client.get(_url(project, "diagrams/diagram.pdf")).status_code == 404


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("kind=pie", "Diagram: Select a valid choice. pie is not one"),
        ("kind=collections&partitions=0", "Partitions: Ensure this value is greater"),
        ("kind=collections&items=51", "Items per partition: Ensure this value is less"),
        ("kind=collections&index=nope", "Table or index: Select a valid choice"),
        ("kind=collections" + "&key=k" * 51, "At most 50 partitions can be drawn; 51"),
    ],
)
def test_bad_diagram_choices_are_explained(project, viewer_client, query, message):
    response = viewer_client.get(_url(project, f"diagrams/?{query}"))
    assert response.status_code == 422
    assert message in _html(response)
    assert "<svg" not in _html(response)
    download = viewer_client.get(_url(project, f"diagrams/diagram.svg?{query}"))
    assert download.status_code == 302
    followed = _html(viewer_client.get(download["Location"]))
    assert "Nothing to download" in followed


def test_no_matching_partition_is_a_message(project, viewer_client):
    response = opened(viewer_client, _url(project, "diagrams/?kind=collections&pk=zzz"))
    assert response.status_code == 200
    assert "No partition matches" in _html(response)


def test_a_render_failure_is_a_message_not_a_500(project, viewer_client, monkeypatch):
    def fail(source, fmt, **options):
        raise diagrams.RenderError("Graphviz did not finish within 10 s; choose fewer")

    monkeypatch.setattr(diagrams, "render", fail)
    response = opened(viewer_client, _url(project, "diagrams/?kind=collections"))
    assert response.status_code == 200
    assert "Graphviz did not finish within 10 s" in _html(response)
    download = opened(viewer_client, _url(project, "diagrams/diagram.png"))
    assert download.status_code == 302
    page = _html(viewer_client.get(download["Location"]))
    assert "The diagram cannot be downloaded. Graphviz did not finish" in page


def test_diagrams_are_rendered_once_per_design_content(
    project, owner_client, monkeypatch
):
    calls = []
    real = diagrams.render

    def counting(source, fmt, **options):
        calls.append(fmt)
        return real(source, fmt, **options)

    monkeypatch.setattr(diagrams, "render", counting)
    url = _url(project, "diagrams/?kind=collections&index=GSI1")
    opened(owner_client, url)
    opened(owner_client, url)
    owner_client.get(_url(project, "diagrams/?kind=overview"))
    owner_client.get(_url(project, "diagrams/?kind=overview"))
    assert calls == ["svg", "svg"]
    # A new design content draws anew.
    sample_services.sample_seed_set(
        project=project, seed=99, version=project.version, author=None
    )
    opened(owner_client, url)
    assert calls == ["svg", "svg", "svg"]


def test_htmx_gets_the_diagram_partial(project, viewer_client):
    response = opened(
        viewer_client,
        _url(project, "diagrams/?kind=overview"),
        headers=HTMX | {"HX-Target": "diagram-results"},
    )
    assert _html(response).lstrip().startswith('<section id="diagram-results"')


def test_hostile_text_in_diagrams(hostile_project, viewer_client):
    for query in ("kind=overview", "kind=collections", "kind=collections&index=ByNote"):
        html = _html(opened(viewer_client, _url(hostile_project, f"diagrams/?{query}")))
        svg = re.search(r'<div class="diagram[^"]*"[^>]*>(.*?)</div>', html, re.DOTALL)
        assert svg, html[-2000:]
        body = svg.group(1)
        assert "<script" not in body and "<img" not in body
        assert not re.search(r"<[^>]*\son[a-z]+\s*=", body)  # no event handler
    dot = opened(
        viewer_client, _url(hostile_project, "diagrams/diagram.dot?kind=collections")
    )
    assert b"<img" not in dot.content and b"&lt;img" in dot.content


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ("collections/", "The sample data cannot be made: LineItem needs 9 parents."),
        ("diagrams/?kind=collections", "The sample data cannot be made"),
        ("key-map/verdicts/", "No verdicts: The sample data cannot be made"),
    ],
)
def test_sample_data_that_cannot_be_made_is_explained(
    project, viewer_client, monkeypatch, path, message
):
    def refuse(design, **options):
        raise SampleDataError("LineItem needs 9 parents")

    # The simulation job loads the table for every section; the worker
    # that draws collections loads it again if it has dropped it.
    monkeypatch.setattr("modeler.jobs.runner.cached_simulation", refuse)
    monkeypatch.setattr("modeler.jobs.loaded_tables.cached_simulation", refuse)
    start_jobs(viewer_client, project)
    response = opened(viewer_client, _url(project, path))
    assert response.status_code == 200
    assert message in _html(response)
    # The overview needs no sample data.
    overview = _html(viewer_client.get(_url(project, "diagrams/?kind=overview")))
    assert "<svg" in overview


def test_png_downloads_at_a_chosen_scale(project, viewer_client):
    """For a projector or a slide: the PNG at 2x (and 3x, 4x) is that many
    times the pixels of the 1x one."""
    import struct

    def png_width(query: str) -> int:
        response = viewer_client.get(
            _url(project, f"diagrams/diagram.png?kind=overview{query}")
        )
        assert response.status_code == 200, response.status_code
        return struct.unpack(">I", response.content[16:20])[0], response

    one, _ = png_width("")
    two, response = png_width("&scale=2")
    assert abs(two - 2 * one) <= 2
    assert response["Content-Disposition"].endswith('-overview@2x.png"')
    assert png_width("&scale=9")[0] == one  # not a scale on offer: 1x
    page = _html(viewer_client.get(_url(project, "diagrams/?kind=overview")))
    assert ">PNG 2x</a>" in page and "scale=2" in page
