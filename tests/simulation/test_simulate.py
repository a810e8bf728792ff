"""Simulating the examples: every pattern returns what it promises, and a
broken design fails with a reason a designer understands."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.engine.size import item_size
from modeler.review.review import review_design
from modeler.simulation import PatternRun, Simulation, sample

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def example(name: str) -> d.Design:
    return read_design((EXAMPLES / f"{name}.yaml").read_text()).design


@pytest.fixture(scope="module")
def orders() -> Simulation:
    return Simulation(example("order-management"))


@pytest.mark.parametrize(
    "name", ["order-management", "social-graph", "device-telemetry"]
)
def test_every_pattern_of_the_examples_passes(name):
    simulation = Simulation(example(name))
    runs = simulation.run_all()
    failures = {r.pattern.name: r.verdict.reasons for r in runs if not r.passed}
    assert not failures
    reads = [r for r in runs if r.pattern.is_read]
    assert all(r.count > 0 for r in reads), "every read finds sample items"


def test_the_same_seed_gives_the_same_results():
    first = Simulation(example("social-graph")).run_all()
    second = Simulation(example("social-graph")).run_all()
    assert [(r.parameters, r.count, r.capacity.read) for r in first] == [
        (r.parameters, r.count, r.capacity.read) for r in second
    ]


def test_a_query_reports_counts_pages_and_capacity(orders):
    run = orders.run(
        next(
            p
            for p in orders.design.access_patterns
            if p.name == "Orders of a customer, newest first"
        )
    )
    assert run.passed
    assert run.pages == 1
    assert run.count == len(run.items) == run.scanned_count
    assert 0 < run.capacity.read <= 0.5 * max(1, run.count)
    dates = [item["orderDate"] for item in run.items]
    assert dates == sorted(dates, reverse=True), "newest first"
    assert {e for e in run.item_entities} == {"Order"}
    assert run.calls[0].cli.startswith("aws dynamodb query ")


def test_sparse_index_holds_only_open_orders(orders):
    run = orders.run(
        next(
            p
            for p in orders.design.access_patterns
            if p.name == "All open orders, oldest first"
        )
    )
    assert run.passed
    assert run.count == sum(
        1
        for item, entity in zip(orders.items, orders.entities, strict=True)
        if entity == "Order" and item["status"] == "OPEN"
    )
    # KEYS_ONLY: the index returns keys, not the order's attributes.
    assert all("total" not in item for item in run.items)


def test_a_transaction_costs_twice_and_leaves_the_table_as_it_was(orders):
    place = next(
        p
        for p in orders.design.access_patterns
        if p.name == "Place an order with its line items"
    )
    read = next(
        p
        for p in orders.design.access_patterns
        if p.name == "Order with its line items"
    )
    before = orders.run(read)
    run = orders.run(place)
    assert run.passed, run.verdict.reasons
    items = run.count
    assert items >= 2
    # Each item is at most 1 KB here: 1 WCU per table write, times 2 for the
    # transaction, plus the GSI writes.
    assert run.capacity.write >= 2 * items
    assert run.capacity.by_index["table"] == 2 * items
    after = orders.run(read)
    assert [i["SK"] for i in after.items] == [i["SK"] for i in before.items]


def test_an_update_that_leaves_the_sparse_index(orders):
    ship = next(p for p in orders.design.access_patterns if p.name == "Ship an order")
    run = orders.run(ship)
    assert run.passed, run.verdict.reasons
    # The order leaves GSI2 (KEYS_ONLY) and moves within GSI1: capacity is
    # spent on the table and on both indexes.
    assert {"table", "GSI1", "GSI2"} <= set(run.capacity.by_index)


def test_a_transaction_updates_the_item_its_parameters_name():
    """Saving a version (version-history): the Put of a version, and an
    Update of its document found by the Document's key templates
    (USER#{ownerId}, DOC#{documentId}). The document updated is the
    version's own, whose key the parameters render, not another document
    drawn at random under a documentId the parameters do not hold."""
    problems = Path(__file__).resolve().parents[1] / "solver" / "problems"
    design = read_design((problems / "version-history.yaml").read_text()).design
    simulation = Simulation(design)
    save = next(p for p in design.access_patterns if p.name == "Save a new version")
    run = simulation.run(save)
    assert run.passed, run.verdict.reasons
    put, update = run.calls[0].request["TransactItems"]
    version = put["Put"]["Item"]
    key = update["Update"]["Key"]
    document_id = version["documentId"]["S"]
    assert key["SK"] == {"S": f"DOC#{document_id}"}
    assert run.parameters["documentId"] == document_id
    assert key["PK"] == {"S": f"USER#{run.parameters['ownerId']}"}
    (document,) = [
        item
        for item, entity in zip(simulation.items, simulation.entities, strict=True)
        if entity == "Document" and item["documentId"] == document_id
    ]
    assert document["ownerId"] == run.parameters["ownerId"]


def test_a_broken_key_template_fails_with_a_reason():
    design = example("order-management")
    customer = design.entity("Customer")
    keys = dict(customer.keys)
    keys["SK"] = d.KeyTemplate("ORDER#PROFILE")  # now inside every order query
    broken = dataclasses.replace(
        design,
        entities=tuple(
            dataclasses.replace(e, keys=d.freeze(keys)) if e.name == "Customer" else e
            for e in design.entities
        ),
    )
    run = Simulation(broken).run(
        next(
            p
            for p in broken.access_patterns
            if p.name == "Orders of a customer, newest first"
        )
    )
    assert not run.passed
    assert any("does not promise (1 Customer)" in r for r in run.verdict.reasons)


def test_a_filter_that_discards_most_reads_fails():
    design = example("social-graph")
    scan = d.AccessPattern(
        name="Verified users",
        operation="Scan",
        filter="verified = true",
        expects=d.Expectation(("User",), (d.Predicate("verified", "=", ("true",)),)),
    )
    run = Simulation(dataclasses.replace(design, access_patterns=(scan,))).run(scan)
    assert not run.passed
    assert any("times what it returns" in r for r in run.verdict.reasons)


def test_a_pattern_without_values_for_its_parameters_says_which():
    design = example("social-graph")
    lookup = d.AccessPattern(
        name="By nickname",
        operation="Query",
        key=(d.KeyClause("PK", "=", ("NICK#{nickname}",)),),
        expects=d.Expectation(
            ("User",), (d.Predicate("displayName", "=", ("{nickname}",)),)
        ),
    )
    run = Simulation(dataclasses.replace(design, access_patterns=(lookup,))).run(lookup)
    assert not run.passed
    assert "nickname" in run.error


def test_a_literal_number_key_and_a_projection_without_the_keys():
    """`SK >= 4` on a number sort key is the number 4, and a pattern that
    projects only `points` is judged on the projected values."""
    text = (Path(__file__).parent / "number-sort-key.yaml").read_text()
    design = read_design(text).design
    run = Simulation(design).run(design.access_patterns[0])
    assert run.passed, run.verdict.reasons
    assert {"N": "4"} in run.calls[0].request["ExpressionAttributeValues"].values()
    assert run.items and all(set(item) == {"points"} for item in run.items)
    assert all(item["points"] >= 4 for item in run.items)


def test_the_cache_tells_designs_apart_by_their_users_items():
    from modeler.simulation.cache import design_digest

    design = example("social-graph")
    item = d.freeze({"PK": {"S": "USER#x"}, "SK": {"S": "PROFILE"}})
    with_item = dataclasses.replace(
        design, sample_data=dataclasses.replace(design.sample_data, items=(item,))
    )
    assert design_digest(design) != design_digest(with_item)
    assert design_digest(with_item) == design_digest(dataclasses.replace(with_item))


def test_editing_patterns_or_descriptions_reuses_the_loaded_table():
    from modeler.simulation.cache import cached_simulation, data_digest

    design = example("social-graph")
    pattern = design.access_patterns[0]
    faster = dataclasses.replace(
        pattern, traffic=d.Traffic(rps=pattern.traffic.rps * 2 + 1)
    )
    entity = design.entities[0]
    edited = dataclasses.replace(
        design,
        description="reworded",
        access_patterns=(faster, *design.access_patterns[1:]),
        entities=(
            dataclasses.replace(entity, description="reworded"),
            *design.entities[1:],
        ),
    )
    assert data_digest(edited) == data_digest(design)
    first, _ = cached_simulation(design)
    again, _ = cached_simulation(edited)
    assert again is first
    # Callers run the patterns of the version they hold.
    assert again.run(faster).pattern.traffic == faster.traffic

    # A change to what the items are made of loads the data again.
    recounted = dataclasses.replace(
        design,
        entities=(
            dataclasses.replace(
                entity,
                sample=dataclasses.replace(entity.sample, count=d.Count(value=7)),
            ),
            *design.entities[1:],
        ),
    )
    assert data_digest(recounted) != data_digest(design)


def test_a_run_is_kept_and_given_back():
    design = example("social-graph")
    simulation = Simulation(design)
    pattern = design.access_patterns[0]
    run = simulation.draw(simulation.run(pattern))
    assert simulation.run(pattern) is run
    draws = run.draws
    assert simulation.draw(run).draws == draws


def test_a_pattern_edited_only_in_its_traffic_or_text_keeps_its_run(monkeypatch):
    design = example("social-graph")
    simulation = Simulation(design)
    pattern = design.access_patterns[0]
    run = simulation.draw(simulation.run(pattern))
    ran = []
    monkeypatch.setattr(
        simulation, "_run", lambda asked: ran.append(asked) or PatternRun(asked)
    )
    busier = dataclasses.replace(
        pattern, traffic=d.Traffic(rps=900, peak_rps=2000), description="Busier"
    )

    again = simulation.draw(simulation.run(busier))

    assert not ran
    # The run is the edited pattern's (the review reads its traffic there).
    assert again.pattern == busier and again.pattern.traffic.rps == 900
    assert (again.items, again.capacity, again.draws) == (
        run.items,
        run.capacity,
        run.draws,
    )
    assert simulation.run(pattern).pattern == pattern
    # Another request is run.
    other = dataclasses.replace(pattern, limit=1)
    simulation.run(other)
    assert ran == [other]


def _run_alone(design: d.Design, pattern: d.AccessPattern):
    return Simulation(dataclasses.replace(design, access_patterns=(pattern,))).run(
        pattern
    )


def test_a_get_item_whose_key_template_differs_from_the_entitys_names_both():
    """The designer typed PROFILE# where the entity writes PROFILE: the
    error shows the two templates side by side with a real key."""
    design = example("social-graph")
    get = d.AccessPattern(
        name="Get user profile",
        operation="GetItem",
        key=(
            d.KeyClause("PK", "=", ("USER#{userId}",)),
            d.KeyClause("SK", "=", ("PROFILE#{userId}",)),
        ),
        expects=d.Expectation(("User",), (d.Predicate("userId", "=", ("{userId}",)),)),
    )
    run = _run_alone(design, get)
    assert not run.passed
    assert run.error == (
        "the key condition SK = 'PROFILE#{userId}' matches no User item's key: "
        "User writes SK as 'PROFILE', such as 'PROFILE'"
    )


def test_a_query_on_an_index_the_entity_is_not_in_says_so():
    design = example("social-graph")
    query = d.AccessPattern(
        name="Users by GSI1",
        operation="Query",
        index="GSI1",
        key=(d.KeyClause("GSI1PK", "=", ("USER#{userId}",)),),
        expects=d.Expectation(("User",), (d.Predicate("userId", "=", ("{userId}",)),)),
    )
    run = _run_alone(design, query)
    assert run.error == (
        "the key condition GSI1PK = 'USER#{userId}' can match no User item: "
        "User items have no GSI1PK (they are not in GSI1)"
    )


def test_requests_that_ask_for_one_simulation_at_once_build_it_once(monkeypatch):
    """The simulation page asks once per pattern, all at the same time: the
    table is built once and every request gets it."""
    import threading

    from modeler.simulation import cache

    built = []
    asking = threading.Semaphore(0)

    class Slow(Simulation):
        def __init__(self, design, **kwargs):
            built.append(design.name)
            # The build waits until every request has asked: they all ask
            # while it is under way.
            for _ in range(4):
                assert asking.acquire(timeout=60)
            super().__init__(design, **kwargs)

    monkeypatch.setattr(cache, "Simulation", Slow)
    # A seed of its own: data no other test has loaded.
    social = example("social-graph")
    design = dataclasses.replace(
        social,
        name="Built once",
        sample_data=dataclasses.replace(social.sample_data, seed=987_654),
    )
    results = []
    threads = [
        threading.Thread(
            target=lambda: (
                asking.release(),
                results.append(cache.cached_simulation(design)),
            )
        )
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert built == ["Built once"]
    assert len({id(simulation) for simulation, _ in results}) == 1


def test_a_get_by_a_padded_number_tries_an_empty_draw_without_breaking_the_number():
    """`VERSION#{versionNo:06d}`: the draw of values no item has changed a
    number parameter into text ('1-none'), which the key cannot place, and
    the pattern failed although the design is right."""
    text = (Path(__file__).parent / "padded-number-get.yaml").read_text()
    design = read_design(text).design
    simulation = Simulation(design)
    pattern = next(p for p in design.access_patterns if p.name == "A version by number")

    run = simulation.draw(simulation.run(pattern))

    assert run.passed, run.verdict.reasons
    assert run.draws > 1


def test_progress_is_reported_while_items_are_made_and_loaded():
    design = example("order-management")
    calls: list[tuple[str, int, int]] = []

    simulation = Simulation(design, progress=lambda *call: calls.append(call))

    total = len(simulation.items)
    made = [(done, of) for phase, done, of in calls if phase == "generating"]
    loaded = [(done, of) for phase, done, of in calls if phase == "loading"]
    assert len(made) > 1 and made[-1] == (total, total)
    assert [done for done, _ in made] == sorted(done for done, _ in made)
    assert loaded[0] == (0, total) and loaded[-1] == (total, total)
    assert len(loaded) > 2
    # Reporting changes nothing in what is made.
    assert simulation.items == Simulation(design).items


def test_the_review_is_handed_the_sizes_the_load_measured(monkeypatch):
    design = example("order-management")
    reported = Simulation(design, progress=lambda *call: None)
    quiet = Simulation(design)
    measured = [item_size(item) for item in quiet.items]
    assert reported.item_sizes == quiet.item_sizes == measured
    # The review reads them rather than measuring the items again, and
    # finds and costs the same as when it measures them itself.
    runs = quiet.run_all()
    handed = review_design(design, simulation=quiet, runs=runs)
    monkeypatch.setattr(quiet, "item_sizes", None)
    quiet.derived.clear()
    remeasured = review_design(design, simulation=quiet, runs=runs)
    assert handed.findings == remeasured.findings
    assert handed.cost == remeasured.cost


def test_progress_that_raises_stops_the_build():
    class Stop(Exception):
        pass

    def stop(phase: str, done: int, total: int) -> None:
        if done:
            raise Stop(phase)

    with pytest.raises(Stop, match="generating"):
        Simulation(example("order-management"), progress=stop)


@pytest.mark.parametrize(
    "size",
    [
        7,
        sample.SHUFFLED,  # shuffled whole
        sample.SHUFFLED + 1,  # sampled from a pool
        300_000,  # sampled through a set of the chosen indexes
    ],
)
def test_positions_drawn_one_at_a_time_are_the_shuffled_ones(size):
    # The same seed gives the same positions in the same order either way.
    for seed in ("1:a", "42:b"):
        rng, again = random.Random(seed), random.Random(seed)  # noqa: S311
        drawn = list(sample.drawn(list(range(size)), rng))
        assert drawn == sample.shuffled(list(range(size)), again)
