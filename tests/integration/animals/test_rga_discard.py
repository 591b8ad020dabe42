"""Issue 25: the RGA wizard's "discard" sits away from "Confirmar" and takes a second step that
says what is lost; one tap no longer throws the draft away."""

from __future__ import annotations


def test_one_post_without_confirmation_keeps_the_draft_and_shows_what_would_be_lost(
    client, auth, animal_form
) -> None:
    auth.login()
    client.post("/animais/cadastrar", data=animal_form())
    page = client.post("/animais/cadastrar/recomecar").get_data(as_text=True)
    assert "Descartar o cadastro?" in page
    assert "Bolinha" in page and "<li>Animal</li>" in page  # what is lost, named
    assert "Sim, descartar tudo" in page
    assert "Bolinha" in client.get("/animais/cadastrar/recomecar").get_data(as_text=True)


def test_the_confirmation_page_discards_only_with_its_own_button(client, auth, animal_form) -> None:
    auth.login()
    client.post("/animais/cadastrar", data=animal_form())
    assert "Bolinha" in client.get("/animais/cadastrar/recomecar").get_data(as_text=True)
    response = client.post("/animais/cadastrar/recomecar", data={"confirmar": "1"})
    assert response.status_code == 302
    assert "Bolinha" not in client.get("/animais/cadastrar/recomecar").get_data(as_text=True)


def test_the_review_step_has_no_one_tap_discard_button(client, auth, animal_form) -> None:
    from portal.blueprints.animals import wizard

    assert hasattr(wizard, "draft_summary")
    auth.login()
    html = client.get("/animais/cadastrar/recomecar").get_data(as_text=True)
    assert "Não há nada preenchido neste cadastro." in html
