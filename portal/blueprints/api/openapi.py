"""The OpenAPI 3.1 document at /api/v1/openapi.json, generated from the API's pydantic models.

A domain declares each endpoint next to its route::

    declare_endpoint("/licences/{code}", "get", summary="...", auth="public",
                     responses={200: LicenceCheck, 404: "Código desconhecido"})

``responses`` maps a status to a response model (or ``(model, description)``), a description
(an error: the ``Error`` body) or ``Media(...)`` for other media types (PDF, CSV); ``request``
is the body's model and ``query`` a model whose fields are the query parameters. Path parameters
come from ``{name}`` in the path (strings unless ``path_params`` says otherwise). Schemas are the
models' own JSON Schema (``model_json_schema``), gathered under ``components/schemas`` with
``$ref``s.

The declarations are kept in one registry per process, like the ``@bp.get`` routes they sit next
to: both describe the code, not an app's configuration, so every app built from it serves the same
operations (docs/ARCHITECTURE.md, "Globals that remain").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal

from flask import jsonify
from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from portal.access import public
from portal.blueprints.api import bp
from portal.blueprints.api.errors import ApiError, error_response
from portal.blueprints.api.schema import (
    ANY_JSON_WITHOUT_NUL,
    NO_NUL,
    DocumentSchema,
    Error,
    without_nul,
)
from portal.services.clock import current_profile
from portal.services.ids import DB_INT_MAX

Auth = Literal["public", "bearer", "bearer_or_staff"]
_REF = "#/components/schemas/{model}"


@dataclass(frozen=True)
class Media:
    """A response that is not a JSON model of ours: ``content`` maps media types to schemas."""

    description: str
    content: dict[str, Any] = field(default_factory=dict)
    model: type[BaseModel] | None = None  # the JSON body, next to other media types


# a status answers: a model; (model, description); a description (the Error body); or Media
Answer = type[BaseModel] | tuple[type[BaseModel], str] | str | Media


@dataclass
class _Endpoint:
    path: str
    method: str
    summary: str
    auth: Auth
    description: str | None
    operation_id: str | None
    request: type[BaseModel] | None
    request_content: dict[str, Any] | None
    query: type[BaseModel] | None
    path_params: dict[str, dict[str, Any]]
    responses: dict[int, Answer]


_ENDPOINTS: dict[tuple[str, str], _Endpoint] = {}
_DESCRIPTIONS = {
    200: "OK",
    201: "Criado",
    400: "Pedido mal formado",
    401: "Token ausente ou inválido",
    403: "Sem permissão",
    404: "Não encontrado",
    413: "Corpo grande demais",
    422: "Dados inválidos",
}
_COMMON = {
    400: "Pedido mal formado (corpo que não é JSON, caractere NUL)",
    429: "Muitas tentativas: aguarde e tente de novo",
}


def declare_endpoint(
    path: str,
    method: str,
    *,
    summary: str,
    auth: Auth = "public",
    responses: dict[int, Answer],
    description: str | None = None,
    operation_id: str | None = None,
    request: type[BaseModel] | None = None,
    request_content: dict[str, Any] | None = None,
    query: type[BaseModel] | None = None,
    path_params: dict[str, dict[str, Any]] | None = None,
) -> None:
    """Put one operation (path relative to /api/v1, e.g. ``"/rga/{number}"``) in the document."""
    _ENDPOINTS[(path, method.lower())] = _Endpoint(
        path=path,
        method=method.lower(),
        summary=summary,
        auth=auth,
        description=description,
        operation_id=operation_id,
        request=request,
        request_content=request_content,
        query=query,
        path_params=path_params or {},
        responses=responses,
    )


def _json(model: type[BaseModel]) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": _REF.format(model=model.__name__)}}}


def _models() -> list[tuple[type[BaseModel], Literal["validation", "serialization"]]]:
    seen: dict[tuple[type[BaseModel], str], None] = {(Error, "serialization"): None}
    for ep in _ENDPOINTS.values():
        if ep.request is not None:
            seen[(ep.request, "validation")] = None
        for answer in ep.responses.values():
            model = (
                answer.model
                if isinstance(answer, Media)
                else (answer[0] if isinstance(answer, tuple) else answer)
            )
            if isinstance(model, type):
                seen[(model, "serialization")] = None
    return list(seen)  # type: ignore[arg-type]


def _query_parameters(model: type[BaseModel]) -> list[dict[str, Any]]:
    schema = model.model_json_schema(schema_generator=DocumentSchema)
    required = set(schema.get("required", []))
    params = []
    for name, prop in schema.get("properties", {}).items():
        prop = dict(prop)
        prop.pop("title", None)
        options = prop.pop("anyOf", None)
        if options is not None:  # "X or null": a query parameter is simply left out
            prop.update(next(o for o in options if o != {"type": "null"}))
        param: dict[str, Any] = {"name": name, "in": "query", "required": name in required}
        if "description" in prop:
            param["description"] = prop.pop("description")
        if "examples" in prop:
            param["example"] = prop.pop("examples")[0]
        param["schema"] = prop
        params.append(param)
    return params


def _operation(ep: _Endpoint) -> dict[str, Any]:
    op: dict[str, Any] = {}
    if ep.operation_id:
        op["operationId"] = ep.operation_id
    op["summary"] = ep.summary
    if ep.description:
        op["description"] = ep.description
    op["security"] = [] if ep.auth == "public" else [{"bearer": []}]
    params = [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": _path_schema(ep.path_params.get(name, {"type": "string"})),
        }
        for name in re.findall(r"\{(\w+)\}", ep.path)
    ]
    if ep.query is not None:
        params += _query_parameters(ep.query)
    if params:
        op["parameters"] = params
    if ep.request is not None:
        op["requestBody"] = {"required": True, "content": _json(ep.request)}
    elif ep.request_content is not None:
        op["requestBody"] = {"required": True, "content": ep.request_content}
    responses: dict[str, Any] = {}
    for status, answer in sorted(ep.responses.items()):
        if isinstance(answer, Media):
            content = dict(_json(answer.model)) if answer.model is not None else {}
            content.update(answer.content)
            responses[str(status)] = {"description": answer.description, "content": content}
        elif isinstance(answer, str):
            responses[str(status)] = {"description": answer, "content": _json(Error)}
        elif isinstance(answer, tuple):
            model, text = answer
            responses[str(status)] = {"description": text, "content": _json(model)}
        else:
            responses[str(status)] = {
                "description": _DESCRIPTIONS.get(status, "OK"),
                "content": _json(answer),
            }
    # issue 26 #12: what any operation may answer, said once for all of them: a malformed
    # request (not JSON, a NUL character), the rate limits and, with a token, a refused token
    for status, text in _COMMON.items():
        responses.setdefault(str(status), {"description": text, "content": _json(Error)})
    if ep.auth != "public":
        responses.setdefault("401", {"description": _DESCRIPTIONS[401], "content": _json(Error)})
    op["responses"] = dict(sorted(responses.items()))
    return op


def _path_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """An integer id in the path is one the route's converter takes: digits, at most a
    database integer (``portal.create_app``'s ``int`` converter); beyond it the URL is no route."""
    if schema.get("type") == "integer":
        return {"minimum": 0, "maximum": DB_INT_MAX, **schema}
    return schema


_ANY_JSON_WITHOUT_NUL = {
    "description": "Qualquer valor JSON sem o caractere NUL (ignorado pelo servidor)",
    "anyOf": [
        {"type": "string", "pattern": NO_NUL},
        {"type": ["number", "boolean", "null"]},
        {"type": "array", "items": {"$ref": _REF.format(model=ANY_JSON_WITHOUT_NUL)}},
        {
            "type": "object",
            "propertyNames": {"pattern": NO_NUL},
            "additionalProperties": {"$ref": _REF.format(model=ANY_JSON_WITHOUT_NUL)},
        },
    ],
}


def _walk_without_nul(schema: Any) -> None:
    """The no-NUL rule on a hand-written request schema (query parameters, multipart)."""
    if isinstance(schema, list):
        for item in schema:
            _walk_without_nul(item)
    elif isinstance(schema, dict):
        without_nul(schema)
        for key, value in schema.items():
            if key not in ("additionalProperties", "propertyNames", "examples", "example"):
                _walk_without_nul(value)


def request_schema_names() -> set[str]:
    """The components that describe what clients send (they get the no-NUL rule)."""
    requests = [(ep.request, "validation") for ep in _ENDPOINTS.values() if ep.request]
    _keys, defs = models_json_schema(
        requests,  # type: ignore[arg-type]
        ref_template=_REF,
        schema_generator=DocumentSchema,
    )
    return set(defs.get("$defs", {}))


def document() -> dict[str, Any]:
    profile = current_profile()
    _keys, defs = models_json_schema(_models(), ref_template=_REF, schema_generator=DocumentSchema)
    schemas: dict[str, Any] = dict(defs.get("$defs", {}))
    paths: dict[str, dict[str, Any]] = {}
    for ep in _ENDPOINTS.values():
        paths.setdefault(ep.path, {})[ep.method] = _operation(ep)
    for name in request_schema_names():
        _walk_without_nul(schemas.get(name))
    for item in paths.values():
        for op in item.values():
            _walk_without_nul(op.get("parameters", []))
            for media in op.get("requestBody", {}).get("content", {}).values():
                if "$ref" not in media.get("schema", {}):
                    _walk_without_nul(media.get("schema"))
    schemas[ANY_JSON_WITHOUT_NUL] = _ANY_JSON_WITHOUT_NUL
    return {
        "openapi": "3.1.0",
        "info": {"title": f"Portal do CCZ – {profile.municipality}", "version": "1.0.0"},
        "servers": [{"url": "/api/v1"}],
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": dict(sorted(schemas.items())),
        },
        "paths": dict(sorted(paths.items())),
    }


@bp.get("/openapi.json")
@public
def openapi_json():
    return jsonify(document())


@bp.errorhandler(ApiError)
def api_error(err: ApiError):
    return error_response(err.errors, err.status)
