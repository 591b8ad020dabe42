"""Helpers for the RGA web tests: the wizard's form data, PDF text, a registered animal."""

from __future__ import annotations

from datetime import timedelta

import pytest

from portal.blueprints.animals import services
from tests.factories import pdf_text, png_bytes  # noqa: F401  (moved; imported from here too)


@pytest.fixture
def today(app):
    return services.local_today(app.extensions["portal_profile"])


@pytest.fixture
def animal_form(today):
    def build(**overrides):
        form = {
            "name": "Bolinha",
            "species": "dog",
            "sex": "female",
            "breed": "SRD",
            "color": "Caramelo",
            "birth_known": "exact",
            "birth_date": (today - timedelta(days=150)).isoformat(),
            "size": "small",
            "weight_kg": "8,5",
            "sterilized": "no",
            "microchip": "",
        }
        form.update(overrides)
        return form

    return build


@pytest.fixture
def address_form():
    return {
        "cep": "07000-000",
        "street": "Rua das Flores",
        "number": "77",
        "complement": "",
        "district": "Centro",
        "city": "Guarulhos",
        "state": "SP",
        "housing_type": "house",
    }


@pytest.fixture
def vaccine_form(today):
    return {
        "choice": "record",
        "applied_on": (today - timedelta(days=5)).isoformat(),
        "vaccine_name": "Rabisin",
        "batch": "L123",
        "vet_name": "Dra. Ana",
        "vet_crmv": "CRMV-SP 1234",
    }


@pytest.fixture
def walk_wizard(client, animal_form, address_form, vaccine_form):
    """Post every step; returns the last response (the review POST's redirect)."""

    def walk(animal=None, vaccine=None, photo=False, confirm=True):
        assert client.post("/animais/cadastrar", data=animal or animal_form()).status_code == 302
        assert client.post("/animais/cadastrar/endereco", data=address_form).status_code == 302
        vaccine = vaccine or vaccine_form
        if vaccine.get("choice") == "record":  # GRU 15 V: the card's photo goes with the data
            vaccine = {"rabies_proof": (png_bytes(), "carteira.png"), **vaccine}
        sent = client.post(
            "/animais/cadastrar/vacina", data=vaccine, content_type="multipart/form-data"
        )
        assert sent.status_code == 302
        files = {"photo": (png_bytes(), "foto.png")} if photo else {}
        assert (
            client.post(
                "/animais/cadastrar/foto", data=files, content_type="multipart/form-data"
            ).status_code
            == 302
        )
        if confirm:
            return client.post("/animais/cadastrar/revisao")
        return None

    return walk
