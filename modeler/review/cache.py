"""Reviews kept in memory between requests, keyed by the design's content,
the prices and the stored item count. A review runs every access pattern
against the design's cached simulation, under that simulation's lock (write
patterns change the table while they run)."""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict

from botocore.exceptions import ClientError

from modeler.design import Design
from modeler.review.prices import Prices
from modeler.review.review import Review, review_design, run_patterns
from modeler.sampledata import SampleDataError
from modeler.simulation import PatternRun
from modeler.simulation.cache import cached_simulation, design_digest

logger = logging.getLogger(__name__)

MAX_ENTRIES = 8

_entries: OrderedDict[tuple, Review] = OrderedDict()
# The pattern runs by design, so that new prices do not run them again.
_runs: OrderedDict[str, list[PatternRun]] = OrderedDict()
_guard = threading.Lock()


def cached_review(
    design: Design, *, prices: Prices, stored_items: int | None = None
) -> Review:
    key = (design_digest(design), prices, stored_items)
    with _guard:
        review = _entries.get(key)
        if review is not None:
            _entries.move_to_end(key)
            return review
    review = _review(design, prices, stored_items)
    with _guard:
        _entries[key] = review
        _entries.move_to_end(key)
        while len(_entries) > MAX_ENTRIES:
            _entries.popitem(last=False)
    return review


def _review(design: Design, prices: Prices, stored_items: int | None) -> Review:
    try:
        simulation, lock = cached_simulation(design)
    except SampleDataError as exc:
        problem = f"the sample data cannot be made: {exc}"
    except ClientError as exc:
        error = exc.response["Error"]
        problem = f"the table cannot be created: {error['Code']}: {error['Message']}"
    except Exception as exc:
        # A simulator bug must not take the review down; the log keeps it.
        logger.exception("Loading the simulation of %r failed", design.name)
        problem = f"the simulator could not load this design ({type(exc).__name__})"
    else:
        digest = design_digest(design)
        with lock:
            with _guard:
                runs = _runs.get(digest)
            if runs is None:
                runs = run_patterns(simulation, design.access_patterns)
                with _guard:
                    _runs[digest] = runs
                    while len(_runs) > MAX_ENTRIES:
                        _runs.popitem(last=False)
            return review_design(
                design,
                simulation=simulation,
                runs=runs,
                prices=prices,
                stored_items=stored_items,
            )
    return review_design(
        design, prices=prices, stored_items=stored_items, simulation_problem=problem
    )
