"""The licence request in steps (issue 25): each step kept as a server-side draft, uploads held and
shown (name, thumbnail) and removable, a refusal losing nothing, required marks matching the
checks, what the portal knows pre-filled, one number for the request, the next step with who and
by when, and fees that say what they are for."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest

from portal.blueprints.animals import services as animals
from portal.blueprints.licences import progress, services
from portal.blueprints.licences.todo import DRAFT_KIND
from portal.extensions import db
from portal.models import ExcessLicence, FormDraft, PaymentItem, StoredFile
from portal.services.todo import citizen_todo
from tests import factories
from tests.integration.licences.test_licence_pages import (
    _file,
    _new,
    _request_form,
    adult,
    send_by_steps,
    sent_request,
)


@pytest.fixture
def today(app):  # type: ignore[no-untyped-def]
    return animals.local_today(app.extensions["portal_profile"])


@pytest.fixture
def five_at_home(auth, today):  # type: ignore[no-untyped-def]
    """The signed-in owner and the five adult animals registered at their residence."""
    owner = auth.login()
    pets = [adult(owner, today) for _ in range(5)]
    db.session.commit()
    return owner, pets


def _draft(owner) -> Any:  # type: ignore[no-untyped-def]
    return db.session.scalar(
        db.select(FormDraft).where(FormDraft.owner_id == owner.id, FormDraft.kind == DRAFT_KIND)
    )


def _visible_inputs(html: str) -> int:
    """The inputs a person fills in the page's main content (the header's search left out)."""
    main = html.split("<main", 1)[1].split("</main>", 1)[0]
    found = re.findall(r"<(?:input|textarea|select)\b[^>]*>", main)
    return len([m for m in found if "hidden" not in m])


def test_request_is_four_short_steps_each_saved_on_the_server(
    client, auth, today, five_at_home
) -> None:
    owner, pets = five_at_home
    first = client.get("/licencas/pedido").get_data(as_text=True)
    for label in (
        "Animais da residência",
        "Alojamento e cuidados",
        "Documentos",
        "Revisão e envio",
    ):
        assert label in first
    # Before: one form of ~95 inputs (5 new-animal blocks of 14 fields, every proof). Now the
    # first step has the 5 confirmations and no new-animal block until one is asked for.
    assert _visible_inputs(first) == 5
    assert owner.address_line in first  # the residence the portal knows
    response = client.post(
        "/licencas/pedido", data={f"confirm-{pets[0].id}": "1", "_action": "add_new"}
    )
    assert response.status_code == 302
    draft = _draft(owner)
    assert draft is not None and draft.data[f"confirm-{pets[0].id}"] == "1"
    again = client.get("/licencas/pedido").get_data(as_text=True)
    assert re.search(rf'id="confirm-{pets[0].id}"[^>]*checked', again)
    assert 'id="new_1-name"' in again and 'id="new_2-name"' not in again


def test_what_the_portal_knows_is_pre_filled(client, auth, today, five_at_home) -> None:
    owner, pets = five_at_home
    form = _request_form(pets, asked=7, new=[_new("Mel", today)])
    assert send_by_steps(client, form, until="").status_code == 302
    housing = client.get("/licencas/pedido/alojamento").get_data(as_text=True)
    # 5 registered + 1 new: the number asked for starts at 6
    assert re.search(r'id="animals_requested"[^>]*value="6"', housing)


def test_uploads_are_held_shown_and_removable_and_a_refusal_keeps_them(
    client, auth, today, five_at_home
) -> None:
    owner, pets = five_at_home
    form = _request_form(pets, asked=6, new=[_new("Mel", today)])
    del form[f"sterilisation-{pets[4].id}"]  # one proof missing: the step is refused
    response = send_by_steps(client, form, until="documentos")
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Envie este documento: Comprovante de esterilização de " + pets[4].name in html
    # Before: every file was gone after a refusal and nothing said so. Now each is held and named.
    assert html.count("Guardado:") == 4 + 1  # the 4 proofs sent and Mel's
    draft = _draft(owner)
    assert len(draft.files) == 4 + 1 + 1  # and the housing photo of step 2
    photos = client.get("/licencas/pedido/alojamento").get_data(as_text=True)
    assert (
        re.search(r'<img src="/arquivos/[0-9a-f]+/thumbnail"', photos) and "quintal.png" in photos
    )
    held = [f for f in draft.files if f.slot == f"sterilisation-{pets[0].id}"][0]
    client.post(f"/licencas/pedido/arquivo/{held.id}/remover?voltar=documentos")
    db.session.expire_all()
    assert len(_draft(owner).files) == 5
    # the two proofs now missing are sent; the review then sends the request
    response = client.post(
        "/licencas/pedido/documentos",
        data={f"sterilisation-{pets[0].id}": _file(), f"sterilisation-{pets[4].id}": _file()},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302 and response.headers["Location"].endswith("/revisao")


def test_a_refusal_at_the_end_keeps_the_draft_and_its_files(client, auth, today, gru) -> None:
    owner = auth.login()
    pets = [adult(owner, today) for _ in range(6)]
    db.session.commit()
    response = send_by_steps(client, _request_form(pets, asked=6), until="documentos")
    assert response.status_code == 302
    other = factories.user(street=owner.street, number=owner.number, cep=owner.cep)
    db.session.add(
        ExcessLicence(
            code="AAAA-BBBB-CCCC",
            holder_id=other.id,
            residence_key=pets[0].residence_key,
            address_line="x",
            animals_requested=6,
            requested_on=today,
        )
    )
    db.session.commit()
    review = client.post("/licencas/pedido/revisao", data={})
    html = review.get_data(as_text=True)
    assert review.status_code == 200 and "Já existe um pedido de licença em análise" in html
    draft = _draft(owner)
    assert draft is not None and len(draft.files) == 7
    assert {f.stored_file.purpose for f in draft.files} == {"draft"}


def test_gru_37_par1_i_required_marks_match_what_is_refused(
    client, auth, today, five_at_home
) -> None:
    owner, pets = five_at_home
    form = _request_form(pets, asked=6, new=[_new("Mel", today)])
    assert send_by_steps(client, form, until="alojamento").status_code == 302
    page = client.get("/licencas/pedido/documentos").get_data(as_text=True)
    marked = set(re.findall(r'<label for="([^"]+)">[^<]*<span class="portal-required"', page))
    # Before: the new animal's sterilisation proof had no * but was required (GRU 37 §1 I).
    assert marked == {f"sterilisation-{p.id}" for p in pets} | {"new_1-sterilisation_proof"}
    refused = client.post("/licencas/pedido/documentos", data={})  # nothing sent: marks refused
    refused_html = refused.get_data(as_text=True)
    for slot in marked:
        assert f'id="{slot}-erro"' in refused_html
    housing = client.get("/licencas/pedido/alojamento").get_data(as_text=True)
    assert re.search(
        r'<label for="housing_description">[^<]*<span class="portal-required"', housing
    )


def test_request_page_one_number_next_step_who_and_by_when(
    client, auth, today, five_at_home
) -> None:
    owner, pets = five_at_home
    send_by_steps(
        client, _request_form(pets, asked=7, new=[_new("Mel", today), _new("Bia", today)])
    )
    licence = db.session.scalars(db.select(ExcessLicence)).one()
    html = client.get(f"/licencas/minhas/{licence.id}").get_data(as_text=True)
    assert f"Pedido nº {licence.id}" in html
    # Before: "Número pedido 7" beside "Pedido nº 1".
    assert "Número pedido" not in html and "Quantidade de animais pedida" in html
    due = (today + timedelta(days=30)).strftime("%d/%m/%Y")
    assert "Próximo passo" in html and "equipe de licenças do CCZ" in html and due in html
    assert _draft(owner) is None  # sent: the draft is gone, its files are the request's
    assert {f.stored_file.purpose for f in licence.files} == {"licence_photo"}


def test_gru_22_i_each_fee_says_which_animal_and_request_and_the_list_explains_them(
    client, auth, today, five_at_home
) -> None:
    owner, pets = five_at_home
    send_by_steps(
        client, _request_form(pets, asked=7, new=[_new("Mel", today), _new("Bia", today)])
    )
    licence = db.session.scalars(db.select(ExcessLicence)).one()
    items = db.session.scalars(db.select(PaymentItem).where(PaymentItem.payer_id == owner.id)).all()
    # One registration fee per animal registered (GRU 22 I charges per registration): two here.
    assert len(items) == 2
    for item in items:
        assert f"pedido de licença nº {licence.id}" in item.description
        assert "GRU 22 I" in item.description
    assert {i.description.split(" de ", 1)[1].split(",")[0] for i in items} == {"Mel", "Bia"}
    home = client.get("/").get_data(as_text=True)
    assert f"Pedido de licença nº {licence.id}: 2 taxas de registro, total de R$ 50,00" in home
    assert "a licença em si não tem taxa" in home


def test_the_decision_reaches_the_home_to_do_list(client, auth, today, gru) -> None:
    owner = factories.user()
    pets = [adult(owner, today) for _ in range(6)]
    staff = factories.user(roles=("agent",))
    licence = sent_request(owner, pets, profile=gru, today=today)
    texts = [t.text for t in citizen_todo(owner)]
    assert any(f"Pedido de licença nº {licence.id} em análise" in t for t in texts)
    services.approve(
        licence, staff, max_animals=6, covered_ids=None, reason=None, profile=gru, today=today
    )
    texts = [t.text for t in citizen_todo(owner)]
    assert any(f"Licença aprovada (pedido nº {licence.id})" in t for t in texts)


def test_draft_files_stay_private_to_their_owner(client, auth, today, five_at_home) -> None:
    owner, pets = five_at_home
    send_by_steps(client, _request_form(pets, asked=6), until="alojamento")
    stored = db.session.scalars(db.select(StoredFile).where(StoredFile.purpose == "draft")).first()
    assert stored is not None
    seen = client.get(f"/arquivos/{stored.token}/thumbnail")
    assert seen.status_code == 200
    seen.close()
    auth.logout()
    auth.login()
    assert client.get(f"/arquivos/{stored.token}/thumbnail").status_code == 404


def test_gru_37_par1_v_renewal_in_steps_starts_from_the_current_licence(client, auth, today, gru):
    from tests.integration.licences.test_licence_rules import licensed_household

    owner, licence, _staff = licensed_household(gru, base=6, on=today - timedelta(days=340))
    db.session.commit()
    auth.login(owner)
    pets = [link.animal for link in licence.animals]
    query = f"?renova={licence.id}"
    first = client.get("/licencas/pedido" + query).get_data(as_text=True)
    assert "Renovar a licença especial" in first and 'id="new_1-name"' not in first
    data = {f"confirm-{p.id}": "1" for p in pets}
    assert client.post("/licencas/pedido" + query, data=data).status_code == 302
    housing = client.get("/licencas/pedido/alojamento" + query).get_data(as_text=True)
    assert re.search(r'id="animals_requested"[^>]*value="6"', housing)  # the licence's number
    assert licence.housing_description in housing
    assert _draft(owner).key == f"renova-{licence.id}"
    client.post(
        "/licencas/pedido/alojamento" + query,
        data={"animals_requested": "6", "housing_description": licence.housing_description},
    )
    proofs = {f"sterilisation-{p.id}": _file() for p in pets}
    proofs.update({f"rabies-{p.id}": _file() for p in pets})  # last year's shots have expired
    documents = client.post(
        "/licencas/pedido/documentos" + query, data=proofs, content_type="multipart/form-data"
    )
    assert documents.status_code == 302, documents.get_data(as_text=True)[-3000:]
    sent = client.post("/licencas/pedido/revisao" + query, data={})
    assert sent.status_code == 302, sent.get_data(as_text=True)[-3000:]
    renewal = db.session.scalars(
        db.select(ExcessLicence).where(ExcessLicence.renews_id == licence.id)
    ).one()
    assert renewal.animals_requested == 6


def test_only_the_owner_removes_a_file_of_their_draft(client, auth, today, five_at_home) -> None:
    owner, pets = five_at_home
    send_by_steps(client, _request_form(pets, asked=6), until="alojamento")
    held = _draft(owner).files[0]
    auth.logout()
    auth.login()
    assert client.post(f"/licencas/pedido/arquivo/{held.id}/remover").status_code == 404
    db.session.expire_all()
    assert len(_draft(owner).files) == 1


def test_lgpd_download_holds_the_unsent_draft_and_its_files(client, auth, today) -> None:
    """A draft is the person's data (LGPD art. 18 II): the download lists what was typed and the
    files held, and only the person's own drafts."""
    owner = auth.login()
    pets = [adult(owner, today) for _ in range(5)]
    db.session.commit()
    form = _request_form(pets, asked=6, new=[_new("Mel", today)])
    del form[f"sterilisation-{pets[4].id}"]
    send_by_steps(client, form, until="documentos")
    data = client.get("/minha-conta/meus-dados.json").get_json()
    (draft,) = data["rascunhos"]
    assert draft["formulario"] == DRAFT_KIND
    assert draft["valores"] and len(draft["arquivos"]) == 4 + 1 + 1
    assert {"campo", "nome"} <= set(draft["arquivos"][0])
    auth.logout()
    auth.login()
    assert client.get("/minha-conta/meus-dados.json").get_json()["rascunhos"] == []


def test_licence_decision_target_is_the_programme_policy_of_the_profile(
    app, today, gru, monkeypatch
) -> None:
    """The laws set no deadline to decide (GRU 37 §1): the CCZ's target is the profile's
    programme policy, so a city changes it in its file, not in the code."""
    owner = factories.user()
    licence = sent_request(owner, [adult(owner, today) for _ in range(6)], profile=gru, today=today)
    assert progress.decision_due(licence) == licence.requested_on + timedelta(days=30)
    programme = gru.programme.model_copy(update={"licence_decision_target_days": 45})
    monkeypatch.setitem(
        app.extensions, "portal_profile", gru.model_copy(update={"programme": programme})
    )
    assert progress.decision_due(licence) == licence.requested_on + timedelta(days=45)
    assert progress.next_step(licence, today).by == licence.requested_on + timedelta(days=45)
