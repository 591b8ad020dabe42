"""The OpenAPI 3.1 document at /api/v1/openapi.json, assembled from each domain's paths."""

from __future__ import annotations

from typing import Any

from flask import current_app, jsonify

from portal.access import public
from portal.blueprints.api import bp
from portal.blueprints.api.errors import ApiError, error_response

_PATHS: dict[str, dict[str, Any]] = {}
_SCHEMAS: dict[str, dict[str, Any]] = {
    "Error": {
        "type": "object",
        "required": ["errors"],
        "properties": {"errors": {"type": "array", "items": {
            "type": "object", "required": ["field", "code", "message"],
            "properties": {"field": {"type": ["string", "null"]}, "code": {"type": "string"},
                           "message": {"type": "string"}}}}},
    },
}


def register_paths(paths: dict[str, dict[str, Any]],
                   schemas: dict[str, dict[str, Any]] | None = None) -> None:
    """Add path items (keyed by path relative to /api/v1, e.g. "/rga/{number}")."""
    for path, item in paths.items():
        _PATHS.setdefault(path, {}).update(item)
    _SCHEMAS.update(schemas or {})


def document() -> dict[str, Any]:
    profile = current_app.extensions["portal_profile"]
    return {
        "openapi": "3.1.0",
        "info": {"title": f"Portal do CCZ – {profile.municipality}", "version": "1.0.0"},
        "servers": [{"url": "/api/v1"}],
        "components": {
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer"}},
            "schemas": _SCHEMAS,
        },
        "paths": dict(sorted(_PATHS.items())),
    }


@bp.get("/openapi.json")
@public
def openapi_json():
    return jsonify(document())


@bp.errorhandler(ApiError)
def api_error(err: ApiError):  # type: ignore[no-untyped-def]
    return error_response(err.errors, err.status)
