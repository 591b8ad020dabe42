"""Pages and rules cite the current profile's own articles and never another city's (issue 9:
"a sixth municipality must need a TOML file and no code"): the adoption rules and bars, the
enforcement form's hints, the capture certificate and the adopter's leaflet; and a vaccination
is audited by the service, whoever records it."""

from __future__ import annotations

import re
from datetime import date

import pytest
from flask import Flask
from sqlalchemy import select

from portal.blueprints.adoption import leaflet
from portal.blueprints.adoption.rule_results import PASS, rule_result
from portal.blueprints.animals.common import VaccinationData
from portal.blueprints.animals.registration import record_vaccination
from portal.extensions import db
from portal.models import AuditEvent
from tests import factories

PROFILES = ("guarulhos", "vilavelha", "bjp", "cabo", "cabeceira")
PROGRAMME = "regra do programa de adoção"
_CITATION = re.compile(r"\b(GRU|VV|BJP|CABO|CAB) \d")


def _foreign_citations(html: str, law_key: str) -> set[str]:
    """Law keys cited on a page other than the profile's own."""
    return {key for key in _CITATION.findall(html) if key != law_key}


def _staff_get(app: Flask, url: str, roles: tuple[str, ...]) -> str:
    with app.app_context():
        user = factories.user(roles=roles)
        db.session.commit()
        client = app.test_client()
        client.post("/conta/entrar", data={"email": user.email, "password": factories.PASSWORD})
        response = client.get(url)
        assert response.status_code == 200
        return response.get_data(as_text=True)


# -- 1. adoption rules: the profile's article or "regra do programa" -----------------------------


@pytest.mark.parametrize("key", PROFILES)
def test_adoption_rules_cite_only_the_profiles_law(make_app, key: str) -> None:
    app = make_app(PORTAL_PROFILE=key)
    with app.app_context():
        profile = app.extensions["portal_profile"]
        for rule in ("adult", "identity", "proof_of_address", "proof_of_income", "adoption_term"):
            result = rule_result(profile, rule, PASS, "m")
            assert result.article == PROGRAMME or result.article.startswith(profile.law_key)
        for bar in ("commitment", "maltreatment", "apprehension"):
            result = rule_result(profile, f"bar_{bar}", PASS, "m")
            assert result.article == (profile.adoption.bars.article(bar) or PROGRAMME)
            assert result.in_local_law == (profile.adoption.bars.article(bar) is not None)


def test_vv_23_v_commitment_bar_cites_vila_velha_and_nothing_in_guarulhos(make_app) -> None:
    vv, gru = make_app(PORTAL_PROFILE="vilavelha"), make_app(PORTAL_PROFILE="guarulhos")
    with vv.app_context():
        assert rule_result(
            vv.extensions["portal_profile"], "bar_commitment", PASS, "m"
        ).article == ("VV 23 V")
    with gru.app_context():
        assert rule_result(
            gru.extensions["portal_profile"], "bar_commitment", PASS, "m"
        ).article == (PROGRAMME)


def test_gru_88_par4_apprehension_bar_cites_guarulhos_only(make_app) -> None:
    gru, vv = make_app(PORTAL_PROFILE="guarulhos"), make_app(PORTAL_PROFILE="vilavelha")
    with gru.app_context():
        result = rule_result(gru.extensions["portal_profile"], "bar_apprehension", PASS, "m")
        assert result.article == "GRU 88 §4" and result.in_local_law
    with vv.app_context():
        result = rule_result(vv.extensions["portal_profile"], "bar_apprehension", PASS, "m")
        assert result.article == PROGRAMME and not result.in_local_law


def test_vv_28_par2_requirements_cite_vila_velha_and_are_programme_rules_in_cabo(make_app) -> None:
    vv, cabo = make_app(PORTAL_PROFILE="vilavelha"), make_app(PORTAL_PROFILE="cabo")
    with vv.app_context():
        assert rule_result(vv.extensions["portal_profile"], "adult", PASS, "m").article == (
            "VV 28 §2"
        )
    with cabo.app_context():
        assert rule_result(cabo.extensions["portal_profile"], "adult", PASS, "m").article == (
            PROGRAMME
        )


# -- 2. hints on staff pages ---------------------------------------------------------------------


@pytest.mark.parametrize("key", PROFILES)
def test_bars_page_cites_only_the_profiles_bars(make_app, key: str) -> None:
    app = make_app(PORTAL_PROFILE=key)
    html = _staff_get(app, "/adocao/gestao/impedimentos", ("agent",))
    profile = app.extensions["portal_profile"]
    assert not _foreign_citations(html, profile.law_key)
    for bar in ("commitment", "maltreatment", "apprehension"):
        article = profile.adoption.bars.article(bar)
        if article:
            assert article in html


def test_bjp_30_par_u_maltreatment_bar_shows_on_the_bars_page(make_app) -> None:
    html = _staff_get(make_app(PORTAL_PROFILE="bjp"), "/adocao/gestao/impedimentos", ("agent",))
    assert "perda da posse por maus-tratos (BJP 30 §ú)" in html
    assert (
        f"apreensão definitiva de um animal, que não pode voltar a ter aquele animal ({PROGRAMME})"
        in html
    )


@pytest.mark.parametrize("key", PROFILES)
def test_issue_form_hints_cite_only_the_profiles_law(make_app, key: str) -> None:
    app = make_app(PORTAL_PROFILE=key)
    html = _staff_get(app, "/ccz/fiscalizacao/novo", ("agent",))
    assert not _foreign_citations(html, app.extensions["portal_profile"].law_key)


def test_gru_88_par4_definitive_apprehension_hint_cites_guarulhos(make_app) -> None:
    html = _staff_get(make_app(PORTAL_PROFILE="guarulhos"), "/ccz/fiscalizacao/novo", ("agent",))
    assert "com a decisão final (GRU 88 §4)." in html


def test_bjp_16_par4_i_and_bjp_2_par3_i_intimation_terms_in_the_notified_on_hint(make_app) -> None:
    html = _staff_get(make_app(PORTAL_PROFILE="bjp"), "/ccz/fiscalizacao/novo", ("agent",))
    assert "depois do prazo de uma intimação (BJP 2 §3 I;" in html
    assert "com a decisão final (BJP 30 §ú II)." in html


def test_cab_39_ii_no_definitive_apprehension_on_the_person_is_offered(make_app) -> None:
    # CAB 39 II: the apprehension is the penalty; Cabeceira's law records nothing on the person
    app = make_app(PORTAL_PROFILE="cabeceira")
    assert app.extensions["portal_profile"].fines.definitive_consequence is None
    html = _staff_get(app, "/ccz/fiscalizacao/novo", ("agent",))
    assert 'name="definitive"' not in html
    assert "registrada na pessoa com a decisão final" not in html
    gru = _staff_get(make_app(PORTAL_PROFILE="guarulhos"), "/ccz/fiscalizacao/novo", ("agent",))
    assert 'name="definitive"' in gru


# -- 3. the capture certificate ------------------------------------------------------------------


def test_gru_84_par3_certificate_request_cites_the_profiles_article(make_app) -> None:
    app = make_app(PORTAL_PROFILE="guarulhos")
    html = _staff_get(app, "/certidoes/pedir", ("citizen",))
    assert html.count("(GRU 84 §3, §5)") == 2 and "GRU 83" not in html


def test_gru_84_par3_certificate_article_is_read_from_the_profile(make_app) -> None:
    app = make_app(PORTAL_PROFILE="guarulhos")
    profile = app.extensions["portal_profile"]
    impound = profile.impound.model_copy(
        update={"cites": {**profile.impound.cites, "capture_certificate": "GRU 99 §9"}}
    )
    app.extensions["portal_profile"] = profile.model_copy(update={"impound": impound})
    html = _staff_get(app, "/certidoes/pedir", ("citizen",))
    assert "(GRU 99 §9)" in html and "GRU 84" not in html


def test_no_certificate_article_no_certificate_page(make_app) -> None:
    app = make_app(PORTAL_PROFILE="bjp")
    with app.app_context():
        user = factories.user()
        db.session.commit()
        client = app.test_client()
        client.post("/conta/entrar", data={"email": user.email, "password": factories.PASSWORD})
        assert client.get("/certidoes/pedir").status_code == 404


# -- 4. the adopter's leaflet --------------------------------------------------------------------


def test_vv_28_par3_every_leaflet_section_cites_its_item(make_app) -> None:
    vv = make_app(PORTAL_PROFILE="vilavelha")
    with vv.test_request_context():
        sections = leaflet.leaflet_sections()
    assert [s.article for s in sections] == [
        "VV 28 §3 I",
        "VV 28 §3 II",
        "VV 28 §3 II",
        "VV 28 §3 III",
        "VV 28 §3 IV",
        "VV 28 §3 V",
    ]


@pytest.mark.parametrize("key", ("guarulhos", "bjp", "cabo", "cabeceira"))
def test_leaflet_without_the_law_cites_nothing(make_app, key: str) -> None:
    app = make_app(PORTAL_PROFILE=key)
    with app.test_request_context():
        sections = leaflet.leaflet_sections()
    assert len(sections) == 6 and all(s.article == "" for s in sections)
    with app.app_context():
        html = app.test_client().get("/adocao/folheto").get_data(as_text=True)
    assert "VV 28" not in html


def test_leaflet_sections_come_from_the_profiles_list(make_app) -> None:
    app = make_app(PORTAL_PROFILE="guarulhos")
    profile = app.extensions["portal_profile"]
    programme = profile.programme.model_copy(update={"leaflet_sections": ["calendar", "report"]})
    app.extensions["portal_profile"] = profile.model_copy(update={"programme": programme})
    with app.test_request_context():
        assert [s.key for s in leaflet.leaflet_sections()] == ["calendar", "report"]


# -- 5. the vaccination audit lives in the service -----------------------------------------------


def test_record_vaccination_is_audited_by_the_service(app) -> None:
    vet = factories.user(roles=("vet",))
    animal = factories.animal(factories.user(), status="pending")
    db.session.flush()
    today = date.today()
    data = VaccinationData(
        applied_on=today, vaccine_name="Rabisin", batch="L1", vet_name="Dra. Ana", vet_crmv="1"
    )
    record_vaccination(animal, data, recorded_by=vet, at_ccz=True, today=today)
    events = db.session.scalars(
        select(AuditEvent).where(AuditEvent.action == "animal.vaccinated")
    ).all()
    assert len(events) == 1 and events[0].actor_id == vet.id
    assert events[0].subject_id == str(animal.id)
