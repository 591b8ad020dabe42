"""Every route declares who may use it (DEVELOPERS.md: security is part of every feature)."""

from flask import Flask


def test_every_route_declares_an_access_policy(app: Flask) -> None:
    missing = []
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        view = app.view_functions[rule.endpoint]
        if not getattr(view, "access_policy", None):
            missing.append(f"{rule.rule} ({rule.endpoint})")
    assert missing == [], "Routes without a declared access policy: " + ", ".join(missing)


def test_staff_pages_refuse_citizens(client, auth) -> None:
    auth.login(roles=("citizen",))
    assert client.get("/admin/").status_code == 403
    assert client.get("/admin/unidades").status_code == 403


def test_staff_pages_send_anonymous_visitors_to_login(client) -> None:
    response = client.get("/admin/")
    assert response.status_code == 302
    assert "/conta/entrar" in response.headers["Location"]


def test_admin_only_page_refuses_an_agent(client, auth) -> None:
    auth.login(roles=("agent",))
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/unidades").status_code == 403
