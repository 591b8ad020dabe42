"""Impound ↔ enforcement for a definitive apprehension (GRU 87 I-XI and §ú; GRU 84 §4; GRU 88 §4;
CABO 39 §4): the third capture opens it and issues the auto de apreensão to the owner; the animal
stays in custody until the final decision of the procedure, which decides the capture and records
the consequence on the person only then."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.enforcement import services
from portal.blueprints.impound import services as impound
from portal.blueprints.impound.apprehension import (
    apprehension_document,
    decide_definitive_apprehension,
    definitive_upheld,
)
from portal.domain import DomainError
from portal.extensions import db
from portal.models import (
    CaptureStatus,
    EnforcementKind,
    OutboxMessage,
    PersonConsequence,
)
from tests import factories


@pytest.fixture
def profile(app):
    return app.extensions["portal_profile"]


def _capture(profile, day: date, agent, rga: str):  # type: ignore[no-untyped-def]
    data = impound.CaptureData(
        species="dog",
        size="small",
        sex="male",
        color="Caramelo",
        place="Rua X, 10",
        district="Centro",
        captured_at=datetime(day.year, day.month, day.day, 13, tzinfo=UTC),
        captured_on=day,
        reason="loose",
        condition="good",
        tag_read=rga,
    )
    return impound.record_capture(profile, data, agent=agent, today=day)


def _third_capture(profile):  # type: ignore[no-untyped-def]
    agent = factories.user(roles=("agent",), full_name="Ana Agente")
    owner = factories.user(full_name="Rui Dono")
    pet = factories.animal(owner)
    for day in (date(2021, 3, 15), date(2023, 2, 1)):
        first = _capture(profile, day, agent, pet.rga)
        first.status = CaptureStatus.RELEASED  # reclaimed in between
    capture = _capture(profile, date(2026, 3, 10), agent, pet.rga)
    db.session.flush()
    return agent, owner, capture


def _served(profile, doc, agent):  # type: ignore[no-untyped-def]
    day = doc.issued_at.date()
    services.record_service(
        profile, doc, method="signed", service_on=day, note=None, actor=agent, today=day
    )
    return day


def test_gru_87_iii_third_capture_within_five_years_issues_the_auto_de_apreensao(profile):
    _agent, owner, capture = _third_capture(profile)
    assert capture.capture_number == 3 and capture.status == CaptureStatus.DEFINITIVE_PENDING
    doc = apprehension_document(capture)
    assert doc is not None and doc.kind == EnforcementKind.APPREHENSION
    assert doc.capture_id == capture.id and doc.addressee_cpf == owner.cpf
    assert doc.consequence_article == "GRU 88 §4"
    # GRU 87 §ú: nothing recorded on the person before the final decision
    assert db.session.scalar(select(PersonConsequence)) is None


def test_gru_84_1_ii_prescribed_first_capture_opens_nothing(profile):
    agent = factories.user(roles=("agent",))
    pet = factories.animal(factories.user())
    for day in (date(2020, 12, 1), date(2023, 5, 5)):
        _capture(profile, day, agent, pet.rga).status = CaptureStatus.RELEASED
    capture = _capture(profile, date(2026, 1, 20), agent, pet.rga)
    assert capture.capture_number == 2 and capture.status == CaptureStatus.IN_CUSTODY
    assert apprehension_document(capture) is None


def test_gru_87_su_reclaim_refused_while_the_procedure_is_pending(profile):
    _agent, owner, capture = _third_capture(profile)
    with pytest.raises(DomainError) as err:
        impound.start_reclaim(
            profile,
            capture,
            claimant=owner,
            channel="online",
            started_by=owner,
            today=date(2026, 3, 11),
        )
    assert err.value.code == "definitive_pending"


def test_gru_87_su_staff_cannot_decide_by_hand_while_the_procedure_is_open(profile):
    _agent, _owner, capture = _third_capture(profile)
    with pytest.raises(DomainError) as err:
        decide_definitive_apprehension(capture, upheld=True, actor=None)
    assert err.value.code == "procedure_open"


def test_gru_87_su_appeal_term_lapsing_makes_it_final_and_records_gru_88_4(profile):
    agent, owner, capture = _third_capture(profile)
    doc = apprehension_document(capture)
    day = _served(profile, doc, agent)
    services.close_lapsed(profile, doc.petition_due_on)
    assert capture.status == CaptureStatus.DEFINITIVE_PENDING  # the last day still counts
    services.close_lapsed(profile, doc.petition_due_on + timedelta(days=1))
    assert doc.status == "final"
    assert capture.status == CaptureStatus.IN_CUSTODY and definitive_upheld(capture)
    row = db.session.scalar(select(PersonConsequence))
    assert (row.cpf, row.article, row.document_id) == (owner.cpf, "GRU 88 §4", doc.id)
    mail = db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == owner.email)).all()
    assert any(doc.number in m.subject and "GRU 88 §4" in m.body for m in mail)
    assert day <= doc.petition_due_on


def test_gru_87_su_enforcement_daily_cli_closes_the_lapsed_term(app, profile, monkeypatch):
    agent, _owner, capture = _third_capture(profile)
    doc = apprehension_document(capture)
    _served(profile, doc, agent)
    later = doc.petition_due_on + timedelta(days=1)
    monkeypatch.setattr("portal.services.clock.local_today", lambda profile=None: later)
    result = app.test_cli_runner().invoke(args=["enforcement-daily"])
    assert result.exit_code == 0, result.output
    assert capture.status == CaptureStatus.IN_CUSTODY and definitive_upheld(capture)


def test_gru_88_4_appeal_granted_gives_the_animal_back_to_ordinary_custody(profile):
    agent, owner, capture = _third_capture(profile)
    doc = apprehension_document(capture)
    day = _served(profile, doc, agent)
    petition = services.file_petition(profile, doc, owner, text="Não é meu cão", today=day)
    boss = factories.user(roles=("coordinator",))
    services.decide_petition(
        profile, petition, boss, grant=True, reason="Prova de posse", method="signed",
        service_on=day, today=day,
    )  # fmt: skip
    assert capture.status == CaptureStatus.DEFINITIVE_PENDING  # GRU 104: the agent's view first
    services.close_lapsed(profile, petition.review_due_on + timedelta(days=1))
    assert doc.status == "cancelled"
    assert capture.status == CaptureStatus.IN_CUSTODY and capture.definitive_article is None
    assert capture.reclaimable and not definitive_upheld(capture)
    assert db.session.scalar(select(PersonConsequence)) is None  # not upheld: nothing recorded
    reclaim = impound.start_reclaim(
        profile, capture, claimant=owner, channel="online", started_by=owner, today=day
    )
    assert reclaim.status == "started"


def test_gru_103_second_instance_denial_is_final_and_upholds(profile):
    agent, owner, capture = _third_capture(profile)
    doc = apprehension_document(capture)
    day = _served(profile, doc, agent)
    first = services.file_petition(profile, doc, owner, text="Recurso", today=day)
    boss, director = factories.user(roles=("coordinator",)), factories.user(roles=("admin",))
    services.decide_petition(
        profile, first, boss, grant=False, reason="Três capturas", method="signed",
        service_on=day, today=day,
    )  # fmt: skip
    assert capture.status == CaptureStatus.DEFINITIVE_PENDING  # a second appeal may follow
    second = services.file_petition(profile, doc, owner, text="Segunda instância", today=day)
    assert second.instance == 2
    services.decide_petition(
        profile, second, director, grant=False, reason="Mantido", method="signed",
        service_on=day, today=day,
    )  # fmt: skip
    assert doc.status == "final" and definitive_upheld(capture)
    assert db.session.scalar(select(PersonConsequence)).article == "GRU 88 §4"


def test_gru_87_staff_see_the_link_both_ways(client, auth, profile):
    _agent, _owner, capture = _third_capture(profile)
    doc = apprehension_document(capture)
    db.session.commit()
    auth.login(roles=("coordinator",))
    page = client.get(f"/ccz/recolhimentos/{capture.protocol}").get_data(as_text=True)
    assert f"/ccz/fiscalizacao/{doc.id}" in page and doc.number in page
    assert "Registrar decisão final" not in page  # the procedure decides, not a button
    page = client.get(f"/ccz/fiscalizacao/{doc.id}").get_data(as_text=True)
    assert f"/ccz/recolhimentos/{capture.protocol}" in page and "GRU 87 §ú" in page


def test_gru_87_opening_from_the_staff_view_emails_the_owner_with_the_article(client, auth):
    owner = factories.user(full_name="Rui Dono")
    pet = factories.animal(owner)
    agent = auth.login(roles=("agent",))
    profile = client.application.extensions["portal_profile"]
    capture = _capture(profile, date(2026, 11, 2), agent, pet.rga)
    db.session.commit()
    client.post(
        f"/ccz/recolhimentos/{capture.protocol}/apreensao-definitiva",
        data={"definitive_article": "GRU 87 I", "definitive_reason": "Mordedor vicioso"},
    )
    doc = apprehension_document(capture)
    assert doc is not None and doc.legal_provision == "GRU 87 I"
    mail = db.session.scalar(
        select(OutboxMessage).where(
            OutboxMessage.to == owner.email,
            OutboxMessage.subject.contains("Apreensão definitiva"),
        )
    )
    assert "GRU 87 I" in mail.body and doc.number in mail.body
