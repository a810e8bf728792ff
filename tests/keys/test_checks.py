"""Each rule of the key review, on a small design that breaks only it."""

from __future__ import annotations

import pytest

from modeler.keys import check_entity_keys, check_keys
from tests.keys.factories import attribute, design, entity, gsi, lsi, table

CUSTOMER_ATTRIBUTES = ("customerId", "name", "email", "status", "tags:L", "qty:N")


def customer(**keys):
    return entity(
        "Customer",
        {"PK": "CUST#{customerId}", "SK": "PROFILE", **keys},
        CUSTOMER_ATTRIBUTES,
    )


def findings(the_design, path=None):
    """(severity, message) of every problem, or of those at one path."""
    return [
        (p.severity, p.message)
        for p in check_entity_keys(the_design)
        if path is None or p.path == path
    ]


def test_a_sound_design_has_no_findings():
    order = entity(
        "Order",
        {
            "PK": "CUST#{customerId}",
            "SK": "ORDER#{orderDate}#{orderId}",
            "GSI1PK": ("ORDER#{orderId}", "status = OPEN"),
            "GSI1SK": ("STATUS#{status}#{qty:06d}", "status = OPEN"),
        },
        (
            "customerId",
            "orderId",
            "status",
            "qty:N",
            attribute("orderDate", generator="date"),
        ),
    )
    the_design = design(customer(), order, on=table(gsi("GSI1", "GSI1PK", "GSI1SK")))
    assert check_keys(the_design) == []


# Rule 1: syntax, key attributes, required keys, partial index presence.


def test_syntax_error_with_its_column():
    the_design = design(customer(SK="ORDER#{orderDate"))
    assert findings(the_design, "entities.Customer.keys.SK") == [
        ("error", "unclosed '{' at column 7")
    ]


def test_key_attribute_of_no_index():
    the_design = design(customer(GSI9PK="X#{customerId}"))
    assert findings(the_design, "entities.Customer.keys.GSI9PK") == [
        ("error", "'GSI9PK' is not a key attribute of the table or of any index")
    ]


@pytest.mark.parametrize(
    ("keys", "message"),
    [
        (
            {"SK": "PROFILE"},
            "every entity needs a template for the table's partition key 'PK'",
        ),
        (
            {"PK": "CUST#{customerId}"},
            "every entity needs a template for the table's sort key 'SK'",
        ),
    ],
)
def test_every_entity_needs_the_table_keys(keys, message):
    the_design = design(entity("Customer", keys, CUSTOMER_ATTRIBUTES))
    assert findings(the_design, "entities.Customer.keys") == [("error", message)]


def test_a_table_without_sort_key_needs_only_the_partition_key():
    the_design = design(
        entity("Customer", {"PK": "CUST#{customerId}"}, CUSTOMER_ATTRIBUTES),
        on=table(sort_key=False),
    )
    assert findings(the_design) == []


def test_table_keys_cannot_be_conditional():
    the_design = design(customer(SK=("PROFILE", "status = OPEN")))
    assert findings(the_design, "entities.Customer.keys.SK") == [
        (
            "error",
            "'SK' is a key of the table, so it cannot have a condition: every item "
            "needs its primary key",
        )
    ]


def test_partial_presence_in_an_index_names_what_is_missing():
    the_design = design(
        customer(GSI1PK="EMAIL#{email}"), on=table(gsi("GSI1", "GSI1PK", "GSI1SK"))
    )
    assert findings(the_design, "entities.Customer.keys") == [
        (
            "error",
            "'GSI1PK' without 'GSI1SK' leaves Customer out of index GSI1: add a "
            "template for 'GSI1SK', or remove 'GSI1PK' if the entity should not be "
            "in the index",
        )
    ]


@pytest.mark.parametrize(
    ("keys", "indexes"),
    [
        # Absent from the index on purpose.
        ({}, (gsi("GSI1", "GSI1PK", "GSI1SK"),)),
        # Every item has the table's keys; an LSI's sort key alone decides.
        ({}, (lsi("LSI1", "LSI1SK"),)),
        # An inverted index reuses the table's sort key as its partition key.
        ({}, (gsi("Inverted", "SK", "PK"),)),
        ({}, (gsi("ByGSI1SK", "SK", "GSI1SK"),)),
        # GSI1PK is there for GSI1, where the entity is whole.
        (
            {"GSI1PK": "EMAIL#{email}", "GSI1SK": "CUST"},
            (gsi("GSI1", "GSI1PK", "GSI1SK"), gsi("GSI2", "GSI1PK", "GSI2SK")),
        ),
    ],
)
def test_no_partial_presence_finding_when_absence_is_deliberate(keys, indexes):
    the_design = design(customer(**keys), on=table(*indexes))
    assert findings(the_design, "entities.Customer.keys") == []


# Rule 2: attributes and types.


def test_unknown_attribute_with_its_column_and_a_suggestion():
    order = entity(
        "Order",
        {"PK": "CUST#{customerId}", "SK": "ORDER#{orderDat}#{orderId}"},
        ("customerId", "orderDate", "orderId"),
    )
    assert findings(design(order), "entities.Order.keys.SK") == [
        ("error", "unknown attribute 'orderDat' at column 7; did you mean 'orderDate'?")
    ]


def test_unknown_attribute_without_a_close_name():
    the_design = design(customer(SK="X#{zzz}"))
    assert findings(the_design, "entities.Customer.keys.SK") == [
        ("error", "unknown attribute 'zzz' at column 3")
    ]


def test_list_attribute_in_a_key():
    the_design = design(customer(SK="TAGS#{tags}"))
    assert findings(the_design, "entities.Customer.keys.SK") == [
        (
            "error",
            "attribute 'tags' at column 6 is of type L; key values must be S, N or B",
        )
    ]


def test_binary_attribute_in_a_string_key():
    the_design = design(
        entity(
            "Blob",
            {"PK": "BLOB#{data}", "SK": "META"},
            ("data:B",),
        )
    )
    assert findings(the_design, "entities.Blob.keys.PK") == [
        (
            "error",
            "attribute 'data' at column 6 is binary (B) and cannot be placed in a "
            "string key",
        )
    ]


@pytest.mark.parametrize("template", ["SCORE#{score}", "{name}", "{score}{score}"])
def test_number_key_needs_a_single_number_placeholder(template):
    the_design = design(
        entity("Player", {"PK": "P#{name}", "SK": template}, ("name", "score:N")),
        on=table(sk_type="N"),
    )
    assert findings(the_design, "entities.Player.keys.SK") == [
        (
            "error",
            "key attribute 'SK' is a number (N): its template must be a single "
            "placeholder of a number attribute, like {SK}",
        )
    ]


def test_number_key_from_a_number_attribute_is_fine():
    the_design = design(
        entity("Player", {"PK": "P#{name}", "SK": "{score}"}, ("name", "score:N")),
        on=table(sk_type="N"),
    )
    assert findings(the_design) == []


def test_binary_key_needs_a_single_binary_placeholder():
    the_design = design(
        entity(
            "Blob",
            {"PK": "BLOB", "SK": "{name}", "GSI1PK": "{hash}"},
            ("name", "hash:B"),
        ),
        on=table(gsi("GSI1", "GSI1PK", pk_type="B"), sk_type="B"),
    )
    assert findings(the_design) == [
        (
            "error",
            "key attribute 'SK' is binary (B): its template must be a single "
            "placeholder of a binary attribute, like {SK}",
        )
    ]


# Rule 3: sort order of numbers and dates in string sort keys.


def test_unpadded_number_in_a_sort_key():
    the_design = design(customer(SK="QTY#{qty}"))
    assert findings(the_design, "entities.Customer.keys.SK") == [
        (
            "warning",
            "number 'qty' is placed unpadded in a string key at column 5: '10' sorts "
            "before '9'; use {qty:0Nd}",
        )
    ]


def test_unpadded_number_in_an_index_sort_key():
    the_design = design(
        customer(GSI1PK="ALL", GSI1SK="{qty}"),
        on=table(gsi("GSI1", "GSI1PK", "GSI1SK")),
    )
    assert [s for s, _ in findings(the_design, "entities.Customer.keys.GSI1SK")] == [
        "warning"
    ]


@pytest.mark.parametrize(
    "keys",
    [
        {"SK": "QTY#{qty:06d}"},
        {"SK": "PRICE#{qty:010.2f}"},
        # Partition keys are not ordered; the number only has to match.
        {"PK": "QTY#{qty}"},
    ],
)
def test_padded_numbers_and_partition_keys_are_fine(keys):
    assert findings(design(customer(**keys))) == []


@pytest.mark.parametrize(
    "created",
    [
        attribute("createdAt", generator="timestamp"),
        attribute("createdAt", generator="date"),
        # Epoch seconds have a fixed number of digits for centuries.
        attribute("createdAt", "N", generator="timestamp"),
    ],
)
def test_iso_dates_and_timestamps_in_a_sort_key_are_fine(created):
    the_design = design(
        entity(
            "Event",
            {"PK": "EVENTS", "SK": "AT#{createdAt}"},
            (created,),
        )
    )
    assert findings(the_design) == []


def test_non_iso_date_format_in_a_sort_key():
    the_design = design(
        entity(
            "Event",
            {"PK": "DAY#{day}", "SK": "AT#{day}"},
            (attribute("day", generator="date", format="%d/%m/%Y"),),
        )
    )
    assert findings(the_design) == [
        (
            "warning",
            "'day' at column 4 uses the format '%d/%m/%Y': dates in sort keys should "
            "be ISO-8601 so they sort in time order",
        )
    ]


# Rule 4: key length.


@pytest.mark.parametrize(
    ("keys", "attributes", "path", "message"),
    [
        (
            {"PK": "CUST#{name}", "SK": "P"},
            (attribute("name", max_length=600),),
            "entities.Big.keys.PK",
            "can be up to 2405 bytes long; DynamoDB allows at most 2048 bytes for a "
            "partition key",
        ),
        (
            {"PK": "P", "SK": "{code}"},
            (attribute("code", max_length=257),),
            "entities.Big.keys.SK",
            "can be up to 1028 bytes long; DynamoDB allows at most 1024 bytes for a "
            "sort key",
        ),
        (
            {"PK": "P", "SK": "{code:01100d}"},
            (attribute("code", "N", generator="int", max=5),),
            "entities.Big.keys.SK",
            "can be up to 1100 bytes long",
        ),
        (
            {"PK": "{mood}", "SK": "P"},
            (attribute("mood", generator="choice", options=["ok", "é" * 1100]),),
            "entities.Big.keys.PK",
            "can be up to 2200 bytes long",
        ),
    ],
)
def test_keys_that_can_exceed_the_size_limit(keys, attributes, path, message):
    the_design = design(entity("Big", keys, attributes))
    assert [m for _, m in findings(the_design, path)][0].startswith(message)


@pytest.mark.parametrize(
    "code",
    [
        # 256 characters of up to 4 UTF-8 bytes: exactly the 1024 allowed.
        attribute("code", max_length=256),
        # ASCII generators take one byte per character.
        attribute("code", generator="uuid", max_length=1000),
        # No bound known: no finding rather than a guess.
        attribute("code"),
        attribute("code", generator="faker", provider="name"),
    ],
)
def test_keys_within_the_size_limit_or_unbounded(code):
    the_design = design(entity("Small", {"PK": "P", "SK": "{code}"}, (code,)))
    assert findings(the_design) == []


def test_an_empty_template_is_an_error():
    the_design = design(customer(SK=""))
    assert findings(the_design, "entities.Customer.keys.SK") == [
        ("error", "a key value cannot be empty")
    ]


# Rule 5: sparse conditions.


@pytest.mark.parametrize(
    ("when", "message"),
    [
        (
            "status OPEN",
            "condition: expected an operator (=, !=, <, <=, >, >=, in) after "
            "'status' at column 8, found 'OPEN'",
        ),
        (
            "stauts = OPEN",
            "condition: unknown attribute 'stauts'; did you mean 'status'?",
        ),
        (
            "status <> CLOSED",
            "condition: expected a value (write 'not equal' as !=) after '<' at "
            "column 9, found '>'",
        ),
    ],
)
def test_condition_problems(when, message):
    the_design = design(
        customer(GSI1PK=("OPEN", when), GSI1SK=("{customerId}", "status = OPEN")),
        on=table(gsi("GSI1", "GSI1PK", "GSI1SK")),
    )
    assert findings(the_design, "entities.Customer.keys.GSI1PK") == [("error", message)]


# Rule 6: placeholders that touch.


def test_touching_placeholders():
    the_design = design(customer(SK="C#{name}{email}"))
    assert findings(the_design, "entities.Customer.keys.SK") == [
        (
            "warning",
            "placeholders {name} and {email} touch at column 9: keys cannot be parsed "
            "back into values; put a separator such as '#' between them",
        )
    ]


def test_a_padded_number_may_touch_the_next_placeholder():
    the_design = design(customer(SK="C#{qty:06d}{name}"))
    assert findings(the_design) == []
