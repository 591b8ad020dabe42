"""The OpenAPI 3.1 document of the Open311 GeoReport v2 endpoints, at
``/open311/v2/openapi.json`` (issue 26 #12): what each endpoint accepts and answers, with the
spec's error body ``[{"code", "description"}]``. The categories (``service_code``) and the text
limits are the profile's and the web form's, so the document cannot drift from what the server
checks. Rules JSON Schema cannot say (a description of at least 10 letters once trimmed, a
confidential report's name) are answered 400 and described on that status."""

from __future__ import annotations

from typing import Any

from flask import jsonify

from portal.access import public
from portal.blueprints.api.schema import NO_NUL as _NO_NUL  # PostgreSQL cannot store a NUL
from portal.blueprints.open311 import bp
from portal.blueprints.reports import services as svc
from portal.blueprints.reports.common import MAX_DESCRIPTION, TEXT_LIMITS

_ERROR = {"$ref": "#/components/schemas/Errors"}


def _json(schema: dict[str, Any]) -> dict[str, Any]:
    return {"application/json": {"schema": schema}}


def _errors(description: str) -> dict[str, Any]:
    return {"description": description, "content": _json(_ERROR)}


# Every operation may answer these: a malformed request (a NUL character, a bad encoding) and
# the per-address rate limit.
_COMMON = {"400": _errors("Pedido inválido"), "429": _errors("Muitas tentativas")}


def _schemas(categories: list[str]) -> dict[str, Any]:
    text = {"type": "string"}
    return {
        "Errors": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["code", "description"],
                "properties": {"code": {"type": "integer"}, "description": text},
            },
        },
        "Service": {
            "type": "object",
            "required": ["service_code", "service_name", "metadata", "type"],
            "properties": {
                "service_code": {"type": "string", "enum": categories},
                "service_name": text,
                "description": text,
                "metadata": {"type": "boolean"},
                "type": {"type": "string", "enum": ["realtime", "batch", "blackbox"]},
                "keywords": text,
                "group": text,
            },
        },
        "ServiceRequest": {
            "type": "object",
            "description": (
                "Para quem não é da equipe do CCZ: só categoria, datas e situação, e só das "
                "categorias que o perfil do município torna públicas."
            ),
            "required": ["service_request_id", "status", "service_code"],
            "properties": {
                "service_request_id": text,
                "status": {"type": "string", "enum": ["open", "closed"]},
                "service_code": text,
                "service_name": text,
                "requested_datetime": {"type": ["string", "null"], "format": "date-time"},
                "updated_datetime": {"type": ["string", "null"], "format": "date-time"},
                "description": text,
                "address": {"type": ["string", "null"]},
                "lat": {"type": ["number", "null"]},
                "long": {"type": ["number", "null"]},
                "agency_responsible": text,
            },
        },
        "NewRequest": {
            "type": "object",
            "required": ["service_code", "description"],
            "propertyNames": {"pattern": _NO_NUL},
            "additionalProperties": {"type": "string", "pattern": _NO_NUL},
            "properties": {
                "service_code": {"type": "string", "enum": categories},
                "description": {
                    "type": "string",
                    "pattern": _NO_NUL,
                    "minLength": 10,
                    "maxLength": MAX_DESCRIPTION,
                    "description": "Pelo menos 10 letras, sem contar espaços nas pontas.",
                },
                "lat": {"type": "number", "minimum": -90, "maximum": 90},
                "long": {"type": "number", "minimum": -180, "maximum": 180},
                "address_string": {
                    "type": "string",
                    "pattern": _NO_NUL,
                    "maxLength": TEXT_LIMITS["street"],
                },
                "email": {"type": "string", "format": "email", "maxLength": TEXT_LIMITS["email"]},
                "first_name": {
                    "type": "string",
                    "pattern": _NO_NUL,
                    "maxLength": TEXT_LIMITS["name"] // 2,
                },
                "last_name": {
                    "type": "string",
                    "pattern": _NO_NUL,
                    "maxLength": TEXT_LIMITS["name"] // 2 - 1,
                },
                "phone": {"type": "string", "pattern": _NO_NUL, "maxLength": TEXT_LIMITS["phone"]},
                "api_key": {
                    "type": "string",
                    "pattern": _NO_NUL,
                    "description": "Chave emitida pelo CCZ: tira o limite do formulário público.",
                },
                "media_url": {
                    "type": "string",
                    "pattern": _NO_NUL,
                    "description": "Ignorado: fotos só pelo portal.",
                },
            },
            # where: an address or a point (both coordinates)
            "anyOf": [{"required": ["address_string"]}, {"required": ["lat", "long"]}],
            "dependentRequired": {"lat": ["long"], "long": ["lat"]},
        },
        "Created": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["service_request_id", "token"],
                "properties": {"service_request_id": text, "token": text},
            },
        },
    }


def _ok(schema: dict[str, Any], description: str = "OK") -> dict[str, Any]:
    return {"description": description, "content": _json(schema)}


def _ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def document() -> dict[str, Any]:
    profile = svc.current_profile()
    categories = [c.code for c in profile.reports.categories]
    requests = {"type": "array", "items": _ref("ServiceRequest")}
    paths: dict[str, Any] = {
        "/discovery.json": {
            "get": {
                "summary": "Descoberta GeoReport v2: onde estão os endpoints",
                "responses": {"200": _ok({"type": "object"}), **_COMMON},
            }
        },
        "/services.json": {
            "get": {
                "summary": "As categorias de maus-tratos da lei do município",
                "responses": {"200": _ok({"type": "array", "items": _ref("Service")}), **_COMMON},
            }
        },
        "/requests.json": {
            "get": {
                "summary": "Denúncias das categorias públicas (a equipe do CCZ vê todas)",
                "parameters": [
                    {
                        "name": "service_code",
                        "in": "query",
                        "schema": {"type": "string", "pattern": _NO_NUL},
                    },
                    {
                        "name": "status",
                        "in": "query",
                        "description": "open ou closed; outro valor: todas",
                        "schema": {"type": "string", "pattern": _NO_NUL},
                    },
                ],
                "responses": {"200": _ok(requests), **_COMMON},
            },
            "post": {
                "summary": "Fazer uma denúncia (anônima sem contato; sigilosa com contato)",
                "requestBody": {
                    "required": True,
                    "content": {
                        "application/x-www-form-urlencoded": {"schema": _ref("NewRequest")}
                    },
                },
                "responses": {
                    "200": _ok(_ref("Created"), "Recebida: protocolo e código de acompanhamento"),
                    "400": _errors(
                        "Dados inválidos (descrição curta, contato sem nome, texto longo demais)"
                    ),
                    "403": _errors("api_key inválida"),
                    "413": _errors("Conteúdo grande demais"),
                    "429": _errors("Muitas tentativas"),
                },
            },
        },
        "/requests/{protocol}.json": {
            "get": {
                "summary": "Uma denúncia pelo protocolo (404 também para categoria reservada)",
                "parameters": [
                    {
                        "name": "protocol",
                        "in": "path",
                        "required": True,
                        "schema": {"type": "string"},
                    }
                ],
                "responses": {
                    "200": _ok(requests),
                    "404": _errors("Pedido não encontrado ou de categoria reservada"),
                    **_COMMON,
                },
            }
        },
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": f"Open311 GeoReport v2 – CCZ de {profile.municipality}",
            "version": "2",
            "description": "Denúncias de maus-tratos; veja também docs/open311.md.",
        },
        "servers": [{"url": "/open311/v2"}],
        "components": {"schemas": _schemas(categories)},
        "paths": paths,
    }


@bp.get("/openapi.json")
@public
def openapi_json():
    return jsonify(document())
