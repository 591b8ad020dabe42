"""GRU 13 §1: "O Termo de Responsabilidade Técnica [...] deverá ser renovado anualmente": the
term is checked at every renewal of the cadastro (the request and the approval), not only at the
first request. A city whose law has no yearly term (BJP 2, VV 45: a responsible vet only) renews
without it."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

from portal.blueprints.establishments import services
from portal.extensions import db
from portal.profiles.summary import rule_sections
from tests import factories
from tests.integration.establishments.test_establishment_cadastro import _approved, _data

ISSUED = date(2026, 6, 15)  # the cadastro runs to 2027-06-15; the window opens 2027-04-16
ASKED = date(2027, 5, 2)


@pytest.fixture
def profile(app):  # type: ignore[no-untyped-def]
    return app.extensions["portal_profile"]


def _coord():  # type: ignore[no-untyped-def]
    return factories.user(roles=("coordinator",))


def _ask(e, profile, on: date = ASKED) -> None:  # type: ignore[no-untyped-def]
    services.request_renewal(e, e.requested_by, profile=profile, today=on)


def test_gru_13_1_a_term_expired_before_the_renewal_request_is_refused(app, profile) -> None:
    e = _approved(profile, ISSUED)
    e.vet_term_valid_until = date(2027, 5, 1)  # valid at the first cadastro, lapsed since
    db.session.flush()
    with pytest.raises(services.EstablishmentError) as err:
        _ask(e, profile)
    assert (err.value.field, err.value.code) == ("vet_term_valid_until", "vet_term_expired")
    assert "01/05/2027" in err.value.message and "GRU 13 §1" in err.value.message
    assert e.renewal_requested_on is None


def test_gru_13_1_a_term_valid_on_the_day_of_the_request_is_enough_to_ask(app, profile) -> None:
    e = _approved(profile, ISSUED)
    e.vet_term_valid_until = ASKED  # its last day
    db.session.flush()
    _ask(e, profile)
    assert e.renewal_requested_on == ASKED


def test_gru_13_1_the_approval_checks_the_term_again(app, profile) -> None:
    e = _approved(profile, ISSUED)
    e.vet_term_valid_until = date(2027, 6, 1)
    db.session.flush()
    _ask(e, profile)
    with pytest.raises(services.EstablishmentError) as err:  # decided after the term lapsed
        services.approve_renewal(e, _coord(), profile=profile, today=date(2027, 6, 2))
    assert err.value.code == "vet_term_expired"
    # without a decision day the term must cover the new term's first day (2027-06-16)
    with pytest.raises(services.EstablishmentError):
        services.approve_renewal(e, _coord(), profile=profile)
    services.update_data(
        e,
        e.requested_by,
        _data(vet_term_valid_until=date(2028, 6, 1), cnpj=e.cnpj, legal_name=e.legal_name),
        profile=profile,
        today=date(2027, 6, 2),
    )
    services.approve_renewal(e, _coord(), profile=profile, today=date(2027, 6, 2))
    assert e.valid_until == date(2028, 6, 15)


def test_gru_13_1_each_later_renewal_is_checked_too(app, profile) -> None:
    e = _approved(profile, ISSUED)
    e.vet_term_valid_until = date(2027, 12, 31)
    db.session.flush()
    _ask(e, profile)
    services.approve_renewal(e, _coord(), profile=profile, today=ASKED)  # first renewal: valid
    with pytest.raises(services.EstablishmentError) as err:  # second renewal, term now lapsed
        _ask(e, profile, date(2028, 5, 2))
    assert err.value.code == "vet_term_expired"


def test_gru_13_1_the_rules_page_says_the_term_is_checked_at_every_renewal(app, profile) -> None:
    section = next(s for s in rule_sections(profile) if s.anchor == "estabelecimentos")
    assert any(
        "cada renovação" in item.text and item.article == "GRU 13 §1" for item in section.items
    )


def test_gru_13_1_a_city_without_the_yearly_term_renews_without_it(make_app) -> None:
    with factories.profile_app(make_app, "bjp") as prof:
        assert not prof.establishments.vet_term_yearly
        owner, agent = factories.user(), factories.user(roles=("agent",))
        e = services.request_cadastro(owner, _data(), profile=prof, today=ISSUED)
        services.record_inspection(
            e, agent, inspected_on=ISSUED, findings="Ok.", satisfactory=True, today=ISSUED
        )
        services.approve(e, _coord(), profile=prof, today=ISSUED)
        e.vet_term_valid_until = date(2027, 1, 1)
        db.session.flush()
        services.request_renewal(e, owner, profile=prof, today=ASKED)
        services.approve_renewal(e, _coord(), profile=prof, today=ASKED)
        section = next(s for s in rule_sections(prof) if s.anchor == "estabelecimentos")
        assert not any("cada renovação" in item.text for item in section.items)


def test_gru_13_1_the_establishment_is_told_before_asking(app, client, auth, profile) -> None:
    from portal.services.clock import local_today

    today = local_today()
    issued = today - timedelta(days=335)  # the one-year term ends in about 30 days
    e = _approved(profile, issued)
    e.vet_term_valid_until = today - timedelta(days=1)
    db.session.commit()
    auth.login(e.requested_by)
    page = client.get("/estabelecimentos/meus").get_data(as_text=True)
    assert "termo de responsabilidade técnica do veterinário está vencido" in page
    assert "GRU 13 §1" in page
    e.vet_term_valid_until = today
    db.session.commit()
    page = client.get("/estabelecimentos/meus").get_data(as_text=True)
    assert "está vencido" not in page and "Pedir renovação" in page


def test_gru_13_1_the_refusal_names_the_day_the_term_lapsed_or_none(app, profile) -> None:
    e = _approved(profile, ISSUED)
    for term, day in ((date(2027, 5, 1), "01/05/2027"), (None, "—")):
        e.vet_term_valid_until = term
        db.session.flush()
        with pytest.raises(services.EstablishmentError) as err:
            _ask(e, profile)
        assert err.value.message == (
            f"O termo de responsabilidade técnica do veterinário venceu em {day}: ele é renovado "
            "todo ano e conferido em cada renovação do cadastro (GRU 13 §1). Atualize os dados "
            "do cadastro com o termo novo e peça a renovação de novo."
        )
