"""Fixtures of the licence tests."""

from __future__ import annotations

import pytest


@pytest.fixture
def gru(app):  # type: ignore[no-untyped-def]
    """The app's own profile (Guarulhos) inside a request: the licence rules read it there."""
    with app.test_request_context():
        yield app.extensions["portal_profile"]
