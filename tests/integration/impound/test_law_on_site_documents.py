"""Issue 27, the last gaps of the euthanasia where the animal is.

CABO 11: the "auto de constatação" is a document: a PDF naming the agent, the witnesses (a CPF
masked), the place, the day, the animal and the article, with a check code and its QR code;
staff reach it from the on-site page, the owner (known by the animal's RGA) reads their own, and
the public check shows nothing about any person. CAB 9 caput: the assessment of an animal run
over or that cannot be removed is recorded also when it does not end in euthanasia.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask import g
from sqlalchemy import select

from portal.blueprints.impound import on_site
from portal.blueprints.impound.on_site_document import record_pdf
from portal.blueprints.impound.personal_data import export_personal_data
from portal.domain import DomainError
from portal.extensions import db
from portal.models import OnSiteEuthanasia, OutboxMessage
from portal.profiles.summary import rule_sections
from tests import factories
from tests.integration.impound.test_impound_rules import CAB, CABO, GRU
from tests.integration.impound.test_law_on_site_euthanasia import DAY, _data, _dog_laudo


def _lines(data: bytes) -> str:
    """The PDF's text; reportlab's standard fonts draw in WinAnsi (cp1252: the dash)."""
    text = "\n".join(line for page in factories.pdf_page_lines(data) for line in page)
    return text.encode("latin-1").decode("cp1252")


def _auto(agent: Any, **changed: Any) -> OnSiteEuthanasia:
    cpf = factories.make_cpf(4343)
    witnesses = [("Maria da Silva", f"{cpf[:3]}.{cpf[3:6]}.{cpf[6:9]}-{cpf[9:]}")]
    witnesses.append(("José Souza", "RG 7654321"))
    data = _dog_laudo(
        description="Cão caramelo bravio",
        place="Engenho Massangana",
        district="Zona rural",
        witnesses=witnesses,
        **changed,
    )
    return on_site.record_on_site_euthanasia(CABO, data, actor=agent, today=DAY)


def test_cabo_11_the_auto_de_constatacao_pdf_names_agent_witnesses_place_animal_article(app):
    agent = factories.user(roles=("agent",), full_name="Ana Agente")
    record = _auto(agent)
    text = _lines(record_pdf(record, CABO))
    assert f"Auto de constatação nº {record.number}" in text and "Cabo de Santo Agostinho" in text
    cpf = factories.make_cpf(4343)
    assert f"Maria da Silva – ***.{cpf[3:6]}.{cpf[6:9]}-**" in text and cpf not in text
    assert "José Souza – RG 7654321" in text
    assert "Ana Agente, agente sanitário" in text and "Ana Agente (agente sanitário)" in text
    assert "Maria da Silva (testemunha)" in text  # room for each witness's signature
    assert "Engenho Massangana, Zona rural" in text and "02/03/2026" in text
    assert "Cão caramelo bravio" in text and "Lei federal 14.228/2021, art. 2º; CABO 11" in text
    assert record.check_code and f"Código de conferência {record.check_code}" in text
    assert f"/conferir/no-local/{record.check_code}" in text


class _As:
    """One person's browser; the test's app context is shared by the requests, so Flask-Login's
    cached current user is dropped before each one."""

    def __init__(self, app: Any, email: str | None) -> None:
        self.client = app.test_client()
        if email:
            self.post("/conta/entrar", data={"email": email, "password": factories.PASSWORD})

    def get(self, url: str) -> Any:
        g.pop("_login_user", None)
        return self.client.get(url)

    def post(self, url: str, data: dict[str, str]) -> Any:
        g.pop("_login_user", None)
        return self.client.post(url, data=data)


def _client(app: Any, email: str | None) -> _As:
    return _As(app, email)


def test_cabo_11_the_auto_is_reached_from_the_staff_page_and_the_owner_reads_it(make_app):
    app = make_app(PORTAL_PROFILE="cabo")
    with app.app_context():
        agent = factories.user(roles=("agent",), full_name="Ana Agente")
        owner = factories.user(full_name="Otávio Dono")
        pet = factories.animal(owner)
        other = factories.user(full_name="Outra Pessoa")
        record = _auto(agent, tag_read=pet.rga, owner_name="")
        db.session.commit()
        assert (record.owner_id, record.animal_id, record.owner_name) == (
            owner.id,
            pet.id,
            "Otávio Dono",
        )
        mail = db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == owner.email))
        assert any(record.number in m.subject and record.number in m.body for m in mail)
        exported = export_personal_data(owner)  # LGPD: the owner's download has it too
        assert any(row.get("atendimento_no_local") == record.number for row in exported)
        emails = {"agent": agent.email, "owner": owner.email, "other": other.email}
        pdf_url = f"/meus-recolhimentos/no-local/{record.number}/documento.pdf"
        staff_url = f"/ccz/eutanasia-no-local/{record.number}/documento.pdf"
        assert _client(app, None).get(pdf_url).status_code == 302  # signed in only
        staff = _client(app, emails["agent"])
        assert f'href="{staff_url}"' in staff.get("/ccz/eutanasia-no-local").text
        staff_pdf = staff.get(staff_url)
        assert staff_pdf.status_code == 200 and staff_pdf.mimetype == "application/pdf"
        assert "Auto de constatação" in _lines(staff_pdf.data)
        stranger = _client(app, emails["other"])
        assert stranger.get(pdf_url).status_code == 404
        assert stranger.get(staff_url).status_code in (403, 404)
        mine = _client(app, emails["owner"])
        listed = mine.get("/meus-recolhimentos").text
        assert f'href="{pdf_url}"' in listed and "Cão caramelo bravio" in listed
        owned = mine.get(pdf_url)
        assert owned.status_code == 200 and "Otávio Dono" in _lines(owned.data)


def test_cabo_11_the_public_check_names_nobody(make_app):
    app = make_app(PORTAL_PROFILE="cabo")
    with app.app_context():
        record = _auto(factories.user(roles=("agent",), full_name="Ana Agente"))
        db.session.commit()
        client = app.test_client()
        code = str(record.check_code)
        check = client.get(f"/conferir/no-local/{code.lower()}")  # typed in lower case too
        assert check.status_code == 200 and record.number in check.text
        assert "Código conferido" in check.text and "CABO 11" in check.text
        for name in ("Maria da Silva", "José Souza", "Ana Agente", "Engenho Massangana"):
            assert name not in check.text
        assert client.get("/conferir/no-local/NAOEXISTE").status_code == 404


def test_cabo_11_an_unknown_rga_is_refused_beside_the_field(app):
    agent = factories.user(roles=("agent",))
    with pytest.raises(DomainError) as caught:
        _auto(agent, tag_read="C-2026-999999-0")
    assert caught.value.field == "tag_read"


# -- CAB 9 caput: the assessment alone --------------------------------------------------------


@pytest.mark.parametrize("outcome", ["taken_to_ccz", "left_with_owner"])
def test_cab_9_the_assessment_is_recorded_when_it_does_not_end_in_euthanasia(app, outcome):
    vet = factories.user(roles=("vet",), full_name="Vera Vet")
    # a dog run over, the owner there or the animal taken away: no §ú condition, no laudo
    data = _data(
        species="dog",
        size="small",
        description="Cão preto atropelado",
        confirmations=(),
        witnesses=[],
        outcome=outcome,
        owner_name="Paulo Presente",
        assessment="Fratura de pata, consciente; pode ser tratado",
    )
    record = on_site.record_on_site_euthanasia(CAB, data, actor=vet, today=DAY)
    assert (record.outcome, record.article, record.judged_by_role) == (outcome, "CAB 9", "vet")
    assert record.number.startswith("AVL-2026-") and record.federal_ground is None
    assert record.confirmations is None and record.laudo_file_id is None
    assert factories.audit_events("impound.on_site_assessment")
    text = _lines(record_pdf(record, CAB))
    assert "Registro de avaliação do animal no local" in text and "Vera Vet" in text
    assert "Fratura de pata" in text


def test_cab_9_an_assessment_without_what_was_found_is_refused(app):
    data = _data(outcome="taken_to_ccz", assessment=" ", confirmations=())
    with pytest.raises(DomainError) as caught:
        on_site.record_on_site_euthanasia(
            CAB, data, actor=factories.user(roles=("agent",)), today=DAY
        )
    assert (caught.value.field, caught.value.code) == ("assessment", "required")
    data = _data(outcome="left_with_owner", confirmations=(), owner_name="")
    with pytest.raises(DomainError) as caught:
        on_site.record_on_site_euthanasia(
            CAB, data, actor=factories.user(roles=("vet",)), today=DAY
        )
    assert caught.value.field == "owner_name"
    data = _data(outcome="taken_to_ccz", confirmations=())
    with pytest.raises(DomainError) as caught:
        coordinator = factories.user(roles=("coordinator",))
        on_site.record_on_site_euthanasia(CAB, data, actor=coordinator, today=DAY)
    assert caught.value.code == "agent_or_vet"


@pytest.mark.parametrize("profile", [CABO, GRU], ids=lambda p: p.key)
def test_cab_9_no_assessment_alone_where_the_law_has_only_the_act(app, profile):
    data = _data(outcome="taken_to_ccz", confirmations=())
    with pytest.raises(DomainError) as caught:
        on_site.record_on_site_euthanasia(
            profile, data, actor=factories.user(roles=("agent", "vet")), today=DAY
        )
    assert (caught.value.field, caught.value.code) == ("outcome", "not_provided")
    assert db.session.scalar(select(OnSiteEuthanasia)) is None


def test_cab_9_staff_page_records_an_assessment_and_sends_to_the_capture(make_app):
    app = make_app(PORTAL_PROFILE="cabeceira")
    with app.app_context():
        agent = factories.user(roles=("agent",))
        db.session.commit()
        client = _client(app, agent.email)
        page = client.get("/ccz/eutanasia-no-local").text
        assert 'id="regra-cab-9-avaliacao"' in page and 'value="taken_to_ccz"' in page
        sent = client.post(
            "/ccz/eutanasia-no-local",
            data={
                "outcome": "taken_to_ccz",
                "species": "dog",
                "size": "small",
                "description": "Cão preto atropelado",
                "place": "Av. Central, 100",
                "district": "Centro",
                "performed_on": "2026-03-02",
                "transport_impossible": "Atropelado na pista",
                "assessment": "Escoriações; anda com dificuldade",
            },
        )
        assert sent.status_code == 302 and sent.headers["Location"].endswith(
            "/ccz/recolhimentos/novo"
        )
        record = db.session.scalar(select(OnSiteEuthanasia))
        assert record is not None and record.outcome == "taken_to_ccz"
        listed = client.get("/ccz/eutanasia-no-local").text
        assert "Resultado: animal recolhido ao CCZ" in listed


def test_cab_9_rules_page_states_the_reading_of_the_caput(app):
    text = " ".join(f"{item.text} ({item.article})" for s in rule_sections(CAB) for item in s.items)
    assert "também quando não termina em eutanásia" in text and "(CAB 9)" in text
    cabo = " ".join(i.text for s in rule_sections(CABO) for i in s.items)
    assert "também quando não termina em eutanásia" not in cabo


def test_cabo_11_the_code_is_checked_from_the_conferir_page(make_app):
    """Issue 25 point 8: every public check has its "conferir código" form on /conferir."""
    app = make_app(PORTAL_PROFILE="cabo")
    with app.app_context():
        record = _auto(factories.user(roles=("agent",)))
        db.session.commit()
        page = _client(app, None)
        html = page.get("/conferir").get_data(as_text=True)
        assert 'name="no_local"' in html and "Registro feito no local" in html
        found = page.get(f"/conferir?no_local={record.check_code.lower()}")
        assert found.status_code == 302
        assert found.location.endswith(f"/conferir/no-local/{record.check_code}")
        missing = page.get("/conferir?no_local=ZZZZZZZZZZ")
        assert missing.status_code == 200
        assert "Não há registro com este código" in missing.get_data(as_text=True)


def test_cabo_11_no_on_site_check_where_the_law_has_no_on_site_act(make_app):
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        html = _client(app, None).get("/conferir").get_data(as_text=True)
        assert 'name="no_local"' not in html
