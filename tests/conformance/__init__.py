"""The engine against moto's DynamoDB server: identical requests, same data,
same answers, except where moto is known to differ from DynamoDB (those are
pinned on the engine in test_moto_differences.py)."""

import pytest

# The comparisons live in harness.py; have pytest explain their failures
# (the differing values) as it does for asserts in test modules.
pytest.register_assert_rewrite("tests.conformance.harness")
