"""Issue 26 High #1, as the attacker walked it: the duplicate-report offer told anyone who reported
an address (the reported neighbour included) the protocol of the report already open there, let
them "join" it with ``join_protocol`` and then read the CCZ's replies to the first reporter on their
own tracking page.

Now a new reporter is never told about another report, a posted ``join_protocol`` joins nothing,
merging is the staff's decision, and a merged report's page and e-mails carry only its own
messages and the case's bare state."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from portal.blueprints.reports import services as svc
from portal.extensions import db
from portal.models import MaltreatmentReport, OutboxMessage
from tests import factories
from tests.factories import inspect_report, report_form_data, submit

REPLY = "Obrigado, Sra. Maria. A vistoria será amanhã às 9h."
MARIA = {"identity": "confidential", "name": "Maria Primeira", "email": "maria@example.com"}


@pytest.fixture
def maria(app, coordinator, agent):  # type: ignore[no-untyped-def]
    """Maria's confidential report, triaged, with a public reply written to her."""
    _r, report, _code = submit(app.test_client(), **MARIA)
    svc.triage_valid(report, coordinator, agent, svc.local_today(), svc.local_today())
    svc.add_reply(report, coordinator, REPLY, public=True)
    db.session.commit()
    return report


def _texts(*responses) -> str:  # type: ignore[no-untyped-def]
    return "\n".join(r.get_data(as_text=True) for r in responses)


def _follow(client, response) -> str:  # type: ignore[no-untyped-def]
    """The receipt, then the tracking page of the report just sent."""
    assert response.status_code == 302, response.status_code
    receipt = client.get(response.headers["Location"])
    protocol = response.headers["Location"].rsplit("/", 1)[-1]
    page = client.get(f"/denuncias/acompanhar/{protocol}")
    return _texts(receipt, page)


@pytest.mark.parametrize("signed_in", [False, True])
def test_attacker_learns_nothing_of_the_report_already_at_the_address(
    app, maria, signed_in
) -> None:
    attacker = app.test_client()
    if signed_in:
        person = factories.user(roles=("citizen",), full_name="Vizinho Denunciado")
        db.session.commit()
        attacker.post("/conta/entrar", data={"email": person.email, "password": factories.PASSWORD})
    # 1. The same address: the answer is an ordinary receipt, the other protocol nowhere.
    response = attacker.post("/denuncias/nova", data=_form())
    text = _texts(response) + _follow(attacker, response)
    assert maria.protocol not in text and "Sra. Maria" not in text
    assert "Juntar" not in text and "Já existe uma denúncia" not in text
    # 2. Posting the protocol anyway (read elsewhere, or guessed: they are sequential).
    joined = attacker.post("/denuncias/nova", data=_form(join_protocol=maria.protocol))
    page = _follow(attacker, joined)
    assert maria.protocol not in page and "Sra. Maria" not in page and REPLY not in page
    protocol = joined.headers["Location"].rsplit("/", 1)[-1]
    report = db.session.scalar(
        select(MaltreatmentReport).where(MaltreatmentReport.protocol == protocol)
    )
    assert report is not None and report.state == "triage" and report.merged_into_id is None


def test_attacker_cannot_read_the_first_reporters_messages_even_once_merged(
    app, client, auth, coordinator, maria
) -> None:
    attacker = app.test_client()
    response = attacker.post(
        "/denuncias/nova",
        # Another way of naming the place (no duplicate found): only the staff link the two.
        data=_form(
            identity="confidential",
            name="Curioso",
            email="curioso@example.com",
            street="Rua Lateral",
            number="5",
        ),
    )
    assert response.status_code == 302
    protocol = response.headers["Location"].rsplit("/", 1)[-1]
    _follow(attacker, response)
    # The staff judge it the same case and merge it (their decision, not the reporter's).
    auth.login(coordinator)
    client.post(f"/ccz/denuncias/{protocol}/juntar", data={"target": maria.protocol})
    svc.add_reply(maria, coordinator, "Sra. Maria, o animal foi recolhido.", public=True)
    db.session.commit()
    page = attacker.get(f"/denuncias/acompanhar/{protocol}").get_data(as_text=True)
    assert "Juntada" in page or "juntas" in page  # the attacker's own status
    assert maria.protocol not in page and "Sra. Maria" not in page and REPLY not in page
    assert maria.description not in page
    mails = db.session.scalars(
        select(OutboxMessage).where(OutboxMessage.to == "curioso@example.com")
    ).all()
    assert mails  # the attacker's own receipt and status change
    for mail in mails:
        assert maria.protocol not in mail.body and "Sra. Maria" not in mail.body


def test_the_merged_reporter_reads_the_case_state_without_the_other_reports_text(
    app, client, auth, coordinator, agent, maria
) -> None:
    second = app.test_client()
    response = second.post("/denuncias/nova", data=_form(street="Rua Lateral", number="5"))
    assert response.status_code == 302
    protocol = response.headers["Location"].rsplit("/", 1)[-1]
    _follow(second, response)
    auth.login(coordinator)
    client.post(f"/ccz/denuncias/{protocol}/juntar", data={"target": maria.protocol})
    inspect_report(maria, agent, "notice_needed")
    svc.close_after_handover(maria, coordinator, "Sra. Maria, o responsável foi notificado.")
    db.session.commit()
    page = second.get(f"/denuncias/acompanhar/{protocol}").get_data(as_text=True)
    assert 'id="situacao">Encerrada<' in page  # the case's state
    assert "Sra. Maria" not in page and "notificado" not in page


def _form(**overrides):  # type: ignore[no-untyped-def]
    return report_form_data(**overrides)
