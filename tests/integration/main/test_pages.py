"""Public pages, health check, errors."""

from unittest.mock import patch

from sqlalchemy.exc import OperationalError


def test_home_names_the_municipality_in_portuguese(client) -> None:
    html = client.get("/").get_data(as_text=True)
    assert "Guarulhos" in html
    assert 'lang="pt-BR"' in html
    assert "Ir para o conteúdo" in html and 'accesskey="1"' in html


def test_home_in_english_on_request(client) -> None:
    client.get("/idioma/en")
    html = client.get("/").get_data(as_text=True)
    assert 'lang="en"' in html
    assert "Skip to content" in html


def test_healthz_reports_db_and_profile(client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {
        "status": "ok",
        "db": "ok",
        "profile": "guarulhos",
        "uploads": "ok",
    }


def test_healthz_is_503_when_the_database_is_unreachable(client) -> None:
    with patch(
        "portal.extensions.db.session.execute",
        side_effect=OperationalError("SELECT 1", {}, Exception("down")),
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["db"] == "unreachable"


def test_unknown_page_is_a_friendly_404_in_portuguese(client) -> None:
    response = client.get("/nao-existe")
    assert response.status_code == 404
    assert "Página não encontrada" in response.get_data(as_text=True)


def test_unexpected_error_shows_no_stack_trace(app, client) -> None:
    @app.get("/_boom")
    def boom():  # pragma: no cover - raises
        raise RuntimeError("secret internals")

    boom.access_policy = "public"
    response = client.get("/_boom")
    assert response.status_code == 500
    body = response.get_data(as_text=True)
    assert "Algo deu errado" in body
    assert "secret internals" not in body and "Traceback" not in body


def test_rules_page_shows_the_guarulhos_household_limit_with_article(client) -> None:
    html = client.get("/regras").get_data(as_text=True)
    assert "GRU 37" in html
    assert "120" in html


def test_high_contrast_toggle_works_without_javascript(client) -> None:
    response = client.get("/contraste", headers={"Referer": "http://localhost/regras"})
    assert response.status_code == 302
    assert "contraste=1" in response.headers["Set-Cookie"]
    assert 'class="contraste"' in client.get("/").get_data(as_text=True)


def test_each_profile_boots_and_names_its_municipality(make_app) -> None:
    for key, name in [
        ("cabo", "Cabo de Santo Agostinho"),
        ("bjp", "Bom Jesus dos Perdões"),
        ("vilavelha", "Vila Velha"),
        ("cabeceira", "Cabeceira Grande"),
    ]:
        app = make_app(PORTAL_PROFILE=key)
        html = app.test_client().get("/").get_data(as_text=True)
        assert name in html, key
