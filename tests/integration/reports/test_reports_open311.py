"""Open311 GeoReport v2 (issue 12): services, form-encoded POST, the spec's errors, api_key
tokens made by ``create-api-client --kind open311``, and what GET shows to whom."""

from __future__ import annotations

from sqlalchemy import select

from portal.extensions import db
from portal.models import ApiClient, MaltreatmentReport, ReporterContact
from portal.profiles import load_profile

GOOD = {
    "service_code": "no_shelter",
    "description": "Cachorro sem água no quintal há dias.",
    "address_string": "Rua das Flores, 10 - Centro",
}


def _token(app) -> str:  # type: ignore[no-untyped-def]
    result = app.test_cli_runner().invoke(
        args=["create-api-client", "--kind", "open311", "--name", "App da Cidade"]
    )
    assert result.exit_code == 0, result.output
    return result.output.strip().splitlines()[-1]


def test_services_are_the_profiles_categories(client) -> None:
    services = client.get("/open311/v2/services.json").get_json()
    profile = load_profile("guarulhos")
    assert [s["service_code"] for s in services] == [c.code for c in profile.reports.categories]
    first = services[0]
    assert first["metadata"] is False and first["type"] == "realtime"
    assert first["group"] == "maus-tratos" and "GRU 10 V a" in first["description"]


def test_post_form_encoded_creates_an_anonymous_report(client) -> None:
    response = client.post(
        "/open311/v2/requests.json", data={**GOOD, "media_url": "http://example.com/x.jpg"}
    )
    assert response.status_code == 200
    [answer] = response.get_json()
    report = db.session.scalars(select(MaltreatmentReport)).one()
    assert answer["service_request_id"] == report.protocol and answer["token"]
    assert report.source == "open311" and report.identity == "anonymous"
    assert report.photos == [] and db.session.scalars(select(ReporterContact)).all() == []
    # The token is the private tracking code.
    track = client.post(
        "/denuncias/acompanhar", data={"protocol": report.protocol, "code": answer["token"]}
    )
    assert track.status_code == 302


def test_post_with_contact_is_confidential(client) -> None:
    response = client.post(
        "/open311/v2/requests.json",
        data={
            **GOOD,
            "first_name": "Ana",
            "last_name": "Souza",
            "email": "ana@example.com",
            "lat": "-23.45",
            "long": "-46.53",
        },
    )
    assert response.status_code == 200
    contact = db.session.scalars(select(ReporterContact)).one()
    assert contact.name == "Ana Souza" and contact.email == "ana@example.com"


def test_post_errors_follow_the_spec(client) -> None:
    for data in (
        {**GOOD, "service_code": "nope"},
        {**GOOD, "description": ""},
        {"service_code": "no_shelter", "description": GOOD["description"]},
        {**GOOD, "lat": "abc", "long": "1"},
        {**GOOD, "lat": "-23.4"},
    ):
        response = client.post("/open311/v2/requests.json", data=data)
        assert response.status_code == 400, data
        errors = response.get_json()
        assert isinstance(errors, list) and set(errors[0]) == {"code", "description"}
    assert db.session.scalars(select(MaltreatmentReport)).all() == []


def test_invalid_api_key_is_refused(client) -> None:
    response = client.post("/open311/v2/requests.json", data={**GOOD, "api_key": "ccz_wrong"})
    assert response.status_code == 403
    assert response.get_json()[0]["code"] == 403


def test_api_key_lifts_the_public_rate_limit(make_app) -> None:
    app = make_app(REPORT_RATE_LIMIT="1/hour")
    with app.app_context():
        token = _token(app)
        assert db.session.scalars(select(ApiClient)).one().kind == "open311"
        client = app.test_client()
        assert client.post("/open311/v2/requests.json", data=GOOD).status_code == 200
        limited = client.post(
            "/open311/v2/requests.json", data={**GOOD, "service_code": "poisoning"}
        )
        assert limited.status_code == 429 and limited.get_json()[0]["code"] == 429
        keyed = client.post(
            "/open311/v2/requests.json", data={**GOOD, "service_code": "fights", "api_key": token}
        )
        assert keyed.status_code == 200
        report = db.session.scalars(
            select(MaltreatmentReport).where(MaltreatmentReport.category == "fights")
        ).one()
        assert report.api_client is not None and report.api_client.name == "App da Cidade"


def test_csrf_does_not_apply(make_app) -> None:
    app = make_app(WTF_CSRF_ENABLED=True)
    with app.app_context():
        assert app.test_client().post("/open311/v2/requests.json", data=GOOD).status_code == 200


def test_get_one_shows_only_status_and_dates_without_staff_rights(client) -> None:
    # "transport" is a category the Guarulhos profile makes public (open311 = "status").
    [answer] = client.post(
        "/open311/v2/requests.json",
        data={**GOOD, "service_code": "transport", "lat": "-23.45", "long": "-46.53"},
    ).get_json()
    [item] = client.get(f"/open311/v2/requests/{answer['service_request_id']}.json").get_json()
    assert set(item) == {
        "service_request_id",
        "status",
        "service_code",
        "service_name",
        "requested_datetime",
        "updated_datetime",
    }
    assert item["status"] == "open" and item["requested_datetime"].endswith("Z")


def test_staff_see_the_place_and_the_facts(client, auth) -> None:
    [answer] = client.post("/open311/v2/requests.json", data=GOOD).get_json()
    auth.login(roles=("coordinator",))
    [item] = client.get(f"/open311/v2/requests/{answer['service_request_id']}.json").get_json()
    assert item["description"] == GOOD["description"] and "Rua das Flores" in item["address"]
    listing = client.get("/open311/v2/requests.json").get_json()
    assert [i["service_request_id"] for i in listing] == [answer["service_request_id"]]


def test_list_is_empty_without_staff_rights(client, auth) -> None:
    client.post("/open311/v2/requests.json", data=GOOD)
    assert client.get("/open311/v2/requests.json").get_json() == []
    auth.login(roles=("citizen",))
    assert client.get("/open311/v2/requests.json").get_json() == []


def test_unknown_protocol_is_404(client) -> None:
    response = client.get("/open311/v2/requests/DEN-2026-999999.json")
    assert response.status_code == 404 and response.get_json()[0]["code"] == 404


# -- issue 26 #5: what Open311 shows the public is decided per category by the profile -----------


def test_a_private_category_answers_exactly_like_an_unknown_protocol(client) -> None:
    [answer] = client.post("/open311/v2/requests.json", data=GOOD).get_json()
    hidden = client.get(f"/open311/v2/requests/{answer['service_request_id']}.json")
    unknown = client.get("/open311/v2/requests/DEN-2026-999999.json")
    assert hidden.status_code == unknown.status_code == 404
    assert hidden.get_json() == unknown.get_json()


def test_the_public_list_holds_only_the_public_categories_status_only(client, auth) -> None:
    client.post("/open311/v2/requests.json", data=GOOD)
    [public] = client.post(
        "/open311/v2/requests.json", data={**GOOD, "service_code": "transport"}
    ).get_json()
    listing = client.get("/open311/v2/requests.json").get_json()
    assert [i["service_request_id"] for i in listing] == [public["service_request_id"]]
    assert "description" not in listing[0] and "address" not in listing[0]
    auth.login(roles=("agent",))
    assert len(client.get("/open311/v2/requests.json").get_json()) == 2


def test_visibility_comes_from_the_profile(app) -> None:
    rules = app.extensions["portal_profile"].reports
    assert rules.open311_public == "none"
    assert rules.open311_visibility("no_shelter") == "none"
    assert rules.open311_visibility("transport") == "status"
    assert rules.open311_visibility("unknown_code") == "none"


def test_every_profile_keeps_private_homes_out_of_open311() -> None:
    for key in ("guarulhos", "bjp", "cabeceira", "cabo", "vilavelha"):
        rules = load_profile(key).reports
        for code in ("no_shelter", "small_space", "poisoning", "no_food", "chain_or_small_space"):
            if rules.category(code) is not None:
                assert rules.open311_visibility(code) == "none", (key, code)


def test_the_gets_share_one_rate_limit(make_app) -> None:
    app = make_app(OPEN311_READ_RATE_LIMIT="3/minute")
    with app.app_context():
        client = app.test_client()
        statuses = [
            client.get("/open311/v2/requests/DEN-2026-000001.json").status_code for _ in range(4)
        ]
        assert statuses == [404, 404, 404, 429]
        limited = client.get("/open311/v2/requests.json")
        assert limited.status_code == 429 and limited.get_json()[0]["code"] == 429


def test_staff_are_not_rate_limited(make_app) -> None:
    from tests.conftest import AuthActions

    app = make_app(OPEN311_READ_RATE_LIMIT="2/minute")
    with app.app_context():
        client = app.test_client()
        AuthActions(client).login(roles=("coordinator",))
        statuses = [client.get("/open311/v2/requests.json").status_code for _ in range(4)]
        assert statuses == [200] * 4


def test_discovery_names_the_endpoints_and_the_rule(client) -> None:
    document = client.get("/open311/v2/discovery.json").get_json()
    [endpoint] = document["endpoints"]
    assert endpoint["url"].endswith("/open311/v2") and "application/json" in endpoint["formats"]
    assert "404" in document["documentation"]


# -- issue 26 #7: the web form's length limits, a 400 and never a database error ------------------

LONG = [
    ("address_string", 201, "address_string"),
    ("email", 255, "email"),
    ("first_name", 201, "first_name"),
    ("phone", 31, "phone"),
    ("description", 4001, "description"),
]


def test_long_fields_answer_400_with_the_field_named(client) -> None:
    for field, length, name in LONG:
        value = ("a" * (length - 12) + "@example.com") if field == "email" else "x" * length
        response = client.post("/open311/v2/requests.json", data={**GOOD, field: value})
        assert response.status_code == 400, field
        errors = response.get_json()
        assert any(e["description"].startswith(f"{name}:") for e in errors), errors
        assert all(set(e) == {"code", "description"} for e in errors)
    assert db.session.scalars(select(MaltreatmentReport)).all() == []


def test_the_attackers_sizes_answer_400(client) -> None:
    for data in (
        {**GOOD, "address_string": "R" * 100_000},
        {**GOOD, "email": "a" * 5_000 + "@example.com"},
        {**GOOD, "last_name": "S" * 5_000, "first_name": "Ana"},
    ):
        response = client.post("/open311/v2/requests.json", data=data)
        assert response.status_code == 400
    assert db.session.scalars(select(MaltreatmentReport)).all() == []


def test_fields_at_the_limit_are_accepted(client) -> None:
    data = {
        **GOOD,
        "address_string": "R" * 200,
        "email": "a" * 242 + "@example.com",
        "first_name": "A" * 200,
        "phone": "1" * 30,
    }
    response = client.post("/open311/v2/requests.json", data=data)
    assert response.status_code == 200, response.get_json()
    contact = db.session.scalars(select(ReporterContact)).one()
    assert contact.email is not None and len(contact.email) == 254
    assert len(contact.name) == 200


def test_a_long_email_without_a_name_is_refused_for_the_email_only(client) -> None:
    response = client.post(
        "/open311/v2/requests.json", data={**GOOD, "email": "a" * 300 + "@example.com"}
    )
    assert response.status_code == 400
    assert [e["description"].split(":")[0] for e in response.get_json()] == ["email"]
