"""UpdateItem patterns written with counters, set members, list appends and
if_not_exists: the design check holds each to the types DynamoDB takes, the
simulator sends the update as written (so the item grows and its write
units follow), and the review reads an attribute that only grows as growth."""

from __future__ import annotations

from decimal import Decimal

from modeler.design_check import check_design
from modeler.designfile import read_design
from modeler.simulation import Simulation
from tests.review.helpers import HEADER, codes, design_from, review

POLLS = """\
entities:
  Poll:
    attributes:
      pollId: {type: S, generator: ulid}
      question: {type: S, generator: {faker: sentence}}
      votes: {type: N, generator: {int: {min: 0, max: 50}}}
      voters: {type: SS, generator: {list: {of: {faker: user_name}, min: 1, max: 3}}}
      recentVotes: {type: L, generator: {list: {of: {faker: user_name}, max: 3}}}
      firstVoteAt: {type: S, generator: {date: {from: 2026-01-01, to: 2026-06-30}}}
    keys:
      PK: "POLL#{pollId}"
      SK: "POLL"
    sample: {count: 50}
access_patterns:
  - name: Vote
    operation: UpdateItem
    entity: Poll
    add: {votes: 1, voters: "{voterId}"}
    append: {recentVotes: "{voterId}"}
    set_if_absent: {firstVoteAt: "{now}"}
    condition: "attribute_exists(PK)"
    parameters:
      voterId: {type: S, example: "ann"}
      now: {type: S, example: "2026-07-01T10:00:00Z"}
    traffic: {rps: 20, peak_rps: 40}
  - name: Take a vote back
    operation: UpdateItem
    entity: Poll
    add: {votes: -1}
    delete: {voters: "{voterId}"}
    parameters:
      voterId: {type: S, example: "ann"}
    traffic: {rps: 1}
"""


def _problems(text: str) -> list[str]:
    """`path: message` of every problem reading and checking the design."""
    result = read_design(HEADER + text)
    problems = list(result.problems)
    if result.design is not None:
        problems += check_design(result.design)
    return [f"{p.path}: {p.message}" for p in problems]


def test_counters_sets_appends_and_if_not_exists_are_sent_as_written() -> None:
    design = design_from(POLLS)
    assert _problems(POLLS) == []
    simulation = Simulation(design)
    vote = simulation.run(design.access_patterns[0])
    assert vote.verdict.passed, vote.verdict.reasons
    request = vote.calls[0].request
    expression = request["UpdateExpression"]
    names = request["ExpressionAttributeNames"]
    assert expression.startswith("SET ")
    assert "if_not_exists(#firstVoteAt, " in expression
    assert "list_append(if_not_exists(#recentVotes, :empty), " in expression
    assert "ADD #votes :votes, #voters :voters" in expression
    assert names["#voters"] == "voters"
    values = request["ExpressionAttributeValues"]
    assert values[":votes"] == {"N": "1"}
    assert values[":voters"] == {"SS": ["ann"]}
    assert values[":recentVotes"] == {"L": [{"S": "ann"}]}

    back = simulation.run(design.access_patterns[1])
    request = back.calls[0].request
    assert request["UpdateExpression"] == "ADD #votes :votes DELETE #voters :voters"
    assert request["ExpressionAttributeValues"][":votes"] == {"N": "-1"}


def test_the_engine_applies_the_update_to_the_item() -> None:
    design = design_from(POLLS)
    simulation = Simulation(design)
    pattern = design.access_patterns[0]
    run = simulation.run(pattern)
    key = run.calls[0].request["Key"]
    # The simulator puts the sample item back after a write; send the same
    # request to see what DynamoDB would have made of the item.
    before = simulation.client.get_item(TableName="test-table", Key=key)["Item"]
    simulation.client.update_item(**run.calls[0].request)
    after = simulation.client.get_item(TableName="test-table", Key=key)["Item"]
    assert Decimal(after["votes"]["N"]) == Decimal(before["votes"]["N"]) + 1
    assert "ann" in after["voters"]["SS"]
    assert after["recentVotes"]["L"][-1] == {"S": "ann"}
    assert len(after["recentVotes"]["L"]) == len(before["recentVotes"]["L"]) + 1
    # The first vote's time is kept once written.
    assert after["firstVoteAt"] == before["firstVoteAt"]
    # ADD joins the voter to the set: the earlier voters stay.
    assert set(after["voters"]["SS"]) == set(before["voters"]["SS"]) | {"ann"}


def test_an_appended_list_grows_the_write_units_as_it_would() -> None:
    big = POLLS.replace(
        "recentVotes: {type: L, generator: {list: {of: {faker: user_name}, max: 3}}}",
        "recentVotes: {type: L, generator: {list: {of: {faker: {provider: pystr, "
        "min_chars: 1000, max_chars: 1000}}, min: 3, max: 3}}}",
    ).replace('append: {recentVotes: "{voterId}"}', 'append: {recentVotes: "{note}"}')
    big = big.replace(
        '      voterId: {type: S, example: "ann"}\n      now:',
        '      voterId: {type: S, example: "ann"}\n'
        '      note: {type: S, example: "' + "x" * 1500 + '"}\n      now:',
    )
    design = design_from(big)
    run = Simulation(design).run(design.access_patterns[0])
    # About 3 KB of list and the 1.5 KB appended: the item written is 5 KB.
    assert run.capacity.write == 5, run.capacity


def test_an_attribute_that_only_grows_is_a_growth_warning() -> None:
    text = POLLS.replace(
        "voters: {type: SS, generator: {list: {of: {faker: user_name}, "
        "min: 1, max: 3}}}",
        "voters: {type: SS}",
    ).replace(
        "recentVotes: {type: L, generator: {list: {of: {faker: user_name}, max: 3}}}",
        "recentVotes: {type: L}",
    )
    result = review(text)
    growth = [f for f in result.findings if f.code == "item-growth"]
    assert sorted(f.location.name for f in growth) == [
        "Poll.recentVotes",
        "Poll.voters",
    ]
    assert {f.severity for f in growth} == {"warning"}
    recent = next(f for f in growth if f.location.name == "Poll.recentVotes")
    assert "added to by 'Vote', 20 writes/s in all" in recent.evidence


def test_a_capped_list_kept_by_set_is_not_growth_from_append() -> None:
    # The same poll keeping its five latest voters with set: no append, and
    # the list is rewritten whole, bounded by its generator's max.
    text = (
        POLLS.replace('    append: {recentVotes: "{voterId}"}\n', "")
        .replace(
            "voters: {type: SS, generator: {list: {of: {faker: user_name}, min: 1, "
            "max: 3}}}",
            "voters: {type: SS, generator: {list: {of: {choice: [a, b, c]}}}}",
        )
        .replace('add: {votes: 1, voters: "{voterId}"}', "add: {votes: 1}")
        .replace('    delete: {voters: "{voterId}"}\n', "")
    )
    result = review(text)
    assert ("item-growth", "warning") not in codes(result)


def test_each_way_is_held_to_the_types_dynamodb_takes() -> None:
    text = POLLS.replace(
        'add: {votes: 1, voters: "{voterId}"}',
        'add: {votes: "one", question: "x"}',
    ).replace('append: {recentVotes: "{voterId}"}', 'append: {voters: "{voterId}"}')
    problems = _problems(text)
    assert (
        "access_patterns[0].add.votes: expected a number to add, such as 1 or -1, "
        "found 'one'"
    ) in problems
    assert (
        "access_patterns[0].add.question: add takes an attribute of type N or SS "
        "or NS or BS; 'question' is S"
    ) in problems
    assert (
        "access_patterns[0].append.voters: append takes an attribute of type L; "
        "'voters' is SS"
    ) in problems


def test_an_attribute_written_two_ways_is_refused() -> None:
    text = POLLS.replace(
        "add: {votes: -1}", "add: {votes: -1}\n    set: {votes: 0}"
    ).replace(
        'set_if_absent: {firstVoteAt: "{now}"}',
        'set_if_absent: {firstVoteAt: "{now}"}\n    remove: [firstVoteAt]',
    )
    problems = _problems(text)
    assert any(
        p.startswith(
            "access_patterns[0].set_if_absent.firstVoteAt: 'firstVoteAt' is "
            "already written by remove"
        )
        for p in problems
    ), problems
    assert any(
        p.startswith("access_patterns[1].add.votes: 'votes' is already written by set")
        for p in problems
    ), problems


def test_ways_of_updating_belong_to_updates() -> None:
    text = POLLS.replace(
        "operation: UpdateItem\n    entity: Poll\n    add: {votes: -1}",
        "operation: DeleteItem\n    entity: Poll\n    add: {votes: -1}",
    )
    problems = _problems(text)
    assert (
        "access_patterns[1]: set, set_if_absent, append, add, delete and remove "
        "belong to Update actions"
    ) in problems


def test_the_ways_round_trip_through_the_design_file() -> None:
    from modeler.designfile import dump_design

    design = design_from(POLLS)
    again = read_design(dump_design(design)).design
    assert again.access_patterns == design.access_patterns
    vote = again.access_patterns[0].actions[0]
    assert vote.add == (("votes", "1"), ("voters", "{voterId}"))
    assert vote.append == (("recentVotes", "{voterId}"),)
    assert vote.set_if_absent == (("firstVoteAt", "{now}"),)
