"""Public check of a certidão negativa de captura (GRU 84 §3, §5):
``GET /api/v1/certificates/<code>``, no token.

Answers the RGA, the captures within the prescription period, the period and the issue date;
nothing about the owner or the requester. 404 for an unknown code, and where the profile's law has
no certidão.
"""

from __future__ import annotations

from datetime import date

from flask import jsonify
from flask_babel import gettext as _

from portal.access import public
from portal.blueprints.api import bp
from portal.blueprints.api.errors import ApiError, error
from portal.blueprints.api.openapi import declare_endpoint
from portal.blueprints.api.schema import ResponseModel, dump
from portal.services.clock import current_profile


class CaptureCertificateCheck(ResponseModel):
    code: str
    rga: str
    captures_in_period: int
    period_from: date | None
    period_to: date | None
    issued_on: date | None


@bp.get("/certificates/<code>")
@public
def certificate_check(code: str):
    from portal.blueprints.impound import services

    cert = services.public_certificate(code, current_profile())
    if cert is None:
        raise ApiError([error("code", "not_found", _("Certidão não encontrada."))], 404)
    return jsonify(dump(CaptureCertificateCheck, services.certificate_json(cert)))


declare_endpoint(
    "/certificates/{code}",
    "get",
    auth="public",
    summary="Public check of a certidão negativa de captura (GRU 84 §3, §5)",
    responses={
        200: (CaptureCertificateCheck, "The certificate"),
        404: "Unknown code, or no certidão in this municipality's law",
    },
)
