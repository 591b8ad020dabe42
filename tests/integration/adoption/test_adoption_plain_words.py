"""Issue 8: citizens read plain reasons (the article is a small link to the rules page, programme
rules are said to be programme rules once), and reviewers read about the applicant in the third
person instead of texts addressed to the applicant."""

from __future__ import annotations

from datetime import date

import pytest

from portal.blueprints.adoption.eligibility import check_eligibility
from portal.extensions import db
from tests.factories import eligible_person, make_listing, ngo_user

ANSWERS = {
    "home_type": "house_yard",
    "other_animals": "none",
    "caretaker": "Eu",
    "holidays": "Fica com minha mãe",
    "accept_term": "y",
}


@pytest.fixture
def setting(app):  # type: ignore[no-untyped-def]
    reviewer, org = ngo_user("ONG Quatro Patas")
    listing = make_listing(org, name="Paçoca", author=reviewer)
    person = eligible_person(full_name="Helena Adotante")
    db.session.commit()
    return reviewer, listing, person


def test_applicant_sees_plain_reasons_and_one_programme_note(client, auth, setting) -> None:
    _reviewer, listing, person = setting
    auth.login(person)
    html = client.get(f"/adocao/animal/{listing.id}/quero-adotar").get_data(as_text=True)
    assert "inspirada em" not in html and "a lei municipal não trata disso" not in html
    assert "VV 28" not in html and "Vila Velha" not in html
    assert html.count("são regras do programa de adoção do CCZ") == 1
    assert 'href="/regras#adocao"' in html
    # The household limit is Guarulhos law: its article is a small link to the rules page.
    assert '<a href="/regras#residencia">GRU 37</a>' in html
    assert "Você tem 18 anos ou mais" in html


def test_reviewer_reads_about_the_applicant_in_the_third_person(client, auth, setting) -> None:
    reviewer, listing, person = setting
    auth.login(person)
    client.post(f"/adocao/animal/{listing.id}/quero-adotar", data=ANSWERS)
    auth.logout()
    auth.login(reviewer)
    from sqlalchemy import select

    from portal.models import AdoptionApplication

    application = db.session.scalars(select(AdoptionApplication)).one()
    html = client.get(f"/adocao/gestao/pedidos/{application.id}").get_data(as_text=True)
    assert "A pessoa tem 18 anos ou mais" in html
    assert "A pessoa aceitou o Termo de Compromisso de Adoção" in html
    assert "Você tem" not in html and "Você aceitou" not in html
    assert "sua residência" not in html


def test_every_reviewer_message_avoids_the_second_person(app, setting) -> None:
    _reviewer, listing, person = setting
    profile = app.extensions["portal_profile"]
    for result in check_eligibility(profile, person, listing, date.today(), reviewer=True):
        text = result.message.lower()
        assert "você" not in text and " seu " not in text and " sua " not in text, result


def test_vv_28_2_vila_velha_lists_its_own_article_and_no_programme_note(make_app) -> None:
    app = make_app(PORTAL_PROFILE="vilavelha")
    with app.app_context():
        reviewer, org = ngo_user("ONG VV")
        listing = make_listing(org, name="Bolinha", author=reviewer)
        person = eligible_person()
        db.session.commit()
        results = check_eligibility(app.extensions["portal_profile"], person, listing, date.today())
        by_rule = {r.rule: r for r in results}
        assert by_rule["adult"].in_local_law and by_rule["adult"].article.startswith("VV 28")
