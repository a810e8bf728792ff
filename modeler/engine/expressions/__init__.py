"""DynamoDB's expression languages over native items (see
modeler.engine.types): condition and filter expressions, projection
expressions, update expressions and key condition expressions.

Each `parse_*` function checks an expression as DynamoDB does, raising
ValidationException with DynamoDB's message, and returns an object that
evaluates or applies it. `names` is the request's ExpressionAttributeNames,
`values` its ExpressionAttributeValues already converted to native values;
each parsed expression's `usage` says which of them it used, so the caller
can refuse the unused ones across all the expressions of a request. `kind`
names the expression in messages ("Invalid FilterExpression: ...").
"""

from modeler.engine.expressions.condition_parser import parse_condition
from modeler.engine.expressions.conditions import Condition
from modeler.engine.expressions.keycondition import (
    KeyCondition,
    SortCondition,
    parse_key_condition,
)
from modeler.engine.expressions.parser import Usage
from modeler.engine.expressions.paths import MISSING, Path
from modeler.engine.expressions.projection import Projection, parse_projection
from modeler.engine.expressions.reserved import RESERVED_WORDS
from modeler.engine.expressions.update import Update, parse_update

__all__ = [
    "MISSING",
    "RESERVED_WORDS",
    "Condition",
    "KeyCondition",
    "Path",
    "Projection",
    "SortCondition",
    "Update",
    "Usage",
    "parse_condition",
    "parse_key_condition",
    "parse_projection",
    "parse_update",
]
