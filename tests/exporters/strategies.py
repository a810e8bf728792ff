"""Hypothesis strategies for designs whose tables vary in every setting the
infrastructure exporters write: keys of each type, GSIs with multi-attribute
keys, LSIs, projections, billing, TTL, streams, PITR, encryption, class,
deletion protection and tags with awkward text; some with a pattern stated
by what it needs."""

from __future__ import annotations

from hypothesis import strategies as st

from modeler.design import model as d
from modeler.design.findings import has_errors
from modeler.design_check import check_design

_NAME = st.from_regex(r"[A-Za-z][A-Za-z0-9_.-]{2,20}", fullmatch=True)
_ATTRIBUTE = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,12}", fullmatch=True)
# Tags hold what AWS lets a tag hold: letters, numbers, white space and
# + - = . _ : / @ (modeler.design_check.table refuses the rest).
_TAG_TEXT = st.text(
    alphabet=st.characters(
        codec="utf-8",
        categories=("L", "N", "Zs"),
        include_characters="+-=._:/@",
    ),
    min_size=1,
    max_size=30,
).filter(lambda s: s.strip() == s and s.strip())
_TRICKY = st.sampled_from(
    ["Environment", "a=b", "team:x/y", "+@-", "ü-ñ", "x y", "数据", "٣"]
)


@st.composite
def _capacity(draw) -> d.Capacity:  # type: ignore[no-untyped-def]
    """Provisioned units, auto scaled by default, not at all, or within a
    range around them per dimension."""
    read, write = draw(st.integers(1, 5000)), draw(st.integers(1, 5000))

    def scaling_range(units: int) -> d.ScalingRange | None:
        return draw(
            st.one_of(
                st.none(),
                st.builds(
                    d.ScalingRange,
                    st.integers(1, units),
                    st.integers(units, d.MAX_AUTO_SCALED_UNITS),
                    st.integers(20, 90),
                    st.none() | st.integers(0, 3600),
                    st.none() | st.integers(0, 3600),
                    st.booleans(),
                ),
            )
        )

    scaling = draw(
        st.one_of(
            st.none(),
            st.just(d.AUTO_SCALING_OFF),
            st.builds(
                d.AutoScaling,
                st.just(scaling_range(read)),
                st.just(scaling_range(write)),
            ),
        )
    )
    return d.Capacity(read, write, scaling)


_CAPACITY = _capacity()
_VALUE_ATTRIBUTE = {"S": "sval", "N": "nval", "B": "bval"}


@st.composite
def designs(draw: st.DrawFn) -> d.Design:
    names = draw(
        st.lists(_ATTRIBUTE, min_size=24, max_size=24, unique_by=str.lower).filter(
            lambda ns: (
                not {"sval", "nval", "bval", "expiresat"} & {n.lower() for n in ns}
            )
        )
    )
    pool = iter(names)
    key_type = st.sampled_from(("S", "S", "N", "B"))
    pk = d.KeyAttribute(next(pool), draw(key_type))
    sk = d.KeyAttribute(next(pool), draw(key_type)) if draw(st.booleans()) else None
    provisioned = draw(st.booleans())
    indexes: list[d.Index] = []
    index_names = draw(
        st.lists(_NAME, max_size=5, unique_by=str.lower).filter(
            lambda ns: "table" not in ns
        )
    )
    lsi_count = 0
    for name in index_names:
        local = sk is not None and lsi_count < 2 and draw(st.booleans())
        projection_type = draw(st.sampled_from(d.PROJECTION_TYPES))
        projection = d.Projection(
            projection_type,
            tuple(
                draw(
                    st.lists(st.sampled_from(("sval", "nval")), min_size=1, unique=True)
                )
            )
            if projection_type == "INCLUDE"
            else (),
        )
        if local:
            lsi_count += 1
            indexes.append(
                d.Index(
                    name, "local", (pk,), (d.KeyAttribute(next(pool), "S"),), projection
                )
            )
            continue
        parts = draw(st.integers(1, 2)), draw(st.integers(0, 2))
        partition = tuple(
            d.KeyAttribute(next(pool), draw(key_type)) for _ in range(parts[0])
        )
        sort = tuple(
            d.KeyAttribute(next(pool), draw(key_type)) for _ in range(parts[1])
        )
        indexes.append(
            d.Index(
                name,
                "global",
                partition,
                sort,
                projection,
                draw(_CAPACITY) if provisioned else None,
            )
        )
    encryption = draw(
        st.sampled_from(
            (
                d.Encryption(),
                d.Encryption("AWS_MANAGED"),
                d.Encryption("KMS", "alias/app-key"),
                d.Encryption(
                    "KMS",
                    "arn:aws:kms:eu-west-1:123456789012:key/"
                    "1234abcd-12ab-34cd-56ef-1234567890ab",
                ),
            )
        )
    )
    tags = draw(
        st.dictionaries(
            # cfn-lint 1.58 takes a tag key "FALSE" for a duplicate (E3024).
            st.one_of(_TRICKY, _TAG_TEXT).filter(
                lambda k: not k.lower().startswith("aws:") and k.lower() != "false"
            ),
            st.one_of(_TRICKY, _TAG_TEXT),
            max_size=4,
        )
    )
    table = d.Table(
        name=draw(_NAME),
        partition_key=pk,
        sort_key=sk,
        billing_mode="PROVISIONED" if provisioned else "PAY_PER_REQUEST",
        capacity=draw(_CAPACITY) if provisioned else None,
        indexes=tuple(indexes),
        ttl_attribute=draw(st.sampled_from(("", "expiresAt"))),
        stream_view_type=draw(st.sampled_from(("",) + d.STREAM_VIEW_TYPES)),
        point_in_time_recovery=draw(st.booleans()),
        encryption=encryption,
        table_class=draw(st.sampled_from(d.TABLE_CLASSES)),
        deletion_protection=draw(st.booleans()),
        tags=tuple(tags.items()),
    )
    keys = {
        attr.name: d.KeyTemplate(
            f"K#{{{_VALUE_ATTRIBUTE['S']}}}"
            if attr.type == "S"
            else f"{{{_VALUE_ATTRIBUTE[attr.type]}}}",
            # A NoSQL Workbench name: kept for the table's keys only.
            alias=draw(st.one_of(st.just(""), _TRICKY, _TAG_TEXT)),
        )
        for attr in table.all_key_attributes()
    }
    entity = d.Entity(
        "Item",
        attributes=(
            d.Attribute("sval", "S"),
            d.Attribute("nval", "N"),
            d.Attribute("bval", "B"),
            d.Attribute("expiresAt", "N"),
        ),
        keys=keys,
    )
    # A read stated by what it needs, before any key serves it: exports
    # carry no access patterns (or skip such a one).
    unkeyed = d.AccessPattern(
        "Items by value",
        d.UNKEYED,
        expects=d.Expectation(
            ("Item",), (d.Predicate("sval", "=", ("{sval}",)),), ("-nval",)
        ),
    )
    design = d.Design(
        name=draw(_TAG_TEXT),
        table=table,
        entities=(entity,),
        access_patterns=(unkeyed,) if draw(st.booleans()) else (),
    )
    problems = check_design(design)
    assert not has_errors(problems), problems
    return design
