"""The programme's pages: a citizen books a castration or joins the waitlist and cancels it; the
CCZ opens days, records outcomes and works the queues; refused input keeps what was typed."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlalchemy import select

from portal.blueprints.sterilisation import services
from portal.extensions import db
from portal.models import AuditEvent, BookingStatus, SterilisationBooking
from portal.services.clock import local_today
from tests import factories


def _site_and_day(profile, capacity: int = 2, days: int = 7):  # type: ignore[no-untyped-def]
    coord = factories.user(roles=("coordinator",))
    site = services.save_site(
        None,
        services.SiteData(
            name="CCZ Centro",
            partner_kind="ccz",
            address="Rua do CCZ, 100",
            district="Centro",
            instructions="Jejum de 8 horas.",
        ),
        coord,
        profile=profile,
    )
    slot = services.add_slot(
        site, local_today() + timedelta(days=days), capacity, coord, today=local_today()
    )
    db.session.commit()
    return site, slot


def test_public_page_lists_open_days_and_sites_without_signing_in(app, client) -> None:
    _site, slot = _site_and_day(app.extensions["portal_profile"])
    page = client.get("/castracao").get_data(as_text=True)
    assert "CCZ Centro" in page and slot.day.strftime("%d/%m/%Y") in page
    assert "2 vagas" in page
    assert client.get("/castracao/agendar").status_code == 302  # to the login page


def test_citizen_books_a_day_sees_it_and_cancels_it(app, client, auth) -> None:
    _site, slot = _site_and_day(app.extensions["portal_profile"])
    person = factories.user()
    pet = factories.animal(person, name="Thor")
    db.session.commit()
    auth.login(person)
    form = client.get(f"/castracao/agendar?animal={pet.id}").get_data(as_text=True)
    assert "Thor — RGA" in form and "Fila de espera" in form
    response = client.post("/castracao/agendar", data={"animal": str(pet.id), "slot": str(slot.id)})
    assert response.status_code == 302
    page = client.get("/castracao/minhas").get_data(as_text=True)
    assert "Agendada" in page and "Jejum de 8 horas." in page
    booking = db.session.scalar(select(SterilisationBooking))
    assert booking is not None and booking.animal_id == pet.id
    client.post(f"/castracao/{booking.id}/cancelar", data={"reason": "Mudei de ideia"})
    assert booking.status == BookingStatus.CANCELLED
    assert "Cancelada" in client.get("/castracao/minhas").get_data(as_text=True)


def test_a_refused_booking_keeps_what_was_typed(app, client, auth) -> None:
    _site_and_day(app.extensions["portal_profile"])
    auth.login()
    response = client.post(
        "/castracao/agendar",
        data={"animal": "other", "animal_name": "Mingau", "slot": "wait", "community": "y"},
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Corrija os campos indicados" in page and "Campo obrigatório." in page
    assert 'value="Mingau"' in page
    response = client.post(
        "/castracao/agendar",
        data={
            "animal": "other",
            "animal_name": "Mingau",
            "species": "cat",
            "sex": "male",
            "community": "y",
            "slot": "wait",
        },
    )
    page = response.get_data(as_text=True)
    assert "Diga onde o animal comunitário vive" in page and 'value="Mingau"' in page
    assert db.session.scalar(select(SterilisationBooking)) is None


def test_the_last_place_taken_meanwhile_is_explained(app, client, auth) -> None:
    _site, slot = _site_and_day(app.extensions["portal_profile"], capacity=1)
    person = factories.user()
    pet = factories.animal(person)
    db.session.commit()
    auth.login(person)
    client.get("/castracao/agendar")
    other = factories.user()
    services.request_booking(
        other,
        services.BookingRequest(animal=factories.animal(other), slot=slot),
        profile=app.extensions["portal_profile"],
        today=local_today(),
    )
    db.session.commit()
    response = client.post("/castracao/agendar", data={"animal": str(pet.id), "slot": str(slot.id)})
    page = response.get_data(as_text=True)
    assert "As vagas deste dia acabaram" in page
    assert re.search(rf'<input checked id="animal-\d+" name="animal"[^>]*value="{pet.id}"', page)


def test_another_person_cannot_cancel_a_booking(app, client, auth) -> None:
    _site, slot = _site_and_day(app.extensions["portal_profile"])
    owner = factories.user()
    booking = services.request_booking(
        owner,
        services.BookingRequest(animal=factories.animal(owner), slot=slot),
        profile=app.extensions["portal_profile"],
        today=local_today(),
    )
    db.session.commit()
    auth.login()
    assert client.post(f"/castracao/{booking.id}/cancelar").status_code == 404
    assert booking.status == BookingStatus.BOOKED


def test_citizens_never_reach_the_ccz_pages(app, client, auth) -> None:
    _site, slot = _site_and_day(app.extensions["portal_profile"])
    auth.login()
    assert client.get("/ccz/castracao").status_code == 403
    assert client.get(f"/ccz/castracao/dias/{slot.id}").status_code == 403
    assert client.post("/ccz/castracao/dias", data={}).status_code == 403


def test_agents_see_days_but_only_managers_open_them(app, client, auth) -> None:
    site, _slot = _site_and_day(app.extensions["portal_profile"])
    auth.login(roles=("agent",))
    page = client.get("/ccz/castracao").get_data(as_text=True)
    assert "Abrir um dia de cirurgias" not in page
    day = (local_today() + timedelta(days=9)).isoformat()
    response = client.post(
        "/ccz/castracao/dias", data={"site": str(site.id), "day": day, "capacity": "5"}
    )
    assert response.status_code == 403


def test_coordinator_opens_a_day_and_the_waitlist_fills_it(app, client, auth) -> None:
    site, _slot = _site_and_day(app.extensions["portal_profile"], capacity=1)
    waiting_person = factories.user()
    waiting = services.request_booking(
        waiting_person,
        services.BookingRequest(animal=factories.animal(waiting_person)),
        profile=app.extensions["portal_profile"],
        today=local_today(),
    )
    db.session.commit()
    auth.login(roles=("coordinator",))
    day = (local_today() + timedelta(days=9)).isoformat()
    response = client.post(
        "/ccz/castracao/dias",
        data={"site": str(site.id), "day": day, "capacity": "5"},
        follow_redirects=True,
    )
    assert "1 já preenchida(s) pela fila" in response.get_data(as_text=True)
    assert waiting.status == BookingStatus.BOOKED
    # a day in the past is refused next to its field, the typed capacity kept
    past = (local_today() - timedelta(days=1)).isoformat()
    response = client.post(
        "/ccz/castracao/dias", data={"site": str(site.id), "day": past, "capacity": "17"}
    )
    page = response.get_data(as_text=True)
    assert "Abra dias a partir de amanhã." in page and 'value="17"' in page


def test_vet_records_the_outcome_and_the_day_view_is_audited(app, client, auth) -> None:
    profile = app.extensions["portal_profile"]
    _site, slot = _site_and_day(profile, days=1)
    owner = factories.user()
    booking = services.request_booking(
        owner,
        services.BookingRequest(animal=factories.animal(owner), slot=slot),
        profile=profile,
        today=local_today(),
    )
    slot.day = local_today()  # the surgery day has come
    db.session.commit()
    vet = auth.login(roles=("vet",))
    page = client.get(f"/ccz/castracao/dias/{slot.id}").get_data(as_text=True)
    assert owner.full_name in page and "Registrar resultado" in page
    assert db.session.scalar(
        select(AuditEvent).where(
            AuditEvent.action == "sterilisation.day_viewed", AuditEvent.actor_id == vet.id
        )
    )
    url = f"/ccz/castracao/agendamentos/{booking.id}/resultado"
    response = client.post(url, data={"outcome": "done", "vet_name": "Dra. Ana Lima"})
    page = response.get_data(as_text=True)
    assert "Informe o CRMV" in page and 'value="Dra. Ana Lima"' in page
    assert booking.status == BookingStatus.BOOKED
    client.post(url, data={"outcome": "done", "vet_name": "Dra. Ana Lima", "vet_crmv": "SP 99"})
    assert booking.status == BookingStatus.DONE and booking.animal.sterilized is True


def test_queues_show_the_waitlist_and_days_past_without_outcome(app, client, auth) -> None:
    profile = app.extensions["portal_profile"]
    _site, slot = _site_and_day(profile, days=1)
    owner = factories.user()
    services.request_booking(
        owner,
        services.BookingRequest(animal=factories.animal(owner, name="Fumaça")),
        profile=profile,
        today=local_today(),
    )
    other = factories.user()
    services.request_booking(
        other,
        services.BookingRequest(animal=factories.animal(other, name="Paçoca"), slot=slot),
        profile=profile,
        today=local_today(),
    )
    slot.day = local_today() - timedelta(days=1)
    db.session.commit()
    auth.login(roles=("agent",))
    waitlist = client.get("/ccz/filas/castracao-fila").get_data(as_text=True)
    assert "Fumaça" in waitlist and "Paçoca" not in waitlist
    past = client.get("/ccz/filas/castracao-resultado").get_data(as_text=True)
    assert "Paçoca" in past and "Fumaça" not in past


def test_lgpd_export_has_the_persons_bookings(app, client, auth) -> None:
    person = factories.user()
    services.request_booking(
        person,
        services.BookingRequest(animal_name="Mingau", species="cat", sex="male"),
        profile=app.extensions["portal_profile"],
        today=local_today(),
    )
    db.session.commit()
    from portal.wiring import wiring

    exported = wiring(app).exporters["castracao"](person)
    assert exported[0]["animal"] == "Mingau" and exported[0]["situacao"] == "waitlisted"


def test_coordinator_registers_edits_and_closes_a_site(app, client, auth) -> None:
    site, slot = _site_and_day(app.extensions["portal_profile"])
    owner = factories.user()
    booking = services.request_booking(
        owner,
        services.BookingRequest(animal=factories.animal(owner), slot=slot),
        profile=app.extensions["portal_profile"],
        today=local_today(),
    )
    db.session.commit()
    auth.login(roles=("coordinator",))
    page = client.post(f"/ccz/castracao/locais/{site.id}/situacao", follow_redirects=True).get_data(
        as_text=True
    )
    assert "cancele-as antes de desativar o local" in page and site.active
    response = client.post(
        "/ccz/castracao/locais",
        data={"name": "", "partner_kind": "ngo", "address": "Praça B", "district": "Vila"},
    )
    page = response.get_data(as_text=True)
    assert "Campo obrigatório." in page and 'value="Praça B"' in page
    client.post(
        "/ccz/castracao/locais",
        data={"name": "ONG Patas", "partner_kind": "ngo", "address": "Praça B", "district": "Vila"},
    )
    client.post(
        f"/ccz/castracao/locais/{site.id}",
        data={
            "name": "CCZ Sede",
            "partner_kind": "ccz",
            "address": "Rua X, 2",
            "district": "Centro",
        },
    )
    assert site.name == "CCZ Sede"
    client.post(f"/ccz/castracao/agendamentos/{booking.id}/cancelar", data={"reason": ""})
    assert booking.status == BookingStatus.CANCELLED and booking.note == "Cancelado pelo CCZ."
    client.post(f"/ccz/castracao/locais/{site.id}/situacao")
    assert site.active is False
    page = client.get("/castracao").get_data(as_text=True)
    assert "ONG Patas" in page and "CCZ Sede" not in page
