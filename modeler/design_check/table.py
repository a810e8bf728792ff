"""The table's own settings: its name, key names, billing and capacity,
auto scaling, encryption, TTL and tags."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

from modeler.design import model as d
from modeler.design.findings import Finding, error, warning

MAX_TAGS = 50
# Besides letters, numbers and white space, the only characters a tag may
# hold (DynamoDB's tagging restrictions and the AWS tag pattern).
TAG_PUNCTUATION = "+-=._:/@"
TABLE_NAME = re.compile(r"^[A-Za-z0-9_.-]{3,255}$")
# The forms AWS takes for a table's KMS key: key id (or multi-Region key
# id), key ARN, alias name, alias ARN.
_KMS_KEY = re.compile(
    r"\A(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
    r"|mrk-[0-9a-f]{32}"
    r"|alias/[A-Za-z0-9/_-]{1,250}"
    r"|arn:aws[a-z-]*:kms:[a-z0-9-]+:[0-9]{12}:"
    r"(?:key/(?:mrk-)?[0-9a-f-]{32,36}|alias/[A-Za-z0-9/_-]{1,250}))\Z"
)
MAX_KEY_NAME_BYTES = 255


def check_table(table: d.Table) -> Iterator[Finding]:
    if not TABLE_NAME.match(table.name):
        yield error(
            "table-name",
            "table.name",
            f"'{table.name}' is not a valid table name: 3 to 255 characters "
            "of letters, digits, '_', '-' and '.'",
        )
    for path, attr in (
        ("partition_key", table.partition_key),
        ("sort_key", table.sort_key),
    ):
        if attr is not None and not attr.name:
            yield error("key-name-required", f"table.{path}.name", "is required")
    for attr in table.all_key_attributes():
        size = len(attr.name.encode("utf-8"))
        if size > MAX_KEY_NAME_BYTES:
            yield error(
                "key-name-too-long",
                "table",
                f"the key attribute name '{attr.name[:40]}…' has {size} bytes; "
                f"DynamoDB allows at most {MAX_KEY_NAME_BYTES}",
            )
    if table.ttl_attribute and len(table.ttl_attribute.encode()) > MAX_KEY_NAME_BYTES:
        yield error(
            "ttl-name-too-long",
            "table.ttl_attribute",
            f"a TTL attribute name has at most {MAX_KEY_NAME_BYTES} bytes",
        )
    if table.encryption.kms_key and not _KMS_KEY.match(table.encryption.kms_key):
        yield error(
            "kms-key-malformed",
            "table.encryption.kms_key",
            "expected a KMS key id, key ARN, alias (alias/name) or alias ARN",
        )
    yield from _check_billing(table)
    if table.encryption.kms_key and table.encryption.type != "KMS":
        yield error(
            "kms-key-unused",
            "table.encryption.kms_key",
            "a KMS key is only used with encryption type KMS",
        )
    yield from _check_tags(table)


def _check_billing(table: d.Table) -> Iterator[Finding]:
    if table.billing_mode == "PROVISIONED" and table.capacity is None:
        yield error(
            "provisioned-without-capacity",
            "table.billing",
            "a PROVISIONED table needs read and write capacity units",
        )
    if table.billing_mode == "PAY_PER_REQUEST" and table.capacity is not None:
        yield error(
            "on-demand-with-capacity",
            "table.billing",
            "an on-demand (PAY_PER_REQUEST) table takes no read or write capacity",
        )
    if table.capacity:
        yield from check_scaling(table.capacity, "table.billing.auto_scaling")


def _check_tags(table: d.Table) -> Iterator[Finding]:
    if len(table.tags) > MAX_TAGS:
        yield error(
            "too-many-tags",
            "table.tags",
            f"at most {MAX_TAGS} tags, found {len(table.tags)}",
        )
    for key, value in table.tags:
        if not 1 <= len(key) <= 128:
            yield error(
                "tag-key-length",
                f"table.tags.{key}",
                "a tag key has 1 to 128 characters",
            )
        if len(value) > 256:
            yield error(
                "tag-value-length",
                f"table.tags.{key}",
                "a tag value has at most 256 characters",
            )
        if key.lower().startswith("aws:"):
            yield error(
                "tag-key-reserved",
                f"table.tags.{key}",
                "tag keys starting with 'aws:' are reserved by AWS",
            )
        for part, text in (("key", key), ("value", value)):
            refused = _refused_tag_characters(text)
            if refused:
                yield warning(
                    f"tag-{part}-characters",
                    f"table.tags.{key}",
                    f"AWS refuses the tag {key!r}: a tag's key and value hold "
                    f"letters, numbers, spaces and {' '.join(TAG_PUNCTUATION)} "
                    f"only, and its {part} has "
                    + ", ".join(repr(c) for c in refused)
                    + "; deploying the table with it fails",
                )


def _refused_tag_characters(text: str) -> list[str]:
    """The characters of `text` AWS refuses in a tag, each once, in order."""
    refused: dict[str, None] = {}
    for c in text:
        if c not in TAG_PUNCTUATION and unicodedata.category(c)[0] not in "LNZ":
            refused[c] = None
    return list(refused)


def check_scaling(capacity: d.Capacity, path: str) -> Iterator[Finding]:
    """Application Auto Scaling's limits for DynamoDB: a range of whole
    units up to 40,000 and a target utilisation of 20 to 90 percent."""
    scaling = capacity.auto_scaling
    if scaling is None:
        return
    for name, units, r in (
        ("read", capacity.read, scaling.read),
        ("write", capacity.write, scaling.write),
    ):
        if r is None:
            continue
        where = f"{path}.{name}"
        if r.minimum > r.maximum:
            yield error(
                "scaling-minimum-above-maximum",
                where,
                f"the minimum ({r.minimum}) is above the maximum ({r.maximum})",
            )
        if r.maximum > d.MAX_AUTO_SCALED_UNITS:
            yield error(
                "scaling-maximum-too-high",
                f"{where}.max",
                f"auto scaling goes up to {d.MAX_AUTO_SCALED_UNITS:,} units, found "
                f"{r.maximum:,}",
            )
        if not 20 <= r.target <= 90:
            yield error(
                "scaling-target-range",
                f"{where}.target",
                f"a target utilisation is 20 to 90 percent, found {r.target}",
            )
        if r.minimum <= r.maximum and not r.minimum <= units <= r.maximum:
            yield warning(
                "capacity-outside-scaling",
                where,
                f"the provisioned {name} capacity ({units}) is outside auto "
                f"scaling's range ({r.minimum} to {r.maximum}): auto scaling "
                f"sets it to {r.minimum if units < r.minimum else r.maximum}",
            )
