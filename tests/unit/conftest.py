"""Fixtures of the fee unit tests (test_fees.py, test_fees_edges.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.factories import fee_profiles


@pytest.fixture
def profile_of(_schema) -> Iterator:  # type: ignore[no-untyped-def]
    """Push an app for a profile key and return its profile; 2026 unit values are seeded. One app
    per profile serves the whole test process (tests.factories.fee_app)."""
    yield from fee_profiles()
