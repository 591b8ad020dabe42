"""The definitive apprehension's own record (GRU 87 I-XI and §ú; issue 16): what opening it
stores, whom the auto de apreensão names, what the owner is told, and what the decision keeps."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from portal.blueprints.impound.apprehension import (
    apprehension_document,
    decide_definitive_apprehension,
    definitive_upheld,
    open_definitive_apprehension,
)
from portal.domain import DomainError
from portal.extensions import db
from portal.models import CaptureStatus, OutboxMessage
from tests import factories
from tests.integration.enforcement.test_apprehension_link import _capture, _third_capture


@pytest.fixture
def profile(app):
    return app.extensions["portal_profile"]


def test_gru_87_opening_is_stored_and_on_record(profile):
    agent, owner, capture = _third_capture(profile)
    assert capture.status == CaptureStatus.DEFINITIVE_PENDING
    assert capture.definitive_article == "GRU 87 III"
    assert capture.definitive_reason and capture.definitive_opened_at is not None
    (event,) = factories.audit_events("impound.definitive_opened")
    assert (event.subject_type, event.subject_id, event.detail) == (
        "Capture",
        str(capture.id),
        {"article": "GRU 87 III"},
    )


def test_gru_96_the_auto_de_apreensao_names_the_owner_the_animal_and_the_address(profile):
    agent, owner, capture = _third_capture(profile)
    doc = apprehension_document(capture)
    assert (doc.addressee_name, doc.addressee_cpf) == (owner.full_name, owner.cpf)
    address = ", ".join(p for p in (owner.street, owner.number, owner.district, owner.city) if p)
    assert doc.addressee_address == address
    assert (doc.animal_id, doc.capture_id, doc.legal_provision) == (
        capture.animal_id,
        capture.id,
        "GRU 87 III",
    )
    assert capture.protocol in doc.fact and capture.definitive_reason in doc.fact


def test_gru_87_su_the_owner_is_told_the_reason_and_the_auto_number(profile):
    from datetime import date

    agent = factories.user(roles=("agent",))
    owner = factories.user()
    pet = factories.animal(owner)
    capture = _capture(profile, date(2026, 3, 10), agent, pet.rga)
    open_definitive_apprehension(
        capture, article="GRU 87 II", reason="Maus-tratos constatados", actor=agent
    )
    doc = apprehension_document(capture)
    (mail,) = [
        m
        for m in db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == owner.email))
        if "Apreensão definitiva em andamento" in m.subject
    ]
    assert mail.subject == f"Apreensão definitiva em andamento ({capture.protocol})"
    assert f"Auto de apreensão nº {doc.number}" in mail.body
    assert "Motivo: Maus-tratos constatados" in mail.body and "(GRU 87 II; GRU 87 §ú)" in mail.body


def test_gru_87_only_an_animal_in_custody_can_be_apprehended(profile):
    agent = factories.user(roles=("agent",))
    owner = factories.user()
    pet = factories.animal(owner)
    from datetime import date

    capture = _capture(profile, date(2026, 3, 10), agent, pet.rga)
    capture.status = CaptureStatus.RELEASED
    with pytest.raises(DomainError) as err:
        open_definitive_apprehension(capture, article="GRU 87 I", reason="x", actor=agent)
    assert (err.value.field, err.value.code) == (None, "not_in_custody")


def test_gru_87_su_a_decision_needs_a_pending_procedure_and_is_on_record(profile):
    agent, owner, capture = _third_capture(profile)
    doc = apprehension_document(capture)
    with pytest.raises(DomainError) as err:
        decide_definitive_apprehension(capture, upheld=True, actor=agent)
    assert err.value.code == "procedure_open" and f"nº {doc.number}" in err.value.message
    decide_definitive_apprehension(capture, upheld=True, actor=agent, note="Mantida", document=doc)
    assert capture.status == CaptureStatus.IN_CUSTODY and definitive_upheld(capture)
    (event,) = factories.audit_events("impound.definitive_decided")
    assert (event.subject_id, event.actor_id, event.detail) == (
        str(capture.id),
        agent.id,
        {"upheld": True, "note": "Mantida", "document": doc.number},
    )
    with pytest.raises(DomainError) as err:
        decide_definitive_apprehension(capture, upheld=False, actor=agent, document=doc)
    assert (err.value.field, err.value.code) == (None, "not_pending")


def test_gru_84_4_a_reset_count_alone_is_not_an_upheld_apprehension(profile):
    agent, owner, capture = _third_capture(profile)
    capture.count_reset = True
    capture.definitive_article = None
    assert definitive_upheld(capture) is False


def test_the_latest_auto_de_apreensao_is_the_one_shown(profile):
    agent, owner, capture = _third_capture(profile)
    first = apprehension_document(capture)
    capture.status = CaptureStatus.IN_CUSTODY
    open_definitive_apprehension(capture, article="GRU 87 II", reason="Maus-tratos", actor=agent)
    latest = apprehension_document(capture)
    assert latest.id > first.id and latest.legal_provision == "GRU 87 II"
