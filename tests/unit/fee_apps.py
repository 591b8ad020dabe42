"""One app per profile for the fee unit tests, built once per test process.

The fee service only reads the database (unit values, price overrides, municipal holidays), and
these tests only ``flush`` what they seed and roll it back, so they do not need a new app per test
(``make_app``). Building an app costs far more than a fee; the mutation run (issue 16) repeats the
fee tests for every mutant, so the saving is what makes ``make mutation`` fit in minutes.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from datetime import date

from flask import Flask

from portal import create_app
from portal.config import TestingConfig
from portal.extensions import db
from portal.models import UnitValue
from portal.profiles.schema import Profile

# Values in force from 2026-01-01 (the shipped example values of the profiles).
UNIT_VALUES = {"UFG": 480, "UFM": 5000, "MW": 162100, "UFIR": 106}

_APPS: dict[str, Flask] = {}


def app_for(key: str) -> Flask:
    if key not in _APPS:
        config = TestingConfig()
        config.PORTAL_PROFILE = key  # type: ignore[attr-defined]
        config.UPLOAD_DIR = tempfile.mkdtemp(prefix="ccz-uploads-")  # type: ignore[attr-defined]
        _APPS[key] = create_app(config)
    return _APPS[key]


def profiles() -> Iterator[Callable[[str], Profile]]:
    """Generator behind the ``profile_of`` fixtures: push a profile's app, seed the unit values,
    and roll everything back afterwards (nothing is ever committed)."""
    contexts = []

    def use(key: str) -> Profile:
        app = app_for(key)
        ctx = app.app_context()
        ctx.push()
        contexts.append(ctx)
        for unit, cents in UNIT_VALUES.items():
            db.session.add(UnitValue(unit=unit, value_cents=cents, effective_from=date(2026, 1, 1)))
        db.session.flush()
        return app.extensions["portal_profile"]

    try:
        yield use
    finally:
        for ctx in reversed(contexts):
            db.session.rollback()
            ctx.pop()
