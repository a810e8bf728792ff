"""The six migrations of the shipped order-management example, each the
example's design file edited as a user would edit it."""

from __future__ import annotations

import dataclasses
import functools
import re
from types import MappingProxyType

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.examples import EXAMPLES_DIR

HAS_PHONE = "attribute_exists(phone)"
ORDER_MANAGEMENT = (EXAMPLES_DIR / "order-management.yaml").read_text()


def _read(text: str) -> d.Design:
    result = read_design(text)
    assert result.design is not None, [str(p) for p in result.problems]
    return result.design


def _edited(*edits: tuple[str, str]) -> d.Design:
    text = ORDER_MANAGEMENT
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    return _read(text)


@functools.cache
def original() -> d.Design:
    return _read(ORDER_MANAGEMENT)


@functools.cache
def gsi_added() -> d.Design:
    """A new pattern, line items of a product, served by a new GSI4 whose
    keys are computed from each line item's productId."""
    return _edited(
        (
            "      projection: ALL\nentities:",
            "      projection: ALL\n"
            "    - name: GSI4\n"
            "      kind: global\n"
            "      partition_key: {name: GSI4PK, type: S}\n"
            "      sort_key: {name: GSI4SK, type: S}\n"
            "      projection: {type: INCLUDE, attributes: [productId]}\n"
            "entities:",
        ),
        (
            '      GSI3SK: "ITEM#{lineNo:03d}"\n',
            '      GSI3SK: "ITEM#{lineNo:03d}"\n'
            '      GSI4PK: "PRODUCT#{productId}"\n'
            '      GSI4SK: "LINE#{orderId}#{lineNo:03d}"\n',
        ),
        (
            "  - name: Place an order with its line items\n",
            "  - name: Line items of a product\n"
            "    operation: Query\n"
            "    index: GSI4\n"
            '    key: {GSI4PK: "PRODUCT#{productId}"}\n'
            '    expects: {entity: LineItem, where: {productId: "{productId}"}}\n'
            "    traffic: {rps: 2, peak_rps: 10}\n"
            "  - name: Place an order with its line items\n",
        ),
    )


@functools.cache
def sort_key_changed() -> d.Design:
    """Orders sort under ORD# instead of ORDER#."""
    return _edited(
        (
            '      SK: "ORDER#{orderDate}#{orderId}"',
            '      SK: "ORD#{orderDate}#{orderId}"',
        ),
        ('SK: {begins_with: "ORDER#"}', 'SK: {begins_with: "ORD#"}'),
    )


@functools.cache
def index_resorted() -> d.Design:
    """A customer's orders in a status, found on GSI1, sort by order id
    instead of by date: GSI1's sort key changes under a pattern the deployed
    version runs."""
    return _edited(
        (
            '      GSI1SK: "ORDER#{orderDate}#{orderId}"',
            '      GSI1SK: "ORDER#{orderId}"',
        ),
        (
            'where: {customerId: "{customerId}", status: "{status}"}, '
            "order_by: [-orderDate, -orderId]}",
            'where: {customerId: "{customerId}", status: "{status}"}, '
            "order_by: [-orderId]}",
        ),
    )


@functools.cache
def index_reprojected() -> d.Design:
    """The open-orders index projects every attribute instead of the keys:
    DynamoDB deletes GSI2 and makes it again, which the deployed version
    reads."""
    return _edited(
        (
            "      sort_key: {name: GSI2SK, type: S}\n      projection: KEYS_ONLY\n",
            "      sort_key: {name: GSI2SK, type: S}\n      projection: ALL\n",
        ),
    )


@functools.cache
def index_made_sparse() -> d.Design:
    """Customers are found by email only when they gave a phone number."""
    return _edited(
        (
            '      GSI1PK: "EMAIL#{email}"\n      GSI1SK: "PROFILE"\n',
            '      GSI1PK: {template: "EMAIL#{email}", when: "' + HAS_PHONE + '"}\n'
            '      GSI1SK: {template: "PROFILE", when: "' + HAS_PHONE + '"}\n',
        ),
        (
            'expects: {entity: Customer, where: {email: "{email}"}}',
            'expects: {entity: Customer, where: {email: "{email}", '
            "phone: {exists: true}}}",
        ),
    )


@functools.cache
def entity_split() -> d.Design:
    """A customer's address moves to an item of its own beside the profile."""
    return _edited(
        (
            "      address:\n"
            "        type: M\n"
            "        generator:\n"
            "          map:\n"
            "            fields:\n"
            "              street: {faker: street_address}\n"
            "              city: {faker: city}\n"
            "              postcode: {faker: postcode}\n",
            "",
        ),
        (
            "  Order:\n    description: An order placed by a customer.\n",
            "  CustomerAddress:\n"
            "    description: A customer's postal address.\n"
            "    attributes:\n"
            "      customerId: {type: S, generator: {ref: Customer.customerId}}\n"
            "      address:\n"
            "        type: M\n"
            "        generator:\n"
            "          map:\n"
            "            fields:\n"
            "              street: {faker: street_address}\n"
            "              city: {faker: city}\n"
            "              postcode: {faker: postcode}\n"
            "    keys:\n"
            '      PK: "CUST#{customerId}"\n'
            '      SK: "ADDRESS"\n'
            "    sample: {per: Customer, count: 1}\n"
            "  Order:\n    description: An order placed by a customer.\n",
        ),
        (
            "  - name: Find customer by email\n",
            "  - name: Address of a customer\n"
            "    operation: GetItem\n"
            '    key: {PK: "CUST#{customerId}", SK: "ADDRESS"}\n'
            "    expects:\n"
            '      {entity: CustomerAddress, where: {customerId: "{customerId}"}}\n'
            "    traffic: {rps: 3, peak_rps: 10}\n"
            "  - name: Find customer by email\n",
        ),
    )


@functools.cache
def key_attribute_renamed() -> d.Design:
    """Customer.email, placed in GSI1PK, is renamed emailAddress."""
    return _edited(
        (
            "      email: {type: S, generator: {faker: email}, max_length: 254}",
            "      emailAddress: {type: S, generator: {faker: email}, "
            "max_length: 254, seed_name: email}",
        ),
        ('GSI1PK: "EMAIL#{email}"', 'GSI1PK: "EMAIL#{emailAddress}"'),
        (
            'expects: {entity: Customer, where: {email: "{email}"}}',
            'expects: {entity: Customer, where: {emailAddress: "{emailAddress}"}}',
        ),
    )


@functools.cache
def partition_key_changed() -> d.Design:
    """The table's keys are renamed pk and sk: a new table, every item copied."""
    text = re.sub(r"\bPK\b", "pk", ORDER_MANAGEMENT)
    text = re.sub(r"\bSK\b", "sk", text)
    assert text != ORDER_MANAGEMENT
    return _read(text)


def smaller(design: d.Design, customers: int = 15) -> d.Design:
    """The design with fewer customers (and so fewer orders and lines)."""
    entities = tuple(
        dataclasses.replace(
            e, sample=dataclasses.replace(e.sample, count=d.Count("fixed", customers))
        )
        if e.name == "Customer"
        else e
        for e in design.entities
    )
    return dataclasses.replace(design, entities=entities)


def keyless(design: d.Design) -> d.Design:
    """The design before any keys were written, as a schema imported from
    SQL is: its entities have no key templates (the table has its keys)."""
    entities = tuple(
        dataclasses.replace(e, keys=MappingProxyType({})) for e in design.entities
    )
    return dataclasses.replace(design, entities=entities)
