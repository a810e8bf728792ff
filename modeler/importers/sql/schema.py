"""A schema dump read into tables: columns with their SQL types, primary
keys, unique constraints and indexes, foreign keys, enum and check
constraints. Everything else a dump holds (views, functions, triggers,
sequences, grants, settings, comments, owners) is skipped with a note."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from dataclasses import dataclass, field

import sqlglot
from sqlglot import exp
from sqlglot.errors import ParseError, TokenError
from sqlglot.tokens import Token

from modeler.importers.budget import check_cpu
from modeler.importers.sql.statements import (
    MYSQL,
    SqlImportError,
    Statement,
    dialect_of,
    quoted,
    split_statements,
    statement_kind,
)

# The most tables one schema may hold: each becomes an entity.
MAX_TABLES = 200
# A skipped kind's note lists the lines of its first few statements.
_LINES_NOTED = 5


@dataclass
class Column:
    name: str
    type: exp.DataType
    nullable: bool = True
    auto: bool = False  # serial, identity, AUTO_INCREMENT, nextval default
    check_values: tuple[str, ...] = ()  # CHECK (col IN (...)) or = ANY (ARRAY[...])
    line: int = 0

    @property
    def type_name(self) -> str:
        return self.type.sql(dialect="postgres").lower()


@dataclass(frozen=True)
class ForeignKey:
    columns: tuple[str, ...]
    parent: str
    parent_columns: tuple[str, ...]
    line: int


@dataclass
class Table:
    name: str
    line: int
    columns: list[Column] = field(default_factory=list)
    primary_key: tuple[str, ...] = ()
    uniques: list[tuple[str, ...]] = field(default_factory=list)
    foreign_keys: list[ForeignKey] = field(default_factory=list)
    partitioned: str = ""  # PARTITION BY ... as written
    comment: str = ""

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)


@dataclass
class Schema:
    dialect: str
    tables: dict[str, Table] = field(default_factory=dict)
    enums: dict[str, tuple[str, ...]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    skipped: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))

    def skip(self, kind: str, line: int) -> None:
        self.skipped[kind].append(line)

    @property
    def skipped_notes(self) -> list[str]:
        notes = []
        for kind, lines in sorted(self.skipped.items()):
            lines = sorted(lines)
            shown = ", ".join(str(n) for n in lines[:_LINES_NOTED])
            more = ", …" if len(lines) > _LINES_NOTED else ""
            notes.append(
                f"skipped {len(lines)} {kind} statement"
                f"{'s' if len(lines) > 1 else ''} (line{'s' if len(lines) > 1 else ''}"
                f" {shown}{more}): {_SKIP_REASONS.get(kind, _SKIP_DEFAULT)}"
            )
        return notes


_SKIP_DEFAULT = "not part of the data's shape"
_SKIP_REASONS = {
    "CREATE VIEW": "a view is a query; state it in the query file",
    "CREATE FUNCTION": "code runs in the application or a stream handler",
    "CREATE PROCEDURE": "code runs in the application or a stream handler",
    "CREATE TRIGGER": "a DynamoDB stream handler does a trigger's work",
    "CREATE SEQUENCE": "ids come from their attributes' generators",
    "ALTER SEQUENCE": "ids come from their attributes' generators",
    "GRANT": "access is IAM's (see the IAM policy export)",
    "REVOKE": "access is IAM's (see the IAM policy export)",
    "SET": "a session setting",
    "ALTER … OWNER TO": "ownership is the database's; access is IAM's",
    "ALTER … ENABLE ROW LEVEL SECURITY": "access is IAM's",
    "SELECT": "a session setting",
    "COMMENT": "a comment on other than a table (a table's is its entity's "
    "description)",
    "CREATE EXTENSION": "a database extension",
    "CREATE SCHEMA": "a namespace; tables are read by their names",
    "CREATE INDEX": "an index is a read the query file states",
    "CREATE DOMAIN": "its columns are read by its base type",
    "RESTRICT": "a psql meta-command (\\restrict)",
    "UNRESTRICT": "a psql meta-command (\\unrestrict)",
    "CONNECT": "a psql meta-command (\\connect); tables are read by their names",
}


def read_schema(text: str, *, file: str, dialect: str = "") -> Schema:
    """The tables of a `pg_dump --schema-only` or `mysqldump --no-data`
    file. SqlImportError, naming the file, line and statement, for a table
    that cannot be read."""
    dialect = dialect or dialect_of(text)
    schema = Schema(dialect)
    statements, delimited = split_statements(text, dialect=dialect, file=file)
    for block in delimited:
        schema.skip("DELIMITER block (trigger or routine)", block.line)
    domains: dict[str, exp.DataType] = {}
    deferred: list[tuple[Statement, exp.Expr]] = []
    commands: list[Statement] = []
    comments: list[Statement] = []
    for statement in statements:
        check_cpu()
        kind = statement_kind(statement)
        if kind in ("CREATE TABLE", "ALTER TABLE", "CREATE INDEX", "CREATE TYPE"):
            if kind == "CREATE TABLE":
                plain, partitioned = _mysql_partitioning(statement, dialect)
                _create_table(schema, plain, plain.parse(dialect), file, partitioned)
                continue
            parsed = statement.parse(dialect)
            if kind == "CREATE TYPE" and _enum(schema, parsed):
                continue
            elif kind == "ALTER TABLE" and isinstance(parsed, exp.Command):
                commands.append(statement)
            elif parsed is not None and not isinstance(parsed, exp.Command):
                deferred.append((statement, parsed))

            else:
                schema.skip(_command_kind(statement, kind), statement.line)
        elif kind == "COMMENT":
            comments.append(statement)
        elif kind == "CREATE DOMAIN":
            _domain(domains, statement, dialect)
            schema.skip(kind, statement.line)
        elif kind:
            schema.skip(_command_kind(statement, kind), statement.line)
    if not schema.tables:
        raise SqlImportError(
            "holds no CREATE TABLE statement; expected a schema dump "
            "(pg_dump --schema-only, mysqldump --no-data)",
            file=file,
        )
    for statement, parsed in deferred:
        _alteration(schema, statement, parsed, file)
    for statement in commands:
        _command_alteration(schema, statement)
    for statement in comments:
        _comment(schema, statement)
    _resolve_types(schema, domains)
    return schema


def _command_kind(statement: Statement, kind: str) -> str:
    """ALTER ... OWNER TO and its kin, named by what they do."""
    if not kind.startswith("ALTER"):
        return kind
    upper = " ".join(statement.text.upper().split())
    for words in ("OWNER TO", "ENABLE ROW LEVEL SECURITY"):
        if words in upper:
            return f"ALTER … {words}"
    return kind


def _command_alteration(schema: Schema, statement: Statement) -> None:
    """The ALTER TABLE forms sqlglot keeps as a Command: a partition
    attached to its table (pg_dump writes it as a table of its own first),
    an identity column; anything else is skipped."""
    words = statement.text.replace("(", " ( ").split()
    upper = [w.upper() for w in words]
    if "ATTACH" in upper and "PARTITION" in upper:
        at = upper.index("PARTITION")
        child = _bare(words[at + 1]) if at + 1 < len(words) else ""
        parent = _bare(words[upper.index("ATTACH") - 1])
        if child in schema.tables and parent in schema.tables and child != parent:
            del schema.tables[child]
            schema.notes.append(
                f"{child} (line {statement.line}) is a partition of {parent}: "
                "its rows are that table's items"
            )
            return
    if "IDENTITY" in upper and "COLUMN" in upper:
        table = schema.tables.get(_bare(words[upper.index("TABLE") + 1]))
        if upper[upper.index("TABLE") + 1] == "ONLY" and table is None:
            table = schema.tables.get(_bare(words[upper.index("TABLE") + 2]))
        column = (
            table.column(_bare(words[upper.index("COLUMN") + 1])) if table else None
        )
        if column is not None:
            column.auto = True
            return
    schema.skip(_command_kind(statement, "ALTER TABLE"), statement.line)


def _comment(schema: Schema, statement: Statement) -> None:
    """COMMENT ON TABLE becomes the entity's description."""
    parsed = statement.parse(schema.dialect)
    if (
        isinstance(parsed, exp.Comment)
        and str(parsed.args.get("kind", "")).upper() == "TABLE"
        and isinstance(parsed.expression, exp.Literal)
        and (table := schema.tables.get(_name(parsed.this))) is not None
    ):
        table.comment = parsed.expression.name[:1000]
        return
    schema.skip("COMMENT", statement.line)


def _bare(name: str) -> str:
    """A possibly schema-qualified, quoted name as the table is known."""
    return name.split(".")[-1].strip('"`')


def _name(table: exp.Table | exp.Expr) -> str:
    return table.name if isinstance(table, exp.Table) else table.this.name


def _mysql_partitioning(statement: Statement, dialect: str) -> tuple[Statement, str]:
    """A MySQL CREATE TABLE as sqlglot reads it, and its partitioning.
    mysqldump writes a partitioned table's PARTITION BY clause after the
    table's options (in a version comment), in forms sqlglot does not read
    (a partition's ENGINE, VALUES LESS THAN MAXVALUE, PARTITIONS n): the
    statement is cut before it, and the clause given up to its partitioning
    expression (`PARTITION BY RANGE (year(`d`))`), or "" for none. A column
    of a spatial type sqlglot does not know (POINT, POLYGON...) is read as
    the GEOMETRY it is a kind of."""
    if dialect != MYSQL:
        return statement, ""
    try:
        tokens = sqlglot.tokenize(statement.text, read=dialect)
    except (TokenError, ValueError):
        return statement, ""
    text = statement.text
    cut, clause = len(text), ""
    spatial: list[Token] = []
    depth = 0
    position = 0  # of the token within a column definition
    for at, token in enumerate(tokens):
        kind = token.token_type.name
        if kind == "L_PAREN":
            depth += 1
            position = 0 if depth == 1 else position
            continue
        if kind == "R_PAREN":
            depth -= 1
            continue
        if depth == 1:
            if kind == "COMMA":
                position = 0
                continue
            position += 1
            if position == 2 and token.text.upper() in _SPATIAL_TYPES:
                spatial.append(token)
        elif kind == "PARTITION_BY" and depth == 0:
            end = _first_group_end(tokens, at)
            cut, clause = token.start, " ".join(text[token.start : end].split())
            break
    for token in reversed(spatial):
        text = text[: token.start] + "GEOMETRY" + text[token.end + 1 :]
        cut += len("GEOMETRY") - len(token.text)
    if not spatial and not clause:
        return statement, ""
    return dataclasses.replace(statement, text=text[:cut].rstrip()), clause


# MySQL's spatial types that sqlglot's MySQL reader does not take as a
# column's type (GEOMETRY it does).
_SPATIAL_TYPES = frozenset(
    {
        "POINT",
        "LINESTRING",
        "POLYGON",
        "MULTIPOINT",
        "MULTILINESTRING",
        "MULTIPOLYGON",
        "GEOMCOLLECTION",
        "GEOMETRYCOLLECTION",
    }
)


def _first_group_end(tokens: list[Token], at: int) -> int:
    """Where the first parenthesized group after tokens[at] closes."""
    depth = 0
    for token in tokens[at + 1 :]:
        kind = token.token_type.name
        if kind == "L_PAREN":
            depth += 1
        elif kind == "R_PAREN":
            depth -= 1
            if depth == 0:
                return token.end + 1
    return tokens[-1].end + 1


def _create_table(
    schema: Schema,
    statement: Statement,
    parsed: exp.Expr | None,
    file: str,
    partitioned: str = "",
) -> None:
    if not isinstance(parsed, exp.Create):
        why, line = statement.unreadable(schema.dialect)
        raise SqlImportError(
            f"a CREATE TABLE that cannot be read as {schema.dialect} SQL"
            + (f": {why}" if why else ""),
            file=file,
            line=line,
            statement=statement.text,
        )
    target = parsed.this
    partition_of = parsed.find(exp.PartitionedOfProperty)
    if partition_of is not None:
        schema.notes.append(
            f"{_name(target)} (line {statement.line}) is a partition of "
            f"{_name(partition_of.this)}: its rows are that table's items"
        )
        return
    if not isinstance(target, exp.Schema):
        schema.skip("CREATE TABLE … AS", statement.line)
        return
    name = _name(target.this)
    if name in schema.tables:
        raise SqlImportError(
            f"creates table {name} a second time (first at line "
            f"{schema.tables[name].line})",
            file=file,
            line=statement.line,
            statement=statement.text,
        )
    if len(schema.tables) >= MAX_TABLES:
        raise SqlImportError(
            f"holds more than {MAX_TABLES} tables; import a part of the schema",
            file=file,
            line=statement.line,
        )
    table = Table(name, statement.line)
    for element in target.expressions:
        if isinstance(element, exp.ColumnDef):
            _column(table, element, statement.line)
        else:
            _table_constraint(table, element, statement.line)
    partition = parsed.find(exp.PartitionedByProperty)
    if partition is not None:
        partitioned = partition.sql(dialect=schema.dialect)
    if partitioned:
        table.partitioned = quoted(partitioned)
        schema.notes.append(
            f"{name} is partitioned ({table.partitioned}): one entity; "
            "DynamoDB partitions by key"
        )
    schema.tables[name] = table


def _column(table: Table, definition: exp.ColumnDef, line: int) -> None:
    kind = definition.args.get("kind")
    column = Column(
        definition.name,
        kind if isinstance(kind, exp.DataType) else exp.DataType.build("text"),
        line=line,
    )
    if column.type.this in _SERIALS:
        column.auto = True
    for constraint in definition.constraints:
        spec = constraint.kind
        if isinstance(spec, exp.NotNullColumnConstraint):
            column.nullable = bool(spec.args.get("allow_null"))
        elif isinstance(spec, exp.PrimaryKeyColumnConstraint):
            table.primary_key = (column.name,)
            column.nullable = False
        elif isinstance(spec, exp.UniqueColumnConstraint):
            table.uniques.append((column.name,))
        elif (
            isinstance(
                spec,
                exp.AutoIncrementColumnConstraint
                | exp.GeneratedAsIdentityColumnConstraint,
            )
            or isinstance(spec, exp.DefaultColumnConstraint)
            and "nextval" in (spec.sql().lower())
        ):
            column.auto = True
        elif isinstance(spec, exp.CheckColumnConstraint):
            column.check_values = _check_values(spec.this) or column.check_values
        elif isinstance(spec, exp.Reference):
            _reference(table, (column.name,), spec, line)
    table.columns.append(column)


_SERIALS = {
    exp.DataType.Type.SERIAL,
    exp.DataType.Type.BIGSERIAL,
    exp.DataType.Type.SMALLSERIAL,
}


def _table_constraint(table: Table, element: exp.Expr, line: int) -> None:
    specs = element.expressions if isinstance(element, exp.Constraint) else [element]
    for spec in specs:
        if isinstance(spec, exp.PrimaryKey):
            table.primary_key = _names(spec.expressions)
            for name in table.primary_key:
                column = table.column(name)
                if column is not None:
                    column.nullable = False
        elif isinstance(spec, exp.UniqueColumnConstraint):
            columns = spec.this.expressions if isinstance(spec.this, exp.Schema) else []
            if columns:
                table.uniques.append(_names(columns))
        elif isinstance(spec, exp.ForeignKey):
            reference = spec.args.get("reference")
            if isinstance(reference, exp.Reference):
                _reference(table, _names(spec.expressions), reference, line)
        elif isinstance(spec, exp.CheckColumnConstraint):
            values = _check_values(spec.this)
            column = table.column(_checked_column(spec.this))
            if values and column is not None:
                column.check_values = values
        elif (
            isinstance(spec, exp.IndexColumnConstraint)
            and (spec.args.get("kind") or "").upper() == "UNIQUE"
        ):
            table.uniques.append(_names(spec.expressions))


def _names(expressions: list[exp.Expr]) -> tuple[str, ...]:
    names = []
    for expression in expressions:
        if isinstance(expression, exp.Ordered):
            expression = expression.this
        names.append(expression.name)
    return tuple(names)


def _reference(
    table: Table, columns: tuple[str, ...], reference: exp.Reference, line: int
) -> None:
    target = reference.this
    if isinstance(target, exp.Schema):
        parent, parent_columns = _name(target.this), _names(target.expressions)
    else:
        parent, parent_columns = _name(target), ()
    table.foreign_keys.append(ForeignKey(columns, parent, parent_columns, line))


def _check_values(condition: exp.Expr) -> tuple[str, ...]:
    """The values of `col IN ('a', 'b')` or `col = ANY (ARRAY['a', 'b'])`
    (pg_dump's form), else ()."""
    condition = condition.unnest() if isinstance(condition, exp.Paren) else condition
    if isinstance(condition, exp.In):
        literals = condition.expressions
    elif isinstance(condition, exp.EQ) and isinstance(condition.expression, exp.Any):
        literals = list(condition.expression.find_all(exp.Literal))
    else:
        return ()
    values = tuple(
        lit.this for lit in literals if isinstance(lit, exp.Literal) and lit.is_string
    )
    return values if values and len(values) == len(literals) else ()


def _checked_column(condition: exp.Expr) -> str:
    column = condition.find(exp.Column)
    return column.name if column is not None else ""


def _enum(schema: Schema, parsed: exp.Expr | None) -> bool:
    if not isinstance(parsed, exp.Create):
        return False
    body = parsed.expression
    if not isinstance(body, exp.DataType) or body.this != exp.DataType.Type.ENUM:
        return False
    schema.enums[_name(parsed.this)] = tuple(
        lit.this for lit in body.expressions if isinstance(lit, exp.Literal)
    )
    return True


def _domain(
    domains: dict[str, exp.DataType], statement: Statement, dialect: str
) -> None:
    """CREATE DOMAIN name AS type ...: sqlglot keeps it as a Command, so its
    name and base type are read from its tokens."""
    words = statement.text.split()
    try:
        at = [w.upper() for w in words].index("AS")
        name = words[at - 1].split(".")[-1].strip('"')
        domains[name] = exp.DataType.build(words[at + 1], dialect=dialect)
    except (ValueError, IndexError, ParseError):
        return  # its columns stay of an unknown type, read as text


def _alteration(
    schema: Schema, statement: Statement, parsed: exp.Expr, file: str
) -> None:
    if isinstance(parsed, exp.Create) and isinstance(parsed.this, exp.Index):
        index = parsed.this
        table = schema.tables.get(_name(index.args["table"]))
        params = index.args.get("params")
        columns = _names(params.args.get("columns") or []) if params else ()
        if table is not None and parsed.args.get("unique") and columns:
            table.uniques.append(columns)
        else:
            schema.skip("CREATE INDEX", statement.line)
        return
    if not isinstance(parsed, exp.Alter):
        schema.skip(statement_kind(statement), statement.line)
        return
    table = schema.tables.get(_name(parsed.this))
    if table is None:
        raise SqlImportError(
            f"alters table {_name(parsed.this)}, which the file does not create",
            file=file,
            line=statement.line,
            statement=statement.text,
        )
    for action in parsed.args.get("actions") or []:
        if isinstance(action, exp.AddConstraint):
            for constraint in action.expressions:
                _table_constraint(table, constraint, statement.line)
        elif isinstance(action, exp.AlterColumn) and "nextval" in action.sql().lower():
            column = table.column(action.name)
            if column is not None:
                column.auto = True
        else:
            schema.skip("ALTER TABLE", statement.line)


def _resolve_types(schema: Schema, domains: dict[str, exp.DataType]) -> None:
    """Columns of an enum type get its values; of a domain, its base type."""
    for table in schema.tables.values():
        for column in table.columns:
            if column.type.this != exp.DataType.Type.USERDEFINED:
                continue
            name = column.type.sql(dialect=schema.dialect).split(".")[-1].strip('"')
            if name in schema.enums and not column.check_values:
                column.check_values = schema.enums[name]
            elif name in domains:
                column.type = domains[name]
