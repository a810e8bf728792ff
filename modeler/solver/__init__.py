"""The key-design solver: from entities and what each access pattern needs
to partition and sort keys and a few overloaded indexes, each proposal
proven by the simulator and the review before it is shown."""

from modeler.solver.needs import strip_keys
from modeler.solver.propose import (
    DEFAULT_ALTERNATIVES,
    DEFAULT_BUDGET,
    Alternative,
    KeptKeysError,
    Proposal,
    propose,
)

__all__ = [
    "DEFAULT_ALTERNATIVES",
    "DEFAULT_BUDGET",
    "Alternative",
    "KeptKeysError",
    "Proposal",
    "propose",
    "strip_keys",
]
