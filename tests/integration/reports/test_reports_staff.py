"""Staff: queues, triage, the state machine, inspection, merge, police letter, district map
(issue 12; DOMAIN §7; Lei 9.605/98 art. 32)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.reports import services as svc
from portal.extensions import db
from portal.models import AuditEvent, OutboxMessage, ReportState
from portal.models.base import utcnow
from tests import factories
from tests.factories import REPORTER, inspect_report, pdf_text, photo, submit


def _today():  # type: ignore[no-untyped-def]
    return svc.local_today()


def _assign(client, report, agent, day=None):  # type: ignore[no-untyped-def]
    return client.post(
        f"/ccz/denuncias/{report.protocol}/atribuir",
        data={"agent_id": agent.id, "inspection_on": (day or _today()).isoformat()},
    )


def _inspect(client, report, outcome="nothing_found", **extra):  # type: ignore[no-untyped-def]
    data = {
        "visited_on": _today().isoformat(),
        "outcome": outcome,
        "notes": "Sem água no pote.",
        "people_present": "O morador",
        "finding_water": "problem",
        "finding_shelter": "ok",
    }
    data.update(extra)
    return client.post(
        f"/ccz/denuncias/{report.protocol}/vistoria", data=data, content_type="multipart/form-data"
    )


def test_full_flow_triage_assign_inspect_close(client, auth, coordinator, agent) -> None:
    _r, report, _c = submit(client)
    auth.login(coordinator)
    assert report.protocol in client.get("/ccz/denuncias?fila=triage").get_data(as_text=True)
    assert _assign(client, report, agent).status_code == 302
    db.session.refresh(report)
    assert report.state == ReportState.ASSIGNED and report.assigned_agent_id == agent.id
    auth.logout()
    auth.login(agent)
    assert report.protocol in client.get("/ccz/denuncias?fila=mine").get_data(as_text=True)
    assert report.protocol in client.get("/ccz/denuncias?fila=today").get_data(as_text=True)
    form = client.get(f"/ccz/denuncias/{report.protocol}/vistoria").get_data(as_text=True)
    assert "Água limpa à disposição" in form  # the profile's checklist
    assert _inspect(client, report, photos=[photo()]).status_code == 302
    db.session.refresh(report)
    assert report.state == ReportState.CLOSED and report.outcome == "nothing_found"
    inspection = report.inspections[0]
    assert inspection.findings["water"] == "problem"
    assert inspection.findings["food"] == "not_checked"
    assert [p.stage for p in report.photos] == ["inspection"]
    moves = db.session.scalars(select(AuditEvent).where(AuditEvent.action == "report.state")).all()
    assert [((m.detail or {})["from"], (m.detail or {})["to"]) for m in moves] == [
        ("triage", "assigned"),
        ("assigned", "closed"),
    ]


@pytest.mark.parametrize("outcome", ["notice_needed", "capture_needed"])
def test_notice_or_capture_keeps_the_protocol_open_in_its_queue(
    client, auth, coordinator, agent, outcome
) -> None:
    _r, report, _c = submit(client)
    auth.login(coordinator)
    _assign(client, report, agent)
    auth.logout()
    auth.login(agent)
    _inspect(client, report, outcome=outcome)
    db.session.refresh(report)
    assert report.state == ReportState.INSPECTED and report.is_open
    auth.logout()
    auth.login(coordinator)
    waiting = client.get("/ccz/denuncias?fila=waiting").get_data(as_text=True)
    assert report.protocol in waiting
    response = client.post(
        f"/ccz/denuncias/{report.protocol}/encerrar",
        data={"text": "Notificação entregue ao responsável."},
    )
    assert response.status_code == 302
    db.session.refresh(report)
    assert report.state == ReportState.CLOSED


def test_state_machine_refuses_illegal_moves(app, coordinator, agent, other_agent) -> None:
    admin = factories.user(roles=("admin",))
    vet = factories.user(roles=("vet",))
    db.session.commit()
    report, _code = svc.create_report(
        svc.current_profile(),
        svc.ReportData(
            category="no_shelter", description="Cachorro sem água há dias.", street="Rua A"
        ),
        today=_today(),
    )
    # An agent does not triage; a vet moves nothing.
    for actor in (agent, vet):
        with pytest.raises(svc.IllegalMove):
            svc.triage_valid(report, actor, agent, _today(), _today())
        with pytest.raises(svc.IllegalMove):
            svc.move(report, ReportState.CLOSED, actor)
    # Triage cannot jump to inspected.
    with pytest.raises(svc.IllegalMove):
        svc.move(report, ReportState.INSPECTED, coordinator)
    svc.triage_valid(report, coordinator, agent, _today(), _today())
    # Only the assigned agent records the inspection; admin does not inspect.
    for actor in (other_agent, admin):
        with pytest.raises(svc.IllegalMove):
            inspect_report(report, actor)
    inspect_report(report, agent)
    assert report.state == ReportState.CLOSED
    # Closed is an end here: no re-assignment, no merge, no police.
    for to_state in (
        ReportState.ASSIGNED,
        ReportState.MERGED,
        ReportState.FORWARDED,
        ReportState.TRIAGE,
    ):
        with pytest.raises(svc.IllegalMove):
            svc.move(report, to_state, coordinator)
    db.session.rollback()


def test_illegal_move_over_http_is_refused_and_changes_nothing(client, auth, agent) -> None:
    _r, report, _c = submit(client)
    auth.login(agent)
    response = client.post(
        f"/ccz/denuncias/{report.protocol}/atribuir",
        data={"agent_id": agent.id, "inspection_on": _today().isoformat()},
    )
    assert response.status_code == 403  # the route is for coordinators
    response = _inspect(client, report)
    assert response.status_code == 302
    db.session.refresh(report)
    assert report.state == ReportState.TRIAGE and report.inspections == []


def test_out_of_scope_answers_the_reporter_with_the_reason(app, client, auth, coordinator) -> None:
    reporter = app.test_client()
    _r, report, code = submit(reporter, identity="confidential", **REPORTER)
    auth.login(coordinator)
    response = client.post(
        f"/ccz/denuncias/{report.protocol}/fora-de-escopo",
        data={"reason": "Animal silvestre: procure a Polícia Ambiental."},
    )
    assert response.status_code == 302
    db.session.refresh(report)
    assert report.state == ReportState.CLOSED
    page = reporter.get(f"/denuncias/acompanhar/{report.protocol}").get_data(as_text=True)
    assert "Encerrada" in page and "Polícia Ambiental" in page
    mails = db.session.scalars(
        select(OutboxMessage).where(OutboxMessage.to == REPORTER["email"])
    ).all()
    assert len(mails) == 2 and "Polícia Ambiental" in mails[-1].body


def test_out_of_scope_needs_a_reason(client, auth, coordinator) -> None:
    _r, report, _c = submit(client)
    auth.login(coordinator)
    response = client.post(
        f"/ccz/denuncias/{report.protocol}/fora-de-escopo", data={"reason": "não"}
    )
    assert response.status_code == 302
    db.session.refresh(report)
    assert report.state == ReportState.TRIAGE


def test_staff_merge_moves_photos_and_history(client, auth, coordinator) -> None:
    _r, main, _c = submit(client)
    _r, dup, dup_code = submit(client, street="Rua Outra", number="5", photos=[photo()])
    auth.login(coordinator)
    response = client.post(
        f"/ccz/denuncias/{dup.protocol}/juntar", data={"target": main.protocol.lower()}
    )
    assert response.status_code == 302
    db.session.refresh(dup)
    db.session.refresh(main)
    assert dup.state == ReportState.MERGED and dup.merged_into_id == main.id
    assert len(main.photos) == 1
    # Merging into itself or into a closed report is refused.
    response = client.post(f"/ccz/denuncias/{main.protocol}/juntar", data={"target": main.protocol})
    db.session.refresh(main)
    assert main.state == ReportState.TRIAGE


def test_lei_9605_art_32_police_letter(client, auth, coordinator) -> None:
    _r, report, _c = submit(client, category="fights", description="Rinha de cães todo sábado.")
    auth.login(coordinator)
    response = client.post(f"/ccz/denuncias/{report.protocol}/policia", data={"note": ""})
    assert response.status_code == 302
    db.session.refresh(report)
    assert report.state == ReportState.FORWARDED
    pdf = client.get(f"/ccz/denuncias/{report.protocol}/oficio-policia.pdf")
    assert pdf.status_code == 200 and pdf.mimetype == "application/pdf"
    text = pdf_text(pdf.data)
    assert "9.605/98, art. 32" in text and report.protocol in text and "GRU 10 V h" in text
    printed = db.session.scalar(
        select(AuditEvent).where(AuditEvent.action == "report.police_letter")
    )
    assert printed is not None and printed.detail == {"protocol": report.protocol}


def test_gru_profile_deadlines_make_reports_overdue(client, auth, coordinator, agent) -> None:
    profile = svc.current_profile()
    _r, late, _c = submit(client)
    _r, fresh, _c = submit(client, category="poisoning")
    late.created_at = utcnow() - timedelta(days=profile.reports.triage_days + 1)
    db.session.commit()
    auth.login(coordinator)
    html = client.get("/ccz/denuncias?fila=overdue").get_data(as_text=True)
    assert late.protocol in html and fresh.protocol not in html
    # An assigned inspection whose date passed is overdue too.
    svc.triage_valid(fresh, coordinator, agent, _today(), _today())
    fresh.inspection_on = _today() - timedelta(days=1)
    db.session.commit()
    assert fresh.protocol in client.get("/ccz/denuncias?fila=overdue").get_data(as_text=True)


def test_filters_by_category_district_state_and_period(client, auth, coordinator) -> None:
    _r, a, _c = submit(client, district="Centro")
    _r, b, _c = submit(client, category="poisoning", district="Bonsucesso", street="Rua B")
    auth.login(coordinator)
    html = client.get("/ccz/denuncias?fila=all&category=poisoning").get_data(as_text=True)
    assert b.protocol in html and a.protocol not in html
    html = client.get("/ccz/denuncias?fila=all&district=centro").get_data(as_text=True)
    assert a.protocol in html and b.protocol not in html
    html = client.get("/ccz/denuncias?fila=all&state=closed").get_data(as_text=True)
    assert a.protocol not in html
    future = (_today() + timedelta(days=2)).isoformat()
    html = client.get(f"/ccz/denuncias?fila=all&since={future}").get_data(as_text=True)
    assert a.protocol not in html and b.protocol not in html
    html = client.get(f"/ccz/denuncias?fila=all&until={_today().isoformat()}").get_data(
        as_text=True
    )
    assert a.protocol in html and b.protocol in html


def test_district_map_counts_reports(client, auth, coordinator) -> None:
    submit(client, district="Centro")
    submit(client, category="poisoning", district="Centro", street="Rua B")
    submit(client, category="fights", district="Pimentas", street="Rua C")
    auth.login(coordinator)
    html = client.get("/ccz/denuncias/mapa").get_data(as_text=True)
    assert "<td>Centro</td><td>2</td>" in html and "<td>Pimentas</td><td>1</td>" in html
    assert "leaflet" not in html  # no MAP_TILE_URL: no map, the table still works


def test_map_uses_own_leaflet_and_the_configured_tiles(make_app) -> None:
    app = make_app(MAP_TILE_URL="https://tiles.ccz.example/{z}/{x}/{y}.png")
    with app.app_context():
        response = app.test_client().get("/denuncias/nova")
        html = response.get_data(as_text=True)
        assert "/static/vendor/leaflet/leaflet.js" in html and "unpkg" not in html
        assert 'data-tiles="https://tiles.ccz.example/{z}/{x}/{y}.png"' in html
        assert (
            "img-src 'self' data: https://tiles.ccz.example"
            in response.headers["Content-Security-Policy"]
        )


def test_public_reply_reaches_the_reporter_internal_note_does_not(
    app, client, auth, coordinator
) -> None:
    reporter = app.test_client()
    _r, report, _c = submit(reporter)
    auth.login(coordinator)
    client.post(
        f"/ccz/denuncias/{report.protocol}/mensagem",
        data={"text": "Recebemos fotos novas, obrigado.", "public": "y"},
    )
    client.post(
        f"/ccz/denuncias/{report.protocol}/mensagem", data={"text": "Vizinho briguento, cuidado."}
    )
    page = reporter.get(f"/denuncias/acompanhar/{report.protocol}").get_data(as_text=True)
    assert "Recebemos fotos novas" in page and "briguento" not in page


def test_staff_tile_and_pages_need_a_staff_role(client, auth) -> None:
    assert client.get("/ccz/denuncias").status_code == 302
    auth.login(roles=("citizen",))
    assert client.get("/ccz/denuncias").status_code == 403
    auth.logout()
    auth.login(roles=("agent",))
    assert client.get("/ccz/denuncias").status_code == 200
    assert "/ccz/denuncias" in client.get("/admin/").get_data(as_text=True)


def _ana_and_bia_merged(app, client, auth, coordinator):  # type: ignore[no-untyped-def]
    """Ana's and Bia's confidential reports of one place; the coordinator (signed in here) merges
    Bia's into Ana's."""
    _r, main, _c = submit(
        app.test_client(), identity="confidential", name="Ana", email="ana@example.com"
    )
    _r, joined, _c = submit(
        app.test_client(), identity="confidential", name="Bia", email="bia@example.com"
    )
    auth.login(coordinator)
    client.post(f"/ccz/denuncias/{joined.protocol}/juntar", data={"target": main.protocol})
    return main, joined


def test_reporters_of_joined_reports_hear_of_the_main_ones_progress(
    app, client, auth, coordinator, agent
) -> None:
    main, joined = _ana_and_bia_merged(app, client, auth, coordinator)
    db.session.refresh(joined)
    assert joined.merged_into_id == main.id  # the staff's decision
    _assign(client, main, agent)
    for address, protocol in (
        ("ana@example.com", main.protocol),
        ("bia@example.com", joined.protocol),
    ):
        last = db.session.scalars(
            select(OutboxMessage)
            .where(OutboxMessage.to == address)
            .order_by(OutboxMessage.id.desc())
        ).first()
        assert last is not None
        assert protocol in last.subject and "Vistoria programada" in last.body
        assert agent.full_name not in last.body


def test_a_public_reply_reaches_only_its_own_reporter(app, client, auth, coordinator) -> None:
    """Issue 26: Bia's report was merged into Ana's; the CCZ's reply to Ana never reaches Bia."""
    main, joined = _ana_and_bia_merged(app, client, auth, coordinator)
    client.post(
        f"/ccz/denuncias/{main.protocol}/mensagem",
        data={"text": "Obrigado, Sra. Ana. A vistoria será amanhã.", "public": "y"},
    )
    to_bia = db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == "bia@example.com"))
    for message in to_bia:
        assert "Sra. Ana" not in message.body and main.protocol not in message.body
    to_ana = db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == "ana@example.com"))
    assert any("Sra. Ana" in m.body for m in to_ana)


def test_staff_page_lists_possible_duplicates_with_a_merge_button(
    client, auth, coordinator
) -> None:
    _r, first, _c = submit(client)
    _r, second, _c = submit(client, street="R. das Flores", number="nº 10")
    assert second.state == ReportState.TRIAGE and second.merged_into_id is None
    auth.login(coordinator)
    html = client.get(f"/ccz/denuncias/{second.protocol}").get_data(as_text=True)
    assert 'id="possiveis-duplicadas"' in html and first.protocol in html
    assert f"Juntar esta denúncia à {first.protocol}" in html
    response = client.post(
        f"/ccz/denuncias/{second.protocol}/juntar", data={"target": first.protocol}
    )
    assert response.status_code == 302
    db.session.refresh(second)
    assert second.state == ReportState.MERGED and second.merged_into_id == first.id
    # Once merged, nothing more to offer on either page.
    assert 'id="possiveis-duplicadas"' not in client.get(
        f"/ccz/denuncias/{first.protocol}"
    ).get_data(as_text=True)


def test_staff_page_of_a_report_alone_offers_no_duplicate(client, auth, coordinator) -> None:
    _r, report, _c = submit(client)
    auth.login(coordinator)
    html = client.get(f"/ccz/denuncias/{report.protocol}").get_data(as_text=True)
    assert 'id="possiveis-duplicadas"' not in html
