"""A microchip that a concurrent registration took first (the database's unique index caught it,
after every check had passed): the wizard answers like the check, never with an error page."""

from __future__ import annotations

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from portal.blueprints.animals import services, wizard
from portal.extensions import db
from portal.models import Animal


def _raced(request: services.RegistrationRequest) -> Animal:
    raise IntegrityError("INSERT INTO animal", {}, Exception("unique: animal.microchip"))


def test_a_microchip_taken_meanwhile_sends_the_person_back_to_the_animal_step(
    client, auth, walk_wizard, animal_form, monkeypatch
) -> None:
    user = auth.login()
    walk_wizard(animal=animal_form(microchip="985 112 000 333 444"), confirm=False)
    monkeypatch.setattr(wizard, "register_animal", _raced)  # the wizard's own import
    response = client.post("/animais/cadastrar/revisao")
    assert response.status_code == 302
    assert response.headers["Location"].endswith("/animais/cadastrar")
    html = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Este microchip já está registrado em outro animal." in html
    assert db.session.scalar(select(Animal).where(Animal.owner_id == user.id)) is None
