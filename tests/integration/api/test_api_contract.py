"""Issue 26 Low #12: the API does exactly what its OpenAPI documents say. Schemathesis generates
requests from /api/v1/openapi.json and /open311/v2/openapi.json, positive and negative, and sends
them in-process to the Flask app (WSGI, no network), without a token and with an establishment's
and an NGO's token, running every check: no server error, every status, header and body
documented and conforming, schema-valid requests accepted, schema-invalid ones refused, 405 with
``Allow``. The number of examples per operation is bounded (MAX_EXAMPLES).

The documents' custom formats (``rga``: the check digit; ``listing-cursor``: a page's ``next``)
get their generators here. Where a rule cannot be said in JSON Schema (a CPF's check digits, a
date relative to today, the household limit, a description of 10 letters once trimmed) the
operation documents the refusal (422, or Open311's 400) and this test accepts it for valid-looking
data on those operations only (``RULES_BEYOND_THE_SCHEMA``)."""

from __future__ import annotations

import base64
import os
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig

from portal.blueprints.animals.rga import format_rga
from portal.extensions import db
from portal.services.api_auth import issue_client

MAX_EXAMPLES = 4  # per operation, mode and token: the file stays about a minute per database

schemathesis.openapi.format(
    "rga",
    st.builds(
        format_rga,
        st.sampled_from(["dog", "cat"]),
        st.integers(2000, 2099),
        st.integers(0, 999_999),
    ),
)
schemathesis.openapi.format(
    "listing-cursor",
    st.builds(
        lambda day, ident: (
            base64.urlsafe_b64encode(f"2026-{day}T12:00:00+00:00|{ident}".encode())
            .decode()
            .rstrip("=")
        ),
        st.sampled_from(["01-15", "06-30", "11-02"]),
        st.integers(1, 10_000),
    ),
)

_ACCEPTED = ["2xx", "401", "403", "404", "409", "429"]
RULES_BEYOND_THE_SCHEMA = [
    ("/registrations", "POST", "422"),  # CPF check digits, dates vs today, household limit
    ("/listings", "POST", "422"),  # dates vs today, the NGO's rules
    ("/listings/{id}", "PATCH", "422"),  # the same, and the state machine
    ("/listings/{id}/photos", "POST", "422"),  # the bytes must be an image
    ("/requests.json", "POST", "400"),  # Open311: 10 letters once trimmed, contact rules
]


def _config() -> SchemathesisConfig:
    return SchemathesisConfig.from_dict(
        {
            "operations": [
                {
                    "include-path": path,
                    "include-method": method,
                    "checks": {
                        "positive_data_acceptance": {"expected-statuses": [*_ACCEPTED, status]}
                    },
                }
                for path, method, status in RULES_BEYOND_THE_SCHEMA
            ]
        }
    )


def _run(app: Any, path: str, token: str | None) -> None:
    """Every operation of the document at ``path``, positive and negative; all failures at
    once."""
    schema = schemathesis.openapi.from_wsgi(path, app, config=_config())
    # uncompressed answers: schemathesis' WSGI transport reads the body as it comes
    headers = {"Accept-Encoding": "identity"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()  # type: ignore[union-attr]  # an invalid one raises: a failure
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):

            @given(case=operation.as_strategy(generation_mode=mode))
            @settings(
                max_examples=MAX_EXAMPLES,
                deadline=None,
                derandomize=True,
                database=None,
                suppress_health_check=list(HealthCheck),
            )
            def check(case: Any) -> None:
                case.call_and_validate(headers=headers)

            try:
                check()
            except Unsatisfiable:
                pass  # nothing schema-invalid to send (a free-text path parameter)
            except (Exception, BaseExceptionGroup) as err:  # noqa: BLE001 - collect them all
                failures.append(f"{operation.label} [{mode.value}]: {err}")
    if failures and os.environ.get("CONTRACT_FAILURES"):  # a file to read them all at once
        with open(os.environ["CONTRACT_FAILURES"], "a") as out:
            out.write("\n\n".join(failures))
    assert not failures, "\n\n".join(failures)


@pytest.fixture
def tokens(app) -> dict[str, str]:  # type: ignore[no-untyped-def]
    _est, est_token = issue_client("establishment", "Pet Shop do Contrato")
    _ngo, ngo_token = issue_client("ngo", "ONG do Contrato")
    db.session.commit()
    return {"establishment": est_token, "ngo": ngo_token}


@pytest.mark.walker(database="postgresql")  # every API operation: once, on PostgreSQL
@pytest.mark.parametrize("who", [None, "establishment", "ngo"])
def test_api_v1_honours_its_contract(app, tokens, who) -> None:  # type: ignore[no-untyped-def]
    _run(app, "/api/v1/openapi.json", tokens[who] if who else None)


def test_open311_honours_its_contract(app) -> None:  # type: ignore[no-untyped-def]
    _run(app, "/open311/v2/openapi.json", None)


@pytest.mark.parametrize(
    ("method", "url", "allowed"),
    [
        ("delete", "/api/v1/listings", {"GET", "POST"}),
        ("post", "/open311/v2/services.json", {"GET"}),
        ("post", "/castracao", {"GET"}),
    ],
)
def test_a_405_names_the_accepted_methods(client, method, url, allowed) -> None:  # type: ignore[no-untyped-def]
    response = getattr(client, method)(url)
    assert response.status_code == 405
    assert allowed <= {m.strip() for m in response.headers["Allow"].split(",")}
    if url.startswith("/open311/"):  # the spec's error body, not an HTML page
        assert response.get_json() == [{"code": 405, "description": "Método não permitido."}]


def test_an_id_beyond_a_database_integer_is_a_404_not_a_405(client) -> None:
    assert client.get("/api/v1/listings/3935897795633191").status_code == 404


def test_listings_read_ages_as_documented_and_a_reversed_range_is_empty(client) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    params = {p["name"]: p for p in doc["paths"]["/listings"]["get"]["parameters"]}
    assert params["age_max"]["schema"] == {"type": "integer", "minimum": 0, "maximum": 30}
    response = client.get("/api/v1/listings?age_min=27&age_max=3")
    assert response.status_code == 200 and response.get_json() == {"items": [], "next": None}
    assert client.get("/api/v1/listings?age_min=27&age_max=3&species=x").status_code == 422


def test_open311_publishes_its_openapi_document(client) -> None:
    from openapi_spec_validator import validate

    doc = client.get("/open311/v2/openapi.json").get_json()
    validate(doc)
    assert set(doc["paths"]) == {
        "/discovery.json",
        "/services.json",
        "/requests.json",
        "/requests/{protocol}.json",
    }
