"""A least-privilege IAM policy for the application that runs a design's
access patterns: only the DynamoDB actions the patterns use, each on the
table or the index ARNs it needs, and optionally a `dynamodb:LeadingKeys`
condition that confines every key-addressed request to the caller's tenant.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from modeler.design import model as d
from modeler.keys import parse_template
from modeler.keys.template import Literal, Placeholder

# The IAM actions each pattern operation needs. Transactions have no action
# of their own: each element needs the action of its kind.
_ACTION_OF_ELEMENT = {
    "Get": "dynamodb:GetItem",
    "Put": "dynamodb:PutItem",
    "Update": "dynamodb:UpdateItem",
    "Delete": "dynamodb:DeleteItem",
    "ConditionCheck": "dynamodb:ConditionCheckItem",
}
_SINGLE = {
    "GetItem": "dynamodb:GetItem",
    "Query": "dynamodb:Query",
    "Scan": "dynamodb:Scan",
    "BatchGetItem": "dynamodb:BatchGetItem",
    "PutItem": "dynamodb:PutItem",
    "UpdateItem": "dynamodb:UpdateItem",
    "DeleteItem": "dynamodb:DeleteItem",
    "BatchWriteItem": "dynamodb:BatchWriteItem",
}

TENANT_TAG = "aws:PrincipalTag/{attribute}"


class PolicyError(ValueError):
    """The policy asked for cannot be made (a tenant attribute that the
    partition keys do not start with)."""


@dataclass(frozen=True)
class Policy:
    document: dict
    notes: tuple[str, ...] = field(default=())

    def json(self) -> str:
        return json.dumps(self.document, indent=2) + "\n"


def pattern_actions(pattern: d.AccessPattern) -> list[str]:
    if pattern.operation in ("TransactGetItems", "TransactWriteItems"):
        return sorted({_ACTION_OF_ELEMENT[a.operation] for a in pattern.actions})
    return [_SINGLE[pattern.operation]]


def table_arn(design: d.Design, region: str, account: str) -> str:
    return f"arn:aws:dynamodb:{region}:{account}:table/{design.table.name}"


def tenant_attribute(design: d.Design) -> str | None:
    """The attribute every entity's partition key template starts with (after
    the same literal prefix), such as `tenantId` in `T#{tenantId}#USER#...`;
    None when there is no such attribute."""
    found: set[tuple[str, str]] = set()
    pk = design.table.partition_key.name
    if design.table.partition_key.type != "S" or not design.entities:
        return None
    for entity in design.entities:
        key = entity.keys.get(pk)
        if key is None:
            return None
        leading = _leading(key.template)
        if leading is None:
            return None
        found.add(leading)
    return next(iter(found))[1] if len(found) == 1 else None


def _leading(template: str) -> tuple[str, str] | None:
    """(literal prefix, attribute) of a template that starts with optional
    literal text and then a placeholder."""
    try:
        parts = parse_template(template).parts
    except ValueError:
        return None
    prefix = ""
    for part in parts:
        if isinstance(part, Literal):
            prefix += part.text
        elif isinstance(part, Placeholder):
            return (prefix, part.attribute)
    return None


def _leading_keys_value(design: d.Design, attribute: str) -> list[str]:
    """The keys a tenant may use: the literal prefix, the tenant's tag, and
    the literal text after it (`T#${aws:PrincipalTag/tenantId}#*`). The text
    after the tag matters: without it, tenant `acme` would match the keys of
    tenant `acme2` too."""
    values = set()
    pk = design.table.partition_key.name
    tag = "${" + TENANT_TAG.format(attribute=attribute) + "}"
    for entity in design.entities:
        parts = parse_template(entity.keys[pk].template).parts
        position = next(i for i, p in enumerate(parts) if isinstance(p, Placeholder))
        prefix = "".join(p.text for p in parts[:position] if isinstance(p, Literal))
        value = _iam_literal(prefix) + tag
        rest = parts[position + 1 :]
        if rest and isinstance(rest[0], Literal):
            value += _iam_literal(rest[0].text)
            rest = rest[1:]
        values.add(value + ("*" if rest else ""))
    return sorted(values)


def _iam_literal(text: str) -> str:
    """Text placed literally in an IAM string condition: `*`, `?` and `$`
    are special there and are written as policy variables."""
    return re.sub(
        r"[*?$]",
        lambda m: {"*": "${*}", "?": "${?}", "$": "${$}"}[m.group()],
        text,
    )


def iam_policy(
    design: d.Design,
    *,
    region: str = "*",
    account: str = "*",
    tenant: str | bool = False,
) -> Policy:
    """The policy document. `tenant=True` uses the detected tenant attribute;
    a name insists on that one. Requests that a LeadingKeys condition cannot
    confine (Scan, and queries of a GSI, whose partition key is not the
    table's) are left out of a tenant-isolated policy and listed in notes."""
    arn = table_arn(design, region, account)
    notes: list[str] = []
    attribute: str | None = None
    if tenant:
        detected = tenant_attribute(design)
        if tenant is True:
            if detected is None:
                raise PolicyError(
                    "no tenant attribute: the partition key templates of the "
                    "entities do not all start with the same attribute"
                )
            attribute = detected
        else:
            if detected != tenant:
                raise PolicyError(
                    f"the partition key templates do not all start with "
                    f"{{{tenant}}}"
                    + (f"; they start with {{{detected}}}" if detected else "")
                )
            attribute = str(tenant)
    # resource -> actions
    grants: dict[tuple[str, bool], set[str]] = {}
    # Said apart from the patterns that cannot be confined to a tenant.
    unkeyed: list[str] = []
    for pattern in design.access_patterns:
        if not pattern.keyed:
            unkeyed.append(
                f"'{pattern.name}' is left out: it has no key yet, so the "
                "operation and the table or index it reads are not known"
            )
            continue
        index = design.table.index(pattern.index)
        resource = arn if index is None else f"{arn}/index/{index.name}"
        confinable = not (
            pattern.operation == "Scan" or (index is not None and index.is_global)
        )
        if attribute and not confinable:
            notes.append(
                f"'{pattern.name}' ({pattern.operation}"
                + (f" on {index.name}" if index else "")
                + ") is left out: dynamodb:LeadingKeys cannot confine it to one "
                "tenant; serve it from a separate role or a per-tenant index"
            )
            continue
        for action in pattern_actions(pattern):
            grants.setdefault((resource, confinable), set()).add(action)
    statements = []
    for (resource, confinable), actions in sorted(grants.items()):
        where = resource.rsplit("/", 1)[-1] if "/index/" in resource else "Table"
        statement: dict = {
            "Sid": re.sub(r"[^A-Za-z0-9]", "", f"Access{where}")[:100],
            "Effect": "Allow",
            "Action": sorted(actions),
            "Resource": resource,
        }
        if attribute and confinable:
            statement["Condition"] = {
                "ForAllValues:StringLike": {
                    "dynamodb:LeadingKeys": _leading_keys_value(design, attribute)
                }
            }
        statements.append(statement)
    if not statements:
        # AWS refuses a policy without statements: say why there is none.
        if not design.access_patterns:
            raise PolicyError(
                "the design has no access patterns, so there is nothing to "
                "grant: list the reads and writes the application makes"
            )
        if not any(p.keyed for p in design.access_patterns):
            raise PolicyError(
                "no access pattern has a key yet, so there is nothing to grant: "
                "propose keys, or write the patterns' operations and keys"
            )
        raise PolicyError(
            "no access pattern can be confined to one tenant: "
            + "; ".join(notes)
            + "".join(f". {note[0].upper()}{note[1:]}" for note in unkeyed)
        )
    return Policy(
        {"Version": "2012-10-17", "Statement": statements}, tuple(notes + unkeyed)
    )
