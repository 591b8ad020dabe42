"""Issue 25: staff's decision on a representative's power of attorney (GRU 107 §2 III), taken on
the staff page, reaches the representative by e-mail and on their to-do list: pending, the home
page says it is in analysis; accepted, the document is theirs to follow; refused, the to-do says
so and what to do."""

from __future__ import annotations

from sqlalchemy import select

from portal.extensions import db
from portal.models import OutboxMessage, Petition
from tests import factories
from tests.integration.security.test_company_addressee import (  # noqa: F401 (fixture)
    _bearer_files,
    company_notice,
)


def _decide(client, auth, petition: Petition, answer: str):
    auth.logout()
    auth.login(factories.user(roles=("coordinator",)))
    return client.post(
        f"/ccz/fiscalizacao/peticoes/{petition.id}/representacao", data={"answer": answer}
    )


def _mail(to: str) -> list[OutboxMessage]:
    return list(db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == to)))


def test_gru_107_2_iii_accepted_representation_is_mailed_and_the_document_is_on_the_list(
    client,
    auth,
    company_notice,  # noqa: F811
) -> None:
    doc = company_notice
    lawyer, filed = _bearer_files(client, auth, doc)
    assert f"Sua representação no documento {doc.number} está em análise" in client.get("/").text
    assert not _mail(lawyer.email)
    answer = _decide(client, auth, filed, "aceitar")
    assert answer.status_code == 302
    (told,) = _mail(lawyer.email)
    assert doc.number in told.subject and "foi aceita" in told.body
    assert "Minhas notificações" in told.body
    auth.logout()
    auth.login(lawyer)
    home = client.get("/").text
    assert "em análise" not in home and doc.number in home  # its petition, now theirs to follow
    assert doc.number in client.get("/minhas-notificacoes").text


def test_gru_107_2_iii_refused_representation_is_mailed_and_on_the_to_do(
    client,
    auth,
    company_notice,  # noqa: F811
) -> None:
    doc = company_notice
    lawyer, filed = _bearer_files(client, auth, doc)
    assert _decide(client, auth, filed, "recusar").status_code == 302
    (told,) = _mail(lawyer.email)
    assert "foi recusada" in told.body and "procuração válida" in told.body
    auth.logout()
    auth.login(lawyer)
    home = client.get("/").text
    assert f"Sua representação no documento {doc.number} foi recusada" in home
