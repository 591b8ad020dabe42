"""Fixtures of the security walkers: a populated portal (``tests.factories.build_world``: the demo
data plus one of every private object of the demo citizen) and a second citizen who owns nothing."""

from __future__ import annotations

import pytest

from portal.extensions import db
from portal.models import User
from tests import factories
from tests.factories import World, build_world


@pytest.fixture
def world(app) -> World:  # type: ignore[no-untyped-def]
    return build_world(app)


@pytest.fixture
def stranger() -> User:
    person = factories.user(roles=("citizen",), full_name="Estranho Curioso")
    db.session.commit()
    return person
