"""Staff people the maus-tratos report tests sign in as, besides ``coordinator`` and ``agent``
(tests/conftest.py; the report form helpers are in tests/factories.py: ``REPORTER``, ``photo``,
``submit``)."""

from __future__ import annotations

import pytest

from portal.extensions import db
from tests import factories


@pytest.fixture
def other_agent(app):  # type: ignore[no-untyped-def]
    person = factories.user(roles=("agent",), full_name="Agente Bruno Outro")
    db.session.commit()
    return person
