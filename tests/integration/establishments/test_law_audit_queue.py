"""Issue 27 item 9: the establishments' expiry queue reads the renewal window from the profile
(GRU 11 §3: 60 days), not from a number in code."""

from __future__ import annotations

from datetime import timedelta

import pytest

from portal.blueprints.establishments.queues import expiry_notice_days
from portal.extensions import db
from portal.services.clock import local_today
from portal.workspace import registry, stats
from tests.integration.establishments.test_establishment_cadastro import _approved


@pytest.fixture
def profile(app):  # type: ignore[no-untyped-def]
    return app.extensions["portal_profile"]


def _expiring(app, profile, days_left: list[int]) -> int:  # type: ignore[no-untyped-def]
    today = local_today()
    for n, left in enumerate(days_left, start=1):
        e = _approved(profile, today, n=n)
        e.valid_until = today + timedelta(days=left)
    db.session.commit()
    queue = registry().get("estabelecimentos-vencendo")
    assert queue is not None
    return stats(queue).count


def test_gru_11_3_queue_lists_cadastros_within_the_60_day_window(app, profile) -> None:  # type: ignore[no-untyped-def]
    assert expiry_notice_days() == 60
    # the last day inside the window (60) counts, the day after (61) does not; expired counts
    assert _expiring(app, profile, [60, 61, -1]) == 2


def test_gru_11_3_queue_follows_another_citys_window(app, profile) -> None:  # type: ignore[no-untyped-def]
    rule = profile.establishments
    other = profile.model_copy(
        update={"establishments": rule.model_copy(update={"renewal_window_days": 30})}
    )
    app.extensions["portal_profile"] = other
    try:
        assert expiry_notice_days() == 30
        assert _expiring(app, other, [30, 31, 60]) == 1
    finally:
        app.extensions["portal_profile"] = profile


def test_gru_11_3_no_register_no_window(app, profile) -> None:  # type: ignore[no-untyped-def]
    app.extensions["portal_profile"] = profile.model_copy(update={"establishments": None})
    try:
        assert expiry_notice_days() == 0
    finally:
        app.extensions["portal_profile"] = profile
