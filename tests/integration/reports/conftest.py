"""Fixtures of the maus-tratos report tests (defined in ``helpers``)."""

from tests.integration.reports.helpers import agent, coordinator, other_agent  # noqa: F401
