"""GRU 15 V; BJP 6: to register, the owner presents the vaccination card or proof. The wizard's
vaccination step takes its photo or PDF (required where the law asks for the proof, when the owner
says the animal is vaccinated), holds it across a refused post (issue 25), shows it on the review,
and the staff who check the proof see it on their queue."""

from __future__ import annotations

import io

from sqlalchemy import select

from portal.extensions import db
from portal.models import Animal, DraftFile
from tests import factories
from tests.conftest import AuthActions

PDF = b"%PDF-1.4\n% carteira\n"


def _first_steps(client, animal_form, address_form) -> None:
    assert client.post("/animais/cadastrar", data=animal_form()).status_code == 302
    assert client.post("/animais/cadastrar/endereco", data=address_form).status_code == 302


def _vaccine(client, form, **files):
    return client.post(
        "/animais/cadastrar/vacina", data={**form, **files}, content_type="multipart/form-data"
    )


def test_gru_15_v_the_card_is_asked_kept_across_a_refusal_and_reaches_staff(
    client, auth, animal_form, address_form, vaccine_form
) -> None:
    owner = auth.login()
    _first_steps(client, animal_form, address_form)
    page = client.get("/animais/cadastrar/vacina").get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in page and 'name="rabies_proof"' in page
    missing = _vaccine(client, vaccine_form).get_data(as_text=True)
    assert "Envie uma foto ou o PDF da carteira de vacinação (GRU 15 V)" in missing
    assert 'value="Rabisin"' in missing  # what was typed stays
    # the card sent with another field wrong: the card is kept, shown, removable
    refused = _vaccine(
        client,
        {**vaccine_form, "vaccine_name": ""},
        rabies_proof=(io.BytesIO(PDF), "carteira.pdf"),
    ).get_data(as_text=True)
    assert "Arquivo já enviado:" in refused and "carteira.pdf" in refused
    held = db.session.scalar(select(DraftFile).where(DraftFile.slot == "rabies_proof"))
    assert held is not None and f'value="{held.id}"' in refused
    assert "Envie uma foto ou o PDF" not in refused
    assert _vaccine(client, vaccine_form).status_code == 302  # no new upload needed
    client.post("/animais/cadastrar/foto", data={}, content_type="multipart/form-data")
    review = client.get("/animais/cadastrar/revisao").get_data(as_text=True)
    assert "Comprovante enviado: carteira.pdf" in review
    assert client.post("/animais/cadastrar/revisao").status_code == 302
    animal = db.session.scalars(select(Animal).where(Animal.owner_id == owner.id)).one()
    assert animal.last_vaccination is not None
    proof = animal.last_vaccination.proof_file
    assert proof is not None and proof.id == held.stored_file_id
    assert (proof.purpose, proof.owner_id, proof.public) == ("vaccination_proof", owner.id, False)
    vet = factories.user(roles=("vet",))
    db.session.commit()
    staff = AuthActions(client)
    staff.logout()
    staff.login(vet)
    queue = client.get("/animais/ccz/pendentes").get_data(as_text=True)
    assert "Ver a carteira enviada" in queue and proof.token in queue


def test_gru_15_v_vaccinating_at_the_ccz_needs_no_card(
    client, auth, animal_form, address_form
) -> None:
    auth.login()
    _first_steps(client, animal_form, address_form)
    assert _vaccine(client, {"choice": "ccz"}).status_code == 302


def test_gru_15_v_bjp_6_only_a_city_whose_law_asks_for_the_proof_requires_the_card(app) -> None:
    from datetime import date

    from portal.blueprints.animals.services import AnimalError, VaccinationData
    from portal.blueprints.animals.validation import check_rabies_proof
    from portal.profiles import load_profile

    data = VaccinationData(
        applied_on=date(2026, 11, 1),
        vaccine_name="Rabisin",
        batch="L1",
        vet_name="Dra. Ana",
        vet_crmv="CRMV 1",
    )
    for key, article in (("guarulhos", "GRU 15 V"), ("bjp", "BJP 6")):
        profile = load_profile(key)
        check_rabies_proof(profile, data, True)
        check_rabies_proof(profile, None, False)  # vaccinating at the CCZ: no card
        try:
            check_rabies_proof(profile, data, False)
        except AnimalError as err:
            assert (err.field, err.code) == ("rabies_vaccination.proof", "missing_proof")
            assert f"({article})" in err.message
        else:
            raise AssertionError(f"{key}: the card must be required")
    for key in ("vilavelha", "cabo", "cabeceira"):
        check_rabies_proof(load_profile(key), data, False)  # their law asks no proof


def test_restart_deletes_the_card_and_the_photo_held_together(
    client, auth, animal_form, address_form, vaccine_form
) -> None:
    # a draft holding two files: discarding it deletes both (on PostgreSQL the draft's rows must
    # go before the files they name, or the foreign key refuses the delete)
    from portal.models import FormDraft, StoredFile
    from tests.factories import png_bytes

    auth.login()
    _first_steps(client, animal_form, address_form)
    _vaccine(client, vaccine_form, rabies_proof=(io.BytesIO(PDF), "carteira.pdf"))
    client.post(
        "/animais/cadastrar/foto",
        data={"photo": (png_bytes(), "foto.png")},
        content_type="multipart/form-data",
    )
    held = [f.stored_file_id for f in db.session.scalars(select(DraftFile))]
    assert len(held) == 2
    answer = client.post("/animais/cadastrar/recomecar", data={"confirmar": "1"})
    assert answer.status_code == 302
    db.session.expire_all()
    assert all(db.session.get(StoredFile, i) is None for i in held)
    assert db.session.scalar(select(FormDraft)) is None
