"""SQL in: a schema dump and a query log become a design stated by needs
(modeler.importers.sql), and `manage.py design_from_sql` then
`propose_keys` take the Pagila sample schema to a proven proposal."""

from __future__ import annotations

import dataclasses
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from modeler.design import model as d
from modeler.designfile import read_design
from modeler.importers.sql import SqlImportError, design_from_sql
from modeler.review import review_design
from modeler.sampledata import generate

PAGILA = Path(__file__).resolve().parent / "pagila"
SCHEMA = (PAGILA / "schema.sql").read_text()
QUERIES = (PAGILA / "queries.sql").read_text()


def _pagila(**kwargs):
    return design_from_sql(
        SCHEMA,
        schema_file="schema.sql",
        queries_text=QUERIES,
        queries_file="queries.sql",
        **kwargs,
    )


def test_tables_become_entities_with_typed_attributes_and_relations():
    design = _pagila().design
    assert len(design.entities) == 15  # the partition payment_p2022_01 is payment's
    actor = design.entity("Actor")
    assert actor.attribute("actor_id").type == "N"
    assert actor.attribute("actor_id").generator == d.Generator("sequence")
    film = design.entity("Film")
    rating = film.attribute("rating")  # an enum type
    assert d.thaw(rating.generator.params) == {
        "value": ["G", "PG", "PG-13", "R", "NC-17"]
    }
    assert film.attribute("release_year").type == "N"  # a domain over integer
    assert film.attribute("rental_rate").generator.kind == "decimal"
    assert film.attribute("special_features").type == "L"
    assert film.attribute("fulltext") is None  # a tsvector is not carried
    assert film.attribute("description").required is False
    staff = design.entity("Staff")
    assert staff.attribute("active").type == "BOOL"
    assert staff.attribute("picture").type == "B"
    assert staff.attribute("email").generator == d.Generator(
        "faker", d.freeze({"value": "email"})
    )
    rental = design.entity("Rental")
    assert rental.sample.per == "Inventory"
    assert rental.attribute("inventory_id").generator.kind == "ref"
    assert rental.attribute("customer_id").generator == d.Generator(
        "pick", d.freeze({"value": "Customer.customer_id"})
    )
    # A child's id, numbered by the database, is a ULID: a sequence would
    # restart under each parent.
    assert rental.attribute("rental_id").generator == d.Generator("ulid")
    assert design.entity("Payment").attribute("rental_id").type == "S"


def test_a_join_table_is_many_to_many_and_a_cycle_is_broken_with_a_note():
    found = _pagila()
    film_actor = found.design.entity("FilmActor")
    assert film_actor.sample.per == "Actor"
    assert film_actor.attribute("film_id").generator.kind == "pick"
    assert any("many-to-many between Actor and Film" in line for line in found.inferred)
    assert any(
        "store.manager_staff_id → staff (line 520) closes a cycle" in line
        for line in found.skipped
    )
    assert found.design.entity("Store").attribute(
        "manager_staff_id"
    ).generator.kind in (
        "int",
        "sequence",
    )


def test_everything_else_a_dump_holds_is_skipped_with_a_note():
    skipped = "\n".join(_pagila().skipped)
    for kind in (
        "CREATE VIEW statement (line 357)",
        "CREATE FUNCTION statement (line 57)",
        "CREATE TRIGGER statement (line 451)",
        "CREATE SEQUENCE statement (line 72)",
        "GRANT statement (line 527)",
        "11 SET statements",
        "ALTER … OWNER TO statements",
    ):
        assert kind in skipped
    assert "payment_p2022_01 (line 382) is a partition of payment" in skipped


def test_selects_become_needs_and_writes_become_write_patterns():
    design = _pagila(window=3600, peak=4).design
    patterns = {p.name: p for p in design.access_patterns}
    rentals = patterns["Rentals of a customer, newest first"]
    assert not rentals.keyed
    assert rentals.expects == d.Expectation(
        ("Rental",),
        (d.Predicate("customer_id", "=", ("{customer_id}",)),),
        ("-rental_date",),
    )
    assert rentals.limit == 20
    assert rentals.traffic == d.Traffic(15, 60)  # a calls/s comment, peak x4
    payments = patterns[
        "Payment by customer_id, payment_date >=, ordered by payment_date"
    ]
    assert payments.expects.where[1] == d.Predicate(
        "payment_date", ">=", ("{payment_date_from}",)
    )
    # A join through the join table reads the join table's items.
    assert patterns["FilmActor by actor_id"].expects.entities == ("FilmActor",)
    update = patterns["Update return_date of a Rental"]
    assert update.operation == "UpdateItem"
    assert update.actions[0].set == (("return_date", "{new_return_date}"),)
    assert patterns["Create a Payment"].operation == "PutItem"


def test_plural_table_names_become_entities_named_for_one_item():
    schema = """
CREATE TABLE orders (order_id int PRIMARY KEY);
CREATE TABLE categories (category_id int PRIMARY KEY);
CREATE TABLE shipping_addresses (address_id int PRIMARY KEY);
CREATE TABLE order_statuses (status_id int PRIMARY KEY);
CREATE TABLE invoices (invoice_id int PRIMARY KEY);
CREATE TABLE status (status_id int PRIMARY KEY);
CREATE TABLE series (series_id int PRIMARY KEY);
"""
    queries = "-- calls/s: 2\nINSERT INTO orders (order_id) VALUES ($1);\n"
    design = design_from_sql(
        schema, schema_file="shop.sql", queries_text=queries, queries_file="q.sql"
    ).design
    assert [e.name for e in design.entities] == [
        "Order",
        "Category",
        "ShippingAddress",
        "OrderStatus",
        "Invoice",
        "Status",
        "Series",
    ]
    # "Create a Orders" before.
    assert [p.name for p in design.access_patterns] == ["Create an Order"]


def test_the_columns_of_a_joined_table_a_read_selects_are_named():
    schema = """
CREATE TABLE product (product_id int PRIMARY KEY, title text NOT NULL);
CREATE TABLE order_item (
  order_id int NOT NULL,
  line_no int NOT NULL,
  product_id int NOT NULL REFERENCES product (product_id),
  PRIMARY KEY (order_id, line_no)
);
"""
    queries = (
        "-- calls/s: 5\n"
        "SELECT oi.*, p.title AS product_title FROM order_item oi "
        "JOIN product p ON p.product_id = oi.product_id WHERE oi.order_id = $1;\n"
    )
    found = design_from_sql(
        schema, schema_file="shop.sql", queries_text=queries, queries_file="q.sql"
    )
    (pattern,) = found.design.access_patterns
    assert pattern.expects.entities == ("OrderItem",)
    (note,) = [n for n in found.skipped if "joined table" in n]
    assert note.startswith(f"pattern '{pattern.name}' (q.sql, line 2): ")
    assert "it also selects product.title of a joined table" in note
    assert "copy those attributes onto them (denormalise)" in note


def test_statements_that_become_no_pattern_say_why_and_what_instead():
    unsupported = _pagila().unsupported
    assert len(unsupported) == 3
    count, search, ors = unsupported
    assert count.startswith("queries.sql, line 75: SELECT count(*)")
    assert "aggregates over the whole table" in count and "stream handler" in count
    assert "searches text" in search and "search service" in search
    assert "chain of ORs" in ors


def test_pg_stat_statements_csv_and_json_give_traffic_over_the_window():
    schema = "CREATE TABLE public.account (account_id integer PRIMARY KEY, email text);"
    csv_log = (
        'userid,dbid,query,calls,total_exec_time\n10,5,"SELECT * FROM account '
        'WHERE account_id = $1",7200,1.5\n'
    )
    json_log = (
        '[{"query": "SELECT * FROM account WHERE account_id = $1", "calls": 7200}]'
    )
    for log, place in ((csv_log, "line 2"), (json_log, "row 1")):
        found = design_from_sql(
            schema, schema_file="s.sql", queries_text=log, queries_file="q", window=3600
        )
        (pattern,) = found.design.access_patterns
        assert pattern.traffic == d.Traffic(2, 6)
        assert f"pattern 'Account by account_id' from q, {place}" in found.inferred


def test_a_mysql_dump_and_a_digest_export():
    schema = """-- MySQL dump 10.13
/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
CREATE TABLE `player` (
  `player_id` int unsigned NOT NULL AUTO_INCREMENT,
  `handle` varchar(40) NOT NULL,
  `tier` enum('bronze','silver','gold') NOT NULL DEFAULT 'bronze',
  PRIMARY KEY (`player_id`),
  UNIQUE KEY `uq_handle` (`handle`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
DELIMITER ;;
/*!50003 CREATE*/ /*!50003 TRIGGER `t` BEFORE INSERT ON `player` FOR EACH ROW
SET NEW.handle = LOWER(NEW.handle) */;;
DELIMITER ;
"""
    digest = "DIGEST_TEXT\tCOUNT_STAR\nSELECT * FROM `player` WHERE `handle` = ?\t360\n"
    found = design_from_sql(
        schema,
        schema_file="s.sql",
        queries_text=digest,
        queries_file="d.tsv",
        window=60,
    )
    player = found.design.entity("Player")
    assert player.attribute("tier").generator.kind == "choice"
    assert player.attribute("handle").max_length == 40
    (pattern,) = found.design.access_patterns
    assert pattern.expects.where == (d.Predicate("handle", "=", ("{handle}",)),)
    assert pattern.traffic == d.Traffic(6, 18)
    assert any(
        "DELIMITER block" in line and "line 10" in line for line in found.skipped
    )


def test_a_mariadb_dump_s_own_version_comments_are_read_as_statements():
    # mariadb-dump writes its session settings in /*M!NNNNNN ... */ and
    # opens with a command to its own client, a comment to the server.
    schema = (
        "/*M!999999\\- enable the sandbox mode */ \n"
        "-- MariaDB dump 10.19-11.4.2-MariaDB, for debian-linux-gnu (x86_64)\n"
        "/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n"
        "/*M!100616 SET @OLD_NOTE_VERBOSITY=@@NOTE_VERBOSITY, NOTE_VERBOSITY=0 */;\n"
        "CREATE TABLE `player` (\n"
        "  `player_id` int(10) unsigned NOT NULL AUTO_INCREMENT,\n"
        "  PRIMARY KEY (`player_id`)\n"
        ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;\n"
        "/*M!100616 SET NOTE_VERBOSITY=@OLD_NOTE_VERBOSITY */;\n"
    )
    found = design_from_sql(schema, schema_file="s.sql")
    assert [e.name for e in found.design.entities] == ["Player"]
    assert found.skipped == (
        "skipped 3 SET statements (lines 3, 4, 9): a session setting",
    )


def test_a_digests_lists_of_values_are_read():
    # The digest writes a list of values as (...) and a many-row INSERT's
    # further rows as /* , ... */.
    schema = (
        "CREATE TABLE `player` (`player_id` int NOT NULL AUTO_INCREMENT, "
        "`handle` varchar(40) NOT NULL, PRIMARY KEY (`player_id`));"
    )
    digest = (
        "DIGEST_TEXT\tCOUNT_STAR\n"
        "INSERT INTO `player` ( `handle` ) VALUES (...)\t60\n"
        "INSERT INTO `player` ( `handle` ) VALUES (...) /* , ... */\t120\n"
        "SELECT * FROM `player` WHERE `player_id` IN (...)\t60\n"
    )
    found = design_from_sql(
        schema,
        schema_file="s.sql",
        queries_text=digest,
        queries_file="d.tsv",
        window=60,
    )
    (create,) = found.design.access_patterns
    assert (create.name, create.operation) == ("Create a Player", "PutItem")
    assert create.traffic == d.Traffic(3, 9)  # the two INSERTs' traffic
    (listed,) = found.unsupported
    assert listed.startswith("d.tsv, line 4: SELECT * FROM `player` WHERE")
    assert "an IN list is one request per value" in listed


def test_a_psql_meta_command_is_a_statement_of_its_own():
    # pg_dump (17.6, 16.10, ... on) opens and closes a dump with \restrict
    # and \unrestrict; pg_dumpall writes \connect. psql ends them at the
    # line's end: the table after one is not swallowed into it.
    schema = (
        "\\restrict abc123\n"
        "CREATE TABLE public.a (id integer PRIMARY KEY);\n"
        "\\connect shop\n"
        "CREATE TABLE public.b (id integer PRIMARY KEY);\n"
        "\\unrestrict abc123\n"
    )
    found = design_from_sql(schema, schema_file="s.sql")
    assert [e.name for e in found.design.entities] == ["A", "B"]
    skipped = "\n".join(found.skipped)
    assert "skipped 1 RESTRICT statement (line 1): a psql meta-command" in skipped
    assert "skipped 1 CONNECT statement (line 3): a psql meta-command" in skipped


def test_mysqldump_views_in_version_comments_are_skipped_with_a_note():
    # mysqldump writes a view twice, each whole inside /*!50001 ... */
    # comments: a stand-in first, the view itself at the end.
    schema = (Path(__file__).resolve().parent / "mysql" / "views.sql").read_text()
    found = design_from_sql(schema, schema_file="views.sql")
    skipped = "\n".join(found.skipped)
    assert "skipped 2 CREATE VIEW statements (lines 21, 37)" in skipped
    assert "skipped 2 DROP VIEW statements (lines 18, 30)" in skipped
    assert [e.name for e in found.design.entities] == ["Actor"]


@pytest.mark.parametrize(
    ("partitioning", "clause"),
    [
        (
            "PARTITION BY RANGE (year(`logged_at`))\n"
            "(PARTITION p2024 VALUES LESS THAN (2025) ENGINE = InnoDB,\n"
            " PARTITION pmax VALUES LESS THAN MAXVALUE ENGINE = InnoDB)",
            "PARTITION BY RANGE (year(`logged_at`))",
        ),
        (
            "PARTITION BY RANGE  COLUMNS(logged_at)\n"
            "(PARTITION p0 VALUES LESS THAN ('2025-01-01') ENGINE = InnoDB)",
            "PARTITION BY RANGE COLUMNS(logged_at)",
        ),
        ("PARTITION BY HASH (`log_id`)\nPARTITIONS 4", "PARTITION BY HASH (`log_id`)"),
        (
            "PARTITION BY LINEAR KEY (log_id)\nPARTITIONS 8",
            "PARTITION BY LINEAR KEY (log_id)",
        ),
    ],
)
def test_a_mysqldump_partitioned_table_is_one_entity(partitioning, clause):
    # mysqldump writes the partitioning after the table's options, inside a
    # version comment, in forms sqlglot's MySQL reader refuses.
    schema = (
        "CREATE TABLE `audit_log` (\n"
        "  `log_id` bigint NOT NULL AUTO_INCREMENT,\n"
        "  `logged_at` datetime NOT NULL,\n"
        "  `action` enum('login','logout') NOT NULL,\n"
        "  PRIMARY KEY (`log_id`,`logged_at`)\n"
        ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4\n"
        f"/*!50100 {partitioning} */;\n"
    )
    found = design_from_sql(schema, schema_file="s.sql")
    (entity,) = found.design.entities
    assert entity.name == "AuditLog"
    assert [a.name for a in entity.attributes] == ["log_id", "logged_at", "action"]
    assert entity.attribute("action").generator.kind == "choice"
    (note,) = [n for n in found.skipped if "partitioned" in n]
    assert note.startswith(f"audit_log is partitioned ({clause}): one entity")


def test_a_mysql_spatial_column_is_read_as_geometry():
    # sqlglot's MySQL reader takes GEOMETRY as a column's type but not its
    # kinds; mysqldump writes POINT with its SRID in a version comment.
    schema = (
        "CREATE TABLE `store` (\n"
        "  `store_id` int NOT NULL AUTO_INCREMENT,\n"
        "  `location` point NOT NULL /*!80003 SRID 4326 */,\n"
        "  `area` multipolygon DEFAULT NULL,\n"
        "  `route` linestring,\n"
        "  `polygon` varchar(10),\n"
        "  PRIMARY KEY (`store_id`),\n"
        "  SPATIAL KEY `sp_location` (`location`)\n"
        ") ENGINE=InnoDB;\n"
    )
    found = design_from_sql(schema, schema_file="s.sql")
    (store,) = found.design.entities
    assert [a.name for a in store.attributes] == [
        "store_id",
        "location",
        "area",
        "route",
        "polygon",
    ]
    assert store.attribute("location").required
    assert not store.attribute("area").required
    assert store.attribute("polygon").max_length == 10  # a column's name


COMPOSITE = """
CREATE TABLE orders (order_id int PRIMARY KEY);
CREATE TABLE order_line (
  order_id int NOT NULL REFERENCES orders (order_id),
  line_no int NOT NULL,
  PRIMARY KEY (order_id, line_no)
);
CREATE TABLE customer (customer_id int PRIMARY KEY);
CREATE TABLE refund (
  refund_id int PRIMARY KEY,
  customer_id int NOT NULL REFERENCES customer (customer_id),
  order_id int,
  line_no int,
  FOREIGN KEY (order_id, line_no) REFERENCES order_line (order_id, line_no)
);
"""


def _keyed(design: d.Design) -> d.Design:
    """The design with a key of each item's required attributes, which
    Propose keys would choose: enough to generate its sample data."""
    entities = []
    for entity in design.entities:
        names = "#".join(f"{{{a.name}}}" for a in entity.attributes if a.required)
        keys = {"PK": d.KeyTemplate(f"{entity.name}#{names}"), "SK": d.KeyTemplate("A")}
        entities.append(dataclasses.replace(entity, keys=keys))
    return dataclasses.replace(design, entities=tuple(entities))


def test_a_composite_foreign_key_made_by_picks_names_one_parent_row():
    # A refund names an order line by (order_id, line_no); its parent is the
    # customer, so the line is picked: line_no with order_id, from one line.
    found = design_from_sql(COMPOSITE, schema_file="s.sql")
    refund = found.design.entity("Refund")
    assert d.thaw(refund.attribute("line_no").generator.params) == {
        "from": "OrderLine.line_no",
        "with": "order_id",
    }
    assert not any("refund.(order_id" in n for n in found.skipped)
    data = generate(_keyed(found.design), seed=5)
    lines = {
        (i["order_id"], i["line_no"])
        for i, e in zip(data.items, data.entities, strict=True)
        if e == "OrderLine"
    }
    refunds = [
        i for i, e in zip(data.items, data.entities, strict=True) if e == "Refund"
    ]
    given = [(r["order_id"], r["line_no"]) for r in refunds if "order_id" in r]
    assert given and all(pair in lines for pair in given)
    # A nullable key is null in both columns together.
    assert all("line_no" not in r for r in refunds if "order_id" not in r)


def test_a_composite_key_whose_first_column_is_another_keys_is_noted():
    # refund.order_id is last a foreign key of its own (to orders): line_no
    # cannot be picked with it from one line, and the note says so.
    schema = COMPOSITE.replace(
        "(order_id, line_no)\n",
        "(order_id, line_no),\n  FOREIGN KEY (order_id) REFERENCES orders (order_id)\n",
    )
    found = design_from_sql(schema, schema_file="s.sql")
    refund = found.design.entity("Refund")
    assert refund.attribute("line_no").generator.params["value"] == (
        "OrderLine.line_no"
    )
    (note,) = [n for n in found.skipped if n.startswith("refund.(order_id")]
    assert note.startswith("refund.(order_id, line_no) → order_line (line")
    assert "may name no order_line row" in note
    # A child's composite key copied from its parent (ref) is one item's.
    assert not any(n.startswith("order_line.") for n in found.skipped)


@pytest.mark.parametrize(
    ("schema", "queries", "expected"),
    [
        ("SET x = 1;", "", "s.sql: holds no CREATE TABLE statement"),
        (
            "CREATE TABLE a (id int);\nCREATE TABLE a (id int);",
            "",
            "s.sql, line 2: creates table a a second time (first at line 1)",
        ),
        (
            "CREATE TABLE a (id int);\n\n"
            "ALTER TABLE ONLY b ADD CONSTRAINT p PRIMARY KEY (id);",
            "",
            "s.sql, line 3: alters table b, which the file does not create",
        ),
        (
            "CREATE TABLE a (id int PRIMARY KEY);",
            "SELECT * FROM a WHERE id = $1;",
            "q.sql, line 1: expected a '-- calls/s: N' comment",
        ),
        (
            "CREATE TABLE a (id int PRIMARY KEY);",
            "query,calls\nSELECT 1,many\n",
            "q.sql, line 2: expected a number of calls",
        ),
        (
            "CREATE TABLE a (id int PRIMARY KEY);",
            "[{]",
            "q.sql, line 1: is not valid JSON",
        ),
        (
            # JSON does not tell a row's line: the error names the row.
            "CREATE TABLE a (id int PRIMARY KEY);",
            '[\n {"query": "SELECT * FROM a", "calls": 1},\n'
            ' {"query": "SELECT * FROM a WHERE id = $1", "calls": "x"}\n]',
            "q.sql, row 2: expected a number of calls ('calls' or 'COUNT_STAR'), "
            "found 'x' (statement: SELECT * FROM a WHERE id = $1)",
        ),
    ],
)
def test_bad_input_names_the_file_the_line_and_the_statement(schema, queries, expected):
    with pytest.raises(SqlImportError) as caught:
        design_from_sql(
            schema, schema_file="s.sql", queries_text=queries, queries_file="q.sql"
        )
    assert caught.value.text.startswith(expected), caught.value.text


def test_a_statement_that_cannot_be_read_is_quoted():
    with pytest.raises(SqlImportError) as caught:
        design_from_sql(
            "CREATE TABLE ok (id int);\n"
            "CREATE TABLE broken (id int REFERENCES, name text);",
            schema_file="s.sql",
        )
    assert caught.value.line == 2
    broken = "CREATE TABLE broken (id int REFERENCES, name text)"
    assert caught.value.statement == broken


def test_a_table_that_cannot_be_read_names_the_line_it_stops_on_and_why():
    schema = (
        "CREATE TABLE ok (id int);\n"
        "CREATE TABLE broken (\n"
        "  id int PRIMARY KEY,\n"
        "  name text NOT NOT (,\n"
        "  note text\n"
        ");"
    )
    with pytest.raises(SqlImportError) as caught:
        design_from_sql(schema, schema_file="s.sql")
    assert caught.value.line == 4  # the statement starts on line 2
    assert caught.value.message == (
        "a CREATE TABLE that cannot be read as postgres SQL: Expecting ) in "
        "'name text NOT NOT (,'"
    )
    assert caught.value.statement.startswith("CREATE TABLE broken ( id int")


def test_a_logged_statement_that_cannot_be_read_says_why():
    found = design_from_sql(
        "CREATE TABLE a (id int PRIMARY KEY);",
        schema_file="s.sql",
        queries_text="-- calls/s: 1\nSELECT * FROM a WHERE id = = $1;\n",
        queries_file="q.sql",
    )
    (listed,) = found.unsupported
    assert listed.startswith(
        "q.sql, line 2: SELECT * FROM a WHERE id = = $1: it cannot be read as "
        "postgres SQL (Required keyword: 'expression' missing"
    ), listed


def test_hostile_names_stay_inert():
    schema = (
        'CREATE TABLE "{evil}#<b>" ("id{x}" integer PRIMARY KEY, "na me<script>" text);'
    )
    found = design_from_sql(schema, schema_file="<x>.sql")
    (entity,) = found.design.entities
    assert entity.name == "EvilB"
    assert [a.name for a in entity.attributes] == ["id_x_", "na_me_script_"]
    assert read_design(found.yaml_text).design == found.design


def test_design_from_sql_then_propose_keys_proves_pagila(tmp_path):
    """The issue's measure: the Pagila sample schema, dumped as pg_dump
    writes it, with its query file, goes to a proven proposal whose review
    has no error or warning."""
    design_file = tmp_path / "pagila.yaml"
    out = StringIO()
    call_command(
        "design_from_sql",
        str(PAGILA / "schema.sql"),
        "--queries",
        str(PAGILA / "queries.sql"),
        "-o",
        str(design_file),
        stdout=out,
    )
    printed = out.getvalue()
    assert "entity FilmActor from table film_actor (line 167)" in printed
    assert "skipped 1 CREATE TRIGGER statement (line 451)" in printed
    assert "queries.sql, line 78" in printed
    assert "15 entities, 11 access patterns, no keys yet" in printed
    proposal_file = tmp_path / "proposal.yaml"
    call_command(
        "propose_keys",
        str(design_file),
        "--alternatives",
        "1",
        "--budget",
        "60",
        "-o",
        str(proposal_file),
        stdout=StringIO(),
    )
    proposed = read_design(proposal_file.read_text()).design
    assert all(p.keyed for p in proposed.access_patterns)
    # A film has many actors: each FilmActor item's table key holds both ids.
    film_actor = proposed.entity("FilmActor").keys
    table_key = film_actor["PK"].template + film_actor["SK"].template
    assert "{actor_id" in table_key and "{film_id" in table_key
    review = review_design(proposed)
    assert [r.pattern.name for r in review.runs if r is not None and not r.passed] == []
    assert [
        (f.code, f.location.name, f.message)
        for f in review.findings
        if f.severity in ("error", "warning")
    ] == []


def test_the_command_reports_bad_input(tmp_path):
    bad = tmp_path / "bad.sql"
    bad.write_text("CREATE TABLE a (id int REFERENCES, b text);")
    with pytest.raises(CommandError, match=r"bad.sql, line 1: a CREATE TABLE"):
        call_command("design_from_sql", str(bad), "-o", str(tmp_path / "out.yaml"))
    assert not (tmp_path / "out.yaml").exists()


def test_the_commands_window_and_peak_give_the_traffic(tmp_path):
    schema = tmp_path / "s.sql"
    schema.write_text("CREATE TABLE a (id int PRIMARY KEY, b text);")
    log = tmp_path / "q.csv"
    log.write_text("query,calls\nSELECT * FROM a WHERE id = $1,7200\n")
    out = tmp_path / "out.yaml"
    call_command(
        "design_from_sql",
        str(schema),
        "--queries",
        str(log),
        "--window",
        "600",
        "--peak",
        "5",
        "-o",
        str(out),
        stdout=StringIO(),
    )
    (pattern,) = read_design(out.read_text()).design.access_patterns
    assert pattern.traffic == d.Traffic(12, 60)  # 7,200 calls over 600 s
    for option, value in (("--window", "0"), ("--peak", "0.5")):
        out.unlink(missing_ok=True)
        with pytest.raises(CommandError, match=option):
            call_command("design_from_sql", str(schema), option, value, "-o", str(out))
        assert not out.exists()


def test_an_empty_query_log_is_refused_not_taken_for_none(tmp_path):
    schema = tmp_path / "s.sql"
    schema.write_text("CREATE TABLE a (id int PRIMARY KEY);")
    empty = tmp_path / "q.sql"
    empty.write_text("")
    with pytest.raises(CommandError, match=r"q.sql: holds no statement"):
        call_command(
            "design_from_sql",
            str(schema),
            "--queries",
            str(empty),
            "-o",
            str(tmp_path / "out.yaml"),
        )
    assert not (tmp_path / "out.yaml").exists()


def test_an_import_past_its_cpu_budget_is_refused_naming_the_setting():
    from modeler.importers.budget import ImportLimitError, ImportLimits, configured

    schema = "\n".join(
        f"CREATE TABLE t{n} (id integer PRIMARY KEY, t{n - 1}_id integer "
        f"REFERENCES t{n - 1}(id), name text);"
        for n in range(1, 150)
    )
    with (
        configured(ImportLimits(cpu_seconds=0.0)),
        pytest.raises(ImportLimitError, match="IMPORT_CPU_SECONDS"),
    ):
        design_from_sql(schema, schema_file="big.sql")


def test_a_like_of_a_parameter_is_no_pattern_and_a_literal_prefix_is_begins_with():
    schema = "CREATE TABLE film (film_id integer PRIMARY KEY, title text);"
    log = (
        "-- calls/s: 2\nSELECT * FROM film WHERE title LIKE $1;\n"
        "-- calls/s: 1\nSELECT * FROM film WHERE film_id = $1 AND title LIKE 'The%';\n"
    )
    found = design_from_sql(
        schema, schema_file="s.sql", queries_text=log, queries_file="q.sql"
    )
    (unsupported,) = found.unsupported
    assert unsupported.startswith(
        "q.sql, line 2: SELECT * FROM film WHERE title LIKE $1"
    )
    assert "matches a pattern passed as a parameter" in unsupported
    (pattern,) = found.design.access_patterns
    assert pattern.expects.where[1] == d.Predicate("title", "begins_with", ("The",))
