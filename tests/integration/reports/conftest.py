"""Staff people the maus-tratos report tests sign in as (the report form helpers are in
tests/factories.py: ``REPORTER``, ``photo``, ``submit``)."""

from __future__ import annotations

import pytest

from portal.extensions import db
from tests import factories


@pytest.fixture
def coordinator(app):  # type: ignore[no-untyped-def]
    person = factories.user(roles=("coordinator",), full_name="Coordenadora Clara")
    db.session.commit()
    return person


@pytest.fixture
def agent(app):  # type: ignore[no-untyped-def]
    person = factories.user(roles=("agent",), full_name="Agente Armando Fiscal")
    db.session.commit()
    return person


@pytest.fixture
def other_agent(app):  # type: ignore[no-untyped-def]
    person = factories.user(roles=("agent",), full_name="Agente Bruno Outro")
    db.session.commit()
    return person
