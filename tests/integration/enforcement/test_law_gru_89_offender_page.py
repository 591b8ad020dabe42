"""Issue 27, GRU 89 §ú: the offender reads the expenses of an interdição on the notice's own page
("Minhas notificações"): what each line is for, the amount, the status, the due day and the
link to pay; nothing once paid or cancelled, and nothing on a notice that is not an interdição."""

from __future__ import annotations

import pytest

from portal.blueprints.enforcement import interdiction, services
from portal.extensions import db
from portal.models import PaymentStatus
from portal.profiles import load_profile
from portal.services.clock import local_today
from tests import factories
from tests.integration.enforcement.test_law_27_enforcement_duties import _preliminary
from tests.integration.enforcement.test_law_gru_89_expenses import TODAY, _data, _interdiction


@pytest.fixture
def served(app):
    profile = app.extensions["portal_profile"]
    agent = factories.user(roles=("agent",), full_name="Ana Agente")
    who = factories.user(full_name="Rui Criador")
    db.session.flush()
    doc = _interdiction(profile, agent, who)
    services.record_service(
        profile, doc, method="signed", service_on=local_today(), note=None, actor=agent
    )
    return profile, agent, who, doc


def test_gru_89_su_the_offender_sees_the_expenses_on_the_notice_page(served, client, auth):
    profile, agent, who, doc = served
    item = interdiction.charge_expenses(profile, doc, _data(), actor=agent, today=TODAY)
    db.session.commit()
    auth.login(who)
    page = client.get(f"/minhas-notificacoes/{doc.id}").get_data(as_text=True)
    assert 'id="despesas-interdicao"' in page and f'id="despesa-{item.id}"' in page
    assert "pague as despesas de transporte dos animais" in page and "GRU 89 §ú" in page
    assert "Transporte dos animais ao abatedouro licenciado (Frigorífico Boa Carne" in page
    assert "R$ 450,00" in page and "R$ 120,50" in page and "R$ 570,50" in page
    assert "Pendente" in page and "Vencimento: 10/12/2026" in page
    assert f'href="/pagamentos/{item.id}"' in page and "Pagar as despesas" in page


def test_gru_89_su_a_paid_charge_shows_paid_and_no_payment_link(served, client, auth):
    profile, agent, who, doc = served
    paid = interdiction.charge_expenses(profile, doc, _data(), actor=agent, today=TODAY)
    cancelled = interdiction.charge_expenses(
        profile, doc, _data(amounts={"staff_escort": 9_900}), actor=agent, today=TODAY
    )
    paid.status, cancelled.status = PaymentStatus.PAID, PaymentStatus.CANCELLED
    db.session.commit()
    rows = interdiction.offender_charges(profile, doc)
    assert [(r.item_id, r.status_text, r.payable) for r in rows] == [(paid.id, "Pago", False)]
    auth.login(who)
    page = client.get(f"/minhas-notificacoes/{doc.id}").get_data(as_text=True)
    assert f'id="despesa-{paid.id}"' in page and "Pago" in page
    assert "Pagar as despesas" not in page and f'id="despesa-{cancelled.id}"' not in page


def test_gru_89_su_no_expenses_section_elsewhere(served, client, auth):
    profile, agent, who, doc = served
    plain = _preliminary(profile, agent, who, "GRU 68 III", comply_term="d10")
    services.record_service(
        profile, plain, method="signed", service_on=local_today(), note=None, actor=agent
    )
    interdiction.charge_expenses(profile, doc, _data(), actor=agent, today=TODAY)
    db.session.commit()
    assert interdiction.offender_charges(load_profile("cabo"), doc) == []
    auth.login(who)
    page = client.get(f"/minhas-notificacoes/{plain.id}").get_data(as_text=True)
    assert "despesas-interdicao" not in page
    auth.logout()
    auth.login(factories.user(full_name="Outra Pessoa", cpf=factories.make_cpf(77)))
    assert client.get(f"/minhas-notificacoes/{doc.id}").status_code == 404


def test_gru_89_su_without_charges_the_page_says_nothing_about_them(served, client, auth):
    _profile, _agent, who, doc = served
    db.session.commit()
    auth.login(who)
    page = client.get(f"/minhas-notificacoes/{doc.id}").get_data(as_text=True)
    assert "despesas-interdicao" not in page and "Pagar as despesas" not in page
