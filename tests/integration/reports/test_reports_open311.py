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
    [answer] = client.post(
        "/open311/v2/requests.json", data={**GOOD, "lat": "-23.45", "long": "-46.53"}
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
