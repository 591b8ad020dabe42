"""LGPD export, demo data and the workspace queue declarations of the report domain."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from portal.blueprints.reports import services as svc
from portal.blueprints.reports.extras import declare_queues, export_reports, seed_reports_demo
from portal.extensions import db
from portal.models import MaltreatmentReport
from portal.models.base import utcnow
from tests.factories import submit


def test_lgpd_export_lists_own_confidential_reports_only(client, auth) -> None:
    person = auth.login()
    submit(client)  # anonymous: linked to nobody
    _r, mine, _c = submit(
        client,
        category="poisoning",
        identity="confidential",
        name=person.full_name,
        email=person.email,
    )
    exported = export_reports(person)
    assert [e["protocolo"] for e in exported] == [mine.protocol]
    assert exported[0]["contato"]["email"] == person.email


def test_demo_seeder_is_idempotent(app) -> None:
    seed_reports_demo()
    db.session.commit()
    seed_reports_demo()
    db.session.commit()
    assert len(db.session.scalars(select(MaltreatmentReport)).all()) == 3


def test_workspace_queues_select_triage_and_waiting(client) -> None:
    _r, late, _c = submit(client)
    late.created_at = utcnow() - timedelta(days=svc.current_profile().reports.triage_days + 1)
    db.session.commit()
    from portal.workspace import QueueRegistry

    registry = QueueRegistry()
    declare_queues(registry)
    triage = registry.queues["denuncias-triagem"]
    waiting = registry.queues["denuncias-aguardando"]
    assert db.session.scalars(triage.rows()).all() == [late]
    assert db.session.scalars(triage.rows().where(triage.overdue())).all() == [late]
    assert db.session.scalars(waiting.rows()).all() == []
