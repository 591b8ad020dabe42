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

:func:`register_paths` (hand-written path dictionaries) remains as a thin compatibility shim for
domains that have not moved to :func:`declare_endpoint` yet; their entries are merged as given.
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
from portal.blueprints.api.schema import DocumentSchema, Error
from portal.services.clock import current_profile

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
_LEGACY_PATHS: dict[str, dict[str, Any]] = {}
_LEGACY_SCHEMAS: dict[str, dict[str, Any]] = {}
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


def register_paths(
    paths: dict[str, dict[str, Any]], schemas: dict[str, dict[str, Any]] | None = None
) -> None:
    """Compatibility shim: add hand-written path items; prefer :func:`declare_endpoint`."""
    for path, item in paths.items():
        _LEGACY_PATHS.setdefault(path, {}).update(item)
    _LEGACY_SCHEMAS.update(schemas or {})


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
            "schema": ep.path_params.get(name, {"type": "string"}),
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
    op["responses"] = responses
    return op


def document() -> dict[str, Any]:
    profile = current_profile()
    _keys, defs = models_json_schema(_models(), ref_template=_REF, schema_generator=DocumentSchema)
    schemas = dict(_LEGACY_SCHEMAS)
    schemas.update(defs.get("$defs", {}))
    paths: dict[str, dict[str, Any]] = {path: dict(item) for path, item in _LEGACY_PATHS.items()}
    for ep in _ENDPOINTS.values():
        paths.setdefault(ep.path, {})[ep.method] = _operation(ep)
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
