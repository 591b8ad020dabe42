"""Issue 8 item 4: the RGA number is issued at once, but the registration stays provisional until
its fee is settled and its rabies proof checked; staff check proofs from a queue; the owner sees
what is missing and is told by e-mail when the RGA becomes definitive."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.animals import provisional, services
from portal.blueprints.billing import services as billing
from portal.extensions import db
from portal.models import Animal, OutboxMessage, PaymentItem
from portal.services.api_auth import issue_client
from tests import factories
from tests.factories import pdf_text


def _registered(walk_wizard, client) -> Animal:
    response = walk_wizard()
    assert response.status_code == 302
    return db.session.scalar(select(Animal).order_by(Animal.id.desc()))


def _fee(animal: Animal) -> PaymentItem:
    item = db.session.get(PaymentItem, animal.fee_item_id)
    assert item is not None and item.kind == "registration"
    return item


def _definitive_mails(to: str) -> list[OutboxMessage]:
    return list(
        db.session.scalars(
            select(OutboxMessage).where(
                OutboxMessage.to == to, OutboxMessage.subject.like("%definitivo%")
            )
        )
    )


def _pay(item: PaymentItem, today) -> None:  # type: ignore[no-untyped-def]
    clerk = factories.user(roles=("agent",))
    billing.mark_paid_at_counter(item, receipt_number=f"R-{item.id}", paid_on=today, actor=clerk)


@pytest.fixture
def vet(app):
    person = factories.user(roles=("vet",))
    db.session.commit()
    return person


def test_self_declared_vaccine_gives_a_provisional_rga_with_what_is_missing(
    client, auth, walk_wizard
) -> None:
    owner = auth.login()
    animal = _registered(walk_wizard, client)
    assert animal.rga and animal.status == "active"  # the number is valid: the tag can be made
    assert animal.provisional and animal.proof_status == "awaiting"
    assert animal.definitive_at is None
    html = client.get(f"/animais/{animal.rga}/").get_data(as_text=True)
    assert "Provisório" in html and "Para o registro ficar definitivo, falta" in html
    assert f"/pagamentos/{_fee(animal).id}" in html and "Pagar a taxa" in html
    assert "aguardando conferência do CCZ" in html
    assert not _definitive_mails(owner.email)


def test_card_says_provisorio_until_definitive(client, auth, walk_wizard, today, vet) -> None:
    auth.login()
    animal = _registered(walk_wizard, client)
    text = pdf_text(client.get(f"/animais/{animal.rga}/carteira.pdf").data)
    assert "PROVIS" in text and animal.rga in text
    provisional.accept_proof(animal, vet)
    _pay(_fee(animal), today)
    db.session.commit()
    assert not animal.provisional
    assert "PROVIS" not in pdf_text(client.get(f"/animais/{animal.rga}/carteira.pdf").data)


def test_definitive_after_staff_check_then_fee_paid(client, auth, walk_wizard, today, vet) -> None:
    owner = auth.login()
    animal = _registered(walk_wizard, client)
    assert provisional.accept_proof(animal, vet) is False  # the fee is still owed
    db.session.commit()
    assert animal.provisional and animal.proof_status == "checked"
    assert not _definitive_mails(owner.email)
    _pay(_fee(animal), today)  # billing's settlement listener, no polling
    db.session.commit()
    db.session.expire_all()
    animal = db.session.get(Animal, animal.id)
    assert not animal.provisional and animal.definitive_at is not None
    mails = _definitive_mails(owner.email)
    assert len(mails) == 1 and animal.rga in mails[0].body and "PROVISÓRIO" in mails[0].body


def test_definitive_after_fee_paid_then_staff_check(client, auth, walk_wizard, today, vet) -> None:
    owner = auth.login()
    animal = _registered(walk_wizard, client)
    _pay(_fee(animal), today)
    db.session.commit()
    assert animal.provisional  # paid, but nobody checked the vaccination yet
    auth.logout()
    auth.login(vet)
    response = client.post(f"/animais/ccz/animal/{animal.id}/comprovante/aceitar")
    assert response.status_code == 302
    db.session.expire_all()
    animal = db.session.get(Animal, animal.id)
    assert not animal.provisional and animal.proof_checked_by_id == vet.id
    assert len(_definitive_mails(owner.email)) == 1


def test_exempted_fee_counts_as_settled(client, auth, walk_wizard, vet) -> None:
    auth.login()
    animal = _registered(walk_wizard, client)
    provisional.accept_proof(animal, vet)
    item = _fee(animal)
    billing.transition(item, "exempt", "Isenção concedida (GRU 23)", actor_id=vet.id)
    db.session.commit()
    assert not animal.provisional


def test_staff_queue_lists_proofs_and_agents_cannot_check(client, auth, walk_wizard, app) -> None:
    auth.login()
    animal = _registered(walk_wizard, client)
    other = factories.animal(factories.user(), name="Definitivo")  # a definitive one stays out
    db.session.commit()
    assert [a.id for a in provisional.proofs_to_check()] == [animal.id]
    agent = factories.user(roles=("agent",))
    db.session.commit()
    auth.logout()
    auth.login(agent)
    html = client.get("/animais/ccz/pendentes").get_data(as_text=True)
    assert "Comprovantes de vacinação a conferir" in html and animal.rga in html
    assert other.rga not in html and "Rabisin" in html
    assert client.post(f"/animais/ccz/animal/{animal.id}/comprovante/aceitar").status_code == 403


def test_bjp_6_refused_proof_asks_a_reason_and_waits_for_the_shot_at_the_ccz(
    client, auth, walk_wizard, vet, today
) -> None:
    owner = auth.login()
    animal = _registered(walk_wizard, client)
    auth.logout()
    auth.login(vet)
    field = f"recusa-{animal.id}-reason"
    response = client.post(
        f"/animais/ccz/animal/{animal.id}/comprovante/recusar", data={field: "  "}
    )
    assert response.status_code == 422
    assert "Informe o motivo da recusa" in response.get_data(as_text=True)
    response = client.post(
        f"/animais/ccz/animal/{animal.id}/comprovante/recusar",
        data={field: "CRMV não encontrado no conselho"},
    )
    assert response.status_code == 302
    db.session.expire_all()
    animal = db.session.get(Animal, animal.id)
    assert animal.status == "pending" and animal.proof_status == "refused" and animal.provisional
    mail = db.session.scalars(
        select(OutboxMessage)
        .where(OutboxMessage.to == owner.email)
        .order_by(OutboxMessage.id.desc())
    ).first()
    assert "CRMV não encontrado no conselho" in mail.body and animal.rga in mail.subject
    assert animal not in provisional.proofs_to_check()
    # The shot given at the CCZ is its own proof (BJP 6 §ú); with the fee paid it is definitive.
    services.record_vaccination(
        animal,
        services.VaccinationData(
            applied_on=today,
            vaccine_name="Rabisin",
            batch="CCZ-1",
            vet_name=vet.full_name,
            vet_crmv="CRMV-SP 999",
        ),
        recorded_by=vet,
        at_ccz=True,
        today=today,
    )
    assert animal.status == "active" and animal.proof_status == "checked" and animal.provisional
    _pay(_fee(animal), today)
    db.session.commit()
    assert not animal.provisional and len(_definitive_mails(owner.email)) == 1


def test_public_page_and_api_are_honest_about_a_provisional_rga(
    client, auth, walk_wizard, vet, today
) -> None:
    auth.login()
    animal = _registered(walk_wizard, client)
    html = client.get(f"/rga/{animal.rga}").get_data(as_text=True)
    assert "Provisório" in html and "ainda é provisório" in html
    body = client.get(f"/api/v1/rga/{animal.rga}").get_json()
    assert body["status"] == "active" and body["provisional"] is True
    provisional.accept_proof(animal, vet)
    _pay(_fee(animal), today)
    db.session.commit()
    body = client.get(f"/api/v1/rga/{animal.rga}").get_json()
    assert body["status"] == "active" and body["provisional"] is False
    assert "Provisório" not in client.get(f"/rga/{animal.rga}").get_data(as_text=True)


def test_gru_22_clinic_registration_is_checked_and_definitive_once_the_clinic_pays(
    client, today
) -> None:
    api_client, token = issue_client("establishment", "Clínica Bom Pelo")
    db.session.commit()
    body = {
        "animal": {
            "name": "Luna",
            "species": "cat",
            "sex": "female",
            "breed": "SRD",
            "color": "Preta",
            "birth_date": (today - timedelta(days=150)).isoformat(),
            "size": "small",
        },
        "owner": {
            "name": "Ana Cliente",
            "cpf": "529.982.247-25",
            "email": "ana@example.com",
            "address": {
                "cep": "07010-000",
                "street": "Rua Um",
                "number": "10",
                "district": "Centro",
                "city": "Guarulhos",
                "state": "SP",
            },
        },
        "rabies_vaccination": {
            "date": (today - timedelta(days=3)).isoformat(),
            "vaccine": "Rabisin",
            "batch": "L9",
            "vet_name": "Dr. Vet",
            "vet_crmv": "CRMV-SP 4321",
        },
    }
    response = client.post(
        "/api/v1/registrations", json=body, headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status_code == 201, response.get_json()
    data = response.get_json()
    assert data["status"] == "active" and data["provisional"] is True
    animal = db.session.scalar(select(Animal).where(Animal.rga == data["rga"]))
    # the accredited clinic answers for the vaccination: no staff check needed
    assert animal.proof_status == "checked" and animal not in provisional.proofs_to_check()
    item = _fee(animal)
    assert item.api_client_id == api_client.id  # GRU 22 §2: the establishment pays
    assert [m.code for m in provisional.missing(animal)] == ["fee_by_establishment"]
    _pay(item, today)
    db.session.commit()
    assert not animal.provisional
    assert client.get(f"/api/v1/rga/{animal.rga}").get_json()["provisional"] is False
    assert len(_definitive_mails("ana@example.com")) == 1


def test_registration_without_a_fee_is_definitive_once_checked(app, today, vet) -> None:
    owner = factories.user()
    profile = app.extensions["portal_profile"]
    animal = factories.registered_animal(
        owner,
        profile,
        data=factories.rga_data(
            name="Sem taxa", birth_date=today - timedelta(days=120), color="Preto", size="small"
        ),
        vaccination=factories.rga_vaccine(
            applied_on=today - timedelta(days=2), vet_crmv="CRMV-SP 1"
        ),
        today=today,
        charge_fee=False,
    )
    assert animal.provisional and animal.fee_item_id is None
    assert provisional.accept_proof(animal, vet) is True
    assert len(_definitive_mails(owner.email)) == 1


def test_vaccination_typed_by_ccz_staff_for_an_owner_needs_no_check(app, today, vet) -> None:
    owner = factories.user()
    animal = factories.registered_animal(
        owner,
        app.extensions["portal_profile"],
        data=factories.rga_data(
            name="Balcão",
            species="cat",
            sex="female",
            birth_date=today - timedelta(days=120),
            color="Branca",
            size="small",
        ),
        vaccination=factories.rga_vaccine(
            applied_on=today - timedelta(days=1), batch="L2", vet_crmv="CRMV-SP 1"
        ),
        registered_by=vet,
        today=today,
        charge_fee=False,
    )
    assert animal.proof_status == "checked" and animal.proof_checked_by_id == vet.id
    assert not animal.provisional and animal.definitive_at is not None
    assert animal not in provisional.proofs_to_check()
