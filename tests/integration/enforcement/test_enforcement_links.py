"""Enforcement and its neighbours: the report waiting for a notice, the profiles' notice terms
(BJP 30, VV 23), the VV 23 V commitment term, the workspace queues, the legal reminders and the
citizen's to-do list."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from portal.blueprints.enforcement import services
from portal.blueprints.enforcement.services import Addressee
from portal.extensions import db
from portal.models import (
    EnforcementDocument,
    MaltreatmentReport,
    OutboxMessage,
    PersonConsequence,
    ReportState,
)
from portal.services.clock import local_today
from portal.services.todo import citizen_todo
from tests import factories


def _report(**fields) -> MaltreatmentReport:  # type: ignore[no-untyped-def]
    """An inspected report that calls for a notice; ``fields`` override the defaults."""
    report = MaltreatmentReport(
        **{
            "protocol": "DEN-2026-000007",
            "tracking_hash": "x" * 64,
            "category": "no_shelter",
            "description": "Cão sem abrigo",
            "state": ReportState.INSPECTED,
            "outcome": "notice_needed",
            "street": "Rua B",
            "number": "5",
            "district": "Centro",
            **fields,
        }
    )
    db.session.add(report)
    db.session.commit()
    return report


def test_notice_issued_from_a_report_closes_its_wait(app, client, auth):
    report = _report()
    citizen = factories.user(full_name="Rui Autuado")
    agent = auth.login(roles=("agent",))
    page = client.get(f"/ccz/fiscalizacao/novo?denuncia={report.protocol}")
    assert page.status_code == 200 and "Rua B, 5" in page.get_data(as_text=True)
    response = client.post(
        f"/ccz/fiscalizacao/novo?denuncia={report.protocol}",
        data={
            "kind": "preliminary",
            "name": citizen.full_name,
            "cpf": citizen.cpf,
            "fact": "Cão sem abrigo",
            "place": "Rua B, 5",
            "occurred_at": "2026-11-02T10:00",
            "legal_provision": "GRU 10 V a",
            "required_action": "Providenciar abrigo",
            "comply_term": "d15",
            "animal_died": "no",
            "agent_title": "Agente",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    doc = db.session.query(EnforcementDocument).one()
    db.session.refresh(report)
    assert doc.report_id == report.id and doc.agent_id == agent.id
    assert report.state == ReportState.CLOSED  # out of "aguardando notificação/captura"
    assert any(e.public and e.to_state == "closed" for e in report.events)


def test_bjp_30_notice_terms_immediately_7_15_30(make_app):
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        codes = [code for code, _label in services.comply_choices(profile)]
        assert codes == ["d0", "d7", "d15", "d30"]


def test_vv_23_i_notice_term_7_days(make_app):
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        assert [c for c, _l in services.comply_choices(profile)] == ["d7", "d30"]


def test_gru_70_3_one_hour_to_sixty_days_and_thirty_more_on_request(app):
    profile = app.extensions["portal_profile"]
    codes = [c for c, _l in services.comply_choices(profile)]
    assert codes[0] == "h1" and "d60" in codes and "d61" not in codes
    agent = factories.user(roles=("agent",))
    citizen = factories.user()
    doc = services.issue_document(
        profile,
        kind="preliminary",
        agent=agent,
        addressee=Addressee("Rui", citizen.cpf),
        fact="Sem abrigo",
        place="Rua A",
        occurred_at=datetime(2026, 11, 2, tzinfo=UTC),
        legal_provision="GRU 37",
        agent_title="Agente",
        required_action="Abrigo",
        comply_term="d10",
    )
    day = doc.issued_at.date()
    services.record_service(
        profile, doc, method="signed", service_on=day, note=None, actor=agent, today=day
    )
    first = doc.comply_due_at
    services.extend_comply_term(profile, doc, agent)
    assert doc.comply_extended_days == 30 and doc.comply_due_at > first
    try:
        services.extend_comply_term(profile, doc, agent)
    except services.EnforcementError as err:
        assert err.code == "done"
    else:
        raise AssertionError("extended twice")


def test_vv_23_v_signed_commitment_term_is_recorded_on_the_person(make_app):
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        agent = factories.user(roles=("agent",))
        citizen = factories.user()
        doc = services.issue_document(
            profile,
            kind="commitment",
            agent=agent,
            addressee=Addressee("Rui", citizen.cpf),
            fact="Reincidência em maus-tratos",
            place="Rua A",
            occurred_at=datetime(2026, 11, 2, tzinfo=UTC),
            legal_provision="VV 23 V",
            agent_title="Agente",
        )
        day = doc.issued_at.date()
        services.record_service(
            profile, doc, method="signed", service_on=day, note=None, actor=agent, today=day
        )
        row = db.session.query(PersonConsequence).one()
        assert row.kind == "commitment_never_keep" and row.article == "VV 23 V"
        from portal.blueprints.adoption.eligibility import active_bars

        assert [b.kind for b in active_bars(citizen.cpf)] == ["commitment_never_keep"]


def test_vv_23_iii_b_definitive_apprehension_is_loss_of_possession(make_app):
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        profile = app.extensions["portal_profile"]
        agent = factories.user(roles=("agent",))
        citizen = factories.user()
        doc = services.issue_apprehension_notice(
            profile,
            agent=agent,
            addressee=Addressee("Rui", citizen.cpf),
            fact="Reincidência",
            place="Rua A",
            occurred_at=datetime(2026, 11, 2, tzinfo=UTC),
            legal_provision="VV 23 III b",
            agent_title="Agente",
            definitive=True,
        )
        assert db.session.query(PersonConsequence).count() == 0  # only at the final decision
        day = doc.issued_at.date()
        services.record_service(
            profile, doc, method="signed", service_on=day, note=None, actor=agent, today=day
        )
        services.close_lapsed(profile, day + timedelta(days=60))
        row = db.session.query(PersonConsequence).one()
        assert (row.kind, row.article) == ("lost_possession_maltreatment", "VV 23 III b")


def _served_infraction(app):
    profile = app.extensions["portal_profile"]
    agent = factories.user(roles=("agent",))
    citizen = factories.user(full_name="Rui Autuado")
    doc = services.issue_document(
        profile,
        kind="infraction",
        agent=agent,
        addressee=Addressee("Rui", citizen.cpf),
        fact="Sem abrigo",
        place="Rua A",
        occurred_at=datetime(2026, 11, 2, tzinfo=UTC),
        legal_provision="GRU 37",
        agent_title="Agente",
    )
    day = doc.issued_at.date()
    services.record_service(
        profile, doc, method="signed", service_on=day, note=None, actor=agent, today=day
    )
    db.session.commit()
    return profile, doc, citizen


def test_reminder_three_days_before_the_defence_deadline_is_a_legal_notice(app):
    from portal.reminders import registry, run_reminders

    _profile, doc, citizen = _served_infraction(app)
    reminder = registry().reminders["fiscalizacao-prazo-3-dias"]
    assert reminder.courtesy is False
    run_reminders(doc.petition_due_on - timedelta(days=3), only=["fiscalizacao-prazo-3-dias"])
    sent = db.session.query(OutboxMessage).filter(OutboxMessage.to == citizen.email).all()
    assert len(sent) == 1 and doc.number in sent[0].subject


def test_citizen_todo_lists_the_open_deadline(app):
    _profile, doc, citizen = _served_infraction(app)
    with app.test_request_context():
        items = [i for i in citizen_todo(citizen) if i.kind == "enforcement"]
    assert len(items) == 1 and doc.number in items[0].text


def test_workspace_queues_and_search(app, client, auth):
    _profile, doc, citizen = _served_infraction(app)
    services.file_petition(_profile, doc, citizen, text="Razões", today=local_today())
    db.session.commit()
    registry = app.extensions["workspace_queues"]
    assert {"fiscalizacao-peticoes", "fiscalizacao-prazos", "fiscalizacao-divida-ativa"} <= set(
        registry.queues
    )
    auth.login(roles=("coordinator",))
    page = client.get("/ccz/filas/fiscalizacao-peticoes")
    assert page.status_code == 200 and doc.number in page.get_data(as_text=True)
    with app.test_request_context():
        hits = registry.searches["fiscalizacao"].search(doc.number)
    assert hits and doc.number in hits[0].label


def test_gru_100_daily_job_closes_lapsed_terms_and_late_defence_still_cites_107_2_i(app):
    profile, doc, citizen = _served_infraction(app)
    after = doc.petition_due_on + timedelta(days=1)
    assert services.close_lapsed(profile, after) == 1
    assert doc.status == "final"
    late = services.file_petition(profile, doc, citizen, text="Tarde", today=after)
    assert late.status == "refused" and "GRU 107 §2 I" in late.decision_article
    result = app.test_cli_runner().invoke(args=["enforcement-daily"])
    assert result.exit_code == 0 and "multas para cobrança" in result.output
