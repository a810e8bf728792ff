"""The rewrite's guards and pacing, in process against the engine's
client: a write of the application between the script's read and its
update is not clobbered, and the rate limit holds the write units a second
to what it is given."""

from __future__ import annotations

from modeler.evolution.matching import entity_matching
from modeler.evolution.proof import loaded_client, table_items
from modeler.evolution.runtime import Migration, RateLimit
from modeler.evolution.spec import rewrite_spec
from tests.evolution import revisions
from tests.evolution.revisions import smaller


class AppWritesFirst:
    """A client whose first UpdateItem is preceded by the application
    changing that item's phone (as a concurrent request would)."""

    def __init__(self, client) -> None:
        self.client = client
        self.changed = None

    def __getattr__(self, name):
        return getattr(self.client, name)

    def update_item(self, **request):
        if self.changed is None:
            self.changed = request["Key"]
            self.client.update_item(
                TableName=request["TableName"],
                Key=request["Key"],
                UpdateExpression="SET phone = :p",
                ExpressionAttributeValues={":p": {"S": "+33 1 23 45 67 89"}},
            )
        return self.client.update_item(**request)


def _sparse_plan():
    before = smaller(revisions.original())
    after = smaller(revisions.index_made_sparse())
    spec = rewrite_spec(
        before, after, entity_matching(before, after), wcu_per_second=0, title="t"
    )
    return before, after, spec


def test_an_application_write_meanwhile_wins_and_the_item_is_rewritten_again():
    before, after, spec = _sparse_plan()
    client, _ = loaded_client(before, after, spec)
    racing = AppWritesFirst(client)
    tally = Migration(spec, racing, workers=1, cleanup=True).run()
    assert tally.counts["conflicts"] == 1
    item = client.get_item(TableName=spec["source_table"], Key=racing.changed)["Item"]
    # The phone the application wrote is kept, and with it the GSI1 keys
    # the new design gives a customer with a phone.
    assert item["phone"] == {"S": "+33 1 23 45 67 89"}
    assert item["GSI1PK"] == {"S": "EMAIL#" + item["email"]["S"]}
    customers = [
        i for i in table_items(client, spec["source_table"]) if i["SK"] == "PROFILE"
    ]
    assert all(("GSI1PK" in c) == ("phone" in c) for c in customers)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def time(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_the_rate_limit_paces_the_writes_to_the_units_a_second():
    clock = Clock()
    rate = RateLimit(10, clock=clock.time, sleep=clock.sleep)
    for _ in range(30):
        rate.spend(2)  # 60 units at 10 a second: 6 seconds at least
    assert clock.now == 6.0
    unlimited = RateLimit(0, clock=clock.time, sleep=clock.sleep)
    slept = len(clock.slept)
    unlimited.spend(1_000)
    assert len(clock.slept) == slept


def test_the_run_is_paced_by_the_units_dynamodb_reports():
    before, after, spec = _sparse_plan()
    client, _ = loaded_client(before, after, spec)
    clock = Clock()
    rate = RateLimit(4, clock=clock.time, sleep=clock.sleep)
    tally = Migration(spec, client, workers=1, rate=rate, cleanup=True).run()
    assert tally.write_units > 0
    assert clock.now == tally.write_units / 4
