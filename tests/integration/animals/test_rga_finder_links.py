"""Issue 8 (security 8): the finder form on the public RGA page relays no link to the owner. The
e-mail comes from the city's address; a stranger must not turn it into a phishing message."""

from __future__ import annotations

import re

from sqlalchemy import select

from portal.extensions import db
from portal.models import FinderMessage, OutboxMessage
from tests import factories

LINKS = (
    "https://evil.example/pix",
    "http://golpe.com.br/resgate",
    "www.golpe.com.br",
    "evil.example/x",
    "bit.ly/resgate",
    "HTTPS://EVIL.EXAMPLE",
)
URLISH = re.compile(r"https?://|www\.|evil\.example|golpe\.com|bit\.ly", re.I)


def _animal():  # type: ignore[no-untyped-def]
    owner = factories.user(full_name="Joana Proprietária")
    animal = factories.animal(owner, name="Farofa")
    db.session.commit()
    return owner, animal


def test_links_in_the_finder_message_and_name_never_reach_the_owner(client) -> None:
    owner, animal = _animal()
    message = (
        "Achei na praça central. Para o resgate pague em "
        + " , ".join(LINKS)
        + ". Meu e-mail é carlos.silva@example.com, estava perto do nº 12.5"
    )
    response = client.post(
        f"/rga/{animal.rga}",
        data={
            "finder_name": "Carlos www.golpe.com.br",
            "contact": "carlos.silva@example.com",
            "message": message,
        },
    )
    assert response.status_code == 302
    mail = db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == owner.email))
    assert not URLISH.search(mail.body), mail.body
    assert "[link removido]" in mail.body and "Achei na praça central" in mail.body
    assert "carlos.silva@example.com" in mail.body  # an e-mail address is how to answer
    assert "nº 12.5" in mail.body
    assert not URLISH.search(db.session.scalar(select(FinderMessage)).message)


def test_a_link_as_the_contact_is_refused_and_the_text_kept(client) -> None:
    owner, animal = _animal()
    response = client.post(
        f"/rga/{animal.rga}",
        data={"contact": "https://evil.example/fale-comigo", "message": "Está comigo"},
    )
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "links não são enviados" in html and "Está comigo" in html
    assert db.session.scalar(select(OutboxMessage).where(OutboxMessage.to == owner.email)) is None
