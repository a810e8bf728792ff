"""A design's table in the endpoint: created as the design describes it
(key schema, indexes, billing, stream, TTL, tags, deletion protection,
table class) and loaded with the sample data the simulator uses, from the
same seed."""

from __future__ import annotations

from modeler.design import model as d
from modeler.engine.engine import Engine
from modeler.sampledata import generate, with_own_items
from modeler.simulation.requests import create_table_request


def design_load(engine: Engine, design: d.Design, *, seed: int | None = None) -> int:
    """Create the design's table in `engine` and load its sample data;
    how many items were loaded."""
    table = design.table
    request = create_table_request(design)
    if table.stream_view_type:
        request["StreamSpecification"] = {
            "StreamEnabled": True,
            "StreamViewType": table.stream_view_type,
        }
    if table.tags:
        request["Tags"] = [{"Key": k, "Value": v} for k, v in table.tags]
    if table.table_class != "STANDARD":
        request["TableClass"] = table.table_class
    if table.deletion_protection:
        request["DeletionProtectionEnabled"] = True
    engine.create_table(request)
    if table.ttl_attribute:
        engine.update_time_to_live(
            {
                "TableName": table.name,
                "TimeToLiveSpecification": {
                    "Enabled": True,
                    "AttributeName": table.ttl_attribute,
                },
            }
        )
    seed = design.sample_data.seed if seed is None else seed
    dataset = with_own_items(design, generate(design, seed=seed))
    return engine.load_items(table.name, dataset.items)
