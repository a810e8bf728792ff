"""Findings an expert would reject stay away, each beside the design where
the finding is right: numbers whose generator keeps them one length need no
padding; entities whose index key is their own constant type do not
collide."""

from __future__ import annotations

from modeler.design_check import check_design
from modeler.designfile import read_design
from modeler.review import review_design
from modeler.simulation import Simulation

NUMBERED = """\
format: single-table-workbench/v1
name: Numbered
table: {name: numbered, partition_key: PK, sort_key: SK}
entities:
  Ticket:
    attributes:
      queue: {type: S, generator: {choice: [A, B]}}
      n: {type: N, generator: {int: BOUNDS}}
    keys: {PK: "QUEUE#{queue}", SK: "TICKET#{n}"}
    sample: {count: 50}
access_patterns:
  - name: Tickets of a queue
    operation: Query
    key: {PK: "QUEUE#{queue}", SK: {begins_with: "TICKET#"}}
    expects: {entity: Ticket, where: {queue: "{queue}"}}
    traffic: {rps: 1, peak_rps: 2}
"""


def _codes(text: str) -> tuple[set[str], list[str]]:
    result = read_design(text)
    assert result.design is not None, result.problems
    review = review_design(result.design, simulation=Simulation(result.design))
    problems = [p.message for p in check_design(result.design)]
    return {f.code for f in review.findings}, problems


def test_numbers_of_one_length_need_no_padding() -> None:
    codes, problems = _codes(NUMBERED.replace("BOUNDS", "{min: 1000, max: 9999}"))
    assert "unpadded-number" not in codes
    assert not [p for p in problems if "unpadded" in p]


def test_numbers_of_several_lengths_do() -> None:
    codes, problems = _codes(NUMBERED.replace("BOUNDS", "{min: 1, max: 5000}"))
    assert "unpadded-number" in codes
    assert [p for p in problems if "unpadded" in p]


TYPED = """\
format: single-table-workbench/v1
name: Typed
table:
  name: typed
  partition_key: PK
  sort_key: SK
  indexes:
    - {name: ByType, partition_key: GSI1PK, sort_key: GSI1SK}
entities:
  Customer:
    attributes:
      id: {type: S, generator: uuid}
      type: {type: S, generator: {constant: FIRST}}
    keys: {PK: "C#{id}", SK: "C", GSI1PK: "{type}", GSI1SK: "{id}"}
    sample: {count: 5}
  Order:
    attributes:
      id: {type: S, generator: uuid}
      type: {type: S, generator: {constant: SECOND}}
    keys: {PK: "O#{id}", SK: "O", GSI1PK: "{type}", GSI1SK: "{id}"}
    sample: {count: 5}
"""


def _collisions(text: str) -> list[str]:
    result = read_design(text)
    assert result.design is not None, result.problems
    return [
        p.message
        for p in check_design(result.design)
        if "same key" in p.message or "collide" in p.message
    ]


def test_index_keys_that_are_each_entitys_own_constant_do_not_collide() -> None:
    typed = TYPED.replace("FIRST", "Customer").replace("SECOND", "Order")
    assert _collisions(typed) == []


def test_the_same_constant_in_two_entities_does() -> None:
    assert _collisions(TYPED.replace("FIRST", "Thing").replace("SECOND", "Thing"))


INVENTED = """\
format: single-table-workbench/v1
name: Imported
table: {name: imported, partition_key: PK, sort_key: SK}
entities:
  Visit:
    attributes:
      siteId: {type: S, generator: {choice: [s1, s2, s3]}}
      visitDate: {type: S DATE_GENERATOR}
      details: {type: L MAP_GENERATOR}
    keys: {PK: "SITE#{siteId}", SK: "VISIT#{visitDate}"}
    sample: {count: 60}
access_patterns:
  - name: Visits of a site
    operation: Query
    key: {PK: "SITE#{siteId}", SK: {begins_with: "VISIT#"}}
    expects: {entity: Visit, where: {siteId: "{siteId}"}}
    traffic: {rps: 1, peak_rps: 2}
"""


def test_no_finding_rests_on_values_the_tool_invented() -> None:
    codes, _problems = _codes(
        INVENTED.replace("DATE_GENERATOR", "").replace("MAP_GENERATOR", "")
    )
    assert not {"date-not-iso", "item-growth"} & codes


def test_stated_generators_are_checked() -> None:
    codes, _problems = _codes(
        INVENTED.replace(
            "DATE_GENERATOR",
            ', generator: {faker: {provider: date, pattern: "%d/%m/%Y"}}',
        ).replace(
            "MAP_GENERATOR",
            ", generator: {list: {of: {faker: word}, max: 20}}",
        )
    )
    assert {"date-not-iso", "item-growth"} <= codes


PHOTOS = """\
format: single-table-workbench/v1
name: Photos
table: {name: photos, partition_key: PK, sort_key: SK}
entities:
  Photo:
    attributes:
      photoId: {type: S, generator: uuid}
      image: {type: B, max_length: SIZE}
    keys: {PK: "PHOTO#{photoId}", SK: "PHOTO"}
    sample: {count: 20}
access_patterns:
  - name: Get a photo
    operation: GetItem
    key: {PK: "PHOTO#{photoId}", SK: "PHOTO"}
    expects: {entity: Photo, where: {photoId: "{photoId}"}}
    traffic: {rps: 50, peak_rps: 100}
"""


def test_a_350_kb_image_in_the_item_is_costed_at_its_size() -> None:
    result = read_design(PHOTOS.replace("SIZE", "358400"))
    review = review_design(result.design, simulation=Simulation(result.design))
    (large,) = [f for f in review.findings if f.code == "large-value"]
    assert large.severity == "warning"
    assert large.location.name == "Photo.image"
    assert large.figures["rcu"] == 88 and large.figures["wcu"] == 351
    assert "Store image in S3" in large.fix
    # The simulation and the cost table size the image at its max_length,
    # not as an invented value of a few bytes: an eventually consistent
    # GetItem of a 350 KB item is 44 RCU.
    (get,) = review.cost.patterns
    assert get.units == 44
    assert get.peak == 4400


def test_several_large_values_are_scaled_to_fit_the_item() -> None:
    text = PHOTOS.replace("SIZE", "358400").replace(
        "      image: {type: B, max_length: 358400}",
        "      image: {type: B, max_length: 358400}\n"
        "      original: {type: B, max_length: 358400}",
    )
    result = read_design(text)
    simulation = Simulation(result.design)
    run = simulation.run(result.design.access_patterns[0])
    assert run.passed
    # Together they would be 700 KB: each is made at 190 KB so the item
    # fits in 400 KB, and the read costs what the largest item would.
    assert run.capacity.read == 48


def test_a_small_binary_value_is_fine() -> None:
    result = read_design(PHOTOS.replace("SIZE", "2048"))
    review = review_design(result.design, simulation=Simulation(result.design))
    assert [f for f in review.findings if f.code == "large-value"] == []


NOTES = """\
format: single-table-workbench/v1
name: Notes
table: {name: notes, partition_key: PK, sort_key: SK}
entities:
  Note:
    attributes:
      noteId: {type: S, generator: uuid}
      pages:
        type: L
        generator:
          list:
            of: {faker: {provider: pystr, min_chars: 1000, max_chars: 1000}}
            max: MOST
    keys: {PK: "NOTE#{noteId}", SK: "NOTE"}
    sample: {count: 20}
access_patterns:
  - name: Get a note
    operation: GetItem
    key: {PK: "NOTE#{noteId}", SK: "NOTE"}
    expects: {entity: Note, where: {noteId: "{noteId}"}}
    traffic: {rps: 50, peak_rps: 100}
"""


def test_a_list_that_can_hold_100_kb_is_a_large_value() -> None:
    result = read_design(NOTES.replace("MOST", "100"))
    review = review_design(result.design, simulation=Simulation(result.design))
    (large,) = [f for f in review.findings if f.code == "large-value"]
    assert large.location.name == "Note.pages"
    # 100 pages of 1,000 characters: the largest item the generator allows,
    # about 98 KB, not the sample's average of half that.
    assert "L of up to 100 elements of up to 1,000 bytes" in large.evidence[0]
    assert large.figures["rcu"] == 25
    five = read_design(NOTES.replace("MOST", "5"))
    small = review_design(five.design, simulation=Simulation(five.design))
    assert [f for f in small.findings if f.code == "large-value"] == []
