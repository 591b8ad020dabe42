"""Issue 8, "What a first-time user trips on", and issue 9, "Nothing promised that does not
exist": the home search box, payment options the deployment really accepts, pages that name only
the services installed, greetings, numbers in the locale's format and the collapsible menu."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from flask import render_template_string

from portal.blueprints.animals.rga import format_rga
from portal.extensions import db
from tests import factories

RGA = format_rga("dog", 2026, 123)  # C-2026-000123-0


# -- the home search box --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed", [RGA, RGA.lower().replace("-", " "), RGA.replace("-", "", 2).replace("-", ".")]
)
def test_home_search_sends_an_rga_number_to_its_page(client, typed) -> None:
    response = client.get("/busca", query_string={"q": typed})
    assert response.status_code == 302
    assert response.headers["Location"].endswith(f"/rga/{RGA}")


def test_home_search_sends_an_rga_with_a_wrong_check_digit_to_the_rga_page(client) -> None:
    wrong = RGA[:-1] + str((int(RGA[-1]) + 1) % 10)
    response = client.get("/busca", query_string={"q": wrong})
    assert "/rga/" in response.headers["Location"]  # that page explains the typo


@pytest.mark.parametrize(
    "typed", ["gato", "gato 2 anos", "cachorro porte pequeno", "Rex", "filhote vila galvão"]
)
def test_home_search_sends_words_to_adoption_search(client, typed) -> None:
    response = client.get("/busca", query_string={"q": typed})
    assert response.status_code == 302
    location = urlsplit(response.headers["Location"])
    assert location.path == "/adocao"
    assert parse_qs(location.query)["q"] == [typed]


# -- payment options (item 8) ---------------------------------------------------------------------


def test_without_stripe_the_home_does_not_offer_card_boleto_or_pix(client) -> None:
    html = client.get("/").get_data(as_text=True)
    assert "cartão" not in html and "boleto" not in html and "PIX" not in html
    assert "pague no balcão do CCZ" in html


def test_with_stripe_the_home_offers_card_boleto_and_pix(make_app) -> None:
    app = make_app(
        STRIPE_SECRET_KEY="sk_test_x",
        STRIPE_PUBLISHABLE_KEY="pk_test_x",
        STRIPE_WEBHOOK_SECRET="whsec_x",
    )
    html = app.test_client().get("/").get_data(as_text=True)
    assert "Pague com cartão, boleto, PIX ou guia no balcão" in html


def test_my_payments_offers_online_payment_only_with_stripe(client, auth) -> None:
    auth.login()
    html = client.get("/pagamentos/").get_data(as_text=True)
    assert "boleto" not in html and "Imprima a guia e pague no balcão do CCZ" in html


def _guia(app) -> bytes:  # type: ignore[no-untyped-def]
    from datetime import date

    from portal.blueprints.billing.documents import guia_pdf
    from portal.blueprints.billing.services import create_payment_item
    from portal.models.base import utcnow

    with app.test_request_context():
        item = create_payment_item(
            kind="registration", amount_cents=2500, description="Registro", payer=factories.user()
        )
        return guia_pdf(item, date.today(), utcnow())


def test_the_guia_offers_only_the_counter_without_stripe(app) -> None:
    pdf = _guia(app)
    assert b"banco conveniado" not in pdf and b"online" not in pdf
    assert b"caixa do CCZ" in pdf


def test_the_guia_mentions_online_payment_with_stripe(make_app) -> None:
    app = make_app(
        STRIPE_SECRET_KEY="sk_test_x",
        STRIPE_PUBLISHABLE_KEY="pk_test_x",
        STRIPE_WEBHOOK_SECRET="whsec_x",
    )
    with app.app_context():
        pdf = _guia(app)
    assert b"banco conveniado" not in pdf and b"pague online pelo portal" in pdf


# -- nothing promised that does not exist (issue 9) -----------------------------------------------


def test_home_promises_maus_tratos_reports_only_when_the_form_exists(app, client) -> None:
    html = client.get("/").get_data(as_text=True)
    has_reports = "reports.new" in app.view_functions
    assert ("denuncie maus-tratos" in html) == has_reports
    assert ("Denunciar maus-tratos" in html) == has_reports
    assert ("Licença para mais animais" in html) == ("licences.request" in app.view_functions)


def test_privacy_page_names_only_the_services_installed(app, client) -> None:
    html = client.get("/privacidade").get_data(as_text=True)
    assert "cadastro de animais (RGA), cobrança de taxas, adoção" in html
    assert ("licenças" in html) == ("licences.request" in app.view_functions)
    assert ("Denúncias podem ser anônimas" in html) == ("reports.new" in app.view_functions)


def test_general_leaflet_names_the_portal_report_form_only_when_it_exists(app, client) -> None:
    html = client.get("/adocao/folheto").get_data(as_text=True)
    assert (
        'pelo portal ("Denunciar maus-tratos")' in html.replace("&#34;", '"').replace("&quot;", '"')
    ) == ("reports.new" in app.view_functions)
    assert "Centro de Controle de Zoonoses de Guarulhos, pessoalmente" in html


def test_readme_promises_nothing_missing_and_points_inside_the_repository(app) -> None:
    from pathlib import Path

    readme = (Path(app.root_path).parent / "README.md").read_text(encoding="utf-8")
    assert "../shared" not in readme
    assert "Python ≥ 3.11" in readme and "npm" in readme and "chromium" in readme
    assert "`UPLOAD_DIR`" in readme.split("`DATABASE_URL`", 1)[1].split("\n", 2)[1]
    quick = readme.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    assert [line.split()[:2] for line in quick.strip().splitlines()] == [
        ["make", "run"],
        ["make", "test"],
    ]


# -- the adopter leaflet and the rules page (item 6) ----------------------------------------------


def test_guarulhos_leaflet_does_not_cite_vila_velha(client) -> None:
    html = client.get("/adocao/folheto").get_data(as_text=True)
    assert "Vila Velha" not in html and "VV 28" not in html
    assert "Orientações do programa de adoção do CCZ de Guarulhos" in html


def test_vv_28_3_vila_velha_leaflet_says_its_own_law_requires_it(make_app) -> None:
    app = make_app(PORTAL_PROFILE="vilavelha")
    html = app.test_client().get("/adocao/folheto").get_data(as_text=True)
    assert "Conteúdo exigido pela Lei 4.726/2008, art. 28 §3" in html
    assert "(VV 28 §3 V)" in html


def test_rules_page_says_once_which_adoption_rules_are_programme_policy(client) -> None:
    html = client.get("/regras").get_data(as_text=True)
    assert 'id="adocao"' in html and 'id="residencia"' in html
    assert html.count("São regras do programa, não da lei municipal.") == 1


# -- greetings and numbers (item 10) --------------------------------------------------------------


@pytest.mark.parametrize(
    "full_name,short",
    [
        ("Dr. Carlos Vet", "Dr. Carlos"),
        ("ONG Patas Amigas", "ONG Patas"),
        ("Maria da Silva", "Maria"),
        ("ANA SILVA", "ANA"),
        ("Dra Helena Souza", "Dra Helena"),
        ("Dr.", "Dr"),
    ],
)
def test_short_name_keeps_titles_and_acronyms_with_the_name(full_name, short) -> None:
    from portal.models import User

    assert User(full_name=full_name).short_name == short


def test_login_greets_a_doctor_without_a_double_dot(client) -> None:
    vet = factories.user(full_name="Dr. Carlos Vet")
    db.session.commit()
    response = client.post(
        "/conta/entrar",
        data={"email": vet.email, "password": factories.PASSWORD},
        follow_redirects=True,
    )
    html = response.get_data(as_text=True)
    assert "Bem-vindo(a), Dr. Carlos." in html and "Dr.." not in html


def test_header_shows_the_ngo_name_not_just_ong(client, auth) -> None:
    auth.login(factories.user(full_name="ONG Patas Amigas"))
    html = client.get("/").get_data(as_text=True)
    assert ">ONG Patas</a>" in html


def test_numbers_use_the_locale_format(app) -> None:
    with app.test_request_context():
        assert render_template_string("{{ 12.5|number(1) }} kg") == "12,5 kg"
        assert render_template_string("{{ 12.0|number(1) }} kg") == "12 kg"
        assert render_template_string("{{ 1234.5|number(1) }}") == "1.234,5"


# -- the menu on phones (item 9) ------------------------------------------------------------------


def test_menu_is_a_details_element_that_folds_without_javascript(client, auth) -> None:
    auth.login(roles=("agent",))
    html = client.get("/").get_data(as_text=True)
    details = html.split('<details class="portal-menu-details">', 1)[1].split("</details>", 1)[0]
    assert "<summary" in details and 'id="menu"' in details


# -- no internal codes on a page (item 7) ---------------------------------------------------------


def test_no_template_prints_a_raw_status_role_or_audit_code(app) -> None:
    """``{{ item.status }}`` shows "pending" to staff: every status, role and action goes through
    its label filter (payment_status, stripe_status, role_label, audit_action…)."""
    import re
    from pathlib import Path

    raw = re.compile(
        r"\{\{\s*[\w.]+\.(status|state|payment_status|role|subject_type)\s*\}\}"
        r"|\{\{\s*[\w.]+\.roles\s*\|\s*(sort|join)"
    )
    attribute = re.compile(r'[\w-]+="[^"]*"')  # data-status="{{ item.status }}" is for machines
    offenders = []
    for path in Path(app.root_path, "templates").rglob("*.html"):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            line = attribute.sub("", line).replace("{{ profile.state }}", "")  # the UF, "SP"
            for match in raw.finditer(line):
                offenders.append(f"{path.name}:{number}: {match.group(0)}")
    assert offenders == []
