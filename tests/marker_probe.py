"""A test marked redis, for tests/test_run_rules.py to run in a pytest of its own (its name does not start with
test_: the suite does not collect it); without Redis it is skipped, and the summary counts it."""

import pytest


@pytest.mark.redis
def test_marked_redis():
    """Nothing to check: only its outcome is counted."""
