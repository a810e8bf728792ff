"""The Python data-access module: ruff and mypy --strict pass on it for
every shipped example and solver problem, and its functions do on the
engine what the design says (keys from the templates, sparse index keys
set and removed, pages, conditions as named exceptions)."""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import io
import os
import sys
import types
from decimal import Decimal
from unittest import mock

import pytest

from modeler.endpoint.designs import design_load
from modeler.endpoint.server import start
from modeler.endpoint.service import Service
from modeler.engine.engine import Engine
from modeler.engine.types import item_to_wire
from modeler.exporters.access.cases import READS, SAMPLE_ITEMS, sample_slice
from modeler.exporters.access.module import access_module
from modeler.exporters.access.python_tests import generated_tests
from modeler.exporters.access.write_cases import WRITES
from modeler.exporters.formats import EXPORT_FORMATS, ExportError
from modeler.simulation.requests import CLIENT_METHODS
from tests.exporters.access_helpers import (
    DESIGNS,
    UPDATE_WAYS,
    batch_design,
    check_with_tools,
    empty_table,
    load,
    run,
    run_generated_tests,
    write_module,
    write_tests,
)
from tests.exporters.helpers import EXAMPLES, ROOT, example


def test_every_module_passes_ruff_and_mypy_strict(tmp_path):
    for path in [*DESIGNS, UPDATE_WAYS]:
        write_module(example(path), tmp_path)
    assert len(list(tmp_path.glob("*.py"))) == len(DESIGNS) + 1
    assert check_with_tools(tmp_path) == []


@pytest.fixture(scope="module")
def orders(tmp_path_factory):
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    return design, load(write_module(design, tmp_path_factory.mktemp("orders")))


def _order(m, order_id: str, status: str = "OPEN"):
    return m.Order(
        customer_id="C1",
        order_id=order_id,
        order_date=f"2025-03-{int(order_id[1:]):02d}",
        status=status,
        total=Decimal("12.50"),
    )


def _stored(client, design, key):
    response = client.get_item(
        TableName=design.table.name, Key={k: {"S": v} for k, v in key.items()}
    )
    return {k: next(iter(v.values())) for k, v in response.get("Item", {}).items()}


def test_keys_come_from_the_templates_with_padding_and_sparse_conditions(orders):
    _, m = orders
    line = m.LineItem(
        order_id="O1",
        line_no=7,
        product_id="P",
        product_name="Pen",
        quantity=Decimal(1),
        price=Decimal("2.5"),
    )
    assert line.all_keys() == {
        "PK": "ORDER#O1",
        "SK": "ITEM#007",
        "GSI3PK": "ORDER#O1",
        "GSI3SK": "ITEM#007",
    }
    open_keys = _order(m, "O1").all_keys()
    assert open_keys["GSI2PK"] == "OPEN" and open_keys["GSI2SK"] == "2025-03-01#O1"
    # A shipped order is not in the sparse open-orders index.
    assert "GSI2PK" not in _order(m, "O1", "SHIPPED").all_keys()
    assert m.order_sk("2025-03-01", "O1") == "ORDER#2025-03-01#O1"


def test_a_transaction_puts_an_order_and_its_lines_and_refuses_a_second_time(orders):
    design, m = orders
    client = empty_table(design)
    order = _order(m, "O1")
    lines = [
        m.LineItem(
            order_id="O1",
            line_no=n,
            product_id="P",
            product_name="Pen",
            quantity=Decimal(n),
            price=Decimal("2.5"),
        )
        for n in (1, 2)
    ]
    m.place_an_order_with_its_line_items(client, order=order, line_items=lines)
    found = list(m.order_with_its_line_items(client, order_id="O1"))
    assert found == [order, *lines]  # recognised by their keys, typed
    with pytest.raises(m.TransactionCanceled) as refused:
        m.place_an_order_with_its_line_items(client, order=order, line_items=lines)
    assert refused.value.condition_failed
    assert refused.value.reasons[0] == "ConditionalCheckFailed"


def test_shipping_removes_the_sparse_keys_and_a_failed_condition_is_named(orders):
    design, m = orders
    client = empty_table(design)
    m.place_an_order_with_its_line_items(client, order=_order(m, "O1"), line_items=[])
    assert [o.order_id for o in m.all_open_orders_oldest_first(client)] == ["O1"]
    m.ship_an_order(
        client,
        customer_id="C1",
        order_date="2025-03-01",
        order_id="O1",
        shipped_at="2025-03-02T10:00:00Z",
    )
    stored = _stored(client, design, {"PK": "CUST#C1", "SK": "ORDER#2025-03-01#O1"})
    assert "GSI2PK" not in stored and "GSI2SK" not in stored
    assert stored["status"] == "SHIPPED" and stored["GSI1PK"] == "CUST#C1#SHIPPED"
    assert list(m.all_open_orders_oldest_first(client)) == []
    with pytest.raises(m.ConditionFailed):
        m.ship_an_order(
            client,
            customer_id="C1",
            order_date="2025-03-01",
            order_id="O1",
            shipped_at="2025-03-03T10:00:00Z",
        )


def test_a_limited_query_pages_with_its_last_evaluated_key(orders):
    design, m = orders
    client = empty_table(design)
    for n in range(1, 23):
        m.place_an_order_with_its_line_items(
            client, order=_order(m, f"O{n}"), line_items=[]
        )
    first = m.orders_of_a_customer_newest_first_page(client, customer_id="C1")
    assert [o.order_id for o in first.items] == [f"O{n}" for n in range(22, 2, -1)]
    assert first.last_evaluated_key is not None
    second = m.orders_of_a_customer_newest_first_page(
        client, customer_id="C1", start_key=first.last_evaluated_key
    )
    assert [o.order_id for o in second.items] == ["O2", "O1"]
    every = list(m.orders_of_a_customer_newest_first(client, customer_id="C1"))
    assert every == first.items + second.items


def test_a_projecting_index_gives_partial_objects_with_values_from_the_keys(orders):
    design, m = orders
    client = empty_table(design)
    m.place_an_order_with_its_line_items(client, order=_order(m, "O1"), line_items=[])
    (found,) = m.orders_of_a_customer_in_a_status(
        client, customer_id="C1", status="OPEN"
    )
    # GSI1 projects orderDate, status, total: customerId and orderId are
    # read back from the keys.
    assert found == m.OrderPart(
        customer_id="C1",
        order_id="O1",
        order_date="2025-03-01",
        status="OPEN",
        total=Decimal("12.5"),
    )


def test_the_format_is_in_the_registry_with_a_module_name():
    chosen = EXPORT_FORMATS["python"]
    design = example(EXAMPLES[0])
    assert chosen.filename(design).endswith("_access.py")
    assert chosen.filename(design).removesuffix(".py").isidentifier()
    assert chosen.render(design).startswith('"""Data access for the design')


def test_the_generated_tests_pass_on_every_design_and_hold_to_ruff_and_mypy(
    tmp_path,
):
    """Each shipped example and solver problem: a test per read pattern,
    every one passing on the engine, and the test modules as clean as the
    modules they test."""
    tested = []
    for path in [*DESIGNS, UPDATE_WAYS]:
        tested += write_tests(example(path), tmp_path).tested
    done = run_generated_tests(tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(tested)} passed" in done.stdout
    assert len(tested) > 2 * len(DESIGNS)
    assert check_with_tools(tmp_path) == []


def test_every_pattern_of_the_examples_and_problems_has_a_generated_test():
    """The slice of sample data the tests load holds an item of every
    entity a pattern reads, while staying small: the many-to-many problem's
    courses come after its 300 first items (students and enrolments)."""
    for path in DESIGNS:
        design = example(path)
        assert generated_tests(design).notes == (), path.stem
        items = sample_slice(design).items
        assert len(items) <= SAMPLE_ITEMS + len(design.entities), path.stem
    problem = example(next(p for p in DESIGNS if p.stem == "many-to-many"))
    tested = generated_tests(problem).tested
    assert {"get_a_course", "enrol_a_student_in_a_course"} <= set(tested)


def _with_pattern(design, name, **changes):
    patterns = tuple(
        dataclasses.replace(p, **changes) if p.name == name else p
        for p in design.access_patterns
    )
    return dataclasses.replace(design, access_patterns=patterns)


def test_a_design_edit_that_breaks_a_pattern_fails_its_generated_test(tmp_path):
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    newest = "Orders of a customer, newest first"
    assert not next(p for p in design.access_patterns if p.name == newest).scan_forward
    # Reading the index forward gives the oldest orders: the pattern no
    # longer keeps its promise, and its test says so (the others pass).
    broken = _with_pattern(design, newest, scan_forward=True)
    write_tests(broken, tmp_path)
    done = run_generated_tests(tmp_path)
    assert done.returncode == 1
    assert (
        "FAILED order_management_access_test.py::test_orders_of_a_customer_newest_first"
        in done.stdout
    )
    assert "1 failed" in done.stdout


def _with_action(design, name, **changes):
    pattern = next(p for p in design.access_patterns if p.name == name)
    (action,) = pattern.actions
    return _with_pattern(
        design, name, actions=(dataclasses.replace(action, **changes),)
    )


@pytest.mark.parametrize(
    "changes",
    [
        # The index of orders by status keeps the order under OPEN.
        {"set": (("status", "SHIPPED"), ("shippedAt", "{shippedAt}"))},
        # The shipped order stays in the sparse index of open orders.
        {"remove": ()},
    ],
    ids=["stale-index-key", "sparse-key-kept"],
)
def test_a_write_that_leaves_an_index_key_wrong_fails_its_generated_test(
    tmp_path, changes
):
    """Shipping an order must rewrite GSI1PK and remove the GSI2 keys, as the
    Order's key templates say: an update that forgets either fails its
    generated test, which reads the shipped order back (the others pass)."""
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    write_tests(_with_action(design, "Ship an order", **changes), tmp_path)
    done = run_generated_tests(tmp_path)
    assert done.returncode == 1, done.stdout
    assert "FAILED order_management_access_test.py::test_ship_an_order" in done.stdout
    assert "1 failed" in done.stdout


def test_the_generated_write_tests_keep_the_design_s_promises(tmp_path):
    """Ship an order: the shipped order read back, and a second shipment
    refused by the condition; placing an order refused the second time."""
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    text = write_tests(design, tmp_path).tested
    assert {"ship_an_order", "place_an_order_with_its_line_items"} <= set(text)
    source = (tmp_path / "order_management_access_test.py").read_text("utf-8")
    ship = source.split("def test_ship_an_order(", 1)[1].split("\ndef ", 1)[0]
    assert "_check_written(client, function)" in ship
    assert "pytest.raises(access.ConditionFailed)" in ship
    place = source.split("def test_place_an_order_with_its_line_items(", 1)[1]
    assert "pytest.raises(access.TransactionCanceled)" in place.split("\ndef ", 1)[0]


def test_a_design_without_sample_data_exports_no_tests_and_says_why():
    """The code exports; its tests, and a NoSQL Workbench model with items,
    need the sample data: each says it cannot be made and why."""
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    customer = design.entities[0]
    count = dataclasses.replace(customer.sample.count, value=5_000_000)
    customer = dataclasses.replace(
        customer, sample=dataclasses.replace(customer.sample, count=count)
    )
    design = dataclasses.replace(design, entities=(customer, *design.entities[1:]))
    for name in ("python", "typescript", "electrodb", "dynamodb-toolbox"):
        assert EXPORT_FORMATS[name].render(design)
    for name, options in [
        ("python-tests", {}),
        ("typescript-tests", {}),
        ("nosql-workbench", {"generated": 10}),
    ]:
        with pytest.raises(ExportError) as refused:
            EXPORT_FORMATS[name].export(design, **options)
        assert str(refused.value).startswith(
            "The sample data cannot be made: the sample data would hold more "
            "than 1,000,000 items (Customer alone would have 5,000,000)"
        ), name


def test_the_readme_example_runs(tmp_path):
    """The README's use of the module, run as written; boto3's client is
    the engine's, whose table exists as a deployed one would."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    snippet = readme.split("<!-- python-access-example -->\n```python\n")[1]
    snippet = snippet.split("```")[0]
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    write_module(design, tmp_path)
    client = empty_table(design)
    boto3 = types.ModuleType("boto3")
    boto3.client = lambda service: client if service == "dynamodb" else None
    out = io.StringIO()
    with (
        mock.patch.dict(sys.modules, {"boto3": boto3}),
        mock.patch.object(sys, "path", [str(tmp_path), *sys.path]),
        contextlib.redirect_stdout(out),
    ):
        exec(compile(snippet, "README.md", "exec"), {})  # noqa: S102 (our README)
        sys.modules.pop("order_management_access", None)
    printed = out.getvalue().splitlines()
    assert printed[0] == "O1 OPEN 12.5"
    assert printed[1] == "already placed: ['ConditionalCheckFailed']"
    # Each print's comment shows what it prints (after its first argument
    # when that is a label).
    shown = [
        line.split("  # ", 1)[1]
        for line in snippet.splitlines()
        if "print(" in line and "  # " in line
    ]
    assert len(shown) == len(printed)
    for comment, line in zip(shown, printed, strict=True):
        assert line.endswith(comment), (comment, line)
    assert len(snippet.strip().splitlines()) <= 16


class _Recording:
    """The engine's client, keeping each request it is sent."""

    def __init__(self, client) -> None:
        self.client = client
        self.sent: list[tuple[str, dict]] = []

    def __getattr__(self, method):
        def send(**request):
            self.sent.append((method, request))
            return getattr(self.client, method)(**request)

        return send


def test_each_read_function_sends_the_request_the_simulator_sent(tmp_path):
    """Every read pattern of the examples and solver problems: its function,
    called with the parameters the simulator drew, sends the request the
    simulator checked (its capacity report aside), byte for byte."""
    compared = 0
    for path in DESIGNS:
        design = example(path)
        made = access_module(design)
        module = load(write_module(design, tmp_path))
        simulation = sample_slice(design)
        for code in made.patterns:
            if not code.text or code.pattern.operation not in READS:
                continue
            run = simulation.run(code.pattern)
            assert not run.error, (path.stem, code.pattern.name, run.error)
            first = run.calls[0]
            simulated = {
                k: v for k, v in first.request.items() if k != "ReturnConsumedCapacity"
            }
            client = _Recording(simulation.client)
            arguments = {a.identifier: run.parameters[a.name] for a in code.arguments}
            function = getattr(module, code.page or code.function)
            function(client, **arguments)
            ((method, sent),) = client.sent
            assert (method, sent) == (CLIENT_METHODS[first.operation], simulated), (
                path.stem,
                code.pattern.name,
            )
            compared += 1
    assert compared > 2 * len(DESIGNS)


def _simulated_writes(operation, request, table):
    """The simulator's write request as one (kind, body) per item it
    writes, in its plan's order: a body holds the Item put or the Key."""
    if operation == "TransactWriteItems":
        return [next(iter(e.items())) for e in request["TransactItems"]]
    if operation == "BatchWriteItem":
        return [next(iter(e.items())) for e in request["RequestItems"][table]]
    return [(operation, request)]


def test_each_write_function_sends_the_request_the_simulator_sent(tmp_path):
    """Every write pattern of the examples and solver problems, of a design
    with every way an update writes a parameter, and a batch write: its
    function, called with the parameters the simulator drew and the entity
    objects made from the items the simulator's own request puts, sends
    that request (its capacity report aside), byte for byte, and the write
    succeeds on the table the simulator wrote to. The simulator sends
    nothing else the functions leave out (no ReturnValues, no
    ReturnValuesOnConditionCheckFailure)."""
    compared, operations = 0, set()
    designs = [example(path) for path in [*DESIGNS, UPDATE_WAYS]]
    for design in [*designs, batch_design()]:
        made = access_module(design)
        module = load(write_module(design, tmp_path))
        simulation = sample_slice(design)
        table = design.table.name
        for code in made.patterns:
            pattern = code.pattern
            if pattern.operation not in WRITES:
                continue
            assert code.text, (design.name, pattern.name, code.problem)
            run = simulation.run(pattern)
            assert not run.error, (design.name, pattern.name, run.error)
            (call,) = run.calls
            simulated = {
                k: v for k, v in call.request.items() if k != "ReturnConsumedCapacity"
            }
            # The plan drawn again as the run drew it: the action of each
            # item the request writes.
            _, plan = simulation.write_draw(pattern)
            written = _simulated_writes(pattern.operation, simulated, table)
            assert len(written) == len(plan), (design.name, pattern.name)
            arguments = {
                a.identifier: run.parameters[a.name]
                for a in code.arguments
                if not a.entity
            }
            for argument in (a for a in code.arguments if a.entity):
                cls = getattr(module, made.names[argument.entity].cls)
                objects = [
                    cls.from_item(module._from_wire(body["Item"]))
                    for (action, _), (_, body) in zip(plan, written, strict=True)
                    if action.operation == "Put" and action.entity == argument.entity
                ]
                arguments[argument.identifier] = (
                    objects if argument.many else objects[0]
                )
            client = _Recording(simulation.client)
            # As the simulator does: the items a Put re-creates removed
            # first, every item it wrote put back after.
            keys = [a.name for a in design.table.key_attributes]
            for action, item in plan:
                if action.operation == "Put":
                    wire = item_to_wire({k: item[k] for k in keys})
                    simulation.client.delete_item(TableName=table, Key=wire)
            refused = None
            try:
                getattr(module, code.function)(client, **arguments)
            except module.DataAccessError as exc:
                refused = exc
            finally:
                for _, item in plan:
                    simulation.client.put_item(TableName=table, Item=item_to_wire(item))
            ((method, sent),) = client.sent
            assert (method, sent) == (CLIENT_METHODS[call.operation], simulated), (
                design.name,
                pattern.name,
            )
            # The simulator's write succeeded (no run.error): so does this one.
            assert refused is None, (design.name, pattern.name, refused)
            compared += 1
            operations.add(pattern.operation)
    assert compared >= 2 * len(DESIGNS)
    assert operations == set(WRITES)


def test_the_modules_import_only_the_standard_library():
    """No dependency to install beside the module (boto3's client is passed
    in; the module only names what it uses of it)."""
    for path in DESIGNS:
        tree = ast.parse(access_module(example(path)).text)
        imported = {
            name.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.Import | ast.ImportFrom)
            for name in (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
            )
        }
        assert imported <= set(sys.stdlib_module_names) | {"__future__"}, path.stem


def _on_the_endpoint(directory, service, *selected):
    """pytest on the generated tests in `directory`, without a
    dynamodb_client fixture: boto3's client for `service` served over
    HTTP, as AWS_ENDPOINT_URL_DYNAMODB names it."""
    server = start(service, ("127.0.0.1", 0))
    try:
        return run(
            "pytest",
            "-q",
            "-rfEs",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:django",
            "-p",
            "no:xdist",
            "-c",
            os.devnull,
            "--rootdir",
            str(directory),
            *selected,
            ".",
            cwd=directory,
            env={
                "AWS_ENDPOINT_URL_DYNAMODB": server.url,
                "AWS_ACCESS_KEY_ID": "test",
                "AWS_SECRET_ACCESS_KEY": "test",
                "AWS_DEFAULT_REGION": "us-east-1",
            },
        )
    finally:
        server.shutdown()
        server.server_close()


def test_the_generated_tests_pass_on_boto3_against_the_endpoint(tmp_path):
    """Without a dynamodb_client fixture, the generated tests take boto3's
    client for the endpoint AWS_ENDPOINT_URL_DYNAMODB names, as the README
    says: serve_dynamodb's, started without a design."""
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    tested = write_tests(design, tmp_path).tested
    done = _on_the_endpoint(tmp_path, Service())
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(tested)} passed" in done.stdout, done.stdout
    assert "skipped" not in done.stdout


def test_the_readme_says_to_start_the_endpoint_without_a_design(tmp_path):
    """Each generated test creates its table, so an endpoint started with
    the design (its table loaded) refuses them; the README's paragraph on
    the generated Python tests says to start serve_dynamodb without one, as
    their docstring does."""
    design = example(next(p for p in EXAMPLES if p.stem == "order-management"))
    write_tests(design, tmp_path)
    engine = Engine()
    design_load(engine, design)
    done = _on_the_endpoint(
        tmp_path, Service(engine), "-k", "test_get_customer_profile"
    )
    assert done.returncode != 0, done.stdout
    assert "ResourceInUseException" in done.stdout, done.stdout
    generated = " ".join(
        (tmp_path / "order_management_access_test.py").read_text().split()
    )
    assert "(start serve_dynamodb without a design)" in generated
    readme = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    paragraph = readme.split("`--format python-tests` writes", 1)[1]
    paragraph = paragraph.split("<!-- python-access-example -->", 1)[0]
    assert "`manage.py serve_dynamodb` started without a design" in paragraph


def test_an_item_no_entity_of_the_pattern_describes_is_refused_by_name(orders):
    """An item the pattern's entities' keys do not describe (another
    program's, in the same index partition) raises UnrecognisedItem,
    holding the item, instead of becoming a wrong object."""
    design, m = orders
    client = empty_table(design)
    m.place_an_order_with_its_line_items(client, order=_order(m, "O1"), line_items=[])
    client.put_item(
        TableName=design.table.name,
        Item={
            "PK": {"S": "NOTE#1"},
            "SK": {"S": "NOTE#1"},
            "GSI3PK": {"S": "ORDER#O1"},
            "GSI3SK": {"S": "NOTE#1"},
        },
    )
    with pytest.raises(m.UnrecognisedItem) as refused:
        list(m.order_with_its_line_items(client, order_id="O1"))
    assert refused.value.item["SK"] == "NOTE#1"
    # A customer's item is recognised, but is not an order.
    customer = {"PK": "CUST#C1", "SK": "PROFILE", "GSI1PK": "EMAIL#a@b.c"}
    customer |= {"GSI1SK": "PROFILE", "customerId": "C1", "email": "a@b.c"}
    customer |= {"name": "Ada", "createdAt": "2025-01-01T00:00:00Z", "address": {}}
    assert isinstance(m.recognise(customer), m.Customer)
    with pytest.raises(m.UnrecognisedItem):
        m._as_order(customer)


def test_an_item_of_an_entity_lacking_a_required_attribute_is_refused_by_name(
    orders,
):
    """An item with an order's keys but no total (written by other code)
    raises MalformedItem naming the entity, what it lacks and its key,
    not a bare KeyError from deep inside from_item."""
    design, m = orders
    client = empty_table(design)
    order = _order(m, "O1")
    item = {k: v for k, v in order.to_item().items() if k != "total"}
    client.put_item(TableName=design.table.name, Item=m._to_wire(item))
    key = {"PK": "CUST#C1", "SK": "ORDER#2025-03-01#O1"}
    with pytest.raises(m.MalformedItem) as refused:
        list(m.order_with_its_line_items(client, order_id="O1"))
    assert not isinstance(refused.value, KeyError)
    assert str(refused.value) == (
        f"the Order item with key {key!r} lacks total, which the design requires"
    )
    assert (refused.value.entity, refused.value.missing) == ("Order", ["total"])
    assert refused.value.key == key
    assert refused.value.item["orderId"] == "O1"
    # Every attribute it lacks is named, whichever way it is read.
    del item["status"]
    with pytest.raises(m.MalformedItem) as refused:
        m.recognise(item)
    assert refused.value.missing == ["status", "total"]
    assert m.Order.from_item(order.to_item()) == order
