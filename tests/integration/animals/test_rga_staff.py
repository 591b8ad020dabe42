"""Staff area of the RGA: pending list, vaccination, approval, search, second copies, audit."""

from __future__ import annotations

import json
from datetime import timedelta

from sqlalchemy import select

from portal.extensions import db
from portal.models import AuditEvent
from tests import factories


def _events(action: str) -> list[AuditEvent]:
    return list(db.session.scalars(select(AuditEvent).where(AuditEvent.action == action)))


def test_pending_list_and_vaccination_activate_the_registration(client, auth, today) -> None:
    owner = factories.user(full_name="Dona Pendente")
    animal = factories.animal(owner, status="pending", name="Aguardando")
    db.session.commit()
    vet = auth.login(roles=("vet",))
    html = client.get("/animais/ccz/pendentes").get_data(as_text=True)
    assert "Aguardando" in html and "Dona Pendente" in html
    assert _events("animal.pending_listed")[0].actor_id == vet.id

    page = client.get(f"/animais/ccz/animal/{animal.id}").get_data(as_text=True)
    assert "Registrar vacinação" in page and owner.cpf not in page
    viewed = _events("animal.viewed")
    assert viewed and viewed[0].subject_id == str(animal.id) and viewed[0].actor_id == vet.id

    bad = client.post(f"/animais/ccz/animal/{animal.id}/vacina", data={"vaccine_name": "Rabisin"})
    assert bad.status_code == 422 and 'value="Rabisin"' in bad.get_data(as_text=True)
    response = client.post(
        f"/animais/ccz/animal/{animal.id}/vacina",
        data={
            "applied_on": today.isoformat(),
            "vaccine_name": "Rabisin",
            "batch": "CCZ-1",
            "vet_name": "Dr. Carlos",
            "vet_crmv": "CRMV-SP 999",
        },
    )
    assert response.status_code == 302
    db.session.refresh(animal)
    assert animal.status == "active" and animal.vaccinations[0].at_ccz
    assert _events("animal.vaccinated")


def test_approve_needs_a_current_vaccination(client, auth, today) -> None:
    owner = factories.user()
    animal = factories.animal(owner, status="pending")
    db.session.commit()
    auth.login(roles=("vet",))
    client.post(f"/animais/ccz/animal/{animal.id}/aprovar")
    db.session.refresh(animal)
    assert animal.status == "pending"
    from portal.models import Vaccination

    animal.vaccinations.append(
        Vaccination(
            vaccine_name="V",
            batch="B",
            applied_on=today,
            next_due_on=today + timedelta(days=365),
            vet_name="X",
            vet_crmv="CRMV-SP 1",
        )
    )
    db.session.commit()
    client.post(f"/animais/ccz/animal/{animal.id}/aprovar")
    db.session.refresh(animal)
    assert animal.status == "active" and _events("animal.approved")


def test_search_by_cpf_is_a_post_and_the_cpf_goes_nowhere(client, auth) -> None:
    owner = factories.user(full_name="Maria Buscada")
    animal = factories.animal(owner, name="Tobias")
    db.session.commit()
    auth.login(roles=("agent",))
    assert client.get("/animais/ccz/buscar").status_code == 200
    response = client.post("/animais/ccz/buscar", data={"kind": "cpf", "q": owner.cpf})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Tobias" in html and animal.rga in html
    assert owner.cpf not in html.replace(f'value="{owner.cpf}"', "")  # only echoed in the box
    events = _events("animal.searched")
    assert events and events[0].detail == {"kind": "cpf", "results": 1}
    everything = json.dumps([e.detail for e in db.session.scalars(select(AuditEvent))])
    assert owner.cpf not in everything


def test_search_by_rga_microchip_and_name(client, auth) -> None:
    owner = factories.user(full_name="Roberto Dono")
    animal = factories.animal(owner, name="Biscoito", microchip="985000000000042")
    db.session.commit()
    auth.login(roles=("agent",))
    for kind, q in (
        ("rga", animal.rga.lower().replace("-", " ")),
        ("microchip", "985 000 000 000 042"),
        ("name", "biscoi"),
        ("name", "roberto"),
    ):
        html = client.post("/animais/ccz/buscar", data={"kind": kind, "q": q}).get_data(
            as_text=True
        )
        assert "Biscoito" in html, (kind, q)
    wrong = animal.rga[:-1] + str((int(animal.rga[-1]) + 1) % 10)
    html = client.post("/animais/ccz/buscar", data={"kind": "rga", "q": wrong}).get_data(
        as_text=True
    )
    assert "dígito verificador" in html
    html = client.post("/animais/ccz/buscar", data={"kind": "cpf", "q": "123"}).get_data(
        as_text=True
    )
    assert "CPF inválido" in html


def test_second_copies_are_listed_and_marked_issued(client, auth, app, today) -> None:
    from portal.blueprints.animals import services

    owner = factories.user()
    animal = factories.animal(owner)
    copy = services.request_copy(
        animal, "tag", requested_by=owner, profile=app.extensions["portal_profile"], today=today
    )
    db.session.commit()
    auth.login(roles=("agent",))
    html = client.get("/animais/ccz/segundas-vias").get_data(as_text=True)
    assert animal.rga in html and "GRU 19 §2" in html
    client.post(f"/animais/ccz/segundas-vias/{copy.id}/emitida")
    db.session.refresh(copy)
    assert copy.status == "issued" and copy.issued_at is not None


def test_vet_reports_a_death_and_staff_print_the_card(client, auth, today) -> None:
    owner = factories.user()
    animal = factories.animal(owner)
    db.session.commit()
    auth.login(roles=("vet",))
    card = client.get(f"/animais/ccz/animal/{animal.id}/carteira.pdf")
    assert card.data.startswith(b"%PDF") and _events("animal.card_printed")
    client.post(
        f"/animais/ccz/animal/{animal.id}/obito",
        data={"died_on": today.isoformat(), "confirm": "y"},
    )
    db.session.refresh(animal)
    assert animal.status == "closed" and _events("animal.closed")


def test_staff_pages_refuse_citizens_and_agents_cannot_close(client, auth) -> None:
    animal = factories.animal(factories.user())
    db.session.commit()
    auth.login(roles=("citizen",))
    for url in (
        "/animais/ccz/pendentes",
        "/animais/ccz/buscar",
        f"/animais/ccz/animal/{animal.id}",
        "/animais/ccz/segundas-vias",
    ):
        assert client.get(url).status_code == 403
    auth.logout()
    auth.login(roles=("agent",))
    assert client.post(f"/animais/ccz/animal/{animal.id}/obito").status_code == 403
    assert client.post(f"/animais/ccz/animal/{animal.id}/aprovar").status_code == 403


def test_dashboard_shows_the_rga_tiles(client, auth) -> None:
    auth.login(roles=("agent",))
    html = client.get("/admin/").get_data(as_text=True)
    assert (
        "RGA: comprovantes a conferir e vacinações pendentes" in html
        and "/animais/ccz/buscar" in html
    )


def test_demo_seeder_gives_the_demo_citizen_two_animals_once(app) -> None:
    from portal.blueprints.animals.hooks import seed_demo_animals
    from portal.models import Animal, User

    citizen = factories.user(email="cidada@demo.ccz", street=None, number=None, cep=None)
    db.session.commit()
    with app.test_request_context():
        seed_demo_animals()
        db.session.commit()
        seed_demo_animals()
        db.session.commit()
    animals = db.session.scalars(select(Animal).where(Animal.owner_id == citizen.id)).all()
    assert sorted(a.status for a in animals) == ["active", "pending"]
    assert db.session.get(User, citizen.id).street
