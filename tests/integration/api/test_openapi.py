"""The OpenAPI document is generated from the API's pydantic models (issue 9): it is valid
OpenAPI 3.1, names every /api/v1 route, and the bodies the API answers match their models."""

from __future__ import annotations

import re

import pytest
from openapi_spec_validator import validate
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from portal.blueprints.api import openapi
from portal.blueprints.api.registrations import RegistrationRequest
from portal.blueprints.api.schema import RequestModel, Text, parse


def _shape(path: str) -> str:
    """A path with its parameters unnamed: the document says {id} where the rule says
    <int:listing_id> (the published names stay as they always were)."""
    return re.sub(r"\{[^}]+\}", "{}", re.sub(r"<(?:[^:>]+:)?([^>]+)>", "{}", path))


def test_the_document_is_valid_openapi_3_1(client) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    assert doc["openapi"] == "3.1.0"
    validate(doc)  # raises on any error, including a $ref to a schema that is not there


def test_every_api_route_is_documented_and_nothing_else(app, client) -> None:
    doc = client.get("/api/v1/openapi.json").get_json()
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/") and rule.endpoint != "api.openapi_json":
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                routes.setdefault(_shape(rule.rule.removeprefix("/api/v1")), set()).add(
                    method.lower()
                )
    assert routes == {_shape(path): set(item) for path, item in doc["paths"].items()}


def test_schemas_come_from_the_models(client) -> None:
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    _keys, defs = models_json_schema(
        [(RegistrationRequest, "validation")],
        ref_template="#/components/schemas/{model}",
        schema_generator=openapi.DocumentSchema,
    )
    for name, schema in defs["$defs"].items():
        openapi._walk_without_nul(schema)  # plus: no text holds a NUL character (issue 26 #12)
        assert schemas[name] == schema
    request = schemas["RegistrationRequest"]
    assert set(request["required"]) == {"animal", "owner"}
    assert request["properties"]["animal"] == {"$ref": "#/components/schemas/AnimalIn"}
    assert schemas["AnimalIn"]["properties"]["species"]["enum"] == ["dog", "cat"]
    assert schemas["Error"]["properties"]["errors"]["items"] == {
        "$ref": "#/components/schemas/ErrorItem"
    }
    create = client.get("/api/v1/openapi.json").get_json()["paths"]["/registrations"]["post"]
    assert create["requestBody"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/RegistrationRequest"
    }
    assert create["responses"]["422"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/Error"
    }


class _Probe(BaseModel):
    value: int


@pytest.fixture
def declared():
    """Declarations made by a test are taken out again (the registry is per process)."""
    endpoints = dict(openapi._ENDPOINTS)
    yield
    openapi._ENDPOINTS.clear()
    openapi._ENDPOINTS.update(endpoints)


def test_a_domain_declares_an_endpoint_with_its_models(app, declared) -> None:
    openapi.declare_endpoint(
        "/probes/{code}",
        "get",
        summary="Probe",
        auth="bearer",
        responses={200: _Probe, 404: "Não encontrado"},
    )
    with app.test_request_context():
        doc = openapi.document()
    op = doc["paths"]["/probes/{code}"]["get"]
    assert op["security"] == [{"bearer": []}]
    no_nul = {"type": "string", "pattern": "^[^\\u0000]*$"}  # issue 26 #12: no NUL in text
    assert op["parameters"] == [{"name": "code", "in": "path", "required": True, "schema": no_nul}]
    assert op["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/_Probe"
    }
    assert doc["components"]["schemas"]["_Probe"]["properties"]["value"]["type"] == "integer"
    validate(doc)


class _Nested(RequestModel):
    label: Text = None


class _Body(RequestModel):
    inner: _Nested
    note: Text = None


def test_pydantic_errors_become_the_api_errors_and_the_rest_is_still_read(app) -> None:
    with app.test_request_context():
        body, problems = parse(_Body, {"inner": "x", "note": True})
        assert {(p["field"], p["code"]) for p in problems} == {
            ("inner", "invalid"),
            ("note", "invalid"),
        }
        assert body is not None and body.inner == _Nested() and body.note is None
        body, problems = parse(_Body, {"inner": None, "note": 12})
        assert problems == [
            {"field": "inner", "code": "required", "message": "Objeto obrigatório."}
        ]
        assert body is not None and body.note == "12"  # a number for a text: read as its digits
        body, problems = parse(_Body, {"inner": {"label": ["a"]}})
        assert problems == [
            {"field": "inner.label", "code": "invalid", "message": "Deve ser um texto."}
        ]
