"""Adoption pages cite the profile's own law and call everything else programme policy: the
Termo (VV 28 §2), the hand-over conditions (VV 28 §1; GRU 85, 88 §2) and the leaflet (VV 28 §3)
come from ``profile.adoption``, never from a law key compared in code."""

from __future__ import annotations

from portal.blueprints.adoption import leaflet
from portal.blueprints.adoption.handover import delivery_citations
from portal.extensions import db
from tests import factories


def test_vv_28_par2_term_cites_vila_velha_only_there(client, make_app) -> None:
    html = client.get("/adocao/termo").get_data(as_text=True)
    assert "VV 28" not in html and "regra do programa de adoção" in html
    vv = make_app(PORTAL_PROFILE="vilavelha")
    with vv.app_context():
        html = vv.test_client().get("/adocao/termo").get_data(as_text=True)
    assert "VV 28 §2" in html


def test_gru_85_listing_cites_guarulhos_and_calls_the_rest_programme_policy(client, app) -> None:
    listing = factories.make_listing(factories.make_org())
    db.session.commit()
    html = client.get(f"/adocao/animal/{listing.id}").get_data(as_text=True)
    assert "vacinação: GRU 85, 88 §2" in html
    assert "vermifugação, castração (regra do programa de adoção)" in html
    assert "VV 28" not in html


def test_vv_28_par1_delivery_conditions_all_cited(make_app) -> None:
    vv = make_app(PORTAL_PROFILE="vilavelha")
    with vv.app_context():
        cited = delivery_citations(vv.extensions["portal_profile"])
    assert [(article, local) for article, local, _words in cited] == [("VV 28 §1", True)]


def test_vv_28_par3_leaflet_is_law_only_where_the_profile_says_so(app, make_app) -> None:
    with app.test_request_context():
        assert not leaflet.cites_own_law()
    vv = make_app(PORTAL_PROFILE="vilavelha")
    with vv.test_request_context():
        assert leaflet.cites_own_law()


def test_vv_28_par3_sections_and_footer_cite_the_profiles_article(make_app) -> None:
    vv = make_app(PORTAL_PROFILE="vilavelha")
    with vv.test_request_context():
        articles = [section.article for section in leaflet.leaflet_sections()]
        footer = leaflet.leaflet_footer()
    assert articles[0] == "VV 28 §3 I" and articles[-1] == "VV 28 §3 V"
    assert "Lei 4.726/2008, art. 28 §3," in footer
