"""Issue 25, the enforcement journey's seams: "não sanada" before the term and its HTTP 500, the
appeal after a refused defence, what the addressee reads and receives for each decision, the
staff's confirmation steps, the notice prefilled from the report and the fine's plain words."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, time, timedelta

import pytest
from sqlalchemy import select

from portal.blueprints.enforcement import services
from portal.blueprints.enforcement.services import Addressee
from portal.extensions import db
from portal.models import EnforcementDocument
from tests import factories
from tests.integration.enforcement import test_enforcement

profile, people = test_enforcement.profile, test_enforcement.people  # its fixtures


def _notice(profile, agent, citizen, *, served_days_ago: int, term: str = "d10"):  # type: ignore[no-untyped-def]
    """A notificação preliminar given in person ``served_days_ago`` days ago."""
    day = date.today() - timedelta(days=served_days_ago)
    doc = services.issue_document(
        profile,
        kind="preliminary",
        agent=agent,
        addressee=Addressee(citizen.full_name, citizen.cpf, None, None, "Rua A, 10"),
        fact="Cão acorrentado sem abrigo",
        place="Rua A, 10",
        occurred_at=datetime.combine(day, time(12), tzinfo=UTC),
        legal_provision="GRU 10 V a",
        agent_title="Agente sanitário",
        required_action="Dar abrigo ao cão",
        comply_term=term,
        today=day,
    )
    doc.issued_at = datetime.combine(day, time(12), tzinfo=UTC)
    services.record_service(
        profile, doc, method="signed", service_on=day, note=None, actor=agent, today=day
    )
    db.session.commit()
    return doc


# -- 1. "Não sanada" ------------------------------------------------------------------------------


def test_gru_70_2_not_complied_refused_before_the_term_ends(profile, people, auth, client):
    agent, _boss, _director, citizen = people
    doc = _notice(profile, agent, citizen, served_days_ago=5)  # ten days: five still to run
    auth.logout()
    auth.login(agent)
    page = client.get(f"/ccz/fiscalizacao/{doc.id}")
    assert "só depois do prazo para sanar" in page.text
    assert f"/ccz/fiscalizacao/{doc.id}/nao-sanada" not in page.text
    for answer in (
        client.get(f"/ccz/fiscalizacao/{doc.id}/nao-sanada"),
        client.post(f"/ccz/fiscalizacao/{doc.id}/retorno", data={"result": "nao-sanada"}),
        client.get(f"/ccz/fiscalizacao/novo?apos={doc.id}"),
    ):
        assert answer.status_code == 302
        assert answer.location.endswith(f"/ccz/fiscalizacao/{doc.id}")
    db.session.refresh(doc)
    assert doc.status == "open"
    assert "só depois dele" in client.get(f"/ccz/fiscalizacao/{doc.id}").text


def test_gru_70_2_not_complied_after_the_term_confirms_then_the_auto_form_opens(
    profile, people, auth, client
):
    agent, _boss, _director, citizen = people
    doc = _notice(profile, agent, citizen, served_days_ago=20)
    auth.logout()
    auth.login(agent)
    detail = client.get(f"/ccz/fiscalizacao/{doc.id}").text
    assert f"/ccz/fiscalizacao/{doc.id}/nao-sanada" in detail
    confirm = client.get(f"/ccz/fiscalizacao/{doc.id}/nao-sanada")
    assert confirm.status_code == 200
    assert "O que acontece ao confirmar" in confirm.text
    assert "não pode mais ser dada como sanada" in confirm.text
    answer = client.post(f"/ccz/fiscalizacao/{doc.id}/retorno", data={"result": "nao-sanada"})
    assert answer.status_code == 302 and answer.location.endswith(f"/novo?apos={doc.id}")
    db.session.refresh(doc)
    assert doc.status == "open"  # nothing written until the auto is issued
    form = client.get(answer.location)
    assert form.status_code == 200  # was HTTP 500: ValueError: too many values to unpack
    assert "fica registrada como não cumprida" in form.text
    assert 'value="Rua A, 10"' in form.text  # the addressee's address carried over


def test_gru_70_2_an_error_in_the_auto_leaves_the_notice_open(profile, people, auth, client):
    agent, _boss, _director, citizen = people
    doc = _notice(profile, agent, citizen, served_days_ago=20)
    auth.logout()
    auth.login(agent)
    data = {
        "kind": "infraction",
        "name": citizen.full_name,
        "cpf": citizen.cpf,
        "fact": "Cão ainda sem abrigo",
        "place": "Rua A, 10",
        "occurred_at": (datetime.now() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
        "legal_provision": "outra",  # "outra disposição" without its text: refused
        "agent_title": "Agente sanitário",
    }
    refused = client.post(f"/ccz/fiscalizacao/novo?apos={doc.id}", data=data)
    assert refused.status_code == 200 and "Escreva a disposição transgredida" in refused.text
    db.session.refresh(doc)
    assert doc.status == "open"
    done = client.post(
        f"/ccz/fiscalizacao/novo?apos={doc.id}", data={**data, "legal_provision": "GRU 10 V a"}
    )
    assert done.status_code == 302
    db.session.refresh(doc)
    assert doc.status == "not_complied"
    auto = db.session.scalar(
        select(EnforcementDocument).where(EnforcementDocument.parent_id == doc.id)
    )
    assert auto is not None and auto.kind == "infraction"


def test_gru_70_2_service_refuses_not_complied_before_the_term(profile, people):
    agent, _boss, _director, citizen = people
    doc = _notice(profile, agent, citizen, served_days_ago=5)
    try:
        services.record_return_visit(doc, complied=False, actor=agent)
    except services.EnforcementError as err:
        assert err.code == "not_yet"
    else:
        raise AssertionError("não sanada accepted before the term")
    assert doc.status == "open"
    due = doc.comply_due_at if doc.comply_due_at.tzinfo else doc.comply_due_at.replace(tzinfo=UTC)
    services.record_return_visit(doc, complied=False, actor=agent, now=due + timedelta(seconds=1))
    assert doc.status == "not_complied"
    assert factories.user  # keep the import used


# -- 4. The notice form knows what the report and the inspection know -----------------------------


def test_notice_form_prefilled_from_report_inspection_and_registered_keeper(
    profile, people, auth, client
):
    from portal.models import Inspection
    from tests.integration.enforcement.test_enforcement_links import _report

    agent, _boss, _director, citizen = people
    factories.animal(citizen)  # the one person keeping registered animals at that address
    report = _report(
        protocol="DEN-2026-000099",
        species="dog",
        animal_count=2,
        cep=citizen.cep,
        street=citizen.street,
        number=citizen.number,
        complement=citizen.complement,
    )
    report.inspections.append(
        Inspection(
            agent_id=agent.id,
            visited_on=date.today(),
            findings={"shelter": "problem", "water": "ok"},
            notes="Dois cães sob o sol.",
            outcome="notice_needed",
        )
    )
    db.session.commit()
    auth.logout()
    auth.login(agent)
    page = client.get(f"/ccz/fiscalizacao/novo?denuncia={report.protocol}").text
    assert f'value="{citizen.full_name}"' in page and f'value="{citizen.cpf}"' in page
    assert '<option selected value="GRU 10 V a">' in page
    assert re.search(r'<input[^>]*name="animals"[^>]*value="2"', page)
    assert "Encontrado na vistoria: abrigo contra sol, chuva e frio." in page
    assert "Dois cães sob o sol." in page
    assert "Corrigir:" in page


# -- 2. After a refused defence: the appeal, the e-mails, the to-do, who decides -------------------


def _denial(reason: str) -> dict[str, str]:
    """The decision form's fields for a refusal signed by the addressee today."""
    return {
        "outcome": "deny",
        "reason": reason,
        "method": "signed",
        "service_on": date.today().isoformat(),
    }


def _refused_defence(profile, people, client, auth):  # type: ignore[no-untyped-def]
    """An auto de infração with a fine, its defence refused by the coordinator through the page
    (after the confirmation step); returns (infraction, penalty)."""
    from tests.integration.enforcement.test_decision_edges import _known

    agent, boss, _director, citizen = people
    day = date.today() - timedelta(days=2)
    doc = _known(profile, people, day, fine=True)
    services.file_petition(profile, doc, citizen, text="O cão tem abrigo", today=day)
    db.session.commit()
    petition = doc.petitions[0]
    auth.logout()
    auth.login(boss)
    data = _denial("Fotos da vistoria mostram o cão sem abrigo.")
    confirm = client.post(f"/ccz/fiscalizacao/peticoes/{petition.id}/decidir", data=data)
    assert confirm.status_code == 200 and "O que acontece ao confirmar" in confirm.text
    assert "É lavrado o auto de imposição de penalidade, com a multa de R$ 480,00" in confirm.text
    assert "o Diretor de Departamento hierarquicamente superior (GRU 103 §1 I)" in confirm.text
    db.session.refresh(petition)
    assert petition.status == "pending"  # nothing recorded before the confirmation
    done = client.post(
        f"/ccz/fiscalizacao/peticoes/{petition.id}/decidir", data={**data, "confirmed": "1"}
    )
    assert done.status_code == 302
    db.session.refresh(doc)
    penalty = services.penalty_of(doc)
    assert penalty is not None and penalty.knowledge_on is not None
    return doc, penalty


def test_gru_103_refused_defence_shows_the_appeal_term_and_button_on_the_infraction(
    profile, people, client, auth
):
    from portal.models import OutboxMessage

    doc, penalty = _refused_defence(profile, people, client, auth)
    citizen = people[3]
    mails = db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == citizen.email))
    (mail,) = [m for m in mails if m.subject.startswith("Decisão")]
    assert "Sua defesa de" in mail.body and " foi indeferida." in mail.body
    assert "Quem decidiu: o superior hierárquico imediato do agente" in mail.body
    assert "Fotos da vistoria mostram o cão sem abrigo." in mail.body
    assert f"auto de imposição de penalidade nº {penalty.number}" in mail.body
    assert "Diretor de Departamento" in mail.body and "R$ 480,00" in mail.body
    auth.logout()
    auth.login(citizen)
    page = client.get(f"/minhas-notificacoes/{doc.id}").text
    due = penalty.petition_due_on.strftime("%d/%m/%Y")
    assert "A defesa foi indeferida." in page
    assert (
        f'Você pode recorrer até {due} <a class="portal-article" '
        'href="/regras#notificacoes">(GRU 103)</a>' in page
    )
    assert f'href="/minhas-notificacoes/{penalty.id}/peticao"' in page
    assert (
        'Diretor de Departamento hierarquicamente superior <a class="portal-article" '
        'href="/regras#notificacoes">(GRU 103 §1 I)</a>' in page
    )
    home = client.get("/").text
    assert f"Defesa indeferida (documento {doc.number})." in home
    assert f"prazo para recorrer até {due}" in home


def test_gru_110_while_the_appeal_is_judged_home_says_so_and_not_pagar(
    profile, people, client, auth
):
    doc, penalty = _refused_defence(profile, people, client, auth)
    citizen = people[3]
    auth.logout()
    auth.login(citizen)
    assert "Pagar R$ 480,00" in client.get("/").text  # the fine runs before the appeal
    appeal = services.file_petition(profile, penalty, citizen, text="Peço a revisão da multa.")
    db.session.commit()
    assert penalty.fine_suspended
    home = client.get("/").text
    assert "Pagar R$ 480,00" not in home
    assert (
        f"Recurso sobre o documento {penalty.number} em julgamento. Quem decide: o Diretor" in home
    )
    assert "A multa de R$ 480,00 fica suspensa até a decisão." in home
    page = client.get(f"/minhas-notificacoes/{penalty.id}").text
    assert "Quem decide: o Diretor de Departamento hierarquicamente superior" in page
    assert "não há nada a pagar" in page
    assert appeal.instance == 2
    # the fine's own page agrees: suspended, no guia or online payment offered (GRU 110)
    item = client.get(f"/pagamentos/{penalty.payment_item_id}").text
    assert 'id="cobranca-suspensa"' in item
    assert "Imprimir guia (PDF)" not in item and "Como pagar" not in item
    # nor by a typed URL or a crafted POST: the billing service refuses a held item
    guia = client.get(f"/pagamentos/{penalty.payment_item_id}/guia.pdf")
    assert guia.status_code == 302 and guia.mimetype != "application/pdf"
    from portal.blueprints.billing import stripe_gateway
    from portal.blueprints.billing.items import BillingError

    with pytest.raises(BillingError) as refused:
        stripe_gateway.start_checkout(penalty.payment_item, citizen)
    assert refused.value.code == "on_hold"


def test_gru_103_appeal_decision_emailed_and_on_home_then_fine_to_pay(
    profile, people, client, auth
):
    from portal.models import OutboxMessage

    doc, penalty = _refused_defence(profile, people, client, auth)
    _agent, boss, director, citizen = people
    appeal = services.file_petition(profile, penalty, citizen, text="Peço a revisão da multa.")
    db.session.commit()
    auth.logout()
    auth.login(boss)  # decided the first instance: may not decide the second
    page = client.get(f"/ccz/fiscalizacao/{penalty.id}").text
    assert "A decisão cabe a outra autoridade" not in page
    assert (
        'Diretor de Departamento hierarquicamente superior <a class="portal-article" '
        'href="/regras#notificacoes">(GRU 103 §1 I)</a>' in page
    )
    auth.logout()
    auth.login(director)
    data = _denial("Multa dentro da faixa da lei.")
    confirm = client.post(f"/ccz/fiscalizacao/peticoes/{appeal.id}/decidir", data=data).text
    assert "A decisão é definitiva" in confirm and "volta a correr" in confirm
    client.post(f"/ccz/fiscalizacao/peticoes/{appeal.id}/decidir", data={**data, "confirmed": "1"})
    db.session.refresh(penalty)
    assert penalty.status == "final" and not penalty.fine_suspended
    mails = list(db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == citizen.email)))
    last = [m for m in mails if m.subject.startswith("Decisão: recurso")]
    assert (
        len(last) == 1
        and "Seu recurso" in last[0].body
        and "Pague a multa de R$ 480,00" in last[0].body
    )
    auth.logout()
    auth.login(citizen)
    home = client.get("/").text
    assert "Pagar R$ 480,00" in home and "prazo para pagar a multa" in home


def test_defence_photo_shown_to_the_deciding_staff_and_the_addressee_only(
    profile, people, client, auth
):
    from portal.services.uploads import store_document
    from tests.integration.enforcement.test_decision_edges import _known

    agent, boss, _director, citizen = people
    doc = _known(profile, people, date.today(), fine=True)
    photo = store_document(
        factories.png_bytes(),
        purpose="enforcement_petition",
        owner_id=citizen.id,
        filename="abrigo.png",
    )
    services.file_petition(profile, doc, citizen, text="Veja o abrigo", attachments=[photo])
    db.session.commit()
    url = f"/arquivos/{photo.token}/large"
    auth.logout()
    auth.login(boss)
    page = client.get(f"/ccz/fiscalizacao/{doc.id}").text
    assert f"/arquivos/{photo.token}/thumbnail" in page and "Anexos" in page
    assert (
        "Quem decide: o superior hierárquico imediato do agente que lavrou o auto "
        '<a class="portal-article" href="/regras#notificacoes">(GRU 102)</a>' in page
    )

    def status() -> int:
        response = client.get(url)
        response.close()  # a file is streamed: close it (ResourceWarning otherwise)
        return response.status_code

    assert status() == 200
    auth.logout()
    auth.login(factories.user(full_name="Vizinha Curiosa"))
    assert status() == 404
    auth.logout()
    auth.login(citizen)
    assert status() == 200
    assert f"/arquivos/{photo.token}/thumbnail" in client.get(f"/minhas-notificacoes/{doc.id}").text
    assert agent


# -- 2. A repeat's auto shows the base and the doubled total ---------------------------------------


def test_gru_80_repeat_auto_shows_the_base_the_addition_and_the_total(
    profile, people, client, auth
):
    agent, _boss, _director, citizen = people

    def auto(kind: str, days_ago: int) -> EnforcementDocument:
        day = date.today() - timedelta(days=days_ago)
        doc = test_enforcement._infraction(
            profile, agent, citizen, kind=kind, occurred_on=day, legal_provision="GRU 10 V a",
            today=day,
        )  # fmt: skip
        doc.issued_at = datetime.combine(day, time(12), tzinfo=UTC)
        services.record_service(
            profile, doc, method="signed", service_on=day, note=None, actor=agent, today=day
        )
        return doc

    auto("penalty", 200)  # the earlier penalty that still stands (GRU 79)
    doc = auto("infraction", 1)
    db.session.commit()
    assert doc.fine_cents == 96000
    auth.logout()
    auth.login(citizen)
    page = client.get(f"/minhas-notificacoes/{doc.id}").text
    assert page.count("R$ 480,00") == 2
    assert "Total da multa: R$ 960,00" in page
    assert "Multa por infração de nível médio" in page
    assert "Sem abrigo" in page and 'href="/regras">(GRU 10 V a)</a>' in page


def test_gru_77_the_fine_line_names_the_level_as_the_law_does(profile, make_app):
    from portal.services.fee_fines import severity_fine_label

    assert (
        severity_fine_label(profile.fines.severities, "Médio")
        == "Multa por infração de nível médio"
    )
    with factories.profile_app(make_app, "cabeceira") as cab:
        assert (
            severity_fine_label(cab.fines.severities, "Gravíssima")
            == "Multa por infração gravíssima"
        )
