"""The household limit through the web and the transfer (DOMAIN §4; GRU 37): one residence however
its number is typed, only animals older than 120 days count, a full household refuses a transfer."""

from __future__ import annotations

from datetime import timedelta

import pytest

from portal.blueprints.animals import services
from portal.extensions import db
from tests import factories


@pytest.mark.parametrize("typed", ["nº 077", "N. 77", "077"])
def test_gru_37_residence_is_one_however_the_number_is_typed(
    app, auth, client, animal_form, address_form, today, typed
) -> None:
    """Five animals of a neighbour at "Rua das Flores, 77" fill the house; a second owner who
    types the number differently lives at the same house (DOMAIN §4: all owners count)."""
    neighbour = factories.user(cep="07000000", street="R. das Flores", number="77")
    for _ in range(5):
        factories.animal(neighbour, birth_date=today - timedelta(days=400))
    db.session.commit()
    auth.login()
    client.post("/animais/cadastrar", data=animal_form())
    response = client.post(
        "/animais/cadastrar/endereco", data={**address_form, "number": typed, "cep": "07000-000"}
    )
    assert "limite por residência é 5" in response.get_data(as_text=True)


def test_gru_37_threshold_is_more_than_120_days(app, today) -> None:
    gru = app.extensions["portal_profile"]
    owner = factories.user()
    for _ in range(4):
        factories.animal(owner, birth_date=today - timedelta(days=400))
    factories.animal(owner, birth_date=today - timedelta(days=120))  # exactly 120: not counted
    with app.test_request_context():
        services.check_household_limit(gru, owner, on=today)  # 4 + 1 = 5: allowed
        factories.animal(owner, birth_date=today - timedelta(days=400))
        with pytest.raises(services.HouseholdLimitExceeded):
            services.check_household_limit(gru, owner, on=today)


def test_gru_37_transfer_into_a_full_household_is_refused(app, today) -> None:
    gru = app.extensions["portal_profile"]
    full = factories.user(cep="07100000", street="Rua Cheia", number="5")
    for _ in range(5):
        factories.animal(full, birth_date=today - timedelta(days=400))
    giver = factories.user(cep="07200000", street="Rua Vazia", number="1")
    pet = factories.animal(giver, birth_date=today - timedelta(days=400))
    with app.test_request_context():
        transfer = services.request_transfer(pet, giver, full.cpf, profile=gru, today=today)
        with pytest.raises(services.HouseholdLimitExceeded):
            services.accept_transfer(transfer, full, profile=gru, today=today)
    assert pet.owner_id == giver.id  # GRU 18 §2: the previous owner stays responsible
