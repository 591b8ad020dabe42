"""Issue 27, GRU 89 §ú: the offender pays every expense of an interdição's trip to the licensed
slaughterhouse (transport of the animals, the accompaniment of the health authority and of other
staff). Staff record them; billing charges them with the article, the guia and the due day."""

from __future__ import annotations

from datetime import date

import pytest
from sqlalchemy import select

from portal.blueprints.enforcement import duties, interdiction
from portal.blueprints.enforcement.services import EnforcementError
from portal.extensions import db
from portal.models import AuditEvent, EnforcementStatus, OutboxMessage, PaymentItem
from portal.profiles import load_profile
from portal.profiles.summary import rule_sections
from tests import factories
from tests.integration.enforcement.test_law_27_enforcement_duties import _preliminary, _todo

TODAY = date(2026, 11, 10)  # a Tuesday; the notice is of Monday 2 November
TRIP = date(2026, 11, 9)


@pytest.fixture
def gru(app):  # type: ignore[no-untyped-def]
    agent = factories.user(roles=("agent",), full_name="Ana Agente")
    who = factories.user(full_name="Rui Criador")
    db.session.commit()
    return app.extensions["portal_profile"], agent, who


def _interdiction(profile, agent, who):  # type: ignore[no-untyped-def]
    doc = _preliminary(profile, agent, who, "GRU 68 III", comply_term="d10")
    duties.apply_on_issue(profile, doc, interdiction=True)
    return doc


def _data(**changed):  # type: ignore[no-untyped-def]
    values = dict(
        trip_on=TRIP,
        slaughterhouse=" Frigorífico Boa Carne,  SIF 1234 ",
        amounts={"transport": 45_000, "authority_escort": 12_050},
        detail="Caminhão boiadeiro, 40 km; 1 agente e 1 veterinário, 4 horas",
    )
    values.update(changed)
    return interdiction.InterdictionExpenses(**values)  # type: ignore[arg-type]


def _refused(profile, doc, data, actor, today=TODAY):  # type: ignore[no-untyped-def]
    with pytest.raises(EnforcementError) as caught:
        interdiction.charge_expenses(profile, doc, data, actor=actor, today=today)
    assert interdiction.charges_of(doc) == []
    return caught.value


def test_gru_89_su_the_expenses_are_charged_to_the_offender(gru, app):  # type: ignore[no-untyped-def]
    profile, agent, who = gru
    doc = _interdiction(profile, agent, who)
    item = interdiction.charge_expenses(profile, doc, _data(), actor=agent, today=TODAY)
    assert (item.kind, item.amount_cents, item.payer_id) == ("expense", 57_050, who.id)
    assert (item.subject_type, item.subject_id) == ("interdiction", doc.id)
    assert item.description == f"Despesas da interdição – notificação nº {doc.number} (GRU 89 §ú)"
    assert [(line["amount_cents"], line["article"]) for line in item.breakdown] == [
        (45_000, "GRU 89 §ú"),
        (12_050, "GRU 89 §ú"),
    ]
    assert item.breakdown[0]["label"] == (
        "Transporte dos animais ao abatedouro licenciado (Frigorífico Boa Carne, SIF 1234, "
        "09/11/2026)"
    )
    # The law sets no term: the CCZ's 30 days from the charge, as a fine's (GRU 114)
    assert item.due_on == date(2026, 12, 10)
    assert interdiction.charges_of(doc) == [item]
    event = db.session.scalar(
        select(AuditEvent).where(AuditEvent.action == "enforcement.interdiction_expenses")
    )
    assert event is not None and event.detail["amount_cents"] == 57_050
    mail = db.session.scalars(select(OutboxMessage).where(OutboxMessage.to == who.email)).all()
    body = next(m.body for m in mail if "Despesas da interdição" in m.subject)
    assert "R$ 570,50" in body and "10/12/2026" in body and "GRU 89 §ú" in body
    assert any("Pagar R$ 570,50" in t for t in _todo(app, who))


def test_gru_89_su_a_due_day_on_a_weekend_moves_to_the_next_business_day(gru):  # type: ignore[no-untyped-def]
    profile, agent, who = gru
    doc = _interdiction(profile, agent, who)
    # 30 days from Friday 6 November end on Sunday 6 December: Monday 7 (GRU 114 §ú)
    item = interdiction.charge_expenses(
        profile, doc, _data(trip_on=date(2026, 11, 6)), actor=agent, today=date(2026, 11, 6)
    )
    assert item.due_on == date(2026, 12, 7)


def test_gru_89_su_a_second_trip_is_a_second_charge(gru):  # type: ignore[no-untyped-def]
    profile, agent, who = gru
    doc = _interdiction(profile, agent, who)
    coordinator = factories.user(roles=("coordinator",))
    first = interdiction.charge_expenses(profile, doc, _data(), actor=agent, today=TODAY)
    second = interdiction.charge_expenses(
        profile, doc, _data(amounts={"staff_escort": 9_900}), actor=coordinator, today=TODAY
    )
    assert interdiction.charges_of(doc) == [first, second] and second.amount_cents == 9_900
    assert second.breakdown[0]["label"].startswith("Acompanhamento de outros servidores")


@pytest.mark.parametrize(
    ("changed", "field", "code"),
    [
        ({"amounts": {}}, "transport", "required"),
        ({"amounts": {"transport": 0, "staff_escort": 0}}, "transport", "required"),
        ({"amounts": {"transport": -1}}, "transport", "invalid"),
        ({"amounts": {"transport": 100_000_001}}, "transport", "invalid"),
        ({"amounts": {"food": 1_000}}, "food", "not_recoverable"),
        ({"slaughterhouse": "  "}, "slaughterhouse", "required"),
        ({"trip_on": date(2026, 11, 11)}, "trip_on", "future"),
        ({"trip_on": date(2026, 11, 1)}, "trip_on", "before_notice"),
    ],
    ids=["none", "zeros", "negative", "too_much", "food", "no_place", "future", "before"],
)
def test_gru_89_su_refusals_beside_the_field(gru, changed, field, code):  # type: ignore[no-untyped-def]
    profile, agent, who = gru
    doc = _interdiction(profile, agent, who)
    err = _refused(profile, doc, _data(**changed), agent)
    assert (err.field, err.code) == (field, code)


def test_gru_89_su_the_notice_day_itself_is_accepted(gru):  # type: ignore[no-untyped-def]
    profile, agent, who = gru
    doc = _interdiction(profile, agent, who)
    item = interdiction.charge_expenses(
        profile, doc, _data(trip_on=date(2026, 11, 2)), actor=agent, today=TODAY
    )
    assert item.amount_cents == 57_050


def test_gru_89_su_only_an_interdiction_and_only_by_the_agent_or_coordination(gru):  # type: ignore[no-untyped-def]
    profile, agent, who = gru
    plain = _preliminary(profile, agent, who, "GRU 68 III", comply_term="d10")
    assert _refused(profile, plain, _data(), agent).code == "not_interdiction"
    doc = _interdiction(profile, agent, who)
    for roles in (("vet",), ("citizen",)):
        err = _refused(profile, doc, _data(), factories.user(roles=roles))
        assert err.code == "not_allowed"
    doc.status = EnforcementStatus.CANCELLED
    assert _refused(profile, doc, _data(), agent).code == "cancelled"


@pytest.mark.parametrize("key", ["bjp", "cabeceira", "cabo", "vilavelha"])
def test_gru_89_su_no_interdiction_expenses_where_the_law_has_none(gru, key):  # type: ignore[no-untyped-def]
    profile, agent, who = gru
    doc = _interdiction(profile, agent, who)
    other = load_profile(key)
    assert interdiction.rule_for(other, doc) is None
    assert _refused(other, doc, _data(), agent).code == "not_interdiction"


def test_gru_89_su_rules_page_says_who_pays_and_by_when(app):  # type: ignore[no-untyped-def]
    profile = app.extensions["portal_profile"]
    items = [i for s in rule_sections(profile) for i in s.items if i.article == "GRU 89 §ú"]
    text = " ".join(i.text for i in items)
    assert "pagas pelo infrator" in text and "30 dias" in text and "escolha do CCZ" in text
    for key in ("bjp", "cabeceira", "cabo", "vilavelha"):
        assert all(
            "GRU 89" not in i.article for s in rule_sections(load_profile(key)) for i in s.items
        )


def test_gru_89_su_staff_page_keeps_what_was_typed_and_the_offender_sees_the_charge(  # type: ignore[no-untyped-def]
    gru, client, auth
):
    profile, agent, who = gru
    doc = _interdiction(profile, agent, who)
    plain = _preliminary(profile, agent, who, "GRU 68 III", comply_term="d10")
    db.session.commit()
    auth.login(agent)
    detail = client.get(f"/ccz/fiscalizacao/{doc.id}").get_data(as_text=True)
    assert 'id="despesas-interdicao"' in detail
    assert client.get(f"/ccz/fiscalizacao/{plain.id}/despesas-interdicao").status_code == 404
    url = f"/ccz/fiscalizacao/{doc.id}/despesas-interdicao"
    page = client.get(url).get_data(as_text=True)
    assert 'id="regra-gru-89"' in page and "Nenhuma despesa registrada" in page
    form = {
        "trip_on": "2026-11-09",
        "slaughterhouse": "Frigorífico Boa Carne, SIF 1234",
        "transport": "quatrocentos",
        "authority_escort": "120,50",
    }
    bad = client.post(url, data=form)
    text = bad.get_data(as_text=True)
    assert bad.status_code == 422 and "Informe o valor em reais" in text
    assert "Frigorífico Boa Carne, SIF 1234" in text and "120,50" in text
    sent = client.post(url, data={**form, "transport": "R$ 450,00"})
    assert sent.status_code == 302
    item = db.session.scalar(select(PaymentItem).where(PaymentItem.subject_id == doc.id))
    assert item is not None and item.amount_cents == 57_050
    assert "R$ 570,50" in client.get(url).get_data(as_text=True)
    auth.logout()
    auth.login(who)
    mine = client.get(f"/pagamentos/{item.id}").get_data(as_text=True)
    assert f"notificação nº {doc.number}" in mine and "Ressarcimento de despesas" in mine
    assert "Transporte dos animais ao abatedouro licenciado" in mine and "Vencimento" in mine
    assert "Imprimir guia" in mine


def test_gru_89_su_a_citizen_may_not_open_the_staff_page(gru, client, auth):  # type: ignore[no-untyped-def]
    profile, agent, who = gru
    doc = _interdiction(profile, agent, who)
    db.session.commit()
    auth.login(who)
    url = f"/ccz/fiscalizacao/{doc.id}/despesas-interdicao"
    assert client.get(url).status_code in (403, 404)
    assert client.post(url, data={}).status_code in (400, 403, 404)
    assert interdiction.charges_of(doc) == []
