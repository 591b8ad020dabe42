"""The registration wizard as a person uses it: steps shown again keep a CSRF token, a short
microchip is refused at the first step, a double tap on "Confirmar" issues one RGA, the back
button after registering starts an empty form."""

from __future__ import annotations

from sqlalchemy import func, select

from portal.extensions import db
from portal.models import Animal


def _count() -> int:
    return db.session.scalar(select(func.count(Animal.id))) or 0


def test_a_step_shown_again_from_the_draft_carries_a_csrf_token(
    app, client, auth, animal_form
) -> None:
    """Going back to a filled step (link "Voltar", the back button, an error sent back from the
    review) re-shows it from the draft; without a token its next submission was refused as
    "sessão expirada"."""
    auth.login()
    client.post("/animais/cadastrar", data=animal_form())
    app.config["WTF_CSRF_ENABLED"] = True
    try:
        html = client.get("/animais/cadastrar").get_data(as_text=True)
    finally:
        app.config["WTF_CSRF_ENABLED"] = False
    assert 'value="Bolinha"' in html and 'name="csrf_token"' in html


def test_short_microchip_is_refused_at_the_first_step(client, auth, animal_form) -> None:
    auth.login()
    response = client.post("/animais/cadastrar", data=animal_form(microchip="123"))
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Número do microchip inválido" in html
    assert 'value="123"' in html  # nothing typed is lost


def test_double_submit_of_the_last_step_issues_one_rga(client, auth, walk_wizard) -> None:
    """A double tap sends the review twice with the same session cookie (the browser drops the
    first answer): the second POST must not register the animal again."""
    auth.login()
    walk_wizard(confirm=False)
    with client.session_transaction() as sess:
        draft = sess["rga_draft"]
    first = client.post("/animais/cadastrar/revisao")
    with client.session_transaction() as sess:
        sess["rga_draft"] = draft  # the second request still carries the old cookie
    second = client.post("/animais/cadastrar/revisao")
    animal = db.session.scalars(select(Animal)).one()
    assert _count() == 1
    assert first.headers["Location"] == second.headers["Location"]
    assert second.headers["Location"].endswith(f"/animais/{animal.rga}/")
    page = client.get(second.headers["Location"]).get_data(as_text=True)
    assert "já foi registrado" in page


def test_back_button_after_registering_starts_a_new_empty_form(client, auth, walk_wizard) -> None:
    auth.login()
    walk_wizard()
    response = client.get("/animais/cadastrar/revisao")
    assert response.status_code == 302 and response.headers["Location"].endswith(
        "/animais/cadastrar"
    )
    assert 'value="Bolinha"' not in client.get("/animais/cadastrar").get_data(as_text=True)
    assert _count() == 1
