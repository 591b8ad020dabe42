"""Tracking by protocol and private code: refusal without telling whether the protocol exists,
history, information and photos added by the reporter (issue 12)."""

from __future__ import annotations

from datetime import timedelta

from sqlalchemy import select

from portal.blueprints.reports import services as svc
from portal.extensions import db
from portal.models import MaltreatmentReport, OutboxMessage, ReportEvent
from portal.models.base import utcnow
from tests.factories import inspect_report, photo, submit


def _track(client, protocol: str, code: str):  # type: ignore[no-untyped-def]
    return client.post("/denuncias/acompanhar", data={"protocol": protocol, "code": code})


def test_wrong_code_and_unknown_protocol_get_the_same_answer(app) -> None:
    reporter = app.test_client()
    _r, report, _code = submit(reporter)
    stranger = app.test_client()
    wrong = _track(stranger, report.protocol, "AAAA-BBBB-CCCC")
    unknown = _track(stranger, "DEN-2026-999999", "AAAA-BBBB-CCCC")
    assert wrong.status_code == unknown.status_code == 400

    def strip(r):  # type: ignore[no-untyped-def]
        return (
            r.get_data(as_text=True).replace(report.protocol, "X").replace("DEN-2026-999999", "X")
        )

    assert strip(wrong) == strip(unknown)
    assert "Protocolo ou código não conferem" in wrong.get_data(as_text=True)
    # Without the proof, the status page sends the stranger to the form.
    page = stranger.get(f"/denuncias/acompanhar/{report.protocol}")
    assert page.status_code == 302 and page.headers["Location"].endswith("/denuncias/acompanhar")


def test_right_code_shows_the_status_in_any_case_and_spacing(app) -> None:
    _r, report, code = submit(app.test_client())
    other_browser = app.test_client()
    response = _track(other_browser, report.protocol.lower(), code.lower().replace("-", " "))
    assert response.status_code == 302
    page = other_browser.get(response.headers["Location"]).get_data(as_text=True)
    assert "Recebida, aguardando análise" in page and report.protocol in page


def test_the_code_is_shown_once(client) -> None:
    response = client.post(
        "/denuncias/nova",
        data={
            "category": "no_shelter",
            "description": "Gato abandonado na praça há uma semana.",
            "street": "Praça Central",
            "identity": "anonymous",
        },
    )
    receipt_url = response.headers["Location"]
    first = client.get(receipt_url).get_data(as_text=True)
    assert 'id="codigo"' in first
    again = client.get(receipt_url)
    assert again.status_code == 302  # the code is gone for good


def test_reporter_adds_information_and_photos(client) -> None:
    _r, report, _code = submit(client)
    response = client.post(
        f"/denuncias/acompanhar/{report.protocol}",
        data={"text": "Hoje o cachorro parecia mais fraco.", "photos": [photo()]},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    db.session.refresh(report)
    assert len(report.photos) == 1
    event = db.session.scalars(select(ReportEvent).where(ReportEvent.kind == "reporter_info")).one()
    assert "mais fraco" in event.text and event.actor_id is None
    page = client.get(f"/denuncias/acompanhar/{report.protocol}").get_data(as_text=True)
    assert "mais fraco" in page


def test_adding_nothing_is_refused_with_a_message(client) -> None:
    _r, report, _code = submit(client)
    response = client.post(f"/denuncias/acompanhar/{report.protocol}", data={"text": ""})
    assert response.status_code == 400 and "Escreva algo" in response.get_data(as_text=True)


def test_tracking_page_is_rate_limited(client) -> None:
    statuses = [_track(client, "DEN-2026-000001", "AAAA-BBBB-CCCC").status_code for _ in range(11)]
    assert statuses[-1] == 429 and statuses[0] == 400
    assert db.session.scalars(select(MaltreatmentReport)).all() == []


# -- issue 25: the reporter reads the next step, who takes it and by when -----------------------


def _page(client, report) -> str:  # type: ignore[no-untyped-def]
    response = client.get(f"/denuncias/acompanhar/{report.protocol}")
    assert response.status_code == 200
    return response.get_data(as_text=True)


def _day(value) -> str:  # type: ignore[no-untyped-def]
    return value.strftime("%d/%m/%Y")


def test_in_triage_the_page_names_the_coordination_and_the_triage_deadline(client) -> None:
    _r, report, _code = submit(client)
    profile = svc.current_profile()
    html = _page(client, report)
    assert "Próximo passo" in html and "Coordenação do CCZ" in html
    by = svc.local_today() + timedelta(days=profile.reports.triage_days)
    assert f'id="proximo-passo-prazo">até {_day(by)}<' in html
    # The law is silent on the deadline: the page says it is the CCZ's own.
    assert "a lei não fixa um prazo" in html
    assert 'id="proximo-passo-atraso"' not in html


def test_once_assigned_the_page_names_the_agent_and_the_inspection_deadline_not_the_day(
    client, coordinator, agent
) -> None:
    _r, report, _code = submit(client)
    today = svc.local_today()
    visit = today + timedelta(days=4)
    svc.triage_valid(report, coordinator, agent, visit, today)
    db.session.commit()
    html = _page(client, report)
    by = today + timedelta(days=svc.current_profile().reports.inspection_days)
    assert "Agente do CCZ" in html and f"até {_day(by)}" in html
    # The reported person must not learn the day of the visit from a report they filed.
    assert _day(visit) not in html and agent.full_name not in html


def test_history_does_not_repeat_the_state_label(client, coordinator, agent) -> None:
    _r, report, _code = submit(client)
    today = svc.local_today()
    svc.triage_valid(report, coordinator, agent, today, today)
    db.session.commit()
    html = _page(client, report)
    assert "Vistoria programada: Vistoria programada" not in html
    assert html.count("Vistoria programada") == 2  # the state line and the history line


def test_a_late_step_says_so(client) -> None:
    _r, report, _code = submit(client)
    report.created_at = utcnow() - timedelta(days=svc.current_profile().reports.triage_days + 2)
    db.session.commit()
    assert 'id="proximo-passo-atraso"' in _page(client, report)


def test_after_the_inspection_and_at_the_end_the_page_says_what_follows(
    client, coordinator, agent
) -> None:
    _r, report, _code = submit(client)
    today = svc.local_today()
    svc.triage_valid(report, coordinator, agent, today, today)
    inspect_report(report, agent, "notice_needed")
    db.session.commit()
    html = _page(client, report)
    assert "providências previstas em lei" in html and 'id="proximo-passo-prazo"' not in html
    svc.close_after_handover(report, coordinator, "O responsável foi notificado.")
    db.session.commit()
    assert "não há próximo passo" in _page(client, report)


def test_forwarded_to_the_police_names_the_police(client, coordinator) -> None:
    _r, report, _code = submit(client)
    svc.forward_to_police(report, coordinator)
    db.session.commit()
    html = _page(client, report)
    assert 'id="proximo-passo-quem">Polícia<' in html


def test_the_status_email_names_the_next_step_and_its_deadline(client, coordinator, agent) -> None:
    _r, report, _code = submit(
        client, identity="confidential", name="Ana", email="ana.passo@example.com"
    )
    today = svc.local_today()
    svc.triage_valid(report, coordinator, agent, today + timedelta(days=2), today)
    db.session.commit()
    mail = db.session.scalars(
        select(OutboxMessage)
        .where(OutboxMessage.to == "ana.passo@example.com")
        .order_by(OutboxMessage.id.desc())
    ).first()
    by = today + timedelta(days=svc.current_profile().reports.inspection_days)
    assert mail is not None and "Próximo passo" in mail.body
    assert f"Agente do CCZ, até {_day(by)}" in mail.body
    assert _day(today + timedelta(days=2)) not in mail.body
