"""Euthanasia laudos after they are recorded (issue 14, the last items): the staff queue of open
NGO claim windows, the owner's e-mail, the vet's withdrawal, VV 21 §4's supervision by the
coordinating vet; and the maus-tratos report's history when its animal is collected."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.impound import euthanasia, services
from portal.blueprints.impound.laudo_review import supervise_proposal, withdraw_proposal
from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    AuditEvent,
    Capture,
    CaptureStatus,
    InspectionOutcome,
    MaltreatmentReport,
    OutboxMessage,
    ProposalStatus,
    ReportState,
)
from portal.profiles import available_profiles, load_profile
from portal.services.clock import local_today
from portal.workspace import page, registry
from tests import factories
from tests.conftest import AuthActions

GRU, VV = load_profile("guarulhos"), load_profile("vilavelha")
QUEUE = "recolhimento-laudos-prazo-entidades"
LAUDO = "Cinomose em fase neurológica, sem resposta ao tratamento."


def _capture(profile=GRU, day: date = date(2026, 3, 2), **fields) -> Capture:  # type: ignore[no-untyped-def]
    fields.setdefault("condition", "serious")
    data = services.CaptureData(
        species="dog",
        size="small",
        sex="male",
        color="Caramelo",
        place="Rua X, 10",
        district="Centro",
        captured_at=datetime(day.year, day.month, day.day, 13, tzinfo=UTC),
        captured_on=day,
        reason="loose",
        **fields,
    )
    return services.record_capture(profile, data, agent=factories.user(roles=("agent",)), today=day)


def _laudo(capture: Capture, *, profile=GRU, vet=None, day=None, infectious=False):  # type: ignore[no-untyped-def]
    vet = vet or factories.user(roles=("vet",))
    return euthanasia.propose_euthanasia(
        profile,
        capture,
        euthanasia.ProposalData(
            vet_report=LAUDO,
            vet_crmv="CRMV-SP 77",
            lab_exam="RT-PCR positivo para raiva" if infectious else None,
            infectious=infectious,
        ),
        vet=vet,
        today=day or local_today(),
    )


def _mail_to(address: str) -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == address)))


# -- 1. The staff queue of open claim windows ----------------------------------------------------


def test_lei_14228_art_2_par_2_queue_lists_open_claim_windows_with_their_end(app):
    open_one = _laudo(_capture())
    _laudo(_capture(), infectious=True)  # no window at all
    _laudo(_capture(), day=date(2026, 4, 2))  # window ended on 8 April
    queue = registry().get(QUEUE)
    assert queue is not None
    rows, _next = page(queue, {})
    assert rows == [open_one]
    assert queue.due is not None and queue.due(open_one) == open_one.claim_until
    assert open_one.claim_until is not None and open_one.claim_until >= local_today()


def test_lei_14228_art_2_par_2_queue_page_shows_the_window_end_to_staff(client, auth):
    proposal = _laudo(_capture())
    db.session.commit()
    auth.login(roles=("agent",))
    text = client.get(f"/ccz/filas/{QUEUE}").get_data(as_text=True)
    assert proposal.number in text
    assert proposal.claim_until is not None
    assert proposal.claim_until.strftime("%d/%m/%Y") in text
    assert f"/ccz/recolhimentos/{proposal.capture.protocol}" in text
    auth.logout()
    auth.login(roles=("citizen",))
    assert client.get(f"/ccz/filas/{QUEUE}").status_code in (403, 404)


def test_lei_14228_claim_window_queue_leaves_when_an_ngo_claims(app):
    member, org = factories.ngo_user()
    proposal = _laudo(_capture())
    euthanasia.claim_for_ngo(proposal, org, user=member, today=local_today())
    queue = registry().get(QUEUE)
    assert queue is not None and page(queue, {})[0] == []


# -- 2. The owner is told; a vet withdraws a laudo -----------------------------------------------


def test_lei_14228_art_2_owner_is_emailed_with_the_reason_article_and_options(app):
    owner = factories.user(email="dona@example.org")
    pet = factories.animal(owner)
    proposal = _laudo(_capture(tag_read=pet.rga))
    [mail] = [m for m in _mail_to("dona@example.org") if proposal.number in m.body]
    assert LAUDO in mail.body and "14.228/2021" in mail.body
    assert f"/meus-recolhimentos/{proposal.capture.protocol}" in mail.body  # reclaim it
    assert "laudo de outro médico veterinário" in mail.body


def test_lei_14228_art_2_owner_of_an_infectious_case_is_not_offered_the_reclaim(app):
    owner = factories.user(email="dono@example.org")
    pet = factories.animal(owner)
    proposal = _laudo(_capture(tag_read=pet.rga), infectious=True)
    [mail] = [m for m in _mail_to("dono@example.org") if proposal.number in m.body]
    assert "/meus-recolhimentos/" not in mail.body


def test_lei_14228_vet_withdraws_a_laudo_with_a_reason_and_those_told_get_a_notice(app):
    member, org = factories.ngo_user()
    org.email = "contato@patas.org"
    owner = factories.user(email="dona@example.org")
    proposal = _laudo(_capture(tag_read=factories.animal(owner).rga))
    late_member, _late_org = factories.ngo_user()  # approved after the laudo: was never told
    vet = factories.user(roles=("vet",))
    with pytest.raises(DomainError) as err:
        withdraw_proposal(proposal, vet=vet, reason="  ")
    assert err.value.code == "required"
    withdraw_proposal(proposal, vet=vet, reason="Respondeu ao tratamento.")
    assert proposal.status == ProposalStatus.WITHDRAWN and proposal.withdrawn_by_id == vet.id
    assert not euthanasia.claim_open(proposal, local_today())
    subject = f"Laudo nº {proposal.number} retirado"
    for address in ("contato@patas.org", member.email, "dona@example.org"):
        assert any(m.subject == subject for m in _mail_to(address)), address
    assert not any(m.subject == subject for m in _mail_to(late_member.email))
    event = db.session.scalar(
        select(AuditEvent).where(AuditEvent.action == "impound.laudo_withdrawn")
    )
    assert event is not None and event.actor_id == vet.id
    with pytest.raises(DomainError) as err:
        withdraw_proposal(proposal, vet=vet, reason="de novo")
    assert err.value.code == "not_open"


def test_lei_14228_vet_withdraws_the_laudo_from_the_capture_page(client, auth):
    capture = _capture()
    proposal = _laudo(capture)
    db.session.commit()
    url = f"/ccz/recolhimentos/{capture.protocol}/laudo/{proposal.number}/retirar"
    auth.login(roles=("agent",))
    assert client.post(url, data={"retirada-reason": "x"}).status_code == 403
    auth.logout()
    auth.login(roles=("vet",))
    text = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert "Retirar o laudo" in text and 'name="retirada-reason"' in text
    client.post(url, data={"retirada-reason": ""})
    db.session.refresh(proposal)
    assert proposal.status == ProposalStatus.OPEN  # no reason, nothing happens
    client.post(url, data={"retirada-reason": "Exame de controle normal."})
    db.session.refresh(proposal)
    assert proposal.status == ProposalStatus.WITHDRAWN
    text = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert "Retirado pelo médico veterinário: Exame de controle normal." in text


# -- 3. VV 21 §4: the coordinating vet's supervision ---------------------------------------------


def test_vv_21_4_only_the_vila_velha_profile_asks_for_the_supervision():
    asks = [k for k in available_profiles() if load_profile(k).impound.laudo_supervision]
    assert asks == ["vilavelha"]
    assert VV.impound.cite("laudo_supervision") == "VV 21 §4"


def test_vv_21_4_laudo_takes_effect_only_after_the_coordinating_vet_signs_it(app):
    member, org = factories.ngo_user()
    capture = _capture(VV)
    proposal = _laudo(capture, profile=VV, day=date(2026, 4, 2))
    assert proposal.status == ProposalStatus.PENDING and proposal.claim_until is None
    assert not [m for m in _mail_to(member.email) if proposal.number in m.subject]
    with pytest.raises(DomainError) as err:
        euthanasia.claim_for_ngo(proposal, org, user=member, today=date(2026, 4, 2))
    assert err.value.code == "claim_closed"
    euthanasia_now = services.DestinationData(destination="euthanasia", reason="Sofrimento")
    vet = factories.user(roles=("vet",))
    with pytest.raises(DomainError) as err:
        services.decide_destination(VV, capture, euthanasia_now, actor=vet, today=date(2026, 5, 4))
    assert err.value.code == "laudo_unsupervised"
    with pytest.raises(DomainError) as err:
        supervise_proposal(VV, proposal, supervisor=vet, today=date(2026, 4, 6))
    assert err.value.code == "not_coordinating_vet"
    coordinator = factories.user(roles=("vet", "coordinator"))
    supervise_proposal(VV, proposal, supervisor=coordinator, today=date(2026, 4, 6))
    assert proposal.status == ProposalStatus.OPEN and proposal.supervised_by_id == coordinator.id
    # The window runs from the sign-off: Monday 6 April 2026 + 3 business days.
    assert proposal.claim_until == date(2026, 4, 9)
    assert [m for m in _mail_to(member.email) if proposal.number in m.subject]


def test_vv_21_4_the_coordinating_vets_own_laudo_takes_effect_at_once(app):
    coordinator = factories.user(roles=("vet", "coordinator"))
    proposal = _laudo(_capture(VV), profile=VV, vet=coordinator, day=date(2026, 4, 2))
    assert proposal.status == ProposalStatus.OPEN and proposal.claim_until is not None


def test_vv_21_4_no_supervision_outside_vila_velha(app):
    assert _laudo(_capture()).status == ProposalStatus.OPEN


def test_vv_21_4_withdrawn_before_the_sign_off_nobody_is_told(app):
    member, _org = factories.ngo_user()
    proposal = _laudo(_capture(VV), profile=VV, day=date(2026, 4, 2))
    withdraw_proposal(proposal, vet=factories.user(roles=("vet",)), reason="Erro de animal.")
    assert _mail_to(member.email) == []


def test_vv_21_4_supervision_over_http_and_its_queue(make_app):
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        assert registry().get("recolhimento-laudos-supervisao") is not None
        capture = _capture(VV)
        proposal = _laudo(capture, profile=VV, day=date(2026, 4, 2))
        coordinator = factories.user(roles=("vet", "coordinator"), email="coord-vet@example.org")
        db.session.commit()
        client = app.test_client()
        AuthActions(client).login(coordinator)
        text = client.get("/ccz/filas/recolhimento-laudos-supervisao").get_data(as_text=True)
        assert proposal.number in text
        page_text = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
        assert "Aguarda a supervisão do médico veterinário coordenador (VV 21 §4)" in page_text
        client.post(f"/ccz/recolhimentos/{capture.protocol}/laudo/{proposal.number}/supervisionar")
        db.session.refresh(proposal)
        assert proposal.status == ProposalStatus.OPEN


def test_vv_21_4_supervision_queue_absent_elsewhere(app):
    assert registry().get("recolhimento-laudos-supervisao") is None


# -- 4. A capture made from a maus-tratos report --------------------------------------------------


def test_capture_from_a_report_tells_the_reporter_without_personal_data(app):
    from portal.blueprints.reports.services import public_history

    report = MaltreatmentReport(
        protocol="DEN-2026-000077",
        tracking_hash="z" * 64,
        category="no_shelter",
        description="Cão acorrentado",
        state=ReportState.INSPECTED,
        outcome=InspectionOutcome.CAPTURE_NEEDED,
        street="Rua das Palmeiras",
        number="77",
        district="Vila Rio",
        species="dog",
    )
    db.session.add(report)
    db.session.flush()
    agent = factories.user(roles=("agent",), full_name="Agente Fulano de Tal")
    owner = factories.user(full_name="Dono Beltrano")
    pet = factories.animal(owner)
    capture = services.record_capture(
        GRU,
        services.CaptureData(
            species="dog",
            size="small",
            sex="male",
            color="Preto",
            place="Rua das Palmeiras, 77",
            district="Vila Rio",
            captured_at=datetime(2026, 11, 30, 13, tzinfo=UTC),
            captured_on=date(2026, 11, 30),
            reason="loose",
            condition="good",
            tag_read=pet.rga,
            report_protocol=report.protocol,
        ),
        agent=agent,
        today=date(2026, 11, 30),
    )
    [event] = [e for e in public_history(report) if e.text and "recolheu" in e.text]
    assert event.text == "O CCZ recolheu o animal em 30/11/2026."
    for private in (
        "Palmeiras",
        capture.protocol,
        pet.rga,
        "Fulano",
        "Beltrano",
    ):
        assert private not in event.text


# -- 5. "Animais recolhidos" on a phone ------------------------------------------------------------


def test_public_list_says_when_the_deadline_passed_but_the_animal_is_still_there(client):
    today = local_today()
    late = _capture(day=today - timedelta(days=20), condition="good")
    held = _capture(day=today - timedelta(days=1), condition="good")
    held.status = CaptureStatus.DEFINITIVE_PENDING
    db.session.commit()
    assert late.deadline_on < today
    text = client.get("/animais-recolhidos").get_data(as_text=True)
    assert f"O prazo para o resgate terminou em {late.deadline_on:%d/%m/%Y}" in text
    assert "Não pode ser resgatado agora" in text
    assert f"Prazo para o resgate: até {held.deadline_on:%d/%m/%Y}" not in text


def test_public_list_offers_the_lost_animal_alert_before_the_long_list(client):
    text = client.get("/animais-recolhidos").get_data(as_text=True)
    assert text.index("/perdi-meu-animal") < text.index('id="lista"')
