"""Public check of an excess-animal licence (issue 11): ``GET /api/v1/licences/<code>``, no token.

Answers the municipality, the status (``valid``, ``expired``, ``cancelled``), the term and the cap;
nothing about the holder or the residence. 404 for an unknown code (or a request never approved).
"""

from __future__ import annotations

from flask import jsonify
from flask_babel import gettext as _
from sqlalchemy import select

from portal.access import public
from portal.blueprints.api import bp
from portal.blueprints.api.errors import ApiError, error
from portal.blueprints.api.openapi import register_paths
from portal.extensions import db
from portal.models import ExcessLicence
from portal.services.clock import current_profile, local_today


@bp.get("/licences/<code>")
@public
def licence_check(code: str):
    from portal.blueprints.licences import services

    profile = current_profile()
    licence = None
    if profile.licence is not None:
        licence = db.session.scalar(select(ExcessLicence).where(
            ExcessLicence.code == services.normalise_code(code)))
    status = services.public_status(licence, local_today()) if licence is not None else None
    if licence is None or status is None:
        raise ApiError([error("code", "not_found", _("Licença não encontrada."))], 404)
    return jsonify(municipality=profile.municipality, status=status,
                   valid_from=licence.valid_from.isoformat() if licence.valid_from else None,
                   valid_until=licence.valid_until.isoformat() if licence.valid_until else None,
                   max_animals=licence.max_animals)


register_paths({
    "/licences/{code}": {"get": {
        "summary": "Public check of an excess-animal licence (GRU 37 §1; BJP 17 §3; CAB 31 §2)",
        "security": [],
        "parameters": [{"name": "code", "in": "path", "required": True,
                        "schema": {"type": "string"}}],
        "responses": {
            "200": {"description": "The licence", "content": {"application/json": {"schema": {
                "$ref": "#/components/schemas/LicenceCheck"}}}},
            "404": {"description": "Unknown code"},
        }}},
}, schemas={"LicenceCheck": {"type": "object", "properties": {
    "municipality": {"type": "string"},
    "status": {"type": "string", "enum": ["valid", "expired", "cancelled"]},
    "valid_from": {"type": "string", "format": "date"},
    "valid_until": {"type": "string", "format": "date"},
    "max_animals": {"type": "integer"}}}})
