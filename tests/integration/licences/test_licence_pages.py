"""Excess-animal licences over HTTP (issue 11): the citizen's request form, the staff flow, the
PDF, the public check page and API, and the clinic API's refusals."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest

from portal.blueprints.animals import services as animals
from portal.blueprints.licences import services
from portal.extensions import db
from portal.models import AuditEvent, ExcessLicence, LicenceStatus, OutboxMessage, Vaccination
from portal.services.api_auth import issue_client
from tests import factories


@pytest.fixture
def today(app):
    return animals.local_today(app.extensions["portal_profile"])


def adult(owner, today, **fields):
    pet = factories.animal(owner, birth_date=today - timedelta(days=500), **fields)
    pet.vaccinations.append(
        Vaccination(
            vaccine_name="Rabisin",
            batch="L1",
            vet_name="Dra. Ana",
            vet_crmv="CRMV-SP 1",
            applied_on=today - timedelta(days=30),
            next_due_on=today + timedelta(days=330),
        )
    )
    db.session.flush()
    return pet


def sent_request(owner, pets, *, profile, today) -> ExcessLicence:
    """A request for ``pets`` (each confirmed, with its sterilisation proof) sent through the
    service, as the tests that start from a request on file need it."""
    return services.request_licence(
        owner,
        services.RequestData(
            animals_requested=len(pets),
            housing_description="Quintal amplo, coberto e limpo todo dia.",
            listed=[
                services.ListedAnimal(
                    p.id,
                    True,
                    sterilisation_proof=services.Upload(io.BytesIO(b"%PDF-1.4"), "s.pdf"),
                )
                for p in pets
            ],
        ),
        profile=profile,
        today=today,
    )


def _file(name: str = "c.pdf"):
    return (io.BytesIO(b"%PDF-1.4 comprovante"), name)


def _request_form(pets, *, asked: int, new: list[dict] | None = None) -> dict:
    form: dict = {
        "animals_requested": str(asked),
        "housing_description": "Quintal coberto de 200 m², limpeza diária, ração e água.",
        "photos": [(io.BytesIO(factories.png_bytes().getvalue()), "quintal.png")],
    }
    for pet in pets:
        form[f"confirm-{pet.id}"] = "1"
        form[f"sterilisation-{pet.id}"] = _file()
    for i, animal in enumerate(new or [], start=1):
        for key, value in animal.items():
            form[f"new_{i}-{key}"] = value
        form[f"new_{i}-sterilisation_proof"] = _file()
    return form


def send_by_steps(client, form: dict, *, until: str = "revisao"):
    """Post ``form`` (as :func:`_request_form` builds it) through the request's steps; the last
    response (a redirect after each step that passes)."""
    steps = {
        "": lambda k: k.startswith(("confirm-", "new_")) and not k.endswith("_proof"),
        "/alojamento": lambda k: k in ("housing_description", "animals_requested", "photos"),
        "/documentos": lambda k: (
            k.startswith(("rabies-", "sterilisation-")) or k.endswith("_proof")
        ),
    }
    response = None
    for path, owned in steps.items():
        data = {k: v for k, v in form.items() if owned(k)}
        response = client.post(
            "/licencas/pedido" + path,
            data={**data, "_action": "continue"},
            content_type="multipart/form-data",
        )
        if response.status_code != 302 or path.lstrip("/") == until:
            return response
    return client.post("/licencas/pedido/revisao", data={})


def _new(name: str, today) -> dict:
    return {
        "name": name,
        "species": "dog",
        "sex": "female",
        "breed": "SRD",
        "color": "Preta",
        "size": "medium",
        "birth_date": (today - timedelta(days=400)).isoformat(),
        "sterilized": "y",
        "vaccinated_on": (today - timedelta(days=5)).isoformat(),
        "vaccine_name": "Rabisin",
        "batch": "L5",
        "vet_name": "Dr. Vet",
        "vet_crmv": "CRMV-SP 9",
    }


def test_gru_37_citizen_requests_with_new_animals_and_staff_approve(client, auth, today) -> None:
    owner = auth.login()
    pets = [adult(owner, today) for _ in range(5)]
    db.session.commit()
    page = client.get("/licencas/pedido")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert all(p.rga in html for p in pets) and "GRU 37 §1" in html
    response = send_by_steps(
        client,
        _request_form(
            pets, asked=8, new=[_new("Mel", today), _new("Bia", today), _new("Lua", today)]
        ),
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:3000]
    assert "/licencas/minhas/" in response.headers["Location"]
    licence = db.session.scalars(db.select(ExcessLicence)).one()
    assert licence.animals_requested == 8 and len(licence.animals) == 8
    inside = [link.animal for link in licence.animals if link.registered_inside]
    assert len(inside) == 3 and all(a.provisional for a in inside)
    assert len(licence.files) == 1
    assert "Minhas licenças" in client.get("/licencas/minhas").get_data(as_text=True)

    auth.logout()
    agent = auth.login(roles=("agent",))
    file_page = client.get(f"/ccz/licencas/{licence.id}")
    assert file_page.status_code == 200 and "Mel" in file_page.get_data(as_text=True)
    assert (
        client.post(
            f"/ccz/licencas/{licence.id}/agendar",
            data={"agent_id": str(agent.id), "scheduled_for": today.isoformat()},
        ).status_code
        == 302
    )
    assert (
        client.post(
            f"/ccz/licencas/{licence.id}/vistoria",
            data={
                "inspected_on": today.isoformat(),
                "checklist": ["space", "water"],
                "findings": "Quintal amplo e limpo.",
                "satisfactory": "y",
            },
        ).status_code
        == 302
    )
    assert (
        client.post(
            f"/ccz/licencas/{licence.id}/decisao/aprovar",
            data={"max_animals": "8", "covered": [str(link.id) for link in licence.animals]},
            follow_redirects=True,
        ).status_code
        == 200
    )
    db.session.refresh(licence)
    assert licence.status == LicenceStatus.APPROVED and licence.max_animals == 8
    assert licence.inspections[0].checklist["space"] is True
    actions = set(db.session.scalars(db.select(AuditEvent.action)))
    assert {
        "licence.requested",
        "licence.viewed",
        "licence.inspection_scheduled",
        "licence.inspected",
        "licence.approved",
    } <= actions
    subjects = [
        m.subject
        for m in db.session.scalars(db.select(OutboxMessage).where(OutboxMessage.to == owner.email))
    ]
    assert any("aprovada" in s for s in subjects) and any("recebido" in s for s in subjects)

    auth.logout()
    auth.login(owner)
    document = client.get(f"/licencas/minhas/{licence.id}/documento.pdf")
    assert document.status_code == 200 and document.data.startswith(b"%PDF")
    assert licence.code in factories.pdf_text(document.data)


def test_gru_37_request_form_keeps_what_was_typed_and_shows_errors(client, auth, today) -> None:
    owner = auth.login()
    pets = [adult(owner, today) for _ in range(5)]
    db.session.commit()
    form = _request_form(pets, asked=11)
    del form[f"confirm-{pets[0].id}"]
    response = send_by_steps(client, form)  # stops at the animals step: one not confirmed
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and f"Confirme que {pets[0].name}" in html
    form[f"confirm-{pets[0].id}"] = "1"
    response = send_by_steps(client, form)  # stops at the housing step: 11 is above the cap
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "no máximo 10" in html
    assert "limpeza diária" in html  # nothing typed is lost
    assert db.session.scalars(db.select(ExcessLicence)).first() is None


def test_public_check_page_and_api_show_nothing_about_the_holder(client, app, today) -> None:
    prof = app.extensions["portal_profile"]
    owner = factories.user(full_name="Fulana Reservada")
    pets = [adult(owner, today) for _ in range(6)]
    staff = factories.user(roles=("agent",))
    with app.test_request_context():
        licence = sent_request(owner, pets, profile=prof, today=today)
        services.approve(
            licence, staff, max_animals=6, covered_ids=None, reason=None, profile=prof, today=today
        )
    db.session.commit()
    page = client.get(f"/licencas/{licence.code}")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Válida" in html and "Fulana" not in html
    assert owner.street not in html
    api = client.get(f"/api/v1/licences/{licence.code.lower()}")
    assert api.status_code == 200
    assert api.get_json() == {
        "municipality": "Guarulhos",
        "status": "valid",
        "valid_from": today.isoformat(),
        "valid_until": licence.valid_until.isoformat() if licence.valid_until else None,
        "max_animals": 6,
    }
    assert client.get("/api/v1/licences/AAAA-BBBB-CCCC").status_code == 404
    assert client.get("/licencas/AAAA-BBBB-CCCC").status_code == 404
    services.cancel(licence, staff, "Achado na vistoria.", today=today)
    db.session.commit()
    assert client.get(f"/api/v1/licences/{licence.code}").get_json()["status"] == "cancelled"
    assert len(licence.code) == 14 and licence.code != str(licence.id)


def _api_payload(owner, today) -> dict:
    return {
        "animal": {
            "name": "Nova",
            "species": "cat",
            "sex": "female",
            "breed": "SRD",
            "color": "Preta",
            "birth_date": (today - timedelta(days=300)).isoformat(),
            "size": "small",
            "sterilized": True,
        },
        "owner": {
            "name": owner.full_name,
            "cpf": owner.cpf,
            "email": owner.email,
            "address": {
                "cep": owner.cep,
                "street": owner.street,
                "number": owner.number,
                "complement": "",
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


def test_gru_37_par1_iii_api_answers_422_licence_new_acquisition(client, app, today) -> None:
    prof = app.extensions["portal_profile"]
    owner = factories.user()
    pets = [adult(owner, today) for _ in range(6)]
    staff = factories.user(roles=("agent",))
    with app.test_request_context():
        licence = sent_request(owner, pets, profile=prof, today=today)
        services.approve(
            licence, staff, max_animals=6, covered_ids=None, reason=None, profile=prof, today=today
        )
    _client, token = issue_client("establishment", "Clínica")
    db.session.commit()
    response = client.post(
        "/api/v1/registrations",
        json=_api_payload(owner, today),
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 422
    error = response.get_json()["errors"][0]
    assert error["code"] == "licence_new_acquisition" and error["field"] == "owner.address"
    assert error["article"] == "GRU 37 §1 III"


def test_bjp_17_api_refusal_for_the_cap_keeps_household_limit(client, make_app) -> None:
    app = make_app(PORTAL_PROFILE="bjp")
    prof = app.extensions["portal_profile"]
    prof = prof.model_copy(
        update={"licence": prof.licence.model_copy(update={"requests_accepted_until": None})}
    )
    app.extensions["portal_profile"] = prof
    client = app.test_client()
    with app.app_context(), app.test_request_context():
        today = animals.local_today(prof)
        owner = factories.user()
        pets = [adult(owner, today) for _ in range(13)]
        staff = factories.user(roles=("agent",))
        licence = services.request_licence(
            owner,
            services.RequestData(
                animals_requested=13,
                housing_description="Sítio urbano com canil coberto e limpo.",
                listed=[services.ListedAnimal(p.id, True) for p in pets],
            ),
            profile=prof,
            today=today,
        )
        services.approve(
            licence, staff, max_animals=13, covered_ids=None, reason=None, profile=prof, today=today
        )
        _client, token = issue_client("establishment", "Clínica")
        db.session.commit()
        response = client.post(
            "/api/v1/registrations",
            json=_api_payload(owner, today),
            headers={"Authorization": f"Bearer {token}"},
        )
        assert response.status_code == 422
        assert response.get_json()["errors"][0]["code"] == "household_limit"


def test_licence_pages_need_sign_in_and_staff(client, auth) -> None:
    assert client.get("/licencas/pedido").status_code == 302
    auth.login()
    assert client.get("/ccz/licencas").status_code in (302, 403, 404)
    assert client.get("/licencas/minhas/999").status_code == 404


def test_staff_queue_and_search(client, auth, app, today) -> None:
    owner = factories.user()
    for _ in range(6):
        adult(owner, today)
    db.session.commit()
    auth.login(roles=("agent",))
    queue = client.get("/ccz/filas/licencas-residencias-acima-do-limite")
    assert queue.status_code == 200 and owner.full_name in queue.get_data(as_text=True)


def test_lgpd_download_includes_the_licences(client, auth, app, today) -> None:
    owner = auth.login()
    pets = [adult(owner, today) for _ in range(6)]
    with app.test_request_context():
        sent_request(owner, pets, profile=app.extensions["portal_profile"], today=today)
    db.session.commit()
    import json

    data = json.loads(client.get("/minha-conta/meus-dados.json").get_data(as_text=True))
    assert data["licencas"][0]["animais_pedidos"] == 6
    assert sorted(data["licencas"][0]["animais"]) == sorted(p.rga for p in pets)


def test_opening_a_household_above_the_limit_is_audited(client, auth, today) -> None:
    """Staff see who lives at the residence and their animals: the look is recorded (issue 9:
    the audit is the service's, ``household_viewed``, not the view's)."""
    owner = factories.user()
    first = adult(owner, today)
    for _ in range(5):
        adult(owner, today)
    db.session.commit()
    auth.login(roles=("agent",))
    assert client.get(f"/ccz/licencas/residencias/{first.id}").status_code == 200
    event = db.session.scalar(
        db.select(AuditEvent).where(AuditEvent.action == "licence.household_viewed")
    )
    assert event is not None and event.subject_id == str(first.id)
