"""Issue 27 item 4: the establishments of CABO 34, CAB 33 and VV 45-46, each with its own
obligations: a yearly laudo after the agent's inspection for businesses selling live animals
(CABO, CAB; no responsible vet in the law), a register with a responsible vet (VV)."""

from __future__ import annotations

from datetime import date
from typing import Any

import pytest

from portal.blueprints.establishments import services
from tests import factories
from tests.integration.establishments.test_establishment_cadastro import _data

DAY = date(2026, 12, 1)


def _ask(profile, **overrides):  # type: ignore[no-untyped-def]
    return services.request_cadastro(
        factories.user(), _data(**overrides), profile=profile, today=DAY
    )


@pytest.mark.parametrize(("key", "article"), [("cabo", "CABO 34"), ("cabeceira", "CAB 33")])
def test_cabo_34_cab_33_seller_gets_a_laudo_after_the_inspection(make_app, key, article) -> None:  # type: ignore[no-untyped-def]
    with factories.profile_app(make_app, key) as prof:
        rule = services.rule_of(prof)
        assert (rule.article, rule.document) == (article, "laudo")
        # no responsible vet in the law: the request goes without one
        e = _ask(prof, kinds=["pet_shop"], vet_name=None, vet_crmv=None, vet_term_valid_until=None)
        coord = factories.user(roles=("coordinator",))
        with pytest.raises(services.EstablishmentError) as err:
            services.approve(e, coord, profile=prof, today=DAY)
        assert err.value.code == "inspection_required"  # CABO 34 §ú; CAB 33 §ú
        agent = factories.user(roles=("agent",))
        services.record_inspection(
            e, agent, inspected_on=DAY, findings="Alojamento limpo.", satisfactory=True, today=DAY
        )
        services.approve(e, coord, profile=prof, today=DAY)
        # "renovado anualmente": one year from the first issue
        assert (e.valid_from, e.valid_until) == (DAY, date(2027, 12, 1))


@pytest.mark.parametrize("key", ["cabo", "cabeceira"])
def test_cabo_34_cab_33_only_sellers_of_live_animals(make_app, key) -> None:  # type: ignore[no-untyped-def]
    with factories.profile_app(make_app, key) as prof:
        with pytest.raises(services.EstablishmentError) as err:
            _ask(prof, kinds=["trainer"])
        assert (err.value.field, err.value.code) == ("kinds", "invalid_kind")


def test_vv_45_46_register_needs_the_responsible_vet(make_app) -> None:  # type: ignore[no-untyped-def]
    with factories.profile_app(make_app, "vilavelha") as vv:
        rule = services.rule_of(vv)
        assert rule.cite("responsible_vet_required") == "VV 45, 46"
        with pytest.raises(services.EstablishmentError) as err:
            _ask(vv, kinds=["pet_shop"], vet_name=None, vet_crmv=None)
        assert (err.value.field, err.value.code) == ("vet_crmv", "vet_required")
        e = _ask(vv, kinds=["pet_shop"])
        assert e.status == "requested"


def test_vv_45_rules_page_says_who_may_sell(make_app) -> None:  # type: ignore[no-untyped-def]
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        html = app.test_client().get("/regras").get_data(as_text=True)
    assert "só podem ser vendidos por empresas registradas" in html and "VV 45" in html
    assert "prática do CCZ" in html  # the renewal window is the CCZ's (the law names none)


@pytest.mark.parametrize(("key", "asks_vet"), [("cabo", False), ("vilavelha", True)])
def test_cabo_34_vv_45_request_page_asks_what_the_law_asks(make_app, key, asks_vet) -> None:  # type: ignore[no-untyped-def]
    from tests.conftest import AuthActions

    app = make_app(PORTAL_PROFILE=key)
    with app.app_context():
        client = app.test_client()
        AuthActions(client).login(roles=("citizen",))
        response = client.get("/estabelecimentos/cadastro")
        html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "vistoria" in html  # CABO 34 §ú; VV 45: the inspection before approval
    assert ('name="vet_crmv"' in html) is asks_vet


@pytest.mark.parametrize(("key", "article"), [("bjp", "BJP 2"), ("vilavelha", "VV 45, 46")])
def test_bjp_2_vv_45_a_responsible_vet_without_a_term_of_responsibility(
    make_app: Any, key: str, article: str
) -> None:
    """Both laws name a responsible vet but no term of technical responsibility (that is GRU
    13 §1's): the request needs the vet and the CRMV, not a term's date."""
    with factories.profile_app(make_app, key) as prof:
        rule = services.rule_of(prof)
        assert rule.cite("responsible_vet_required") == article and not rule.vet_term_yearly
        e = _ask(prof, kinds=["clinic"], vet_term_valid_until=None)
        assert e.vet_term_valid_until is None
        with pytest.raises(services.EstablishmentError) as err:
            _ask(prof, kinds=["clinic"], vet_name=None, vet_crmv=None, vet_term_valid_until=None)
        assert err.value.code == "vet_required"
