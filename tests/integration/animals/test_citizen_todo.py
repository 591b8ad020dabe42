"""Issue 8 item 5: "Meus animais" and the home page tell a signed-in citizen what is left to do,
each item with its action, gathered by ``citizen_todo`` from the providers domains register."""

from __future__ import annotations

from flask import url_for
from sqlalchemy import select

from portal.blueprints.animals import services
from portal.extensions import db
from portal.models import Animal, PaymentItem
from portal.services import todo
from portal.wiring import wiring
from tests import factories


def _setup(client, auth, walk_wizard, app, today):
    owner = auth.login()
    assert walk_wizard().status_code == 302  # fee to pay + vaccination proof awaiting the CCZ
    registered = db.session.scalar(select(Animal).where(Animal.owner_id == owner.id))
    profile = app.extensions["portal_profile"]
    giver = factories.user(full_name="Carlos Doador")
    offered = factories.animal(giver, name="Pingo")
    offer = services.transfer_animal(
        offered, owner, immediate=False, profile=profile, today=today, reason="citizen"
    )
    mine = factories.animal(owner, name="Thor")
    copy = services.request_copy(mine, "card", requested_by=owner, profile=profile, today=today)
    # someone else's things never show up
    stranger = factories.user()
    services.request_copy(
        factories.animal(stranger, name="Alheio"),
        "tag",
        requested_by=stranger,
        profile=profile,
        today=today,
    )
    db.session.commit()
    return owner, registered, copy, offer


def test_citizen_todo_gathers_every_domain_with_actions(
    client, auth, walk_wizard, app, today
) -> None:
    owner, registered, copy, offer = _setup(client, auth, walk_wizard, app, today)
    with app.test_request_context():
        items = todo.citizen_todo(owner)
        by_kind = {item.kind: item for item in items}
        fee = db.session.get(PaymentItem, registered.fee_item_id)
        assert fee is not None
        assert set(by_kind) == {"payment", "transfer", "proof", "copy"}
        assert items[0].kind == "payment"  # money owed first
        payments = [i for i in items if i.kind == "payment"]
        assert {i.url for i in payments} == {
            url_for("billing.item", item_id=fee.id),
            url_for("billing.item", item_id=copy.payment_item_id),
        }
        assert "Pingo" in by_kind["transfer"].text and "Carlos Doador" in by_kind["transfer"].text
        assert by_kind["transfer"].url == url_for("animals.transfer_review", transfer_id=offer.id)
        assert by_kind["proof"].url == url_for("animals.detail", rga=registered.rga)
        assert by_kind["copy"].url == url_for("animals.copy_pdf", copy_id=copy.id)
        assert all("Alheio" not in i.text for i in items)


def test_my_animals_and_home_show_the_todo_list(client, auth, walk_wizard, app, today) -> None:
    owner, registered, copy, offer = _setup(client, auth, walk_wizard, app, today)
    for page in ("/animais/", "/"):
        html = client.get(page).get_data(as_text=True)
        assert "O que falta fazer" in html
        assert "quer transferir Pingo" in html and "Responder" in html
        assert "Comprovante de vacinação de Bolinha aguardando conferência do CCZ" in html
        assert f"/animais/segunda-via/{copy.id}/documento-provisorio.pdf" in html
        assert f"/pagamentos/{registered.fee_item_id}" in html and ">Pagar<" in html
        assert "Alheio" not in html


def test_nothing_to_do_shows_no_list(client, auth) -> None:
    owner = auth.login()
    factories.animal(owner, name="Tudo certo")
    db.session.commit()
    assert "O que falta fazer" not in client.get("/").get_data(as_text=True)
    assert "O que falta fazer" not in client.get("/animais/").get_data(as_text=True)


def test_a_later_domain_adds_its_items_by_registering_a_provider(app, client, auth) -> None:
    owner = auth.login()

    def notices(user):
        return (
            [
                todo.TodoItem(
                    "notice",
                    "Responder à notificação 12/2026.",
                    "/notificacoes/12",
                    "Responder",
                    order=5,
                )
            ]
            if user.id == owner.id
            else []
        )

    wiring(app).todo("test-notices", notices)  # what a domain's init_app does
    html = client.get("/").get_data(as_text=True)
    assert "Responder à notificação 12/2026." in html and 'href="/notificacoes/12"' in html
