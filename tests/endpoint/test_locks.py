"""Requests lock their tables, not the whole endpoint (issue 33)."""

from __future__ import annotations

import threading

from tests.endpoint.conftest import boto3_client, create_shop


def _item(customer: str, n: int) -> dict:  # type: ignore[no-untyped-def]
    return {"PK": {"S": customer}, "SK": {"S": f"O#{n:04}"}}


def test_a_table_is_written_while_another_is_held(server, ddb):
    create_shop(ddb, "Orders")
    create_shop(ddb, "Invoices")
    tables = server.service.engine.tables.__contains__
    written = threading.Event()
    blocked_write = threading.Thread(
        target=lambda: (
            boto3_client(server.url).put_item(TableName="Orders", Item=_item("C", 2)),
            written.set(),
        )
    )
    held = server.service.lock.hold({"Orders"}, tables)
    assert held is not None
    # Invoices is not held: its write is answered while Orders is.
    ddb.put_item(TableName="Invoices", Item=_item("C", 1))
    blocked_write.start()
    assert not written.is_set()
    server.service.lock.release(held)
    blocked_write.join()
    assert written.is_set()
    assert "Item" in ddb.get_item(TableName="Orders", Key=_item("C", 2))
    assert "Item" in ddb.get_item(TableName="Invoices", Key=_item("C", 1))


def test_two_tables_written_at_once_keep_every_write(server, ddb):
    for name in ("Orders", "Invoices"):
        create_shop(
            ddb,
            name,
            StreamSpecification={"StreamEnabled": True, "StreamViewType": "KEYS_ONLY"},
        )
    start = threading.Barrier(4)
    failures: list[BaseException] = []

    def write(table: str, customer: str) -> None:
        client = boto3_client(server.url)
        start.wait()
        try:
            for n in range(100):
                client.put_item(TableName=table, Item=_item(customer, n))
                client.update_item(
                    TableName=table,
                    Key=_item(customer, n),
                    UpdateExpression="ADD hits :one",
                    ExpressionAttributeValues={":one": {"N": "1"}},
                )
        except BaseException as error:  # reported below, with the thread's table
            failures.append(error)

    threads = [
        threading.Thread(target=write, args=(table, customer))
        for table in ("Orders", "Invoices")
        for customer in ("A", "B")
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    engine = server.service.engine
    for table in ("Orders", "Invoices"):
        items = ddb.scan(TableName=table)["Items"]
        assert len(items) == 200
        assert {item["hits"]["N"] for item in items} == {"1"}
    # Every stream record has its own sequence number, in both tables.
    numbers = [number for stream in engine.streams for number, _, _ in stream.records]
    assert len(numbers) == len(set(numbers)) == 2 * 400
