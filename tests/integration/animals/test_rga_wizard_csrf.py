"""Issue 8 (security 8): a registration-wizard POST that fails CSRF changes nothing, not even the
draft kept in the session, yet the form comes back with what was typed and a token that works."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from flask import g

from portal.extensions import db, limiter
from tests import factories

TOKEN_RE = re.compile(r'name="csrf_token" type="hidden" value="([^"]+)"')


@pytest.fixture
def csrf_app(make_app):  # type: ignore[no-untyped-def]
    application = make_app(WTF_CSRF_ENABLED=True)
    with application.app_context():
        limiter.reset()
        yield application


def _token(client, url: str) -> str:  # type: ignore[no-untyped-def]
    g.pop("csrf_token", None)  # tests share one app context: drop the token cached in g
    return TOKEN_RE.search(client.get(url).get_data(as_text=True)).group(1)


def _animal(name: str) -> dict[str, str]:
    return {
        "name": name,
        "species": "dog",
        "sex": "female",
        "breed": "SRD",
        "color": "Caramelo",
        "birth_known": "exact",
        "birth_date": (date.today() - timedelta(days=150)).isoformat(),
        "size": "small",
        "weight_kg": "8,5",
        "sterilized": "no",
        "microchip": "",
    }


def _draft_name(client) -> str | None:  # type: ignore[no-untyped-def]
    with client.session_transaction() as session:
        return session["rga_draft"]["data"]["animal"]["name"]


def test_csrf_failure_keeps_the_wizard_draft_unchanged(csrf_app) -> None:
    person = factories.user()
    db.session.commit()
    client = csrf_app.test_client()
    response = client.post(
        "/conta/entrar",
        data={
            "email": person.email,
            "password": factories.PASSWORD,
            "csrf_token": _token(client, "/conta/entrar"),
        },
    )
    assert response.status_code == 302
    g.pop("_login_user", None)

    response = client.post(
        "/animais/cadastrar",
        data={**_animal("Bolinha"), "csrf_token": _token(client, "/animais/cadastrar")},
    )
    assert response.status_code == 302
    assert _draft_name(client) == "Bolinha"

    g.pop("csrf_valid", None)  # set by the last good POST in the app context tests share
    forged = client.post("/animais/cadastrar", data={**_animal("Forjado"), "csrf_token": "x"})
    assert forged.status_code == 400
    page = forged.get_data(as_text=True)
    assert 'value="Forjado"' in page  # what was typed comes back...
    assert _draft_name(client) == "Bolinha"  # ...but nothing was saved

    # The re-shown form carries a token that the honest resubmission passes with.
    g.pop("csrf_retry", None)
    fresh = TOKEN_RE.search(page).group(1)
    response = client.post("/animais/cadastrar", data={**_animal("Forjado"), "csrf_token": fresh})
    assert response.status_code == 302
    assert _draft_name(client) == "Forjado"
