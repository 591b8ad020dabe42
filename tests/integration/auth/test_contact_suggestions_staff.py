"""Staff side of the contact suggestions establishments send (issue 8, security 2): a workspace
queue, a review page, accept (applies, tells the old and the new address) or reject with a reason;
both audited; citizens and vets are refused."""

from __future__ import annotations

import pytest
from flask import g
from sqlalchemy import select

from portal.extensions import db
from portal.models import AuditEvent, ContactSuggestion, OutboxMessage, User
from tests import factories


def _suggestion(person: User, **values: str) -> ContactSuggestion:
    suggestion = ContactSuggestion(
        user_id=person.id,
        source_name="Clínica Segunda",
        **(values or {"email": "novo@example.com", "phone": "11 90000-1111"}),
    )
    db.session.add(suggestion)
    db.session.commit()
    return suggestion


def _mails(to: str) -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == to)))


def _actions() -> list[str]:
    return list(db.session.scalars(select(AuditEvent.action).order_by(AuditEvent.id)))


@pytest.fixture
def owner() -> User:
    person = factories.user(email="antigo@example.com", phone="11 91111-2222")
    db.session.commit()
    return person


def test_pending_suggestions_are_a_workspace_queue_with_a_review_page(client, auth, owner) -> None:
    suggestion = _suggestion(owner)
    auth.login(roles=("agent",))
    queue = client.get("/ccz/filas/sugestoes-de-contato")
    assert queue.status_code == 200
    html = queue.get_data(as_text=True)
    assert owner.full_name in html and "Clínica Segunda" in html and "e-mail, telefone" in html
    review = client.get(f"/ccz/sugestoes-de-contato/{suggestion.id}").get_data(as_text=True)
    assert "novo@example.com" in html or "novo@example.com" in review
    assert owner.cpf not in review  # masked
    assert "contact_suggestion.viewed" in _actions()


def test_staff_accept_applies_the_change_and_tells_the_old_and_new_address(
    client, auth, owner
) -> None:
    suggestion = _suggestion(owner)
    agent = auth.login(roles=("agent",))
    response = client.post(f"/ccz/sugestoes-de-contato/{suggestion.id}/aceitar")
    assert response.status_code == 302 and "/ccz/filas/sugestoes-de-contato" in response.location
    db.session.refresh(owner)
    db.session.refresh(suggestion)
    assert owner.email == "novo@example.com" and owner.phone == "11 90000-1111"
    assert owner.email_confirmed_at is None  # the new address is confirmed anew
    assert suggestion.resolution == "accepted" and suggestion.resolved_by_id == agent.id
    assert any("atualizou seus dados de contato" in m.body for m in _mails("antigo@example.com"))
    new = [m.body for m in _mails("novo@example.com")]
    assert any("atualizou seus dados de contato" in b for b in new)
    assert any("/conta/confirmar/" in b for b in new)
    assert "contact_suggestion.accepted" in _actions()


def test_staff_accept_refuses_an_email_that_belongs_to_someone_else(client, auth, owner) -> None:
    factories.user(email="ocupado@example.com")
    suggestion = _suggestion(owner, email="ocupado@example.com")
    auth.login(roles=("coordinator",))
    response = client.post(
        f"/ccz/sugestoes-de-contato/{suggestion.id}/aceitar", follow_redirects=True
    )
    assert "já está em uso por outra conta" in response.get_data(as_text=True)
    db.session.refresh(owner)
    db.session.refresh(suggestion)
    assert owner.email == "antigo@example.com" and suggestion.resolved_at is None


def test_staff_reject_needs_a_reason_and_leaves_the_record_alone(client, auth, owner) -> None:
    suggestion = _suggestion(owner)
    auth.login(roles=("admin",))
    url = f"/ccz/sugestoes-de-contato/{suggestion.id}/recusar"
    empty = client.post(url, data={"reason": "   "})
    assert "Explique por que a sugestão foi recusada." in empty.get_data(as_text=True)
    response = client.post(url, data={"reason": "A pessoa confirmou no balcão o e-mail atual."})
    assert response.status_code == 302
    db.session.refresh(owner)
    db.session.refresh(suggestion)
    assert owner.email == "antigo@example.com" and owner.phone == "11 91111-2222"
    assert suggestion.resolution == "rejected"
    assert suggestion.rejection_reason == "A pessoa confirmou no balcão o e-mail atual."
    event = db.session.scalars(
        select(AuditEvent).where(AuditEvent.action == "contact_suggestion.rejected")
    ).one()
    assert event.detail is not None and event.detail["motivo"] == suggestion.rejection_reason
    # decided: gone from the queue and from the person's profile
    assert client.get(f"/ccz/sugestoes-de-contato/{suggestion.id}").status_code == 404


@pytest.mark.parametrize("roles", [("citizen",), ("vet",), ("ngo", "citizen")])
def test_only_agents_coordinators_and_admins_decide_suggestions(client, auth, owner, roles) -> None:
    suggestion = _suggestion(owner)
    auth.login(roles=roles)
    for method, path in (
        ("get", ""),
        ("post", "/aceitar"),
        ("post", "/recusar"),
    ):
        g.pop("_login_user", None)
        response = getattr(client, method)(
            f"/ccz/sugestoes-de-contato/{suggestion.id}{path}", data={"reason": "x"}
        )
        assert response.status_code in (302, 403), (roles, path, response.status_code)
        if response.status_code == 302:
            assert "/conta/entrar" not in response.location
    db.session.refresh(suggestion)
    assert suggestion.resolved_at is None
    assert client.get("/ccz/filas/sugestoes-de-contato").status_code in (403, 404)


def test_the_owner_still_decides_on_the_profile_page(client, auth, owner) -> None:
    suggestion = _suggestion(owner, phone="11 93333-4444")
    auth.login(owner)
    client.post(f"/minha-conta/sugestoes/{suggestion.id}/aceitar")
    db.session.refresh(owner)
    assert owner.phone == "11 93333-4444"
    assert "account.suggestion_accepted" in _actions()
