"""Writing a design file: the whole design, one entity or one element of it,
as YAML in the documented format.
"""

from __future__ import annotations

from typing import Any

import yaml

from modeler.design import model as d
from modeler.designfile.fields import FORMAT

# --- Writing ----------------------------------------------------------------


def dump_design(design: d.Design) -> str:
    """The design as a YAML document in the documented format; reading it
    back gives an equal Design."""
    doc: dict[str, Any] = {"format": FORMAT, "name": design.name}
    if design.description:
        doc["description"] = design.description
    doc["table"] = _dump_table(design.table)
    doc["entities"] = {e.name: _dump_entity(e) for e in design.entities}
    doc["access_patterns"] = [_dump_pattern(p) for p in design.access_patterns]
    sample: dict[str, Any] = {"seed": design.sample_data.seed}
    if design.sample_data.items:
        sample["items"] = [d.thaw(item) for item in design.sample_data.items]
    doc["sample_data"] = sample
    return _yaml(doc)


def entity_document(entity: d.Entity) -> dict[str, Any]:
    """The entity as the design file writes it under `entities:`, as plain
    data (what reading that YAML back gives), without writing YAML."""
    return _dump_entity(entity)


def dump_element(kind: str, value: Any) -> str:
    """One element of a design (see `modeler.history.elements`) as the
    design file writes it, to show two versions of it side by side: the
    project's name and description, the table's settings (its indexes are
    elements of their own), an index, an entity, an access pattern, the
    sample seed or the own items."""
    doc: Any
    if kind == "project":
        name, description = value
        doc = {"name": name, "description": description}
    elif kind == "table":
        doc = _dump_table(value)
        doc.pop("indexes", None)
    elif kind == "index":
        doc = _dump_index(value)
    elif kind == "entity":
        doc = {value.name: _dump_entity(value)}
    elif kind == "pattern":
        doc = _dump_pattern(value)
    elif kind == "items":
        doc = [d.thaw(item) for item in value]
    else:
        doc = {"seed": value}
    return _yaml(doc)


def _yaml(doc: Any) -> str:
    return yaml.dump(
        _flow_leaves(doc),
        Dumper=_Dumper,
        sort_keys=False,
        allow_unicode=True,
        width=88,
    )


class _FlowDict(dict):
    pass


class _FlowList(list):
    pass


def _flow_leaves(value: Any) -> Any:
    """Short mappings and lists of plain values are written on one line
    (`{name: PK, type: S}`), as people write them by hand."""
    if isinstance(value, dict):
        children = {k: _flow_leaves(v) for k, v in value.items()}
        leaf = all(
            not isinstance(v, (dict, list)) or isinstance(v, (_FlowList, _FlowDict))
            for v in children.values()
        )
        short = (
            len(children) <= 4
            and len(str(children)) < 72
            and all("\n" not in v for v in children.values() if isinstance(v, str))
        )
        return _FlowDict(children) if leaf and short else children
    if isinstance(value, list):
        items = [_flow_leaves(v) for v in value]
        if all(isinstance(v, (str, int, float)) for v in items):
            return _FlowList(items)
        return items
    return value


class _Dumper(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


_Dumper.add_representer(
    _FlowDict,
    lambda dumper, value: dumper.represent_mapping(
        "tag:yaml.org,2002:map", value.items(), flow_style=True
    ),
)


_Dumper.add_representer(
    _FlowList,
    lambda dumper, value: dumper.represent_sequence(
        "tag:yaml.org,2002:seq", value, flow_style=True
    ),
)


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_representer)


def _dump_key_attribute(attr: d.KeyAttribute) -> dict:
    return {"name": attr.name, "type": attr.type}


def _dump_key_attributes(attrs: tuple[d.KeyAttribute, ...]) -> Any:
    if len(attrs) == 1:
        return _dump_key_attribute(attrs[0])
    return [_dump_key_attribute(a) for a in attrs]


def _dump_table(table: d.Table) -> dict:
    out: dict[str, Any] = {
        "name": table.name,
        "partition_key": _dump_key_attribute(table.partition_key),
    }
    if table.sort_key:
        out["sort_key"] = _dump_key_attribute(table.sort_key)
    billing: dict[str, Any] = {"mode": table.billing_mode}
    if table.capacity:
        billing.update(_dump_capacity(table.capacity))
    out["billing"] = billing
    if table.ttl_attribute:
        out["ttl_attribute"] = table.ttl_attribute
    if table.stream_view_type:
        out["stream"] = table.stream_view_type
    if table.point_in_time_recovery:
        out["point_in_time_recovery"] = True
    if table.encryption != d.Encryption():
        enc: dict[str, Any] = {"type": table.encryption.type}
        if table.encryption.kms_key:
            enc["kms_key"] = table.encryption.kms_key
        out["encryption"] = enc
    if table.table_class != "STANDARD":
        out["table_class"] = table.table_class
    if table.deletion_protection:
        out["deletion_protection"] = True
    if table.tags:
        out["tags"] = dict(table.tags)
    if table.indexes:
        out["indexes"] = [_dump_index(i) for i in table.indexes]
    return out


def _dump_index(index: d.Index) -> dict:
    out: dict[str, Any] = {"name": index.name, "kind": index.kind}
    if index.partition_key:
        out["partition_key"] = _dump_key_attributes(index.partition_key)
    if index.sort_key:
        out["sort_key"] = _dump_key_attributes(index.sort_key)
    if index.projection.type == "INCLUDE":
        out["projection"] = {
            "type": "INCLUDE",
            "attributes": list(index.projection.attributes),
        }
    else:
        out["projection"] = index.projection.type
    if index.capacity:
        out["capacity"] = _dump_capacity(index.capacity)
    return out


def _dump_capacity(capacity: d.Capacity) -> dict[str, Any]:
    out: dict[str, Any] = {"read": capacity.read, "write": capacity.write}
    scaling = capacity.auto_scaling
    if scaling == d.AUTO_SCALING_OFF:
        out["auto_scaling"] = False
    elif scaling is not None:
        out["auto_scaling"] = {
            name: dump_scaling_range(r) if r else False
            for name, r in (("read", scaling.read), ("write", scaling.write))
        }
    return out


def dump_scaling_range(r: d.ScalingRange) -> dict[str, Any]:
    """A range as the design file writes it: the policy's settings only
    where they are not Application Auto Scaling's defaults."""
    out: dict[str, Any] = {"min": r.minimum, "max": r.maximum, "target": r.target}
    if r.scale_in_cooldown is not None:
        out["scale_in_cooldown"] = r.scale_in_cooldown
    if r.scale_out_cooldown is not None:
        out["scale_out_cooldown"] = r.scale_out_cooldown
    if r.disable_scale_in:
        out["disable_scale_in"] = True
    return out


def _dump_generator(generator: d.Generator) -> Any:
    if not generator.params:
        return generator.kind
    params = d.thaw(generator.params)
    if set(params) == {"value"}:
        params = params["value"]
    return {generator.kind: params}


def _dump_entity(entity: d.Entity) -> dict:
    out: dict[str, Any] = {}
    if entity.description:
        out["description"] = entity.description
    attrs: dict[str, Any] = {}
    for attr in entity.attributes:
        spec: dict[str, Any] = {"type": attr.type}
        if not attr.required:
            spec["required"] = False
            if attr.presence != 0.5:
                spec["presence"] = attr.presence
        if attr.generator:
            spec["generator"] = _dump_generator(attr.generator)
        if attr.max_length is not None:
            spec["max_length"] = attr.max_length
        if attr.description:
            spec["description"] = attr.description
        if attr.seed_name:
            spec["seed_name"] = attr.seed_name
        attrs[attr.name] = spec
    out["attributes"] = attrs
    out["keys"] = {name: _dump_key(key) for name, key in entity.keys.items()}
    out["sample"] = _dump_sample_settings(entity.sample)
    if entity.seed_name:
        out["seed_name"] = entity.seed_name
    return out


def _dump_key(key: d.KeyTemplate) -> Any:
    if not (key.when or key.alias):
        return key.template
    spec = {"template": key.template}
    if key.when:
        spec["when"] = key.when
    if key.alias:
        spec["alias"] = key.alias
    return spec


def _dump_count(count: d.Count) -> Any:
    if count.distribution == "uniform":
        return {"uniform": {"min": count.low, "max": count.high}}
    if count.distribution == "zipf":
        return {"zipf": {"s": count.s, "max": count.high}}
    return count.value


def _dump_sample_settings(sample: d.SampleSettings) -> dict:
    out: dict[str, Any] = {}
    if sample.per:
        out["per"] = sample.per
    out["count"] = _dump_count(sample.count)
    if sample.hot_keys or sample.hot_share:
        out["hot"] = {"keys": sample.hot_keys, "share": sample.hot_share}
    return out


def _dump_condition(operator: str, values: tuple[str, ...]) -> Any:
    if operator == "=":
        return values[0] if values else ""
    if operator in ("exists", "not_exists"):
        return {operator: True}
    if operator in ("between", "in"):
        return {operator: list(values)}
    return {operator: values[0] if values else ""}


def _dump_key_clauses(clauses: tuple[d.KeyClause, ...]) -> dict:
    return {c.attribute: _dump_condition(c.operator, c.values) for c in clauses}


def _dump_action(action: d.Action, *, with_operation: bool = True) -> dict:
    out: dict[str, Any] = {}
    if with_operation:
        out["operation"] = action.operation
    out["entity"] = action.entity
    if action.key:
        out["key"] = _dump_key_clauses(action.key)
    for how in d.UPDATE_WAYS:
        if getattr(action, how):
            out[how] = dict(getattr(action, how))
    if action.remove:
        out["remove"] = list(action.remove)
    if action.condition:
        out["condition"] = action.condition
    if action.count:
        out["count"] = action.count
    return out


_SINGLE_WRITES = ("PutItem", "UpdateItem", "DeleteItem")


def _number(value: float) -> float | int:
    return int(value) if value == int(value) else value


def _dump_pattern(pattern: d.AccessPattern) -> dict:
    out: dict[str, Any] = {"name": pattern.name}
    if pattern.description:
        out["description"] = pattern.description
    if not pattern.keyed:
        # Stated by what it needs: its expectation, the fields it shares
        # with every pattern, and no operation or key.
        if pattern.expects:
            out["needs"] = _dump_expectation(pattern.expects)
        if pattern.projection:
            out["projection"] = list(pattern.projection)
        return out | _dump_pattern_common(pattern)
    out["operation"] = pattern.operation
    if pattern.index != d.TABLE_INDEX:
        out["index"] = pattern.index
    if pattern.operation in _SINGLE_WRITES and pattern.actions:
        out.update(_dump_action(pattern.actions[0], with_operation=False))
    elif pattern.actions:
        out["actions"] = [_dump_action(a) for a in pattern.actions]
    if pattern.key:
        out["key"] = _dump_key_clauses(pattern.key)
    if pattern.filter:
        out["filter"] = pattern.filter
    if pattern.projection:
        out["projection"] = list(pattern.projection)
    out |= _dump_pattern_common(pattern)
    if pattern.expects:
        out["expects"] = _dump_expectation(pattern.expects)
    return out


def _dump_pattern_common(pattern: d.AccessPattern) -> dict[str, Any]:
    """The request settings the pattern takes that differ from their
    defaults, parameters and traffic: fields every pattern has."""
    out: dict[str, Any] = {
        option.name: getattr(pattern, option.name)
        for option in d.PATTERN_OPTIONS
        if (pattern.keyed or option.with_needs)
        and getattr(pattern, option.name) != option.default
    }
    if pattern.parameters:
        out["parameters"] = {
            p.name: ({"type": p.type, "example": p.example} if p.example else p.type)
            for p in pattern.parameters
        }
    if pattern.traffic != d.Traffic():
        out["traffic"] = {
            "rps": _number(pattern.traffic.rps),
            "peak_rps": _number(pattern.traffic.peak_rps),
        }
    if pattern.seed_name:
        out["seed_name"] = pattern.seed_name
    return out


def _dump_expectation(expects: d.Expectation) -> dict[str, Any]:
    out: dict[str, Any] = {
        "entity": (
            expects.entities[0]
            if len(expects.entities) == 1
            else list(expects.entities)
        )
    }
    if expects.where:
        out["where"] = {
            p.attribute: _dump_condition(p.operator, p.values) for p in expects.where
        }
    if expects.order_by:
        out["order_by"] = list(expects.order_by)
    return out
