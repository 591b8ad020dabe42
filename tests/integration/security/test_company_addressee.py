"""Issue 26 High #2, the attacker journey: requesting an establishment cadastro with another
company's CNPJ (pending, or refused by staff) must not make anyone the addressee of that CNPJ's
notices. Only the responsible of the *active* cadastro, or a representative whose power of
attorney staff accepted, sees them in "Minhas notificações", the PDF, the petition form, the
to-do list and the LGPD export; the printed access code opens one document to its bearer."""

from __future__ import annotations

import io
from datetime import UTC, date, datetime, time

import pytest
from sqlalchemy import select

from portal.blueprints.enforcement import services
from portal.blueprints.enforcement.services import Addressee
from portal.blueprints.establishments import services as establishments
from portal.extensions import db
from portal.models import (
    EnforcementDocument,
    Establishment,
    EstablishmentStatus,
    OutboxMessage,
    Petition,
    RepresentationStatus,
    UnitValue,
)
from tests import factories
from tests.integration.enforcement.test_issuing_edges import _establishment

TODAY = date(2026, 11, 30)


@pytest.fixture
def company_notice(app):  # type: ignore[no-untyped-def]
    """An infraction issued to a company by CNPJ and served: it has a defence term running."""
    db.session.add(UnitValue(unit="UFG", value_cents=480, effective_from=date(2020, 1, 1)))
    profile = app.extensions["portal_profile"]
    agent = factories.user(roles=("agent",), full_name="Ana Agente")
    cnpj = factories.make_cnpj()
    doc = services.issue_document(
        profile,
        kind="infraction",
        agent=agent,
        addressee=Addressee(
            "Pet Shop Verdadeiro Ltda", cnpj=cnpj, activity="Pet shop", address="Rua B, 20"
        ),
        fact="Animais expostos sem água",
        place="Rua B, 20",
        occurred_at=datetime.combine(date(2026, 11, 20), time(13), tzinfo=UTC),
        legal_provision="GRU 37",
        agent_title="Agente sanitário",
        fine_inputs={"severity": "medio", "units": "100", "units_reason": "risco à saúde"},
        today=TODAY,
    )
    day = doc.issued_at.date()
    services.record_service(
        profile, doc, method="signed", service_on=day, note=None, actor=agent, today=day
    )
    db.session.commit()
    return doc


def _cadastro(user, cnpj: str, status: str) -> Establishment:  # type: ignore[no-untyped-def]
    place = _establishment(user, cnpj, "Pet Shop Verdadeiro Ltda")
    place.status = status
    db.session.commit()
    return place


def _file_as_representative(client, doc: EnforcementDocument):  # type: ignore[no-untyped-def]
    """The bearer of the printed code files a defence with a power of attorney."""
    return client.post(
        f"/minhas-notificacoes/{doc.id}/peticao",
        data={
            "text": "Defesa da empresa",
            "power_of_attorney": (io.BytesIO(b"%PDF-1.4 procuracao"), "procuracao.pdf"),
        },
        content_type="multipart/form-data",
    )


def _sees_nothing(client, doc: EnforcementDocument) -> None:  # type: ignore[no-untyped-def]
    assert doc.number not in client.get("/minhas-notificacoes").get_data(as_text=True)
    assert client.get(f"/minhas-notificacoes/{doc.id}").status_code == 404
    assert client.get(f"/minhas-notificacoes/{doc.id}/documento.pdf").status_code == 404
    filed = client.post(
        f"/minhas-notificacoes/{doc.id}/peticao", data={"text": "Defesa em nome da empresa"}
    )
    assert filed.status_code == 404
    assert db.session.query(Petition).filter_by(document_id=doc.id).count() == 0
    assert doc.number not in client.get("/").get_data(as_text=True)  # to-do list
    assert doc.number not in client.get("/minha-conta/meus-dados.json").get_data(as_text=True)


def test_requesting_a_cadastro_with_someone_elses_cnpj_shows_none_of_its_notices(
    client, auth, company_notice
):
    doc = company_notice
    attacker = factories.user(roles=("citizen",), full_name="Mallory Curiosa")
    db.session.commit()
    place = _cadastro(attacker, doc.addressee_cnpj, EstablishmentStatus.REQUESTED)
    auth.login(attacker)
    _sees_nothing(client, doc)  # pending: no proof, not approved
    staff = factories.user(roles=("coordinator",))
    establishments.refuse(place, staff, "CNPJ de outra empresa")
    db.session.commit()
    _sees_nothing(client, doc)  # refused
    assert services.is_addressee(doc, attacker) is False


def test_the_responsible_of_the_active_cadastro_is_the_addressee(client, auth, company_notice):
    doc = company_notice
    owner = factories.user(roles=("citizen",), full_name="Dona Verdadeira")
    db.session.commit()
    _cadastro(owner, doc.addressee_cnpj, EstablishmentStatus.ACTIVE)
    auth.login(owner)
    assert doc.number in client.get("/minhas-notificacoes").get_data(as_text=True)
    assert client.get(f"/minhas-notificacoes/{doc.id}/documento.pdf").status_code == 200
    assert doc.number in client.get("/minha-conta/meus-dados.json").get_data(as_text=True)


def test_reminders_go_to_the_active_cadastro_not_to_a_mere_requester(company_notice):
    from portal.blueprints.enforcement.addressees import recipient

    doc = company_notice
    owner = factories.user(roles=("citizen",), full_name="Dona Verdadeira")
    attacker = factories.user(roles=("citizen",), full_name="Mallory Curiosa")
    db.session.commit()
    _cadastro(owner, doc.addressee_cnpj, EstablishmentStatus.ACTIVE)
    _cadastro(attacker, doc.addressee_cnpj, EstablishmentStatus.REFUSED)  # the newest
    assert recipient(doc) == owner


def test_gru_107_the_bearer_of_the_code_files_with_a_power_of_attorney_staff_accept_it(
    client, auth, company_notice
):
    doc = company_notice
    lawyer = factories.user(roles=("citizen",), full_name="Pedro Procurador")
    judge = factories.user(roles=("coordinator",), full_name="Carla Coordenadora")
    db.session.commit()
    auth.login(lawyer)
    _sees_nothing(client, doc)
    opened = client.post(
        "/verificar-documento",
        data={"number": doc.number, "code": services.printed_code(doc)},
    )
    assert opened.status_code == 200
    assert client.get(f"/minhas-notificacoes/{doc.id}/documento.pdf").status_code == 200
    filed = _file_as_representative(client, doc)
    assert filed.status_code == 302
    petition = db.session.query(Petition).filter_by(document_id=doc.id).one()
    assert petition.representation_status == RepresentationStatus.PENDING
    # pending: the representative is not an addressee; the list stays empty
    assert doc.number not in client.get("/minhas-notificacoes").get_data(as_text=True)
    auth.logout()
    auth.login(judge)
    page = client.get(f"/ccz/fiscalizacao/{doc.id}").get_data(as_text=True)
    assert "Aceitar a representação" in page
    answer = client.post(
        f"/ccz/fiscalizacao/peticoes/{petition.id}/representacao", data={"answer": "aceitar"}
    )
    assert answer.status_code == 302
    assert petition.representation_status == RepresentationStatus.ACCEPTED
    told = db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == lawyer.email)).all()
    assert [m.subject for m in told] == [f"Representação – documento {doc.number}"]
    assert "foi aceita" in told[0].body and "Minhas notificações" in told[0].body
    auth.logout()
    auth.login(lawyer)
    assert doc.number in client.get("/minhas-notificacoes").get_data(as_text=True)


def test_a_refused_representation_gives_no_access(client, auth, company_notice):
    doc = company_notice
    lawyer = factories.user(roles=("citizen",), full_name="Pedro Procurador")
    judge = factories.user(roles=("coordinator",))
    db.session.commit()
    auth.login(lawyer)
    client.post(
        "/verificar-documento", data={"number": doc.number, "code": services.printed_code(doc)}
    )
    _file_as_representative(client, doc)
    filed = db.session.query(Petition).filter_by(document_id=doc.id).one()
    from portal.blueprints.enforcement.addressees import decide_representation

    decide_representation(filed, judge, accept=False)
    db.session.commit()
    told = db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == lawyer.email)).all()
    assert len(told) == 1 and "foi recusada" in told[0].body
    assert services.is_addressee(doc, lawyer) is False
    assert doc.number not in client.get("/minhas-notificacoes").get_data(as_text=True)


def test_verify_by_number_in_the_query_is_rate_limited_like_the_form(client):
    # issue 26 Low #6: GET /verificar-documento?number=… lists documents; numbers are sequential
    codes = [
        client.get(f"/verificar-documento?number=AI-2026-{n:06d}").status_code for n in range(21)
    ]
    assert codes[-1] == 429 and 429 not in codes[:20]
    assert client.get("/verificar-documento").status_code == 200  # the empty form stays open


def _bearer_files(client, auth, doc: EnforcementDocument):  # type: ignore[no-untyped-def]
    lawyer = factories.user(roles=("citizen",), full_name="Pedro Procurador")
    db.session.commit()
    auth.login(lawyer)
    client.post(
        "/verificar-documento", data={"number": doc.number, "code": services.printed_code(doc)}
    )
    _file_as_representative(client, doc)
    return lawyer, db.session.query(Petition).filter_by(document_id=doc.id).one()


def test_the_representations_answer_is_on_the_representatives_to_do(client, auth, company_notice):
    # issue 25: every decision reaches its person by e-mail *and* on the home page; pending or
    # refused, the document is not on their list, so the to-do says where the power stands
    from portal.blueprints.enforcement.addressees import decide_representation

    doc = company_notice
    _lawyer, filed = _bearer_files(client, auth, doc)
    home = client.get("/").get_data(as_text=True)
    assert f"Sua representação no documento {doc.number} está em análise" in home
    decide_representation(filed, factories.user(roles=("coordinator",)), accept=False)
    db.session.commit()
    home = client.get("/").get_data(as_text=True)
    assert f"Sua representação no documento {doc.number} foi recusada" in home
    assert "em análise" not in home


def test_the_accepted_representative_gets_a_copy_of_the_decision(app, client, auth, company_notice):
    from portal.blueprints.enforcement.addressees import decide_representation
    from portal.services.clock import local_today

    doc = company_notice
    lawyer, filed = _bearer_files(client, auth, doc)
    judge = factories.user(roles=("coordinator",))
    decide_representation(filed, judge, accept=True)
    services.decide_petition(
        app.extensions["portal_profile"], filed, judge, grant=True, reason="Provas aceitas",
        method="signed", service_on=local_today(), today=local_today(),
    )  # fmt: skip
    db.session.commit()
    told = db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == lawyer.email)).all()
    decision = [m for m in told if m.subject.startswith("Decisão:")]
    assert len(decision) == 1 and doc.number in decision[0].subject
    assert "Provas aceitas" in decision[0].body
