"""Impound over HTTP (issue 14): the agent's capture form with a photo, the owner's e-mail and
online reclaim, payment, release; nobody comes → adoption draft; the public pages without the
exact address; the certidão from request to exam to public check (page and API); the holidays
staff add, edit, delete and mark as yearly."""

from __future__ import annotations

from datetime import date, timedelta

from sqlalchemy import select

from portal.blueprints.billing.services import mark_paid_at_counter
from portal.blueprints.impound import services
from portal.extensions import db
from portal.models import (
    AuditEvent,
    Capture,
    CaptureCertificate,
    CaptureStatus,
    Listing,
    MunicipalHoliday,
    OutboxMessage,
    ReclaimRecord,
)
from portal.services.clock import local_today
from tests import factories


def _capture_form(day: date, **fields) -> dict:  # type: ignore[no-untyped-def]
    form = {
        "species": "dog",
        "size": "small",
        "sex": "male",
        "color": "Caramelo",
        "place": "Rua das Acácias, 123",
        "district": "Jardim Paraíso",
        "captured_on": day.isoformat(),
        "captured_time": "09:30",
        "reason": "loose",
        "condition": "good",
        "custody_type": "ordinary",
    }
    form.update(fields)
    return form


def test_gru_82_capture_with_photo_emails_owner_who_reclaims_online_pays_and_is_released(
    client, auth, app
):
    owner = factories.user()
    pet = factories.rabies_vaccinated(
        factories.animal(owner),
        local_today() - timedelta(days=30),
        local_today() + timedelta(days=300),
    )
    db.session.commit()
    agent = auth.login(roles=("agent",))
    form = _capture_form(
        local_today(), tag_read=pet.rga, photos=[(factories.png_bytes(), "cao.png")]
    )
    response = client.post("/ccz/recolhimentos/novo", data=form, content_type="multipart/form-data")
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    capture = db.session.scalar(select(Capture))
    assert capture.animal_id == pet.id and len(capture.photos) == 1 and capture.tagged
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == owner.email))
    assert capture.protocol in mail.body and capture.deadline_on.strftime("%d/%m/%Y") in mail.body
    custody = client.get("/ccz/recolhimentos").get_data(as_text=True)
    assert capture.protocol in custody and "Aguardar o proprietário" in custody

    auth.logout()
    auth.login(owner)
    page = client.get(f"/meus-recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert ">Resgatar</button>" in page and "Rua das Acácias" not in page
    response = client.post(f"/meus-recolhimentos/{capture.protocol}/resgatar")
    reclaim = db.session.scalar(select(ReclaimRecord))
    assert response.status_code == 302
    assert response.location.endswith(f"/{reclaim.payment_item_id}")  # billing's item page
    assert reclaim.channel == "online" and reclaim.payment_item.amount_cents > 0
    mark_paid_at_counter(
        reclaim.payment_item, receipt_number="BANCO-1", paid_on=local_today(), actor=agent
    )
    db.session.commit()

    auth.logout()
    auth.login(agent)
    base = f"/ccz/recolhimentos/{capture.protocol}"
    client.post(f"{base}/vacina", data={"rabies": "proof"})
    refused = client.post(
        f"{base}/devolucao",
        data={"signed_by_name": owner.full_name, "term_read": "y"},
        follow_redirects=True,
    )
    assert "não persistem as causas" in refused.get_data(as_text=True)  # GRU 82 §1
    client.post(f"{base}/causa-cessada")
    client.post(f"{base}/devolucao", data={"signed_by_name": owner.full_name, "term_read": "y"})
    db.session.refresh(capture)
    assert capture.status == CaptureStatus.RELEASED
    assert capture.release.capture_count_stated == 1
    actions = set(db.session.scalars(select(AuditEvent.action)))
    assert {"impound.captured", "impound.reclaim_started", "impound.released"} <= actions


def test_gru_88_nobody_comes_adoption_listing_draft(client, auth):
    auth.login(roles=("agent",))
    day = local_today() - timedelta(days=20)
    client.post(
        "/ccz/recolhimentos/novo",
        data=_capture_form(day, photos=[(factories.png_bytes(), "cao.png")]),
        content_type="multipart/form-data",
    )
    capture = db.session.scalar(select(Capture))
    queue = client.get("/ccz/filas/recolhimento-prazo-vencido").get_data(as_text=True)
    assert capture.protocol in queue
    page = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert 'value="adoption"' in page and 'value="euthanasia"' not in page
    client.post(
        f"/ccz/recolhimentos/{capture.protocol}/destinacao",
        data={
            "destination": "adoption",
            "reason": "Prazo vencido sem resgate",
            "listing_name": "Caramelo",
        },
    )
    db.session.refresh(capture)
    assert capture.status == CaptureStatus.DESTINED
    listing = db.session.scalar(select(Listing))
    assert listing.state == "draft" and len(listing.photos) == 1


def test_lei_14228_agent_form_never_lists_euthanasia_for_a_healthy_dog(client, auth):
    auth.login(roles=("agent",))
    client.post("/ccz/recolhimentos/novo", data=_capture_form(local_today() - timedelta(days=20)))
    capture = db.session.scalar(select(Capture))
    page = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert 'value="euthanasia"' not in page
    client.post(
        f"/ccz/recolhimentos/{capture.protocol}/destinacao",
        data={"destination": "euthanasia", "reason": "Não resgatado"},
    )
    db.session.refresh(capture)
    assert capture.status == CaptureStatus.IN_CUSTODY


def test_capture_form_keeps_what_was_typed_on_error(client, auth):
    auth.login(roles=("agent",))
    html = client.post(
        "/ccz/recolhimentos/novo",
        data=_capture_form(local_today(), tag_read="ABC", color="Tigrado"),
    ).get_data(as_text=True)
    assert "Número de RGA inválido" in html and 'value="Tigrado"' in html


def test_public_list_shows_district_never_the_address(client, auth):
    auth.login(roles=("agent",))
    client.post("/ccz/recolhimentos/novo", data=_capture_form(local_today()))
    capture = db.session.scalar(select(Capture))
    auth.logout()
    html = client.get("/animais-recolhidos?especie=dog").get_data(as_text=True)
    assert "Jardim Paraíso" in html and "Rua das Acácias" not in html
    assert "O dia da captura não conta" in html
    detail = client.get(f"/animais-recolhidos/{capture.protocol}").get_data(as_text=True)
    assert "Jardim Paraíso" in detail and "Rua das Acácias" not in detail
    assert client.get("/animais-recolhidos/CAP-2000-000001").status_code == 404


def test_staff_pages_need_staff(client, auth):
    auth.login(roles=("citizen",))
    assert client.get("/ccz/recolhimentos").status_code in (403, 404)
    assert client.get("/ccz/recolhimentos/novo").status_code in (403, 404)


def test_lost_animal_page_registers_an_alert(client, auth):
    auth.login()
    response = client.post(
        "/perdi-meu-animal",
        data={
            "species": "cat",
            "color": "Preto",
            "district": "Centro",
            "lost_on": local_today().isoformat(),
        },
    )
    assert response.status_code == 302
    html = client.post("/perdi-meu-animal", data={"lost_on": local_today().isoformat()}).get_data(
        as_text=True
    )
    assert "Escolha a espécie" in html


def test_gru_84_3_certidao_request_exam_and_public_check(client, auth):
    owner = factories.user()
    pet = factories.animal(owner)
    db.session.commit()
    auth.login()
    from portal.services.dates import business_days_calendar

    exam = business_days_calendar("SP").next_business_day(local_today())
    response = client.post("/certidoes/pedir", data={"rga": pet.rga, "exam_on": exam.isoformat()})
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    cert = db.session.scalar(select(CaptureCertificate))
    assert client.get(f"/certidoes/{cert.code}").status_code == 404  # not issued yet
    auth.logout()
    auth.login(roles=("agent",))
    assert pet.rga in client.get("/ccz/certidoes").get_data(as_text=True)
    client.post(f"/ccz/certidoes/{cert.id}/exame", data={"confirmed": "yes"})
    auth.logout()
    html = client.get(f"/certidoes/{cert.code}").get_data(as_text=True)
    assert pet.rga in html and "Nenhuma captura" in html and owner.full_name not in html
    pdf = client.get(f"/certidoes/{cert.code}/certidao.pdf")
    assert pdf.mimetype == "application/pdf"
    text = factories.pdf_text(pdf.data)
    assert pet.rga in text and owner.full_name not in text
    data = client.get(f"/api/v1/certificates/{cert.code}").get_json()
    assert data["rga"] == pet.rga and data["captures_in_period"] == 0
    assert "owner" not in str(data) and owner.email not in str(data)
    missing = client.get("/api/v1/certificates/CNC-NAOEXISTE")
    assert missing.status_code == 404 and missing.get_json()["errors"][0]["code"] == "not_found"


def test_certidao_absent_where_the_law_has_no_gru_84(make_app):
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        client = app.test_client()
        assert client.get("/certidoes/CNC-ABC").status_code == 404
        assert client.get("/api/v1/certificates/CNC-ABC").status_code == 404


def test_admin_edits_deletes_and_marks_a_holiday_yearly(client, auth):
    auth.login(roles=("admin",))
    client.post(
        "/admin/feriados", data={"day": "2025-12-08", "name": "Conceição", "repeats_yearly": "y"}
    )
    holiday = db.session.scalar(select(MunicipalHoliday))
    assert holiday.repeats_yearly
    from portal.services.municipal_holidays import municipal_holidays

    assert date(2026, 12, 8) in municipal_holidays([date(2026, 12, 1)])
    client.post(
        f"/admin/feriados/{holiday.id}/editar",
        data={"day": "2025-12-09", "name": "Conceição (corrigido)"},
    )
    db.session.refresh(holiday)
    assert holiday.day == date(2025, 12, 9) and not holiday.repeats_yearly
    client.post(f"/admin/feriados/{holiday.id}/excluir")
    assert db.session.scalar(select(MunicipalHoliday)) is None
    actions = set(db.session.scalars(select(AuditEvent.action)))
    assert {"holiday.created", "holiday.updated", "holiday.deleted"} <= actions


def test_services_hold_deadline_reads_yearly_holidays_through_the_one_function(app):
    db.session.add(MunicipalHoliday(day=date(2019, 4, 7), name="Teste", repeats_yearly=True))
    db.session.flush()
    profile = app.extensions["portal_profile"]
    assert services.hold_deadline(
        profile, size="small", captured_on=date(2026, 4, 2), tagged=True, custody_type="ordinary"
    ) == date(2026, 4, 9)


def test_gru_87_staff_open_definitive_apprehension_final_decision_only_by_the_procedure(
    client, auth
):
    auth.login(roles=("agent",))
    client.post("/ccz/recolhimentos/novo", data=_capture_form(local_today()))
    capture = db.session.scalar(select(Capture))
    base = f"/ccz/recolhimentos/{capture.protocol}"
    client.post(
        f"{base}/apreensao-definitiva",
        data={"definitive_article": "GRU 87 I", "definitive_reason": "Mordedor vicioso"},
    )
    db.session.refresh(capture)
    assert capture.status == CaptureStatus.DEFINITIVE_PENDING
    assert client.post(
        f"{base}/apreensao-definitiva/decisao", data={"upheld": "no"}
    ).status_code in (403, 404)  # coordinator only
    auth.logout()
    auth.login(roles=("coordinator",))
    client.post(f"{base}/apreensao-definitiva/decisao", data={"upheld": "no"})
    db.session.refresh(capture)
    # GRU 87 §ú: the unknown owner's auto de apreensão (served by edital, GRU 95 §ú) decides it;
    # there is no decision by hand around the procedure
    assert capture.status == CaptureStatus.DEFINITIVE_PENDING
    assert capture.definitive_article == "GRU 87 I"


def test_bjp_25_3_ii_community_return_form_lists_the_conditions_and_keeps_them(make_app):
    # BJP 25 §3 II: back to the community "registrado, esterilizados cirurgicamente, vacinados e
    # iniciado o programa de desverminação", with an identified carer.
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        from tests.conftest import AuthActions

        client = app.test_client()
        AuthActions(client).login(roles=("agent",))
        client.post(
            "/ccz/recolhimentos/novo", data=_capture_form(local_today() - timedelta(days=20))
        )
        capture = db.session.scalar(select(Capture))
        page = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
        assert 'value="community_return"' in page and "BJP 25 §3 I-II" in page
        for value in ("registered", "sterilised", "vaccinated", "dewormed"):
            assert f'value="{value}"' in page
        assert 'value="carer_term"' not in page  # VV 19 §1 only
        form = {
            "destination": "community_return",
            "reason": "Animal comunitário da praça",
            "carer_name": "Dona Maria",
            "community_conditions": ["registered", "sterilised", "vaccinated"],
        }
        response = client.post(f"/ccz/recolhimentos/{capture.protocol}/destinacao", data=form)
        answer = response.get_data(as_text=True)
        db.session.refresh(capture)
        assert response.status_code == 422 and capture.status == CaptureStatus.IN_CUSTODY
        # The refusal names what is missing and keeps what was typed and ticked.
        # BJP 25 §3: priority I (adoption, NGO) must have failed too (issue 27 #6)
        assert "confirme: Desverminação iniciada (primeira dose); Sem adotante" in answer
        assert "(BJP 25 §3 I-II)" in answer
        assert 'value="Dona Maria"' in answer and "Animal comunitário da praça" in answer
        assert '<input checked id="community_conditions-0"' in answer  # registered: ticked
        assert '<input id="community_conditions-3" name="community_conditions"' in answer
        form["community_conditions"] = [
            *form["community_conditions"],
            "dewormed",
            "earlier_priorities_failed",
        ]
        client.post(f"/ccz/recolhimentos/{capture.protocol}/destinacao", data=form)
        db.session.refresh(capture)
        assert capture.status == CaptureStatus.DESTINED
        decision = capture.destinations[0]
        assert decision.community_conditions == [
            "registered",
            "sterilised",
            "vaccinated",
            "dewormed",
            "earlier_priorities_failed",
        ]
        page = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
        assert "Cuidador responsável na comunidade: Dona Maria" in page
