"""Fixtures of the inbox tests: the channel tests' property known to the sandbox hub."""

from tests.integration.channels.conftest import hub_property, manual_review  # noqa: F401 (fixtures)
