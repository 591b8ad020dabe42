"""The hand-over on the web: health checked with its article, RGA issued or transferred, fee,
the VV 28 §3 leaflet as page and PDF, and the other applications closed."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.adoption import applications as apps
from portal.blueprints.adoption.services import InvalidData
from portal.extensions import db
from portal.models import AdoptionApplication, Animal, OutboxMessage, PaymentItem
from portal.models.base import utcnow
from portal.services.identity import residence_key
from tests import factories
from tests.factories import eligible_person, make_listing, ngo_user

TODAY = date.today()
HEALTHY = {
    "vaccinated": "y",
    "vaccinated_on": (TODAY - timedelta(days=10)).isoformat(),
    "dewormed": "y",
    "dewormed_on": (TODAY - timedelta(days=10)).isoformat(),
    "sterilized": "y",
    "sterilized_on": (TODAY - timedelta(days=40)).isoformat(),
    "confirm": "y",
}
ANSWERS = apps.Answers(
    home_type="house", other_animals="none", caretaker="Eu", holidays="Hotel para cães"
)


def _approved(app, org=None, reviewer=None, **listing_fields):  # type: ignore[no-untyped-def]
    profile = app.extensions["portal_profile"]
    if reviewer is None:
        reviewer, org = ngo_user()
    listing = make_listing(org, **listing_fields)
    person = eligible_person()
    application = apps.submit_application(profile, person, listing, ANSWERS, True, TODAY)
    apps.approve_application(profile, application, reviewer, TODAY)
    db.session.commit()
    return reviewer, person, application


def test_hand_over_refused_without_sterilisation_as_a_programme_rule(client, auth, app) -> None:
    reviewer, _person, application = _approved(app, sterilized=False)
    auth.login(reviewer)
    response = client.post(
        f"/adocao/gestao/pedidos/{application.id}/entrega",
        data={**HEALTHY, "sterilized": "", "sterilized_on": ""},
    )
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "precisa estar esterilizado" in html and "regra do programa de adoção" in html
    assert "VV 28" not in html  # Guarulhos' law does not ask for it; no other city's law is cited
    db.session.expire_all()
    assert db.session.get(AdoptionApplication, application.id).status == "approved"


def test_hand_over_issues_the_rga_and_sends_the_leaflet(client, auth, app) -> None:
    reviewer, person, application = _approved(app, sterilized=False)
    other = eligible_person()
    waiting = apps.Answers(
        home_type="apartment", other_animals="none", caretaker="Eu", holidays="Vizinho"
    )
    # Someone else's application, still open on the same animal when it is handed over.
    second = AdoptionApplication(
        listing_id=application.listing_id,
        applicant=other,
        answers=waiting.validate(),
        status="submitted",
    )
    db.session.add(second)
    db.session.commit()
    auth.login(reviewer)
    page = client.get(f"/adocao/gestao/pedidos/{application.id}/entrega").get_data(as_text=True)
    assert "o RGA é emitido em nome da pessoa adotante" in page
    response = client.post(
        f"/adocao/gestao/pedidos/{application.id}/entrega",
        data={
            **HEALTHY,
            "rabies_vaccine": "Rabisin",
            "rabies_batch": "L123",
            "rabies_vet_name": "Dra. Ana",
            "rabies_vet_crmv": "CRMV-SP 1234",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    db.session.expire_all()
    application = db.session.get(AdoptionApplication, application.id)
    assert application.status == "completed" and application.listing.state == "adopted"
    animal = application.listing.animal
    assert animal.owner_id == person.id and animal.rga == application.rga_number
    assert animal.status == "active" and animal.sterilized
    assert db.session.get(AdoptionApplication, second.id).status == "refused"
    mail = db.session.scalars(
        select(OutboxMessage)
        .where(OutboxMessage.to == person.email)
        .order_by(OutboxMessage.id.desc())
    ).first()
    assert application.rga_number in mail.body and "/folheto" in mail.body
    assert (
        db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == other.email))
        .all()[-1]
        .subject
        == "Pedido de adoção encerrado"
    )
    # Guarulhos charges no adoption fee.
    assert application.payment_item_id is None


def test_vv_28_1_handover_rga_carries_the_listing_vaccination_and_photo(app) -> None:
    """Issue 8 item 3: without the rabies details the RGA used to wait for a shot at the CCZ, as
    a late registration, without photo. The NGO vouches for the vaccination it confirms."""
    reviewer, person, application = _approved(app)
    profile = app.extensions["portal_profile"]
    listing = application.listing
    apps.complete_adoption(
        profile,
        application,
        reviewer,
        apps.HealthRecord(
            vaccinated=True,
            vaccinated_on=TODAY - timedelta(days=20),
            dewormed=True,
            dewormed_on=TODAY,
            sterilized=True,
            sterilized_on=TODAY,
        ),
        TODAY,
    )
    animal = listing.animal
    assert animal.status == "active" and not animal.provisional  # no adoption fee in GRU
    assert animal.proof_status == "checked" and not animal.late_registration  # 24 months old
    vaccination = animal.vaccinations[0]
    assert vaccination.applied_on == TODAY - timedelta(days=20)
    assert vaccination.vouched_by == listing.owner_name and not vaccination.at_ccz
    assert animal.photo is not None and animal.photo.public
    assert animal.photo.id != listing.cover.id  # a copy: the NGO may remove its listing photos
    assert not db.session.scalars(
        select(OutboxMessage).where(
            OutboxMessage.to == person.email, OutboxMessage.subject.like("%definitivo%")
        )
    ).all()


def test_handover_needs_the_vaccination_date_where_the_law_asks_for_a_proof(app) -> None:
    reviewer, _person, application = _approved(app)
    profile = app.extensions["portal_profile"]
    with pytest.raises(InvalidData) as err:
        apps.complete_adoption(
            profile,
            application,
            reviewer,
            apps.HealthRecord(
                vaccinated=True,
                vaccinated_on=None,
                dewormed=True,
                dewormed_on=TODAY,
                sterilized=True,
                sterilized_on=TODAY,
            ),
            TODAY,
        )
    assert err.value.errors[0][0] == "vaccinated_on"
    assert "GRU 15 V" in err.value.errors[0][2]


def test_bad_rabies_record_is_shown_next_to_its_field(client, auth, app) -> None:
    reviewer, _person, application = _approved(app)
    auth.login(reviewer)
    response = client.post(
        f"/adocao/gestao/pedidos/{application.id}/entrega",
        data={
            **HEALTHY,
            "rabies_vaccine": "Rabisin",
            "rabies_batch": "",
            "rabies_vet_name": "Dra. Ana",
            "rabies_vet_crmv": "CRMV-SP 1",
        },
    )
    assert response.status_code == 400
    assert "Informe a partida (lote) da vacina." in response.get_data(as_text=True)


def test_animal_with_an_rga_is_transferred_to_the_adopter(app) -> None:
    reviewer, org = ngo_user()
    former = factories.user()
    animal = Animal(
        rga="C-2025-000777-1",
        species="dog",
        name="Rex",
        sex="male",
        birth_date=TODAY - timedelta(days=900),
        size="large",
        registered_on=TODAY,
        owner=former,
        residence_key=residence_key(former.cep, former.street, former.number, None),
        activated_at=utcnow(),
    )
    db.session.add(animal)
    db.session.flush()
    _reviewer, person, application = _approved(app, org=org, reviewer=reviewer, name="Rex")
    application.listing.animal = animal
    profile = app.extensions["portal_profile"]
    apps.complete_adoption(
        profile,
        application,
        reviewer,
        apps.HealthRecord(
            vaccinated=True,
            vaccinated_on=TODAY,
            dewormed=True,
            dewormed_on=TODAY,
            sterilized=True,
            sterilized_on=TODAY,
        ),
        TODAY,
    )
    assert animal.owner_id == person.id and application.rga_number == "C-2025-000777-1"
    assert animal.transfers[-1].status == "accepted" and animal.transfers[-1].reason == "adoption"


def test_ccz_animal_is_handed_over_by_staff_with_the_fee(client, auth, make_app) -> None:
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        client = app.test_client()
        staff = factories.user(roles=("vet",))
        _s, person, application = _approved(app, org=None, reviewer=staff)
        outsider, _org = ngo_user()
        db.session.commit()
        client.post("/conta/entrar", data={"email": outsider.email, "password": factories.PASSWORD})
        assert client.get(f"/adocao/gestao/pedidos/{application.id}").status_code == 404
        with client.session_transaction() as session:
            session.clear()
        from flask import g

        g.pop("_login_user", None)
        client.post("/conta/entrar", data={"email": staff.email, "password": factories.PASSWORD})
        page = client.get(f"/adocao/gestao/pedidos/{application.id}/entrega")
        assert "R$" in page.get_data(as_text=True) and "BJP 28" in page.get_data(as_text=True)
        response = client.post(f"/adocao/gestao/pedidos/{application.id}/entrega", data=HEALTHY)
        assert response.status_code == 302
        db.session.expire_all()
        application = db.session.get(AdoptionApplication, application.id)
        item = db.session.get(PaymentItem, application.payment_item_id)
        assert item.kind == "adoption" and item.payer_id == person.id and item.status == "pending"
        # Issue 8: vaccination vouched by the CCZ; the RGA waits only for the adoption fee.
        animal = application.listing.animal
        assert animal.status == "active" and animal.provisional
        assert animal.proof_status == "checked" and animal.fee_item_id == item.id
        from portal.blueprints.billing import services as billing

        billing.mark_paid_at_counter(
            item, receipt_number="R-ADO-1", paid_on=item.created_at.date(), actor=staff
        )
        db.session.commit()
        assert not animal.provisional
        assert db.session.scalars(
            select(OutboxMessage).where(
                OutboxMessage.to == person.email, OutboxMessage.subject.like("%definitivo%")
            )
        ).all()


def test_leaflet_page_and_pdf_for_the_adopter_only(client, auth, app) -> None:
    reviewer, person, application = _approved(app)
    profile = app.extensions["portal_profile"]
    apps.complete_adoption(
        profile,
        application,
        reviewer,
        apps.HealthRecord(
            vaccinated=True,
            vaccinated_on=TODAY - timedelta(days=3),
            dewormed=True,
            dewormed_on=TODAY - timedelta(days=3),
            sterilized=True,
            sterilized_on=None,
        ),
        TODAY,
    )
    db.session.commit()
    auth.login(person)
    html = client.get(f"/adocao/minhas/{application.id}/folheto").get_data(as_text=True)
    for part in (
        "A responsabilidade de adotar",
        "Guarda responsável",
        "Abandono",
        "Calendário de vacinação e esterilização",
        "Por que a esterilização importa",
        "Onde denunciar maus-tratos",
        "9.605",
        application.rga_number,
    ):
        assert part in html, part
    # A Guarulhos portal does not cite Vila Velha's law (issue 8): the programme's own guidance.
    assert "VV 28" not in html and "Vila Velha" not in html
    assert "Orientações do programa de adoção do CCZ de Guarulhos" in html
    assert "próxima dose antirrábica até" in html
    response = client.get(f"/adocao/minhas/{application.id}/folheto.pdf")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data.startswith(b"%PDF") and len(response.data) > 2000
    html = client.get(f"/adocao/minhas/{application.id}").get_data(as_text=True)
    assert "Adoção concluída" in html and application.rga_number in html
    auth.logout()
    auth.login(factories.user())
    assert client.get(f"/adocao/minhas/{application.id}/folheto").status_code == 404


def test_general_leaflet_is_public(client, app) -> None:
    html = client.get("/adocao/folheto").get_data(as_text=True)
    assert "Onde denunciar maus-tratos" in html
    response = client.get("/adocao/folheto.pdf")
    assert response.status_code == 200 and response.data.startswith(b"%PDF")
    assert "Termo de Compromisso" in client.get("/adocao/termo").get_data(as_text=True)


@pytest.mark.parametrize("state", ["submitted", "needs_info"])
def test_hand_over_needs_an_approved_application(client, auth, app, state) -> None:
    reviewer, org = ngo_user()
    listing = make_listing(org)
    person = eligible_person()
    application = apps.submit_application(
        app.extensions["portal_profile"], person, listing, ANSWERS, True, TODAY
    )
    application.status = state
    db.session.commit()
    auth.login(reviewer)
    response = client.post(f"/adocao/gestao/pedidos/{application.id}/entrega", data=HEALTHY)
    assert response.status_code == 400
    assert "a ação não é possível agora" in response.get_data(as_text=True)
